// Standard algebraic notation as Fairy-Stockfish writes it, for PGN files.
#include <gtest/gtest.h>

#include "games/chaturanga/notation.h"
#include "games/chaturanga/rule_profiles.h"

namespace sz::chaturanga {
namespace {

std::string san(const char* profile, const char* fen, const char* uci) {
  const Position pos = Position::from_fen(fen, **chaturanga::rule_profile(profile)).value();
  return to_san(pos, parse_move(uci, pos).value());
}

TEST(San, SittuyinDropsPromotionsAndMate) {
  const char* start = "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KSSFRRNNkssfrrnn] w - - 0 1";
  EXPECT_EQ(san("sittuyin", start, "R@a1"), "R@a1");
  const char* promo = "4k3/8/8/3P4/8/8/P7/4K3[] w - - 0 1";
  EXPECT_EQ(san("sittuyin", promo, "d5d5f"), "d5=F");
  EXPECT_EQ(san("sittuyin", promo, "d5c6f"), "d5c6=F");
  EXPECT_EQ(san("sittuyin", promo, "a2a3"), "a3");
  EXPECT_EQ(san("sittuyin", promo, "e1d1"), "Kd1");
  EXPECT_EQ(san("sittuyin", "k7/8/1K6/8/8/8/8/7R[] w - - 0 1", "h1h8"), "Rh8#");
}

TEST(San, ShatranjCapturesPromotionsChecksAndDisambiguation) {
  const char* fen = "n1n1k3/1P6/8/8/8/8/8/4K2R w - - 0 1";
  EXPECT_EQ(san("shatranj", fen, "b7a8q"), "bxa8=Q");
  EXPECT_EQ(san("shatranj", fen, "b7b8q"), "b8=Q");
  EXPECT_EQ(san("shatranj", fen, "h1h8"), "Rh8+");
  const char* knights = "4k3/7p/8/8/8/8/8/1N1NK3 w - - 0 1";  // the pawn: Black is not bare
  EXPECT_EQ(san("shatranj", knights, "b1c3"), "Nbc3");
  EXPECT_EQ(san("shatranj", knights, "d1c3"), "Ndc3");
  EXPECT_EQ(san("shatranj", knights, "d1f2"), "Nf2");
  const char* rooks = "4k3/7p/8/R7/8/8/8/R3K3 w - - 0 1";
  EXPECT_EQ(san("shatranj", rooks, "a1a3"), "R1a3");
}

}  // namespace
}  // namespace sz::chaturanga
