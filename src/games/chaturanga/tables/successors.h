#pragma once
// The moves of a table position as the retrograde analysis (solver.h) and `tables verify` see
// them, through the rules core: its legal moves, its adjudication of positions without moves
// (mate, stalemate, a bared king) and of insufficient material. Quiet moves stay in the table;
// a capture lands in a smaller table, whose value under the clocks after the capture
// (clocks.h) it carries.
#include <cstdint>
#include <vector>

#include "games/chaturanga/tables/clocks.h"
#include "games/chaturanga/tables/table_set.h"

namespace sz::chaturanga::tables {

enum Metric : int { kDtz = 0, kDtm = 1 };

// A capture's value for the side that makes it, and the plies it charges in each metric besides
// its own: the DTZ charges nothing for a capture that meets fresh clocks (it resets them).
struct CaptureValue {
  Verdict mover = Verdict::Draw;
  uint16_t cost[2] = {};
};

struct Successors {
  bool terminal = false;
  Distance terminal_value;  // when terminal: the rules' verdict now (0 plies), or a draw
  int quiet = 0;
  uint32_t quiet_entry[kMaxMoves];  // the quiet moves' positions, entries of the same table; repeats possible
  int captures = 0;
  CaptureValue capture[kMaxMoves];
};

// Not thread-safe (one per thread); reads `smaller`, which must hold every table one capture away.
class Expander {
 public:
  // Under a profile where stalemating is illegal, scans every position of the table once.
  Expander(const RuleProfile& rules, const Material& material, const TableSet& smaller);

  const Layout& layout() const { return layout_; }
  // False when the entry holds no position: two men on a square, a non-canonical image of another
  // entry, or the side not to move in check. Throws sz::Error when a smaller table is missing.
  bool expand(uint64_t entry, Successors& out) const;

 private:
  bool setup(uint64_t entry, Square* sq, Color& stm) const;
  Position position(const Square* sq, Color stm) const;
  CaptureValue capture_value(const Square* sq, Color stm, int mover_slot, Square to) const;
  int slot_on(const Square* sq, Square s) const;

  const RuleProfile& rules_;
  EndingRules ending_;
  Layout layout_;
  const TableSet& smaller_;
  CaptureClock clock_[2];  // by capturer
  bool illegal_to_stalemate_;
  std::vector<uint8_t> stalemated_;  // by entry, when stalemating is illegal: no move, not in check
};

}  // namespace sz::chaturanga::tables
