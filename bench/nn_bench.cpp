// `sittuyin-zero bench nn`: network forward throughput (positions per second) at batch sizes
// 1..256, measured raw (one NetEvaluator, one thread: encode, forward, softmax) and through the
// InferenceService fed by several client threads (each keeps two requests in flight, so that a
// full batch is always queued), with the ratio service / raw at each batch size. Target: the
// service reaches at least 90% of raw. Both use random weights of the chosen architecture (or a
// checkpoint) and the same pool of positions from random games. Each rate is also given per CPU
// second of the process, which neighbours on a shared machine do not move. Results:
// docs/BENCHMARKS.md.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>
#include <thread>
#include <vector>

#include "bench/benches.h"
#include "bench/position_pool.h"
#include "core/error.h"
#include "core/rng.h"
#include "games/registry.h"
#include "nn/inference_service.h"
#include "nn/net_evaluator.h"

namespace sz::bench {

namespace {

constexpr const char* kAbout =
    R"(Forward throughput of a network, raw (one evaluator) and through the inference service (fed by
client threads), per batch size: positions per second, their ratio service / raw, the service's
mean batch, and positions per CPU second of the process.
)";

struct Options {
  std::string net = "small", checkpoint, profile = "sittuyin";
  nn::InferenceConfig inference;
  int clients = 4, ms = 1500, repeat = 1;
  std::vector<int> batches = {1, 2, 4, 8, 16, 32, 64, 128, 256};
};

cli::Flags options_flags(Options& o) {
  cli::Flags f("sittuyin-zero bench nn [--net NAME|PATH | --checkpoint PATH] [options]", kAbout);
  f.text("--net", "NAME|PATH", o.net,
         "architecture preset (tiny, quick, long, small, medium, large) or YAML file (default small), with random "
         "weights");
  f.text("--checkpoint", "PATH", o.checkpoint, "a checkpoint's network instead");
  f.text("--profile", "NAME", o.profile, "rule profile of the test positions (default sittuyin)");
  f.text("--device", "DEVICE", o.inference.device, "auto | cpu | cuda | cuda:N (default auto: CUDA when available)");
  f.choice("--precision", "P", o.inference.precision, nn::kPrecisionNames,
           "float32 | float16 (CUDA) | bfloat16 | auto (default float32)");
  f.number("--threads", "N", o.inference.threads, 1, 64, "torch intra-op threads, 1..64 (default 1)");
  f.number("--clients", "N", o.clients, 1, 64, "service client threads, 1..64 (default 4)");
  f.numbers("--batches", "LIST", o.batches, 1, 65536, "comma-separated batch sizes (default 1,2,4,8,16,32,64,128,256)");
  f.number("--ms", "N", o.ms, 50, 60000, "measuring time per cell in milliseconds, 50..60000 (default 1500)");
  f.number("--max-wait-us", "N", o.inference.max_wait_us, 0, 1000000,
           "the service's partial-batch deadline (default 1000)");
  f.number("--repeat", "N", o.repeat, 1, 100,
           "alternate raw and service N times per batch size, keep the best (default 1)");
  return f;
}

// The positions every measurement cycles through, with their legal actions.
using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// CPU seconds of the whole process. On a shared machine the wall-clock rate depends on what
// else runs; positions per CPU second tell what the evaluation itself costs.
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

struct Rate {
  double wall = 0;  // positions per second
  double cpu = 0;   // positions per CPU second of the process
};

std::unique_ptr<nn::NetRunner> make_runner(const Options& o, const net::Architecture& arch, int max_batch) {
  nn::InferenceConfig c = o.inference;
  c.max_batch = max_batch;
  if (!o.checkpoint.empty())
    return nn::NetRunner::from_checkpoint(o.checkpoint, games::spec_for(o.profile).take_or_throw("--profile"), c);
  return nn::NetRunner::from_architecture(arch, /*seed=*/1, c);
}

Rate measure_raw(const Options& o, const net::Architecture& arch, const Pool& pool, int b) {
  nn::NetEvaluator eval(make_runner(o, arch, b));
  std::vector<std::unique_ptr<Batch>> batches;
  for (size_t first = 0; first < pool.states.size(); first += size_t(b))
    batches.push_back(std::make_unique<Batch>(pool, first, b));
  for (int warm = 0; warm < 2; ++warm) eval.evaluate(batches[0]->queries, batches[0]->replies);
  const auto start = Clock::now();
  const double cpu_start = cpu_seconds();
  int64_t positions = 0;
  for (size_t k = 0; positions < 3 * b || seconds_since(start) * 1000 < o.ms; ++k) {
    Batch& batch = *batches[k % batches.size()];
    eval.evaluate(batch.queries, batch.replies);
    positions += b;
  }
  return {double(positions) / seconds_since(start), double(positions) / (cpu_seconds() - cpu_start)};
}

