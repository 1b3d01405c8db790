#pragma once
// Sittuyin formations (games/ rather than chaturanga/, since they are read and played through the
// game seam and the registry): the eight men a side places (king, met, two khons, two knights, two rooks)
// and where, in the placing side's own frame (the shards' mover's frame: Black's squares are
// rotated by 180 degrees, s -> 63 - s, so a1 is each side's left back corner and both sides'
// pawns stand on a3-d3 and e4-h4). A formation is written as drops in that frame, e.g.
// "K@e2 F@d2 S@c2 S@f2 N@b1 N@g1 R@a1 R@h1"; formation_text() orders them canonically (by man,
// then square), so equal formations have equal text.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace sz::games {

// The placed men by their Sittuyin letters, in the order tables list them.
inline constexpr std::string_view kMen = "KFSNR";
inline constexpr int kManTypes = 5;
inline constexpr std::array<int, kManTypes> kMenPerType = {1, 1, 2, 2, 2};
inline constexpr int kMenPerSide = 8;
inline constexpr std::array<const char*, kManTypes> kManNames = {"king", "met", "khon", "knight", "rook"};

struct Drop {
  int man = 0;     // index into kMen
  int square = 0;  // the placing side's frame, a1 = 0, b1 = 1, ..., h8 = 63
};

// The men of one side after placement, sorted by man, then square.
struct Formation {
  std::vector<Drop> men;
};

// A square of the side's frame on the real board, and back (the same map both ways).
constexpr int board_square(int colour, int square) { return colour == 0 ? square : 63 - square; }

std::string square_name(int square);  // "a1"
// One drop "X@sq" (X one of kMen, sq a square name) as written, or nullopt.
std::optional<Drop> parse_drop(std::string_view word);
std::string formation_text(const Formation& f);
// Parses drops "X@sq" separated by spaces or commas, X one of kMen; checks that the men are
// exactly one king, one met and two each of khons, knights and rooks on distinct squares. That
// they may stand there under a profile is checked by playing them (formation_play.h).
Result<Formation> parse_formation(std::string_view text);

// One side of a game's placement.
struct SidePlacement {
  Formation formation;
  std::vector<Drop> order;  // the drops in the order they were played
  uint64_t pawns = 0;       // the side's pawns after placement, bit = square in its frame
};

// A game's placement phase, read back from its record.
struct PlacedGame {
  std::string profile;
  int result = 0;                     // White's view: +1, 0, -1
  std::array<SidePlacement, 2> side;  // White, Black
  std::string fen;                    // the position after both placements
};

// The men of both sides on the board of a FEN, each in its side's frame, and its pawns.
Result<std::array<SidePlacement, 2>> men_of_fen(std::string_view fen);

// Replays a game record's `moves` (UCI, space separated) from `start_fen` (empty: the profile's
// start) while placement lasts; `result` is White's. Fails (naming the move) on a record that is
// no Sittuyin game, starts after placement, has a move that is not legal, or ends before
// placement does. (formation_profiles.cpp: through the registry, so in sz_games.)
Result<PlacedGame> replay_placement(std::string_view profile, std::string_view start_fen, std::string_view moves,
                                    int result);

}  // namespace sz::games
