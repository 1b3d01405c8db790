// The material yardstick: the balance from the mover's view (GameState::material, the game's
// count), men in hand included, and the value it gives the search.
#include "eval/material_evaluator.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>

#include "games/registry.h"

namespace sz::eval {
namespace {

float balance(const char* profile, const char* fen) {
  return games::new_game(profile, fen).take_or_throw(fen)->material();
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

}  // namespace
}  // namespace sz::eval
