#include "search/tree_report.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "search/policy_target.h"

namespace sz::search {

TreeDepth tree_depth(const Tree& tree) {
  std::vector<std::pair<uint32_t, int>> stack = {{0, 0}};  // node, depth
  double sum = 0;
  int64_t count = 0;
  TreeDepth depth;
  while (!stack.empty()) {
    const auto [node, node_depth] = stack.back();
    stack.pop_back();
    if (node_depth > 0) sum += node_depth, ++count;
    depth.max = std::max(depth.max, node_depth);
    for (const Edge& e : tree.edges_of(node))
      if (e.child != kNoNode) stack.push_back({e.child, node_depth + 1});
  }
  depth.mean = count ? std::max(1, int(std::lround(sum / double(count)))) : 0;
  return depth;
}

size_t tree_bytes(const Tree& tree) {
  return size_t(tree.node_count()) * sizeof(Node) + size_t(tree.edge_count()) * sizeof(Edge);
}

namespace {

// The edge of `node` whose child has the most visits (the first on ties); null when none is visited.
const Edge* most_visited_edge(const Tree& tree, uint32_t node) {
  const Edge* best = nullptr;
  for (const Edge& e : tree.edges_of(node)) {
    if (e.child == kNoNode || tree.node(e.child).visits == 0) continue;
    if (!best || tree.node(e.child).visits > tree.node(best->child).visits) best = &e;
  }
  return best;
}

// Follows the most visited line from the root for at most `max_plies`, calling on_edge(edge) at
// each step; returns the plies walked. principal_variation collects the actions, root_spread
// (once per self-play move) only counts them.
template <typename OnEdge>
int walk_principal_variation(const Tree& tree, int max_plies, OnEdge&& on_edge) {
  int plies = 0;
  for (uint32_t node = 0; plies < max_plies && tree.node(node).status == NodeStatus::Expanded; ++plies) {
    const Edge* best = most_visited_edge(tree, node);
    if (!best) break;
    on_edge(*best);
    node = best->child;
  }
  return plies;
}

}  // namespace

RootSpread root_spread(const Tree& tree, std::span<const float> target) {
  RootSpread s;
  const std::span<const Edge> edges = tree.edges_of(0);
  s.moves = int(edges.size());
  for (size_t i = 0; i < edges.size(); ++i) {
    const uint32_t visits = edges[i].child == kNoNode ? 0 : tree.node(edges[i].child).visits;
    s.visits += visits;
    s.best = std::max(s.best, visits);
    if (visits > 0) ++s.visited;
    if (i < target.size() && target[i] > 0) {
      ++s.targeted;
      s.kept += std::min(target[i], float(visits));  // a no-visit fallback on the priors keeps none
    }
  }
  s.line = walk_principal_variation(tree, 64, [](const Edge&) {});
  return s;
}

std::vector<game::ActionId> principal_variation(const Tree& tree, int max_plies) {
  std::vector<game::ActionId> line;
  walk_principal_variation(tree, max_plies, [&](const Edge& e) { line.push_back(e.action); });
  return line;
}

}  // namespace sz::search
