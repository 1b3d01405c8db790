// What the trainer learns from: deterministic batches, the value target's mix, the uniform
// bootstrap's rows without policy or search value, the Python script that counts real games'
// results by material edge, and a loss that falls on real self-play games.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>

#include "core/split.h"
#include "data/shard_files.h"
#include "data/shard_reader.h"
#include "heuristics/heuristics.h"
#include "models/training.h"
#include "python_helpers.h"
#include "selfplay/selfplay.h"
#include "selfplay/selfplay_fixtures.h"
#include "shell_helpers.h"
#include "test_paths.h"
#include "train/batch.h"
#include "train/trainer.h"
#include "train_fixtures.h"

namespace sz::train {
namespace {

namespace fs = std::filesystem;
using test::games_of;
using test::in_run;
using test::TempDir;
using test::tiny_setup;
using test::write_shards;

TEST(Batches, DependOnlyOnSeedStepAndShards) {
  TempDir a, b;
  write_shards(a.str(), 0, 20, 5);
  write_shards(b.str(), 0, 20, 5);
  ShardCatalog ca(a.str(), data::test::test_spec(), nullptr), cb(b.str(), data::test::test_spec(), nullptr);
  ca.refresh();
  cb.refresh();
  const auto wa = Window::build(ca, 1'000'000, nullptr), wb = Window::build(cb, 1'000'000, nullptr);
  const BatchSpec spec{.seed = 3, .batch_size = 64, .sampling = {}};
  const HostBatch x = make_host_batch(*wa, spec, 7, false), y = make_host_batch(*wb, spec, 7, false);
  const HostBatch z = make_host_batch(*wa, spec, 8, false);
  EXPECT_TRUE(torch::equal(x.planes, y.planes));
  EXPECT_TRUE(torch::equal(x.policy_index, y.policy_index));
  EXPECT_TRUE(torch::equal(x.policy_prob, y.policy_prob));
  EXPECT_TRUE(torch::equal(x.wdl, y.wdl));
  EXPECT_FALSE(torch::equal(x.planes, z.planes));
  // Targets: one-hot WDL rows, a dense policy equal to the sparse entries.
  EXPECT_TRUE(torch::equal(x.wdl.sum(1), torch::ones({64})));
  const auto loss = to_loss_batch(x, torch::kCPU, 2212, true);
  EXPECT_TRUE(torch::allclose(loss.policy.sum(1), x.policy_prob.sum(1)));
  EXPECT_EQ(loss.input.sizes(), (std::vector<int64_t>{64, 44, 8, 8}));
}

// The value target mixes the result and the search's value: w * search + (1 - w) * one-hot.
TEST(Batches, ValueTargetMixesTheResultAndTheSearchValue) {
  TempDir a;
  write_shards(a.str(), 0, 20, 5);
  ShardCatalog catalog(a.str(), data::test::test_spec(), nullptr);
  catalog.refresh();
  const auto window = Window::build(catalog, 1'000'000, nullptr);
  BatchSpec spec{.seed = 3, .batch_size = 64, .sampling = {}};
  const HostBatch result_only = make_host_batch(*window, spec, 7, false);
  spec.value_target_search = 1.0;
  const HostBatch search_only = make_host_batch(*window, spec, 7, false);
  spec.value_target_search = 0.25;
  const HostBatch mixed = make_host_batch(*window, spec, 7, false);
  EXPECT_TRUE(torch::allclose(mixed.wdl, 0.75 * result_only.wdl + 0.25 * search_only.wdl));
  EXPECT_TRUE(torch::allclose(mixed.wdl.sum(1), torch::ones({64})));
  EXPECT_FALSE(torch::equal(search_only.wdl, result_only.wdl));  // the test games' values differ from their results
  // Each row of search_only is its position's recorded search value, or its result where the
  // search had no value (the uniform bootstrap's rows).
  std::vector<int64_t> rows;
  sample_rows(3, 7, 64, window->size(), Sampling{}, rows);
  int without_value = 0;
  for (size_t j = 0; j < rows.size(); ++j) {
    const Window::Row r = window->row(rows[j]);
    const size_t i = size_t(r.index);
    const bool valued = r.columns->has_search_value[i];
    without_value += !valued;
    for (int k = 0; k < 3; ++k) {
      const float result = r.columns->result[i] == 1 - k ? 1.0f : 0.0f;  // win, draw, loss
      EXPECT_FLOAT_EQ(search_only.wdl[int64_t(j)][k].item<float>(),
                      valued ? r.columns->search_wdl[3 * i + size_t(k)] : result);
    }
  }
  EXPECT_GT(without_value, 0);
  EXPECT_LT(without_value, 64);
}

// train.mirror: about half of a batch's rows are mirrored (each plane's ranks reversed bit by
// bit, each action replaced by its twin), the rest as sampled; which ones follows from the seed and
// the step; the targets' values stay.
TEST(Batches, MirrorAboutHalfOfTheRowsChosenByTheSeed) {
  TempDir a;
  write_shards(a.str(), 0, 20, 5);
  ShardCatalog catalog(a.str(), data::test::test_spec(), nullptr);
  catalog.refresh();
  const auto window = Window::build(catalog, 1'000'000, nullptr);
  std::vector<int32_t> twin(2212);
  for (int32_t i = 0; i < 2212; ++i) twin[size_t(i)] = i ^ 1;  // a permutation, its own inverse
  BatchSpec spec{.seed = 3, .batch_size = 256, .sampling = {}};
  const HostBatch plain = make_host_batch(*window, spec, 7, false);
  spec.mirror_actions = twin;
  const HostBatch mirrored = make_host_batch(*window, spec, 7, false), again = make_host_batch(*window, spec, 7, false);
  EXPECT_TRUE(torch::equal(mirrored.planes, again.planes));
  EXPECT_TRUE(torch::equal(mirrored.policy_index, again.policy_index));
  for (const auto& [x, y] : {std::pair{plain.policy_prob, mirrored.policy_prob},
                             {plain.scalars, mirrored.scalars},
                             {plain.wdl, mirrored.wdl},
                             {plain.policy_legal, mirrored.policy_legal}})
    EXPECT_TRUE(torch::equal(x, y));
  HostBatch each = make_host_batch(*window, BatchSpec{.seed = 3, .batch_size = 256, .sampling = {}}, 7, false);
  const uint64_t a1_b2 = 0x201, h1_g2 = 0x4080;  // a1 and b2 mirrored a <-> h
  int flipped = 0;
  for (int64_t j = 0; j < 256; ++j) {
    if (torch::equal(mirrored.planes[j], plain.planes[j]) &&
        torch::equal(mirrored.policy_index[j], plain.policy_index[j]))
      continue;
    ++flipped;
    mirror_row(each, j, twin);
    EXPECT_TRUE(torch::equal(mirrored.planes[j], each.planes[j])) << j;
    EXPECT_TRUE(torch::equal(mirrored.policy_index[j], each.policy_index[j])) << j;
    mirror_row(each, j, twin);  // its own inverse
    EXPECT_TRUE(torch::equal(plain.planes[j], each.planes[j])) << j;
  }
  EXPECT_GT(flipped, 96);
  EXPECT_LT(flipped, 160);
  each.planes[0][0] = int64_t(a1_b2);
  each.policy_index[0][0] = 6;
  mirror_row(each, 0, twin);
  EXPECT_EQ(each.planes[0][0].item<int64_t>(), int64_t(h1_g2));
  EXPECT_EQ(each.policy_index[0][0].item<int64_t>(), 7);
}

// A prior that prefers action ids of a low residue mod 7, a drawn value: its searches' visits
// follow the prior, a learnable target (the uniform evaluator's are none).
class SkewedEvaluator final : public search::Evaluator {
 public:
  void evaluate(std::span<const search::EvalQuery> queries, std::span<search::EvalReply> replies) override {
    for (size_t i = 0; i < queries.size(); ++i) {
      float sum = 0;
      for (size_t a = 0; a < queries[i].actions.size(); ++a) {
        const float rank = float(1 + queries[i].actions[a] % 7);
        sum += replies[i].priors[a] = 1.0f / (rank * rank * rank);
      }
      for (float& p : replies[i].priors) p /= sum;
      replies[i].wdl[0] = replies[i].wdl[2] = 0.2f;
      replies[i].wdl[1] = 0.6f;
    }
  }
};

// Real games from self-play with the uniform evaluator (no targets but the result) or a skewed one.
std::string real_games(const std::string& dir, int games, bool uniform = false) {
  selfplay::SelfplayJob job = selfplay::small_job(dir, games);
  job.config.games_per_thread = 6;
  job.config.seed = 3;
  job.config.games_per_shard = 6;
  job.config.max_plies = 200;
  job.config.shard_prefix = "sp";
  job.make_evaluator = [uniform](int) -> std::unique_ptr<search::Evaluator> {
    if (uniform) return std::make_unique<search::UniformEvaluator>();
    return std::make_unique<SkewedEvaluator>();
  };
  selfplay::run_selfplay(job);
  return dir;
}

// A search that knows nothing (a uniform prior and a constant draw) gives no target: its rows
// carry the result alone and no policy; a search with a prior gives both, its policy naming
// every legal action.
TEST(Batches, TheUniformBootstrapsRowsHaveNeitherPolicyNorSearchValue) {
  TempDir dir;
  real_games(dir.str(), 6, /*uniform=*/true);
  TempDir other;
  real_games(other.str(), 6, /*uniform=*/false);
  for (const auto& [path, uniform] : {std::pair{dir.str(), true}, std::pair{other.str(), false}}) {
    int64_t rows = 0, targets = 0;
    for (const std::string& shard : data::list_shards(path)) {
      const data::PositionColumns p = data::ShardReader::open(shard).read_positions();
      for (int64_t i = 0; i < p.size(); ++i, ++rows) {
        const size_t k = size_t(i);
        EXPECT_EQ(p.has_search_value[k], uniform ? 0 : 1);
        if (uniform) {
          EXPECT_EQ(p.search_wdl[3 * k + 1], 1.0f);  // a draw, unused
        }
        EXPECT_EQ(p.policy_target[k], !uniform && p.full_search[k]);
        if (!p.policy_target[k]) continue;
        ++targets;
        EXPECT_TRUE(p.policy_lists_legal(i)) << i;
      }
    }
    EXPECT_GT(rows, 0);
    if (!uniform) {
      EXPECT_GT(targets, 0);
    }
  }
}

// scripts/material_outcomes.py (docs/BENCHMARKS.md, "Why the value counts no men"): the play
// positions by the mover's material edge and result, for the bootstrap's games and the
// networks'. The script reads the balance off the planes; here each game is replayed through the
// rules and game::Heuristics::material counts it.
TEST(MaterialOutcomes, ThePythonScriptCountsEveryPlayPositionByKindEdgeAndResult) {
  const std::string python = sz::test::find_python();
  if (python.empty()) GTEST_SKIP() << "no python3 with h5py and numpy (tried $SZ_PYTHON, python3, /usr/bin/python3)";
  TempDir dir;
  real_games(dir.str(), 6, /*uniform=*/true);
  selfplay::SelfplayJob job = selfplay::small_job(dir.str(), 6);  // "a network's" games
  job.config.seed = 4;
  job.config.max_plies = 120;
  job.config.shard_prefix = "nw";
  job.model_id = "net";
  selfplay::run_selfplay(job);
  std::map<std::pair<std::string, int>, std::array<int64_t, 3>> expected;  // (kind, edge) -> W, D, L
  for (const auto& entry : fs::directory_iterator(dir.str())) {
    if (entry.path().extension() != ".h5") continue;
    const data::ShardReader shard = data::ShardReader::open(entry.path().string());
    const data::PositionColumns p = shard.read_positions();
    for (const data::GameInfo& g : shard.read_games()) {
      auto state = games::new_game(g.profile, g.start_fen).take_or_throw(g.start_fen);
      const std::string kind = g.model_id.empty() ? "bootstrap" : "networks";
      const auto moves = split_words(g.moves);
      // One position per move, and one more when the game ended by resignation (no move after it).
      ASSERT_TRUE(int64_t(moves.size()) == g.num_positions || int64_t(moves.size()) + 1 == g.num_positions) << g.moves;
      for (int64_t j = 0; j < g.num_positions; ++j) {
        const size_t row = size_t(g.first_position + j);
        if (state->phase() == game::Phase::Play) {
          const float material = heuristics::of_game(state->spec().game)->material(*state);
          const int edge = std::clamp(int(std::nearbyint(material)), -6, 6);  // half to even, as numpy
          ++expected[{kind, edge}][size_t(1 - p.result[row])];
        }
        if (size_t(j) < moves.size())
          state->apply(state->parse_action(moves[size_t(j)]).take_or_throw(std::string(moves[size_t(j)])));
      }
    }
  }
  ASSERT_FALSE(expected.empty());
  const sz::test::CommandRun run =
      sz::test::run_shell(python + " " + sz::test::source_dir() + "/scripts/material_outcomes.py " + dir.str() + " 0");
  ASSERT_EQ(run.status, 0) << run.output;
  size_t rows = 0;
  std::string kind;
  std::istringstream lines(run.output);
  std::string line;
  while (std::getline(lines, line)) {
    if (const size_t colon = line.find(": the mover's edge"); colon != std::string::npos) kind = line.substr(0, colon);
    int edge = 0;
    long long n = 0;
    double w = 0, d = 0, l = 0;
    if (std::sscanf(line.c_str(), " %d positions %lld W %lf D %lf L %lf", &edge, &n, &w, &d, &l) != 5) continue;
    ++rows;
    const std::array<int64_t, 3>& want = expected[{kind, edge}];
    ASSERT_EQ(n, want[0] + want[1] + want[2]) << kind << ": " << line;
    EXPECT_NEAR(w, 100.0 * double(want[0]) / double(n), 0.051) << kind << ": " << line;
    EXPECT_NEAR(l, 100.0 * double(want[2]) / double(n), 0.051) << kind << ": " << line;
  }
  EXPECT_EQ(rows, expected.size()) << run.output;
}

TEST(Trainer, LossFallsOnRealSelfplayGames) {
  TempDir run;
  real_games(games_of(run), 12);
  auto config = tiny_setup();
  config.train.batch_size = 64;
  config.train.optimizer.learning_rate = 0.05;
  config.train.lr_schedule = LrSchedule::Constant;
  config.train.log_every = 10;
  config.train.checkpoint_every = 1000;
  std::vector<StepMetrics> seen;
  TrainerHooks hooks;
  hooks.on_metrics = [&](const StepMetrics& m) { seen.push_back(m); };
  Trainer t(in_run(config, run.str()), hooks);
  EXPECT_EQ(t.train_available(150), 150);
  ASSERT_EQ(seen.size(), 15u);
  const StepMetrics& first = seen.front();
  const StepMetrics& last = seen.back();
  std::printf("loss %.3f -> %.3f (policy %.3f -> %.3f, wdl %.3f -> %.3f, moves-left %.4f -> %.4f)\n", first.loss,
              last.loss, first.policy, last.policy, first.wdl, last.wdl, first.moves_left, last.moves_left);
  EXPECT_LT(last.policy, first.policy - 1.0);
  EXPECT_LT(last.wdl, first.wdl);
  EXPECT_LT(last.loss, first.loss - 1.0);
}

}  // namespace
}  // namespace sz::train
