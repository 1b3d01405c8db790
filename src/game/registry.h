#pragma once
// Games by name. A name is a rule profile (`sittuyin`, `sittuyin-plyyard`, `shatranj`, ...) or
// the path of a profile YAML file; the profile says which game it belongs to.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "game/game_state.h"

namespace sz::game {

// A new game under `profile` from its start position, or from `fen` when not empty.
sz::Result<std::unique_ptr<GameState>> new_game(std::string_view profile, std::string_view fen = {});

// The encoding of the game a profile belongs to.
sz::Result<GameSpec> spec_for(std::string_view profile);

std::vector<std::string> profile_names();

}  // namespace sz::game