// The service's counters just after its next forward pass completes (polled each millisecond:
// the counters move once per batch, so a window must start and end on batch boundaries).
nn::ServiceStats next_batch(const nn::InferenceService& service, Clock::time_point& when, double& cpu) {
  const uint64_t seen = service.stats().batches;
  nn::ServiceStats now;
  while ((now = service.stats()).batches == seen) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  when = Clock::now();
  cpu = cpu_seconds();
  return now;
}

// Clients keep two requests of about b / clients positions each in flight.
Rate measure_service(const Options& o, const net::Architecture& arch, const Pool& pool, int b, double& mean_batch) {
  nn::InferenceConfig c = o.inference;
  c.max_batch = b;
  nn::InferenceService service(make_runner(o, arch, b), c);
  const int request = std::max(1, (b + o.clients - 1) / o.clients);
  std::atomic<bool> stop{false};
  std::vector<std::thread> clients;
  for (int t = 0; t < o.clients; ++t)
    clients.emplace_back([&, t] {
      Batch a(pool, size_t(t) * 997, request), z(pool, size_t(t) * 997 + size_t(request), request);
      auto pa = service.submit(a.queries, a.replies);
      auto pz = service.submit(z.queries, z.replies);
      while (!stop.load(std::memory_order_relaxed)) {
        pa.wait();
        pa = service.submit(a.queries, a.replies);
        pz.wait();
        pz = service.submit(z.queries, z.replies);
      }
    });
  Clock::time_point start, end;
  double cpu_start = 0, cpu_end = 0;
  for (int warm = 0; warm < 2; ++warm) next_batch(service, start, cpu_start);
  const nn::ServiceStats first = next_batch(service, start, cpu_start);
  nn::ServiceStats last = first;
  while (last.batches < first.batches + 3 || std::chrono::duration<double>(end - start).count() * 1000 < o.ms)
    last = next_batch(service, end, cpu_end);
  stop = true;
  for (auto& th : clients) th.join();
  const double positions = double(last.positions - first.positions);
  mean_batch = positions / double(last.batches - first.batches);
  return {positions / std::chrono::duration<double>(end - start).count(), positions / (cpu_end - cpu_start)};
}

net::Architecture architecture(const Options& o) {
  if (!o.checkpoint.empty()) return make_runner(o, {}, 1)->architecture();
  return {std::move(net::load_net_config(o.net)).take_or_throw("--net"),
          std::move(games::spec_for(o.profile)).take_or_throw("--profile")};
}

}  // namespace

int bench_nn(Args args) {
  Options o;
  o.inference.cache_entries = 0;  // measure the network, not the cache
  if (!options_flags(o).parse(args)) return 0;
  const net::Architecture arch = architecture(o);
  const Pool pool = make_pool(o.profile, 2048);
  std::printf("network %s\ndevice %s, %s, %d torch thread(s), %d service clients, %d ms per cell\n\n",
              net::describe(arch).c_str(), nn::resolve_device(o.inference.device).c_str(),
              nn::precision_name(o.inference.precision).data(), o.inference.threads, o.clients, o.ms);
  std::printf("%6s %12s %14s %6s %11s %12s %12s\n", "batch", "raw pos/s", "service pos/s", "ratio", "mean batch",
              "raw pos/cpu-s", "svc pos/cpu-s");
  for (const int b : o.batches) {
    Rate raw, service;
    double mean_batch = 0;
    for (int r = 0; r < o.repeat; ++r) {  // the best of the repeats: drift and neighbours only slow down
      const Rate a = measure_raw(o, arch, pool, b);
      if (a.wall > raw.wall) raw = a;
      double fill = 0;
      const Rate s = measure_service(o, arch, pool, b, fill);
      if (s.wall > service.wall) service = s, mean_batch = fill;
    }
    std::printf("%6d %12.0f %14.0f %6.2f %11.1f %12.0f %12.0f\n", b, raw.wall, service.wall, service.wall / raw.wall,
                mean_batch, raw.cpu, service.cpu);
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace sz::bench
