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

std::vector<game::ActionId> principal_variation(const Tree& tree, int max_plies) {
  std::vector<game::ActionId> line;
  uint32_t node = 0;
  for (int ply = 0; ply < max_plies && tree.node(node).status == NodeStatus::Expanded; ++ply) {
    const Edge* best = nullptr;
    for (const Edge& e : tree.edges_of(node)) {
      if (e.child == kNoNode || tree.node(e.child).visits == 0) continue;
      if (!best || tree.node(e.child).visits > tree.node(best->child).visits) best = &e;
    }
    if (!best) break;
    line.push_back(best->action);
    node = best->child;
  }
  return line;
}

}  // namespace sz::search
