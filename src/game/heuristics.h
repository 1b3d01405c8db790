#pragma once
// What a game knows beyond its rules, for the leaf search (search.leaf_*, search/play_settings.h):
// heuristics, never part of the rules, so not GameState methods. Optional: a game without them
// hands none (null), and what reads them is off. Interfaces only: src/heuristics/ implements
// chaturanga's, and whoever chose the game by name hands them on (heuristics/heuristics.h), as it
// does the endgame tables.
#include "game/game_state.h"

namespace sz::game {

// The most moves Heuristics::forces_win looks ahead (the search's leaf_win_moves at most): each
// one more multiplies its cost by the checks and replies of a ply pair.
inline constexpr int kMaxForcedWinMoves = 4;

// Stateless and thread-safe; every call reads a state of the game they were made for.
class Heuristics {
 public:
  virtual ~Heuristics() = default;

  // The side to move's material minus the opponent's, in the game's own units (chaturanga: pawns,
  // men in hand included): the arena's material yardstick, self-play's records (the held-out
  // calibration by material edge).
  virtual float material(const GameState& state) const = 0;
  // material() once the captures pending are played out (every move for `full_plies` plies, then
  // a capture-only search, at most `max_plies` deep; checkmate counts as a huge loss): what the
  // leaf blend adds to a leaf's value (search/leaf_blend.h).
  virtual float quiescent_material(const GameState& state, int full_plies, int max_plies) const = 0;
  // A bonus in material() units, from the side to move's view, for the side ahead driving the
  // other king toward a corner (search.leaf_king_hunt); at most 1 in magnitude, since the leaf
  // blend also mixes it into W - L directly (search.leaf_hunt_share).
  virtual float king_hunt(const GameState& state) const = 0;
  // Whether the side to move forces a win within `moves` (1..kMaxForcedWinMoves) of its own moves
  // (1: an action that ends the game at once in its favour, a mate in one): an exact value the
  // search gives a leaf without asking the network (search.leaf_win_moves). Sound, not complete:
  // a game may try only forcing first moves (chaturanga: checks).
  virtual bool forces_win(const GameState& state, int moves) const = 0;
};

}  // namespace sz::game
