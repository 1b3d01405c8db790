// Formations under a rule profile named (games/formation.h, formation_play.h): the games are
// started through the registry, so this file is sz_games', not the registry-free sz_formation's.
#include <memory>

#include "core/split.h"
#include "games/formation.h"
#include "games/formation_play.h"
#include "games/registry.h"

namespace sz::games {

Result<PlacedGame> replay_placement(std::string_view profile, std::string_view start_fen, std::string_view moves_text,
                                    int result) {
  auto started = new_game(profile, start_fen);
  if (!started) return fail("its start: " + started.error());
  std::unique_ptr<game::GameState> state = std::move(started).value();
  if (state->spec().game != "sittuyin") return fail("a " + state->spec().game + " game has no placement");
  if (state->phase() != game::Phase::Placement) return fail("it starts after placement");
  PlacedGame placed;
  placed.profile = std::string(profile);
  placed.result = result;
  const std::vector<std::string_view> moves = split_words(moves_text);
  size_t i = 0;
  for (; i < moves.size() && state->phase() == game::Phase::Placement; ++i) {
    const int colour = state->to_move() == game::Player::First ? 0 : 1;
    const auto action = state->parse_action(moves[i]);
    const std::optional<Drop> drop = parse_drop(moves[i]);
    if (!action || !drop) {
      return fail("move " + std::to_string(i + 1) + " '" + std::string(moves[i]) +
                  "': " + (action ? "not a drop of a man" : action.error()));
    }
    placed.side[size_t(colour)].order.push_back({drop->man, board_square(colour, drop->square)});
    state->apply(*action);
  }
  if (state->phase() == game::Phase::Placement) {
    return fail("its moves end after " + std::to_string(i) + " placements, before placement is over");
  }
  placed.fen = state->to_string();
  auto men = men_of_fen(placed.fen);
  if (!men) return fail(men.error());
  for (size_t c = 0; c < 2; ++c) {
    placed.side[c].formation = std::move(men.value()[c].formation);
    placed.side[c].pawns = men.value()[c].pawns;
  }
  return placed;
}

Result<Formation> check_formation(const Formation& f, std::string_view profile) {
  auto started = new_game(profile);
  if (!started) return fail(started.error());
  return check_formation(f, **started);
}

}  // namespace sz::games
