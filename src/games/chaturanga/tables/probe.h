#pragma once
// Probing the tables with a rules-core Position and its clocks (docs/TABLES.md, "Probing"): the
// entry's DTZ against the plies the clocks allow (clocks.h) gives the exact verdict; its DTM the
// plies to the end. The one-ply look-ahead a FEN-made count state needs, and the rating of every
// legal move by its successor's value, go through the rules core's own moves and clocks.
// No allocation; thread-safe (reads only).
#include <optional>

#include "game/endgame_tables.h"
#include "games/chaturanga/tables/table_set.h"

namespace sz::chaturanga::tables {

// The value of `pos` for its side to move; nullopt when it lies outside `set` or is played under
// other ending rules than the set's.
std::optional<game::TableResult> probe(const TableSet& set, const Position& pos);

// A legal move and its value for the side that plays it.
struct RatedMove {
  Move move;
  game::TableResult result;
};

// Rates every legal move of `pos` into `out` (kMaxMoves long) and returns their number; -1 when
// `pos` or a successor lies outside the set.
int rate_moves(const TableSet& set, const Position& pos, RatedMove* out);

// Orders rated moves best first for the side that plays them (a win soonest, then a draw, then a
// loss latest) and returns how many share the best value.
int order_best_first(RatedMove* moves, int count);

}  // namespace sz::chaturanga::tables
