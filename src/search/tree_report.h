#pragma once
// What a finished (or running) search's tree says to a reader outside the search: the depth of
// its nodes, the memory it uses, the most visited line. The UCI engine's info lines read it (the
// move is search/move_choice.h's). Walks the whole tree: for reports between
// simulations, not for the hot path.
#include <cstddef>
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

// The most visited line from the root: each step the child with the most visits (the first on
// ties), at most `max_plies` of them, ending where no child has a visit.
std::vector<game::ActionId> principal_variation(const Tree& tree, int max_plies = 64);

}  // namespace sz::search
