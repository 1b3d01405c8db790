#pragma once
// Which checkpoint a trainer resumes from, and the trainer's state saved with it: a trainer never
// starts afresh over checkpoints, never writes over one, and skips (moves aside) those that do
// not read.
#include <functional>
#include <string>

#include "models/checkpoint.h"
#include "train/trainer_state.h"

namespace sz::train {

// The trainer's state saved with the checkpoint at `path` (`meta`, its metadata): inside it, or,
// for a checkpoint of format 2 and older, in the .state file beside it. `where` is set to what
// names it in messages. Throws sz::Error naming that when it does not read, or is at another step.
TrainerState saved_state(const std::string& path, const models::CheckpointMeta& meta, std::string& where);

// models/current.txt names the checkpoint to resume from, but a newer one that reads completely
// wins (a trainer killed between writing it and current.txt), and without current.txt the newest
// readable one is taken, with a warning naming it. Newer checkpoints that cannot be read are moved
// into models/damaged/ (warned). Checkpoints of which none reads, without current.txt, are an
// error (sz::Error). "" when `models_dir` holds none: a fresh start.
std::string checkpoint_to_resume(const std::string& models_dir, const std::function<void(const std::string&)>& warn);

}  // namespace sz::train
