// `sittuyin-zero rules`: any game by profile name, through the game seam (GameState).
#include <array>
#include <cstdio>
#include <memory>

#include "cli/command.h"
#include "core/error.h"
#include "game/game_state.h"
#include "games/registry.h"

namespace sz::cli {

namespace {
constexpr const char* kUsage = R"(sittuyin-zero rules                      list the built-in rule profiles
       sittuyin-zero rules [--rules NAME] [--fen FEN] [--moves M1,M2,...])";

constexpr const char* kAbout =
    R"(Prints the position (the start position unless --fen) after the moves, as a board and as a FEN,
with its legal moves and what the rules say about it (ongoing, or the result and its reason).
)";

}  // namespace

int rules_command(Args args) {
  std::string rules = "sittuyin", fen, moves;
  Flags f(kUsage, kAbout);
  f.text("--rules", "NAME", rules, "rule profile (built-in name or a .yaml path; default sittuyin)");
  f.text("--fen", "FEN", fen, "the position (Fairy-Stockfish FEN, hand in brackets); default: the start position");
  f.text("--moves", "M1,M2,...", moves,
         "moves played from it (as `perft --divide` prints them), separated by commas or spaces");
  if (!f.parse(args)) return 0;
  if (args.empty()) {
    for (const std::string& name : games::profile_names()) {
      const games::ProfileInfo info = games::profile_info(name).take_or_throw(name);
      std::printf("%-22s %-9s %s\n", name.c_str(), info.game.c_str(), info.source.c_str());
    }
    return 0;
  }
  games::spec_for(rules).take_or_throw("--rules");  // a bad profile: the error of --rules, not --fen
  const std::unique_ptr<game::GameState> state = games::new_game(rules, fen).take_or_throw("--fen");
  for (size_t start = 0; start < moves.size();) {
    size_t end = moves.find_first_of(", ", start);
    if (end == std::string::npos) end = moves.size();
    if (end > start) state->apply(state->parse_action(moves.substr(start, end - start)).take_or_throw("--moves"));
    start = end + 1;
  }
  std::fputs(state->board_text().c_str(), stdout);
  std::array<game::ActionId, game::kMaxActions> legal{};
  const int count = state->legal_actions(legal);
  std::printf("Legal moves (%d):", count);
  for (int i = 0; i < count; ++i) std::printf(" %s", state->action_to_string(legal[size_t(i)]).c_str());
  const game::Outcome outcome = state->outcome();
  std::printf("\nResult: %s", game::pgn_result(outcome.result));
  if (outcome.over()) std::printf(" (%s)", std::string(outcome.reason).c_str());
  std::printf("\n");
  return 0;
}

}  // namespace sz::cli
