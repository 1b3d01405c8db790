#include "train/distributed_config.h"

#include "core/parse_number.h"

namespace sz::train {

namespace {

Result<int> int_in(const std::string& name, const char* text, int lo, int hi) {
  int value = 0;
  if (!text || !parse_number(std::string_view(text), value) || value < lo || value > hi)
    return fail(name + ": '" + (text ? text : "") + "' is not a number in " + std::to_string(lo) + ".." +
                std::to_string(hi));
  return value;
}

}  // namespace

Result<DistributedConfig> checked(DistributedConfig c) {
  if (c.world_size < 1) return fail("world size " + std::to_string(c.world_size) + ": must be at least 1");
  if (c.rank < 0 || c.rank >= c.world_size)
    return fail("rank " + std::to_string(c.rank) + ": not in 0.." + std::to_string(c.world_size - 1));
  if (c.distributed() && c.host.empty()) return fail("a world of several ranks needs a rendezvous HOST:PORT");
  if (c.port < 1 || c.port > 65535) return fail("rendezvous port " + std::to_string(c.port) + ": not in 1..65535");
  if (!(c.timeout_seconds > 0)) return fail("the distributed timeout must be positive");
  return c;
}

Result<DistributedConfig> with_rendezvous(DistributedConfig c, const std::string& host_port) {
  const size_t colon = host_port.rfind(':');
  if (colon == std::string::npos || colon == 0)
    return fail("rendezvous '" + host_port + "': give HOST:PORT, e.g. node01:29500");
  std::string host = host_port.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  Result<int> port = int_in("rendezvous '" + host_port + "' port", host_port.c_str() + colon + 1, 1, 65535);
  if (!port) return fail(port.error());
  c.host = host;
  c.port = *port;
  return c;
}

Result<DistributedConfig> distributed_from_env(const std::function<const char*(const char*)>& getenv) {
  const bool torchrun = getenv("WORLD_SIZE") != nullptr;
  const char* size_name = torchrun ? "WORLD_SIZE" : "SLURM_NTASKS";
  const char* rank_name = torchrun ? "RANK" : "SLURM_PROCID";
  DistributedConfig c;
  if (!getenv(size_name)) return c;  // neither: one rank
  Result<int> size = int_in(size_name, getenv(size_name), 1, 1 << 20);
  if (!size) return fail(size.error());
  Result<int> rank = int_in(rank_name, getenv(rank_name), 0, *size - 1);
  if (!rank) return fail(rank.error());
  c.world_size = *size;
  c.rank = *rank;
  if (!c.distributed()) return c;
  const char* addr = getenv("MASTER_ADDR");
  if (!addr || !*addr) return fail(std::string(size_name) + " is " + getenv(size_name) + " but MASTER_ADDR is not set");
  Result<int> port = int_in("MASTER_PORT", getenv("MASTER_PORT"), 1, 65535);
  if (!port) return fail(port.error());
  c.host = addr;
  c.port = *port;
  return checked(c);
}

}  // namespace sz::train
