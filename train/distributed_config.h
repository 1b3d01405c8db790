#pragma once
// Where a trainer rank stands in a data-parallel job: its rank, the number of ranks and the
// rendezvous (the TCPStore that rank 0 serves, host:port), from `train --world-size N --rank R
// --rendezvous HOST:PORT` or from the environment that torchrun (RANK, WORLD_SIZE, MASTER_ADDR,
// MASTER_PORT) or Slurm (SLURM_PROCID, SLURM_NTASKS, with MASTER_ADDR and MASTER_PORT set by the
// batch script) gives each process. Torch-free.
#include <functional>
#include <string>

#include "core/error.h"

namespace sz::train {

struct DistributedConfig {
  int world_size = 1;  // 1: not distributed
  int rank = 0;
  std::string host{};  // rank 0's address, where it serves the rendezvous store
  int port = 29500;
  double timeout_seconds = 300;  // a rank that does not answer within this fails the others

  bool distributed() const { return world_size > 1; }
};

// "HOST:PORT" (a port in 1..65535; the host as given, "[::1]:PORT" for IPv6) into `config`.
Result<DistributedConfig> with_rendezvous(DistributedConfig config, const std::string& host_port);

// The ranks from the environment (`getenv`, e.g. std::getenv): torchrun's RANK and WORLD_SIZE,
// else Slurm's SLURM_PROCID and SLURM_NTASKS, with MASTER_ADDR and MASTER_PORT; a world of one
// (no variables) is not distributed. A message naming the variable for a bad or missing one.
Result<DistributedConfig> distributed_from_env(const std::function<const char*(const char*)>& getenv);

// Checks a config built from flags: the world, the rank in it, a rendezvous when distributed.
Result<DistributedConfig> checked(DistributedConfig config);

}  // namespace sz::train
