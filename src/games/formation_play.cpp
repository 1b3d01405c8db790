#include "games/formation_play.h"

#include <array>
#include <memory>

namespace sz::games {

Result<game::ActionId> next_formation_drop(const game::GameState& state, const Formation& f) {
  const int colour = state.to_move() == game::Player::First ? 0 : 1;
  auto men = men_of_fen(state.to_string());
  if (!men) return fail(men.error());
  const Formation& placed = (*men)[size_t(colour)].formation;
  std::string why;
  for (const Drop& d : f.men) {
    bool there = false;
    for (const Drop& p : placed.men) there = there || (p.man == d.man && p.square == d.square);
    if (there) continue;
    const std::string drop = std::string(1, kMen[size_t(d.man)]) + "@" + square_name(board_square(colour, d.square));
    const auto action = state.parse_action(drop);
    if (action) return *action;
    if (why.empty()) why = std::string(1, kMen[size_t(d.man)]) + "@" + square_name(d.square) + ": " + action.error();
  }
  return fail("formation '" + formation_text(f) + "' cannot go on (" + (why.empty() ? "it is complete" : why) + ")");
}

Result<Formation> check_formation(const Formation& f, const game::GameState& start) {
  const std::string profile(start.profile());
  if (start.phase() != game::Phase::Placement) return fail("profile " + profile + " has no placement");
  for (const game::Player side : {game::Player::First, game::Player::Second}) {
    std::unique_ptr<game::GameState> state = start.clone();
    std::array<game::ActionId, game::kMaxActions> actions{};
    while (state->phase() == game::Phase::Placement) {
      game::ActionId next = 0;
      if (state->to_move() == side) {
        const auto drop = next_formation_drop(*state, f);
        if (!drop) {
          return fail(drop.error() + " under " + profile + " as " + (side == game::Player::First ? "White" : "Black"));
        }
        next = *drop;
      } else {
        if (state->legal_actions(actions) == 0) return fail("no legal placement for the other side");
        next = actions[0];
      }
      state->apply(next);
    }
  }
  return f;
}

}  // namespace sz::games
