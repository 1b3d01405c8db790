#pragma once
// The search for a forced win behind chaturanga's game::Heuristics::forces_win: a search, so not
// in the rules core, though it asks the rules (adjudicate.h) for every verdict.
#include <cstdint>
#include <span>

#include "games/chaturanga/position.h"

namespace sz::chaturanga {

// Whether the side to move forces a win within `moves` of its own moves (1..game::kMaxForcedWinMoves):
// a legal move that wins at once (checkmate, or under the profile a bared king or a stalemate
// that loses), or, with more moves, a check after which every reply leaves a forced win in one
// move fewer. Sound, not complete: a quiet first move of a longer win is not tried, and a line
// through a position seen before (in `history`, oldest first, without `pos`, or in the line)
// counts as no win, since it might be a repetition. With moves = 1 it is exact.
bool forces_win(const Position& pos, std::span<const uint64_t> history, int moves);

}  // namespace sz::chaturanga
