// `sittuyin-zero bench client`: the game clients' Eigen forward pass (client/eigen_evaluator.h)
// against LibTorch's (nn::NetEvaluator) on the CPU, side by side in one run: positions per second
// through the search's Evaluator interface (encode, forward, softmax over the legal actions), one
// thread each, the same weights and positions, alternating within each cell and keeping the best
// of --repeat. Target: Eigen at least LibTorch's speed at batch 1 for tiny and small. Results:
// docs/BENCHMARKS.md.
#include <torch/torch.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/benches.h"
#include "bench/position_pool.h"
#include "bundle/export_bundle.h"
#include "client/eigen_evaluator.h"
#include "core/error.h"
#include "core/split.h"
#include "models/network.h"
#include "nn/net_evaluator.h"
#include "nn/net_runner.h"

namespace sz::bench {

namespace {

constexpr const char* kAbout =
    R"(Positions per second of the client runtime's Eigen forward pass and of LibTorch's on the CPU, one
thread each, through the search's Evaluator (encode, forward, softmax), same weights, same
positions of random games, side by side per network and batch size, with the ratio Eigen / LibTorch.
)";

struct Options {
  std::vector<std::string> nets = {"tiny", "small"};
  std::vector<int> batches = {1, 16};
  std::string profile = "sittuyin";
  int ms = 1000, repeat = 3;
};

cli::Flags options_flags(Options& o) {
  cli::Flags f("sittuyin-zero bench client [options]", kAbout);
  f.custom(
      "--nets", "LIST",
      [&o](std::string_view, const std::string& value) {
        o.nets.clear();
        for (const std::string_view word : split(value, ',')) o.nets.emplace_back(word);
      },
      "comma-separated presets or YAML files (default tiny,small)");
  f.numbers("--batches", "LIST", o.batches, 1, 4096, "comma-separated batch sizes (default 1,16)");
  f.text("--profile", "NAME", o.profile, "rule profile of the positions (default sittuyin)");
  f.number("--ms", "N", o.ms, 50, 60000, "measuring time per cell and side in milliseconds, 50..60000 (default 1000)");
  f.number("--repeat", "N", o.repeat, 1, 100, "alternate the two N times per cell, keep each one's best (default 3)");
  return f;
}

using Clock = std::chrono::steady_clock;

double rate(search::Evaluator& eval, const Pool& pool, int b, int ms) {
  std::vector<std::unique_ptr<Batch>> batches;
  for (size_t first = 0; first < pool.states.size(); first += size_t(b))
    batches.push_back(std::make_unique<Batch>(pool, first, b));
  for (int warm = 0; warm < 3; ++warm) eval.evaluate(batches[0]->queries, batches[0]->replies);
  const auto start = Clock::now();
  int64_t positions = 0;
  double elapsed = 0;
  for (size_t k = 0; positions < 3 * b || elapsed * 1000 < ms; ++k) {
    Batch& batch = *batches[k % batches.size()];
    eval.evaluate(batch.queries, batch.replies);
    positions += b;
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  }
  return double(positions) / elapsed;
}

}  // namespace

int bench_client(Args args) {
  Options o;
  if (!options_flags(o).parse(args)) return 0;
  nn::set_torch_threads(1);
  const game::GameSpec spec = games::spec_for(o.profile).take_or_throw("--profile");
  const Pool pool = make_pool(o.profile, 512);
  std::printf("%-8s %6s %14s %14s %8s\n", "net", "batch", "libtorch pos/s", "eigen pos/s", "ratio");
  for (const std::string& name : o.nets) {
    const net::Architecture arch{net::load_net_config(name).take_or_throw("--nets"), spec};
    torch::manual_seed(1);
    models::Network net(arch);
    net->eval();
    const std::vector<client::Tensor> tensors = bundle::network_tensors(*net);
    const client::EigenNet eigen_net(arch, tensors, name);
    for (const int b : o.batches) {
      nn::InferenceConfig config;
      config.device = "cpu";
      config.threads = 1;
      config.max_batch = b;
      config.cache_entries = 0;
      nn::NetEvaluator torch_eval(nn::NetRunner::from_network(net.ptr(), config));
      client::EigenEvaluator eigen_eval(eigen_net, b);
      double best_torch = 0, best_eigen = 0;
      for (int r = 0; r < o.repeat; ++r) {
        best_torch = std::max(best_torch, rate(torch_eval, pool, b, o.ms));
        best_eigen = std::max(best_eigen, rate(eigen_eval, pool, b, o.ms));
      }
      std::printf("%-8s %6d %14.0f %14.0f %8.2f\n", name.c_str(), b, best_torch, best_eigen, best_eigen / best_torch);
      std::fflush(stdout);
    }
  }
  return 0;
}

}  // namespace sz::bench
