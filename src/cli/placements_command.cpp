#include <atomic>
#include <cstdio>
#include <vector>

#include "cli/command.h"
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

constexpr const char* kHelp =
    R"(usage: sittuyin-zero placements --games DIR [--games DIR2 ...] --out DIR [--model M] [--top N] [--no-plots]

Placement research on self-play games (docs/PLACEMENT.md): reads the shards of each DIR (a run's
games/ or any folder of *.h5) and writes, per rule profile, CSV files and PNG plots (gnuplot) into
OUT/<profile>/ (OUT/<source>/<profile>/ with several --games): heat maps per man and colour in the
side's own frame and on the real board, the order of placement, the most frequent complete
formations with their results, results by formation feature with 95% Wilson intervals, and a
logistic fit of the result on the features with standard errors; OUT/summary.csv compares them.
  --games DIR   a folder of shards; repeat to compare runs
  --out DIR     the output folder (created)
  --model M     a checkpoint: the listed formations get the network's value (W - L for the placing
                side), over the positions after both placements of the games that used them, and
                against the network's own reply (it places the drop of highest prior each turn)
  --top N       formations listed per colour (default 20)
  --no-plots    CSV files only (no gnuplot needed)
)";

constexpr const char* kAbHelp = R"(usage: sittuyin-zero placements ab --a FORMATION --b FORMATION [options]

An A/B experiment on formations: the player places formation A in one match and formation B in
another, against the same opponent with the same seeds and colours, so that the opponent's
placement is the same in both. Prints each score, the paired score difference A - B with a 95%
interval, and an SPRT verdict over the pairs (a pair A scored more in counts as A's win).
A FORMATION is 8 drops in the placing side's own frame, e.g. "K@e2 F@d2 S@c2 S@f2 N@b1 N@g1
R@a1 R@h1" (a1: the side's left back corner), or a file holding one.
  --a FORMATION, --b FORMATION
  --player SPEC       who places A and B and plays on (default uniform; see arena --help)
  --opponent SPEC     the other side (default: the player's SPEC with placement=random)
  --games N           games per formation, both colours (default 100)
  --profile NAME      rule profile (default sittuyin)
  --sims N            default visits per move of MCTS players (default: search.full_visits)
  --concurrency N     games at once (default 1)
  --max-plies N       a game still running here is a draw (default 1000)
  --sprt ELO0,ELO1[,ALPHA,BETA]  the test over the pairs (default 0,50)
  --seed N            seeds every game (default: the config's)
  --config FILE       run config: search settings, inference of models (default quickstart)
  --set KEY=VALUE     override a config value (repeatable)
  --quiet             no line per game
)";

int placements_ab(Args args) {
  if (wants_help(args)) {
    std::fputs(kAbHelp, stdout);
    return 0;
  }
  std::string a, b, player = "uniform", opponent, config_name = "quickstart", sprt = "0,50";
  std::vector<std::string> overrides;
  placement::AbOptions o;
  int sims = 0;
  int64_t seed = -1;
  bool quiet = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& f = args[i];
    if (f == "--a")
      a = flag_value(args, i);
    else if (f == "--b")
      b = flag_value(args, i);
    else if (f == "--player")
      player = flag_value(args, i);
    else if (f == "--opponent")
      opponent = flag_value(args, i);
    else if (f == "--games")
      o.games = parse_int_flag(f, flag_value(args, i), 2, 10'000'000);
    else if (f == "--profile")
      o.profile = flag_value(args, i);
    else if (f == "--sims")
      sims = parse_int_flag(f, flag_value(args, i), 1, 10'000'000);
    else if (f == "--concurrency")
      o.concurrency = parse_int_flag(f, flag_value(args, i), 1, 1024);
    else if (f == "--max-plies")
      o.max_plies = parse_int_flag(f, flag_value(args, i), 1, 1'000'000);
    else if (f == "--sprt")
      sprt = flag_value(args, i);
    else if (f == "--seed")
      seed = parse_int_flag(f, flag_value(args, i), 0, 2'000'000'000);
    else if (f == "--config")
      config_name = flag_value(args, i);
    else if (f == "--set")
      overrides.push_back(flag_value(args, i));
    else if (f == "--quiet")
      quiet = true;
    else
      throw Error("unknown option '" + f + "' (see placements ab --help)");
  }
  if (a.empty() || b.empty()) throw Error("give --a FORMATION and --b FORMATION (see placements ab --help)");
  const run::RunConfig config = run::load_run_config(config_name, overrides).take_or_throw();
  o.a = placement::formation_control(a, "--a").take_or_throw();
  o.b = placement::formation_control(b, "--b").take_or_throw();
  o.player = eval::parse_player_spec(player).take_or_throw("--player");
  o.opponent =
      eval::parse_player_spec(opponent.empty() ? player + ",placement=random" : opponent).take_or_throw("--opponent");
  if (opponent.empty()) o.opponent.name = "opponent";
  o.search = config.search;
  o.simulations = sims > 0 ? sims : config.search.full_visits;
  o.seed = seed >= 0 ? uint64_t(seed) : config.seed;
  o.sprt = eval::parse_sprt(sprt).take_or_throw("--sprt");
  const game::GameSpec spec = games::spec_for(o.profile).take_or_throw("--profile");
  o.load_model = [&config, spec](const std::string& model) {
    return nn::evaluator_factory(model, spec, config.inference);
  };
  if (!quiet) o.progress = [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };
  const std::atomic<bool>& stop = stop_on_interrupt();
  o.stop = &stop;
  const placement::AbResult result = placement::run_formation_ab(o);
  std::fputs(placement::format_ab(result, o).c_str(), stdout);
  return exit_status(stop);
}

}  // namespace

int placements_command(Args args) {
  if (!args.empty() && args[0] == "ab") return placements_ab(args.subspan(1));
  if (wants_help(args)) {
    std::fputs(kHelp, stdout);
    return 0;
  }
  placement::PlacementOptions options;
  std::string model;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--games")
      options.games.push_back(flag_value(args, i));
    else if (a == "--out")
      options.out = flag_value(args, i);
    else if (a == "--model")
      model = flag_value(args, i);
    else if (a == "--top")
      options.top = parse_int_flag(a, flag_value(args, i), 1, 100'000);
    else if (a == "--no-plots")
      options.gnuplot.clear();
    else
      throw Error("unknown option '" + a + "' (see --help)");
  }
  if (options.games.empty()) throw Error("give --games DIR (see --help)");
  if (options.out.empty()) throw Error("give --out DIR (see --help)");
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
