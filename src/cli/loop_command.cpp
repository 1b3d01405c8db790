#include <cstdio>

#include "cli/command.h"
#include "cli/config_args.h"
#include "config/run_config.h"
#include "core/error.h"
#include "eval/match_report.h"
#include "train/loop.h"
#include "train/plots.h"

namespace sz::cli {

namespace {

constexpr const char* kHelp = R"(usage: sittuyin-zero loop [--config FILE] [--set KEY=VALUE ...]

The main job: self-play and training together in one run directory (runs/<name>/, see
docs/TRAINING.md), a generation at a time, then a match of the final model against the bootstrap
player (uniform prior, zero value) at the same number of simulations. Ctrl-C stops cleanly;
the same command picks up where it stopped.
  --config FILE     run config (YAML); default: the built-in quickstart (configs/quickstart.yaml)
  --set KEY=VALUE   override a config value, e.g. --set loop.generations=3 (repeatable)
)";

void print_final(const train::LoopReport& report) {
  const auto& p = report.final_match.pairings.front();
  std::printf("\nfinal model %s against the bootstrap player, %d games:\n%s",
              report.final_model.empty() ? "(none: no training happened)" : report.final_model.c_str(),
              report.final_match.games_played, eval::format_match_table(report.final_match).c_str());
  std::printf("score %.1f%% (W %d D %d L %d): %+.0f Elo [%+.0f, %+.0f] over the bootstrap player\n",
              100 * p.score.score(), p.score.wins, p.score.draws, p.score.losses, p.elo.elo, p.elo.lower, p.elo.upper);
}

}  // namespace

int loop_command(Args args) {
  if (wants_help(args)) {
    std::fputs(kHelp, stdout);
    return 0;
  }
  const config::RunConfig config = run_config_from_args(args);
  std::fprintf(stderr, "loop: run %s in %s\n", config.name.c_str(), config.run_dir().c_str());
  const std::atomic<bool>& stop = stop_on_interrupt();
  const train::LoopReport report = train::run_loop(config, &stop);
  try {
    const train::PlotReport plots = train::plot_run(config.run_dir());
    std::fprintf(stderr, "loop: %zu plots in %s/plots\n", plots.written.size(), config.run_dir().c_str());
  } catch (const Error& e) {
    std::fprintf(stderr, "loop: no plots: %s\n", e.what());
  }
  if (report.final_eval) print_final(report);
  std::printf("loop: %d generations in %.1f min; run directory %s\n", report.generations, report.seconds / 60,
              config.run_dir().c_str());
  return exit_status(stop);
}

}  // namespace sz::cli
