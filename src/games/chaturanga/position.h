#pragma once
// The rules core's position: bitboards, a mailbox, the men in hand, and the counters the rules
// need (n-move clock, counting rule). A small value type without virtual calls: search copies
// it (copy-make), perft runs on it directly. The repetition history lives outside (see
// adjudicate.h), so a copy costs about 200 bytes.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/error.h"
#include "games/board8/attacks.h"
#include "games/chaturanga/profile.h"
#include "games/chaturanga/types.h"

namespace sz::chaturanga {

class Position {
 public:
  // Parses a Fairy-Stockfish FEN under `rules`, strictly: the error names the bad field. The
  // profile is referenced, not copied, and must outlive the position.
  static Result<Position> from_fen(std::string_view fen, const RuleProfile& rules);
  static Position start(const RuleProfile& rules);
  // `count` men (man, square) on the board, no man in hand, `stm` to move, fresh clocks (no count
  // running): the endgame tables' set-up (tables/). Unchecked: the men must make a position that
  // pos_is_ok() accepts, kings included.
  static Position from_men(const RuleProfile& rules, Color stm, const Piece* men, const Square* squares, int count);

  std::string fen() const;     // as Fairy-Stockfish prints it
  std::string pretty() const;  // a readable board, White at the bottom

  const RuleProfile& rules() const { return *rules_; }
  Color side_to_move() const { return stm_; }
  Piece piece_on(int sq) const { return Piece(board_[sq]); }
  Bitboard pieces() const { return by_color_[White] | by_color_[Black]; }
  Bitboard pieces(Color c) const { return by_color_[c]; }
  Bitboard pieces(PieceType t) const { return by_type_[t]; }
  Bitboard pieces(Color c, PieceType t) const { return by_color_[c] & by_type_[t]; }
  int in_hand(Color c, PieceType t) const { return hand_[c][t]; }
  int hand_count(Color c) const { return hand_total_[c]; }
  // The king's square, or kNoSquare while the king is still in hand.
  Square king_square(Color c) const {
    const Bitboard k = pieces(c, King);
    return k ? board8::lsb(k) : board8::kNoSquare;
  }
  Bitboard checkers() const { return checkers_; }
  bool in_check() const { return checkers_ != 0; }

  uint64_t key() const { return key_; }  // Zobrist hash: men, hands, side, profile
  int rule50() const { return rule50_; }  // plies since the last capture, pawn move, drop
  int counting_limit() const { return counting_limit_; }  // plies; 0 while no count runs
  int counting_ply() const { return counting_ply_; }
  int game_ply() const { return game_ply_; }

  // Men of colour `by` that attack `sq`, given the occupancy `occupied`.
  Bitboard attackers(Color by, int sq, Bitboard occupied) const;
  // Men of colour c that stand alone between their own king and an enemy rook.
  Bitboard pinned(Color c) const;
  // Men of colour c whose move off a rook line to the enemy king would give discovered check.
  Bitboard discovered_check_candidates(Color c) const;
  // Shatranj: the bare-king rule has decided the game; the side to move has `won` or lost.
  bool bare_king_decided(bool* side_to_move_won = nullptr) const;
  // The counting rule's limit in moves for a count against the bare king of ~strong: 16 with a
  // rook, else 44 with a khon, else 64 with a knight, else 0 (no count).
  int count_limit(Color strong) const;

  // Whether the side not to move may stand in check: only while the side to move keeps the
  // turn to place more men (white-then-black placement), after a drop that gave check.
  bool may_leave_opponent_in_check() const {
    return rules_->placement_order == PlacementOrder::WhiteThenBlack && hand_total_[stm_];
  }
  bool is_capture(Move m) const { return !m.is_drop() && m.from() != m.to() && board_[m.to()]; }
  // Plays a legal move (unchecked; assert-level checks in debug builds).
  void do_move(Move m);

  // Consistency of every redundant field, for debug builds and tests; `why` names the fault.
  bool pos_is_ok(std::string* why = nullptr) const;
  uint64_t compute_key() const;

 private:
  explicit Position(const RuleProfile& rules) : rules_(&rules) {}
  void put_piece(Piece p, int sq);
  void remove_piece(int sq);
  void move_piece(int from, int to);
  void set_hand(Color c, PieceType t, int count);
  void update_counting(bool capture_or_promotion);
  friend class FenParser;

  Bitboard by_type_[kPieceTypes] = {};
  Bitboard by_color_[2] = {};
  Bitboard checkers_ = 0;
  uint64_t key_ = 0;
  const RuleProfile* rules_;
  uint8_t board_[64] = {};
  uint8_t hand_[2][kPieceTypes] = {};
  uint8_t hand_total_[2] = {};
  Color stm_ = White;
  uint16_t rule50_ = 0;
  uint16_t counting_limit_ = 0;
  uint16_t counting_ply_ = 0;
  uint16_t game_ply_ = 0;
};

// Zobrist keys, computed at compile time from a fixed seed.
struct ZobristKeys {
  uint64_t piece_square[kPieces][64];
  uint64_t hand[2][kPieceTypes][16];  // keyed by the count in hand; count 0 has key 0
  uint64_t black_to_move;
};
extern const ZobristKeys kZobrist;

}  // namespace sz::chaturanga
