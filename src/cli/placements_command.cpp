#include <atomic>
#include <cstdio>
#include <vector>

#include "cli/command.h"
#include "cli/config_args.h"
#include "core/error.h"
#include "eval/player_spec.h"
#include "eval/ratings.h"
#include "games/registry.h"
#include "nn/evaluators.h"
#include "placement/formation_ab.h"
#include "placement/placements.h"
#include "run/run_config.h"

namespace sz::cli {

namespace {

constexpr const char* kUsage =
    "sittuyin-zero placements --games DIR [--games DIR2 ...] --out DIR [--model M] [--top N] [--no-plots]";

constexpr const char* kAbout =
    R"(Placement research on self-play games (docs/PLACEMENT.md): reads the shards of each DIR (a run's
games/ or any folder of *.h5) and writes, per rule profile, CSV files and PNG plots (gnuplot) into
OUT/<profile>/ (OUT/<source>/<profile>/ with several --games): heat maps per man and colour in the
side's own frame and on the real board, the order of placement, the most frequent complete
formations with their results, results by formation feature with 95% Wilson intervals, and a
logistic fit of the result on the features with standard errors; OUT/summary.csv compares them.
)";

constexpr const char* kAbAbout =
    R"(An A/B experiment on formations: the player places formation A in one match and formation B in
another, against the same opponent with the same seeds and colours, so that the opponent's
placement is the same in both. Prints each score, the paired score difference A - B with a 95%
interval, and an SPRT verdict over the pairs (a pair A scored more in counts as A's win).
A FORMATION is 8 drops in the placing side's own frame, e.g. "K@e2 F@d2 S@c2 S@f2 N@b1 N@g1
R@a1 R@h1" (a1: the side's left back corner), or a file holding one.
)";

struct AbArgs {
  std::string a, b, player = "uniform", opponent, sprt = "0,50";
  ConfigFlags config;
  int sims = 0;
  int64_t seed = -1;
  bool quiet = false;
};

Flags ab_flags(AbArgs& x, placement::AbOptions& o) {
  Flags f("sittuyin-zero placements ab --a FORMATION --b FORMATION [options]", kAbAbout);
  f.text("--a", "FORMATION", x.a, "formation A").required();
  f.text("--b", "FORMATION", x.b, "formation B").required();
  f.text("--player", "SPEC", x.player, "who places A and B and plays on (default uniform; see arena --help)");
  f.text("--opponent", "SPEC", x.opponent, "the other side (default: the player's SPEC with placement=random)");
  f.number("--games", "N", o.games, 2, 10'000'000, "games per formation, both colours (default 100)");
  f.text("--profile", "NAME", o.profile, "rule profile (default sittuyin)");
  f.number("--sims", "N", x.sims, 1, 10'000'000,
           "default visits per move of MCTS players (default: search.full_visits)");
  f.number("--concurrency", "N", o.concurrency, 1, 1024, "games at once (default 1)");
  f.number("--max-plies", "N", o.max_plies, 1, 1'000'000, "a game still running here is a draw (default 1000)");
  f.text("--sprt", "ELO0,ELO1[,ALPHA,BETA]", x.sprt, "the test over the pairs (default 0,50)");
  f.number("--seed", "N", x.seed, 0, 2'000'000'000, "seeds every game (default: the config's)");
  f.config(x.config, "run config: search settings, inference of models (default quickstart)");
  f.set("--quiet", x.quiet, "no line per game");
  return f;
}

int placements_ab(Args args) {
  AbArgs x;
  placement::AbOptions o;
  if (!ab_flags(x, o).parse(args)) return 0;
  const run::RunConfig config = run_config_of(x.config);
  o.a = placement::formation_control(x.a, "--a").take_or_throw();
  o.b = placement::formation_control(x.b, "--b").take_or_throw();
  o.player = eval::parse_player_spec(x.player).take_or_throw("--player");
  const std::string opponent = x.opponent.empty() ? x.player + ",placement=random" : x.opponent;
  o.opponent = eval::parse_player_spec(opponent).take_or_throw("--opponent");
  if (x.opponent.empty()) o.opponent.name = "opponent";
  o.search = config.search;
  o.simulations = x.sims > 0 ? x.sims : config.search.full_visits;
  o.seed = x.seed >= 0 ? uint64_t(x.seed) : config.seed;
  o.sprt = eval::parse_sprt(x.sprt).take_or_throw("--sprt");
  const game::GameSpec spec = games::spec_for(o.profile).take_or_throw("--profile");
  o.load_model = [&config, spec](const std::string& model) {
    return nn::evaluator_factory(model, spec, config.inference);
  };
  if (!x.quiet) o.progress = [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };
  const std::atomic<bool>& stop = stop_on_interrupt();
  o.stop = &stop;
  const placement::AbResult result = placement::run_formation_ab(o);
  std::fputs(placement::format_ab(result, o).c_str(), stdout);
  return exit_status(stop);
}

}  // namespace

int placements_command(Args args) {
  if (!args.empty() && args[0] == "ab") return placements_ab(args.subspan(1));
  placement::PlacementOptions options;
  std::string model;
  bool no_plots = false;
  Flags f(kUsage, kAbout);
  f.texts("--games", "DIR", options.games, "a folder of shards; repeat to compare runs").required();
  f.text("--out", "DIR", options.out, "the output folder (created)").required();
  f.text("--model", "M", model,
         "a checkpoint: the listed formations get the network's value (W - L for the placing side), over the "
         "positions after both placements of the games that used them, and against the network's own reply (it "
         "places the drop of highest prior each turn)");
  f.number("--top", "N", options.top, 1, 100'000, "formations listed per colour (default 20)");
  f.set("--no-plots", no_plots, "CSV files only (no gnuplot needed)");
  if (!f.parse(args)) return 0;
  if (no_plots) options.gnuplot.clear();
  if (!model.empty()) {
    const game::GameSpec spec = games::spec_for("sittuyin").take_or_throw("sittuyin");
    options.model = nn::evaluator_factory(model, spec, nn::InferenceConfig{});
  }
  options.progress = [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };
  const placement::PlacementSummary summary = placement::run_placements(options);
  for (const auto& w : summary.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
  std::printf("%lld games read, %lld skipped; %zu files written into %s\n", static_cast<long long>(summary.games),
              static_cast<long long>(summary.skipped), summary.written.size(), options.out.c_str());
  return 0;
}

}  // namespace sz::cli
