#include "placement/logistic.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "core/error.h"

namespace sz::placement {

LogisticFit fit_logistic(const std::vector<std::vector<double>>& x, const std::vector<double>& y, int max_iterations) {
  if (x.size() != y.size())
    throw Error("logistic fit: " + std::to_string(x.size()) + " rows but " + std::to_string(y.size()) + " results");
  const Eigen::Index n = Eigen::Index(x.size()), k = x.empty() ? 1 : Eigen::Index(x[0].size()) + 1;
  if (n < k)
    throw Error("logistic fit: " + std::to_string(n) + " observations for " + std::to_string(k) + " coefficients");
  Eigen::MatrixXd design(n, k);
  Eigen::VectorXd result(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    if (Eigen::Index(x[size_t(i)].size()) != k - 1) throw Error("logistic fit: rows of different lengths");
    design(i, 0) = 1;
    for (Eigen::Index j = 1; j < k; ++j) design(i, j) = x[size_t(i)][size_t(j - 1)];
    result(i) = y[size_t(i)];
  }
  LogisticFit fit;
  Eigen::VectorXd beta = Eigen::VectorXd::Zero(k);
  Eigen::MatrixXd info(k, k);
  for (fit.iterations = 1; fit.iterations <= max_iterations; ++fit.iterations) {
    const Eigen::VectorXd prob = (1.0 / (1.0 + (-(design * beta).array()).exp())).matrix();
    const Eigen::VectorXd w = (prob.array() * (1 - prob.array())).matrix();
    info = design.transpose() * w.asDiagonal() * design;
    const Eigen::LDLT<Eigen::MatrixXd> solver(info);
    if (solver.info() != Eigen::Success || solver.rcond() < 1e-12) {
      throw Error("logistic fit: the features are collinear (a constant or duplicated column)");
    }
    const Eigen::VectorXd step = solver.solve(design.transpose() * (result - prob));
    beta += step;
    if (step.lpNorm<Eigen::Infinity>() < 1e-10) {
      fit.converged = true;
      break;
    }
  }
  fit.iterations = std::min(fit.iterations, max_iterations);
  const Eigen::VectorXd prob = (1.0 / (1.0 + (-(design * beta).array()).exp())).matrix();
  info = design.transpose() * (prob.array() * (1 - prob.array())).matrix().asDiagonal() * design;
  const Eigen::MatrixXd covariance = info.ldlt().solve(Eigen::MatrixXd::Identity(k, k));
  for (Eigen::Index j = 0; j < k; ++j) {
    fit.coefficient.push_back(beta(j));
    fit.std_error.push_back(std::sqrt(std::max(0.0, covariance(j, j))));
  }
  for (Eigen::Index i = 0; i < n; ++i) {
    const double q = std::clamp(prob(i), 1e-300, 1 - 1e-16);
    fit.log_likelihood += result(i) * std::log(q) + (1 - result(i)) * std::log1p(-q);
  }
  return fit;
}

double two_sided_p(double z) { return std::erfc(std::abs(z) / std::sqrt(2.0)); }

}  // namespace sz::placement
