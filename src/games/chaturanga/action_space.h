#pragma once
// The dense action space of the chaturanga family (version 1, docs/ENCODING.md). Squares are
// seen from the side to move: Sittuyin rotates the board 180 degrees for Black, Shatranj flips
// it vertically, so the same id means the same move for either side.
//   [0, kBoardMoves)                 board moves: (from, to) pairs some man can make (rook lines,
//                                    king steps, knight jumps, alfil leaps), ordered by from, to.
//                                    A Shatranj pawn reaching the last rank promotes implicitly.
//   + 5 x 64                         Sittuyin drops: K F S N R, times the square
//   + 64 x 5                         Sittuyin promotions: from, times in place / NE / NW / SE / SW
#include <cstdint>
#include <span>
#include <string>

#include "games/chaturanga/position.h"

namespace sz::chaturanga {

inline constexpr int kActionSpaceVersion = 1;
inline constexpr int kBoardMoves = 1572;
inline constexpr int kDropTypes = 5;
inline constexpr int kSittuyinActions = kBoardMoves + kDropTypes * 64 + 64 * 5;
inline constexpr int kShatranjActions = kBoardMoves;

int action_space_size(Game game);

// The spatial layout of the action space (GameSpec::policy_map): a board move lies on the plane
// of its displacement (one per distinct (file, rank) step some man makes: rook lines, king and
// met steps, knight jumps, alfil leaps) at its from-square; a drop on its man's plane at its
// to-square; a promotion on its form's plane at its from-square. All in the mover's frame.
int policy_planes(Game game);
std::span<const int32_t> policy_map(Game game);

// The id of each action's twin on the board mirrored a <-> h (GameSpec::mirror_actions): both
// games' rules and their encodings are symmetric under it (a khon's and a pawn's forward steps
// included), so a mirrored position plays the mirrored moves to the same result.
std::span<const int32_t> mirror_actions(Game game);

// A square as seen by colour c in `game`, and back (each transform is its own inverse).
constexpr int view_square(Game game, Color c, int sq) {
  return c == White ? sq : game == Game::Sittuyin ? board8::rotate180(sq) : board8::flip_vertical(sq);
}

// The move an id stands for in the mover's frame, as White would write it in UCI ("b1c3", drops
// "R@a1", Sittuyin promotions "d5d5f" / "d5c6f"): the bundle's action table for game clients.
// For Black, map each square back with view_square (Sittuyin: 63 - s, Shatranj: s ^ 56). A
// Shatranj pawn's move to the last rank, a board move here, is written with "q" when played.
// "" for an id that names no move (a promotion step off the board) or is out of range.
std::string action_text(Game game, int32_t action);

// The id of a legal move of `pos`. Requires a move that `pos` can play.
int32_t action_of(const Position& pos, Move m);
// The move an id stands for in `pos`, or a null Move (raw 0) for an id that names no move
// shape there; the caller checks legality.
Move move_of(const Position& pos, int32_t action);

}  // namespace sz::chaturanga
