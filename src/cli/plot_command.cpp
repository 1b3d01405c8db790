#include <cstdio>

#include "cli/command.h"
#include "core/error.h"
#include "rundir/run_plots.h"

namespace sz::cli {

namespace {

constexpr const char* kAbout =
    R"(Draws PNG plots of a run with gnuplot into DIR/plots: losses per head and the learning rate over
training steps (DIR/logs/train.jsonl); game length, results and end reasons over the games played
(DIR/games/*.h5); Elo over steps once DIR/eval/elo.jsonl exists. Needs gnuplot (gnuplot-nox).
)";

}  // namespace

int plot_command(Args args) {
  std::string run;
  rundir::PlotOptions options;
  Flags f("sittuyin-zero plot --run DIR [--games-per-point N]", kAbout);
  f.text("--run", "DIR", run, "the run directory").required();
  f.number("--games-per-point", "N", options.games_per_point, 1, 1'000'000'000,
           "games per point of the game plots (default 100)");
  if (!f.parse(args)) return 0;
  const rundir::PlotReport report = rundir::plot_run(run, options);
  for (const auto& w : report.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
  for (const auto& s : report.skipped) std::printf("skipped %s\n", s.c_str());
  for (const auto& p : report.written) std::printf("wrote %s\n", p.c_str());
  return 0;
}

}  // namespace sz::cli
