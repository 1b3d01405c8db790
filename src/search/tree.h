#pragma once
// The search tree: nodes and edges in two flat arenas addressed by 32-bit index. A node's edges
// (one per legal action: the action, its prior and the child node, if visited) lie contiguous;
// child nodes are created on their first visit only, so a search of V visits makes at most V
// nodes. The arenas grow on demand and keep their memory, so a tree reused game after game
// allocates nothing in steady state. Tree reuse copies the kept subtree, compacted, into a
// second tree (copy_subtree) and swaps the two: no per-node allocation either.
#include <cassert>
#include <cstdint>
#include <span>
#include <vector>

#include "game/game_state.h"

namespace sz::search {

inline constexpr uint32_t kNoNode = ~uint32_t{0};

enum class NodeStatus : uint8_t { Unexpanded, Expanded, Terminal };

// Statistics are means over the node's visits, from the view of the player `view`: the player
// who chose the edge into this node (for a fresh root: the opponent of its side to move).
// Players need not alternate (a placement may have one side drop several men in a row).
// A draw the rules decide in the tree adds 0 to q and 1 to `decided_draws`; contempt is applied
// when the tree is read (DrawScore), never stored, so a subtree kept for the next move, whose
// root has the other side to move, is read with the right sign.
struct Node {
  float q = 0;              // mean W - L, in [-1, 1], decided draws counted as 0
  float d = 0;              // mean draw probability, in [0, 1]
  float decided_draws = 0;  // share of the visits that ended in a draw the rules decided, in [0, 1]
  float raw_q = 0;          // W - L of the first visit's evaluation (network or rules), same view
  uint32_t visits = 0;      // N; once expanded, 1 (its own evaluation) + the children's N
  uint32_t first_edge = 0;
  uint16_t num_edges = 0;
  NodeStatus status = NodeStatus::Unexpanded;
  game::Player view = game::Player::First;
};
static_assert(sizeof(Node) == 28);

struct Edge {
  game::ActionId action = 0;
  float prior = 0;  // probability; at a noisy root, after the Dirichlet noise
  uint32_t child = kNoNode;
};
static_assert(sizeof(Edge) == 12);

// W - L of `node` from `player`'s view, decided draws worth 0: the search's value (reports, the
// recorded value target, resignation).
inline float q_for(const Node& node, game::Player player) { return node.view == player ? node.q : -node.q; }

// How the search scores a draw the rules decide in the tree (lc0's draw score): -contempt for
// the side to move at the root, +contempt for its opponent.
struct DrawScore {
  game::Player root_mover = game::Player::First;
  float contempt = 0;
};

// W - L of `node` from `player`'s view with decided draws scored by `score`: what the search
// decides by (selection, pruning, the move).
inline float q_for(const Node& node, game::Player player, const DrawScore& score) {
  const float draw = node.view == score.root_mover ? -score.contempt : score.contempt;
  const float q = node.q + draw * node.decided_draws;
  return node.view == player ? q : -q;
}

inline game::Player other(game::Player p) {
  return p == game::Player::First ? game::Player::Second : game::Player::First;
}

// Not thread-safe: one per game (or one shared scratch per worker thread, see GameSearch).
class Tree {
 public:
  explicit Tree(size_t node_reserve = 0, size_t edge_reserve = 0);

  // Empties the tree and adds an unexpanded root (node 0) viewed by `view`.
  void reset(game::Player view);
  uint32_t add_node(game::Player view);
  uint32_t add_edges(int count);  // returns the first of `count` new, default edges

  // References are invalidated by add_node / add_edges (the arenas may grow): keep indices.
  Node& node(uint32_t i) {
    assert(i < node_count_);
    return nodes_[i];
  }
  const Node& node(uint32_t i) const {
    assert(i < node_count_);
    return nodes_[i];
  }
  Edge& edge(uint32_t i) {
    assert(i < edge_count_);
    return edges_[i];
  }
  std::span<Edge> edges_of(uint32_t n) { return {edges_.data() + nodes_[n].first_edge, nodes_[n].num_edges}; }
  std::span<const Edge> edges_of(uint32_t n) const {
    return {edges_.data() + nodes_[n].first_edge, nodes_[n].num_edges};
  }

  uint32_t node_count() const { return node_count_; }
  uint32_t edge_count() const { return edge_count_; }
  size_t memory_bytes() const;  // held by the arenas

  // Replaces this tree by a compacted copy of the subtree of `src` under `src_root`, which
  // becomes node 0. `src` must be another tree.
  void copy_subtree(const Tree& src, uint32_t src_root);

  // Debug check: N = 1 + sum of children's N at every expanded node, edges within bounds.
  bool is_consistent() const;

 private:
  std::vector<Node> nodes_;
  std::vector<Edge> edges_;
  std::vector<uint32_t> origin_;  // copy_subtree: the source index of each copied node
  uint32_t node_count_ = 0;
  uint32_t edge_count_ = 0;
};

}  // namespace sz::search
