#include <cstdio>
#include <filesystem>

#include "cli/command.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "eval/placement_control.h"
#include "games/registry.h"
#include "nn/evaluators.h"
#include "run/run_config.h"
#include "selfplay/selfplay.h"

namespace sz::cli {

namespace {

constexpr const char* kHelp =
    R"(usage: sittuyin-zero selfplay --games N --out DIR [--config FILE] [--model PATH] [--set KEY=VALUE ...]

Plays N self-play games with MCTS and writes them as HDF5 shards to DIR (docs/DATA.md). With no
model, the search uses a uniform prior and a zero value (the bootstrap player). Killed and run
again with the same DIR, it plays only the games still missing. Ctrl-C finishes the shards and
stops (games in flight are lost).
  --config FILE     run config (YAML; default: the built-in quickstart); see configs/
  --model PATH      checkpoint to play with (default: the uniform bootstrap evaluator)
  --set KEY=VALUE   override a config value, e.g. --set search.full_visits=64 (repeatable)
  --games N         how many games DIR should hold when done
  --out DIR         where the shards go; the resolved config is written there as config.yaml
  --placement P     how both sides place in Sittuyin: network (the search, default), random,
                    fixed:FILE (one formation), book:FILE (weighted formations); see
                    docs/PLACEMENT.md. Imposed drops are recorded without a policy target
)";

}  // namespace

int selfplay_command(Args args) {
  if (wants_help(args)) {
    std::fputs(kHelp, stdout);
    return 0;
  }
  std::string config_name = "quickstart", model, out, placement = "network";
  std::vector<std::string> overrides;
  int64_t games = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--config")
      config_name = flag_value(args, i);
    else if (a == "--model")
      model = flag_value(args, i);
    else if (a == "--set")
      overrides.push_back(flag_value(args, i));
    else if (a == "--games")
      games = parse_int_flag(a, flag_value(args, i), 1, 1'000'000'000);
    else if (a == "--out")
      out = flag_value(args, i);
    else if (a == "--placement")
      placement = flag_value(args, i);
    else
      throw Error("unknown option '" + a + "' (see --help)");
  }
  if (!games || out.empty()) throw Error("give --games N and --out DIR (see --help)");
  const run::RunConfig config = run::load_run_config(config_name, overrides).take_or_throw();
  const eval::PlacementControl control = eval::parse_placement_control(placement).take_or_throw("--placement");
  eval::check_placement_control(control, config.profile).take_or_throw("--placement");
  std::filesystem::create_directories(out);
  write_file_atomically(out + "/config.yaml", run::to_yaml(config));

  selfplay::SelfplayJob job;
  job.config = config.selfplay;
  job.start = games::new_game(config.profile).take_or_throw("profile");
  job.out_dir = out;
  job.games = games;
  job.model_id = model;
  job.make_evaluator = nn::evaluator_factory(model, job.start->spec(), config.inference);
  job.placement = eval::placement_chooser(control);
  job.on_progress = [](const selfplay::SelfplayStats& s) { std::fprintf(stderr, "%s\n", s.progress_line().c_str()); };
  const std::atomic<bool>& stop = stop_on_interrupt();
  job.stop = &stop;
  const auto stats = selfplay::run_selfplay(job);
  std::fprintf(stderr, "%s\n", stats->progress_line().c_str());
  std::printf("selfplay: %lld games in %.1f s; %lld games in %s\n", static_cast<long long>(stats->games()),
              stats->seconds(), static_cast<long long>(selfplay::count_games(out)), out.c_str());
  return exit_status(stop);
}

}  // namespace sz::cli
