#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "cli/command.h"
#include "cli/config_args.h"
#include "core/error.h"
#include "run/run_config.h"
#include "train/distributed_config.h"
#include "train/run_files.h"
#include "train/trainer.h"

namespace sz::cli {

namespace {

constexpr const char* kHelp =
    R"(usage: sittuyin-zero train --run DIR [--config FILE] [--steps N] [--no-adopt] [--set KEY=VALUE ...]
                          [--world-size N --rank R --rendezvous HOST:PORT [--timeout S]]

Trains the network of a run on the newest self-play games in DIR/games (a sliding window), and
writes checkpoints to DIR/models (current.txt names the newest) and metrics to
DIR/logs/train.jsonl. Self-play may run at the same time in other processes writing to DIR/games:
the trainer takes at most train.replay_ratio training samples per self-play position and waits
for new games when it has used them up. Each checkpoint it writes is adopted (models/adopted.txt
names it, no gating), so that `selfplay --follow DIR` workers play with it. Killed, it resumes
from its last checkpoint. Ctrl-C stops it cleanly after writing a checkpoint. See
docs/TRAINING.md and docs/SCALING.md.
  --run DIR         the run directory (default: the config's, runs/<name>)
  --config FILE     run config (YAML); default: DIR/config.yaml if there, else the built-in quickstart
  --steps N         train N steps, then stop (default: until Ctrl-C)
  --no-adopt        leave models/adopted.txt alone (another process gates and adopts)
  --world-size N    data-parallel training over N ranks (processes, on one host or several): each
                    trains on its share of every batch, the gradients are averaged (c10d, Gloo),
                    rank 0 alone writes checkpoints, metrics and adopted.txt (docs/SCALING.md).
                    Without these flags, torchrun's RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT
                    or Slurm's SLURM_PROCID, SLURM_NTASKS (with MASTER_ADDR, MASTER_PORT) apply
  --rank R          this process's rank, 0..N-1
  --rendezvous H:P  where rank 0 serves the rendezvous (a TCPStore)
  --timeout S       a rank that does not answer within S seconds stops the others (default 300)
  --set KEY=VALUE   override a config value, e.g. --set train.batch_size=512 (repeatable)
)";

}  // namespace

int train_command(Args args) {
  if (wants_help(args)) {
    std::fputs(kHelp, stdout);
    return 0;
  }
  std::string config_name, run;
  std::vector<std::string> overrides;
  int64_t steps = -1;
  bool adopt = true;
  train::DistributedConfig dist;
  bool dist_flags = false;
  std::string rendezvous;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--config")
      config_name = flag_value(args, i);
    else if (a == "--run")
      run = flag_value(args, i);
    else if (a == "--set")
      overrides.push_back(flag_value(args, i));
    else if (a == "--steps")
      steps = parse_int_flag(a, flag_value(args, i), 1, 2'000'000'000);
    else if (a == "--no-adopt")
      adopt = false;
    else if (a == "--world-size")
      dist.world_size = parse_int_flag(a, flag_value(args, i), 1, 1 << 20), dist_flags = true;
    else if (a == "--rank")
      dist.rank = parse_int_flag(a, flag_value(args, i), 0, (1 << 20) - 1), dist_flags = true;
    else if (a == "--rendezvous")
      rendezvous = flag_value(args, i), dist_flags = true;
    else if (a == "--timeout")
      dist.timeout_seconds = parse_int_flag(a, flag_value(args, i), 1, 86'400);
    else
      throw Error("unknown option '" + a + "' (see --help)");
  }
  if (dist_flags) {
    if (!rendezvous.empty()) dist = train::with_rendezvous(dist, rendezvous).take_or_throw();
    dist = train::checked(dist).take_or_throw();
  } else {
    const double timeout = dist.timeout_seconds;
    dist = train::distributed_from_env([](const char* name) { return std::getenv(name); }).take_or_throw("environment");
    dist.timeout_seconds = timeout;
  }
  const bool leader = dist.rank == 0;
  const run::RunConfig config = run_config_of(config_name, run, overrides);
  if (run.empty()) run = config.run_dir();
  std::filesystem::create_directories(run);
  const std::string resolved = (std::filesystem::path(run) / "config.yaml").string();
  std::error_code ec;
  if (leader && !std::filesystem::exists(resolved, ec)) write_file_atomically(resolved, run::to_yaml(config));

  train::TrainerHooks hooks;
  hooks.on_metrics = [](const train::StepMetrics& m) {
    std::printf("%s\n", train::progress_line(m).c_str());
    std::fflush(stdout);
  };
  hooks.on_checkpoint = [&](const std::string& path) {
    if (adopt) train::write_adopted(run, path);
    std::printf("checkpoint %s%s\n", path.c_str(), adopt ? " (adopted)" : "");
    std::fflush(stdout);
  };
  train::TrainerSetup setup = run::trainer_setup(config, run);
  setup.distributed = dist;
  train::Trainer trainer(std::move(setup), hooks);
  // A trainer resumed over a run whose workers play an older network hands them its newest.
  if (adopt && leader && !trainer.current_checkpoint().empty()) train::write_adopted(run, trainer.current_checkpoint());
  const std::string from = trainer.current_checkpoint().empty() ? "a fresh network" : trainer.current_checkpoint();
  std::printf("train: %s, step %lld, from %s", run.c_str(), static_cast<long long>(trainer.step()), from.c_str());
  if (dist.distributed()) std::printf(", rank %d of %d", dist.rank, dist.world_size);
  std::printf("\n");
  const std::atomic<bool>& stop = stop_on_interrupt();
  const int64_t done = trainer.train(steps, &stop);
  std::printf("train: %lld steps, now at step %lld; current checkpoint %s\n", static_cast<long long>(done),
              static_cast<long long>(trainer.step()), trainer.current_checkpoint().c_str());
  return exit_status(stop);
}

}  // namespace sz::cli
