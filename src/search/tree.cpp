#include "search/tree.h"

#include <algorithm>

namespace sz::search {

Tree::Tree(size_t node_reserve, size_t edge_reserve) {
  nodes_.resize(std::max<size_t>(node_reserve, 1));
  edges_.resize(std::max<size_t>(edge_reserve, game::kMaxActions));
}

void Tree::reset(game::Player view) {
  node_count_ = 0;
  edge_count_ = 0;
  add_node(view);
}

uint32_t Tree::add_node(game::Player view) {
  if (node_count_ == nodes_.size()) nodes_.resize(nodes_.size() * 2);  // rare: arenas keep their size
  Node& n = nodes_[node_count_];
  n = Node{};
  n.view = view;
  return node_count_++;
}

uint32_t Tree::add_edges(int count) {
  assert(count >= 0 && count <= game::kMaxActions);
  const size_t needed = size_t(edge_count_) + size_t(count);
  if (needed > edges_.size()) edges_.resize(std::max(needed, edges_.size() * 2));
  const uint32_t first = edge_count_;
  std::fill_n(edges_.begin() + first, count, Edge{});
  edge_count_ = uint32_t(needed);
  return first;
}

size_t Tree::memory_bytes() const {
  return nodes_.size() * sizeof(Node) + edges_.size() * sizeof(Edge) + origin_.capacity() * sizeof(uint32_t);
}

// Breadth-first: copied nodes double as the queue; origin_ remembers where each came from.
void Tree::copy_subtree(const Tree& src, uint32_t src_root) {
  assert(&src != this);
  if (nodes_.size() < src.node_count_) nodes_.resize(src.nodes_.size());
  if (edges_.size() < src.edge_count_) edges_.resize(src.edges_.size());
  if (origin_.size() < src.node_count_) origin_.resize(src.nodes_.size());
  node_count_ = 1;
  edge_count_ = 0;
  nodes_[0] = src.nodes_[src_root];
  origin_[0] = src_root;
  for (uint32_t i = 0; i < node_count_; ++i) {
    const Node& from = src.nodes_[origin_[i]];
    Node& to = nodes_[i];
    to.first_edge = edge_count_;
    for (uint32_t e = 0; e < from.num_edges; ++e) {
      Edge edge = src.edges_[from.first_edge + e];
      if (edge.child != kNoNode) {
        nodes_[node_count_] = src.nodes_[edge.child];
        origin_[node_count_] = edge.child;
        edge.child = node_count_++;
      }
      edges_[edge_count_++] = edge;
    }
  }
}

bool Tree::is_consistent() const {
  for (uint32_t i = 0; i < node_count_; ++i) {
    const Node& n = nodes_[i];
    if (n.status != NodeStatus::Expanded) {
      if (n.num_edges != 0) return false;
      continue;
    }
    if (size_t(n.first_edge) + n.num_edges > edge_count_) return false;
    uint64_t child_visits = 0;
    for (uint32_t e = n.first_edge; e < n.first_edge + n.num_edges; ++e) {
      if (edges_[e].child == kNoNode) continue;
      if (edges_[e].child >= node_count_ || edges_[e].child <= i) return false;
      child_visits += nodes_[edges_[e].child].visits;
    }
    if (n.visits != child_visits + 1) return false;
  }
  return true;
}

}  // namespace sz::search
