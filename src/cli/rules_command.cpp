#include <cstdio>

#include "cli/command.h"
#include "config/rule_profiles.h"
#include "core/error.h"
#include "games/chaturanga/adjudicate.h"
#include "games/chaturanga/movegen.h"
#include "games/chaturanga/notation.h"

namespace sz::cli {

namespace {
constexpr const char* kHelp = R"(usage: sittuyin-zero rules                      list the built-in rule profiles
       sittuyin-zero rules [--rules NAME] [--fen FEN] [--moves M1,M2,...]

Prints the position (the start position unless --fen) after the moves, as a board and as a FEN,
with its legal moves and what the rules say about it (ongoing, or the result and its reason).
)";
}  // namespace

int rules_command(Args args) {
  if (wants_help(args)) {
    std::fputs(kHelp, stdout);
    return 0;
  }
  using namespace chaturanga;
  if (args.empty()) {
    for (const auto& name : config::builtin_rule_profiles()) {
      const RuleProfile& p = *config::rule_profile(name).take_or_throw(name);
      std::printf("%-22s %-9s %s\n", name.c_str(), std::string(game_name(p.game)).c_str(), p.source.c_str());
    }
    return 0;
  }
  std::string rules = "sittuyin", fen, moves;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--rules") rules = flag_value(args, i);
    else if (args[i] == "--fen") fen = flag_value(args, i);
    else if (args[i] == "--moves") moves = flag_value(args, i);
    else throw Error("unknown option '" + args[i] + "' (see --help)");
  }
  const RuleProfile& profile = *config::rule_profile(rules).take_or_throw("--rules");
  Position pos = fen.empty() ? Position::start(profile) : Position::from_fen(fen, profile).take_or_throw("--fen");
  std::vector<uint64_t> history;
  for (size_t start = 0; start < moves.size();) {
    size_t end = moves.find_first_of(", ", start);
    if (end == std::string::npos) end = moves.size();
    if (end > start) {
      const Move m = parse_move(moves.substr(start, end - start), pos).take_or_throw("--moves");
      history.push_back(pos.key());
      pos.do_move(m);
    }
    start = end + 1;
  }
  std::fputs(pos.pretty().c_str(), stdout);
  MoveList legal;
  generate_legal(pos, legal);
  std::printf("Legal moves (%d):", legal.size);
  for (Move m : legal) std::printf(" %s", to_uci(m, profile.game).c_str());
  const GameEnd end = adjudicate(pos, history);
  std::printf("\nResult: %s", std::string(to_string(end.outcome)).c_str());
  if (end.over()) std::printf(" (%s)", std::string(to_string(end.reason)).c_str());
  std::printf("\n");
  return 0;
}

}  // namespace sz::cli
