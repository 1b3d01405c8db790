#include <cstdio>

#include "cli/command.h"
#include "core/error.h"
#include "train/plots.h"

namespace sz::cli {

namespace {

constexpr const char* kHelp = R"(usage: sittuyin-zero plot --run DIR [--games-per-point N]

Draws PNG plots of a run with gnuplot into DIR/plots: losses per head and the learning rate over
training steps (DIR/logs/train.jsonl); game length, results and end reasons over the games played
(DIR/games/*.h5); Elo over steps once DIR/eval/elo.jsonl exists. Needs gnuplot (gnuplot-nox).
  --run DIR              the run directory
  --games-per-point N    games per point of the game plots (default 100)
)";

}  // namespace

int plot_command(Args args) {
  if (wants_help(args)) {
    std::fputs(kHelp, stdout);
    return 0;
  }
  std::string run;
  train::PlotOptions options;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--run") run = flag_value(args, i);
    else if (a == "--games-per-point") options.games_per_point = parse_int_flag(a, flag_value(args, i), 1, 1'000'000'000);
    else throw Error("unknown option '" + a + "' (see --help)");
  }
  if (run.empty()) throw Error("give --run DIR (see --help)");
  const train::PlotReport report = train::plot_run(run, options);
  for (const auto& w : report.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
  for (const auto& s : report.skipped) std::printf("skipped %s\n", s.c_str());
  for (const auto& p : report.written) std::printf("wrote %s\n", p.c_str());
  return 0;
}

}  // namespace sz::cli
