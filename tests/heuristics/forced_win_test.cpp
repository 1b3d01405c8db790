// forces_win, chaturanga's search for a forced win that the MCTS reads at its leaves
// (search.leaf_win_moves): a mate in one, a win in two by a check, Shatranj's bare-king and
// stalemate wins, and a line through a position seen before counted as no win.
#include "heuristics/forced_win.h"

#include <gtest/gtest.h>

#include <vector>

#include "games/chaturanga/notation.h"
#include "games/chaturanga/rule_profiles.h"

namespace sz::chaturanga {
namespace {

Position load(const char* profile, const char* fen) {
  return Position::from_fen(fen, *rule_profile(profile).take_or_throw(profile)).take_or_throw(fen);
}

bool forced(const char* profile, const char* fen, int moves, const std::vector<uint64_t>& history = {}) {
  return forces_win(load(profile, fen), history, moves);
}

TEST(ForcedWin, MateInOne) {
  // Black mates with h8a8: the b7 rook holds the b-file.
  const char* mate = "7r/1r6/8/8/8/8/8/K6k[] b - - 0 30";
  EXPECT_TRUE(forced("sittuyin", mate, 1));
  EXPECT_TRUE(forced("sittuyin", mate, 2));  // a win in one is a win within two
  EXPECT_FALSE(forced("sittuyin", "7r/8/8/8/8/8/8/K6k[] b - - 0 30", 1));
  EXPECT_FALSE(forced("sittuyin", "7r/8/8/8/8/8/8/K6k[] b - - 0 30", 3));
}

// White: Rb7+ Kg8 (Kh8) Ra8#; no mate in one. The black pawn keeps Sittuyin's counting rule
// and Shatranj's bare king out of the way.
const char* kLadder[] = {"8/7k/R7/8/8/8/7p/1R2K3[] w - - 0 40", "8/7k/R7/8/8/8/7p/1R2K3 w - - 0 40"};

TEST(ForcedWin, TwoMovesByACheck) {
  EXPECT_FALSE(forced("sittuyin", kLadder[0], 1));
  EXPECT_TRUE(forced("sittuyin", kLadder[0], 2));
  EXPECT_FALSE(forced("shatranj", kLadder[1], 1));
  EXPECT_TRUE(forced("shatranj", kLadder[1], 2));
  // Black to move in the same position has no such win.
  EXPECT_FALSE(forced("sittuyin", "8/7k/R7/8/8/8/7p/1R2K3[] b - - 0 40", 2));
}

TEST(ForcedWin, ALineThroughAPositionSeenBeforeIsNoWin) {
  // After Rb7+ Kg8 the position may repeat one of the game's: it might be a draw, so no win is
  // claimed through it; the mate itself needs no history.
  Position after = load("sittuyin", kLadder[0]);
  after.do_move(parse_move("b1b7", after).take_or_throw("b1b7"));
  after.do_move(parse_move("h7g8", after).take_or_throw("h7g8"));
  const std::vector<uint64_t> history(2, after.key());
  EXPECT_FALSE(forced("sittuyin", kLadder[0], 2, history)) << "Kg8 repeats";
  EXPECT_TRUE(forced("sittuyin", "7r/1r6/8/8/8/8/8/K6k[] b - - 0 30", 1, history));
}

TEST(ForcedWin, ShatranjBareKingAndStalemateWins) {
  // Rxa5 bares the black king, which cannot bare White's two men back: decided at once.
  EXPECT_TRUE(forced("shatranj", "7k/8/8/p7/8/8/8/RR2K3 w - - 0 30", 1));
  // With one rook left Black gets its move first (the one-move exception): no win in one.
  EXPECT_FALSE(forced("shatranj", "7k/8/8/p7/8/8/8/R3K3 w - - 0 30", 1));
  // Kc7 leaves the a8 king without a move: a stalemate, lost in Shatranj, drawn in Sittuyin.
  EXPECT_TRUE(forced("shatranj", "k7/1p6/1P1K4/8/8/8/8/8 w - - 0 30", 1));
  EXPECT_FALSE(forced("sittuyin", "k7/1p6/1P1K4/8/8/8/8/8[] w - - 0 30", 1));
}

}  // namespace
}  // namespace sz::chaturanga
