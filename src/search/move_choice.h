#pragma once
// The one move choice of the project: self-play, the arena, `levels`, `uci` and the game clients'
// C API all play the move this picks from a finished search's root (through
// GameSearch::conclude), so a strength measured through one path holds for the others.
//
//   1. A root child the rules decided as a win for the mover is played (play_proven_wins: the
//      policy target is unchanged).
//   2. PUCT: by the weights (visit counts, or pruned ones) at the temperature, P(a) ~ w(a)^(1/T)
//      (greedy below kGreedyTemperature); children the rules decided (a repetition, a stalemate)
//      are set aside while an undecided child has weight, and the best decided one is played
//      instead when its value is at least the chosen move's mean, or when nothing else was
//      searched. No visited child: by the priors.
//   3. Gumbel: the final edge of sequential halving (GumbelRoot::final_edge), then rule 1.
#include <span>

#include "core/rng.h"
#include "game/game_state.h"
#include "search/tree.h"

namespace sz::search {

struct MoveChoice {
  float temperature = 0;         // rule 2's; the search takes it from its schedule or an override
  bool play_proven_wins = true;  // rule 1
  DrawScore draws;               // how the search scores a decided draw (contempt)
};

// Rule 2 over the root's edges: `weights` (one per edge, modified: decided children zeroed) are
// the visit counts or the pruned ones; all zero, the priors stand in. Then rule 1.
int choose_root_edge(const Tree& tree, game::Player mover, std::span<float> weights, const MoveChoice& choice,
                     Rng& rng);

// Rule 1 after another choice (Gumbel's final edge): the proven win if there is one, else `chosen`.
int with_proven_win(const Tree& tree, game::Player mover, int chosen, const MoveChoice& choice);

}  // namespace sz::search
