#pragma once
// The loop's state in a run directory (rundir/run_paths.h): which checkpoint self-play plays with
// (models/adopted.txt) and which generation is in training (models/generation.txt). Both are
// written atomically; a garbled one is an error naming it, never a silent restart. Torch-free
// (models/checkpoint_meta.h reads the adopted checkpoint's header).
#include <cstdint>
#include <string>
#include <string_view>

#include "core/error.h"

namespace sz::rundir {

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

}  // namespace sz::rundir
