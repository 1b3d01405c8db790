#include "games/chaturanga/tables/chaturanga_tables.h"

#include "games/chaturanga/action_space.h"
#include "games/chaturanga/state.h"
#include "games/chaturanga/tables/probe.h"

namespace sz::chaturanga::tables {

namespace {

const Position* position_of(const game::GameState& state) {
  const auto* s = dynamic_cast<const State*>(&state);
  return s ? &s->position() : nullptr;
}

}  // namespace

std::optional<game::TableResult> ChaturangaTables::probe(const game::GameState& state) const {
  const Position* pos = position_of(state);
  if (!pos || board8::popcount(pos->pieces()) > set_->max_men()) return std::nullopt;  // the common miss, early
  return tables::probe(*set_, *pos);
}

int ChaturangaTables::best_actions(const game::GameState& state, std::span<game::ActionId> out) const {
  const Position* pos = position_of(state);
  if (!pos || !tables::probe(*set_, *pos)) return 0;
  RatedMove moves[kMaxMoves];
  const int n = rate_moves(*set_, *pos, moves);
  if (n <= 0) return 0;
  const int best = order_best_first(moves, n);
  for (int i = 0; i < best && size_t(i) < out.size(); ++i) out[size_t(i)] = action_of(*pos, moves[i].move);
  return best;
}

}  // namespace sz::chaturanga::tables
