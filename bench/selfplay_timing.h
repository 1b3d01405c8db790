#pragma once
// What the self-play benchmarks (`bench selfplay`, `bench workers`) share: their options and a
// self-play run stopped after a fixed time.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <utility>

#include "bench/benches.h"
#include "cli/flags.h"
#include "core/error.h"
#include "games/registry.h"
#include "selfplay/selfplay.h"

namespace sz::bench {

struct SelfplayBenchOptions {
  std::string net = "small", profile = "sittuyin";
  int seconds = 20, games_per_thread = 32, visits = 64;
};

// The benchmark's flags: --net, --profile, --seconds (`seconds_help`), --games-per-thread, --visits.
inline cli::Flags selfplay_bench_flags(SelfplayBenchOptions& o, std::string usage, std::string about,
                                       std::string_view seconds_help) {
  cli::Flags f(std::move(usage), std::move(about));
  f.text("--net", "NAME|PATH", o.net, "network preset or YAML, with random weights (default small)");
  f.text("--profile", "NAME", o.profile, "rule profile (default sittuyin)");
  f.number("--seconds", "S", o.seconds, 1, 3600, seconds_help);
  f.number("--games-per-thread", "N", o.games_per_thread, 1, 4096,
           "games in flight per thread, the batch each worker thread sends (default 32)");
  f.number("--visits", "N", o.visits, 4, 100000, "full-search visits; cheap searches get a quarter (default 64)");
  return f;
}

// Self-play of `job` (its evaluator and worker id set by the caller) with `threads` threads into
// `dir` for o.seconds: o's start position, games in flight and visits (cheap searches a quarter).
inline std::unique_ptr<selfplay::SelfplayStats> timed_selfplay(const SelfplayBenchOptions& o, selfplay::SelfplayJob job,
                                                               int threads, const std::string& dir) {
  job.start = games::new_game(o.profile).take_or_throw("--profile");
  job.config.threads = threads;
  job.config.games_per_thread = o.games_per_thread;
  job.config.search.full_visits = o.visits;
  job.config.search.cheap_visits = std::max(1, o.visits / 4);
  job.out_dir = dir;
  job.games = -1;  // until stopped
  std::atomic<bool> stop{false};
  job.stop = &stop;
  std::thread timer([&] {
    std::this_thread::sleep_for(std::chrono::seconds(o.seconds));
    stop = true;
  });
  auto stats = selfplay::run_selfplay(job);
  timer.join();
  return stats;
}

}  // namespace sz::bench
