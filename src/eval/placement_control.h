#pragma once
// How a player places its men in Sittuyin (the `placement=` setting of a player spec):
//   network       the player's own choice (its search; the default)
//   random        a uniformly random legal drop, seeded per game
//   fixed:FILE    one formation (games/formation.h): the one formation line of FILE
//   book:FILE     formations with weights, one "WEIGHT FORMATION" line each, one drawn per game
// Files hold formations in the placing side's own frame ("K@e2 F@d2 ..."); '#' starts a comment.
// The formation is placed man by man in its order, the first man that may go first
// (formation_play.h). Outside placement, and in games without one, the player plays as it would.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "eval/player.h"
#include "games/formation.h"

namespace sz::eval {

struct PlacementControl {
  enum class Kind { Network, Random, Fixed, Book };
  Kind kind = Kind::Network;
  std::string text;  // as given
  struct Entry {
    games::Formation formation;
    double weight = 1;
    std::string where;  // FILE:LINE, for errors
  };
  std::vector<Entry> formations;  // Fixed: one; Book: all, weight > 0
};

// Reads the setting and its file. Errors name the file and line: a malformed line, a weight that
// is not a positive number, a formation without the right men, a file with no formation.
Result<PlacementControl> parse_placement_control(std::string_view text);

// Checks every formation of `control` against `profile` (games::check_formation); the error names
// FILE:LINE.
Result<bool> check_placement_control(const PlacementControl& control, std::string_view profile);

// The formation of the game seeded `seed`: Fixed's one, or one of Book's drawn by weight from
// the seed (the same seed, the same formation); nullptr for Network and Random.
const PlacementControl::Entry* formation_for(const PlacementControl& control, uint64_t seed);

// The control as a stateless, thread-safe chooser for self-play (selfplay::PlacementChooser):
// the drop for the side to move of a placing position of the game seeded `seed`; Random's drop
// is drawn from the seed and the position. nullopt where the formation cannot go on (check it
// with check_placement_control first) or outside placement: the search chooses then. Empty for
// Network.
std::function<std::optional<game::ActionId>(const game::GameState&, uint64_t)> placement_chooser(
    PlacementControl control);

// `inner`'s players, placing as `control` says (Network: `inner` itself). A formation that cannot
// be placed under the game's profile is an sz::Error at the game's start naming FILE:LINE, which
// ends the match.
PlayerFactory with_placement(PlayerFactory inner, PlacementControl control);

}  // namespace sz::eval
