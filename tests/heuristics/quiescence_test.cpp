// The capture-only search behind chaturanga's Heuristics::quiescent_material: a hanging man counts as won, a
// defended one as kept, a mate as a huge loss, and a placement-phase position as its count; and
// the king hunt the search may add to it.
#include "heuristics/quiescence.h"

#include <gtest/gtest.h>

#include "games/registry.h"
#include "heuristics/heuristics.h"

namespace sz::chaturanga {
namespace {

const game::Heuristics& of(const char* profile) {
  return *heuristics::of_game(games::spec_for(profile).take_or_throw(profile).game);
}

float resolved(const char* profile, const char* fen, int plies = 8, int full_plies = 0) {
  return of(profile).quiescent_material(*games::new_game(profile, fen).take_or_throw(fen), full_plies, plies);
}

float counted(const char* profile, const char* fen) {
  return of(profile).material(*games::new_game(profile, fen).take_or_throw(fen));
}

TEST(Quiescence, AHangingRookCountsAsWonForTheMover) {
  for (const char* fen : {"r3k3/8/8/8/8/8/8/R3K3[] w - - 0 20", "r3k3/8/8/8/8/8/8/R3K3[] b - - 0 20"}) {
    EXPECT_FLOAT_EQ(counted("sittuyin", fen), 0.0f);
    EXPECT_FLOAT_EQ(resolved("sittuyin", fen), 5.0f) << fen;
  }
  EXPECT_FLOAT_EQ(resolved("shatranj", "r3k3/p7/8/8/8/8/P7/R3K3 w - - 0 20"), 0.0f);  // pawns shield both rooks
}

TEST(Quiescence, ADefendedManIsNotTakenAtALoss) {
  // Rxa7 Rxa7 would lose the rook for a pawn: the mover stands pat a pawn down.
  const char* fen = "r3k3/p7/8/8/8/8/8/R3K3[] w - - 0 20";
  EXPECT_FLOAT_EQ(counted("sittuyin", fen), -1.0f);
  EXPECT_FLOAT_EQ(resolved("sittuyin", fen), -1.0f);
  EXPECT_FLOAT_EQ(resolved("shatranj", "r3k3/8/8/8/8/8/P7/R3K3 b - - 0 20"), -1.0f);  // Rxa2 Rxa2 likewise
}

TEST(Quiescence, ExchangesArePlayedOutToTheEnd) {
  // Rxa7 (Rxa7 Rxa7): White's two rooks against a rook defending a pawn win the pawn.
  const char* fen = "r3k3/p7/8/8/8/8/R7/R3K3[] w - - 0 20";
  EXPECT_FLOAT_EQ(counted("sittuyin", fen), 4.0f);
  EXPECT_FLOAT_EQ(resolved("sittuyin", fen), 5.0f);
  EXPECT_FLOAT_EQ(resolved("sittuyin", fen, 0), 4.0f);  // no plies: the count itself
}

TEST(Quiescence, CheckmateIsAHugeLossAndChecksAreAnswered) {
  EXPECT_FLOAT_EQ(resolved("sittuyin", "k7/8/8/8/8/8/rr6/K7[] w - - 0 30"), -kMatedMaterial);
}

TEST(Quiescence, APlacementPositionIsItsCount) {
  const char* fen = "1n6/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFSSNNRkfssnrr] w - - 0 1";
  EXPECT_FLOAT_EQ(resolved("sittuyin", fen), counted("sittuyin", fen));
}

// A pawn forks two knights that do not guard each other (nor can check the king to gain a
// tempo): standing pat keeps both; one full ply first shows that the mover keeps a knight and
// the pawn recaptured (Nd7 dxc5 Nxc5), two pawns less than its count.
TEST(Quiescence, AFullPlySeesTheForkThatStandingPatMisses) {
  const char* fen = "7k/8/8/2n1n3/3P4/8/8/7K[] b - - 0 30";
  EXPECT_FLOAT_EQ(counted("sittuyin", fen), 5.0f);
  EXPECT_FLOAT_EQ(resolved("sittuyin", fen, 8, 0), 5.0f);
  EXPECT_FLOAT_EQ(resolved("sittuyin", fen, 8, 1), 3.0f);
  EXPECT_FLOAT_EQ(resolved("sittuyin", fen, 8, 2), 3.0f);
}

float hunt(const char* fen) { return of("sittuyin").king_hunt(*games::new_game("sittuyin", fen).take_or_throw(fen)); }

// The mop-up term: larger as the side ahead drives the bare king to a corner and its own king
// closes in, the same from either side's view with its sign, nothing near equality.
TEST(KingHunt, GrowsAsTheLoneKingNearsACornerAndTheOtherKingClosesIn) {
  const float centre = hunt("8/8/8/3k4/8/8/8/R6K[] w - - 0 40");
  const float edge = hunt("8/8/8/7k/8/8/8/R6K[] w - - 0 40");
  const float corner = hunt("7k/8/8/8/8/8/8/R6K[] w - - 0 40");
  const float corner_close = hunt("7k/8/5K2/8/8/8/8/R7[] w - - 0 40");
  EXPECT_GT(edge, centre);
  EXPECT_GT(corner, edge);
  EXPECT_GT(corner_close, corner);
  EXPECT_FLOAT_EQ(corner_close, 0.1f * 6 + 0.06f * 5);  // the largest: corner, kings two apart
  EXPECT_FLOAT_EQ(hunt("7k/8/5K2/8/8/8/8/R7[] b - - 0 40"), -corner_close);
  EXPECT_FLOAT_EQ(hunt("7k/8/5K2/8/8/8/8/F7[] w - - 0 40"), 0.0f);                             // a met is not enough
  EXPECT_FLOAT_EQ(hunt("1n6/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFSSNNRkfssnrr] w - - 0 1"), 0.0f);  // placement
}

}  // namespace
}  // namespace sz::chaturanga
