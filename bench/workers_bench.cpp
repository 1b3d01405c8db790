// `sittuyin-zero bench workers`: self-play throughput of separate worker processes against one
// process with as many threads, side by side in one run (docs/SCALING.md: threads or workers).
// Each layout runs in forked children started together; the parent never starts torch or TBB,
// so each child begins clean. Every worker thread has its own network on the CPU (one torch
// thread), as self-play's CPU evaluators do. Results: docs/BENCHMARKS.md.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "bench/selfplay_timing.h"
#include "net/architecture.h"
#include "net/net_config.h"
#include "nn/net_evaluator.h"
#include "nn/net_runner.h"
#include "selfplay/selfplay.h"

namespace sz::bench {

namespace {

constexpr const char* kUsage =
    "sittuyin-zero bench workers [--net NAME|PATH] [--seconds S] [--games-per-thread N] [--visits N]";

constexpr const char* kAbout = R"(Self-play's network evaluations per second (search leaves; games are too long to count
finished positions in a short run) of 1 worker process with 1 thread, 2 worker processes with 1
thread each (writing into one directory, as `selfplay` workers do), and 1 process with 2 threads,
each for S seconds, with a network of random weights on the CPU.
)";

struct Rate {
  double evaluations = 0, seconds = 0;  // network evaluations (search leaves)
};

// In a forked child: self-play with `threads` threads as worker `id` into `dir` for o.seconds.
Rate play(const SelfplayBenchOptions& o, const net::Architecture& arch, int threads, const std::string& id,
          const std::string& dir) {
  nn::set_torch_threads(1);
  selfplay::SelfplayJob job;
  job.worker_id = id;
  job.make_evaluator = [&arch](int) {
    return std::make_unique<nn::NetEvaluator>(nn::NetRunner::from_architecture(arch, /*seed=*/1, {}));
  };
  const auto stats = timed_selfplay(o, std::move(job), threads, dir);
  return {double(stats->evaluations()), stats->seconds()};
}

// `processes` children of `threads` threads each, started together; their summed evaluations/s.
double run_layout(const SelfplayBenchOptions& o, const net::Architecture& arch, int processes, int threads) {
  const std::string dir = (std::filesystem::temp_directory_path() /
                           ("sz-bench-workers-" + std::to_string(getpid()) + "-" + std::to_string(processes)))
                              .string();
  std::filesystem::remove_all(dir);
  std::vector<std::pair<pid_t, int>> children;  // pid, read end of its pipe
  for (int p = 0; p < processes; ++p) {
    int fds[2];
    if (pipe(fds) != 0) throw Error("bench workers: cannot create a pipe");
    const pid_t pid = fork();
    if (pid < 0) throw Error("bench workers: cannot fork");
    if (pid == 0) {
      ::close(fds[0]);
      Rate r;
      try {
        r = play(o, arch, threads, "bench-" + std::to_string(p), dir);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "bench workers: %s\n", e.what());
        _exit(1);
      }
      const bool written = ::write(fds[1], &r, sizeof r) == ssize_t(sizeof r);
      _exit(written ? 0 : 1);
    }
    ::close(fds[1]);
    children.emplace_back(pid, fds[0]);
  }
  double rate = 0;
  bool failed = false;
  for (const auto& [pid, fd] : children) {
    Rate r;
    failed |= ::read(fd, &r, sizeof r) != ssize_t(sizeof r);
    ::close(fd);
    int status = 0;
    waitpid(pid, &status, 0);
    failed |= !WIFEXITED(status) || WEXITSTATUS(status) != 0;
    rate += r.evaluations / std::max(r.seconds, 1e-9);
  }
  std::filesystem::remove_all(dir);
  if (failed) throw Error("bench workers: a worker process failed");
  return rate;
}

}  // namespace

int bench_workers(Args args) {
  SelfplayBenchOptions o;
  o.seconds = 30;
  if (!selfplay_bench_flags(o, kUsage, kAbout, "measuring time per layout, 1..3600 (default 30)").parse(args)) return 0;
  const net::Architecture arch{std::move(net::load_net_config(o.net)).take_or_throw("--net"),
                               std::move(games::spec_for(o.profile)).take_or_throw("--profile")};
  std::printf(
      "self-play, network %s on the CPU (one torch thread per worker thread), %d games in flight per thread, "
      "%d visits, %d s per layout:\n",
      o.net.c_str(), o.games_per_thread, o.visits, o.seconds);
  const double one = run_layout(o, arch, /*processes=*/1, /*threads=*/1);
  std::printf("  1 process,  1 thread:   %8.0f evaluations/s\n", one);
  const double two_processes = run_layout(o, arch, 2, 1);
  std::printf("  2 processes, 1 thread:  %8.0f evaluations/s  (%.2fx)\n", two_processes, two_processes / one);
  const double two_threads = run_layout(o, arch, 1, 2);
  std::printf("  1 process,  2 threads:  %8.0f evaluations/s  (%.2fx)\n", two_threads, two_threads / one);
  std::printf("  2 processes / 2 threads: %.2f\n", two_processes / two_threads);
  return 0;
}

}  // namespace sz::bench
