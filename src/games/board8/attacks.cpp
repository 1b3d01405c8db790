#include "games/board8/attacks.h"

#include <algorithm>
#include <cstdlib>
#include <initializer_list>
#include <utility>


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

// Rook magics, found once by trial with sparse random numbers (Stockfish's method) and kept
// here, since the search took about 0.1 s at every start. init_rook_magics() checks each one.
constexpr Bitboard kRookMagics[64] = {
    0x408000400c601180ull, 0x0140004010002000ull, 0x0300090112200040ull, 0x0480041001080080ull,
    0x0200081104020020ull, 0x0100010008020400ull, 0x060028220000a104ull, 0x0100020020408100ull,
    0x0000800080204001ull, 0x1809004000810020ull, 0x4800801000200088ull, 0x1100800800100080ull,
    0x0089000491000800ull, 0x4080800400800200ull, 0x8009000200040100ull, 0x8481002c83420100ull,
    0x0038308000400082ull, 0x0820230040008100ull, 0x1002828010002000ull, 0x5000210010000900ull,
    0x0001030008001004ull, 0x1008808004000200ull, 0x0010808002000100ull, 0x20000200109c4104ull,
    0x8900400080008020ull, 0x0081022300400080ull, 0x0c02410500200010ull, 0x0000880480100080ull,
    0x0008008180082400ull, 0xc209000300080400ull, 0x2201c84400810230ull, 0x0186004200308104ull,
    0x0200804000800020ull, 0x0000420092002100ull, 0x0240801000802000ull, 0x002222000a001042ull,
    0x3010802802800400ull, 0x2806020080800400ull, 0x0408025044000108ull, 0x404000840600004dull,
    0x4080002000504000ull, 0x2620008040008021ull, 0x3820042045010010ull, 0x8890001008008080ull,
    0x0101020800110004ull, 0x0412000410020008ull, 0x8a08100108040002ull, 0x1000148841020004ull,
    0x0808320040810200ull, 0x2203003882400100ull, 0x0020200184100580ull, 0x0010080080100080ull,
    0x1540040800110100ull, 0x0004000402008080ull, 0x0000023108900400ull, 0x0044040100408200ull,
    0x4101004191218001ull, 0x0282004010288102ull, 0x9811000840200011ull, 0x0005100021000409ull,
    0x0021000402080011ull, 0x0041000208440041ull, 0x038016500500880cull, 0x0000002084010042ull,
};

void init_rook_magics(AttackTables& t) {
  Bitboard* table = t.rook_table;
  for (int s = 0; s < 64; ++s) {
    const Bitboard edges = ((kRank1 | rank_bb(7)) & ~rank_bb(rank_of(s))) |
                           ((file_bb(0) | file_bb(7)) & ~file_bb(file_of(s)));
    Magic& m = t.rook_magic[s];
    m.mask = slide(s, 0) & ~edges;
    m.shift = 64 - unsigned(popcount(m.mask));
    m.magic = kRookMagics[s];
    m.attacks = table;
    const unsigned size = 1u << popcount(m.mask);
    std::fill(table, table + size, Bitboard{0});
    Bitboard b = 0;
    do {  // Carry-Rippler enumeration of all subsets of the mask.
      Bitboard& slot = table[m.index(b)];
      const Bitboard attacks = slide(s, b);
      if (slot && slot != attacks) std::abort();  // a bad magic: the table above was edited
      slot = attacks;
      b = (b - m.mask) & m.mask;
    } while (b);
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
