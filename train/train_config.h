#pragma once
// Trainer settings: a plain struct with every default in one place (config/ parses it from the
// `train` section of a run config; unknown keys are errors there). No torch, no yaml: any module
// may hold one. docs/TRAINING.md explains the window, the replay ratio and the schedules.
#include <cstdint>
#include <string>

namespace sz::train {

enum class OptimizerChoice { Sgd, AdamW };
enum class LrSchedule { Constant, Step, Cosine };
// auto: bfloat16 autocast on CUDA (no loss scaling needed), float32 on the CPU. float16 uses
// autocast with a dynamic loss scale (for GPUs without bfloat16). Both are CUDA only.
enum class TrainPrecision { Auto, Float32, BFloat16, Float16 };

struct TrainConfig {
  int batch_size = 256;

  // Optimiser (models/training.h): SGD with Nesterov momentum, or AdamW. weight_decay is the L2
  // term (SGD) or the decoupled decay (AdamW), on convolution and linear weights only.
  OptimizerChoice optimizer = OptimizerChoice::Sgd;
  double learning_rate = 0.02;
  double momentum = 0.9;
  double weight_decay = 1e-4;
  double adam_beta1 = 0.9;
  double adam_beta2 = 0.999;

  // Learning rate at step s: a linear warm-up over warmup_steps, then the schedule:
  //   constant: learning_rate
  //   step:     learning_rate * lr_step_factor ^ floor(s / lr_step_every)
  //   cosine:   from learning_rate down to learning_rate * lr_final_fraction over lr_decay_steps
  //             steps after the warm-up, then flat
  LrSchedule lr_schedule = LrSchedule::Constant;
  int64_t warmup_steps = 100;
  int64_t lr_step_every = 100'000;
  double lr_step_factor = 0.1;
  int64_t lr_decay_steps = 200'000;
  double lr_final_fraction = 0.01;

  // The value target: (1 - value_target_search) * the game's result + value_target_search * the
  // search's value of the position (its root W/D/L, recorded by self-play; KataGo and the
  // "Lessons from AlphaZero" series found such a mix learns faster than the result alone: a
  // drawn game still says which side the search thought was ahead). 0: the result alone.
  double value_target_search = 0.0;

  // Loss weights (models::LossWeights); moves_left_weight 0 turns the moves-left loss off.
  double policy_weight = 1.0;
  double wdl_weight = 1.0;
  double moves_left_weight = 0.1;

  // Sliding window over the newest positions (KataGo): with N positions in the run's shards,
  //   window = min(window_cap, max(window_floor, window_scale * N ^ window_exponent))
  // positions, never more than N.
  int64_t window_floor = 250'000;
  int64_t window_cap = 4'000'000;
  double window_scale = 40.0;
  double window_exponent = 0.65;
  // A fixed share of every batch from the newest positions, so that a generation's games are
  // not drowned by a large window: recent_share of the rows are drawn from the newest
  // recent_positions rows of the window, the rest from the whole window. 0: uniform.
  double recent_share = 0.0;
  int64_t recent_positions = 100'000;
  int64_t min_positions = 5'000;  // no training before the run's shards hold this many

  // Replay ratio (KataGo's max-train-bucket-per-new-data): at most this many training samples
  // per self-play position, so steps <= N * replay_ratio / batch_size. 0: no cap.
  double replay_ratio = 4.0;

  int64_t checkpoint_every = 1000;  // steps between checkpoints
  int keep_checkpoints = 0;         // 0: keep all; k: delete all but the newest k
  int64_t log_every = 100;          // steps between metric lines (logs/train.jsonl)
  int64_t refresh_every = 500;      // steps between scans of games/ for new shards
  double poll_seconds = 10;         // `train --steps` waits this long when the cap is reached
  int prefetch_batches = 4;         // ready batches the loader thread keeps queued

  std::string device = "auto";  // auto | cpu | cuda | cuda:N
  TrainPrecision precision = TrainPrecision::Auto;
  int threads = 0;  // torch intra-op threads; 0: leave them as the process has them
};

}  // namespace sz::train
