#pragma once
// The games by name, beside the games they construct. A name is a rule profile (`sittuyin`,
// `sittuyin-plyyard`, `shatranj`, ...) or the path of a profile YAML file; the profile says which
// game it belongs to. Whoever chooses a game by name (the CLI, the loop, the arena and the UCI
// engine, benchmarks, tests) includes this; the search, self-play and the learners are handed
// GameStates and GameSpecs (game/) and never name a game.
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "game/endgame_tables.h"
#include "game/game_state.h"

namespace sz::games {

// A new game under `profile` from its start position, or from `fen` when not empty.
Result<std::unique_ptr<game::GameState>> new_game(std::string_view profile, std::string_view fen = {});

// The encoding of the game a profile belongs to.
Result<game::GameSpec> spec_for(std::string_view profile);

// The built-in profiles, `sittuyin` (the default) first.
std::vector<std::string> profile_names();

// What a profile says about itself, for listings.
struct ProfileInfo {
  std::string game;    // "sittuyin" or "shatranj"
  std::string source;  // where its rules come from, for people
};
Result<ProfileInfo> profile_info(std::string_view profile);

// The endgame tables for `profile` under `dir` (as `sittuyin-zero tables build --out DIR` writes
// them; docs/TABLES.md): null when `dir` holds none for the profile's ending rules. An error names
// the file when one is damaged, truncated or of another game, rules or format version. The files
// are mapped read-only and checked once here; keep the returned object while probing.
Result<std::shared_ptr<const game::EndgameTables>> endgame_tables(std::string_view profile, const std::string& dir);

// Builds into `dir` the tables of every material of up to `men` men (3 or 4) under `profile`'s
// ending rules, as `tables build --rules PROFILE --men N` does: a table already there and sound
// is kept, so a second call costs a check of the files. `log` hears a line per table (from the
// worker threads, one at a time). Throws sz::Error (an unknown profile, a file not written).
struct TablesBuilt {
  int built = 0, kept = 0;
  double seconds = 0;
  uint64_t bytes = 0;  // of every table, kept ones included
};
TablesBuilt build_endgame_tables(std::string_view profile, int men, const std::string& dir, int threads,
                                 const std::function<void(const std::string&)>& log);

}  // namespace sz::games
