#include "train/precision.h"

#include <ATen/autocast_mode.h>
#include <torch/version.h>

#include "core/error.h"

// LibTorch 2.4 made autocast per device type (set_autocast_enabled(kCUDA, ...)); the old CUDA
// calls are deprecated there. 1.13 (Debian's) has only the old ones.
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
#define SZ_AUTOCAST_PER_DEVICE 1
#else
#define SZ_AUTOCAST_PER_DEVICE 0
#endif

namespace sz::train {

namespace {

constexpr double kInitialLossScale = 65536.0;
constexpr int64_t kGrowthInterval = 2000;  // good steps before the scale doubles (GradScaler's)

bool autocast_enabled() {
#if SZ_AUTOCAST_PER_DEVICE
  return at::autocast::is_autocast_enabled(at::kCUDA);
#else
  return at::autocast::is_enabled();
#endif
}

at::ScalarType autocast_dtype() {
#if SZ_AUTOCAST_PER_DEVICE
  return at::autocast::get_autocast_dtype(at::kCUDA);
#else
  return at::autocast::get_autocast_gpu_dtype();
#endif
}

void set_autocast(bool enabled, at::ScalarType dtype) {
#if SZ_AUTOCAST_PER_DEVICE
  at::autocast::set_autocast_dtype(at::kCUDA, dtype);
  at::autocast::set_autocast_enabled(at::kCUDA, enabled);
#else
  at::autocast::set_autocast_gpu_dtype(dtype);
  at::autocast::set_enabled(enabled);
#endif
}

}  // namespace

MixedPrecision::MixedPrecision(TrainPrecision precision, const torch::Device& device) : precision_(precision) {
  if (precision_ == TrainPrecision::Auto)
    precision_ = device.is_cuda() ? TrainPrecision::BFloat16 : TrainPrecision::Float32;
  if (autocast() && !device.is_cuda())
    throw Error("train.precision: bfloat16 and float16 train on CUDA only; this trainer runs on " + device.str());
  if (precision_ == TrainPrecision::Float16) loss_scale = kInitialLossScale;
}

MixedPrecision::Guard::Guard(const MixedPrecision& mp) : on_(mp.autocast()) {
  if (!on_) return;
  was_enabled_ = autocast_enabled();
  was_dtype_ = autocast_dtype();
  set_autocast(true, mp.precision_ == TrainPrecision::Float16 ? at::kHalf : at::kBFloat16);
  at::autocast::increment_nesting();
}

MixedPrecision::Guard::~Guard() {
  if (!on_) return;
  if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();  // cached casts of the weights
  set_autocast(was_enabled_, was_dtype_);
}

bool MixedPrecision::backward_and_step(const torch::Tensor& loss, torch::optim::Optimizer& optimizer,
                                       const std::vector<torch::Tensor>& parameters) {
  if (precision_ != TrainPrecision::Float16) {
    loss.backward();
    optimizer.step();
    return true;
  }
  (loss * loss_scale).backward();
  std::vector<torch::Tensor> finite;
  for (const torch::Tensor& p : parameters) {
    if (!p.grad().defined()) continue;
    p.mutable_grad().div_(loss_scale);
    finite.push_back(torch::isfinite(p.grad()).all());
  }
  const bool ok = finite.empty() || torch::stack(finite).all().item<bool>();  // one device sync
  if (ok) {
    optimizer.step();
    if (++good_steps >= kGrowthInterval) loss_scale *= 2, good_steps = 0;
  } else {
    loss_scale = std::max(1.0, loss_scale / 2);
    good_steps = 0;
  }
  return ok;
}

}  // namespace sz::train
