#include <cstdio>
#include <filesystem>

#include "cli/command.h"
#include "core/error.h"
#include "run/run_config.h"
#include "train/run_files.h"
#include "train/trainer.h"

namespace sz::cli {

namespace {

constexpr const char* kHelp = R"(usage: sittuyin-zero train --run DIR [--config FILE] [--steps N] [--set KEY=VALUE ...]

Trains the network of a run on the newest self-play games in DIR/games (a sliding window), and
writes checkpoints to DIR/models (current.txt names the newest) and metrics to
DIR/logs/train.jsonl. Self-play may run at the same time in other processes writing to DIR/games:
the trainer takes at most train.replay_ratio training samples per self-play position and waits
for new games when it has used them up. Killed, it resumes from its last checkpoint. Ctrl-C
stops it cleanly after writing a checkpoint. See docs/TRAINING.md.
  --run DIR         the run directory (default: the config's, runs/<name>)
  --config FILE     run config (YAML); default: DIR/config.yaml if there, else the built-in quickstart
  --steps N         train N steps, then stop (default: until Ctrl-C)
  --set KEY=VALUE   override a config value, e.g. --set train.batch_size=512 (repeatable)
)";

run::RunConfig resolve_config(const std::string& config_name, const std::string& run,
                              const std::vector<std::string>& overrides) {
  std::string name = config_name;
  if (name.empty()) {
    const std::string in_run = run.empty() ? "" : (std::filesystem::path(run) / "config.yaml").string();
    std::error_code ec;
    name = !in_run.empty() && std::filesystem::exists(in_run, ec) ? in_run : "quickstart";
  }
  return run::load_run_config(name, overrides).take_or_throw();
}

}  // namespace

int train_command(Args args) {
  if (wants_help(args)) {
    std::fputs(kHelp, stdout);
    return 0;
  }
  std::string config_name, run;
  std::vector<std::string> overrides;
  int64_t steps = -1;
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
    else
      throw Error("unknown option '" + a + "' (see --help)");
  }
  const run::RunConfig config = resolve_config(config_name, run, overrides);
  if (run.empty()) run = config.run_dir();
  std::filesystem::create_directories(run);
  const std::string resolved = (std::filesystem::path(run) / "config.yaml").string();
  std::error_code ec;
  if (!std::filesystem::exists(resolved, ec)) write_file_atomically(resolved, run::to_yaml(config));

  train::TrainerHooks hooks;
  hooks.on_metrics = [](const train::StepMetrics& m) {
    std::printf("%s\n", train::progress_line(m).c_str());
    std::fflush(stdout);
  };
  hooks.on_checkpoint = [](const std::string& path) {
    std::printf("checkpoint %s\n", path.c_str());
    std::fflush(stdout);
  };
  train::Trainer trainer(run::trainer_setup(config, run), hooks);
  const std::string from = trainer.current_checkpoint().empty() ? "a fresh network" : trainer.current_checkpoint();
  std::printf("train: %s, step %lld, from %s\n", run.c_str(), static_cast<long long>(trainer.step()), from.c_str());
  const std::atomic<bool>& stop = stop_on_interrupt();
  const int64_t done = trainer.train(steps, &stop);
  std::printf("train: %lld steps, now at step %lld; current checkpoint %s\n", static_cast<long long>(done),
              static_cast<long long>(trainer.step()), trainer.current_checkpoint().c_str());
  return exit_status(stop);
}

}  // namespace sz::cli
