#pragma once
// The material of an endgame table (docs/TABLES.md): the men besides the two kings, pawnless,
// named as "KRSvK" with the game's letters (Sittuyin R S N F, Shatranj R N B Q). A table is stored
// in one colour orientation, the canonical one: the side with more men, else the stronger men
// (table_men's order), is White. A position of the other orientation is probed with its
// colours exchanged and its board flipped top to bottom (a symmetry of both games' rules).
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "games/chaturanga/profile.h"
#include "games/chaturanga/types.h"

namespace sz::chaturanga::tables {

inline constexpr int kMaxMen = 4;               // kings included: two kings and up to two more men
inline constexpr int kMaxOthers = kMaxMen - 2;  // men besides the kings, on one side or both

struct Material {
  Game game = Game::Sittuyin;
  // Each side's men besides its king, strongest first (table_men's order), NoPieceType after the
  // last.
  std::array<std::array<PieceType, kMaxOthers>, 2> men{};

  int count(Color c) const;
  int total() const { return 2 + count(White) + count(Black); }  // kings included
  Material swapped() const;                                      // the colours exchanged
  bool canonical() const;                                        // the orientation its table is stored in
  Material canonical_form() const { return canonical() ? *this : swapped(); }
  bool has(PieceType t) const;  // either side has a man of type t
  std::string name() const;     // "KRSvK"
  bool operator==(const Material&) const = default;
};

// The men a table may hold for `game`, strongest first (the order of names and slots): Sittuyin
// rook, khon, knight, met; Shatranj rook, knight, alfil, fers.
std::span<const PieceType> table_men(Game game);
char man_letter(Game game, PieceType t);  // upper case: 'R', 'S', 'F', 'N', 'B', 'Q'

// Parses "KRSvK" (either orientation; returned as written). The error names the bad letter.
Result<Material> parse_material(std::string_view name, Game game);

// Every canonical material of 3 to `max_men` men (kings included) of `game`, fewest men first.
std::vector<Material> all_materials(Game game, int max_men);

// The canonical materials one capture away from `m` (one man of either side gone), except the
// bare kings (K vs K, a draw without a table).
std::vector<Material> capture_materials(const Material& m);

}  // namespace sz::chaturanga::tables
