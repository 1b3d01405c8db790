#include "search/noise.h"

#include <cassert>
#include <array>
#include <cmath>
#include <numbers>

namespace sz::search {
namespace {

double uniform_open(Rng& rng) { return (double(rng() >> 11) + 0.5) * 0x1.0p-53; }  // in (0, 1)

}  // namespace

double sample_normal(Rng& rng) {  // Box-Muller, one of the pair
  const double u1 = uniform_open(rng), u2 = uniform_open(rng);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

double sample_gamma(Rng& rng, double alpha) {
  assert(alpha > 0);
  if (alpha < 1.0) return sample_gamma(rng, alpha + 1.0) * std::pow(uniform_open(rng), 1.0 / alpha);
  const double d = alpha - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    const double x = sample_normal(rng);
    double v = 1.0 + c * x;
    if (v <= 0) continue;
    v = v * v * v;
    const double u = uniform_open(rng);
    if (u < 1.0 - 0.0331 * x * x * x * x) return d * v;
    if (std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v))) return d * v;
  }
}

void sample_dirichlet(Rng& rng, double alpha, std::span<float> out) {
  if (out.empty()) return;
  double sum = 0;
  for (float& x : out) sum += x = float(sample_gamma(rng, alpha));
  if (!(sum > 0)) {  // every draw underflowed (tiny alpha): the limit puts all mass on one
    for (float& x : out) x = 0;
    out[rng.below(uint32_t(out.size()))] = 1.0f;
    return;
  }
  for (float& x : out) x = float(x / sum);
}

float sample_gumbel(Rng& rng) { return float(-std::log(-std::log(uniform_open(rng)))); }

void add_dirichlet_noise(Rng& rng, float weight, float total_alpha, std::span<Edge> edges) {
  std::array<float, game::kMaxActions> eta;
  assert(edges.size() <= eta.size());
  const std::span<float> noise(eta.data(), edges.size());
  sample_dirichlet(rng, double(total_alpha) / double(edges.size()), noise);
  for (size_t i = 0; i < edges.size(); ++i) edges[i].prior = (1.0f - weight) * edges[i].prior + weight * noise[i];
}

}  // namespace sz::search
