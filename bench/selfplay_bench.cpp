// `sittuyin-zero bench selfplay`: how much of the machine self-play turns into search.
//  (a) search overhead: self-play with the uniform evaluator (no network), leaf evaluations per
//      second per worker thread, which is what MCTS, the rules and the batching cost alone;
//  (b) with a network on the CPU: the evaluations per second self-play achieves, divided by the
//      raw batched forward throughput of the same network at the same average batch size,
//      measured in the same run. Target: at least 85%. Results: docs/BENCHMARKS.md.
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "bench/position_pool.h"
#include "bench/selfplay_timing.h"
#include "net/architecture.h"
#include "net/net_config.h"
#include "nn/net_evaluator.h"
#include "nn/net_runner.h"
#include "selfplay/selfplay.h"

namespace sz::bench {

namespace {

constexpr const char* kUsage =
    "sittuyin-zero bench selfplay [--net NAME|PATH] [--seconds S] [--games-per-thread N] [--visits N]";

constexpr const char* kAbout =
    R"(Self-play speed, one worker thread: (a) with the uniform evaluator (the search's own cost), and
(b) with a network on the CPU, against the raw forward throughput at the same average batch.
)";

struct SelfplayRate {
  double evals_per_s = 0, positions_per_s = 0, mean_batch = 0;
};

// Self-play for `seconds` with one worker, into a scratch directory that is removed afterwards.
SelfplayRate run_for(const SelfplayBenchOptions& o, selfplay::SelfplayJob job) {
  const std::string dir =
      (std::filesystem::temp_directory_path() / ("sz-bench-selfplay-" + std::to_string(getpid()))).string();
  std::filesystem::remove_all(dir);
  const auto stats = timed_selfplay(o, std::move(job), /*threads=*/1, dir);
  std::filesystem::remove_all(dir);
  const double secs = std::max(stats->seconds(), 1e-9);
  return {double(stats->evaluations()) / secs, double(stats->positions()) / secs, stats->average_batch()};
}

// Positions per second of one NetEvaluator at batch `b` over a pool of real positions.
double raw_rate(const SelfplayBenchOptions& o, const net::Architecture& arch, int b) {
  nn::InferenceConfig c;
  c.max_batch = b;
  nn::NetEvaluator eval(nn::NetRunner::from_architecture(arch, /*seed=*/1, c));
  const Pool pool = make_pool(o.profile, 4 * b);
  Batch batch(pool, 0, b);
  eval.evaluate(batch.queries, batch.replies);  // warm-up
  const auto start = std::chrono::steady_clock::now();
  int64_t positions = 0;
  double secs = 0;
  while ((secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()) < o.seconds / 2.0) {
    eval.evaluate(batch.queries, batch.replies);
    positions += b;
  }
  return double(positions) / secs;
}

}  // namespace

int bench_selfplay(Args args) {
  SelfplayBenchOptions o;
  o.seconds = 20;
  if (!selfplay_bench_flags(o, kUsage, kAbout, "measuring time per part, 1..3600 (default 20)").parse(args)) return 0;
  nn::set_torch_threads(1);
  selfplay::SelfplayJob uniform;
  uniform.make_evaluator = [](int) { return std::make_unique<search::UniformEvaluator>(); };
  const SelfplayRate a = run_for(o, uniform);
  std::printf("(a) search overhead, uniform evaluator, 1 thread, %d games in flight, %d visits:\n", o.games_per_thread,
              o.visits);
  std::printf("    %.0f leaf evaluations/s (simulations/s), %.0f positions/s, mean batch %.1f\n\n", a.evals_per_s,
              a.positions_per_s, a.mean_batch);

  const net::Architecture arch{std::move(net::load_net_config(o.net)).take_or_throw("--net"),
                               std::move(games::spec_for(o.profile)).take_or_throw("--profile")};
  selfplay::SelfplayJob net;
  net.make_evaluator = [&arch](int) {
    return std::make_unique<nn::NetEvaluator>(nn::NetRunner::from_architecture(arch, /*seed=*/1, {}));
  };
  const SelfplayRate b = run_for(o, net);
  const int batch = std::max(1, int(std::lround(b.mean_batch)));
  const double raw = raw_rate(o, arch, batch);
  std::printf("(b) network %s on the CPU, 1 thread:\n", o.net.c_str());
  std::printf("    self-play %.0f evaluations/s at mean batch %.1f; raw forward %.0f positions/s at batch %d\n",
              b.evals_per_s, b.mean_batch, raw, batch);
  std::printf("    ratio self-play / raw: %.1f%% (target >= 85%%)\n", 100.0 * b.evals_per_s / raw);
  return 0;
}

}  // namespace sz::bench
