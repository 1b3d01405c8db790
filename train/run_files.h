#pragma once
// The trainer's files in a run directory (see ../shared/DESIGN.md, "The run directory"):
//
//   models/model-<step>.pt      checkpoint: weights, optimiser state, metadata and the trainer's own
//                               state at that step (TrainerState, as text; models/checkpoint.h)
//   models/model-<step>.state   runs of checkpoint format 2 and older: the trainer's state beside it
//   models/current.txt          the newest checkpoint's file name, one line
//   models/adopted.txt          the checkpoint the loop's self-play uses, relative to the run
//   models/damaged/             checkpoints that could not be read, moved out of the way
//   models/.trainer.lock        held (flock) by the one trainer working on the run
//   logs/train.jsonl            metrics, one JSON object a line
//
// Every file is written atomically (temporary name, fsync, rename, fsync of the directory), the
// checkpoint before current.txt: a reader of current.txt always finds a complete checkpoint, and
// a crash at any point leaves the previous checkpoint current. <step> is
// zero-padded to 8 digits so that names sort by step. Torch-free.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/file_lock.h"  // FileLock: the trainer's lock on its run directory

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

std::string checkpoint_file_name(int64_t step);  // "model-00001000.pt"
// The step of a checkpoint file name, or -1 if `name` is not one.
int64_t checkpoint_step(std::string_view name);
// ".../model-00001000.state": where checkpoints of format 2 and older keep the trainer's state.
std::string state_path(const std::string& checkpoint_path);

// The path of the checkpoint models/current.txt names, "" if there is no current.txt. Throws
// sz::Error naming current.txt when it names a file that is not there.
std::string read_current(const std::string& models_dir);
void write_current(const std::string& models_dir, const std::string& checkpoint_file);

// models/adopted.txt: the checkpoint the loop's self-play plays with, written as a path relative
// to the run directory ("models/model-00001000.pt"), so that a run continued from another working
// directory finds it. read_adopted returns its path (run_dir joined with it), or "" when there is
// no adopted.txt (the bootstrap plays). It reads the older forms too: a path relative to the
// working directory that wrote it, or absolute. Throws sz::Error naming adopted.txt when the
// checkpoint it names is not there or cannot be read: self-play must not fall back on the
// bootstrap player unnoticed.
std::string read_adopted(const std::string& run_dir);
void write_adopted(const std::string& run_dir, const std::string& checkpoint);

// models/generation.txt: the loop's generation in training. A loop stopped (Ctrl-C, a kill) in
// the middle of a generation's training finds it there and finishes that training (the steps
// not yet taken) before it plays the next generation; without it, the generation counted as
// done once its games were there, and its missing steps were never made up.
struct GenerationTraining {
  int generation = -1;    // 0-based, as the loop counts them
  int64_t from_step = 0;  // the trainer's step when the generation's training began
  int64_t steps = 0;      // the steps it was to train (the replay ratio may allow fewer)
  bool done = true;       // trained, and the new checkpoint adopted or not
};
// {} (done) when there is no generation.txt; throws sz::Error naming the file when it is garbled.
GenerationTraining read_generation_training(const std::string& run_dir);
// generation.txt's text; `source` names the file in messages. Every key once, none unknown.
Result<GenerationTraining> generation_training_from_text(std::string_view text, std::string_view source);
void write_generation_training(const std::string& run_dir, const GenerationTraining& training);

// The checkpoints of `models_dir` (model-<step>.pt), newest first.
std::vector<std::string> list_checkpoints(const std::string& models_dir);

// Moves a checkpoint that cannot be read, and its state file, into `models_dir`/damaged/ (where
// nothing looks for checkpoints), so that no trainer ever writes over it and nothing reads it
// again. Returns the checkpoint's new path, or "" with `why_not` set when it could not be moved.
std::string move_checkpoint_to_damaged(const std::string& path, std::string* why_not = nullptr);

// Deletes all checkpoints (and their state files) of `models_dir` but the newest `keep`, never
// the one current.txt names; keep 0 deletes nothing. Also deletes temporaries left by a killed
// writer. Returns the paths deleted.
std::vector<std::string> prune_checkpoints(const std::string& models_dir, int keep);

}  // namespace sz::train
