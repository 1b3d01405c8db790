#pragma once
// `tables verify`: every entry of a table re-derived from its successors (successors.h) and the
// values stored for them, in both metrics. Local agreement everywhere is the whole proof: a won or
// lost entry names a successor one ply nearer the end, so the distances cannot chase each other
// round a cycle, and a draw has no successor that would make it anything else.
#include <cstdint>
#include <string>

#include "games/chaturanga/tables/solver.h"

namespace sz::chaturanga::tables {

struct VerifyReport {
  uint64_t positions = 0;                // entries holding a position
  uint64_t mismatches = 0;               // entries whose stored value differs from the derived one
  std::string first;                     // the first mismatch, described
  uint64_t wins = 0, losses = 0;         // positions won and lost for the side to move (the rest draw)
  int longest_dtz = 0, longest_dtm = 0;  // plies, over wins and losses
};

// `set` holds `table` and every table one capture away. Single-threaded.
VerifyReport verify_table(const RuleProfile& rules, const Table& table, const TableSet& set,
                          const SolveProgress& progress = {});

}  // namespace sz::chaturanga::tables
