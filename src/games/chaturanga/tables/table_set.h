#pragma once
// The tables of one set of ending rules, by material, and where a position's value lies in them.
// Thread-safe once filled: lookups only read.
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "games/chaturanga/position.h"
#include "games/chaturanga/tables/ending_rules.h"
#include "games/chaturanga/tables/table.h"

namespace sz::chaturanga::tables {

// A position as the tables see it: its men (kings included) and the side to move.
struct Men {
  int count = 0;
  Piece piece[kMaxMen] = {};
  Square square[kMaxMen] = {};
  Color stm = White;
};

// The men of `pos` when it may lie in a table: both kings on the board, no pawn, no man in hand,
// at most kMaxMen men.
std::optional<Men> men_of(const Position& pos);

class TableSet {
 public:
  explicit TableSet(const EndingRules& rules);

  const EndingRules& rules() const { return rules_; }
  // Adds a table, replacing one of the same material.
  void add(std::shared_ptr<const Table> table);
  const Table* find(const Material& canonical) const;
  std::vector<const Table*> tables() const;
  int max_men() const { return max_men_; }

  struct Hit {
    const Table* table = nullptr;  // null: the bare kings, a draw without a table
    uint64_t index = 0;
  };
  // The entry of `men`, its colours exchanged when its table holds the other orientation;
  // nullopt when the set has no table of its material.
  std::optional<Hit> locate(const Men& men) const;

 private:
  struct Slot {
    int16_t table = -1;
    bool swapped = false;
  };

  EndingRules rules_;
  std::vector<std::shared_ptr<const Table>> tables_;
  std::vector<Slot> by_key_;  // by material_key
  int max_men_ = 2;
};

}  // namespace sz::chaturanga::tables
