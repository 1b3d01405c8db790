#include "games/chaturanga/notation.h"

#include <cctype>

#include "games/chaturanga/movegen.h"

namespace sz::chaturanga {

namespace {
// Indexed by PieceType.
constexpr char kSittuyinLetters[kPieceTypes + 1] = " PNSF\0RK";
constexpr char kShatranjLetters[kPieceTypes + 1] = " PN\0QBRK";
}  // namespace

char piece_letter(Game game, PieceType t) {
  return (game == Game::Sittuyin ? kSittuyinLetters : kShatranjLetters)[t];
}

PieceType piece_from_letter(Game game, char letter) {
  if (!std::isalpha(static_cast<unsigned char>(letter))) return NoPieceType;
  const char upper = char(std::toupper(static_cast<unsigned char>(letter)));
  for (int t = Pawn; t <= King; ++t)
    if (upper == piece_letter(game, PieceType(t))) return PieceType(t);
  return NoPieceType;
}

std::string square_name(int sq) {
  return {char('a' + board8::file_of(sq)), char('1' + board8::rank_of(sq))};
}

std::string to_uci(Move m, Game game) {
  if (m.is_drop()) return std::string(1, piece_letter(game, m.dropped())) + "@" + square_name(m.to());
  std::string s = square_name(m.from()) + square_name(m.to());
  if (m.is_promotion()) s += game == Game::Sittuyin ? 'f' : 'q';
  return s;
}

Result<Move> parse_move(std::string_view text, const Position& pos) {
  if (text.size() != 4 && text.size() != 5) return fail("malformed move '" + std::string(text) + "'");
  MoveList legal;
  generate_legal(pos, legal);
  std::string wanted(text);
  if (wanted.size() == 5) wanted[4] = char(std::tolower(static_cast<unsigned char>(wanted[4])));
  for (Move m : legal)
    if (to_uci(m, pos.rules().game) == wanted) return m;
  return fail("illegal move '" + std::string(text) + "' in " + pos.fen());
}

}  // namespace sz::chaturanga
