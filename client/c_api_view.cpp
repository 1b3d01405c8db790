// The C API's calls for a game's screen (sittuyin_client.h, API version 3): the bundle's game and
// its profiles' sources, a game's status beside its FEN, a move's SAN, and Sittuyin formations.
// Each reads the rules core; none decides a rule itself, so a screen that shows them shows the
// rules that were tested.
#include "client/c_api_support.h"
#include "games/formation.h"
#include "games/formation_play.h"

namespace {

using sz::Error;
using sz::chaturanga::Color;
using sz::client::guarded;

// The side whose men are its king alone while a count runs; -1 otherwise.
int counting_side(const sz::chaturanga::Position& pos) {
  if (!pos.counting_limit()) return -1;
  for (const Color c : {sz::chaturanga::White, sz::chaturanga::Black})
    if (pos.pieces(c) == pos.pieces(c, sz::chaturanga::King)) return int(c);
  return -1;
}

sz::games::Formation parse_formation_or_throw(const char* text) {
  if (!text) throw Error("no formation given");
  auto f = sz::games::parse_formation(text);
  if (!f) throw Error("formation '" + std::string(text) + "': " + f.error());
  return *f;
}

}  // namespace

extern "C" {

const char* sz_bundle_game(const sz_bundle* bundle) {
  return bundle ? bundle->bundle->arch.spec.game.c_str() : nullptr;
}

const char* sz_bundle_profile_source(const sz_bundle* bundle, int index) {
  if (!bundle || index < 0 || index >= sz_bundle_profile_count(bundle)) return nullptr;
  return bundle->bundle->profiles[size_t(index)]->source.c_str();
}

int sz_game_status(const sz_game* game, sz_status* out) {
  if (!game || !out) return -1;
  const sz::chaturanga::State& state = *game->state;
  const sz::chaturanga::Position& pos = state.position();
  *out = sz_status{int(pos.side_to_move()),  state.phase() == sz::game::Phase::Placement ? 1 : 0,
                   pos.in_check() ? 1 : 0,   state.ply(),
                   state.repetitions(),      pos.rule50(),
                   pos.rules().n_move_plies, pos.counting_limit(),
                   pos.counting_ply(),       counting_side(pos)};
  return 0;
}

int sz_game_san(const sz_game* game, const char* move, char* san, size_t san_size, char* error, size_t error_size) {
  return guarded<int>(error, error_size, -1, [&] {
    if (!game || !move) throw Error("no game or no move");
    if (game->state->outcome().over()) throw Error("move '" + std::string(move) + "': the game is over");
    const auto action = game->state->parse_action(move);
    if (!action) throw Error("move '" + std::string(move) + "': " + action.error());
    return sz::client::copy_text(game->state->action_to_san(*action), san, san_size, "SAN");
  });
}

int sz_bundle_check_formation(const sz_bundle* bundle, const char* profile, const char* formation, char* error,
                              size_t error_size) {
  return guarded<int>(error, error_size, -1, [&] {
    if (!bundle) throw Error("no bundle");
    const sz::games::Formation f = parse_formation_or_throw(formation);
    const sz::chaturanga::State start(
        sz::chaturanga::Position::start(sz::client::bundle_profile(*bundle->bundle, profile)));
    if (auto ok = sz::games::check_formation(f, start); !ok) throw Error(ok.error());
    return 0;
  });
}

int sz_game_formation_drop(const sz_game* game, const char* formation, char* move, size_t move_size, char* error,
                           size_t error_size) {
  return guarded<int>(error, error_size, -1, [&] {
    if (!game) throw Error("no game");
    const sz::games::Formation f = parse_formation_or_throw(formation);
    if (game->state->phase() != sz::game::Phase::Placement) throw Error("the placement is over");
    const auto drop = sz::games::next_formation_drop(*game->state, f);
    if (!drop) throw Error(drop.error());
    return sz::client::copy_text(game->state->action_to_string(*drop), move, move_size, "move");
  });
}

}  // extern "C"
