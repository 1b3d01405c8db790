#include "games/chaturanga/notation.h"

#include <cctype>

#include "core/shown_text.h"
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

namespace {

// File, rank or both of `m`'s origin, when another man of its kind could also go to its target.
std::string disambiguation(const Position& pos, Move m, const MoveList& legal) {
  bool ambiguous = false, same_file = false, same_rank = false;
  for (Move other : legal) {
    if (other == m || other.is_drop() || other.is_promotion() || other.to() != m.to() ||
        pos.piece_on(other.from()) != pos.piece_on(m.from()))
      continue;
    ambiguous = true;
    same_file |= board8::file_of(other.from()) == board8::file_of(m.from());
    same_rank |= board8::rank_of(other.from()) == board8::rank_of(m.from());
  }
  const std::string from = square_name(m.from());
  if (!ambiguous) return "";
  if (!same_file) return from.substr(0, 1);
  if (!same_rank) return from.substr(1, 1);
  return from;
}

std::string check_suffix(const Position& pos, Move m) {
  Position next = pos;
  next.do_move(m);
  if (!next.in_check()) return "";
  MoveList replies;
  generate_legal(next, replies);
  return replies.size ? "+" : "#";
}

}  // namespace

std::string to_san(const Position& pos, Move m) {
  const Game game = pos.rules().game;
  if (m.is_drop()) return to_uci(m, game) + check_suffix(pos, m);
  std::string san;
  const PieceType t = type_of(pos.piece_on(m.from()));
  if (m.is_promotion() && game == Game::Sittuyin) {
    san = (m.from() == m.to() ? "" : square_name(m.from())) + square_name(m.to()) + "=F";
  } else if (t == Pawn) {
    if (pos.is_capture(m)) san = square_name(m.from()).substr(0, 1) + "x";
    san += square_name(m.to());
    if (m.is_promotion()) san += "=Q";
  } else {
    MoveList legal;
    generate_legal(pos, legal);
    san = std::string(1, piece_letter(game, t)) + disambiguation(pos, m, legal) +
          (pos.is_capture(m) ? "x" : "") + square_name(m.to());
  }
  return san + check_suffix(pos, m);
}

Result<Move> parse_move(std::string_view text, const Position& pos) {
  if (text.size() != 4 && text.size() != 5) return fail("malformed move '" + shown_text(text) + "'");
  MoveList legal;
  generate_legal(pos, legal);
  std::string wanted(text);
  if (wanted.size() == 5) wanted[4] = char(std::tolower(static_cast<unsigned char>(wanted[4])));
  for (Move m : legal)
    if (to_uci(m, pos.rules().game) == wanted) return m;
  return fail("illegal move '" + shown_text(text) + "' in " + pos.fen());
}

}  // namespace sz::chaturanga
