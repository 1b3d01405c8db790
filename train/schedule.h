#pragma once
// The two formulas of the trainer that depend only on counts: the size of the sliding window and
// the learning rate at a step (see TrainConfig for both). Torch-free.
#include <cstdint>

#include "train/train_config.h"

namespace sz::train {

// Positions in the window when the run's shards hold `total` positions (KataGo's power law):
// min(total, window_cap, max(window_floor, window_scale * total ^ window_exponent)).
int64_t window_size(const TrainConfig& config, int64_t total);

// The learning rate of the step that follows `step` steps (0 for the first one): a linear warm-up
// over warmup_steps, then the configured schedule.
double learning_rate_at(const TrainConfig& config, int64_t step);

// Training steps the replay ratio allows in total once the shards hold `total` positions:
// floor(total * replay_ratio / batch_size); unlimited (INT64_MAX) when replay_ratio is 0.
int64_t allowed_steps(const TrainConfig& config, int64_t total);

}  // namespace sz::train
