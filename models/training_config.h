#pragma once
// The settings of the optimiser and of the loss (models/training.h runs them): plain structs,
// torch-free, whose initialisers are the only defaults. The trainer's config (train/train_config.h)
// holds them and reads them from the `train` section of a run config.
#include <string_view>

namespace sz::models {

enum class OptimizerKind { Sgd, AdamW };

// SGD with Nesterov momentum, or AdamW. weight_decay is the L2 term (SGD, as in AlphaZero) or the
// decoupled decay (AdamW), on convolution and linear weights only.
struct OptimizerConfig {
  OptimizerKind kind = OptimizerKind::Sgd;
  double learning_rate = 0.02;
  double momentum = 0.9;  // SGD, Nesterov
  double weight_decay = 1e-4;
  double adam_beta1 = 0.9;
  double adam_beta2 = 0.999;
  double adam_eps = 1e-8;
};

// The weight of each head's loss in the total (models/training.h); moves_left 0 turns the
// moves-left loss off.
struct LossWeights {
  double policy = 1.0;
  double wdl = 1.0;
  double moves_left = 0.1;   // lc0 weighs its moves-left head well below the others
  double huber_delta = 0.1;  // in units of net::kMovesLeftScale plies (10 plies)
};

std::string_view optimizer_name(OptimizerKind kind);  // "sgd" or "adamw", as checkpoints store it

}  // namespace sz::models
