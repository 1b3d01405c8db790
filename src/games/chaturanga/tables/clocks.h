#pragma once
// How the draw clocks run through a table's ending (docs/TABLES.md, "Clocks"). A quiet position is
// drawn once the n-move clock reaches the profile's plies, or the count passes its limit (ASEAN
// counting, Position::update_counting); a mate on that very ply still counts. Both clocks tick once
// a ply, so inside one material they act as one budget: the plies left before the first of them
// ends the game. A capture restarts the n-move clock; a count starts afresh when the capture bares
// the captured side's king, and runs on when the bare king itself captures.
#include <array>

#include "games/chaturanga/position.h"
#include "games/chaturanga/tables/ending_rules.h"
#include "games/chaturanga/tables/material.h"

namespace sz::chaturanga::tables {

// The counting rule's limit in moves against a bare king whose opponent has `men` (as
// Position::count_limit): 16 with a rook, else 44 with a khon, else 64 with a knight, else 0.
int count_limit_moves(const std::array<PieceType, kMaxOthers>& men);

// The clock budget of the position right after a capture by `capturer` in `before`'s material.
struct CaptureClock {
  // The budget runs on, one ply less (a bare king took a man while a count runs: the count binds,
  // docs/TABLES.md says why); else it restarts at fresh_plies.
  bool continuing = false;
  int fresh_plies = 0;
};
CaptureClock capture_clock(const EndingRules& rules, const Material& before, Color capturer);

// The plies the clocks of `pos` still allow (0 or less: a quiet position is drawn already).
// `expand` is set when a count is about to start for the bare side to move (a state only a FEN
// makes): the budget then needs one ply of look-ahead, which the prober does.
int clock_budget(const Position& pos, const EndingRules& rules, bool& expand);

}  // namespace sz::chaturanga::tables
