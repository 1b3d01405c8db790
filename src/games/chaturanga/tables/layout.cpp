#include "games/chaturanga/tables/layout.h"

#include <algorithm>
#include <bit>
#include <cassert>

#include "games/board8/attacks.h"

namespace sz::chaturanga::tables {

using namespace board8;

namespace {

constexpr int kTransforms = 8;
constexpr int kOtherSquares = 62;
constexpr int kAlikePairs = kOtherSquares * (kOtherSquares - 1) / 2;  // 1891
constexpr int kMaxKingPairs = 64 * 64;

// The 8 symmetries of the square: bit 2 swaps file and rank, then bit 0 mirrors the files and
// bit 1 the ranks. Transform 0 is the identity, 1 the mirror a<->h.
struct Transforms {
  uint8_t map[kTransforms][64];
  Transforms() {
    for (int t = 0; t < kTransforms; ++t)
      for (int sq = 0; sq < 64; ++sq) {
        int f = file_of(sq), r = rank_of(sq);
        if (t & 4) std::swap(f, r);
        if (t & 1) f = 7 - f;
        if (t & 2) r = 7 - r;
        map[t][sq] = uint8_t(make_square(f, r));
      }
  }
};
const Transforms kTransformTable;

// The classes of king pairs under a symmetry group: the full group of the square or the mirror.
struct KingPairs {
  int count = 0;
  int16_t index[64][64];       // the class of a pair; -1 when the kings coincide or touch
  uint8_t transforms[64][64];  // the symmetries (a bit each) carrying the pair to its class's representative
  uint8_t rep[kMaxKingPairs][2];

  explicit KingPairs(bool full) {
    const int group = full ? kTransforms : 2;
    for (int a = 0; a < 64; ++a)
      for (int b = 0; b < 64; ++b) {
        index[a][b] = -1;
        transforms[a][b] = 0;
      }
    for (int a = 0; a < 64; ++a)
      for (int b = 0; b < 64; ++b) {
        if (a == b || (attack_tables.king[a] & bit(b))) continue;
        int best = 1 << 12;
        for (int t = 0; t < group; ++t)
          best = std::min(best, kTransformTable.map[t][a] * 64 + kTransformTable.map[t][b]);
        for (int t = 0; t < group; ++t)
          if (kTransformTable.map[t][a] * 64 + kTransformTable.map[t][b] == best) transforms[a][b] |= uint8_t(1 << t);
        if (best == a * 64 + b) {
          rep[count][0] = uint8_t(a);
          rep[count][1] = uint8_t(b);
          index[a][b] = int16_t(count++);
        }
      }
    for (int a = 0; a < 64; ++a)
      for (int b = 0; b < 64; ++b)
        if (transforms[a][b]) {
          const int t = std::countr_zero(transforms[a][b]);
          index[a][b] = index[kTransformTable.map[t][a]][kTransformTable.map[t][b]];
        }
  }
};

// Built on first use (after the attack tables, which static initialisers fill before main).
const KingPairs& king_pairs(bool full) {
  static const KingPairs full_pairs(true), mirror_pairs(false);
  return full ? full_pairs : mirror_pairs;
}

// Unordered pairs lo < hi of 0..61 by number hi * (hi - 1) / 2 + lo.
struct AlikePairs {
  uint8_t lo[kAlikePairs], hi[kAlikePairs];
  AlikePairs() {
    for (int h = 1; h < kOtherSquares; ++h)
      for (int l = 0; l < h; ++l) {
        lo[h * (h - 1) / 2 + l] = uint8_t(l);
        hi[h * (h - 1) / 2 + l] = uint8_t(h);
      }
  }
};
const AlikePairs kAlikeTable;

// A square's number among those the kings (lo < hi) leave; -1 on a king.
int rank_among(int sq, int lo, int hi) {
  if (sq == lo || sq == hi) return -1;
  return sq - (sq > lo) - (sq > hi);
}

int square_of_rank(int r, int lo, int hi) {
  int sq = r;
  if (sq >= lo) ++sq;
  if (sq >= hi) ++sq;
  return sq;
}

}  // namespace

Layout::Layout(const Material& canonical) : material_(canonical), men_(canonical.total()) {
  assert(canonical.canonical() && men_ >= 3 && men_ <= kMaxMen);
  pieces_[0] = make_piece(White, King);
  pieces_[1] = make_piece(Black, King);
  int slot = 2;
  for (Color c : {White, Black})
    for (PieceType t : canonical.men[c])
      if (t != NoPieceType) pieces_[slot++] = make_piece(c, t);
  full_ = !canonical.has(Khon);
  alike_ = men_ == 4 && pieces_[2] == pieces_[3];
  others_ = men_ == 3 ? kOtherSquares : alike_ ? kAlikePairs : kOtherSquares * kOtherSquares;
  per_side_ = uint64_t(king_pairs(full_).count) * others_;
}

uint64_t Layout::others_index(const Square* sq, int t) const {
  const uint8_t* map = kTransformTable.map[t];
  const int k0 = map[sq[0]], k1 = map[sq[1]];
  const int lo = std::min(k0, k1), hi = std::max(k0, k1);
  const int a = rank_among(map[sq[2]], lo, hi);
  if (a < 0) return kNone;
  if (men_ == 3) return uint64_t(a);
  const int b = rank_among(map[sq[3]], lo, hi);
  if (b < 0 || a == b) return kNone;
  if (!alike_) return uint64_t(a) * kOtherSquares + uint64_t(b);
  const int l = std::min(a, b), h = std::max(a, b);
  return uint64_t(h * (h - 1) / 2 + l);
}

uint64_t Layout::index(const Square* sq, Color stm) const {
  const KingPairs& pairs = king_pairs(full_);
  const int pair = pairs.index[sq[0]][sq[1]];
  if (pair < 0) return kNone;
  unsigned transforms = pairs.transforms[sq[0]][sq[1]];
  uint64_t others = kNone;
  while (transforms) {  // usually one; two for a king pair on a long diagonal
    const int t = std::countr_zero(transforms);
    transforms &= transforms - 1;
    others = std::min(others, others_index(sq, t));
  }
  if (others == kNone) return kNone;
  return (uint64_t(stm) * uint64_t(pairs.count) + uint64_t(pair)) * others_ + others;
}

bool Layout::decode(uint64_t entry, Square* sq, Color& stm) const {
  const KingPairs& pairs = king_pairs(full_);
  stm = Color(entry / per_side_);
  const uint64_t rest = entry % per_side_;
  const int pair = int(rest / others_);
  const uint64_t others = rest % others_;
  sq[0] = Square(pairs.rep[pair][0]);
  sq[1] = Square(pairs.rep[pair][1]);
  const int lo = std::min<int>(sq[0], sq[1]), hi = std::max<int>(sq[0], sq[1]);
  if (men_ == 3) {
    sq[2] = Square(square_of_rank(int(others), lo, hi));
    return true;
  }
  int a, b;
  if (alike_) {
    a = kAlikeTable.lo[others];
    b = kAlikeTable.hi[others];
  } else {
    a = int(others / kOtherSquares);
    b = int(others % kOtherSquares);
    if (a == b) return false;
  }
  sq[2] = Square(square_of_rank(a, lo, hi));
  sq[3] = Square(square_of_rank(b, lo, hi));
  return true;
}

}  // namespace sz::chaturanga::tables
