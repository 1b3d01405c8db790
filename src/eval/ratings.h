#pragma once
// Strength from game results: the Elo difference of a match with its 95% interval, a sequential
// probability ratio test that stops a match once it is decided (as lc0 and fishtest do), and a
// maximum-likelihood Bradley-Terry fit of many players at once, anchored at one player.
// Elo is logistic: expected score = 1 / (1 + 10^(-diff / 400)). A draw counts half a win.
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace sz::eval {

struct MatchScore {
  int wins = 0, draws = 0, losses = 0;
  int games() const { return wins + draws + losses; }
  double score() const { return games() ? (wins + 0.5 * draws) / games() : 0.5; }
};

struct EloEstimate {
  double elo = 0;    // the first player's rating minus the second's
  double lower = 0;  // 95% interval
  double upper = 0;
};

double elo_from_score(double score);  // clamped to +-1000 at scores 0 and 1
double score_from_elo(double elo);

// The Wilson score interval of a proportion: `successes` of `n` trials (a score: wins plus half
// the draws), at `z` standard errors (95% by default). {0, 1} for n = 0.
struct Interval {
  double lower = 0, upper = 1;
};
Interval wilson_interval(double successes, double n, double z = 1.959963984540054);

// Elo difference with a 95% interval from the trinomial variance of the per-game score.
EloEstimate elo_estimate(const MatchScore& m);

// GSPRT of H0: elo = elo0 against H1: elo = elo1 (Elo as above), error rates alpha and beta.
struct Sprt {
  double elo0 = 0, elo1 = 10, alpha = 0.05, beta = 0.05;
  enum class Verdict { Continue, AcceptH0, AcceptH1 };
  // Log-likelihood ratio, normal approximation; with no variance yet (every game the same
  // result) one virtual win and one virtual loss are added.
  double llr(const MatchScore& m) const;
  double lower_bound() const;
  double upper_bound() const;
  Verdict verdict(const MatchScore& m) const;
};

// "ELO0,ELO1[,ALPHA,BETA]" (alpha and beta default to 0.05); the error names the bad field.
Result<Sprt> parse_sprt(std::string_view text);

// One pairing's results: `wins` of player a over b, `draws`, and `losses` (wins of b over a).
struct PairResult {
  int a = 0, b = 0;
  MatchScore score;
};

struct Rating {
  double elo = 0;
  double lower = 0, upper = 0;  // 95% interval, relative to the anchor
};

// Maximum-likelihood Bradley-Terry ratings of `players` players, solved by Newton's method with
// Eigen; the `anchor` player is fixed at 0 Elo. A weak prior (one virtual draw of every player
// against the anchor's rating) keeps ratings finite when a player won or lost every game.
std::vector<Rating> fit_ratings(int players, const std::vector<PairResult>& results, int anchor = 0);

// A linear trend of strength over a run: the same Bradley-Terry likelihood with player i rated
// intercept + slope * x[i] Elo, except the `anchor` (if >= 0), fixed at 0. Without an anchor
// only differences are seen, so the intercept is 0. The slope's 95% interval comes from the
// fit's Fisher information: "the curve rises" when its lower end is above 0.
struct Trend {
  double slope = 0, lower = 0, upper = 0;  // Elo per unit of x
  double intercept = 0;                    // Elo at x = 0 over the anchor
};
Trend fit_trend(const std::vector<double>& x, const std::vector<PairResult>& results, int anchor);

}  // namespace sz::eval
