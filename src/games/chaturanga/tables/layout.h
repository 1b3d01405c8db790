#pragma once
// Where a position lies in its table (docs/TABLES.md, "Index"). The men sit in slots: slot 0 the
// white king, 1 the black king, then the canonical material's men, White's strongest first, then
// Black's. An entry's number is
//     (side to move * king pairs + king pair) * others + others' squares,
// where the king pair is one class of the board's symmetries (the 8 of the square without a khon:
// 462 classes; with one, only the mirror a<->h, since a khon steps forward: 1806), and the others'
// squares are numbered among the 62 the kings leave (one man: 62; two alike of one side: 1891
// unordered pairs; two others: 62 x 62, the diagonal unused). A king pair on a long diagonal is
// kept by a reflection, which then also picks the others' squares (the smaller number wins).
#include <cstdint>

#include "games/chaturanga/tables/material.h"
#include "games/chaturanga/types.h"

namespace sz::chaturanga::tables {

class Layout {
 public:
  static constexpr uint64_t kNone = ~uint64_t{0};

  explicit Layout(const Material& canonical);

  const Material& material() const { return material_; }
  int men() const { return men_; }
  Piece piece(int slot) const { return pieces_[slot]; }
  uint64_t size() const { return 2 * per_side_; }  // entries, both sides to move
  bool full_symmetry() const { return full_; }     // else the mirror a<->h only

  // The entry of the men on sq[slot] with `stm` to move, the symmetries applied: equal for every
  // mirror image of the position. kNone when two men share a square or the kings touch.
  uint64_t index(const Square* sq, Color stm) const;
  // The men of an entry; false when it holds no position (two men on one square). A position
  // decoded from an entry that index() never returns indexes to another, equivalent entry.
  bool decode(uint64_t entry, Square* sq, Color& stm) const;

 private:
  uint64_t others_index(const Square* sq, int transform) const;

  Material material_;
  int men_ = 0;
  Piece pieces_[kMaxMen] = {};
  bool full_ = false;
  bool alike_ = false;   // two other men of one type and side: their squares unordered
  uint64_t others_ = 1;  // entries per king pair
  uint64_t per_side_ = 0;
};

}  // namespace sz::chaturanga::tables
