#include <cstdio>

#include "cli/command.h"
#include "core/error.h"
#include "games/registry.h"
#include "nn/evaluators.h"
#include "placement/placements.h"

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

}  // namespace

int placements_command(Args args) {
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
