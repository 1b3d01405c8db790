// `sittuyin-zero bench train`: does the data loader keep the optimiser busy?
//
// Two measures of training samples per second, taken in one process, alternating phase by phase
// (wall time drifts on a shared machine, so only a ratio measured in one run means anything):
//   loader:    train::Trainer on real shards: batches sampled from the window by the background
//              thread, then forward, backward and optimiser step;
//   in-memory: the same network, optimiser and batch size stepping on one batch held in memory.
// The figure is loader / in-memory, best phase of each (the median of the per-phase ratios is
// printed too); the target is >= 90 %. A first, untimed phase of each warms them up (allocator,
// caches). Each phase skips its first steps (the loader's queue is full when a phase starts) and
// stops before the checkpoint the trainer writes. Shards are generated on the first run by
// self-play with the uniform evaluator and kept in --dir for the next. Results:
// docs/BENCHMARKS.md.
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "bench/benches.h"
#include "core/error.h"
#include "data/shard_files.h"
#include "games/registry.h"
#include "models/training.h"
#include "net/net_config.h"
#include "nn/net_runner.h"
#include "rundir/run_paths.h"
#include "search/evaluator.h"
#include "selfplay/selfplay.h"
#include "train/batch.h"
#include "train/schedule.h"
#include "train/trainer.h"

namespace sz::bench {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr const char* kUsage = R"(sittuyin-zero bench train [--net NAME] [--batch N] [--steps N] [--repeat N]
                                  [--games N] [--threads N] [--device D] [--dir DIR])";

constexpr const char* kAbout =
    R"(Training samples/s through the real data loader (sliding window over HDF5 shards, batches from a
background thread) divided by samples/s of forward + backward + step on one in-memory batch of
the same size. Target: >= 90 %.
)";

struct Options {
  std::string net = "small", device = "cpu", dir = (fs::temp_directory_path() / "sz-bench-train").string();
  int batch = 256, steps = 40, repeat = 3, games = 24, threads = 1;
};

cli::Flags options_flags(Options& o) {
  cli::Flags f(kUsage, kAbout);
  f.text("--net", "NAME", o.net, "network preset or YAML (default small)");
  f.number("--batch", "N", o.batch, 1, 1 << 16, "batch size (default 256)");
  f.number("--steps", "N", o.steps, 10, 100'000, "timed steps per phase (default 40)");
  f.number("--repeat", "N", o.repeat, 1, 100, "phases of each kind, alternating; the best of each counts (default 3)");
  f.number("--games", "N", o.games, 1, 100'000,
           "self-play games to generate when DIR/games holds no shards (default 24)");
  f.number("--threads", "N", o.threads, 1, 1024, "torch intra-op threads (default 1)");
  f.text("--device", "D", o.device, "auto | cpu | cuda | cuda:N (default cpu)");
  f.text("--dir", "DIR", o.dir, "run directory for the shards (default: <tmp>/sz-bench-train)");
  return f;
}

// Real shards: self-play with the uniform evaluator (cheap searches, real policy targets).
void ensure_shards(const Options& o, const std::string& games_dir) {
  if (!data::list_shards(games_dir).empty()) return;
  std::printf("generating %d self-play games into %s ...\n", o.games, games_dir.c_str());
  selfplay::SelfplayJob job;
  job.config.threads = 1;
  job.config.games_per_thread = 8;
  job.config.seed = 7;
  job.config.search.full_visits = 32;
  job.config.search.cheap_visits = 8;
  job.config.games_per_shard = 8;
  job.config.shard_prefix = "bench";
  job.start = games::new_game("sittuyin").take_or_throw("sittuyin");
  job.out_dir = games_dir;
  job.games = o.games;
  job.make_evaluator = [](int) { return std::make_unique<search::UniformEvaluator>(); };
  selfplay::run_selfplay(job);
}

// The trainer of the bench, on Sittuyin.
train::TrainerSetup bench_setup(const Options& o) {
  train::TrainerSetup c;
  c.net = net::load_net_config(o.net).take_or_throw("--net");
  c.spec = games::spec_for("sittuyin").take_or_throw("sittuyin");
  c.run_dir = o.dir;
  c.train.batch_size = o.batch;
  c.train.device = o.device;
  c.train.replay_ratio = 0;  // no cap: the bench trains as fast as it can
  c.train.min_positions = 1;
  c.train.warmup_steps = 0;
  c.train.log_every = 1;  // a timestamp after every step (see train_phase)
  c.train.checkpoint_every = 1'000'000'000;
  c.train.prefetch_batches = 2;
  return c;
}

// Samples/s over the steps after the first `skip`, from per-step timestamps.
double rate(const std::vector<Clock::time_point>& t, int skip, int batch) {
  const double seconds = std::chrono::duration<double>(t.back() - t[size_t(skip)]).count();
  return double(t.size() - 1 - size_t(skip)) * batch / seconds;
}

// One phase of the in-memory baseline: the trainer's step without the loader.
double memory_phase(models::Network& net, torch::optim::Optimizer& opt, const models::LossBatch& batch,
                    const train::TrainConfig& tc, int steps, int skip) {
  std::vector<Clock::time_point> t;
  for (int s = 0; s < steps; ++s) {
    models::set_learning_rate(opt, train::learning_rate_at(tc, s));
    net->train();
    opt.zero_grad();
    const models::Losses losses = models::compute_losses(net->forward(batch.input), batch, tc.loss);
    losses.total.backward();
    opt.step();
    t.push_back(Clock::now());
  }
  return rate(t, skip, tc.batch_size);
}

// Milliseconds to prepare one batch (sample, gather, expand, densify) on this thread: what the
// loader thread spends per step, for the CPU it takes from the optimiser.
double batch_ms(const train::Window& window, const torch::Device& device, const net::Architecture& arch, int batch) {
  constexpr int kBatches = 20;
  const auto t0 = Clock::now();
  for (int k = 0; k < kBatches; ++k) {
    const auto host = train::make_host_batch(window, {.seed = 1, .batch_size = batch, .sampling = {}}, k,
                                             /*pinned=*/device.is_cuda());
    const auto loss = train::to_loss_batch(host, device, arch.spec.action_space, arch.net.moves_left);
    if (device.is_cuda()) loss.policy.sum().item<float>();  // wait for the device
  }
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count() / kBatches;
}

}  // namespace

