#pragma once
// What the trainer keeps inside each checkpoint besides weights and optimiser (models/checkpoint.h:
// CheckpointMeta::trainer_state, as text; checkpoints of format 2 and older kept it in
// model-<step>.state beside them), so that it continues exactly where it stopped. The run
// directory's files, checkpoints included, are rundir/'s. Torch-free.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/error.h"

namespace sz::train {

inline constexpr int kTrainerStateVersion = 2;  // bump => teach state_from_text the old one

// What the trainer needs besides weights and optimiser to continue exactly where it stopped.
// Batch k is drawn with an RNG seeded from (seed, k) alone, so (seed, step) is the complete
// state of the sampling RNG; the data position is the shard scan it trained on.
struct TrainerState {
  int format = kTrainerStateVersion;
  int64_t step = 0;
  uint64_t seed = 0;
  int64_t samples = 0;  // training samples drawn so far
  // Of them, drawn from the others' window while the bootstrap's pool was kept apart
  // (TrainConfig::bootstrap_share): what the replay ratio caps then (format 1: 0).
  int64_t network_samples = 0;
  int64_t positions_seen = 0;    // positions in the run's shards at the last scan
  int64_t window_positions = 0;  // positions in the window
  int64_t window_shards = 0;
  std::string newest_shard;  // file name of the newest shard in the window ("" if none)
  double loss_scale = 0;     // float16 training's dynamic loss scale (0: not used)
  int64_t loss_scale_good_steps = 0;
};

std::string state_to_text(const TrainerState& state);
// `source` names the file in messages; unknown keys, missing keys and newer formats are errors.
Result<TrainerState> state_from_text(std::string_view text, std::string_view source);

}  // namespace sz::train
