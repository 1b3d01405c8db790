#pragma once
// 8x8 bitboards shared by the games on an 8x8 board. Square a1 = 0, b1 = 1, ..., h8 = 63.
#include <bit>
#include <cassert>
#include <cstdint>

namespace sz::board8 {

using Bitboard = uint64_t;

enum Square : int8_t {
  // clang-format off
  A1, B1, C1, D1, E1, F1, G1, H1,
  A2, B2, C2, D2, E2, F2, G2, H2,
  A3, B3, C3, D3, E3, F3, G3, H3,
  A4, B4, C4, D4, E4, F4, G4, H4,
  A5, B5, C5, D5, E5, F5, G5, H5,
  A6, B6, C6, D6, E6, F6, G6, H6,
  A7, B7, C7, D7, E7, F7, G7, H7,
  A8, B8, C8, D8, E8, F8, G8, H8,
  // clang-format on
  kNoSquare = 64,
};

constexpr int kSquares = 64;

constexpr int file_of(int sq) { return sq & 7; }
constexpr int rank_of(int sq) { return sq >> 3; }
constexpr Square make_square(int file, int rank) { return Square(rank * 8 + file); }
constexpr bool on_board(int file, int rank) { return file >= 0 && file < 8 && rank >= 0 && rank < 8; }
// Light squares are those with (file + rank) odd (h1 is light).
constexpr bool is_light(int sq) { return ((file_of(sq) + rank_of(sq)) & 1) != 0; }

constexpr Bitboard bit(int sq) { return Bitboard{1} << sq; }
constexpr Bitboard kRank1 = 0xFFull;
constexpr Bitboard kFileA = 0x0101010101010101ull;
constexpr Bitboard rank_bb(int rank) { return kRank1 << (8 * rank); }
constexpr Bitboard file_bb(int file) { return kFileA << file; }
constexpr Bitboard kLightSquares = 0x55AA55AA55AA55AAull;

inline int popcount(Bitboard b) { return std::popcount(b); }
inline Square lsb(Bitboard b) {
  assert(b);
  return Square(std::countr_zero(b));
}
inline Square pop_lsb(Bitboard& b) {
  const Square s = lsb(b);
  b &= b - 1;
  return s;
}
constexpr bool more_than_one(Bitboard b) { return (b & (b - 1)) != 0; }

// Rotate the board by 180 degrees (a1 <-> h8), flip it vertically (a1 <-> a8), mirror its files
// (a1 <-> h1).
constexpr int rotate180(int sq) { return 63 - sq; }
constexpr int flip_vertical(int sq) { return sq ^ 56; }
constexpr int mirror_files(int sq) { return sq ^ 7; }

}  // namespace sz::board8
