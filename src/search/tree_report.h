#pragma once
// What a finished (or running) search's tree says to a reader outside the search: the depth of
// its nodes, the memory it uses, the most visited line, and the move by visit counts. The UCI
// engine's info lines and move choice read it. Walks the whole tree: for reports between
// simulations, not for the hot path.
#include <cstddef>
#include <vector>

#include "core/rng.h"
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

// The root move by visit counts, P(a) ~ N(a)^(1/temperature) (choose_by_temperature: greedy
// below kGreedyTemperature), drawn from `rng`; a root child that the rules decided as a win for
// `mover` (the side to move at the root) is played whatever the temperature. A root without
// visited children: by the priors. The root must be expanded.
game::ActionId choose_by_visits(const Tree& tree, game::Player mover, float temperature, Rng& rng);

}  // namespace sz::search
