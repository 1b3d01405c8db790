#pragma once
// Random draws for root exploration, all from an explicit sz::Rng (deterministic given its seed).
// Gamma: Marsaglia and Tsang (2000), "A simple method for generating gamma variables", with
// Gamma(a) = Gamma(a + 1) * U^(1/a) for a < 1. Dirichlet(alpha): independent Gamma(alpha) draws,
// normalised. Gumbel(0, 1): -log(-log U). Root noise (AlphaZero; KataGo's alpha scaling):
// P'(a) = (1 - w) P(a) + w eta(a), eta ~ Dir(total_alpha / number of legal moves).
#include <span>

#include "core/rng.h"
#include "search/tree.h"

namespace sz::search {

double sample_normal(Rng& rng);
double sample_gamma(Rng& rng, double alpha);  // alpha > 0
// Fills `out` with one Dirichlet(alpha, ..., alpha) draw (sums to 1).
void sample_dirichlet(Rng& rng, double alpha, std::span<float> out);
float sample_gumbel(Rng& rng);

// Mixes Dirichlet noise into the priors of `edges` (a root's), as above.
void add_dirichlet_noise(Rng& rng, float weight, float total_alpha, std::span<Edge> edges);

}  // namespace sz::search
