#pragma once
// A logistic regression of a result in [0, 1] (a game's score: 1, 0.5, 0) on features, fitted by
// Newton's method (iteratively reweighted least squares) with Eigen. A score of one half is the
// fractional outcome of the quasi-likelihood fit: its standard errors are the binomial model's,
// from the inverse Fisher information at the optimum.
#include <string>
#include <vector>

namespace sz::placement {

struct LogisticFit {
  std::vector<double> coefficient;  // [0]: the intercept, then one per feature column
  std::vector<double> std_error;
  int iterations = 0;
  bool converged = false;
  double log_likelihood = 0;
};

// `x`: one row of features per observation (all rows the same length; no intercept column, the
// fit adds it); `y`: the results, in [0, 1]. Throws sz::Error on mismatched sizes, on fewer
// observations than coefficients, or when the features are collinear (the information matrix is
// singular): drop a constant or duplicated column first.
LogisticFit fit_logistic(const std::vector<std::vector<double>>& x, const std::vector<double>& y,
                         int max_iterations = 50);

// The two-sided p-value of a z statistic under the normal distribution.
double two_sided_p(double z);

}  // namespace sz::placement
