#include "search/puct.h"

#include <algorithm>

namespace sz::search {
namespace {

// Added to the score of a child owed forced playouts: it outranks every unforced child.
constexpr float kForcedBonus = 1e4f;

}  // namespace

// One pass: visited children are scored as they come; the unvisited ones share one Q (the
// FPU), so only the one with the largest prior (the first, on ties) can win among them.
int select_puct(const Tree& tree, uint32_t node, const SearchConfig& config, const PuctInputs& in) {
  const Node& parent = tree.node(node);
  assert(parent.status == NodeStatus::Expanded && parent.num_edges > 0);
  const uint32_t children_visits = parent.visits - 1;
  const float u_scale = cpuct(config, parent.visits) * std::sqrt(float(std::max<uint32_t>(children_visits, 1)));
  const std::span<const Edge> edges = tree.edges_of(node);
  int best = -1, best_unvisited = -1;
  float best_score = -INFINITY, best_unvisited_prior = -1.0f, visited_mass = 0.0f;
  int best_decided = -1;
  float best_decided_score = -INFINITY;
  for (int i = 0; i < int(edges.size()); ++i) {
    const Edge& e = edges[size_t(i)];
    const uint32_t n = e.child == kNoNode ? 0 : tree.node(e.child).visits;
    if (n == 0) {
      if (e.prior > best_unvisited_prior) best_unvisited_prior = e.prior, best_unvisited = i;
      continue;
    }
    visited_mass += e.prior;
    const Node& child = tree.node(e.child);
    // Children's stats are from the view of the player choosing at this node.
    float score = q_for(child, child.view, in.draw_score) + u_scale * e.prior / (1.0f + float(n));
    if (in.settle_decided && child.status == NodeStatus::Terminal && child.q < 0.5f) {
      if (score > best_decided_score) best_decided_score = score, best_decided = i;  // used only if all are decided
      continue;
    }
    if (in.forced_k > 0 && float(n) < forced_playouts(in.forced_k, e.prior, children_visits)) score += kForcedBonus;
    if (score > best_score) best_score = score, best = i;
  }
  if (best_unvisited >= 0) {
    const float fpu_q = in.parent_q - in.fpu_reduction * std::sqrt(visited_mass);
    float score = fpu_q + u_scale * best_unvisited_prior;
    if (in.forced_k > 0 && 0.0f < forced_playouts(in.forced_k, best_unvisited_prior, children_visits))
      score += kForcedBonus;
    // The earlier edge wins a tie, as in the visited loop.
    if (score > best_score || (score == best_score && best_unvisited < best)) best = best_unvisited;
  }
  if (best < 0) best = best_decided;
  assert(best >= 0);
  return best;
}

}  // namespace sz::search
