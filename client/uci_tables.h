#pragma once
// sittuyin-client's endgame tables: a `go` in a position of the bundle's tables (exported with
// --tables, docs/TABLES.md) is answered with the tables' best move, at once, with an info line
// that says so; every other command goes to the UCI engine. It follows `setoption name
// UCI_Variant` and `position` as the engine does. (The UCI engine itself, src/uci, names no
// game and knows no tables; once it takes them, this goes.)
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "client/bundle.h"
#include "game/game_state.h"

namespace sz::client {

class UciTables {
 public:
  explicit UciTables(std::shared_ptr<const Bundle> bundle);

  // Sees a command line before the engine. Returns the lines to print instead of handing it on
  // (a `go` the tables answer), or nullopt to hand it to the engine. `engine_busy`: a search
  // runs, so a `go` is the engine's to refuse.
  std::optional<std::vector<std::string>> intercept(std::string_view line, bool engine_busy);

 private:
  void follow_position(const std::vector<std::string>& tokens);
  std::optional<std::vector<std::string>> answer_go(const std::vector<std::string>& tokens);

  std::shared_ptr<const Bundle> bundle_;
  const chaturanga::RuleProfile* variant_;
  std::unique_ptr<game::GameState> state_;  // null when the last `position` was not understood
};

}  // namespace sz::client
