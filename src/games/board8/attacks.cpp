#include "games/board8/attacks.h"

#include <initializer_list>
#include <utility>

#include "core/rng.h"

namespace sz::board8 {
namespace {

Bitboard step_set(int sq, std::initializer_list<std::pair<int, int>> steps) {
  Bitboard b = 0;
  for (auto [df, dr] : steps) {
    const int f = file_of(sq) + df, r = rank_of(sq) + dr;
    if (on_board(f, r)) b |= bit(make_square(f, r));
  }
  return b;
}

Bitboard slide(int sq, Bitboard occupied) {
  Bitboard b = 0;
  for (auto [df, dr] : {std::pair{1, 0}, {-1, 0}, {0, 1}, {0, -1}}) {
    for (int f = file_of(sq) + df, r = rank_of(sq) + dr; on_board(f, r); f += df, r += dr) {
      b |= bit(make_square(f, r));
      if (occupied & bit(make_square(f, r))) break;
    }
  }
  return b;
}

void init_steppers(AttackTables& t) {
  for (int s = 0; s < 64; ++s) {
    t.king[s] = step_set(s, {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}});
    t.knight[s] = step_set(s, {{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}});
    t.fers[s] = step_set(s, {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}});
    t.alfil[s] = step_set(s, {{2, 2}, {2, -2}, {-2, 2}, {-2, -2}});
    for (int c = 0; c < 2; ++c) {
      const int fwd = c == 0 ? 1 : -1;
      t.pawn_attacks[c][s] = step_set(s, {{1, fwd}, {-1, fwd}});
      t.pawn_push[c][s] = step_set(s, {{0, fwd}});
      t.khon[c][s] = t.fers[s] | t.pawn_push[c][s];
    }
    t.rook_empty[s] = slide(s, 0);
  }
}

void init_lines(AttackTables& t) {
  for (int a = 0; a < 64; ++a)
    for (int b = 0; b < 64; ++b) {
      t.between[a][b] = t.line[a][b] = 0;
      if (a == b || !(t.rook_empty[a] & bit(b))) continue;
      t.between[a][b] = slide(a, bit(b)) & slide(b, bit(a));
      t.line[a][b] = (t.rook_empty[a] & t.rook_empty[b]) | bit(a) | bit(b);
    }
}

// Finds a magic per square by trial with sparse random numbers (Stockfish's method).
void init_rook_magics(AttackTables& t) {
  Rng rng(/*seed=*/728);
  Bitboard occupancy[4096], reference[4096];
  int epoch[4096] = {}, attempt = 0;
  Bitboard* table = t.rook_table;
  for (int s = 0; s < 64; ++s) {
    const Bitboard edges = ((kRank1 | rank_bb(7)) & ~rank_bb(rank_of(s))) |
                           ((file_bb(0) | file_bb(7)) & ~file_bb(file_of(s)));
    Magic& m = t.rook_magic[s];
    m.mask = slide(s, 0) & ~edges;
    m.shift = 64 - unsigned(popcount(m.mask));
    m.attacks = table;
    int size = 0;
    Bitboard b = 0;
    do {  // Carry-Rippler enumeration of all subsets of the mask.
      occupancy[size] = b;
      reference[size++] = slide(s, b);
      b = (b - m.mask) & m.mask;
    } while (b);
    for (int i = 0; i < size;) {
      do m.magic = rng() & rng() & rng();
      while (popcount((m.magic * m.mask) >> 56) < 6);
      ++attempt;
      for (i = 0; i < size; ++i) {
        const unsigned idx = m.index(occupancy[i]);
        if (epoch[idx] < attempt) {
          epoch[idx] = attempt;
          table[idx] = reference[i];
        } else if (table[idx] != reference[i]) {
          break;
        }
      }
    }
    table += size;
  }
}

struct Initialiser {
  Initialiser() {
    init_steppers(attack_tables);
    init_lines(attack_tables);
    init_rook_magics(attack_tables);
  }
};

}  // namespace

AttackTables attack_tables;
static const Initialiser initialiser;

}  // namespace sz::board8
