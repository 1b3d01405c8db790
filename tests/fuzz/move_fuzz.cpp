// libFuzzer target: the first byte picks a position from a fixed list (byte modulo the list
// size; '0' + i picks entry i), the rest is move text: one move, or several separated by
// spaces, played in turn while they parse. parse_move may refuse a move (with a message); a
// move it accepts must be legal, print back as the text, and leave a consistent position whose
// FEN round-trips.
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "games/chaturanga/movegen.h"
#include "games/chaturanga/notation.h"
#include "games/chaturanga/rule_profiles.h"

namespace {

using namespace sz::chaturanga;

// {profile, FEN}: placement, promotions, counting, Shatranj, and the other profiles' rules.
constexpr std::pair<const char*, const char*> kPositions[12] = {
    {"sittuyin", "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KSSFRRNNkssfrrnn] w - - 0 1"},
    {"sittuyin", "4k3/8/8/3P4/8/8/P7/4K3[] w - - 0 1"},
    {"sittuyin", "3k4/5n2/8/3P4/4n3/8/P7/3RK3[] w - - 0 1"},
    {"sittuyin", "8/8/8/8/8/3k4/3R4/6K1[] b - 32 5 40"},
    {"sittuyin", "r1s2k2/1n1s2f1/1n2pppp/pppp4/4PPPP/PPPP4/8/8[KSSFRRNNr] w - - 0 1"},
    {"shatranj", "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1"},
    {"shatranj", "n1n1k3/1P6/8/8/8/8/8/4K2R w - - 0 1"},
    {"shatranj", "8/8/8/R2n4/4k3/8/8/4K3 w - - 0 1"},
    {"sittuyin-plyyard", "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KSSFRRNNkssfrrnn] w - - 0 1"},
    {"sittuyin-traditional", "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KSSFRRNNkssfrrnn] w - - 0 1"},
    {"sittuyin-chessplayx", "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KSSFRRNNkssfrrnn] w - - 0 1"},
    {"sittuyin-youzai", "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KSSFRRNNkssfrrnn] w - - 0 1"},
};

[[noreturn]] void die(const char* what, const std::string& detail) {
  std::fprintf(stderr, "move_fuzz: %s: %s\n", what, detail.c_str());
  std::abort();
}

Position load(int index) {
  const auto& [name, fen] = kPositions[index];
  auto rules = sz::chaturanga::rule_profile(name);
  if (!rules.ok()) die("profile", rules.error());
  auto pos = Position::from_fen(fen, *rules.value());
  if (!pos.ok()) die("start position", pos.error());
  return std::move(pos).value();
}

// Plays `text` on `pos` if it parses; false when it does not.
bool play(Position& pos, std::string_view text) {
  const auto m = parse_move(text, pos);
  if (!m.ok()) {
    if (m.error().empty()) die("empty error message", std::string(text));
    return false;
  }
  MoveList legal;
  generate_legal(pos, legal);
  if (!legal.contains(*m)) die("parsed move is not legal", pos.fen() + " " + std::string(text));
  std::string spelled(text);
  if (spelled.size() == 5) spelled[4] = char(std::tolower(static_cast<unsigned char>(spelled[4])));
  if (to_uci(*m, pos.rules().game) != spelled) die("move prints differently", pos.fen() + " " + spelled);
  const std::string before = pos.fen();
  pos.do_move(*m);
  std::string why;
  if (!pos.pos_is_ok(&why)) die("pos_is_ok after a move", before + " " + spelled + ": " + why);
  const auto again = Position::from_fen(pos.fen(), pos.rules());
  if (!again.ok()) die("FEN after a move does not parse", before + " " + spelled + ": " + again.error());
  if (again->key() != pos.key()) die("key changes on re-parse", before + " " + spelled + " -> " + pos.fen());
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const auto positions = [] {
    std::vector<Position> all;
    for (int i = 0; i < 12; ++i) all.push_back(load(i));
    return all;
  }();
  if (size == 0) return 0;
  Position pos = positions[data[0] % positions.size()];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  for (size_t start = 0; start <= text.size();) {
    size_t end = text.find(' ', start);
    if (end == std::string_view::npos) end = text.size();
    if (!play(pos, text.substr(start, end - start))) break;
    start = end + 1;
  }
  return 0;
}
