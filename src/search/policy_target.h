#pragma once
// From root visit counts to a policy target and a move.
// Policy-target pruning (KataGo, Wu 2019, section 3.1): c* = the child with the most visits; from
// every other child c subtract up to n_forced(c) = sqrt(k P(c) N) visits as long as its PUCT
// score stays below c*'s, i.e. keep N'(c) = max(N(c) - n_forced(c), c(N) P(c) sqrt(N) /
// (score(c*) - Q(c)) - 1); drop children left with at most one visit; normalise.
// Move choice: P(a) ~ N(a)^(1/T) (AlphaZero); T below kGreedyTemperature plays the most visited.
// Temperature schedule: placement plies use placement_temperature; play plies use
// play_temperature for play_temperature_plies, then floor + (T0 - floor) * 0.5^(plies / half_life).
#include <span>

#include "core/rng.h"
#include "game/game_state.h"
#include "search/search_config.h"
#include "search/tree.h"

namespace sz::search {

inline constexpr float kGreedyTemperature = 0.01f;

using PolicyEntry = game::PolicyEntry;

// weights[i] = the visits of the root's i-th edge.
void visit_weights(const Tree& tree, uint32_t root, std::span<float> weights);

// weights[i] = the i-th edge's visits after policy-target pruning (see above). `mover` is the
// side to move at the root; Q counts decided draws by `draws`, as the selection did.
void pruned_visit_weights(const Tree& tree, uint32_t root, game::Player mover, const DrawScore& draws,
                          const SearchConfig& config, std::span<float> weights);

// Writes (action, weight / sum) for every positive weight into `out`, or with `every_edge` for
// every edge (0 for those without weight, so that the target names every legal action); returns
// the number written (0 if no weight is positive).
int to_policy(std::span<const Edge> edges, std::span<const float> weights, std::span<PolicyEntry> out,
              bool every_edge = false);

// An index drawn with P(i) ~ weights[i]^(1/temperature), or the largest weight (first on ties;
// the search's edges are in a random order) when temperature < kGreedyTemperature. Some weight
// must be positive.
int choose_by_temperature(std::span<const float> weights, float temperature, Rng& rng);

// The temperature for a move: `play_ply` counts plies since the play phase began.
float move_temperature(const SearchConfig& config, game::Phase phase, int play_ply);

}  // namespace sz::search
