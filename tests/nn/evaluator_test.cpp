// NetEvaluator and NetRunner: priors are a softmax over the legal actions only (an illegal
// action gets exactly zero, however large its logit), results do not depend on how the queries
// are batched, checkpoints load with identical outputs, and mismatches are clear errors.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <numeric>

#include "models/checkpoint.h"
#include "models/network.h"
#include "net/net_rows.h"
#include "nn/evaluators.h"
#include "nn/net_evaluator.h"
#include "random_positions.h"

namespace sz::nn {
namespace {

net::Architecture tiny(const std::string& profile = "sittuyin") {
  return {std::move(net::load_net_config("tiny")).take_or_throw(), std::move(games::spec_for(profile)).take_or_throw()};
}

nn::InferenceConfig cpu(int max_batch = 64) {
  nn::InferenceConfig c;
  c.device = "cpu";
  c.max_batch = max_batch;
  return c;
}

std::string temp_path(const std::string& name) {
  return (std::filesystem::path(testing::TempDir()) / (std::to_string(::getpid()) + "-" + name)).string();
}

void expect_same_replies(const test::EvalBatch& a, const test::EvalBatch& b, float tolerance) {
  ASSERT_EQ(a.replies.size(), b.replies.size());
  for (size_t i = 0; i < a.replies.size(); ++i) {
    for (size_t k = 0; k < a.priors[i].size(); ++k) ASSERT_NEAR(a.priors[i][k], b.priors[i][k], tolerance) << i;
    for (int k = 0; k < 3; ++k) ASSERT_NEAR(a.replies[i].wdl[k], b.replies[i].wdl[k], tolerance) << i;
    ASSERT_NEAR(a.replies[i].moves_left, b.replies[i].moves_left, tolerance * 100) << i;
  }
}

TEST(LegalSoftmax, OnlyLegalActionsShareTheMass) {
  std::vector<float> logits(10, 0.0f);
  logits[3] = 1000.0f;  // illegal, and would swamp a softmax over every action
  logits[1] = 2.0f;
  logits[7] = 90.0f;  // large but finite after subtracting the maximum
  const std::vector<game::ActionId> legal = {1, 5, 7};
  std::vector<float> priors(3);
  net::legal_softmax(logits.data(), legal, priors);
  const double z = std::exp(2.0 - 90.0) + std::exp(0.0 - 90.0) + 1.0;
  EXPECT_NEAR(priors[0], std::exp(2.0 - 90.0) / z, 1e-12);
  EXPECT_NEAR(priors[2], 1.0 / z, 1e-6);
  EXPECT_NEAR(std::accumulate(priors.begin(), priors.end(), 0.0), 1.0, 1e-6);
}

TEST(NetEvaluator, RepliesAreDistributions) {
  for (const char* profile : {"sittuyin", "shatranj"}) {
    NetEvaluator eval(NetRunner::from_architecture(tiny(profile), /*seed=*/1, cpu()));
    const auto positions = test::random_positions(profile, 40, 2);
    test::EvalBatch batch(positions);
    eval.evaluate(batch.queries, batch.replies);
    for (size_t i = 0; i < batch.replies.size(); ++i) {
      double sum = 0;
      for (const float p : batch.priors[i]) {
        EXPECT_GT(p, 0.0f);
        sum += p;
      }
      EXPECT_NEAR(sum, 1.0, 1e-5) << profile << " " << i;
      const auto& r = batch.replies[i];
      EXPECT_NEAR(r.wdl[0] + r.wdl[1] + r.wdl[2], 1.0f, 1e-5);
      EXPECT_GT(r.moves_left, 0.0f);  // tiny has a moves-left head
    }
  }
}

TEST(NetEvaluator, IllegalActionsGetZeroPrior) {
  const auto positions = test::random_positions("sittuyin", 1, 3, /*max_plies=*/40);
  const auto& legal = positions.actions[0];
  models::Network net(tiny());
  {
    // Make every illegal action the network's favourite by far.
    torch::NoGradGuard no_grad;
    torch::Tensor bias = net->named_parameters()["policy_fc.bias"];
    bias.fill_(40.0f);
    for (const game::ActionId a : legal) bias[a] = 0.0f;
  }
  auto runner = NetRunner::from_network(net.ptr(), cpu());
  net::encode_row(*positions.states[0], runner->architecture().spec, runner->input_planes(), runner->input_scalars(),
                  0);
  const OutputRows out = runner->run(1);
  // A softmax over every action would leave the legal ones (almost) nothing ...
  double all = 0, legal_mass = 0, top = -INFINITY;
  for (int a = 0; a < runner->architecture().spec.action_space; ++a) top = std::max(top, double(out.row(0)[a]));
  for (int a = 0; a < runner->architecture().spec.action_space; ++a) all += std::exp(out.row(0)[a] - top);
  for (const game::ActionId a : legal) legal_mass += std::exp(out.row(0)[a] - top);
  ASSERT_LT(legal_mass / all, 1e-6);
  // ... the evaluator gives them everything, in proportion to their own logits.
  NetEvaluator eval(std::move(runner));
  test::EvalBatch batch(positions);
  eval.evaluate(batch.queries, batch.replies);
  EXPECT_NEAR(std::accumulate(batch.priors[0].begin(), batch.priors[0].end(), 0.0), 1.0, 1e-5);
  for (size_t i = 0; i < legal.size(); ++i)
    EXPECT_NEAR(batch.priors[0][i], std::exp(out.row(0)[legal[i]] - top) / legal_mass, 1e-5);
}

TEST(NetEvaluator, ResultsDoNotDependOnTheBatchSize) {
  const auto positions = test::random_positions("sittuyin", 23, 4);
  NetEvaluator small(NetRunner::from_architecture(tiny(), 5, cpu(/*max_batch=*/3)));
  NetEvaluator large(NetRunner::from_architecture(tiny(), 5, cpu(/*max_batch=*/64)));
  test::EvalBatch a(positions), b(positions);
  small.evaluate(a.queries, a.replies);
  large.evaluate(b.queries, b.replies);
  expect_same_replies(a, b, 1e-5f);
}

TEST(NetEvaluator, CheckpointGivesIdenticalOutputs) {
  models::Network net(tiny());
  net->eval();
  const std::string path = temp_path("eval.ckpt");
  models::save_checkpoint(path, net, nullptr, "", {});
  const auto positions = test::random_positions("sittuyin", 12, 6);
  NetEvaluator direct(NetRunner::from_network(net.ptr(), cpu()));
  NetEvaluator loaded(NetRunner::from_checkpoint(path, tiny().spec, cpu()));
  test::EvalBatch a(positions), b(positions);
  direct.evaluate(a.queries, a.replies);
  loaded.evaluate(b.queries, b.replies);
  expect_same_replies(a, b, 0.0f);
  std::filesystem::remove(path);
}

TEST(NetRunner, RefusesACheckpointOfAnotherEncoding) {
  net::Architecture old = tiny();
  old.spec.action_space_version += 1;  // as if written by a later build with other action ids
  const std::string path = temp_path("other-actions.ckpt");
  models::save_checkpoint(path, models::Network(old), nullptr, "", {});
  try {
    NetRunner::from_checkpoint(path, tiny().spec, cpu());
    FAIL() << "loaded a checkpoint of another action space";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("action_space_version: checkpoint"), std::string::npos) << e.what();
  }
  std::filesystem::remove(path);
}

// A network reads the encoding of one game: loading it to play another is an error at once.
TEST(NetRunner, RefusesACheckpointOfAnotherGame) {
  const std::string path = temp_path("sittuyin.ckpt");
  models::save_checkpoint(path, models::Network(tiny()), nullptr, "", {});
  const game::GameSpec shatranj = games::spec_for("shatranj").take_or_throw("shatranj");
  try {
    NetRunner::from_checkpoint(path, shatranj, cpu());
    FAIL() << "loaded a Sittuyin checkpoint to play Shatranj";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("game: checkpoint sittuyin, expected shatranj"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(evaluator_factory(path, shatranj, cpu()), Error);  // at once, not in a worker
  std::filesystem::remove(path);
}

TEST(AllFinite, FindsNanAndInfinityAnywhere) {
  std::vector<float> v(1001, 0.5f);
  EXPECT_TRUE(net::all_finite(v.data(), v.size()));
  EXPECT_TRUE(net::all_finite(v.data(), 0));
  for (const float bad : {NAN, INFINITY, -INFINITY}) {
    for (const size_t at : {size_t(0), size_t(517), v.size() - 1}) {
      std::vector<float> w = v;
      w[at] = bad;
      EXPECT_FALSE(net::all_finite(w.data(), w.size())) << bad << " at " << at;
    }
  }
  v[3] = 3.4e38f;  // the largest floats and the subnormals are finite
  v[4] = -1e-44f;
  EXPECT_TRUE(net::all_finite(v.data(), v.size()));
}

// A checkpoint whose weights hold NaN (or whose outputs overflow) is reported with the file's
// name before any search sees its output: such values made every search crash.
TEST(NetRunner, NonFiniteOutputIsAnErrorNamingTheModel) {
  for (const float poison : {NAN, INFINITY}) {
    models::Network net(tiny());
    {
      torch::NoGradGuard no_grad;
      net->named_parameters()["policy_fc.bias"].fill_(poison);
    }
    const std::string path = temp_path("poisoned.ckpt");
    models::save_checkpoint(path, net, nullptr, "", {});
    NetEvaluator eval(NetRunner::from_checkpoint(path, tiny().spec, cpu()));
    const auto positions = test::random_positions("sittuyin", 5, 8);
    test::EvalBatch batch(positions);
    try {
      eval.evaluate(batch.queries, batch.replies);
      FAIL() << "a network with " << poison << " in its weights was used";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(path + ": the network's output holds NaN or infinity"), std::string::npos)
          << e.what();
    }
    std::filesystem::remove(path);
  }
  auto fresh = NetRunner::from_architecture(tiny(), /*seed=*/3, cpu());
  const auto positions = test::random_positions("sittuyin", 1, 9);
  net::encode_row(*positions.states[0], fresh->architecture().spec, fresh->input_planes(), fresh->input_scalars(), 0);
  EXPECT_NO_THROW(fresh->run(1));
  EXPECT_EQ(fresh->source(), "a fresh network (seed 3)");
}

TEST(NetEvaluator, RefusesAPositionOfAnotherGame) {
  NetEvaluator eval(NetRunner::from_architecture(tiny("sittuyin"), 1, cpu()));
  const auto positions = test::random_positions("shatranj", 1, 7);
  test::EvalBatch batch(positions);
  EXPECT_THROW(eval.evaluate(batch.queries, batch.replies), Error);
}

TEST(NetRunner, Devices) {
  EXPECT_EQ(resolve_device("cpu"), "cpu");
  EXPECT_EQ(resolve_device("auto"), cuda_available() ? "cuda:0" : "cpu");
  EXPECT_THROW(resolve_device("gpu"), Error);
  EXPECT_THROW(resolve_device("cuda:x"), Error);
  EXPECT_THROW(resolve_device("cuda:"), Error);
  if (!cuda_available()) {
    EXPECT_THROW(resolve_device("cuda:0"), Error);
  }
  nn::InferenceConfig half = cpu();
  half.precision = nn::Precision::Float16;
  EXPECT_THROW(NetRunner::from_architecture(tiny(), 1, half), Error);  // float16 is for CUDA
}

TEST(NetRunner, BFloat16OnTheCpuStaysClose) {
  const auto positions = test::random_positions("sittuyin", 16, 8);
  nn::InferenceConfig bf16 = cpu();
  bf16.precision = nn::Precision::BFloat16;
  NetEvaluator exact(NetRunner::from_architecture(tiny(), 9, cpu()));
  NetEvaluator rough(NetRunner::from_architecture(tiny(), 9, bf16));
  test::EvalBatch a(positions), b(positions);
  exact.evaluate(a.queries, a.replies);
  rough.evaluate(b.queries, b.replies);
  expect_same_replies(a, b, 0.05f);
}

}  // namespace
}  // namespace sz::nn
