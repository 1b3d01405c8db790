// Untrusted text must be refused with a message that names the problem, never crash and never
// be accepted: a corpus of malformed FENs (hand-written and generated field by field), seeded
// mutations of the reference FENs, and malformed or illegal move strings on several positions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/rng.h"
#include "games/chaturanga/movegen.h"
#include "games/chaturanga/notation.h"
#include "games/chaturanga/rule_profiles.h"
#include "games/vector_files.h"
#include "test_paths.h"

namespace sz::chaturanga {
namespace {

using namespace std::string_literals;  // "..."s keeps embedded NULs

const RuleProfile& profile(std::string_view name) { return *chaturanga::rule_profile(name).value(); }

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& ch : out) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  return out;
}

// The input as a readable, bounded string for failure messages.
std::string printable(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size() && i < 160; ++i) {
    const unsigned char ch = static_cast<unsigned char>(s[i]);
    if (std::isprint(ch)) {
      out += char(ch);
    } else {
      static const char* kHex = "0123456789abcdef";
      out += "\\x";
      out += kHex[ch >> 4];
      out += kHex[ch & 15];
    }
  }
  if (s.size() > 160) out += "... (" + std::to_string(s.size()) + " bytes)";
  return out;
}

struct BadFen {
  std::string profile;  // "sittuyin" or "shatranj"
  std::string fen;
  std::string names;  // a word the error message must contain (case-insensitive)
};

void expect_rejected(const BadFen& c) {
  const auto pos = Position::from_fen(c.fen, profile(c.profile));
  if (pos.ok()) {
    ADD_FAILURE() << c.profile << " accepted '" << printable(c.fen) << "' as " << pos->fen()
                  << " (expected an error naming '" << c.names << "')";
    return;
  }
  EXPECT_FALSE(pos.error().empty()) << printable(c.fen);
  EXPECT_NE(lower(pos.error()).find(lower(c.names)), std::string::npos)
      << c.profile << " '" << printable(c.fen) << "': message '" << printable(pos.error()) << "' does not name '"
      << c.names << "'";
}

// ---------------------------------------------------------------------------------------------
// Hand-written cases: one per kind of mistake.

