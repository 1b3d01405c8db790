#pragma once
// A game's heuristics (game/heuristics.h) by its name, for whoever chose the game by name (run/,
// cli, eval, bench, the clients' runtime), to hand on to the searches and self-play as it hands
// them the endgame tables. The leaf search's knowledge lives here, apart from the rules core:
// chaturanga's material count, its capture search (quiescence.h) and its forced-win search
// (forced_win.h).
#include <string_view>

#include "game/heuristics.h"

namespace sz::heuristics {

// The heuristics of the game named (GameSpec::game: "sittuyin", "shatranj"); null for a game
// without them. Static: valid for the program's life.
const game::Heuristics* of_game(std::string_view game);

}  // namespace sz::heuristics
