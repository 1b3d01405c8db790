#include "train/process_group.h"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <string>

#include "core/error.h"
#include "core/number_text.h"

#ifdef SZ_HAVE_C10D
#ifndef USE_C10D_GLOO  // the header's guard (TORCH_CXX_FLAGS may set it): LibTorch is built with Gloo
#define USE_C10D_GLOO 1
#endif
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#endif
#ifdef SZ_HAVE_NCCL  // set by CMake only where a program constructing ProcessGroupNCCL links
#ifndef USE_C10D_NCCL
#define USE_C10D_NCCL 1
#endif
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

namespace sz::train {

namespace {

std::string where(const DistributedConfig& c) {
  return "distributed: rank " + std::to_string(c.rank) + " of " + std::to_string(c.world_size) + " at " + c.host + ":" +
         std::to_string(c.port);
}

#ifdef SZ_HAVE_C10D
// What a collective's failure says: another rank died or went silent.
Error all_reduce_failed(const DistributedConfig& c, const std::exception& e) {
  return Error(where(c) + ": the all-reduce failed (another rank died or did not answer within " +
               shortest_text(c.timeout_seconds) + " s): " + e.what());
}
#endif

}  // namespace

#ifdef SZ_HAVE_C10D

bool distributed_built() { return true; }

struct ProcessGroup::Impl {
  std::chrono::milliseconds timeout{0};
  c10::intrusive_ptr<c10d::Store> store;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> group;  // every collective of CPU tensors
#ifdef SZ_HAVE_NCCL
  c10::intrusive_ptr<c10d::ProcessGroupNCCL> nccl;  // the gradients of CUDA ranks
#endif
  // All-reduces (sums) `buffer` in place over NCCL when it is on a GPU and NCCL is up, else
  // over Gloo, through a CPU copy of a GPU buffer.
  void allreduce_sum(torch::Tensor& buffer) {
#ifdef SZ_HAVE_NCCL
    if (nccl && buffer.is_cuda()) {
      std::vector<torch::Tensor> b{buffer};
      nccl->allreduce(b)->wait(timeout);
      return;
    }
#endif
    std::vector<torch::Tensor> b{buffer.is_cuda() ? buffer.to(torch::kCPU) : buffer};
    group->allreduce(b)->wait(timeout);
    if (buffer.is_cuda()) buffer.copy_(b[0]);
  }
};

ProcessGroup::ProcessGroup(const DistributedConfig& config, [[maybe_unused]] const torch::Device& device)
    : config_(config), impl_(std::make_unique<Impl>()) {
  // Gloo writes to its peers' sockets: when a peer has died, a write must fail with EPIPE (and so
  // give the clear error below), not kill this rank with SIGPIPE (seen in 1 of 20 such deaths).
  std::signal(SIGPIPE, SIG_IGN);
  Impl& g = *impl_;
  g.timeout = std::chrono::milliseconds(int64_t(config.timeout_seconds * 1000));
  try {
    c10d::TCPStoreOptions so;
    so.port = uint16_t(config.port);
    so.isServer = config.rank == 0;
    so.numWorkers = size_t(config.world_size);
    so.waitWorkers = true;
    so.timeout = g.timeout;
    g.store = c10::make_intrusive<c10d::TCPStore>(config.host, so);
    auto options = c10d::ProcessGroupGloo::Options::create(g.timeout);
    // Gloo binds each rank to an address of its own host: the interface GLOO_SOCKET_IFNAME names
    // (as torch.distributed does), else the address this host's name resolves to.
    const char* interface = std::getenv("GLOO_SOCKET_IFNAME");
    options->devices.push_back(interface && *interface ? c10d::ProcessGroupGloo::createDeviceForInterface(interface)
                                                       : c10d::ProcessGroupGloo::createDefaultDevice());
    options->threads = 2;
    g.group = c10::make_intrusive<c10d::ProcessGroupGloo>(g.store, config.rank, config.world_size, options);
#ifdef SZ_HAVE_NCCL
    if (device.is_cuda()) {
      auto nccl_options = c10d::ProcessGroupNCCL::Options::create();
      nccl_options->timeout = g.timeout;
      // A store of its own under a prefix: NCCL's keys do not meet Gloo's.
      g.nccl = c10::make_intrusive<c10d::ProcessGroupNCCL>(c10::make_intrusive<c10d::PrefixStore>("nccl", g.store),
                                                           config.rank, config.world_size, nccl_options);
    }
#endif
  } catch (const std::exception& e) {
    throw Error(where(config) + ": cannot join the other ranks within " + shortest_text(config.timeout_seconds) +
                " s: " + e.what());
  }
}

ProcessGroup::~ProcessGroup() = default;

bool ProcessGroup::average(const std::vector<torch::Tensor>& tensors, bool stop) {
  Impl& g = *impl_;
  std::vector<torch::Tensor> flat_parts;
  flat_parts.reserve(tensors.size() + 1);
  for (const torch::Tensor& t : tensors) flat_parts.push_back(t.reshape({-1}));
  // The stop flag rides along: its mean is above zero when any rank passed it. On the tensors'
  // device: a CPU flag beside CUDA gradients would fail the concatenation.
  const torch::TensorOptions like =
      tensors.empty() ? torch::TensorOptions().dtype(torch::kFloat32) : tensors.front().options();
  flat_parts.push_back(torch::full({1}, stop ? 1.0 : 0.0, like));
  std::vector<torch::Tensor> buffer{torch::cat(flat_parts)};
  try {
    g.allreduce_sum(buffer[0]);
  } catch (const std::exception& e) {
    throw all_reduce_failed(config_, e);
  }
  buffer[0].div_(config_.world_size);
  int64_t offset = 0;
  for (const torch::Tensor& t : tensors) {
    const int64_t n = t.numel();
    t.copy_(buffer[0].narrow(0, offset, n).view(t.sizes()));
    offset += n;
  }
  return buffer[0][offset].item<double>() > 0;
}

int64_t ProcessGroup::minimum(int64_t value) {
  std::vector<torch::Tensor> buffer{torch::full({1}, value, torch::kInt64)};
  c10d::AllreduceOptions options;
  options.reduceOp = c10d::ReduceOp::MIN;
  try {
    impl_->group->allreduce(buffer, options)->wait(impl_->timeout);
  } catch (const std::exception& e) {
    throw all_reduce_failed(config_, e);
  }
  return buffer[0].item<int64_t>();
}

std::string ProcessGroup::text_of_rank0(const std::string& text) {
  const std::string key = "sz/text/" + std::to_string(texts_++);
  std::string out;
  try {
    if (config_.rank == 0) {
      impl_->store->set(key, std::vector<uint8_t>(text.begin(), text.end()));
      out = text;
    } else {
      const std::vector<uint8_t> bytes = impl_->store->get(key);  // waits up to the store's timeout
      out.assign(bytes.begin(), bytes.end());
    }
  } catch (const std::exception& e) {
    throw Error(where(config_) + ": rank 0's key '" + key + "' did not come within " +
                shortest_text(config_.timeout_seconds) + " s (rank 0 died or is stuck): " + e.what());
  }
  minimum(0);  // every rank has read it
  if (config_.rank == 0) impl_->store->deleteKey(key);
  return out;
}

#else  // no c10d in this LibTorch

bool distributed_built() { return false; }

struct ProcessGroup::Impl {};

ProcessGroup::ProcessGroup(const DistributedConfig& config, const torch::Device&) : config_(config) {
  throw Error(where(config) +
              ": this build has no distributed training (LibTorch without c10d and Gloo headers; "
              "configure with -DSZ_DISTRIBUTED=ON where they are, see docs/SCALING.md)");
}

ProcessGroup::~ProcessGroup() = default;

bool ProcessGroup::average(const std::vector<torch::Tensor>&, bool stop) { return stop; }
int64_t ProcessGroup::minimum(int64_t value) { return value; }
std::string ProcessGroup::text_of_rank0(const std::string& text) { return text; }

#endif

}  // namespace sz::train
