// FEN reading and writing in Fairy-Stockfish's dialect (position.cpp:set and fen): the hand in
// brackets after the board (Sittuyin only), and during a count the counting limit in the
// en-passant slot and the counted plies in the half-move slot. Unlike Fairy-Stockfish, which
// skips unknown letters, the parser rejects anything it does not understand and names it.
#include <algorithm>
#include <cctype>
#include <optional>
#include <sstream>
#include <vector>

#include "core/parse_number.h"
#include "core/shown_text.h"
#include "core/split.h"
#include "games/chaturanga/notation.h"
#include "games/chaturanga/position.h"

namespace sz::chaturanga {

using namespace board8;

namespace {

// A counter field: a whole number in 0..max.
bool parse_counter(std::string_view s, int max, int& out) {
  const std::optional<int> value = s.size() <= 6 ? parse_number<int>(s) : std::nullopt;
  if (!value || *value < 0 || *value > max) return false;
  out = *value;
  return true;
}

// The most men of a type that a side can have (board and hand together) given its pawns.
int max_count(Game game, PieceType t, int pawns) {
  switch (t) {
    case King:
      return 1;
    case Pawn:
      return 8;
    case Fers:
      return 1 + (8 - pawns);  // the original plus one per promoted pawn
    case Khon:
      return game == Game::Sittuyin ? 2 : 0;
    case Alfil:
      return game == Game::Shatranj ? 2 : 0;
    default:
      return 2;
  }
}

}  // namespace

class FenParser {
 public:
  FenParser(std::string_view fen, const RuleProfile& rules) : fen_(fen), pos_(rules) {}

  Result<Position> parse() {
    std::vector<std::string_view> fields;
    for (std::string_view f : split(fen_, ' '))
      if (!f.empty()) fields.push_back(f);
    if (fields.size() < 2) return error("a FEN needs at least the board and the side to move");
    if (fields.size() > 6) return error("too many fields (" + std::to_string(fields.size()) + ")");
    std::string_view board = fields[0];
    if (const size_t open = board.find('['); open != std::string_view::npos) {
      if (board.back() != ']') return error("hand: missing ']' at the end of the board field");
      if (auto r = parse_hand(board.substr(open + 1, board.size() - open - 2)); !r) return r;
      board = board.substr(0, open);
    }
    if (auto r = parse_board(board); !r) return r;
    if (auto r = parse_side(fields[1]); !r) return r;
    if (fields.size() > 2 && fields[2] != "-") return error("castling field must be '-'");
    if (auto r = parse_counters(fields); !r) return r;
    if (auto r = validate(); !r) return r;
    pos_.key_ = pos_.compute_key();
    const Square ksq = pos_.king_square(pos_.stm_);
    pos_.checkers_ = ksq == kNoSquare ? 0 : pos_.attackers(~pos_.stm_, ksq, pos_.pieces());
    return pos_;
  }

 private:
  Failure error(const std::string& what) const {
    // The FEN is untrusted text (a file, a GUI): shown escaped, and `what` may quote parts of it.
    return fail("bad FEN '" + shown_text(fen_, 100) + "': " + shown_text(what, 200));
  }
  Game game() const { return pos_.rules_->game; }

  Result<Position> parse_board(std::string_view board) {
    const auto ranks = split(board, '/');
    if (ranks.size() != 8) return error("board has " + std::to_string(ranks.size()) + " ranks, not 8");
    for (int i = 0; i < 8; ++i) {
      const int rank = 7 - i;
      int file = 0;
      size_t used = 0;
      for (; used < ranks[i].size() && file < 8; ++used) {
        const char ch = ranks[i][used];
        if (ch >= '1' && ch <= '8') {
          file += ch - '0';
          continue;
        }
        const PieceType t = piece_from_letter(game(), ch);
        if (t == NoPieceType) return error("rank " + std::to_string(rank + 1) + ": unknown letter '" + ch + "'");
        const Color c = std::isupper(static_cast<unsigned char>(ch)) ? White : Black;
        pos_.put_piece(make_piece(c, t), make_square(file++, rank));
      }
      if (used != ranks[i].size()) file = 9;  // characters left over
      if (file != 8) return error("rank " + std::to_string(rank + 1) + " does not hold exactly 8 squares");
    }
    return pos_;
  }

  Result<Position> parse_hand(std::string_view hand) {
    if (game() != Game::Sittuyin) return error("hand: " + std::string(game_name(game())) + " has no men in hand");
    if (hand == "-") return pos_;  // the empty pocket as Fairy-Stockfish and cutechess-cli write it
    for (char ch : hand) {
      const PieceType t = piece_from_letter(game(), ch);
      if (t == NoPieceType || t == Pawn) return error(std::string("hand: bad letter '") + ch + "'");
      const Color c = std::isupper(static_cast<unsigned char>(ch)) ? White : Black;
      if (pos_.hand_[c][t] >= 15) return error("hand: too many men");
      pos_.set_hand(c, t, pos_.hand_[c][t] + 1);
    }
    return pos_;
  }

