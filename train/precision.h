#pragma once
// Mixed precision for training (internal to train/; includes torch). On CUDA the forward pass
// runs under autocast (bfloat16 by default: no loss scaling needed; float16 with a dynamic loss
// scale, as torch.cuda.amp.GradScaler does). The CPU trains in float32. The autocast calls
// differ between LibTorch releases; precision.cpp guards them with TORCH_VERSION_*.
#include <torch/torch.h>

#include <vector>

#include "train/train_config.h"

namespace sz::train {

class MixedPrecision {
 public:
  // Resolves `auto`; throws sz::Error when bfloat16 or float16 is asked for off CUDA.
  MixedPrecision(TrainPrecision precision, const torch::Device& device);

  TrainPrecision resolved() const { return precision_; }
  bool autocast() const { return precision_ == TrainPrecision::BFloat16 || precision_ == TrainPrecision::Float16; }

  // Enables autocast on CUDA for its lifetime (this thread), when autocast() is on.
  class Guard {
   public:
    explicit Guard(const MixedPrecision& mp);
    ~Guard();
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;

   private:
    bool on_ = false;
    bool was_enabled_ = false;
    at::ScalarType was_dtype_ = at::kHalf;
  };

  // loss.backward() and optimizer.step(), with loss scaling under float16: a step whose
  // gradients overflowed is skipped and the scale halved. Returns false for a skipped step.
  bool backward_and_step(const torch::Tensor& loss, torch::optim::Optimizer& optimizer,
                         const std::vector<torch::Tensor>& parameters);

  // The dynamic loss scale (float16 only; 0 otherwise), saved with every checkpoint.
  double loss_scale = 0;
  int64_t good_steps = 0;

 private:
  TrainPrecision precision_;
};

}  // namespace sz::train
