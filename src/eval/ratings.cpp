#include "eval/ratings.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <optional>

#include "core/parse_number.h"
#include "core/split.h"

namespace sz::eval {

namespace {
constexpr double kZ95 = 1.959963984540054;
constexpr double kEloScale = 400.0 / 2.302585092994046;  // 400 / ln(10): Elo per logit
}  // namespace

double score_from_elo(double elo) { return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0)); }

double elo_from_score(double score) {
  if (score <= 0.0) return -1000.0;
  if (score >= 1.0) return 1000.0;
  return std::clamp(-400.0 * std::log10(1.0 / score - 1.0), -1000.0, 1000.0);
}

namespace {
// Variance of one game's score (1, 0.5 or 0) around the observed mean.
double score_variance(const MatchScore& m) {
  const double n = m.games(), s = m.score();
  if (n == 0) return 0;
  return (m.wins * (1 - s) * (1 - s) + m.draws * (0.5 - s) * (0.5 - s) + m.losses * s * s) / n;
}
}  // namespace

Interval wilson_interval(double successes, double n, double z) {
  if (n <= 0) return {};
  const double p = successes / n, z2 = z * z;
  const double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const double half = z * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n);
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

EloEstimate elo_estimate(const MatchScore& m) {
  const double s = m.score();
  const double se = m.games() ? std::sqrt(score_variance(m) / m.games()) : 0.5;
  return {elo_from_score(s), elo_from_score(s - kZ95 * se), elo_from_score(s + kZ95 * se)};
}

double Sprt::llr(const MatchScore& observed) const {
  if (observed.games() == 0) return 0;
  // Every game with the same result (all wins, all draws) leaves no variance to divide by: count
  // one virtual win and one virtual loss then, so that a one-sided or all-drawn match is still
  // decided (all wins for elo0=0, elo1=100: after about 8 games; all draws for 0/10: about 120).
  MatchScore m = observed;
  if (score_variance(m) <= 0) ++m.wins, ++m.losses;
  const double var = score_variance(m);
  const double s0 = score_from_elo(elo0), s1 = score_from_elo(elo1), s = m.score();
  return m.games() * (s1 - s0) * (2 * s - s0 - s1) / (2 * var);
}

double Sprt::lower_bound() const { return std::log(beta / (1 - alpha)); }
double Sprt::upper_bound() const { return std::log((1 - beta) / alpha); }

Sprt::Verdict Sprt::verdict(const MatchScore& m) const {
  const double l = llr(m);
  if (l >= upper_bound()) return Verdict::AcceptH1;
  if (l <= lower_bound()) return Verdict::AcceptH0;
  return Verdict::Continue;
}

Result<Sprt> parse_sprt(std::string_view text) {
  std::vector<double> v;
  for (const std::string_view field : split(text, ',')) {
    const std::optional<double> number = parse_number<double>(field);
    if (!number) return fail("'" + std::string(field) + "' is not a number (want ELO0,ELO1[,ALPHA,BETA])");
    v.push_back(*number);
  }
  if (v.size() != 2 && v.size() != 4)
    return fail("want ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA, not '" + std::string(text) + "'");
  const Sprt s{v[0], v[1], v.size() == 4 ? v[2] : 0.05, v.size() == 4 ? v[3] : 0.05};
  if (!(s.elo1 > s.elo0)) return fail("ELO1 must exceed ELO0");
  if (!(s.alpha > 0 && s.alpha < 0.5 && s.beta > 0 && s.beta < 0.5)) return fail("ALPHA and BETA must lie in (0, 0.5)");
  return s;
}

