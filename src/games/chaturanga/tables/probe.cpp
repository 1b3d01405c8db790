#include "games/chaturanga/tables/probe.h"

#include <algorithm>

#include "games/chaturanga/adjudicate.h"
#include "games/chaturanga/movegen.h"
#include "games/chaturanga/tables/clocks.h"

namespace sz::chaturanga::tables {

namespace {

game::TableVerdict seam_verdict(Verdict v) { return game::TableVerdict(int8_t(v)); }

game::TableResult drawn(int budget) {
  game::TableResult r;
  r.clock_plies = budget;
  return r;
}

// An entry's value under `budget` plies of clocks: the DTZ decides (0: the rules decided already).
game::TableResult result_of(const Table& table, const Entry& e, int budget) {
  if (e.dtz.verdict == Verdict::Draw || (e.dtz.plies > 0 && e.dtz.plies > budget)) return drawn(budget);
  game::TableResult r;
  r.verdict = seam_verdict(e.dtz.verdict);
  r.plies_to_end = e.dtm.plies;
  r.plies_exact = !table.has_dtm() || e.dtm.plies <= budget;
  r.plies_to_reset = e.dtz.plies;
  r.clock_plies = budget;
  return r;
}

// The value through the successors (the clocks of the position are not of the kind the table
// assumes: a count about to start for the bare side to move, which only a FEN sets up).
std::optional<game::TableResult> probe_by_moves(const TableSet& set, const Position& pos, const Table& table,
                                                const Entry& e, int budget) {
  if (adjudicate(pos, {}).over()) return result_of(table, e, budget);
  RatedMove moves[kMaxMoves];
  const int n = rate_moves(set, pos, moves);
  if (n <= 0) return std::nullopt;
  order_best_first(moves, n);
  game::TableResult r = moves[0].result;
  r.clock_plies = budget;
  return r;
}

// Orders values for the side that moves: a win sooner, a draw, a loss later.
long score(const game::TableResult& r) {
  switch (r.verdict) {
    case game::TableVerdict::Win:
      return 2'000'000L - r.plies_to_end;
    case game::TableVerdict::Draw:
      return 1'000'000L;
    case game::TableVerdict::Loss:
      return r.plies_to_end;
  }
  return 0;
}

}  // namespace

std::optional<game::TableResult> probe(const TableSet& set, const Position& pos) {
  if (!(ending_rules(pos.rules()) == set.rules())) return std::nullopt;
  const std::optional<Men> men = men_of(pos);
  if (!men) return std::nullopt;
  const std::optional<TableSet::Hit> hit = set.locate(*men);
  if (!hit) return std::nullopt;
  bool expand = false;
  const int budget = clock_budget(pos, set.rules(), expand);
  if (!hit->table) return drawn(budget);
  const Entry e = hit->table->entry(hit->index);
  if (expand) return probe_by_moves(set, pos, *hit->table, e, budget);
  return result_of(*hit->table, e, budget);
}

int rate_moves(const TableSet& set, const Position& pos, RatedMove* out) {
  MoveList moves;
  generate_legal(pos, moves);
  for (int i = 0; i < moves.size; ++i) {
    const Move m = moves.moves[i];
    Position next = pos;
    next.do_move(m);
    const std::optional<game::TableResult> child = probe(set, next);
    if (!child) return -1;
    game::TableResult r;
    r.verdict = game::TableVerdict(-int(child->verdict));
    if (r.verdict != game::TableVerdict::Draw) {
      r.plies_to_end = child->plies_to_end + 1;
      r.plies_exact = child->plies_exact;
      r.plies_to_reset = pos.is_capture(m) ? 1 : child->plies_to_reset + 1;
    }
    r.clock_plies = child->clock_plies + 1;
    out[i] = {m, r};
  }
  return moves.size;
}

int order_best_first(RatedMove* moves, int count) {
  // Insertion sort: stable, and unlike std::stable_sort it allocates no buffer.
  for (int i = 1; i < count; ++i)
    for (int j = i; j > 0 && score(moves[j].result) > score(moves[j - 1].result); --j)
      std::swap(moves[j], moves[j - 1]);
  int best = 0;
  while (best < count && score(moves[best].result) == score(moves[0].result)) ++best;
  return best;
}

}  // namespace sz::chaturanga::tables
