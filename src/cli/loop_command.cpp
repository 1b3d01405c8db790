#include <cstdio>
#include <string>

#include "cli/command.h"
#include "cli/config_args.h"
#include "core/error.h"
#include "eval/match_report.h"
#include "run/loop.h"
#include "run/run_config.h"
#include "rundir/run_plots.h"

namespace sz::cli {

namespace {

constexpr const char* kAbout = R"(The main job: self-play and training together in one run directory (runs/<name>/, see
docs/TRAINING.md), a generation at a time. Each adopted network is rated against the one before
it and against the anchor (loop.anchor, Fairy-Stockfish at one node by default, installed with
npm on first use) in eval/ladder.json and plots/elo.png; at the end the final network plays the
first network and the anchor, and the last lines say how it did. Ctrl-C stops cleanly; the same
command picks up where it stopped.
)";

void print_match(const char* what, const eval::MatchResult& m) {
  if (m.games_played == 0) {
    std::printf("final network against %s: stopped before its first game\n", what);
    return;
  }
  const auto& p = m.pairings.front();
  const std::string games = m.stopped ? "stopped after " + std::to_string(m.games_played) + " of " +
                                            std::to_string(m.games_scheduled) + " games"
                                      : std::to_string(m.games_played) + " games";
  std::printf("final network against %s, %s: %.1f%% (W %d D %d L %d), %+.0f Elo [%+.0f, %+.0f]\n", what, games.c_str(),
              100 * p.score.score(), p.score.wins, p.score.draws, p.score.losses, p.elo.elo, p.elo.lower, p.elo.upper);
}

void print_final(const run::LoopReport& report, const run::RunConfig& config) {
  const run::LadderFit& fit = report.ladder;
  if (!fit.networks.empty()) {
    const std::string over = fit.anchored ? report.anchor : "the first network";
    std::printf("\nladder: %zu networks, %d games, Elo over %s:\n", fit.networks.size(), fit.games, over.c_str());
    for (const run::LadderRating& r : fit.networks) std::printf("  %s\n", run::describe_rating(r, over).c_str());
    if (fit.networks.size() > 1)
      std::printf("  trend: %+.1f Elo per generation [%+.1f, %+.1f]%s\n", fit.trend.slope, fit.trend.lower,
                  fit.trend.upper, fit.trend.lower > 0 ? ", rising" : "");
  }
  std::printf("\nfinal network %s\n",
              report.final_model.empty() ? "(none: no training happened)" : report.final_model.c_str());
  if (report.final_vs_first) print_match(("the first network " + report.first_model).c_str(), *report.final_vs_first);
  if (report.final_vs_anchor) print_match(report.anchor.c_str(), *report.final_vs_anchor);
  if (const std::string play = run::play_changes(config); !play.empty() && report.final_vs_anchor)
    std::printf(
        "(these matches search as the config's `search` section says; `uci`, `levels` and `export` add "
        "the config's play settings, %s: docs/EVALUATION.md)\n",
        play.c_str());
}

}  // namespace

int loop_command(Args args) {
  ConfigFlags flags;
  Flags f("sittuyin-zero loop [--config FILE] [--set KEY=VALUE ...]", kAbout);
  f.config(flags, "run config (YAML); default: the built-in quickstart (configs/quickstart.yaml)",
           "override a config value, e.g. --set loop.generations=3 (repeatable)");
  if (!f.parse(args)) return 0;
  const run::RunConfig config = run_config_of(flags);
  std::fprintf(stderr, "loop: run %s in %s\n", config.name.c_str(), config.run_dir().c_str());
  const std::atomic<bool>& stop = stop_on_interrupt();
  const run::LoopReport report = run::run_loop(config, &stop);
  try {
    const rundir::PlotReport plots = rundir::plot_run(config.run_dir());
    std::fprintf(stderr, "loop: %zu plots in %s/plots\n", plots.written.size(), config.run_dir().c_str());
  } catch (const Error& e) {
    std::fprintf(stderr, "loop: no plots: %s\n", e.what());
  }
  print_final(report, config);
  std::printf("loop: %d generations in %.1f min (%d in the run; %s); run directory %s\n", report.generations,
              report.seconds / 60, report.generations_total, report.stop_reason.c_str(), config.run_dir().c_str());
  std::printf("loop: wall time: %s\n", run::describe_time_split(report).c_str());
  return exit_status(stop);
}

}  // namespace sz::cli
