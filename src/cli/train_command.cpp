#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "cli/command.h"
#include "cli/config_args.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "run/run_config.h"
#include "rundir/loop_state.h"
#include "rundir/run_paths.h"
#include "train/distributed_config.h"
#include "train/trainer.h"

namespace sz::cli {

namespace {

constexpr const char* kUsage =
    R"(sittuyin-zero train --run DIR [--config FILE] [--steps N] [--no-adopt] [--set KEY=VALUE ...]
                          [--world-size N --rank R --rendezvous HOST:PORT [--timeout S]])";

constexpr const char* kAbout =
    R"(Trains the network of a run on the newest self-play games in DIR/games (a sliding window), and
writes checkpoints to DIR/models (current.txt names the newest) and metrics to
DIR/logs/train.jsonl. Self-play may run at the same time in other processes writing to DIR/games:
the trainer takes at most train.replay_ratio training samples per self-play position and waits
for new games when it has used them up. Each checkpoint it writes is adopted (models/adopted.txt
names it, no gating), so that `selfplay --follow DIR` workers play with it. Killed, it resumes
from its last checkpoint. Ctrl-C stops it cleanly after writing a checkpoint. See
docs/TRAINING.md and docs/SCALING.md.
)";

struct Options {
  std::string run, rendezvous;
  ConfigFlags config;
  int64_t steps = -1;
  bool no_adopt = false;
  train::DistributedConfig dist;
};

Flags train_flags(Options& o) {
  Flags f(kUsage, kAbout);
  f.text("--run", "DIR", o.run, "the run directory (default: the config's, runs/<name>)");
  f.config(o.config, "run config (YAML); default: DIR/config.yaml if there, else the built-in quickstart",
           "override a config value, e.g. --set train.batch_size=512 (repeatable)");
  f.number("--steps", "N", o.steps, 1, 2'000'000'000, "train N steps, then stop (default: until Ctrl-C)");
  f.set("--no-adopt", o.no_adopt, "leave models/adopted.txt alone (another process gates and adopts)");
  f.number("--world-size", "N", o.dist.world_size, 1, 1 << 20,
           "data-parallel training over N ranks (processes, on one host or several): each trains on its share of "
           "every batch, the gradients are averaged (c10d, Gloo), rank 0 alone writes checkpoints, metrics and "
           "adopted.txt (docs/SCALING.md). Without these flags, torchrun's RANK, WORLD_SIZE, MASTER_ADDR, "
           "MASTER_PORT or Slurm's SLURM_PROCID, SLURM_NTASKS (with MASTER_ADDR, MASTER_PORT) apply");
  f.number("--rank", "R", o.dist.rank, 0, (1 << 20) - 1, "this process's rank, 0..N-1");
  f.text("--rendezvous", "H:P", o.rendezvous, "where rank 0 serves the rendezvous (a TCPStore)");
  f.number("--timeout", "S", o.dist.timeout_seconds, 1, 86'400,
           "a rank that does not answer within S seconds stops the others (default 300)");
  return f;
}

}  // namespace

int train_command(Args args) {
  Options o;
  Flags flags = train_flags(o);
  if (!flags.parse(args)) return 0;
  train::DistributedConfig dist = o.dist;
  if (flags.given("--world-size") || flags.given("--rank") || flags.given("--rendezvous")) {
    if (!o.rendezvous.empty()) dist = train::with_rendezvous(dist, o.rendezvous).take_or_throw();
    dist = train::checked(dist).take_or_throw();
  } else {
    dist = train::distributed_from_env([](const char* name) { return std::getenv(name); }).take_or_throw("environment");
    dist.timeout_seconds = o.dist.timeout_seconds;
  }
  const bool adopt = !o.no_adopt;
  std::string run = o.run;
  const bool leader = dist.rank == 0;
  const run::RunConfig config = run_config_in(o.config, run);
  if (run.empty()) run = config.run_dir();
  std::filesystem::create_directories(run);
  const std::string resolved = rundir::RunPaths(run).config();
  std::error_code ec;
  if (leader && !std::filesystem::exists(resolved, ec)) write_file_atomically(resolved, run::to_yaml(config));

  train::TrainerHooks hooks;
  hooks.on_metrics = [](const train::StepMetrics& m) {
    std::printf("%s\n", train::progress_line(m).c_str());
    std::fflush(stdout);
  };
  hooks.on_checkpoint = [&](const std::string& path) {
    if (adopt) rundir::write_adopted(run, path);
    std::printf("checkpoint %s%s\n", path.c_str(), adopt ? " (adopted)" : "");
    std::fflush(stdout);
  };
  train::TrainerSetup setup = run::trainer_setup(config, run);
  setup.distributed = dist;
  train::Trainer trainer(std::move(setup), hooks);
  // A trainer resumed over a run whose workers play an older network hands them its newest.
  if (adopt && leader && !trainer.current_checkpoint().empty())
    rundir::write_adopted(run, trainer.current_checkpoint());
  const std::string from = trainer.current_checkpoint().empty() ? "a fresh network" : trainer.current_checkpoint();
  std::printf("train: %s, step %lld, from %s", run.c_str(), static_cast<long long>(trainer.step()), from.c_str());
  if (dist.distributed()) std::printf(", rank %d of %d", dist.rank, dist.world_size);
  std::printf("\n");
  const std::atomic<bool>& stop = stop_on_interrupt();
  const int64_t done = trainer.train(o.steps, &stop);
  std::printf("train: %lld steps, now at step %lld; current checkpoint %s\n", static_cast<long long>(done),
              static_cast<long long>(trainer.step()), trainer.current_checkpoint().c_str());
  return exit_status(stop);
}

}  // namespace sz::cli
