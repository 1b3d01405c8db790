#pragma once
// Material counting and a capture-only search over it: the heuristics behind
// chaturanga's game::Heuristics (material, quiescent_material, king_hunt). Never part of the rules.
#include "games/chaturanga/position.h"

namespace sz::chaturanga {

// The side to move's material minus the opponent's, in pawns: P 1, N 3, khon/alfil 2.5,
// met/fers 1.5, R 5, on the board or in hand.
float material_balance(const Position& pos);

// The side to move's material once the captures in hand are resolved: a fail-hard alpha-beta
// over every legal move for `full_plies` plies, then over captures (every evasion when in
// check) with standing pat, to at most `max_plies` plies, most valuable victim first. A full
// ply sees what standing pat cannot: a fork, or a man attacked twice, costs the mover a man.
// Checkmate scores -kMatedMaterial; a placement-phase position (nothing can be captured yet)
// scores its static balance.
inline constexpr float kMatedMaterial = 100.0f;
float quiescent_balance(const Position& pos, int full_plies, int max_plies);

// Stockfish's mop-up term: how far the side a knight or more ahead on material has driven the
// other king toward a corner with its own king close, in pawns (0 to 0.9) from the side to
// move's view (negative when the opponent leads); 0 in the placement phase or near equality.
// What a material value lacks to convert a won ending: every quiet move scores the same.
float king_hunt(const Position& pos);

}  // namespace sz::chaturanga
