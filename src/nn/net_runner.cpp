#include "nn/net_runner.h"

#include <dlfcn.h>
#include <torch/torch.h>

#include <mutex>

#include "core/error.h"
#include "core/parse_number.h"
#include "models/checkpoint.h"
#include "models/network.h"
#include "net/net_rows.h"

namespace sz::nn {

struct NetRunner::Impl {
  net::Architecture arch;
  std::string source;  // the checkpoint's path, or what else the weights are
  models::Network net{nullptr};
  torch::Device device{torch::kCPU};
  std::string device_name;
  Precision precision = Precision::Float32;
  torch::ScalarType dtype = torch::kFloat;
  int max_batch = 0;
  int threads = 1;
  torch::Tensor planes, scalars;  // staging rows in host memory, pinned on CUDA
};

namespace {

torch::ScalarType dtype_of(Precision p) {
  switch (p) {
    case Precision::Float16:
      return torch::kHalf;
    case Precision::BFloat16:
      return torch::kBFloat16;
    case Precision::Float32:
    case Precision::Auto:  // resolved before
      break;
  }
  return torch::kFloat;
}

std::unique_ptr<NetRunner::Impl> make_impl(models::Network net, const InferenceConfig& c, std::string source) {
  set_torch_threads(c.threads);
  auto m = std::make_unique<NetRunner::Impl>();
  m->source = std::move(source);
  m->device_name = resolve_device(c.device);
  m->device = torch::Device(m->device_name);
  const Precision precision = resolve_precision(c.precision, m->device.is_cuda());
  if (precision == Precision::Float16 && !m->device.is_cuda())
    throw Error("precision float16 needs a CUDA device (on the CPU, use bfloat16)");
  if (c.max_batch < 1) throw Error("max_batch must be at least 1");
  m->precision = precision;
  m->dtype = dtype_of(precision);
  m->arch = net->architecture();
  m->max_batch = c.max_batch;
  m->threads = c.threads;
  net->eval();  // batch norm from its running statistics
  net->to(m->device, m->dtype);
  m->net = net;
  const auto host = torch::TensorOptions().pinned_memory(m->device.is_cuda());
  m->planes = torch::zeros({c.max_batch, m->arch.spec.binary_planes}, host.dtype(torch::kLong));
  m->scalars = torch::zeros({c.max_batch, m->arch.spec.scalar_features}, host.dtype(torch::kFloat));
  return m;
}

// Debian's LibTorch does its matrix products in OpenBLAS, whose own thread pool ignores
// torch::set_num_threads and spins (sched_yield) between calls: on 2 cores its second worker
// took 10-15% of a core away from the evaluator. Found at run time, as LibTorch builds with MKL
// (PyTorch's) have no OpenBLAS and obey torch's setting.
void limit_blas_threads(int threads) {
  using SetThreads = void (*)(int);
  if (void* f = ::dlsym(RTLD_DEFAULT, "openblas_set_num_threads")) reinterpret_cast<SetThreads>(f)(threads);
}

}  // namespace

bool cuda_available() { return torch::cuda::is_available(); }

std::string resolve_device(std::string_view d) {
  if (d == "auto") return cuda_available() ? "cuda:0" : "cpu";
  if (d == "cpu") return "cpu";
  int index = 0;
  if (d != "cuda") {
    const std::string_view digits = d.starts_with("cuda:") ? d.substr(5) : std::string_view{};
    if (!parse_number(digits, index) || index < 0)
      throw Error("device must be auto, cpu, cuda or cuda:N, not '" + std::string(d) + "'");
  }
  if (!cuda_available()) throw Error("device " + std::string(d) + ": CUDA is not available to this LibTorch");
  if (index >= int(torch::cuda::device_count()))
    throw Error("device " + std::string(d) + ": there are only " + std::to_string(torch::cuda::device_count()) +
                " CUDA devices");
  return "cuda:" + std::to_string(index);
}

void set_torch_threads(int threads) {
  if (threads < 1) throw Error("torch threads must be at least 1");
  static std::once_flag interop;
  std::call_once(interop, [] {
    try {
      torch::set_num_interop_threads(1);  // no inter-op parallelism is used; do not start a pool for it
    } catch (const c10::Error&) {
      // Possible only once per process and before any parallel work; harmless to miss.
    }
  });
  torch::set_num_threads(threads);
  limit_blas_threads(threads);
}

NetRunner::NetRunner(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
NetRunner::~NetRunner() = default;

std::unique_ptr<NetRunner> NetRunner::from_checkpoint(const std::string& path, const game::GameSpec& spec,
                                                      const InferenceConfig& c) {
  models::LoadedNetwork loaded = models::load_network(path, spec);
  return std::unique_ptr<NetRunner>(new NetRunner(make_impl(loaded.net, c, path)));
}

std::unique_ptr<NetRunner> NetRunner::from_architecture(const net::Architecture& arch, uint64_t seed,
                                                        const InferenceConfig& c) {
  static std::mutex mutex;  // torch initialises weights from its one global generator
  models::Network net{nullptr};
  {
    std::lock_guard lock(mutex);
    torch::manual_seed(seed);
    net = models::Network(arch);
  }
  return std::unique_ptr<NetRunner>(
      new NetRunner(make_impl(net, c, "a fresh network (seed " + std::to_string(seed) + ")")));
}

std::unique_ptr<NetRunner> NetRunner::from_network(const std::shared_ptr<models::NetworkImpl>& net,
                                                   const InferenceConfig& c) {
  return std::unique_ptr<NetRunner>(
      new NetRunner(make_impl(models::copy_network(models::Network(net), torch::kCPU), c, "the trainer's network")));
}

const net::Architecture& NetRunner::architecture() const { return impl_->arch; }
const std::string& NetRunner::device() const { return impl_->device_name; }
const std::string& NetRunner::source() const { return impl_->source; }
Precision NetRunner::precision() const { return impl_->precision; }
int NetRunner::max_batch() const { return impl_->max_batch; }
int NetRunner::threads() const { return impl_->threads; }
int NetRunner::output_stride() const { return impl_->arch.spec.action_space + 4; }
uint64_t* NetRunner::input_planes() { return reinterpret_cast<uint64_t*>(impl_->planes.data_ptr<int64_t>()); }
float* NetRunner::input_scalars() { return impl_->scalars.data_ptr<float>(); }

OutputRows NetRunner::run(int n) {
  Impl& m = *impl_;
  if (n < 1 || n > m.max_batch)
    throw Error("batch of " + std::to_string(n) + " outside 1.." + std::to_string(m.max_batch));
  try {
    c10::InferenceMode inference;  // no autograd bookkeeping at all
    torch::Tensor planes = m.planes.narrow(0, 0, n), scalars = m.scalars.narrow(0, 0, n);
    if (m.device.is_cuda()) {  // from pinned memory: asynchronous, ordered before the forward pass
      planes = planes.to(m.device, torch::kLong, /*non_blocking=*/true);
      scalars = scalars.to(m.device, torch::kFloat, /*non_blocking=*/true);
    }
    const models::NetOutput out = m.net->forward(models::expand_input(planes, scalars.to(m.dtype)));
    const torch::Tensor moves = out.moves_left.defined() ? out.moves_left.unsqueeze(1) * net::kMovesLeftScale
                                                         : torch::zeros({n, 1}, out.wdl.options());
    const torch::Tensor rows = torch::cat({out.policy, out.wdl, moves}, 1).to(torch::kFloat);
    torch::Tensor host = rows;
    if (m.device.is_cuda()) {  // one copy back, into pinned memory
      host = torch::empty(rows.sizes(), torch::TensorOptions().dtype(torch::kFloat).pinned_memory(true));
      host.copy_(rows);
    }
    host = host.contiguous();
    if (!net::all_finite(host.data_ptr<float>(), size_t(host.numel())))
      throw Error(m.source + ": the network's output holds NaN or infinity (damaged or diverged weights); " +
                  "no search can use it: take an earlier checkpoint");
    auto owner = std::make_shared<torch::Tensor>(host);
    return OutputRows{std::shared_ptr<const float>(owner, host.data_ptr<float>()), n, output_stride()};
  } catch (const c10::Error& e) {
    throw Error("forward pass on " + m.device_name + ": " + e.what_without_backtrace());
  }
}

}  // namespace sz::nn
