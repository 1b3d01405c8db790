#pragma once
// `sittuyin-zero loop`: self-play and training in one run directory (../shared/DESIGN.md, "The
// run directory"), a generation at a time: self-play adds games with the newest adopted
// checkpoint (the uniform bootstrap before the first), the trainer consumes them up to the
// replay ratio, and optional gating decides whether self-play adopts the new checkpoint. On a
// small machine alternating beats running both at once; for more machines, run `selfplay` and
// `train` as separate processes on the same directory. Stopped (Ctrl-C) and started again with
// the same config, the loop picks up where it stopped: games, checkpoints and the generation
// count all come from the directory.
#include <atomic>
#include <functional>
#include <string>

#include "config/run_config.h"
#include "eval/arena.h"

namespace sz::train {

struct LoopReport {
  int generations = 0;         // completed in this run of the loop
  std::string final_model;     // the adopted checkpoint at the end ("" if none yet)
  bool final_eval = false;     // the final model played the bootstrap
  eval::MatchResult final_match;
  double seconds = 0;
};

struct LoopHooks {
  std::function<void(const std::string&)> on_line;  // progress lines; default: stderr
  std::function<void(const std::string&)> on_checkpoint;  // each checkpoint the trainer writes (tests)
};

// Runs the loop of `config` in config.run_dir(). Throws sz::Error on bad configs, unusable
// directories or failing components; Ctrl-C (a set *stop) ends it cleanly after the current step.
// A generation stopped in its training is not counted: run again, the loop finishes its training
// (models/generation.txt) before it plays the next one.
LoopReport run_loop(const config::RunConfig& config, const std::atomic<bool>* stop, LoopHooks hooks = {});

// The match of `model` (a checkpoint; "" is the bootstrap) against the bootstrap player, both
// at the loop's eval_simulations, over `games` games from the loop's eval suite (each start twice,
// colours swapped). The loop's final measurement; `games` 0 takes final_eval_games.
eval::MatchResult match_against_bootstrap(const config::RunConfig& config, const std::string& model, int games,
                                          const std::string& pgn_path = "");

}  // namespace sz::train
