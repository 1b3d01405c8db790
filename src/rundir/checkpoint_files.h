#pragma once
// The trainer's checkpoints in a run's models/ (rundir/run_paths.h):
//
//   models/model-<step>.pt      checkpoint: weights, optimiser state, metadata and the trainer's own
//                               state at that step (train/trainer_state.h; models/checkpoint.h)
//   models/model-<step>.state   runs of checkpoint format 2 and older: the trainer's state beside it
//   models/current.txt          the newest checkpoint's file name, one line
//   models/damaged/             checkpoints that could not be read, moved out of the way
//   models/.trainer.lock        held (flock) by the one trainer working on the run
//
// Every file is written atomically (temporary name, fsync, rename, fsync of the directory), the
// checkpoint before current.txt: a reader of current.txt always finds a complete checkpoint, and
// a crash at any point leaves the previous checkpoint current. <step> is zero-padded to 8 digits so
// that names sort by step. Torch-free.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sz::rundir {

std::string checkpoint_file_name(int64_t step);  // "model-00001000.pt"
// The step of a checkpoint file name, or -1 if `name` is not one.
int64_t checkpoint_step(std::string_view name);
// ".../model-00001000.state": where checkpoints of format 2 and older keep the trainer's state.
std::string state_path(const std::string& checkpoint_path);

// models/current.txt's path in `models_dir`.
std::string current_path(const std::string& models_dir);
// The path of the checkpoint models/current.txt names, "" if there is no current.txt. Throws
// sz::Error naming current.txt when it names a file that is not there.
std::string read_current(const std::string& models_dir);
void write_current(const std::string& models_dir, const std::string& checkpoint_file);

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

}  // namespace sz::rundir