  Result<Position> parse_side(std::string_view side) {
    if (side != "w" && side != "b") return error("side to move must be 'w' or 'b', not '" + std::string(side) + "'");
    pos_.stm_ = side == "w" ? White : Black;
    return pos_;
  }

  Result<Position> parse_counters(const std::vector<std::string_view>& fields) {
    int limit = 0, clock = 0, fullmove = 1;
    if (fields.size() > 3 && fields[3] != "-") {
      if (pos_.rules_->counting == CountingRule::None)
        return error("en-passant field: '" + std::string(fields[3]) + "' (profile '" + pos_.rules_->id +
                     "' has no counting rule and no en passant)");
      if (!parse_counter(fields[3], 9999, limit) || limit == 0)
        return error("counting limit '" + std::string(fields[3]) + "' is not a positive number");
    }
    if (fields.size() > 4 && !parse_counter(fields[4], 9999, clock))
      return error("half-move clock '" + std::string(fields[4]) + "' is not a number");
    if (fields.size() > 5 && !parse_counter(fields[5], 9999, fullmove))
      return error("full-move number '" + std::string(fields[5]) + "' is not a number");
    pos_.counting_limit_ = uint16_t(limit);
    pos_.counting_ply_ = uint16_t(limit ? clock : 0);
    pos_.rule50_ = uint16_t(limit ? 0 : clock);  // during a count the clock field is the count
    pos_.game_ply_ = uint16_t(std::max(2 * (fullmove - 1), 0) + (pos_.stm_ == Black));
    return pos_;
  }

  Result<Position> validate() {
    for (Color c : {White, Black}) {
      const char* side = c == White ? "White" : "Black";
      const int pawns = popcount(pos_.pieces(c, Pawn));
      for (int t = Pawn; t <= King; ++t) {
        const int n = popcount(pos_.pieces(c, PieceType(t))) + pos_.hand_[c][t];
        const char letter = piece_letter(game(), PieceType(t));
        if (t == King && n != 1)
          return error(std::string(side) + " must have exactly one king (on the board or in hand)");
        if (n > max_count(game(), PieceType(t), pawns))
          return error(std::string(side) + " has " + std::to_string(n) + " of '" + letter + "', more than can exist");
      }
      const Bitboard last_ranks = rank_bb(0) | rank_bb(7);
      if (game() == Game::Shatranj && (pos_.pieces(c, Pawn) & last_ranks))
        return error(std::string(side) + " has a pawn on the first or last rank");
    }
    const Square other_king = pos_.king_square(~pos_.stm_);
    if (other_king != kNoSquare && pos_.attackers(pos_.stm_, other_king, pos_.pieces()) &&
        !pos_.may_leave_opponent_in_check())
      return error("the side not to move is in check");
    return pos_;
  }

  std::string_view fen_;
  Position pos_;
};

Result<Position> Position::from_fen(std::string_view fen, const RuleProfile& rules) {
  return FenParser(fen, rules).parse();
}

std::string Position::fen() const {
  const Game game = rules_->game;
  std::string s;
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      const Piece p = piece_on(make_square(file, rank));
      if (!p) {
        ++empty;
        continue;
      }
      if (empty) s += char('0' + empty);
      empty = 0;
      const char letter = piece_letter(game, type_of(p));
      s += color_of(p) == White ? letter : char(std::tolower(letter));
    }
    if (empty) s += char('0' + empty);
    if (rank) s += '/';
  }
  if (game == Game::Sittuyin) {
    s += '[';
    for (Color c : {White, Black})  // Fairy-Stockfish's order: K S F R N
      for (PieceType t : {King, Khon, Fers, Rook, Knight})
        for (int i = 0; i < hand_[c][t]; ++i) {
          const char letter = piece_letter(game, t);
          s += c == White ? letter : char(std::tolower(letter));
        }
    s += ']';
  }
  s += stm_ == White ? " w - " : " b - ";
  s += counting_limit_ ? std::to_string(counting_limit_) : "-";
  s += ' ' + std::to_string(counting_limit_ ? counting_ply_ : rule50_);
  s += ' ' + std::to_string(1 + (game_ply_ - (stm_ == Black)) / 2);
  return s;
}

std::string Position::pretty() const {
  std::ostringstream out;
  const Game game = rules_->game;
  for (int rank = 7; rank >= 0; --rank) {
    out << ' ' << rank + 1 << " ";
    for (int file = 0; file < 8; ++file) {
      const Piece p = piece_on(make_square(file, rank));
      char ch = is_light(make_square(file, rank)) ? '.' : ':';
      if (p) {
        const char letter = piece_letter(game, type_of(p));
        ch = color_of(p) == White ? letter : char(std::tolower(letter));
      }
      out << ' ' << ch;
    }
    out << '\n';
  }
  out << "    a b c d e f g h\n";
  out << (stm_ == White ? "White" : "Black") << " to move";
  if (hand_total_[White] + hand_total_[Black]) out << ", men in hand shown in the FEN";
  out << "\nFEN: " << fen() << '\n';
  return out.str();
}

}  // namespace sz::chaturanga
