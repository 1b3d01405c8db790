// InferenceService: many threads at once each get their own results, equal to a direct
// NetEvaluator's; requests larger than a batch are split; the cache answers repeats exactly and
// keeps positions with other counters apart.
#include <gtest/gtest.h>

#include <thread>

#include "nn/inference_service.h"
#include "nn/net_evaluator.h"
#include "random_positions.h"

namespace sz::nn {
namespace {

net::Architecture tiny() {
  return {std::move(net::load_net_config("tiny")).take_or_throw(),
          std::move(games::spec_for("sittuyin")).take_or_throw()};
}

nn::InferenceConfig service_config(int max_batch, int cache_entries) {
  nn::InferenceConfig c;
  c.device = "cpu";
  c.max_batch = max_batch;
  c.max_wait_us = 200;
  c.cache_entries = cache_entries;
  return c;
}

void expect_same(const test::EvalBatch& got, const test::EvalBatch& want, size_t offset, float tolerance) {
  for (size_t i = 0; i < got.replies.size(); ++i) {
    const size_t j = offset + i;
    ASSERT_EQ(got.priors[i].size(), want.priors[j].size());
    for (size_t k = 0; k < got.priors[i].size(); ++k) ASSERT_NEAR(got.priors[i][k], want.priors[j][k], tolerance) << j;
    for (int k = 0; k < 3; ++k) ASSERT_NEAR(got.replies[i].wdl[k], want.replies[j].wdl[k], tolerance) << j;
    ASSERT_NEAR(got.replies[i].moves_left, want.replies[j].moves_left, 100 * tolerance) << j;
  }
}

// Each thread evaluates its own positions in chunks of varying size, two submissions in flight
// at a time, and checks them against the direct evaluator's results.
void client(InferenceService& service, const test::RandomPositions& positions, const test::EvalBatch& want,
            uint64_t seed) {
  Rng rng(seed);
  for (size_t first = 0; first < positions.states.size();) {
    const size_t n1 = 1 + rng.below(7), n2 = 1 + rng.below(7);
    test::EvalBatch a(positions, first, n1), b(positions, first + a.queries.size(), n2);
    auto pa = service.submit(a.queries, a.replies);
    auto pb = service.submit(b.queries, b.replies);
    pb.wait();
    pa.wait();
    expect_same(a, want, first, 1e-5f);
    expect_same(b, want, first + a.queries.size(), 1e-5f);
    first += a.queries.size() + b.queries.size();
  }
}

TEST(InferenceService, EachCallerGetsItsOwnResultsUnderLoad) {
  constexpr int kThreads = 8, kPerThread = 60;
  std::vector<test::RandomPositions> positions;
  std::vector<std::unique_ptr<test::EvalBatch>> want;
  NetEvaluator direct(NetRunner::from_architecture(tiny(), /*seed=*/11, service_config(64, 0)));
  for (int t = 0; t < kThreads; ++t) {
    positions.push_back(test::random_positions("sittuyin", kPerThread, 100 + uint64_t(t)));
    want.push_back(std::make_unique<test::EvalBatch>(positions.back()));
    direct.evaluate(want.back()->queries, want.back()->replies);
  }
  InferenceService service(NetRunner::from_architecture(tiny(), 11, service_config(16, 0)), service_config(16, 0));
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] { client(service, positions[size_t(t)], *want[size_t(t)], 7 + uint64_t(t)); });
  for (auto& th : threads) th.join();
  const ServiceStats s = service.stats();
  EXPECT_EQ(s.positions, uint64_t(kThreads * kPerThread));
  EXPECT_GT(s.mean_batch(), 1.0);  // requests of several threads shared forward passes
  std::printf("%llu batches, %.1f positions per batch\n", (unsigned long long)s.batches, s.mean_batch());
}

TEST(InferenceService, SplitsRequestsLargerThanABatch) {
  const auto positions = test::random_positions("sittuyin", 50, 12);
  NetEvaluator direct(NetRunner::from_architecture(tiny(), 13, service_config(64, 0)));
  test::EvalBatch want(positions), got(positions);
  direct.evaluate(want.queries, want.replies);
  InferenceService service(NetRunner::from_architecture(tiny(), 13, service_config(8, 0)), service_config(8, 0));
  service.evaluate(got.queries, got.replies);
  expect_same(got, want, 0, 1e-5f);
  EXPECT_GE(service.stats().batches, 7u);
}

TEST(InferenceService, CacheAnswersRepeatsExactly) {
  const auto positions = test::random_positions("sittuyin", 30, 14);
  InferenceService service(NetRunner::from_architecture(tiny(), 15, service_config(32, 1 << 16)),
                           service_config(32, 1 << 16));
  test::EvalBatch first(positions), again(positions);
  service.evaluate(first.queries, first.replies);
  const uint64_t ran = service.stats().positions;
  service.evaluate(again.queries, again.replies);
  EXPECT_EQ(service.stats().positions, ran);  // nothing new went to the network
  EXPECT_GE(service.stats().cache_hits, 30u);
  expect_same(again, first, 0, 0.0f);
}

TEST(EvalCache, KeysAndActionsKeepEntriesApart) {
  const float counters_a[3] = {0, 0.5f, 0}, counters_b[3] = {0, 0.5f, 0.25f};
  EXPECT_NE(cache_key(42, counters_a), cache_key(42, counters_b));  // same men, other counters
  EXPECT_EQ(cache_key(42, counters_a), cache_key(42, counters_a));
  EvalCache cache(/*entries=*/64, /*shards=*/4);
  const std::vector<game::ActionId> actions = {3, 9, 27}, reordered = {9, 3, 27};
  std::vector<float> priors = {0.2f, 0.3f, 0.5f}, out(3);
  search::EvalReply reply{priors};
  reply.wdl[0] = 0.7f;
  cache.insert(7, actions, reply);
  search::EvalReply got{out};
  EXPECT_TRUE(cache.lookup(7, actions, got));
  EXPECT_EQ(out, priors);
  EXPECT_EQ(got.wdl[0], 0.7f);
  EXPECT_FALSE(cache.lookup(7, reordered, got));
  EXPECT_FALSE(cache.lookup(8, actions, got));
  EvalCache off(0, 4);
  off.insert(7, actions, reply);
  EXPECT_FALSE(off.lookup(7, actions, got));
}

}  // namespace
}  // namespace sz::nn