std::vector<Rating> fit_ratings(int players, const std::vector<PairResult>& results, int anchor) {
  // Work in natural logits r (Elo = r * kEloScale). Games are (a, b, points of a, count).
  struct Games {
    int a, b;
    double points, count;
  };
  std::vector<Games> games;
  for (const PairResult& p : results)
    if (p.score.games()) games.push_back({p.a, p.b, p.score.wins + 0.5 * p.score.draws, double(p.score.games())});
  for (int i = 0; i < players; ++i)
    if (i != anchor) games.push_back({i, anchor, 0.5, 1.0});  // the weak prior

  auto index = [&](int player) { return player < anchor ? player : player - 1; };  // anchor removed
  const int n = players - 1;
  Eigen::VectorXd r = Eigen::VectorXd::Zero(players);
  Eigen::MatrixXd info = Eigen::MatrixXd::Identity(std::max(n, 1), std::max(n, 1));
  for (int iter = 0; iter < 100 && n > 0; ++iter) {
    Eigen::VectorXd grad = Eigen::VectorXd::Zero(n);
    info.setZero();
    for (const Games& g : games) {
      const double p = 1.0 / (1.0 + std::exp(r[g.b] - r[g.a]));
      const double d = g.points - g.count * p, w = g.count * p * (1 - p);
      const int ia = g.a == anchor ? -1 : index(g.a), ib = g.b == anchor ? -1 : index(g.b);
      if (ia >= 0) grad[ia] += d, info(ia, ia) += w;
      if (ib >= 0) grad[ib] -= d, info(ib, ib) += w;
      if (ia >= 0 && ib >= 0) info(ia, ib) -= w, info(ib, ia) -= w;
    }
    const Eigen::VectorXd step = info.ldlt().solve(grad);
    for (int i = 0; i < players; ++i)
      if (i != anchor) r[i] += step[index(i)];
    if (step.lpNorm<Eigen::Infinity>() < 1e-10) break;
  }
  const Eigen::MatrixXd covariance = n > 0 ? Eigen::MatrixXd(info.inverse()) : Eigen::MatrixXd();
  std::vector<Rating> out(size_t(players), Rating{});
  for (int i = 0; i < players; ++i) {
    if (i == anchor) continue;
    const double elo = r[i] * kEloScale, half = kZ95 * std::sqrt(covariance(index(i), index(i))) * kEloScale;
    out[size_t(i)] = {elo, elo - half, elo + half};
  }
  return out;
}

Trend fit_trend(const std::vector<double>& x, const std::vector<PairResult>& results, int anchor) {
  const int players = int(x.size());
  // A player's rating in natural logits is theta . f(i): f = (1, x) for the networks, 0 for the
  // anchor; without an anchor the intercept drops out, f = (x).
  const int k = anchor >= 0 ? 2 : 1;
  auto features = [&](int i) {
    Eigen::VectorXd f = Eigen::VectorXd::Zero(k);
    if (i == anchor) return f;
    if (k == 2) f[0] = 1.0;
    f[k - 1] = x[size_t(i)];
    return f;
  };
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(k);
  Eigen::MatrixXd info = Eigen::MatrixXd::Identity(k, k);
  for (int iter = 0; iter < 100; ++iter) {
    Eigen::VectorXd grad = Eigen::VectorXd::Zero(k);
    info = Eigen::MatrixXd::Identity(k, k) * 1e-6;  // keeps a run without games solvable
    for (const PairResult& p : results) {
      if (!p.score.games() || p.a < 0 || p.b < 0 || p.a >= players || p.b >= players) continue;
      const Eigen::VectorXd df = features(p.a) - features(p.b);
      const double diff = theta.dot(df), prob = 1.0 / (1.0 + std::exp(-diff));
      const double n = p.score.games(), points = p.score.wins + 0.5 * p.score.draws;
      grad += (points - n * prob) * df;
      info += n * prob * (1 - prob) * df * df.transpose();
    }
    const Eigen::VectorXd step = info.ldlt().solve(grad);
    theta += step;
    if (step.lpNorm<Eigen::Infinity>() < 1e-10) break;
  }
  const Eigen::MatrixXd covariance = info.inverse();
  Trend t;
  t.slope = theta[k - 1] * kEloScale;
  const double half = kZ95 * std::sqrt(covariance(k - 1, k - 1)) * kEloScale;
  t.lower = t.slope - half;
  t.upper = t.slope + half;
  t.intercept = k == 2 ? theta[0] * kEloScale : 0.0;
  return t;
}

}  // namespace sz::eval
