// Ratings: the Elo arithmetic, the SPRT's decisions, and the Bradley-Terry fit reproducing known
// ratings from a synthetic result table.
#include <gtest/gtest.h>

#include <cmath>

#include "eval/ratings.h"

namespace sz::eval {
namespace {

TEST(Elo, ScoreAndEloAreInverse) {
  EXPECT_NEAR(elo_from_score(0.5), 0.0, 1e-9);
  EXPECT_NEAR(elo_from_score(0.75), 190.85, 0.01);  // 400 log10(3)
  EXPECT_NEAR(score_from_elo(elo_from_score(0.3)), 0.3, 1e-12);
  EXPECT_EQ(elo_from_score(1.0), 1000.0);
}

TEST(Elo, EstimateHasAnIntervalAroundIt) {
  const EloEstimate e = elo_estimate({/*wins=*/60, /*draws=*/0, /*losses=*/40});
  EXPECT_NEAR(e.elo, 70.44, 0.01);
  // se of the score = sqrt(0.24 / 100) = 0.049; 0.6 -+ 1.96 se = [0.504, 0.696]
  EXPECT_NEAR(e.lower, elo_from_score(0.6 - 1.959964 * std::sqrt(0.0024)), 0.01);
  EXPECT_NEAR(e.upper, elo_from_score(0.6 + 1.959964 * std::sqrt(0.0024)), 0.01);
  EXPECT_LT(e.lower, e.elo);
  EXPECT_GT(e.upper, e.elo);
}

TEST(Sprt, DecidesClearCasesAndWaitsOnUnclearOnes) {
  const Sprt sprt{/*elo0=*/0, /*elo1=*/50, /*alpha=*/0.05, /*beta=*/0.05};
  EXPECT_NEAR(sprt.upper_bound(), std::log(19.0), 1e-12);
  EXPECT_EQ(sprt.verdict({70, 20, 10}), Sprt::Verdict::AcceptH1);   // about +240 Elo
  EXPECT_EQ(sprt.verdict({300, 400, 300}), Sprt::Verdict::AcceptH0);  // even, 1000 games
  EXPECT_EQ(sprt.verdict({6, 2, 4}), Sprt::Verdict::Continue);
  // No variance yet: still decided, but not after one game.
  EXPECT_EQ(sprt.verdict({1, 0, 0}), Sprt::Verdict::Continue);
  EXPECT_EQ(sprt.verdict({30, 0, 0}), Sprt::Verdict::AcceptH1);
  EXPECT_EQ(sprt.verdict({0, 0, 30}), Sprt::Verdict::AcceptH0);
  EXPECT_EQ(sprt.verdict({0, 1, 0}), Sprt::Verdict::Continue);
  EXPECT_EQ(sprt.verdict({0, 2000, 0}), Sprt::Verdict::AcceptH0);
}

TEST(BradleyTerry, ReproducesKnownRatings) {
  const double truth[] = {0, 200, 400, -100};  // player 0 is the anchor
  std::vector<PairResult> table;
  for (int a = 0; a < 4; ++a)
    for (int b = a + 1; b < 4; ++b) {
      const int games = 20000;
      const double s = score_from_elo(truth[a] - truth[b]), draw = 0.2 * std::min(s, 1 - s);
      const int draws = int(std::lround(games * draw));
      const int wins = int(std::lround(games * s - draws / 2.0));
      table.push_back({a, b, {wins, draws, games - wins - draws}});
    }
  const auto ratings = fit_ratings(4, table, /*anchor=*/0);
  ASSERT_EQ(ratings.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(ratings[i].elo, truth[i], 1.0) << "player " << i;
    if (i) {
      EXPECT_LT(ratings[i].upper - ratings[i].lower, 15.0) << "player " << i;
    }
  }
  EXPECT_EQ(ratings[0].elo, 0.0);
}

TEST(BradleyTerry, PerfectScoresStayFinite) {
  const auto ratings = fit_ratings(2, {{1, 0, {10, 0, 0}}}, /*anchor=*/0);
  EXPECT_GT(ratings[1].elo, 200.0);
  EXPECT_LT(ratings[1].elo, 1000.0);
}

// Networks of generations 1..5 rated -300 + 50 g Elo against an anchor at 0, each playing the
// anchor and its predecessor: the trend fit finds the slope and intercept, and a flat run has a
// slope whose interval covers 0.
TEST(Trend, RecoversALinearRiseAndSeesAFlatOne) {
  for (const double slope : {50.0, 0.0}) {
    std::vector<double> x = {0};  // player 0: the anchor
    std::vector<PairResult> table;
    auto play = [&](int a, int b, double elo_a, double elo_b, int games) {
      const double s = score_from_elo(elo_a - elo_b);
      const int wins = int(std::lround(games * s * 0.8)), draws = int(std::lround(games * s * 0.4));
      table.push_back({a, b, {wins, draws, games - wins - draws}});
    };
    auto truth = [&](int g) { return -300 + slope * g; };
    for (int g = 1; g <= 5; ++g) {
      x.push_back(g);
      play(g, 0, truth(g), 0, 4000);
      if (g > 1) play(g, g - 1, truth(g), truth(g - 1), 4000);
    }
    const Trend t = fit_trend(x, table, /*anchor=*/0);
    EXPECT_NEAR(t.slope, slope, 3.0);
    EXPECT_NEAR(t.intercept, -300, 8.0);
    EXPECT_LT(t.lower, t.slope);
    EXPECT_GT(t.upper, t.slope);
    if (slope == 0) {
      EXPECT_LT(t.lower, 0.0);
      EXPECT_GT(t.upper, 0.0);
    } else {
      EXPECT_GT(t.lower, 0.0);
    }
    // Without the anchor the slope is still seen through the networks' own games.
    std::vector<PairResult> own;
    for (const PairResult& p : table)
      if (p.b != 0) own.push_back(p);
    EXPECT_NEAR(fit_trend(x, own, /*anchor=*/-1).slope, slope, 5.0);
  }
}

}  // namespace
}  // namespace sz::eval
