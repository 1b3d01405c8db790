#include "games/chaturanga/tables/table_set.h"

#include <algorithm>

namespace sz::chaturanga::tables {

using namespace board8;

namespace {

// Men counted by the key: knight, khon, fers, alfil, rook (PieceType 2..6), at most 2 of each
// per side: a number in base 3, one digit per (colour, type).
constexpr int kKeyTypes = 5;
constexpr int kKeys = 59049;  // 3^10

struct DigitWeights {
  int w[2][kPieceTypes] = {};
  constexpr DigitWeights() {
    int weight = 1;
    for (int c = 0; c < 2; ++c)
      for (int t = Knight; t < Knight + kKeyTypes; ++t, weight *= 3) w[c][t] = weight;
  }
};
constexpr DigitWeights kDigitWeights;

int digit_weight(Color c, PieceType t) { return kDigitWeights.w[c][t]; }

// -1 when a side has three men of a type (outside every table).
int material_key(const Material& m) {
  int key = 0;
  for (Color c : {White, Black})
    for (PieceType t : m.men[c])
      if (t != NoPieceType) key += digit_weight(c, t);
  return key;
}

int men_key(const Men& men) {
  int key = 0;
  uint8_t seen[2][kPieceTypes] = {};
  for (int i = 0; i < men.count; ++i) {
    const PieceType t = type_of(men.piece[i]);
    if (t == King) continue;
    const Color c = color_of(men.piece[i]);
    if (t == Pawn || ++seen[c][t] > 2) return -1;
    key += digit_weight(c, t);
  }
  return key;
}

}  // namespace

std::optional<Men> men_of(const Position& pos) {
  if (pos.pieces(Pawn) || pos.hand_count(White) || pos.hand_count(Black)) return std::nullopt;
  Bitboard all = pos.pieces();
  if (popcount(all) > kMaxMen || popcount(pos.pieces(King)) != 2) return std::nullopt;
  Men men;
  men.stm = pos.side_to_move();
  while (all) {
    const Square sq = pop_lsb(all);
    men.piece[men.count] = pos.piece_on(sq);
    men.square[men.count++] = sq;
  }
  return men;
}

TableSet::TableSet(const EndingRules& rules) : rules_(rules), by_key_(kKeys) {}

void TableSet::add(std::shared_ptr<const Table> table) {
  const Material& m = table->material();
  Slot& slot = by_key_[size_t(material_key(m))];
  if (slot.table < 0) {
    slot.table = int16_t(tables_.size());
    tables_.push_back(std::move(table));
  } else {
    tables_[size_t(slot.table)] = std::move(table);
  }
  const int key = material_key(m), swapped_key = material_key(m.swapped());
  by_key_[size_t(key)] = {slot.table, false};
  if (swapped_key != key) by_key_[size_t(swapped_key)] = {by_key_[size_t(key)].table, true};
  max_men_ = std::max(max_men_, m.total());
}

const Table* TableSet::find(const Material& canonical) const {
  const Slot& slot = by_key_[size_t(material_key(canonical))];
  return slot.table < 0 || slot.swapped ? nullptr : tables_[size_t(slot.table)].get();
}

std::vector<const Table*> TableSet::tables() const {
  std::vector<const Table*> out;
  for (const auto& t : tables_) out.push_back(t.get());
  return out;
}

std::optional<TableSet::Hit> TableSet::locate(const Men& men) const {
  const int key = men_key(men);
  if (key < 0) return std::nullopt;
  if (key == 0) return men.count == 2 ? std::optional<Hit>(Hit{}) : std::nullopt;
  const Slot slot = by_key_[size_t(key)];
  if (slot.table < 0) return std::nullopt;
  const Table* table = tables_[size_t(slot.table)].get();
  const Layout& layout = table->layout();
  // Each slot takes the first unused man of its colour and type (colours exchanged and the board
  // flipped top to bottom when the table holds the other orientation).
  Square sq[kMaxMen];
  bool used[kMaxMen] = {};
  const int flip = slot.swapped ? 8 : 0;       // colour bit of a Piece
  const int vertical = slot.swapped ? 56 : 0;  // square ^ 56: rank r <-> 7 - r
  for (int s = 0; s < layout.men(); ++s) {
    const Piece want = Piece(layout.piece(s) ^ flip);
    int i = 0;
    while (i < men.count && (used[i] || men.piece[i] != want)) ++i;
    if (i == men.count) return std::nullopt;
    used[i] = true;
    sq[s] = Square(men.square[i] ^ vertical);
  }
  const uint64_t index = layout.index(sq, slot.swapped ? ~men.stm : men.stm);
  if (index == Layout::kNone) return std::nullopt;
  return Hit{table, index};
}

}  // namespace sz::chaturanga::tables