int bench_train(Args args) {
  Options o;
  if (!options_flags(o).parse(args)) return 0;
  nn::set_torch_threads(o.threads);
  const rundir::RunPaths paths(o.dir);
  const std::string games_dir = paths.games();
  ensure_shards(o, games_dir);
  fs::remove_all(paths.models());  // every run starts at step 0
  fs::remove_all(paths.logs());
  const train::TrainerSetup config = bench_setup(o);

  std::vector<Clock::time_point> stamps;
  train::TrainerHooks hooks;
  hooks.on_metrics = [&](const train::StepMetrics&) { stamps.push_back(Clock::now()); };
  train::Trainer trainer(config, hooks);
  const int skip = config.train.prefetch_batches + 2;

  // The baseline's batch: the trainer's window and sampling, built once.
  const net::Architecture arch{config.net, config.spec};
  train::ShardCatalog catalog(games_dir, arch.spec, nullptr);
  catalog.refresh();
  const auto window =
      train::Window::build(catalog, train::window_size(config.train, catalog.total_positions()), nullptr);
  const torch::Device device(nn::resolve_device(o.device));
  const auto host = train::make_host_batch(*window, {.seed = config.seed, .batch_size = o.batch, .sampling = {}}, 0,
                                           /*pinned=*/false);
  const models::LossBatch batch = train::to_loss_batch(host, device, arch.spec.action_space, arch.net.moves_left);
  models::Network net(arch);
  net->to(device);
  auto opt = models::make_optimizer(net, config.train.optimizer);

  std::printf(
      "bench train: net %s, batch %d, %d steps x %d phases, %d torch threads, %s; "
      "window %lld positions in %zu shards\n",
      o.net.c_str(), o.batch, o.steps, o.repeat, o.threads, device.str().c_str(),
      static_cast<long long>(window->size()), window->num_shards());
  double best_loader = 0, best_memory = 0;
  std::vector<double> ratios;
  for (int r = -1; r < o.repeat; ++r) {  // phase -1 warms both up (allocator, caches) untimed
    stamps.clear();
    trainer.train_available(o.steps, nullptr);
    const double loader = rate(stamps, skip, o.batch);
    const double memory = memory_phase(net, *opt, batch, config.train, o.steps, skip);
    if (r < 0) continue;
    best_loader = std::max(best_loader, loader);
    best_memory = std::max(best_memory, memory);
    ratios.push_back(loader / memory);
    std::printf("  phase %d: loader %.1f samples/s, in-memory %.1f samples/s (%.1f %%)\n", r + 1, loader, memory,
                100.0 * loader / memory);
  }
  std::sort(ratios.begin(), ratios.end());
  std::printf(
      "loader %.1f samples/s, in-memory %.1f samples/s (best phases): %.1f %% (target >= 90 %%); median of the "
      "phase ratios %.1f %%\n",
      best_loader, best_memory, 100.0 * best_loader / best_memory, 100.0 * ratios[ratios.size() / 2]);
  const double prep = batch_ms(*window, device, arch, o.batch);
  std::printf("preparing one batch: %.2f ms, %.1f %% of an in-memory step (%.1f ms)\n", prep,
              100.0 * prep / (1000.0 * o.batch / best_memory), 1000.0 * o.batch / best_memory);
  return 0;
}

}  // namespace sz::bench
