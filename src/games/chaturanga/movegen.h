#pragma once
// Legal move generation for the chaturanga family core (Sittuyin profiles and Shatranj).
// Moves are generated legal directly (check and pin masks, as in Stockfish), so perft can
// count the list at the last ply without making the moves (bulk counting).
#include <cstdint>

#include "games/chaturanga/position.h"

namespace sz::chaturanga {

// Appends every legal move of `pos` to `list`. Empty when the game is over by checkmate,
// stalemate, an immediate rule (Shatranj bare king) or, under a profile where stalemating is
// illegal, when every move would stalemate. Claimable ends (n-move rule, repetition, counting)
// do not empty the list: they are adjudicate()'s business. Not thread-unsafe: reads only.
void generate_legal(const Position& pos, MoveList& list);

// Legal moves without the "may not stalemate the opponent" filter of some profiles.
void generate_legal_unfiltered(const Position& pos, MoveList& list);

// Perft: leaf count at `depth`, bulk-counting at the last ply.
uint64_t perft(const Position& pos, int depth);

}  // namespace sz::chaturanga
