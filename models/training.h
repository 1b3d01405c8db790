#pragma once
// The training-side pieces the trainer (train/) builds on: the loss of a batch and the
// optimiser. The overfit test uses exactly this code. Includes torch.
//
// Loss (AlphaZero; KataGo for the masking and the auxiliary heads):
//   policy     = sum_i m_i * CE(pi_i, softmax(p_i)) / max(1, sum_i m_i)   m_i: the policy is a target;
//                the softmax over the position's legal actions where the row names them (lc0)
//   wdl        = mean_i CE(z_i, softmax(v_i))                             z_i: win/draw/loss target
//   moves_left = mean_i Huber(l_i / net::kMovesLeftScale, ml_i)                only with the head and targets
//   total      = w_p * policy + w_v * wdl + w_m * moves_left
// L2 regularisation is the optimiser's weight decay, on convolution and linear weights only
// (batch-norm parameters and biases are not decayed).
#include <torch/torch.h>

#include <memory>
#include <string_view>

#include "models/network.h"
#include "models/training_config.h"

namespace sz::models {

struct LossBatch {
  torch::Tensor input;        // [N, C, 8, 8] float (expand_input)
  torch::Tensor policy;       // [N, action_space] target distribution; rows of unmasked positions are ignored
  torch::Tensor policy_mask;  // [N] float 0/1: the policy is a target (a full search, playout-cap randomisation)
  torch::Tensor legal;        // [N, action_space] bool: the legal actions (all true where unknown); undefined: no mask
  torch::Tensor wdl;          // [N, 3] target distribution from the side to move's view
  torch::Tensor moves_left;   // [N] plies to the end; undefined: no moves-left loss
};

struct Losses {
  torch::Tensor total;  // scalar, with gradient
  // Per head, unweighted: detached float scalars on the batch's device. Reading one (item())
  // waits for the device, so a trainer sums them there and reads them only when it logs.
  torch::Tensor policy;
  torch::Tensor wdl;
  torch::Tensor moves_left;  // 0 without the head or the targets
};

// Runs nothing itself and waits for nothing: takes the network's output for batch.input.
Losses compute_losses(const NetOutput& out, const LossBatch& batch, const LossWeights& weights = {});

// Two parameter groups: weights of convolutions and linear layers (decayed) and the rest.
std::unique_ptr<torch::optim::Optimizer> make_optimizer(Network& net, const OptimizerConfig& config);

void set_learning_rate(torch::optim::Optimizer& optimizer, double learning_rate);

}  // namespace sz::models
