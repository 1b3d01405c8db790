// On a CUDA device (label gpu; skipped without one): the network gives the CPU's results in
// float32, close ones in float16, and the inference service works there under concurrent load.
#include <gtest/gtest.h>

#include <thread>

#include "nn/inference_service.h"
#include "nn/net_evaluator.h"
#include "random_positions.h"

namespace sz::nn {
namespace {

net::Architecture arch(const char* preset) {
  return {std::move(net::load_net_config(preset)).take_or_throw(),
          std::move(games::spec_for("sittuyin")).take_or_throw()};
}

nn::InferenceConfig on(const char* device, nn::Precision precision = nn::Precision::Float32) {
  nn::InferenceConfig c;
  c.device = device;
  c.precision = precision;
  c.cache_entries = 0;
  return c;
}

double max_difference(const test::EvalBatch& a, const test::EvalBatch& b) {
  double worst = 0;
  for (size_t i = 0; i < a.replies.size(); ++i) {
    for (size_t k = 0; k < a.priors[i].size(); ++k)
      worst = std::max(worst, double(std::abs(a.priors[i][k] - b.priors[i][k])));
    for (int k = 0; k < 3; ++k) worst = std::max(worst, double(std::abs(a.replies[i].wdl[k] - b.replies[i].wdl[k])));
  }
  return worst;
}

class Gpu : public testing::Test {
 protected:
  void SetUp() override {
    if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  }
};

TEST_F(Gpu, MatchesTheCpu) {
  const auto positions = test::random_positions("sittuyin", 100, 1);
  for (const char* preset : {"tiny", "medium"}) {
    NetEvaluator cpu(NetRunner::from_architecture(arch(preset), 2, on("cpu")));
    NetEvaluator gpu(NetRunner::from_architecture(arch(preset), 2, on("cuda")));
    NetEvaluator half(NetRunner::from_architecture(arch(preset), 2, on("cuda", nn::Precision::Float16)));
    EXPECT_EQ(gpu.runner().device(), "cuda:0");
    test::EvalBatch a(positions), b(positions), c(positions);
    cpu.evaluate(a.queries, a.replies);
    gpu.evaluate(b.queries, b.replies);
    half.evaluate(c.queries, c.replies);
    EXPECT_LT(max_difference(a, b), 1e-3) << preset;
    EXPECT_LT(max_difference(a, c), 3e-2) << preset;
    std::printf("%s: max |cpu - cuda| %.2g (float32), %.2g (float16)\n", preset, max_difference(a, b),
                max_difference(a, c));
  }
}

TEST_F(Gpu, ServiceUnderConcurrentLoad) {
  constexpr int kThreads = 8;
  std::vector<test::RandomPositions> positions;
  std::vector<std::unique_ptr<test::EvalBatch>> want;
  NetEvaluator direct(NetRunner::from_architecture(arch("small"), 3, on("cuda")));
  for (int t = 0; t < kThreads; ++t) {
    positions.push_back(test::random_positions("sittuyin", 64, 10 + uint64_t(t)));
    want.push_back(std::make_unique<test::EvalBatch>(positions.back()));
    direct.evaluate(want.back()->queries, want.back()->replies);
  }
  InferenceService service(NetRunner::from_architecture(arch("small"), 3, on("cuda")), on("cuda"));
  std::vector<std::thread> threads;
  std::vector<double> worst(kThreads, 0);
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      test::EvalBatch got(positions[size_t(t)]);
      service.evaluate(got.queries, got.replies);
      worst[size_t(t)] = max_difference(got, *want[size_t(t)]);
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_LT(worst[size_t(t)], 1e-3) << t;
}

}  // namespace
}  // namespace sz::nn
