// The search's parts on their own: random draws, the sequential-halving table, temperatures,
// the tree's compacting copy, the moves-left utility in PUCT's choice.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "search/gumbel.h"
#include "search/noise.h"
#include "search/policy_target.h"
#include "search/puct.h"
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

// lc0's shape: nothing for a level child, the full effect for a decided one, against the side
// that is ahead, and at most the effect however far the lengths lie apart.
TEST(MovesLeft, UtilityFavoursTheShorterWinAndTheLongerLoss) {
  constexpr float kEffect = 0.0345f;
  EXPECT_NEAR(moves_left_utility(kEffect, 50, 10, 1.0f), kEffect, 1e-6);   // 40 plies shorter, won
  EXPECT_NEAR(moves_left_utility(kEffect, 50, 90, 1.0f), -kEffect, 1e-6);  // 40 plies longer, won
  EXPECT_NEAR(moves_left_utility(kEffect, 50, 90, -1.0f), kEffect, 1e-6);  // longer, lost
  EXPECT_NEAR(moves_left_utility(kEffect, 50, 40, 1.0f), 0.027f, 1e-6);    // 10 plies: 0.0027 a ply
  EXPECT_EQ(moves_left_utility(kEffect, 50, 10, 0.0f), 0.0f);              // level: no preference
  EXPECT_NEAR(moves_left_utility(kEffect, 50, 10, 0.5f), kEffect * (1.6521f * 0.5f - 0.6521f * 0.25f), 1e-6);
  EXPECT_EQ(moves_left_utility(0.0f, 50, 10, 1.0f), 0.0f);  // off
}

// A root (First to move) with two children alike but for their expected lengths, `first_m`
// listed first: PUCT gives a tie to the first edge.
Tree two_children(float q, float first_m, float second_m) {
  Tree t;
  t.reset(game::Player::Second);
  const uint32_t first = t.add_edges(2);
  Node& root = t.node(0);
  root.first_edge = first;
  root.num_edges = 2;
  root.status = NodeStatus::Expanded;
  root.visits = 21;
  root.m = (first_m + second_m) / 2 + 1;
  for (uint32_t i = 0; i < 2; ++i) {
    const uint32_t c = t.add_node(game::Player::First);
    t.edge(first + i) = Edge{game::ActionId(i), 0.5f, c};
    Node& child = t.node(c);
    child.visits = 10;
    child.q = q;  // from First's view, the player choosing at the root
    child.m = i == 0 ? first_m : second_m;
  }
  return t;
}

TEST(MovesLeft, PuctTakesTheShorterWinAndTheLongerLoss) {
  const SearchConfig config;
  PuctInputs off, on;
  on.moves_left_effect = 0.0345f;
  const Tree winning = two_children(0.9f, /*first_m=*/40, /*second_m=*/10);
  on.parent_m = winning.node(0).m;
  EXPECT_EQ(select_puct(winning, 0, config, off), 0);  // the tie
  EXPECT_EQ(select_puct(winning, 0, config, on), 1);   // the win 30 plies sooner
  const Tree losing = two_children(-0.9f, /*first_m=*/10, /*second_m=*/40);
  on.parent_m = losing.node(0).m;
  EXPECT_EQ(select_puct(losing, 0, config, off), 0);
  EXPECT_EQ(select_puct(losing, 0, config, on), 1);  // the loss 30 plies later
  const Tree level = two_children(0.0f, 40, 10);
  on.parent_m = level.node(0).m;
  EXPECT_EQ(select_puct(level, 0, config, on), 0);  // a level child has no shorter way
}

}  // namespace
}  // namespace sz::search
