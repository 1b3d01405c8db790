#pragma once
// Men and moves of the chaturanga family core that Sittuyin and Shatranj share.
#include <cstdint>

#include "games/board8/bitboard.h"

namespace sz::chaturanga {

using board8::Bitboard;
using board8::Square;

enum Color : uint8_t { White, Black };
constexpr Color operator~(Color c) { return Color(c ^ 1); }

// Fers is the Sittuyin met (letter F) and the Shatranj fers (letter Q): one diagonal step.
// Khon is the Sittuyin elephant (S); Alfil the Shatranj elephant (B), a two-square diagonal leap.
enum PieceType : uint8_t { NoPieceType, Pawn, Knight, Khon, Fers, Alfil, Rook, King };
constexpr int kPieceTypes = 8;  // including NoPieceType, so tables index by PieceType

// A man: colour in bit 3, type in bits 0-2. 0 is an empty square.
enum Piece : uint8_t { NoPiece = 0 };
constexpr Piece make_piece(Color c, PieceType t) { return Piece((c << 3) | t); }
constexpr PieceType type_of(Piece p) { return PieceType(p & 7); }
constexpr Color color_of(Piece p) { return Color(p >> 3); }
constexpr int kPieces = 16;

enum class MoveKind : uint8_t { Normal, Promotion, Drop };

// from:6 | to:6 | kind:2. A drop keeps the dropped PieceType in the from field. A promotion
// is to the game's promoted man (Sittuyin met, Shatranj fers); for Sittuyin, from == to is
// the in-place promotion.
struct Move {
  uint16_t raw = 0;

  static constexpr Move normal(int from, int to) { return Move{uint16_t(from | to << 6)}; }
  static constexpr Move promotion(int from, int to) {
    return Move{uint16_t(from | to << 6 | 1 << 12)};
  }
  static constexpr Move drop(PieceType t, int to) { return Move{uint16_t(t | to << 6 | 2 << 12)}; }

  constexpr Square from() const { return Square(raw & 0x3F); }
  constexpr Square to() const { return Square((raw >> 6) & 0x3F); }
  constexpr MoveKind kind() const { return MoveKind(raw >> 12); }
  constexpr PieceType dropped() const { return PieceType(raw & 0x7); }
  constexpr bool is_drop() const { return kind() == MoveKind::Drop; }
  constexpr bool is_promotion() const { return kind() == MoveKind::Promotion; }
  constexpr bool operator==(const Move&) const = default;
};

// Room for every legal move of any reachable position (placement has at most 5 x 24 drops).
constexpr int kMaxMoves = 256;

struct MoveList {
  Move moves[kMaxMoves];
  int size = 0;

  void push(Move m) { moves[size++] = m; }
  const Move* begin() const { return moves; }
  const Move* end() const { return moves + size; }
  bool contains(Move m) const {
    for (Move x : *this)
      if (x == m) return true;
    return false;
  }
};

}  // namespace sz::chaturanga
