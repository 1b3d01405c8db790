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

#include "bench/position_pool.h"
#include "bundle/export_bundle.h"
#include "cli/command.h"
#include "client/eigen_evaluator.h"
#include "core/error.h"
#include "core/split.h"
#include "models/network.h"
#include "nn/net_evaluator.h"
#include "nn/net_runner.h"

namespace sz::cli {

namespace {

constexpr const char* kHelp = R"(usage: sittuyin-zero bench client [options]

Positions per second of the client runtime's Eigen forward pass and of LibTorch's on the CPU, one
thread each, through the search's Evaluator (encode, forward, softmax), same weights, same
positions of random games, side by side per network and batch size, with the ratio Eigen / LibTorch.
  --nets LIST      comma-separated presets or YAML files (default tiny,small)
  --batches LIST   comma-separated batch sizes (default 1,16)
  --profile NAME   rule profile of the positions (default sittuyin)
  --ms N           measuring time per cell and side in milliseconds, 50..60000 (default 1000)
  --repeat N       alternate the two N times per cell, keep each one's best (default 3)
)";

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

std::vector<int> int_list(const std::string& flag, const std::string& text) {
  std::vector<int> out;
  for (const std::string_view word : split(text, ',')) out.push_back(parse_int_flag(flag, std::string(word), 1, 4096));
  return out;
}

}  // namespace

int bench_client(Args args) {
  if (wants_help(args)) {
    std::fputs(kHelp, stdout);
    return 0;
  }
  std::vector<std::string> nets = {"tiny", "small"};
  std::vector<int> batches = {1, 16};
  std::string profile = "sittuyin";
  int ms = 1000, repeat = 3;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--nets") {
      nets.clear();
      for (const std::string_view word : split(flag_value(args, i), ',')) nets.emplace_back(word);
    } else if (a == "--batches") {
      batches = int_list(a, flag_value(args, i));
    } else if (a == "--profile") {
      profile = flag_value(args, i);
    } else if (a == "--ms") {
      ms = parse_int_flag(a, flag_value(args, i), 50, 60000);
    } else if (a == "--repeat") {
      repeat = parse_int_flag(a, flag_value(args, i), 1, 100);
    } else {
      throw Error("unknown option '" + a + "' (see --help)");
    }
  }
  nn::set_torch_threads(1);
  const game::GameSpec spec = games::spec_for(profile).take_or_throw("--profile");
  const Pool pool = make_pool(profile, 512);
  std::printf("%-8s %6s %14s %14s %8s\n", "net", "batch", "libtorch pos/s", "eigen pos/s", "ratio");
  for (const std::string& name : nets) {
    const net::Architecture arch{net::load_net_config(name).take_or_throw("--nets"), spec};
    torch::manual_seed(1);
    models::Network net(arch);
    net->eval();
    const std::vector<client::Tensor> tensors = bundle::network_tensors(*net);
    const client::EigenNet eigen_net(arch, tensors, name);
    for (const int b : batches) {
      nn::InferenceConfig config;
      config.device = "cpu";
      config.threads = 1;
      config.max_batch = b;
      config.cache_entries = 0;
      nn::NetEvaluator torch_eval(nn::NetRunner::from_network(net.ptr(), config));
      client::EigenEvaluator eigen_eval(eigen_net, b);
      double best_torch = 0, best_eigen = 0;
      for (int r = 0; r < repeat; ++r) {
        best_torch = std::max(best_torch, rate(torch_eval, pool, b, ms));
        best_eigen = std::max(best_eigen, rate(eigen_eval, pool, b, ms));
      }
      std::printf("%-8s %6d %14.0f %14.0f %8.2f\n", name.c_str(), b, best_torch, best_eigen, best_eigen / best_torch);
      std::fflush(stdout);
    }
  }
  return 0;
}

}  // namespace sz::cli
