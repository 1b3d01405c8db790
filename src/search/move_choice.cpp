#include "search/move_choice.h"

#include <algorithm>
#include <cmath>

#include "search/policy_target.h"

namespace sz::search {

namespace {

// Whether root edge i leads to a terminal: a result the rules decided, its value exact.
bool decided(const Tree& tree, std::span<const Edge> edges, size_t i) {
  return edges[i].child != kNoNode && tree.node(edges[i].child).status == NodeStatus::Terminal;
}

// The root edge whose child is the best terminal for the mover (the first on ties), or -1.
int best_decided_edge(const Tree& tree, game::Player mover, const DrawScore& draws) {
  const std::span<const Edge> edges = tree.edges_of(0);
  int best = -1;
  float best_q = -INFINITY;
  for (size_t i = 0; i < edges.size(); ++i) {
    if (!decided(tree, edges, i)) continue;
    const float q = q_for(tree.node(edges[i].child), mover, draws);
    if (q > best_q) best_q = q, best = int(i);
  }
  return best;
}

float child_q(const Tree& tree, int edge, game::Player mover, const DrawScore& draws) {
  const Edge& e = tree.edges_of(0)[size_t(edge)];
  return e.child == kNoNode ? 0.0f : q_for(tree.node(e.child), mover, draws);
}

}  // namespace

int with_proven_win(const Tree& tree, game::Player mover, int chosen, const MoveChoice& choice) {
  if (!choice.play_proven_wins) return chosen;
  const int best = best_decided_edge(tree, mover, choice.draws);
  return best >= 0 && child_q(tree, best, mover, choice.draws) > 0.5f ? best : chosen;
}

int choose_root_edge(const Tree& tree, game::Player mover, std::span<float> weights, const MoveChoice& choice,
                     Rng& rng) {
  const std::span<const Edge> edges = tree.edges_of(0);
  if (std::all_of(weights.begin(), weights.end(), [](float w) { return w <= 0; }))
    for (size_t i = 0; i < edges.size(); ++i) weights[i] = edges[i].prior;  // no visits: the priors
  const int best_decided = best_decided_edge(tree, mover, choice.draws);
  bool undecided = false;
  for (size_t i = 0; i < weights.size(); ++i) undecided |= !decided(tree, edges, i) && weights[i] > 0;
  if (undecided)
    for (size_t i = 0; i < weights.size(); ++i)
      if (decided(tree, edges, i)) weights[i] = 0;
  int chosen = choose_by_temperature(weights, choice.temperature, rng);
  if (best_decided >= 0 &&
      (!undecided || child_q(tree, best_decided, mover, choice.draws) >= child_q(tree, chosen, mover, choice.draws)))
    chosen = best_decided;
  return with_proven_win(tree, mover, chosen, choice);
}

}  // namespace sz::search
