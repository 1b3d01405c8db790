#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "cli/command.h"
#include "cli/config_args.h"
#include "config/section.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "eval/levels.h"
#include "eval/match_report.h"
#include "eval/player_spec.h"
#include "eval/start_suite.h"
#include "games/registry.h"
#include "plot/gnuplot.h"
#include "nn/evaluators.h"
#include "run/run_config.h"
#include "rundir/checkpoint_files.h"
#include "rundir/run_paths.h"

namespace sz::cli {

namespace {

namespace fs = std::filesystem;

constexpr const char* kUsage = "sittuyin-zero levels --run DIR [--count N] [options]";

constexpr const char* kAbout =
    R"(Builds N opponents of increasing strength for game clients from a run's checkpoints, simulation
counts and move-choice temperatures (and the random mover), measures every candidate's Elo in one
round robin (Bradley-Terry, the random mover at 0), picks N with ratings as evenly spaced as the
candidates allow, and writes DIR/eval/levels.yaml (the manifest: per level its Elo with a 95%
interval, the checkpoint and the settings; the search settings every level played with, which
`export --levels` puts in the bundle), DIR/eval/levels.json (the round robin), DIR/eval/levels.pgn
(its games) and, with gnuplot, DIR/plots/levels.png. Every finished game prints a progress line.
The candidates search as the shipped engine does: the config's `play` settings (its `search`
section with the `play` section's keys on top: the play-time leaf search under the quickstart).
)";

struct LevelsArgs {
  std::string run, starts, anchor;
  ConfigFlags config;
  int count = 5, max_starts = 10, concurrency = 2, sims = 0;
};

Flags levels_flags(LevelsArgs& a) {
  Flags f(kUsage, kAbout);
  f.text("--run", "DIR", a.run, "the run directory (checkpoints in DIR/models)").required();
  f.number("--count", "N", a.count, 2, 20, "levels, 2..20 (default 5)");
  f.text("--starts", "FILE", a.starts, "start suite (default: DIR/eval/starts-partial.epd if the loop wrote it)");
  f.number("--max-starts", "N", a.max_starts, 1, 100000, "starts used, each twice per pairing (default 10)");
  f.number("--concurrency", "N", a.concurrency, 1, 256, "games at once (default 2)");
  f.number("--sims", "N", a.sims, 1, 1000000,
           "the strongest candidates' visits (default: the config's play.full_visits)");
  f.text("--anchor", "SPEC", a.anchor,
         "an external yardstick that joins the round robin, not as a level (default: the config's loop.anchor, "
         "Fairy-Stockfish at one node); each level's Elo over it goes into the manifest too. 'none': no anchor");
  f.config(a.config, "run config (default: DIR/config.yaml)");
  return f;
}

std::vector<std::string> checkpoints_of(const std::string& run) {
  std::vector<std::string> paths = rundir::list_checkpoints(rundir::RunPaths(run).models());
  std::reverse(paths.begin(), paths.end());  // oldest first
  return paths;
}

// plots/levels.png, by plot/'s Plotter; without gnuplot the levels stand, and the line says why.
void plot_levels(const eval::LevelsResult& result, const rundir::RunPaths& run) {
  std::vector<std::vector<double>> rows;
  for (const auto& l : result.levels) rows.push_back({double(l.level), l.rating.elo, l.rating.lower, l.rating.upper});
  plot::Chart chart;
  chart.name = "levels";
  chart.title = "Strength levels (Elo over the random mover, 95% interval)";
  chart.xlabel = "level";
  chart.ylabel = "Elo";
  chart.extra = "set xtics 1\nset offsets 0.5, 0.5, 0, 0\n";  // the end levels' bars off the frame
  chart.plot = "plot DATA using 1:2:3:4 with yerrorbars title 'levels', DATA using 1:2 with lines notitle";
  try {
    const std::string png = plot::Plotter(run.plots()).draw(chart, {"level", "elo", "lower", "upper"}, rows, {900, 500});
    std::fprintf(stderr, "levels: wrote %s\n", png.c_str());
  } catch (const Error& e) {
    std::fprintf(stderr, "levels: no plot: %s\n", e.what());
  }
}

// The manifest's `search` key: the search every MCTS level played with (the config's `play`, --set
// included), so that `export --levels` gives clients the settings the levels' Elo was measured under.
std::string search_section(search::SearchConfig search) {
  config::Writer w;
  w.begin("search");
  search::fields(w, search);
  w.end();
  return w.finish();
}

}  // namespace

int levels_command(Args args) {
  LevelsArgs o;
  if (!levels_flags(o).parse(args)) return 0;
  const std::string& run = o.run;
  if (!fs::is_directory(run)) throw Error(run + ": no such run directory");  // before anything is written there
  const run::RunConfig config = run_config_in(o.config, run);
  const rundir::RunPaths paths(run);
  if (o.starts.empty() && fs::exists(paths.in_eval("starts-partial.epd")))
    o.starts = paths.in_eval("starts-partial.epd");

  eval::LevelsSpec spec;
  spec.checkpoints = checkpoints_of(run);
  spec.count = o.count;
  spec.full_simulations = o.sims > 0 ? o.sims : config.play.full_visits;
  spec.search = config.play;
  spec.profile = config.profile;
  if (!o.starts.empty())
    spec.starts = eval::read_start_suite(o.starts, config.profile, o.max_starts).take_or_throw("--starts");
  spec.concurrency = o.concurrency;
  spec.seed = config.seed;
  const game::GameSpec game_spec = games::spec_for(config.profile).take_or_throw("profile");
  spec.load_model = [&config, &game_spec, concurrency = o.concurrency](const std::string& checkpoint) {
    return nn::evaluator_factory(checkpoint, game_spec, config.inference, concurrency);
  };
  const std::string anchor = o.anchor.empty() ? config.loop.anchor : o.anchor;
  spec.tables = run::config_tables(config);
  if (!anchor.empty() && anchor != "none") {
    const eval::PlayerSpec a = eval::parse_player_spec(anchor).take_or_throw("--anchor");
    spec.anchor = eval::make_match_player(a, config.play, spec.full_simulations, spec.load_model, spec.tables);
  }
  fs::create_directories(paths.eval());
  spec.pgn_path = paths.in_eval("levels.pgn");
  spec.on_game = eval::print_game_line;
  const eval::LevelsResult result = eval::build_levels(spec);

  write_file_atomically(paths.in_eval("levels.yaml"),
                        eval::levels_manifest(result, run, config.profile) + search_section(config.play));
  write_file_atomically(paths.in_eval("levels.json"), eval::match_json(result.match));
  plot_levels(result, paths);
  std::fputs(eval::format_match_table(result.match).c_str(), stdout);
  std::printf("\nlevels (Elo over the random mover, 95%% interval%s):\n",
              result.anchor.empty() ? "" : ("; then over " + result.anchor).c_str());
  for (const auto& l : result.levels) {
    std::printf("  %2d  %7.1f  [%7.1f, %7.1f]", l.level, l.rating.elo, l.rating.lower, l.rating.upper);
    if (!result.anchor.empty())
      std::printf("  %7.1f  [%7.1f, %7.1f]", l.over_anchor.elo, l.over_anchor.lower, l.over_anchor.upper);
    std::printf("  %s\n", l.setting.name.c_str());
  }
  std::printf("manifest: %s/eval/levels.yaml\n", run.c_str());
  return 0;
}

}  // namespace sz::cli
