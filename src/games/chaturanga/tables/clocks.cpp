#include "games/chaturanga/tables/clocks.h"

#include <algorithm>

namespace sz::chaturanga::tables {

using namespace board8;

int count_limit_moves(const std::array<PieceType, kMaxOthers>& men) {
  const auto has = [&](PieceType t) { return std::find(men.begin(), men.end(), t) != men.end(); };
  if (has(Rook)) return 16;
  if (has(Khon)) return 44;
  if (has(Knight)) return 64;
  return 0;
}

CaptureClock capture_clock(const EndingRules& rules, const Material& before, Color capturer) {
  const int plies = max_clock_plies(rules);
  if (rules.counting != CountingRule::Asean) return {false, plies};
  if (before.count(capturer) == 0) {
    // The bare king captures: the count that runs against it goes on (with a limit > 0).
    const bool counting = count_limit_moves(before.men[~capturer]) > 0;
    return {counting, plies};
  }
  if (before.count(~capturer) == 1) {
    // The capture bares the other king, which is to move: a count starts (Position::do_move).
    const int limit = 2 * count_limit_moves(before.men[capturer]);
    return {false, limit > 0 ? std::min(plies, limit + 1) : plies};
  }
  return {false, plies};
}

int clock_budget(const Position& pos, const EndingRules& rules, bool& expand) {
  expand = false;
  int budget = rules.n_move_plies > 0 ? rules.n_move_plies - pos.rule50() : kNoClockPlies;
  if (rules.counting != CountingRule::Asean) return budget;
  if (pos.counting_limit() > 0) return std::min(budget, pos.counting_limit() + 1 - pos.counting_ply());
  // No count runs yet: one starts (ply 0) when the bare side next has the move.
  for (Color strong : {White, Black}) {
    const bool bare = pos.pieces(~strong) == pos.pieces(~strong, King);
    if (!bare || pos.pieces(strong) == pos.pieces(strong, King)) continue;
    const int limit = 2 * pos.count_limit(strong);
    if (limit == 0) continue;
    if (pos.side_to_move() == strong)
      budget = std::min(budget, limit + 2);
    else
      expand = true;
  }
  return budget;
}

}  // namespace sz::chaturanga::tables
