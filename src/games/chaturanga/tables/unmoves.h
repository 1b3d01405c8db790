#pragma once
// Quiet moves played backwards: the positions one quiet move before a table position (the
// retrograde step of solver.h). A man of the side that just moved steps back onto an empty
// square along its own move (a khon along its mirror image, since it steps forward); the result
// must be a legal position (the kings apart, the side that did not move not in check there).
// Uncaptures are not needed: a capture leaves the table, and the forward pass (successors.h)
// scores captures directly.
#include <cstdint>

#include "games/chaturanga/tables/layout.h"

namespace sz::chaturanga::tables {

inline constexpr int kMaxPredecessors = 128;

// Writes the distinct entries one quiet move before `entry` (which must hold a position) into
// `out` (kMaxPredecessors long) and returns their number.
int predecessors(const Layout& layout, uint64_t entry, uint32_t* out);

}  // namespace sz::chaturanga::tables
