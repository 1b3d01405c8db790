#pragma once
// The ranks of a data-parallel trainer, connected through PyTorch's own distributed library
// (c10d): rank 0 serves a TCPStore at the rendezvous, every rank joins a Gloo process group
// through it, and gradients are averaged over the ranks with one all-reduce of a flat buffer:
// over NCCL when the trainer's device is a GPU and this LibTorch has it (SZ_HAVE_NCCL, found by
// CMake), else over Gloo from the CPU. Nothing home-made for networking. Built when LibTorch
// ships c10d with Gloo (CMake option SZ_DISTRIBUTED, on when the headers are found); without it,
// connecting is an error that says so.
// Includes torch: for the trainer's .cpp files only.
#include <torch/torch.h>

#include <memory>
#include <vector>

#include "train/distributed_config.h"

namespace sz::train {

// Whether this build can connect ranks at all (SZ_DISTRIBUTED).
bool distributed_built();

// Not thread-safe: one per trainer process.
class ProcessGroup {
 public:
  // Joins the world of config.world_size ranks at config.host:port (rank 0 serves it). Throws
  // sz::Error naming the rendezvous when the others do not all join within config.timeout_seconds,
  // or when this build has no c10d. `device`: the trainer's, whose gradients average() gets
  // (a CUDA device takes NCCL where it is built: each rank then needs a GPU of its own).
  explicit ProcessGroup(const DistributedConfig& config, const torch::Device& device = torch::kCPU);
  ~ProcessGroup();
  ProcessGroup(const ProcessGroup&) = delete;
  ProcessGroup& operator=(const ProcessGroup&) = delete;

  // Replaces each tensor by its mean over the ranks (same shapes and order on every rank; float
  // tensors on one device), and tells whether any rank passed `stop` (one more float in the same
  // all-reduce), so that all can end after this step together. Throws sz::Error naming this rank
  // and the rendezvous when another rank fails to take part within the timeout (it died): the
  // caller stops.
  bool average(const std::vector<torch::Tensor>& tensors, bool stop = false);

  // The smallest of the ranks' `value`s (e.g. the steps each rank's data allows), so that all
  // take the same number of steps. Throws like average().
  int64_t minimum(int64_t value);

  // Rank 0's `text` on every rank (the others' argument is ignored), through the TCPStore: rank 0
  // sets a key, the others wait for it, and all meet in a collective before rank 0 deletes it, so
  // that the store holds one text at a time. Throws like average().
  std::string text_of_rank0(const std::string& text);

  int rank() const { return config_.rank; }
  int size() const { return config_.world_size; }

 private:
  struct Impl;
  DistributedConfig config_;
  std::unique_ptr<Impl> impl_;
  int64_t texts_ = 0;  // text_of_rank0 calls so far: each uses a key of its own
};

}  // namespace sz::train
