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

// Far ahead, tanh leaves the king hunt almost no value: with two rooks, a knight and a khon
// against a bare king, driving that king from the centre to a corner with the kings close moved
// W - L by about 0.001, so the search drew such endings by the counting rule. The hunt's share
// keeps the order (E40 in docs/BENCHMARKS.md); near equality, where tanh is not saturated, it
// adds little to the hunt inside the material.
TEST(LeafBlend, TheHuntsShareOrdersTheQuietMovesOfALargeLead) {
  const game::Heuristics* h = heuristics::of_game("sittuyin");
  ASSERT_NE(h, nullptr);
  // Black's bare king to move; White: rooks, knight, khon (15.5 pawns ahead).
  const char* centre = "8/8/8/3k4/8/8/2NS4/KRR5[] b - - 0 40";
  const char* corner = "7k/8/5K2/8/8/8/2NS4/1RR5[] b - - 0 40";
  LeafSearchConfig leaf;
  leaf.quiescence = 1;
  leaf.king_hunt = 1;
  const auto value = [&](const char* fen) {
    const std::array<float, 3> wdl = blended(fen, {0.3f, 0.4f, 0.3f}, leaf, h);
    return wdl[0] - wdl[2];  // Black's view: the closer the hunt, the lower
  };
  const float alone = value(centre) - value(corner);
  EXPECT_GT(alone, 0.0f);
  EXPECT_LT(alone, 0.005f) << "tanh's saturation: the hunt inside the material hardly counts";
  leaf.hunt_share = 0.1f;
  const float shared = value(centre) - value(corner);
  EXPECT_GT(shared, 0.05f) << "a tenth of the value for a hunt of 0.72 pawns more";
  EXPECT_LT(shared, 0.1f);

  // The arithmetic: no hunt or no share, the plain value; a share scaled by the saturation.
  EXPECT_FLOAT_EQ(hunted_material_value(5, 0, leaf), material_value(5));
  LeafSearchConfig plain = leaf;
  plain.hunt_share = 0;
  EXPECT_FLOAT_EQ(hunted_material_value(5, 0.5f, plain), material_value(5.5f));
  const float t = material_value(5);
  EXPECT_NEAR(hunted_material_value(5, 0.5f, leaf), (1 - 0.1f * t * t) * material_value(5.5f) + 0.1f * t * t * 0.5f,
              1e-6f);
  EXPECT_NEAR(hunted_material_value(0.5f, 0.3f, leaf) - hunted_material_value(0.5f, 0.3f, plain), 0.0f, 1e-3f)
      << "near equality the squash is not saturated: almost no share";
  // W - L stays a value for every lead and hunt, either side ahead, at the largest share.
  leaf.hunt_share = 0.5f;
  leaf.king_hunt = 10;
  for (float m = -60; m <= 60; m += 0.5f)
    for (const float hunt : {-1.0f, -0.9f, -0.3f, 0.3f, 0.9f, 1.0f}) {
      const float q = hunted_material_value(m, hunt, leaf);
      EXPECT_LE(std::fabs(q), 1.0f) << m << " " << hunt;
    }
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
