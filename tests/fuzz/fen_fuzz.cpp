// libFuzzer target: the input bytes as a FEN under every built-in profile (sittuyin and
// shatranj first). A parse may fail, but only with a message. A FEN that parses must give a
// consistent position (pos_is_ok) whose fen() re-parses to the same key and prints the same,
// and whose legal moves play, print and re-parse consistently.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "games/chaturanga/adjudicate.h"
#include "games/chaturanga/movegen.h"
#include "games/chaturanga/notation.h"
#include "games/chaturanga/rule_profiles.h"

namespace {

using namespace sz::chaturanga;

[[noreturn]] void die(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fen_fuzz: %s: %s\n", what, detail.c_str());
  std::abort();
}

std::vector<const RuleProfile*> load_profiles() {
  std::vector<const RuleProfile*> profiles;
  for (const std::string& name : sz::chaturanga::builtin_rule_profiles()) {
    auto rules = sz::chaturanga::rule_profile(name);
    if (!rules.ok()) die("profile", rules.error());
    profiles.push_back(rules.value());
  }
  return profiles;
}

void check_moves(const Position& pos) {
  const Game game = pos.rules().game;
  MoveList list;
  generate_legal(pos, list);
  (void)adjudicate(pos, {});
  std::string why;
  for (Move m : list) {
    const std::string text = to_uci(m, game);
    const auto back = parse_move(text, pos);
    if (!back.ok() || !(*back == m)) die("legal move does not re-parse", pos.fen() + " " + text);
    Position child = pos;
    child.do_move(m);
    if (!child.pos_is_ok(&why)) die("pos_is_ok after a move", pos.fen() + " " + text + ": " + why);
  }
}

void check_fen(std::string_view text, const RuleProfile& rules) {
  const auto pos = Position::from_fen(text, rules);
  if (!pos.ok()) {
    if (pos.error().empty()) die("empty error message", rules.id);
    return;
  }
  std::string why;
  if (!pos->pos_is_ok(&why)) die("pos_is_ok", rules.id + " " + pos->fen() + ": " + why);
  const std::string fen = pos->fen();
  const auto again = Position::from_fen(fen, rules);
  if (!again.ok()) die("printed FEN does not re-parse", rules.id + " " + fen + ": " + again.error());
  if (again->key() != pos->key()) die("key changes on re-parse", rules.id + " " + fen);
  if (again->fen() != fen) die("FEN changes on re-parse", rules.id + " " + fen + " -> " + again->fen());
  check_moves(*pos);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<const RuleProfile*> profiles = load_profiles();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const RuleProfile* rules : profiles) check_fen(text, *rules);
  return 0;
}
