#include "games/chaturanga/tables/unmoves.h"

#include <algorithm>
#include <cassert>

#include "games/board8/attacks.h"

namespace sz::chaturanga::tables {

using namespace board8;

namespace {

// Squares a man of type t and colour c on `sq` attacks (and moves to), given `occupied`.
Bitboard attacks_from(PieceType t, Color c, int sq, Bitboard occupied) {
  const AttackTables& a = attack_tables;
  switch (t) {
    case King:
      return a.king[sq];
    case Knight:
      return a.knight[sq];
    case Khon:
      return a.khon[c][sq];
    case Fers:
      return a.fers[sq];
    case Alfil:
      return a.alfil[sq];
    case Rook:
      return rook_attacks(sq, occupied);
    default:
      return 0;
  }
}

// Squares from which a man of type t and colour c reaches `sq` in one quiet move.
Bitboard origins(PieceType t, Color c, int sq, Bitboard occupied) {
  if (t == Khon) return attack_tables.khon[~c][sq];  // forward for c is backward for ~c
  return attacks_from(t, c, sq, occupied);
}

}  // namespace

int predecessors(const Layout& layout, uint64_t entry, uint32_t* out) {
  Square sq[kMaxMen];
  Color stm;
  [[maybe_unused]] const bool ok = layout.decode(entry, sq, stm);
  assert(ok);
  const int men = layout.men();
  const Color mover = ~stm;
  const Square their_king = sq[stm == White ? 0 : 1];  // the king of the side that did not move
  Bitboard occupied = 0;
  for (int s = 0; s < men; ++s) occupied |= bit(sq[s]);
  int n = 0;
  for (int s = 0; s < men; ++s) {
    const Piece p = layout.piece(s);
    if (color_of(p) != mover) continue;
    Bitboard from = origins(type_of(p), mover, sq[s], occupied) & ~occupied;
    while (from) {
      const Square f = pop_lsb(from);
      Square before[kMaxMen];
      std::copy(sq, sq + men, before);
      before[s] = f;
      const Bitboard occ = occupied ^ bit(sq[s]) ^ bit(f);
      bool checks = false;  // the mover may not have left the other king in check before its move
      for (int m = 0; m < men && !checks; ++m)
        if (color_of(layout.piece(m)) == mover && type_of(layout.piece(m)) != King)
          checks = attacks_from(type_of(layout.piece(m)), mover, before[m], occ) & bit(their_king);
      if (checks) continue;
      const uint64_t e = layout.index(before, mover);  // kNone: the kings would touch
      if (e != Layout::kNone) out[n++] = uint32_t(e);
    }
  }
  std::sort(out, out + n);
  return int(std::unique(out, out + n) - out);
}

}  // namespace sz::chaturanga::tables
