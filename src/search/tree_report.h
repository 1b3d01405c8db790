#pragma once
// What a finished (or running) search's tree says to a reader outside the search: the depth of
// its nodes, the memory it uses, the most visited line, how the root's visits spread. The UCI
// engine's info lines and self-play's report read it (the move is search/move_choice.h's). Depth
// and size walk the whole tree: for reports between simulations, not for the hot path;
// root_spread reads the root's edges and the most visited line, once a search, allocating nothing.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "game/game_state.h"
#include "search/tree.h"

namespace sz::search {

struct TreeDepth {
  int mean = 0;  // mean depth of the non-root nodes, rounded, at least 1 (0 for a lone root)
  int max = 0;   // the deepest node (the root is depth 0)
};
TreeDepth tree_depth(const Tree& tree);

// Bytes of the nodes and edges in use (the arenas may hold more: Tree::memory_bytes).
size_t tree_bytes(const Tree& tree);

// How a search's root visits spread over its moves, for self-play's report (issue 43: at 64
// visits, how many moves does the search look at, and how much of its budget do forced playouts
// take, which the policy target then prunes away?).
struct RootSpread {
  int moves = 0;        // the root's legal moves
  int visited = 0;      // of them with at least one visit
  int targeted = 0;     // of them with weight in the policy target
  uint32_t visits = 0;  // the root children's visits
  uint32_t best = 0;    // the most visited child's visits
  float kept = 0;       // visits the target keeps (after pruning), <= visits
  int line = 0;         // plies of the most visited line (principal_variation's length)
};
// `target` holds one weight per root edge in visit units (pruned_visit_weights or visit_weights).
RootSpread root_spread(const Tree& tree, std::span<const float> target);

// The most visited line from the root: each step the child with the most visits (the first on
// ties), at most `max_plies` of them, ending where no child has a visit.
std::vector<game::ActionId> principal_variation(const Tree& tree, int max_plies = 64);

}  // namespace sz::search
