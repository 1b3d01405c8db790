#pragma once
// Attack tables for the men of the chaturanga family on an 8x8 board. Leapers and steppers use
// plain tables; the rook, the only slider, uses magic bitboards (Stockfish's "fancy" layout),
// with magics found at start-up from a fixed seed so that the tables are identical every run.
// All tables are built once, by a static initialiser in attacks.cpp, before main runs; they are
// read-only after that. No other static initialiser may read them.
#include "games/board8/bitboard.h"

namespace sz::board8 {

struct Magic {
  Bitboard mask;
  Bitboard magic;
  const Bitboard* attacks;
  unsigned shift;
  unsigned index(Bitboard occupied) const { return unsigned(((occupied & mask) * magic) >> shift); }
};

struct AttackTables {
  Bitboard king[64];
  Bitboard knight[64];
  Bitboard fers[64];              // one diagonal step
  Bitboard alfil[64];             // a leap of exactly two squares diagonally
  Bitboard khon[2][64];           // fers plus one step straight forward, per colour
  Bitboard pawn_attacks[2][64];   // diagonal forward steps, per colour
  Bitboard pawn_push[2][64];      // one step straight forward, per colour
  Bitboard rook_empty[64];        // rook attacks on an empty board
  Bitboard between[64][64];       // squares strictly between two squares on a rook line
  Bitboard line[64][64];          // the whole rook line through two squares, or 0
  Magic rook_magic[64];
  Bitboard rook_table[0x19000];
};

extern AttackTables attack_tables;  // filled before main; treat as const

inline Bitboard rook_attacks(int sq, Bitboard occupied) {
  const Magic& m = attack_tables.rook_magic[sq];
  return m.attacks[m.index(occupied)];
}
inline Bitboard between(int a, int b) { return attack_tables.between[a][b]; }
inline Bitboard line(int a, int b) { return attack_tables.line[a][b]; }
inline bool aligned(int a, int b, int c) { return (attack_tables.line[a][b] & bit(c)) != 0; }

}  // namespace sz::board8
