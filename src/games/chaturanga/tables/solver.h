#pragma once
// Retrograde analysis of one table (docs/TABLES.md, "Generation"). A forward pass over every
// entry (successors.h) finds the positions the rules decide now, counts each position's distinct
// quiet successors and scores its captures with the smaller tables' values. Then, for each of the
// two metrics, a breadth-first sweep by distance (a bucket queue: a capture's cost can put a
// position behind later layers) walks quiet moves backwards (unmoves.h): a position with a
// successor lost for the opponent is won one ply later than the fastest such; one whose every
// successor is won for the opponent is lost one ply after the slowest (counted down per distinct
// successor, so symmetric positions count once). What no sweep reaches is a draw.
// Thompson, "Retrograde analysis of certain endgames" (ICCA J. 9(3), 1986); the DTZ with its
// capture costs is Syzygy's idea for the 50-move rule.
#include <functional>
#include <string_view>

#include "games/chaturanga/tables/table_file.h"
#include "games/chaturanga/tables/table_set.h"

namespace sz::chaturanga::tables {

// Called now and then with the phase ("scan", "dtz", "dtm") and the share of it done, in [0, 1].
using SolveProgress = std::function<void(std::string_view phase, double done)>;

// The codes of `material`'s table (canonical) under `rules`; `smaller` holds every table one
// capture away. Single-threaded; about 14 bytes of memory per entry while it runs.
TableCodes solve_table(const RuleProfile& rules, const Material& material, const TableSet& smaller,
                       const SolveProgress& progress = {});

}  // namespace sz::chaturanga::tables
