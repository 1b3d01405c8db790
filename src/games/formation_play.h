#pragma once
// Playing a given formation: the drops that build it in a game, whatever the other side places.
// The arena's placement control (eval players with placement=fixed:/book:), the network's value
// of a formation (network_values.h) and the clients' runtime (client/c_api_view.cpp) place with it.
#include <string>
#include <string_view>

#include "core/error.h"
#include "game/game_state.h"
#include "games/formation.h"

namespace sz::games {

// The next drop of `f` for the side to move of `state` (which must be placing): the first man of
// `f`, in its order, that is not on its square yet and may be dropped there now. Fails, naming
// the formation, when none may (a square outside the profile's zones, taken, or barred for now).
Result<game::ActionId> next_formation_drop(const game::GameState& state, const Formation& f);

// Checks that `f` can be placed by either colour under `profile` (against an opponent placing its
// first legal drop each turn); the error names the formation, the profile and the drop.
// (formation_profiles.cpp: through the registry, so in sz_games.)
Result<Formation> check_formation(const Formation& f, std::string_view profile);
// The same from `start`, a game of the profile before placement begins (registry-free: the
// clients' runtime checks formations with it).
Result<Formation> check_formation(const Formation& f, const game::GameState& start);

}  // namespace sz::games
