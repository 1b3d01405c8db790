#pragma once
// `sittuyin-zero loop`: self-play and training in one run directory (../shared/DESIGN.md, "The
// run directory"), a generation at a time: self-play adds games with the newest adopted
// checkpoint (the uniform bootstrap before the first), the trainer consumes them up to the
// replay ratio, and optional gating decides whether self-play adopts the new checkpoint. Each
// adopted network is rated against the ones before it and an external anchor (run/ladder.h),
// and at the end the final network plays the first one and the anchor. On a small machine
// alternating beats running both at once; for more machines, run `selfplay` and `train` as
// separate processes on the same directory. Stopped (Ctrl-C) and started again with the same
// config, the loop picks up where it stopped: games, checkpoints, the generation count and the
// ladder's matches all come from the directory.
#include <atomic>
#include <functional>
#include <optional>
#include <string>

#include "eval/arena.h"
#include "run/ladder.h"
#include "run/run_config.h"

namespace sz::run {

struct LoopReport {
  int generations = 0;        // completed in this run of the loop
  int generations_total = 0;  // completed in the run directory
  std::string stop_reason;    // why it stopped: "loop.generations (6) done", "loop.max_minutes (20) reached", ...
  std::string final_model;    // the adopted checkpoint at the end ("" if none yet)
  std::string first_model;    // the first adopted checkpoint
  std::string anchor;         // the anchor's name ("" when there is none)
  // The final matches, from the final network's view (absent when not played).
  std::optional<eval::MatchResult> final_vs_first, final_vs_anchor;
  LadderFit ladder;  // the fit after the final matches
  double seconds = 0;
  // Where the wall time of this run of the loop went, in seconds: what learns (self-play,
  // training) and what measures (rating and gating matches, the final matches); `other` is the
  // rest (start-up, reading the games on disk, plots are not in the loop).
  struct TimeSplit {
    double selfplay = 0, training = 0, rating = 0, final_matches = 0;
  } time;
};

// "self-play 12.1 min (43%), training 8.0 (28%), rating 3.0 (11%), final matches 4.4 (15%),
// other 0.9 (3%)": the report's time split.
std::string describe_time_split(const LoopReport& report);

struct LoopHooks {
  std::function<void(const std::string&)> on_line;        // progress lines; default: stderr
  std::function<void(const std::string&)> on_checkpoint;  // each checkpoint the trainer writes (tests)
};

// Runs the loop of `config` in config.run_dir(). Throws sz::Error on bad configs, unusable
// directories or failing components; Ctrl-C (a set *stop) ends it cleanly after the current step.
// A generation stopped in its training is not counted: run again, the loop finishes its training
// (models/generation.txt) before it plays the next one.
LoopReport run_loop(const RunConfig& config, const std::atomic<bool>* stop, LoopHooks hooks = {});

}  // namespace sz::run