std::vector<BadFen> hand_written_fens() {
  const std::string end = "4k3/8/8/3P4/8/8/P7/4K3[] w - - 0 1";
  const std::string shatranj_start = "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1";
  return {
      // Board.
      {"sittuyin", "8/8/4pppp/pppm4/4PPPP/PPPP4/8/8[KSSFRRNNkssfrrnn] w - - 0 1", "letter 'm'"},
      {"sittuyin", "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KSSFRRNNkssfrrnm] w - - 0 1", "hand"},
      {"sittuyin", "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1", "letter"},
      {"shatranj", "4k3/8/8/8/8/8/3F4/4K3 w - - 0 1", "letter 'F'"},
      {"shatranj", "4k3/8/8/8/8/8/3S4/4K3 w - - 0 1", "letter 'S'"},
      {"sittuyin", "4k3/8/8/3P4/8/8/4K3[] w - - 0 1", "7 ranks"},
      {"sittuyin", "4k3/8/8/3P4/8/8/P7/4K3/8[] w - - 0 1", "9 ranks"},
      {"shatranj", "rnbkqbnr/pppppppp/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1", "7 ranks"},
      {"sittuyin", "4k4/8/8/3P4/8/8/P7/4K3[] w - - 0 1", "rank 8"},
      {"sittuyin", "4k3/8/8/3P4/8/8/P7/4K2[] w - - 0 1", "rank 1"},
      {"shatranj", "rnbkqbnrp/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1", "rank 8"},
      {"sittuyin", "4k3/8/8/9/8/8/P7/4K3[] w - - 0 1", "rank 5"},
      {"sittuyin", "4k3/8/8/08/8/8/P7/4K3[] w - - 0 1", "rank 5"},
      {"sittuyin", "4k3/8/8/3P4/8/8/P7/4K3//[] w - - 0 1", "ranks"},
      // Side, castling, en passant / counting, clocks.
      {"sittuyin", "4k3/8/8/3P4/8/8/P7/4K3[] x - - 0 1", "side"},
      {"shatranj", "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR W - - 0 1", "side"},
      {"sittuyin", "4k3/8/8/3P4/8/8/P7/4K3[] w KQ - 0 1", "castling"},
      {"shatranj", "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w KQkq - 0 1", "castling"},
      {"sittuyin", "4k3/8/8/3P4/8/8/P7/4K3[] w - - x 1", "half-move"},
      {"sittuyin", "4k3/8/8/3P4/8/8/P7/4K3[] w - - -1 1", "half-move"},
      {"sittuyin", "4k3/8/8/3P4/8/8/P7/4K3[] w - - 0 one", "full-move"},
      {"shatranj", "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 -3", "full-move"},
      {"shatranj", "4k3/8/8/3R4/8/8/8/4K3 b - 32 0 1", "en-passant"},
      {"shatranj", "rnbkqbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBKQBNR b - e3 0 1", "en-passant"},
      {"sittuyin", "8/8/8/8/8/3k4/3R4/6K1[] b - 0 5 40", "counting"},
      {"sittuyin", "8/8/8/8/8/3k4/3R4/6K1[] b - e3 5 40", "counting"},
      // Hands.
      {"sittuyin", "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", "hand: bad letter 'P'"},
      {"sittuyin", "4k3/8/8/8/8/8/8/4K3[p] w - - 0 1", "hand: bad letter 'p'"},
      {"sittuyin", "4k3/8/8/8/8/8/8/4K3[R w - - 0 1", "hand"},
      {"sittuyin", "4k3/8/8/8/8/8/8/4K3[R]] w - - 0 1", "hand"},
      {"sittuyin", "4k3/8/8/8/8/8/8/4K3[R][r] w - - 0 1", "hand"},
      {"shatranj", shatranj_start.substr(0, 43) + "[] w - - 0 1", "hand"},
      {"shatranj", "4k3/8/8/3R4/8/8/8/4K3[N] b - - 0 1", "hand"},
      // Material.
      {"sittuyin", "4k3/8/8/8/8/8/8/RR2K3[R] w - - 0 1", "3 of 'R'"},
      {"sittuyin", "rrr1k3/8/8/8/8/8/8/4K3[] w - - 0 1", "3 of 'R'"},
      {"sittuyin", "4k3/8/8/8/8/8/8/4K3[rrr] w - - 0 1", "3 of 'R'"},
      {"sittuyin", "4k3/8/8/8/8/8/8/4K3[K] w - - 0 1", "king"},
      {"sittuyin", "4k3/8/8/8/8/8/8/K3K3[] w - - 0 1", "king"},
      {"sittuyin", "4k3/8/8/8/8/8/8/8[] w - - 0 1", "king"},
      {"sittuyin", "8/8/8/8/8/8/8/8[] w - - 0 1", "king"},
      {"sittuyin", "8/8/8/8/8/8/8/8[Kkk] w - - 0 1", "king"},
      {"shatranj", "rnbkkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1", "king"},
      {"shatranj", "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1", "king"},
      // Checks and pawns.
      {"sittuyin", "4k3/8/8/8/8/8/8/4R1K1[] w - - 0 1", "not to move is in check"},
      {"shatranj", "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "not to move is in check"},
      {"sittuyin", "8/8/8/3kK3/8/8/8/8[] b - - 0 1", "not to move is in check"},
      {"shatranj", "3kP3/8/8/8/8/8/8/3K4 w - - 0 1", "pawn"},
      {"shatranj", "3k4/8/8/8/8/8/8/3Kp3 b - - 0 1", "pawn"},
      // Whole strings.
      {"sittuyin", "", "board"},
      {"shatranj", "", "board"},
      {"sittuyin", "     ", "board"},
      {"sittuyin", "4k3/8/8/3P4/8/8/P7/4K3[]", "side"},
      {"sittuyin", end + " x", "fields"},
      {"sittuyin", end + "x", "full-move"},
      {"shatranj", shatranj_start + " 0 0 0 0", "fields"},
      {"sittuyin", end + " ; rest of the line", "fields"},
      // Embedded NULs and UTF-8.
      {"sittuyin", "4k3/8/8/3P4/8/8/P7/4K3[] \0 - - 0 1"s, "side"},
      {"sittuyin", "4k3/8/8/3\0P4/8/8/P7/4K3[] w - - 0 1"s, "rank 5"},
      {"sittuyin", "4k3/8/8/3P4/8/8/P7/4K3[]\0 w - - 0 1"s, "hand"},
      {"sittuyin", "4k3/8/8/3P4/8/8/P7/4K3[] w - - 0 1\0"s, "full-move"},
      {"shatranj", "\0"s, "side"},
      {"sittuyin", "4k3/8/8/3P4/8/8/P7/4K3[\0] w - - 0 1"s, "hand"},
      {"sittuyin", "4k3/8/8/3\u265F4/8/8/P7/4K3[] w - - 0 1", "rank 5"},  // a chess pawn glyph
      {"sittuyin", "4k3/8/8/3P4/8/8/P7/4K3[\u265C] w - - 0 1", "hand"},
      {"sittuyin", "4k3/8/8/3P4/8/8/P7/4K3[] \uFF57 - - 0 1", "side"},       // full-width w
      {"sittuyin", "4k3/8/8/3P4/8/8/P7/4K3[] w - - 0 \uFF11", "full-move"},  // full-width 1
      {"shatranj", "4k3/8/8/3\u00E93/8/8/8/4K3 w - - 0 1", "rank 5"},        // é
      {"shatranj", "4k3/8/8/3\3774/8/8/8/4K3 w - - 0 1", "rank 5"},          // 0xFF: not UTF-8 at all
  };
}

TEST(MalformedFen, HandWrittenCasesAreRejected) {
  for (const BadFen& c : hand_written_fens()) expect_rejected(c);
}

// `[-]`: the empty pocket as Fairy-Stockfish and cutechess-cli write it, read as `[]`.
TEST(Fen, TheEmptyPocketDashReadsAsAnEmptyHand) {
  const auto dash = Position::from_fen("4k3/8/8/3n4/8/8/8/3RK3[-] b - 32 0 1", profile("sittuyin"));
  const auto empty = Position::from_fen("4k3/8/8/3n4/8/8/8/3RK3[] b - 32 0 1", profile("sittuyin"));
  ASSERT_TRUE(dash) << dash.error();
  ASSERT_TRUE(empty) << empty.error();
  EXPECT_EQ(dash->fen(), empty->fen());
  EXPECT_FALSE(Position::from_fen("4k3/8/8/3n4/8/8/8/3RK3[--] b - 32 0 1", profile("sittuyin")));
}

TEST(MalformedFen, VeryLongStringsAreRejected) {
  std::string ranks;
  for (int i = 0; i < 50000; ++i) ranks += "8/";
  expect_rejected({"sittuyin", ranks + "8[] w - - 0 1", "ranks"});
  expect_rejected({"sittuyin", "4k3/8/8/8/8/8/8/4K3[" + std::string(1000, 'N') + "] w - - 0 1", "hand"});
  expect_rejected({"sittuyin", "4k3/8/8/8/8/8/8/4K3[" + std::string(100000, 'n') + "] w - - 0 1", "hand"});
  expect_rejected({"shatranj", "4k3/8/8/3R4/8/8/8/4K3 b - - " + std::string(1000, '1') + " 1", "half-move"});
  expect_rejected({"shatranj", "4k3/8/8/3R4/8/8/8/4K3 b - - 0 " + std::string(1000, '9'), "full-move"});
  expect_rejected({"sittuyin", "4k3/8/8/8/8/8/8/4K3[] " + std::string(10000, 'w') + " - - 0 1", "side"});
  expect_rejected({"sittuyin", "4k3/8/8/8/8/8/8/4K3[] w - - 0 1" + std::string(100000, ' ') + "x", "fields"});
  expect_rejected({"shatranj", std::string(200000, 'p'), "side"});
  expect_rejected({"shatranj", std::string(200000, '\0'), "side"});
  expect_rejected({"shatranj", "4k3/" + std::string(100000, '1') + "/8/8/8/8/8/4K3 w - - 0 1", "rank 7"});
}

// ---------------------------------------------------------------------------------------------
// Generated cases: every field of a valid FEN replaced by bad tokens, every stray character in
// the board and in the hand, every wrong rank count and width, every kind of man one too many.

struct Base {
  const char* profile;
  const char* board;  // including the hand for Sittuyin
  const char* ep;     // a valid en-passant / counting field
};
constexpr Base kBases[] = {
    {"sittuyin", "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KSSFRRNNkssfrrnn]", "-"},
    {"sittuyin", "8/8/8/8/8/2k5/3R4/6K1[]", "32"},
    {"shatranj", "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR", "-"},
};

std::string join(const std::vector<std::string>& fields) {
  std::string s;
  for (const auto& f : fields) s += (s.empty() ? "" : " ") + f;
  return s;
}

void add_field_cases(std::vector<BadFen>& out) {
  const std::vector<std::string> sides = {"x", "W", "B", "white", "ww", "bw", "-", "0", "1", "w-", "\x01"};
  const std::vector<std::string> castlings = {"KQ", "K", "q", "KQkq", "a", "0", "--", "w", "Kk-"};
  const std::vector<std::string> numbers = {
      "-1", "x", "1.5", "+3", "0x1", "1e2", "--", "-", "9999999", "12345678901234567890", "1 2 3"};
  const std::vector<std::string> counting = {"0", "-1", "e3", "x", "32x", "+5", "1e3", "99999999", "--", "0x20", "00"};
  const std::vector<std::string> en_passant = {"e3", "a6", "32", "1", "0", "--", "x"};
  for (const Base& b : kBases) {
    const std::vector<std::string> valid = {b.board, "w", "-", b.ep, "0", "1"};
    auto with = [&](size_t field, const std::string& token, const std::string& names) {
      auto fields = valid;
      fields[field] = token;
      out.push_back({b.profile, join(fields), names});
    };
    for (const auto& t : sides) with(1, t, "side");
    for (const auto& t : castlings) with(2, t, "castling");
    const bool shatranj = std::string_view(b.profile) == "shatranj";
    for (const auto& t : shatranj ? en_passant : counting) with(3, t, shatranj ? "en-passant" : "counting");
    for (const auto& t : numbers)
      if (t != "1 2 3") with(4, t, "half-move");
    for (const auto& t : numbers) with(5, t, t == "1 2 3" ? "fields" : "full-move");
  }
}

// Every printable ASCII character (and a few control characters) that may not stand in a rank.
std::vector<char> stray_characters(Game game, bool in_hand) {
  std::vector<char> chars = {'\t', '\n', '\r', '\x01', '\x7f'};
  for (int ch = 0x21; ch < 0x7f; ++ch) {
    if (ch == '/' || ch == '[' || ch == ']') continue;  // structure, tested on their own
    if (!in_hand && ch >= '1' && ch <= '8') continue;
    const PieceType t = piece_from_letter(game, char(ch));
    if (t != NoPieceType && !(in_hand && t == Pawn)) continue;
    chars.push_back(char(ch));
  }
  return chars;
}

void add_character_cases(std::vector<BadFen>& out) {
  for (const auto& [profile_name, game] :
       {std::pair{"sittuyin", Game::Sittuyin}, std::pair{"shatranj", Game::Shatranj}}) {
    const std::string hand = game == Game::Sittuyin ? "[]" : "";
    for (char ch : stray_characters(game, /*in_hand=*/false))
      out.push_back({profile_name, "4k3/8/8/" + std::string(1, ch) + "7/8/8/8/4K3" + hand + " w - - 0 1", "rank 5"});
  }
  for (char ch : stray_characters(Game::Sittuyin, /*in_hand=*/true))
    out.push_back({"sittuyin", "4k3/8/8/8/8/8/8/4K3[R" + std::string(1, ch) + "] w - - 0 1", "hand"});
}

void add_shape_cases(std::vector<BadFen>& out) {
  for (int n = 1; n <= 12; ++n) {
    if (n == 8) continue;
    std::string board = "4k3";
    for (int i = 1; i < n; ++i) board += i == n - 1 ? "/4K3" : "/8";
    out.push_back({"sittuyin", board + "[] w - - 0 1", std::to_string(n) + " ranks"});
    out.push_back({"shatranj", board + " w - - 0 1", std::to_string(n) + " ranks"});
  }
  // A rank of every wrong width, at every height.
  const std::vector<std::string> widths = {"",          "1",         "7",   "44p",     "81", "9",
                                           "pppppppp1", "ppppppppp", "4k4", "1111111", "k7k"};
  for (int rank = 8; rank >= 1; --rank)
    for (const auto& w : widths) {
      std::string board;
      for (int r = 8; r >= 1; --r) {
        const std::string normal = r == 8 ? "4k3" : r == 1 ? "4K3" : "8";
        board += (r == rank ? w : normal) + (r > 1 ? "/" : "");
      }
      const std::string names = "rank " + std::to_string(rank);
      out.push_back({"sittuyin", board + "[] w - - 0 1", names});
      out.push_back({"shatranj", board + " w - - 0 1", names});
    }
}

void add_material_cases(std::vector<BadFen>& out) {
  const std::vector<std::pair<std::string, std::string>> sittuyin = {
      {"4k3/8/8/8/8/8/8/4K3[NNN]", "3 of 'N'"},
      {"4k3/8/8/8/8/8/8/NN2K3[N]", "3 of 'N'"},
      {"4k3/8/8/8/8/8/8/4K3[SSS]", "3 of 'S'"},
      {"4k3/8/8/8/8/8/8/4K3[sss]", "3 of 'S'"},
      {"4k3/8/8/8/8/8/8/R3K2R[R]", "3 of 'R'"},
      {"4k3/8/8/8/PPPPPPPP/8/8/4K3[FF]", "2 of 'F'"},   // no pawn has promoted
      {"4k3/8/8/8/8/8/FFFFFFFF/4K3[FF]", "10 of 'F'"},  // eight promoted + the original + 1
      {"4k3/8/8/8/1PPPPPPP/8/F7/4K3[FF]", "3 of 'F'"},  // one promoted + the original + 1
      {"4k3/pppppppp/p7/8/8/8/8/4K3[]", "9 of 'P'"},
      {"4k3/8/8/8/PPPPPPPP/P7/8/4K3[]", "9 of 'P'"},
      {"4k3/8/8/8/8/8/8/8[KK]", "king"},
      {"8/8/8/8/8/8/8/4K3[]", "king"},
  };
  for (const auto& [board, names] : sittuyin) out.push_back({"sittuyin", board + " w - - 0 1", names});
  const std::vector<std::pair<std::string, std::string>> shatranj = {
      {"3k4/8/8/8/8/8/8/NNNK4", "3 of 'N'"},
      {"3k4/8/8/8/8/8/8/BBBK4", "3 of 'B'"},
      {"3k4/8/8/8/8/8/8/RRRK4", "3 of 'R'"},
      {"rrrk4/8/8/8/8/8/8/3K4", "3 of 'R'"},
      {"3k4/pppppppp/8/8/8/8/PPPPPPPP/QQ1K4", "2 of 'Q'"},
      {"3k4/pppppppp/p7/8/8/8/8/3K4", "9 of 'P'"},
      {"3k4/8/8/8/8/8/8/8", "king"},
      {"3k4/8/8/8/8/8/8/2KK4", "king"},
  };
  for (const auto& [board, names] : shatranj) out.push_back({"shatranj", board + " w - - 0 1", names});
}

// The side not to move in check, by every kind of man, in both games and for both colours.
void add_check_cases(std::vector<BadFen>& out) {
  const std::vector<std::string> sittuyin_white = {"4k3/8/8/8/8/8/8/4R1K1", "4k3/8/3N4/8/8/8/8/6K1",
                                                   "4k3/3S4/8/8/8/8/8/6K1", "4k3/3F4/8/8/8/8/8/6K1",
                                                   "4k3/3P4/8/8/8/8/8/6K1", "8/8/8/3kK3/8/8/8/8"};
  const std::vector<std::string> shatranj_white = {"4k3/8/8/8/8/8/8/4R1K1", "4k3/8/3N4/8/8/8/8/6K1",
                                                   "4k3/8/2B5/8/8/8/8/6K1", "4k3/3Q4/8/8/8/8/8/6K1",
                                                   "4k3/3P4/8/8/8/8/8/6K1", "8/8/8/3kK3/8/8/8/8"};
  // Black's mirror image: swap the colours and turn the board upside down.
  auto mirror = [](const std::string& board) {
    std::vector<std::string> ranks;
    for (size_t start = 0;;) {
      const size_t slash = board.find('/', start);
      ranks.push_back(board.substr(start, slash - start));
      if (slash == std::string::npos) break;
      start = slash + 1;
    }
    std::string mirrored;
    for (auto it = ranks.rbegin(); it != ranks.rend(); ++it) {
      std::string r = *it;
      for (char& ch : r)
        if (std::isalpha(static_cast<unsigned char>(ch)))
          ch = std::isupper(static_cast<unsigned char>(ch)) ? char(std::tolower(ch)) : char(std::toupper(ch));
      mirrored += (mirrored.empty() ? "" : "/") + r;
    }
    return mirrored;
  };
  for (const auto& b : sittuyin_white) {
    out.push_back({"sittuyin", b + "[] w - - 0 1", "not to move is in check"});
    out.push_back({"sittuyin", mirror(b) + "[] b - - 0 1", "not to move is in check"});
  }
  for (const auto& b : shatranj_white) {
    out.push_back({"shatranj", b + " w - - 0 1", "not to move is in check"});
    out.push_back({"shatranj", mirror(b) + " b - - 0 1", "not to move is in check"});
  }
  // Shatranj pawns on their first or last rank (no promotion left to make, or never moved).
  for (const char* board :
       {"3kP3/8/8/8/8/8/8/3K4", "3kp3/8/8/8/8/8/8/3K4", "3k4/8/8/8/8/8/8/3KP3", "3k4/8/8/8/8/8/8/3Kp3"})
    out.push_back({"shatranj", std::string(board) + " w - - 0 1", "pawn"});
}

std::vector<BadFen> generated_fens() {
  std::vector<BadFen> out;
  add_field_cases(out);
  add_character_cases(out);
  add_shape_cases(out);
  add_material_cases(out);
  add_check_cases(out);
  return out;
}

TEST(MalformedFen, GeneratedCasesAreRejected) {
  const auto cases = generated_fens();
  EXPECT_GE(cases.size() + hand_written_fens().size(), 500u);
  for (const BadFen& c : cases) expect_rejected(c);
}

TEST(MalformedFen, BasesOfTheGeneratedCasesAreValid) {
  for (const Base& b : kBases) {
    const std::string fen = join({b.board, "w", "-", b.ep, "0", "1"});
    const auto pos = Position::from_fen(fen, profile(b.profile));
    EXPECT_TRUE(pos.ok()) << fen << ": " << pos.error();
  }
}

// ---------------------------------------------------------------------------------------------
// Seeded mutations of the reference FENs. A mutation may be valid; then it must round-trip and
// its moves must be consistent. Otherwise the error must say something.

std::string mutate(std::string fen, Rng& rng) {
  static const std::string kAlphabet = "/12345678909pnsfrkbqPNSFRKBQ[]- wb-x@#\t"s + '\0' + "\xff\xc3";
  const int edits = 1 + int(rng.below(3));
  for (int e = 0; e < edits && !fen.empty(); ++e) {
    const size_t at = rng.below(uint32_t(fen.size()));
    const char ch = kAlphabet[rng.below(uint32_t(kAlphabet.size()))];
    switch (rng.below(4)) {
      case 0:
        fen.erase(at, 1);
        break;
      case 1:
        fen.insert(at, 1, fen[at]);
        break;
      case 2:
        fen[at] = ch;
        break;
      default:
        fen.insert(at, 1, ch);
        break;
    }
  }
  return fen;
}

// Checks a position that parsed: consistency, FEN round trip, and its moves.
void check_accepted(const Position& pos, const std::string& input) {
  const RuleProfile& rules = pos.rules();
  std::string why;
  ASSERT_TRUE(pos.pos_is_ok(&why)) << printable(input) << ": " << why;
  const auto again = Position::from_fen(pos.fen(), rules);
  ASSERT_TRUE(again.ok()) << printable(input) << " printed as " << pos.fen() << ": " << again.error();
  EXPECT_EQ(again->key(), pos.key()) << printable(input) << " printed as " << pos.fen();
  EXPECT_EQ(again->fen(), pos.fen()) << printable(input);
  MoveList list;
  generate_legal(pos, list);
  for (Move m : list) {
    const auto back = parse_move(to_uci(m, rules.game), pos);
    ASSERT_TRUE(back.ok()) << printable(input) << " " << to_uci(m, rules.game) << ": " << back.error();
    EXPECT_EQ(*back, m);
    Position child = pos;
    child.do_move(m);
    ASSERT_TRUE(child.pos_is_ok(&why)) << printable(input) << " after " << to_uci(m, rules.game) << ": " << why;
  }
}

TEST(MalformedFen, SeededMutationsOfReferenceFens) {
  Rng rng(/*seed=*/20240601);
  int accepted = 0, rejected = 0;
  for (const char* file : {"perft-sittuyin.txt", "perft-shatranj.txt"}) {
    const auto lines = test::read_vector_file(file);
    ASSERT_FALSE(lines.empty()) << test::testdata(file);
    for (const auto& line : lines) {
      const RuleProfile& rules = profile(line.fields.at(0));
      for (int i = 0; i < 24; ++i) {
        const std::string input = mutate(line.fields.at(1), rng);
        const auto pos = Position::from_fen(input, rules);
        if (pos.ok()) {
          ++accepted;
          check_accepted(*pos, input);
        } else {
          ++rejected;
          EXPECT_FALSE(pos.error().empty()) << printable(input);
        }
      }
    }
  }
  EXPECT_GT(accepted, 100);
  EXPECT_GT(rejected, 1000);
}

// Each reference FEN under every built-in profile: the other game's FENs mostly fail (letters,
// brackets), never crash; whatever parses is consistent.
TEST(MalformedFen, ReferenceFensUnderEveryProfile) {
  for (const char* file : {"perft-sittuyin.txt", "perft-shatranj.txt"})
    for (const auto& line : test::read_vector_file(file))
      for (const std::string& name : chaturanga::builtin_rule_profiles()) {
        const RuleProfile& rules = profile(name);
        const std::string& fen = line.fields.at(1);
        const auto pos = Position::from_fen(fen, rules);
        if (rules.game == Game::Shatranj && fen.find('[') != std::string::npos) {
          EXPECT_FALSE(pos.ok()) << name << " accepted " << fen;
        }
        if (pos.ok()) {
          check_accepted(*pos, name + ": " + fen);
        } else {
          EXPECT_FALSE(pos.error().empty());
        }
      }
}

// ---------------------------------------------------------------------------------------------
// Moves.

constexpr std::pair<const char*, const char*> kMovePositions[] = {
    {"sittuyin", "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KSSFRRNNkssfrrnn] w - - 0 1"},
    {"sittuyin", "8/8/4pppp/pppp4/4PPPP/PPPP4/8/3K4[SSFRRNNkssfrrnn] b - - 1 1"},
    {"sittuyin", "4k3/8/8/3P4/8/8/P7/4K3[] w - - 0 1"},
    {"sittuyin", "3k4/5n2/8/3P4/4n3/8/P7/3RK3[] w - - 0 1"},
    {"sittuyin", "8/8/8/8/8/3k4/3R4/6K1[] b - 32 5 40"},
    {"shatranj", "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1"},
    {"shatranj", "n1n1k3/1P6/8/8/8/8/8/4K2R w - - 0 1"},
    {"shatranj", "4k3/8/8/3R4/8/8/8/3NK3 b - - 0 1"},  // bare king: no legal move
};

void expect_move_rejected(std::string_view text, const Position& pos) {
  const auto m = parse_move(text, pos);
  if (m.ok()) {
    ADD_FAILURE() << "'" << printable(text) << "' accepted as " << to_uci(*m, pos.rules().game) << " in " << pos.fen();
    return;
  }
  EXPECT_NE(lower(m.error()).find("move"), std::string::npos) << printable(m.error());
}

TEST(MalformedMove, MalformedStringsAreRejectedEverywhere) {
  // clang-format off
  const std::vector<std::string> bad = {
      "", "e", "e2", "e2e", "e2e9", "e9e2", "i2i3", "e0e1", "a1a1x", "a1a1", "Z@a1", "R@a9",
      "R@i1", "R@", "@a1", "R@a1x", "R@a1f", "r@a1", "P@a1", "p@e3", "@@a1", "R@@1", "0000",
      "(none)", "e2-e3", "e2xe3", "E2E3", " e2e3", "e2e3 ", "e2e3\0"s, "\0\0\0\0"s, "e2\0e3"s,
      "\u00E92e3", "\u2654@a1", "e2e3e4", "e2e3q1", "d5d5q", "d5d5n", "b7b8n", "b7b8r", "b7b8k",
      "b7b8p", "d5d5", "d5d6f", "d5c6q", "-", "--", "R@-1", "K@h9", "a1h8h", "h8a1ff",
      std::string(1000, 'e'), std::string(4, '\xff'), std::string(5, '\xff'),
  };
  // clang-format on
  for (const auto& [name, fen] : kMovePositions) {
    const auto pos = Position::from_fen(fen, profile(name));
    ASSERT_TRUE(pos.ok()) << fen << ": " << pos.error();
    for (const auto& text : bad) expect_move_rejected(text, *pos);
  }
}

TEST(MalformedMove, LegalLookingIllegalMovesAreRejected) {
  const std::vector<std::pair<int, std::vector<std::string>>> cases = {
      // Placement: must drop; rooks only on the back rank; only inside the zone; only on empty
      // squares.
      {0, {"e4e5", "a3a4", "R@a2", "R@a3", "K@e4", "F@a3", "N@e8", "K@e6", "P@e2", "B@e2", "Q@e2"}},
      // Black places on ranks 6-8 only, with the upper-case letter.
      {1, {"K@e1", "S@a1", "k@e8", "R@e7", "d1d2"}},
      // Promotion: only to a met, only in place or a diagonal step; no plain diagonal pawn move.
      {2, {"d5d6f", "d5c6", "d5e6", "d5d4f", "a2a4", "a2b3", "e1e3", "d5d5q", "e1d1f", "a2a2x"}},
      // Pinned, attacked, and discovered-check promotions.
      {3, {"d5e6f", "d5c6f", "d1d8", "e1f2f", "a2a2f"}},
      {4, {"d3c2", "d3e2", "d3d4d", "R@a1", "d3d1"}},
      // Shatranj: no double step, no castling, fers moves one diagonal step.
      {5, {"e2e4", "d1d2", "b1d2", "d1f1", "e1c3", "e1e3", "c1a3q", "f1e2"}},
      {6, {"b7b8", "b7a8", "b7c8", "b7b8f", "b7b8n", "b7b8r", "e1g1", "h1h8q"}},
      {7, {"e8d8", "e8e7", "e8f7", "e8d7"}},
  };
  for (const auto& [index, moves] : cases) {
    const auto& [name, fen] = kMovePositions[index];
    const auto pos = Position::from_fen(fen, profile(name));
    ASSERT_TRUE(pos.ok()) << fen << ": " << pos.error();
    for (const auto& text : moves) expect_move_rejected(text, *pos);
  }
}

// Every string of the move grammar (all from-to pairs with and without a promotion letter, all
// drops of every letter) parses exactly when it spells a legal move, and then to that move.
TEST(MalformedMove, EveryGrammaticalStringParsesIffLegal) {
  for (const auto& [name, fen] : kMovePositions) {
    SCOPED_TRACE(fen);
    const RuleProfile& rules = profile(name);
    const auto pos = Position::from_fen(fen, rules);
    ASSERT_TRUE(pos.ok()) << pos.error();
    MoveList list;
    generate_legal(*pos, list);
    std::set<std::string> legal;
    for (Move m : list) {
      const std::string text = to_uci(m, rules.game);
      legal.insert(text);
      const auto back = parse_move(text, *pos);
      ASSERT_TRUE(back.ok()) << text << ": " << back.error();
      EXPECT_EQ(*back, m) << text;
    }
    std::vector<std::string> grammar;
    for (int from = 0; from < 64; ++from)
      for (int to = 0; to < 64; ++to) {
        const std::string base = square_name(from) + square_name(to);
        grammar.push_back(base);
        for (char suffix : {'f', 'q', 'x', 'F'}) grammar.push_back(base + suffix);
      }
    for (char letter = 'A'; letter <= 'z'; ++letter)
      if (std::isalpha(static_cast<unsigned char>(letter)))
        for (int sq = 0; sq < 64; ++sq) grammar.push_back(std::string(1, letter) + "@" + square_name(sq));
    for (const std::string& text : grammar) {
      std::string canonical = text;
      if (canonical.size() == 5) canonical[4] = char(std::tolower(static_cast<unsigned char>(canonical[4])));
      const auto m = parse_move(text, *pos);
      if (legal.count(canonical)) {
        ASSERT_TRUE(m.ok()) << text << ": " << m.error();
        EXPECT_EQ(to_uci(*m, rules.game), canonical);
      } else {
        EXPECT_FALSE(m.ok()) << text << " accepted";
      }
    }
  }
}

}  // namespace
}  // namespace sz::chaturanga
