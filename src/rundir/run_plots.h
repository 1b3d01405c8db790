#pragma once
// PNG plots of a run, drawn by gnuplot (Debian: gnuplot-nox), into runs/<run>/plots/:
//
//   loss.png           losses per head over training steps     (logs/train.jsonl)
//   learning_rate.png  the learning rate over steps            (logs/train.jsonl)
//   heldout.png        losses on positions never trained on    (logs/heldout.jsonl)
//   value_by_material.png  predicted and actual W - L by material edge, the newest held-out line
//   game_length.png    mean game length in plies, per bucket of games  (games/*.h5, games tables)
//   results.png        share of first-player wins, draws, second-player wins, per bucket
//   end_reasons.png    share of each end reason, per bucket
//   elo.png            Elo with its interval over steps        (eval/elo.jsonl: step, elo, lower, upper)
//
// Games are taken in the order their shards were finished (modification time, then name) and
// grouped into buckets of `games_per_point` games; x is the number of games played. A plot whose
// input is missing is skipped (listed in the report), not an error. Each PNG is replaced
// atomically; the data and gnuplot scripts stay in plots/.gnuplot/ for whoever wants to redraw.
// Torch-free.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sz::rundir {

struct PlotOptions {
  int64_t games_per_point = 100;
  std::string gnuplot = "gnuplot";  // the program, looked up in PATH
};

struct PlotReport {
  std::vector<std::string> written;   // PNG paths
  std::vector<std::string> skipped;   // "elo.png: no eval/elo.jsonl", ...
  std::vector<std::string> warnings;  // unreadable shards and lines
};

// Throws sz::Error when gnuplot is missing or fails (its message included), and when `run_dir`
// is missing or not a run directory (none of logs/, games/, models/, eval/ in it).
PlotReport plot_run(const std::string& run_dir, const PlotOptions& options = {});

}  // namespace sz::rundir
