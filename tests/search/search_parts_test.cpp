// The search's parts on their own: random draws, the sequential-halving table, temperatures,
// the tree's compacting copy.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "search/gumbel.h"
#include "search/noise.h"
#include "search/policy_target.h"
#include "search/tree.h"

namespace sz::search {
namespace {

TEST(Noise, DirichletIsADistributionWithTheRightMean) {
  Rng rng(1);
  for (const double alpha : {0.03, 0.3, 1.0, 5.0}) {
    std::vector<float> x(20), mean(20, 0.0f);
    constexpr int kDraws = 4000;
    for (int i = 0; i < kDraws; ++i) {
      sample_dirichlet(rng, alpha, x);
      EXPECT_NEAR(std::accumulate(x.begin(), x.end(), 0.0), 1.0, 1e-5);
      for (size_t j = 0; j < x.size(); ++j) mean[j] += x[j] / kDraws;
    }
    for (float m : mean) EXPECT_NEAR(m, 1.0 / 20, 0.015) << "alpha " << alpha;
  }
}

TEST(Noise, GammaMean) {
  Rng rng(2);
  for (const double alpha : {0.1, 0.5, 2.0, 10.0}) {
    double sum = 0;
    constexpr int kDraws = 20000;
    for (int i = 0; i < kDraws; ++i) sum += sample_gamma(rng, alpha);
    EXPECT_NEAR(sum / kDraws, alpha, 0.05 * alpha + 0.01) << alpha;
  }
}

// The table of mctx's get_sequence_of_considered_visits(4, 16).
TEST(Gumbel, SequentialHalvingTableMatchesMctx) {
  std::vector<uint16_t> table;
  sequential_halving_schedule(4, 16, table);
  EXPECT_EQ(table, (std::vector<uint16_t>{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5}));
  sequential_halving_schedule(16, 4, table);
  EXPECT_EQ(table, (std::vector<uint16_t>{0, 0, 0, 0}));
  sequential_halving_schedule(1, 3, table);
  EXPECT_EQ(table, (std::vector<uint16_t>{0, 1, 2}));
}

TEST(PolicyTarget, TemperatureSchedule) {
  SearchConfig c;
  c.placement_temperature = 1.0f;
  c.play_temperature = 0.8f;
  c.play_temperature_plies = 4;
  c.play_temperature_half_life = 2.0f;
  c.play_temperature_floor = 0.2f;
  EXPECT_FLOAT_EQ(move_temperature(c, game::Phase::Placement, 0), 1.0f);
  EXPECT_FLOAT_EQ(move_temperature(c, game::Phase::Play, 3), 0.8f);
  EXPECT_FLOAT_EQ(move_temperature(c, game::Phase::Play, 4), 0.8f);
  EXPECT_FLOAT_EQ(move_temperature(c, game::Phase::Play, 6), 0.5f);  // one half-life: halfway to the floor
  EXPECT_NEAR(move_temperature(c, game::Phase::Play, 100), 0.2f, 1e-6f);
}

TEST(PolicyTarget, ChooseByTemperature) {
  Rng rng(3);
  const std::vector<float> w = {10, 30, 0, 60};
  EXPECT_EQ(choose_by_temperature(w, 0.0f, rng), 3);
  std::vector<int> counts(4);
  for (int i = 0; i < 20000; ++i) ++counts[size_t(choose_by_temperature(w, 1.0f, rng))];
  EXPECT_EQ(counts[2], 0);
  EXPECT_NEAR(counts[0] / 20000.0, 0.1, 0.01);
  EXPECT_NEAR(counts[3] / 20000.0, 0.6, 0.015);
  std::fill(counts.begin(), counts.end(), 0);
  for (int i = 0; i < 20000; ++i) ++counts[size_t(choose_by_temperature(w, 0.5f, rng))];  // N^2
  EXPECT_NEAR(counts[3] / 20000.0, 3600.0 / (100 + 900 + 3600), 0.015);
}

TEST(Tree, CopySubtreeCompacts) {
  Tree src;
  src.reset(game::Player::Second);
  // root -> (a, b), a -> (c); visits consistent.
  const uint32_t first = src.add_edges(2);
  src.node(0).first_edge = first;
  src.node(0).num_edges = 2;
  src.node(0).status = NodeStatus::Expanded;
  const uint32_t a = src.add_node(game::Player::First), b = src.add_node(game::Player::First);
  src.edge(first).child = a;
  src.edge(first + 1).child = b;
  const uint32_t ae = src.add_edges(3);
  src.node(a).first_edge = ae;
  src.node(a).num_edges = 3;
  src.node(a).status = NodeStatus::Expanded;
  const uint32_t c = src.add_node(game::Player::Second);
  src.edge(ae + 2).child = c;
  src.edge(ae + 2).action = 42;
  src.node(c).visits = 2;
  src.node(a).visits = 3;
  src.node(b).visits = 1;
  src.node(0).visits = 5;
  ASSERT_TRUE(src.is_consistent());
  Tree dst;
  dst.copy_subtree(src, a);
  EXPECT_EQ(dst.node_count(), 2u);
  EXPECT_EQ(dst.edge_count(), 3u);
  EXPECT_EQ(dst.node(0).visits, 3u);
  EXPECT_EQ(dst.edges_of(0)[2].child, 1u);
  EXPECT_EQ(dst.edges_of(0)[2].action, 42);
  EXPECT_EQ(dst.node(1).visits, 2u);
  EXPECT_TRUE(dst.is_consistent());
}

}  // namespace
}  // namespace sz::search
