#pragma once
// What the self-play benchmarks (`bench selfplay`, `bench workers`) share: their options and a
// self-play run stopped after a fixed time.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "cli/command.h"
#include "core/error.h"
#include "games/registry.h"
#include "selfplay/selfplay.h"

namespace sz::cli {

struct SelfplayBenchOptions {
  std::string net = "small", profile = "sittuyin";
  int seconds = 20, games_per_thread = 32, visits = 64;
};

// --net, --profile, --seconds, --games-per-thread, --visits (as each benchmark's help lists them).
inline SelfplayBenchOptions parse_selfplay_bench_options(Args args, int default_seconds) {
  SelfplayBenchOptions o;
  o.seconds = default_seconds;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--net")
      o.net = flag_value(args, i);
    else if (a == "--profile")
      o.profile = flag_value(args, i);
    else if (a == "--seconds")
      o.seconds = parse_int_flag(a, flag_value(args, i), 1, 3600);
    else if (a == "--games-per-thread")
      o.games_per_thread = parse_int_flag(a, flag_value(args, i), 1, 4096);
    else if (a == "--visits")
      o.visits = parse_int_flag(a, flag_value(args, i), 4, 100000);
    else
      throw Error("unknown option '" + a + "' (see --help)");
  }
  return o;
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

}  // namespace sz::cli
