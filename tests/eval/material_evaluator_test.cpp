// The material yardstick: the balance from the mover's view (Heuristics::material, the game's
// count), men in hand included, the value it gives the search, and that value with the captures
// resolved (search.leaf_quiescence), and with the king hunt (search.leaf_king_hunt).
#include "eval/material_evaluator.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <span>

#include "games/registry.h"
#include "heuristics/heuristics.h"
#include "search/game_search.h"
#include "search/leaf_blend.h"

namespace sz::eval {
namespace {

float balance(const char* profile, const char* fen) {
  const auto state = games::new_game(profile, fen).take_or_throw(fen);
  return heuristics::of_game(state->spec().game)->material(*state);
}

TEST(MaterialEvaluator, CountsMenOnTheBoardAndInHandFromTheMoversView) {
  // White is a rook up; the mover's view flips the sign.
  EXPECT_FLOAT_EQ(balance("sittuyin", "1nsk1snr/4f3/4pppp/pppp4/4PPPP/PPPP4/4F3/RNSK1SNR[] w - - 0 10"), 5.0f);
  EXPECT_FLOAT_EQ(balance("sittuyin", "1nsk1snr/4f3/4pppp/pppp4/4PPPP/PPPP4/4F3/RNSK1SNR[] b - - 0 10"), -5.0f);
  EXPECT_FLOAT_EQ(balance("sittuyin", "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFSSNNRRkfssnnrr] w - - 0 1"), 0.0f);
  // A man placed from the hand counts the same; one still to be placed counts too.
  EXPECT_FLOAT_EQ(balance("sittuyin", "1n6/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFSSNNRRkfssnrr] w - - 0 1"), 0.0f);
  EXPECT_FLOAT_EQ(balance("sittuyin", "1n6/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFSSNNRkfssnrr] w - - 0 1"), -5.0f);
  EXPECT_FLOAT_EQ(balance("shatranj", "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBKQBNR w - - 0 1"), -5.0f);
}

TEST(MaterialEvaluator, ValueFollowsTheBalanceAndPriorsAreUniform) {
  auto up = games::new_game("sittuyin", "1nsk1snr/4f3/4pppp/pppp4/4PPPP/PPPP4/4F3/RNSK1SNR[] w - - 0 10")
                .take_or_throw("fen");
  std::array<game::ActionId, game::kMaxActions> actions{};
  const int n = up->legal_actions(actions);
  std::array<float, game::kMaxActions> priors{};
  search::EvalQuery query{up.get(), std::span<const game::ActionId>(actions.data(), size_t(n))};
  search::EvalReply reply;
  reply.priors = std::span<float>(priors.data(), size_t(n));
  MaterialEvaluator evaluator;
  evaluator.evaluate(std::span(&query, 1), std::span(&reply, 1));
  EXPECT_NEAR(reply.wdl[0] - reply.wdl[2], std::tanh(1.0f), 1e-6);
  EXPECT_NEAR(reply.wdl[0] + reply.wdl[1] + reply.wdl[2], 1.0f, 1e-6);
  for (int i = 0; i < n; ++i) EXPECT_FLOAT_EQ(priors[size_t(i)], 1.0f / float(n));
}

// search.leaf_quiescence: the a7 pawn is defended by the rook behind it. Counted at the leaf,
// Rxa7 wins a pawn; with the captures resolved it loses the rook, and the search never plays it.
TEST(MaterialEvaluator, WithLeafQuiescenceSeesTheRecapture) {
  const auto start = games::new_game("sittuyin", "r3k3/p7/8/8/8/8/8/R3K3[] w - - 0 20").take_or_throw("fen");
  const auto bad_capture = game::ActionId(start->parse_action("a1a7").take_or_throw("a1a7"));
  MaterialEvaluator material;
  for (uint64_t seed = 0; seed < 3; ++seed) {
    float capture_q[2] = {};
    for (const int resolve : {0, 1}) {
      search::SearchConfig config;
      config.full_visits = config.cheap_visits = 48;
      config.placement_temperature = config.play_temperature = config.play_temperature_floor = 0.0f;
      config.leaf.quiescence = float(resolve);
      search::GameSearch tree_search(config, *start, seed);
      search::LeafBlend blended(material, config.leaf, heuristics::of_game("sittuyin"));
      const search::SearchResult& r = tree_search.run(blended, search::SearchKind::Cheap);
      for (int i = 0; i < tree_search.root_child_count(); ++i) {
        const search::ChildStats c = tree_search.root_child(i);
        if (c.action != bad_capture) continue;
        ASSERT_GT(c.visits, 0) << "seed " << seed;
        capture_q[resolve] = c.q;
      }
      if (resolve) {
        EXPECT_NE(r.action, bad_capture) << "seed " << seed;
        EXPECT_NEAR(r.wdl[0] + r.wdl[1] + r.wdl[2], 1.0f, 1e-5f);
        for (const float p : r.wdl) EXPECT_TRUE(p >= 0.0f && p <= 1.0f);
      }
    }
    EXPECT_GT(capture_q[0], -0.2f) << "seed " << seed << ": counted, the capture looks even or better";
    EXPECT_LT(capture_q[1], -0.5f) << "seed " << seed << ": resolved, it loses the rook";
  }
}

// The root's own evaluation, W - L for its mover, under `config`: one leaf, the root, delivered.
float root_value(const search::SearchConfig& config, const game::GameState& start) {
  MaterialEvaluator material;
  search::LeafBlend blended(material, config.leaf, heuristics::of_game("sittuyin"));
  search::GameSearch tree_search(config, start, 1);
  tree_search.start_search(search::SearchKind::Cheap);
  search::EvalQuery query{};
  search::EvalReply reply{};
  EXPECT_TRUE(tree_search.select_leaf(query, reply));
  blended.evaluate(std::span<const search::EvalQuery>(&query, 1), std::span<search::EvalReply>(&reply, 1));
  tree_search.deliver(reply);
  const std::array<float, 3> wdl = tree_search.root_wdl();
  return wdl[0] - wdl[2];
}

// search.leaf_king_hunt: the mop-up bonus (Heuristics::king_hunt) joins the resolved material
// before the value is taken; white a rook up, kings four apart, the lone king in the centre.
TEST(MaterialEvaluator, WithKingHuntTheLeafValueCountsTheHunt) {
  const auto start = games::new_game("sittuyin", "8/8/8/3k4/8/8/8/R3K3[] w - - 0 40").take_or_throw("fen");
  ASSERT_FLOAT_EQ(heuristics::of_game("sittuyin")->king_hunt(*start), 0.06f * 3);
  for (const float hunt : {0.0f, 1.0f, 2.0f}) {
    search::SearchConfig config;
    config.leaf.quiescence = 1;
    config.leaf.king_hunt = hunt;
    EXPECT_NEAR(root_value(config, *start), std::tanh((5.0f + hunt * 0.18f) / 5.0f), 1e-5f) << "hunt " << hunt;
  }
}

// GameState::draw_rule_progress (which draw adjudication reads): how far the n-move clock (50 of
// 100 plies run) or the counting ply (16 of 32) has run.
TEST(MaterialEvaluator, TheDrawRulesProgressWithTheClockAndTheCount) {
  const auto fresh = games::new_game("sittuyin", "8/8/8/3k3p/8/8/8/R3K3[] w - - 0 40").take_or_throw("fen");
  const auto stale = games::new_game("sittuyin", "8/8/8/3k3p/8/8/8/R3K3[] w - - 50 40").take_or_throw("fen");
  const auto counted = games::new_game("sittuyin", "8/8/8/3k4/8/8/8/R3K3[] w - 32 16 40").take_or_throw("fen");
  EXPECT_FLOAT_EQ(fresh->draw_rule_progress(), 0.0f);
  EXPECT_FLOAT_EQ(stale->draw_rule_progress(), 0.5f);
  EXPECT_FLOAT_EQ(counted->draw_rule_progress(), 0.5f);
}

}  // namespace
}  // namespace sz::eval
