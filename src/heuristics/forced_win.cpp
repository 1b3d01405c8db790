#include "heuristics/forced_win.h"

#include <cassert>

#include "game/heuristics.h"
#include "games/chaturanga/adjudicate.h"
#include "games/chaturanga/movegen.h"

namespace sz::chaturanga {

namespace {

// The game's earlier positions and those of the forcing line searched (forces_win).
struct ForcingLine {
  std::span<const uint64_t> history;
  uint64_t keys[2 * game::kMaxForcedWinMoves] = {};
  int size = 0;

  // Whether `p` occurred before: in the line, or in the history since the last irreversible move.
  bool seen(const Position& p) const {
    for (int i = 0; i < size; ++i)
      if (keys[i] == p.key()) return true;
    return earlier_occurrences(p, history) > 0;
  }
};

// Every reply to the check in `pos` (opponent to move, the game not over) leaves the checker
// a forced win within `moves`.
bool every_reply_loses(const Position& pos, ForcingLine& line, int moves);

bool forces(const Position& pos, ForcingLine& line, int moves) {
  const RuleProfile& rules = pos.rules();
  const Outcome win = pos.side_to_move() == White ? Outcome::WhiteWins : Outcome::BlackWins;
  const bool quiet_moves_may_win = rules.bare_king_loses || rules.stalemate == StalemateRule::Loss;
  MoveList legal;
  generate_legal(pos, legal);
  line.keys[line.size++] = pos.key();
  bool found = false;
  for (const Move m : legal) {
    Position next = pos;
    next.do_move(m);
    if (!quiet_moves_may_win && !next.in_check()) continue;  // then only a checkmate wins at once
    // The wins come before every verdict that reads the history, so none is needed here.
    const GameEnd end = adjudicate(next, {});
    if (end.outcome == win) {
      found = true;
      break;
    }
    if (moves == 1 || end.over() || !next.in_check() || line.seen(next)) continue;
    if (every_reply_loses(next, line, moves - 1)) {
      found = true;
      break;
    }
  }
  --line.size;
  return found;
}

bool every_reply_loses(const Position& pos, ForcingLine& line, int moves) {
  MoveList replies;
  generate_legal(pos, replies);
  line.keys[line.size++] = pos.key();
  bool all = true;
  for (const Move r : replies) {
    Position after = pos;
    after.do_move(r);
    if (adjudicate(after, {}).over() || line.seen(after) || !forces(after, line, moves)) {
      all = false;
      break;
    }
  }
  --line.size;
  return all;
}

}  // namespace

bool forces_win(const Position& pos, std::span<const uint64_t> history, int moves) {
  assert(moves >= 1 && moves <= game::kMaxForcedWinMoves);
  ForcingLine line{history};
  return forces(pos, line, moves);
}

}  // namespace sz::chaturanga
