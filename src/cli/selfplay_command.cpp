#include <cstdio>
#include <filesystem>
#include <mutex>

#include "cli/command.h"
#include "cli/config_args.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "eval/placement_control.h"
#include "games/registry.h"
#include "heuristics/heuristics.h"
#include "nn/evaluators.h"
#include "run/run_config.h"
#include "rundir/loop_state.h"
#include "rundir/run_paths.h"
#include "selfplay/selfplay.h"
#include "selfplay/worker_id.h"

namespace sz::cli {

namespace {

constexpr const char* kUsage = R"(sittuyin-zero selfplay --games N --out DIR [--model PATH] [options]
       sittuyin-zero selfplay --follow RUN [--games N] [options])";

constexpr const char* kAbout =
    R"(Plays self-play games with MCTS and writes them as HDF5 shards (docs/DATA.md). With no model,
the search uses a uniform prior and a zero value (the bootstrap player). Any number of these may
write into one directory at once, on one host or several sharing it: each is a worker with an id
of its own, which names its shards and seeds its games, so none collide and no game is played
twice; with --games they stop together near N games. Killed and run again with the same
directory and id, it plays only its games still missing. Ctrl-C or SIGTERM begins no more
games, lets those in flight finish for --finish-seconds, closes the shards and stops.

With --follow, a long-running worker of the run RUN: it writes into RUN/games, plays with the
network RUN/models/adopted.txt names (the bootstrap player until there is one) and switches to a
newly adopted one between games (`train --run RUN` adopts each checkpoint it writes; the loop
adopts after its gate). It runs until Ctrl-C or SIGTERM (or until RUN/games holds N games).
)";

// The evaluators of the model being followed: one factory per model, shared by the worker
// threads (a factory may share one inference service among them), built by the first to ask.
class FollowedModels {
 public:
  FollowedModels(game::GameSpec spec, nn::InferenceConfig inference)
      : spec_(std::move(spec)), inference_(std::move(inference)) {}
  search::EvaluatorFactory evaluators(const std::string& model) {
    std::lock_guard lock(mutex_);
    if (model != model_ || !factory_) factory_ = nn::evaluator_factory(model, spec_, inference_), model_ = model;
    return factory_;
  }

 private:
  std::mutex mutex_;
  const game::GameSpec spec_;
  const nn::InferenceConfig inference_;
  std::string model_;
  search::EvaluatorFactory factory_;
};

struct Options {
  std::string model, out, worker, follow, placement = "network";
  ConfigFlags config;
  int64_t games = -1;
  double finish_seconds = 30;
};

Flags selfplay_flags(Options& o) {
  Flags f(kUsage, kAbout);
  f.number("--games", "N", o.games, 1, 1'000'000'000, "how many games the directory should hold when done");
  f.text("--out", "DIR", o.out, "where the shards go; the resolved config is written there as config.yaml");
  f.text("--model", "PATH", o.model, "checkpoint to play with (default: the uniform bootstrap evaluator)");
  f.text("--follow", "RUN", o.follow, "play for the run RUN, with its adopted network (see above)");
  f.text("--worker", "ID", o.worker,
         "this worker's id (letters, digits, '.', '_', '-'), unique among the workers of the directory (a live one "
         "holds it); default: <host>-<n>, the lowest n free on this host");
  f.number("--finish-seconds", "S", o.finish_seconds, 0, 86'400,
           "on Ctrl-C or SIGTERM, how long the games in flight may go on (default 30; those still running then are "
           "lost)");
  f.config(o.config,
           "run config (YAML); default: RUN/config.yaml when following and there, else the built-in quickstart; see "
           "configs/",
           "override a config value, e.g. --set search.full_visits=64 (repeatable)");
  f.text("--placement", "P", o.placement,
         "how both sides place in Sittuyin: network (the search, default), random, fixed:FILE (one formation), "
         "book:FILE (weighted formations); see docs/PLACEMENT.md. Imposed drops are recorded without a policy "
         "target");
  return f;
}

}  // namespace

int selfplay_command(Args args) {
  Options o;
  if (!selfplay_flags(o).parse(args)) return 0;
  if (o.follow.empty() && (o.games < 0 || o.out.empty()))
    throw Error("give --games N and --out DIR, or --follow RUN (see --help)");
  if (!o.follow.empty() && (!o.out.empty() || !o.model.empty()))
    throw Error("--follow RUN writes into RUN/games with the run's adopted network: no --out or --model with it");
  const run::RunConfig config = run_config_in(o.config, o.follow);
  const std::string out = o.follow.empty() ? o.out : rundir::RunPaths(o.follow).games();
  const eval::PlacementControl control = eval::parse_placement_control(o.placement).take_or_throw("--placement");
  eval::check_placement_control(control, config.profile).take_or_throw("--placement");
  std::filesystem::create_directories(out);
  const std::string config_file = rundir::RunPaths(o.follow.empty() ? out : o.follow).config();
  if (o.follow.empty() || !std::filesystem::exists(config_file))
    write_file_atomically(config_file, run::to_yaml(config));
  const selfplay::WorkerClaim claim = selfplay::claim_worker_id(out, o.worker);

  selfplay::SelfplayJob job;
  job.config = config.selfplay;
  job.start = games::new_game(config.profile).take_or_throw("profile");
  job.out_dir = out;
  job.games = o.games;
  job.worker_id = claim.id;
  job.model_id = o.model;
  FollowedModels models(job.start->spec(), config.inference);
  if (o.follow.empty()) {
    job.make_evaluator = nn::evaluator_factory(o.model, job.start->spec(), config.inference);
  } else {
    job.current_model = [run = o.follow] { return rundir::read_adopted(run); };
    job.evaluators_for = [&](const std::string& model) { return models.evaluators(model); };
    job.on_model = [&](int thread, const std::string& model) {
      std::fprintf(stderr, "selfplay: worker %s thread %d now plays with %s\n", claim.id.c_str(), thread,
                   model.empty() ? "the bootstrap player" : model.c_str());
    };
  }
  job.placement = eval::placement_chooser(control);
  job.tables = run::config_tables(config);  // as the loop's own self-play: tables.dir, which `loop` fills
  job.heuristics = heuristics::of_game(job.start->spec().game);
  if (job.tables)
    std::fprintf(stderr, "selfplay: games that reach the endgame tables in %s end there\n", config.tables.dir.c_str());
  job.on_progress = [](const selfplay::SelfplayStats& s) { std::fprintf(stderr, "%s\n", s.progress_line().c_str()); };
  const std::atomic<bool>& stop = stop_on_interrupt();
  job.stop = &stop;
  job.finish_seconds = o.finish_seconds;
  std::fprintf(stderr, "selfplay: worker %s writing into %s\n", claim.id.c_str(), out.c_str());
  const auto stats = selfplay::run_selfplay(job);
  std::fprintf(stderr, "%s\n", stats->progress_line().c_str());
  if (const std::string searches = stats->search_line(); !searches.empty())
    std::fprintf(stderr, "%s\n", searches.c_str());
  std::printf("selfplay: worker %s, %lld games in %.1f s; %lld games in %s\n", claim.id.c_str(),
              static_cast<long long>(stats->games()), stats->seconds(),
              static_cast<long long>(selfplay::count_games(out)), out.c_str());
  return exit_status(stop);
}

}  // namespace sz::cli
