#pragma once
// PUCT selection (Silver et al. 2018, AlphaZero; lc0 for the first-play urgency):
//   score(c) = Q(c) + c(N) * P(c) * sqrt(max(1, sum_b N(b))) / (1 + N(c)),
//   c(N) = cpuct_init + log((1 + N + cpuct_base) / cpuct_base), N = the parent's visits,
// Q(c) = W - L from the mover's view. An unvisited child takes Q = Q(parent) - fpu_reduction *
// sqrt(sum of the visited children's priors). With forced playouts (KataGo, Wu 2019) a root
// child with fewer than n_forced(c) = sqrt(k * P(c) * sum_b N(b)) visits is chosen first.
#include <cmath>
#include <cstdint>

#include "search/search_config.h"
#include "search/tree.h"

namespace sz::search {

inline float cpuct(const SearchConfig& config, uint32_t parent_visits) {
  return config.cpuct_init + std::log((1.0f + float(parent_visits) + config.cpuct_base) / config.cpuct_base);
}

inline float forced_playouts(float k, float prior, uint32_t children_visits) {
  return std::sqrt(k * prior * float(children_visits));
}

struct PuctInputs {
  DrawScore draw_score;     // how the children's decided draws count
  float parent_q = 0;       // W - L of the parent from the mover's view, with draw_score
  float fpu_reduction = 0;  // config.fpu_reduction, or fpu_reduction_root at the root
  float forced_k = 0;       // > 0: forced playouts with this k (root of a full search only)
  // Root: a child whose result the rules decided (a terminal) other than a win gets its one
  // visit and no more, as its value is exact; the visits go to the undecided children (while
  // there are any). A win keeps its visits, so the root's value shows it.
  bool settle_decided = false;
};

// The index (within the node's edges) of the child to visit next. `node` is expanded. Reads
// only; ties go to the earlier edge (GameSearch shuffles the edges when it expands a node, so
// that ties are broken at random, from its seed).
int select_puct(const Tree& tree, uint32_t node, const SearchConfig& config, const PuctInputs& in);

}  // namespace sz::search
