// The leaf search's value blend as an evaluator around another (search/leaf_blend.h): off, it
// passes the inner evaluator's replies through; on, it blends them with the capture-resolved
// material of the game's heuristics, the king hunt included; a broken value counts as a draw.
#include "search/leaf_blend.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>

#include "games/registry.h"
#include "heuristics/heuristics.h"

namespace sz::search {
namespace {

// Replies with a fixed W/D/L and uniform priors.
class FixedEvaluator final : public Evaluator {
 public:
  explicit FixedEvaluator(std::array<float, 3> wdl) : wdl_(wdl) {}
  void evaluate(std::span<const EvalQuery> queries, std::span<EvalReply> replies) override {
    for (size_t i = 0; i < queries.size(); ++i) {
      for (float& p : replies[i].priors) p = 1.0f / float(replies[i].priors.size());
      for (int k = 0; k < 3; ++k) replies[i].wdl[k] = wdl_[size_t(k)];
    }
  }
  Knowledge knowledge() const override { return {.prior = true, .value = true}; }

 private:
  std::array<float, 3> wdl_;
};

std::array<float, 3> blended(const char* fen, std::array<float, 3> inner_wdl, const LeafSearchConfig& leaf,
                             const game::Heuristics* heuristics) {
  const auto state = games::new_game("sittuyin", fen).take_or_throw(fen);
  std::array<game::ActionId, game::kMaxActions> actions{};
  const int n = state->legal_actions(actions);
  std::array<float, game::kMaxActions> priors{};
  EvalQuery query{state.get(), std::span<const game::ActionId>(actions.data(), size_t(n))};
  EvalReply reply;
  reply.priors = std::span<float>(priors.data(), size_t(n));
  FixedEvaluator inner(inner_wdl);
  LeafBlend blend(inner, leaf, heuristics);
  blend.evaluate(std::span(&query, 1), std::span(&reply, 1));
  EXPECT_FLOAT_EQ(priors[0], 1.0f / float(n));  // the priors are the inner evaluator's
  return {reply.wdl[0], reply.wdl[1], reply.wdl[2]};
}

// White to move, a rook up, its rook hanging to nothing: resolved material +5 pawns.
constexpr const char* kRookUp = "4k3/8/8/8/8/8/8/R3K3[] w - - 0 40";

TEST(LeafBlend, OffItPassesTheInnerRepliesThrough) {
  const game::Heuristics* h = heuristics::of_game("sittuyin");
  const std::array<float, 3> wdl{0.2f, 0.5f, 0.3f};
  LeafSearchConfig off;  // quiescence 0
  EXPECT_EQ(blended(kRookUp, wdl, off, h), wdl);
  LeafSearchConfig on;
  on.quiescence = 1;
  EXPECT_EQ(blended(kRookUp, wdl, on, nullptr), wdl) << "a game without heuristics: no blend";
}

TEST(LeafBlend, OnItBlendsTheResolvedMaterialIntoTheValue) {
  const game::Heuristics* h = heuristics::of_game("sittuyin");
  ASSERT_NE(h, nullptr);
  const float r = material_value(5.0f);
  LeafSearchConfig leaf;
  leaf.quiescence = 1;  // the material alone: exactly its value
  const std::array<float, 3> all = blended(kRookUp, {0.1f, 0.2f, 0.7f}, leaf, h);
  EXPECT_FLOAT_EQ(all[0] - all[2], r);
  EXPECT_FLOAT_EQ(all[1], 1 - r);
  EXPECT_FLOAT_EQ(all[2], 0.0f);
  leaf.quiescence = 0.25f;  // a quarter of it: W - L and D blend linearly, W + D + L stays 1
  const std::array<float, 3> part = blended(kRookUp, {0.1f, 0.2f, 0.7f}, leaf, h);
  EXPECT_NEAR(part[0] - part[2], 0.75f * (0.1f - 0.7f) + 0.25f * r, 1e-6f);
  EXPECT_NEAR(part[1], 0.75f * 0.2f + 0.25f * (1 - r), 1e-6f);
  EXPECT_NEAR(part[0] + part[1] + part[2], 1.0f, 1e-6f);
  leaf.quiescence = 1;  // the king hunt joins the material before its value is taken
  leaf.king_hunt = 2;
  const auto state = games::new_game("sittuyin", kRookUp).take_or_throw(kRookUp);
  const float hunt = h->king_hunt(*state);
  ASSERT_GT(hunt, 0.0f);
  const std::array<float, 3> hunted = blended(kRookUp, {0.1f, 0.2f, 0.7f}, leaf, h);
  EXPECT_FLOAT_EQ(hunted[0] - hunted[2], material_value(5.0f + 2 * hunt));
}

TEST(LeafBlend, ABrokenInnerValueCountsAsADrawBeforeTheBlend) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  LeafSearchConfig leaf;
  leaf.quiescence = 0.5f;
  const std::array<float, 3> wdl = blended(kRookUp, {nan, 0.5f, 0.5f}, leaf, heuristics::of_game("sittuyin"));
  for (const float p : wdl) EXPECT_TRUE(std::isfinite(p));
  EXPECT_NEAR(wdl[0] - wdl[2], 0.5f * material_value(5.0f), 1e-6f);
}

}  // namespace
}  // namespace sz::search
