// Round trips of the notation: every reference FEN parses, prints back as Fairy-Stockfish prints
// it and re-parses to the same position; every legal move's text parses back to the same move.
#include "games/chaturanga/notation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "games/chaturanga/movegen.h"
#include "games/chaturanga/rule_profiles.h"
#include "games/vector_files.h"

namespace sz::chaturanga {
namespace {

const RuleProfile& profile(const std::string& name) { return *chaturanga::rule_profile(name).value(); }

// Fairy-Stockfish prints the men in hand White first, each side in the order K S F R N; the
// reference files may list them in any order (the start line has KFRRSSNN). Rewrites the
// brackets of `fen` into the printed order.
std::string normalise_hand(const std::string& fen) {
  const size_t open = fen.find('['), close = fen.find(']');
  if (open == std::string::npos || close == std::string::npos || close < open) return fen;
  const std::string hand = fen.substr(open + 1, close - open - 1);
  std::string sorted;
  for (const char* order : {"KSFRN", "ksfrn"})
    for (const char* letter = order; *letter; ++letter)
      sorted.append(size_t(std::count(hand.begin(), hand.end(), *letter)), *letter);
  EXPECT_EQ(sorted.size(), hand.size()) << "unexpected letter in the hand of " << fen;
  return fen.substr(0, open + 1) + sorted + fen.substr(close);
}

struct FenCase {
  std::string where;  // file:line, for messages
  std::string profile;
  std::string fen;
};

// Every FEN of the reference files: moves-*.txt (column 2), gameend-*.txt (columns 2 and 4).
std::vector<FenCase> reference_fens() {
  std::vector<FenCase> cases;
  for (const char* file : {"moves-sittuyin.txt", "moves-shatranj.txt"})
    for (const auto& line : test::read_vector_file(file))
      cases.push_back({std::string(file) + ":" + std::to_string(line.number), line.fields.at(0), line.fields.at(1)});
  for (const char* file : {"gameend-sittuyin.txt", "gameend-shatranj.txt"})
    for (const auto& line : test::read_vector_file(file))
      for (size_t column : {1u, 3u})
        cases.push_back(
            {std::string(file) + ":" + std::to_string(line.number), line.fields.at(0), line.fields.at(column)});
  return cases;
}

TEST(Notation, ReferenceFilesAreThere) {
  const auto cases = reference_fens();
  EXPECT_EQ(cases.size(), 241u + 118u + 2 * (28u + 16u));
}

TEST(Notation, FenRoundTripOfReferenceFens) {
  for (const FenCase& c : reference_fens()) {
    SCOPED_TRACE(c.where + " " + c.fen);
    const RuleProfile& rules = profile(c.profile);
    const auto first = Position::from_fen(c.fen, rules);
    ASSERT_TRUE(first.ok()) << first.error();
    std::string why;
    EXPECT_TRUE(first->pos_is_ok(&why)) << why;
    EXPECT_EQ(first->key(), first->compute_key());
    // The files are Fairy-Stockfish's own output, so we print them back unchanged.
    EXPECT_EQ(first->fen(), normalise_hand(c.fen));
    const auto second = Position::from_fen(first->fen(), rules);
    ASSERT_TRUE(second.ok()) << second.error();
    EXPECT_EQ(second->key(), first->key());
    EXPECT_EQ(second->fen(), first->fen());
    EXPECT_EQ(second->side_to_move(), first->side_to_move());
    EXPECT_EQ(second->rule50(), first->rule50());
    EXPECT_EQ(second->counting_limit(), first->counting_limit());
    EXPECT_EQ(second->counting_ply(), first->counting_ply());
    EXPECT_EQ(second->game_ply(), first->game_ply());
  }
}

TEST(Notation, FenRoundTripOfStartSuites) {
  const RuleProfile& rules = profile("sittuyin");
  int count = 0;
  for (const char* file : {"suites/starts-full.epd", "suites/starts-partial.epd"}) {
    std::ifstream in(test::testdata(file));
    ASSERT_TRUE(in) << file;
    std::string fen;
    for (int n = 1; std::getline(in, fen); ++n) {
      if (fen.empty()) continue;
      SCOPED_TRACE(std::string(file) + ":" + std::to_string(n) + " " + fen);
      const auto pos = Position::from_fen(fen, rules);
      ASSERT_TRUE(pos.ok()) << pos.error();
      EXPECT_EQ(pos->fen(), normalise_hand(fen));
      const auto again = Position::from_fen(pos->fen(), rules);
      ASSERT_TRUE(again.ok()) << again.error();
      EXPECT_EQ(again->key(), pos->key());
      ++count;
    }
  }
  EXPECT_EQ(count, 200);
}

TEST(Notation, HandOrderDoesNotMatter) {
  const RuleProfile& rules = profile("sittuyin");
  const auto a = Position::from_fen("8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFRRSSNNkfrrssnn] w - - 0 1", rules);
  const auto b = Position::from_fen("8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[nnssrrfkNNSSRRFK] w - - 0 1", rules);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->key(), b->key());
  EXPECT_EQ(a->fen(), b->fen());
  EXPECT_EQ(a->fen(), "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KSSFRRNNkssfrrnn] w - - 0 1");
  EXPECT_EQ(a->key(), Position::start(rules).key());
}

TEST(Notation, SittuyinFenWithoutBracketsGainsThem) {
  // Fairy-Stockfish accepts a Sittuyin FEN without the hand and prints `[]`.
  const auto pos = Position::from_fen("4k3/8/8/3P4/8/8/P7/4K3 w - - 0 1", profile("sittuyin"));
  ASSERT_TRUE(pos.ok()) << pos.error();
  EXPECT_EQ(pos->fen(), "4k3/8/8/3P4/8/8/P7/4K3[] w - - 0 1");
}

TEST(Notation, OptionalTrailingFieldsDefault) {
  const auto pos = Position::from_fen("4k3/8/8/3P4/8/8/P7/4K3[] b", profile("sittuyin"));
  ASSERT_TRUE(pos.ok()) << pos.error();
  EXPECT_EQ(pos->fen(), "4k3/8/8/3P4/8/8/P7/4K3[] b - - 0 1");
}

TEST(Notation, CountingStateRoundTrips) {
  const RuleProfile& rules = profile("sittuyin");
  const std::string fen = "8/8/8/8/8/3k4/3R4/6K1[] b - 32 5 40";
  const auto pos = Position::from_fen(fen, rules);
  ASSERT_TRUE(pos.ok()) << pos.error();
  EXPECT_EQ(pos->counting_limit(), 32);
  EXPECT_EQ(pos->counting_ply(), 5);
  EXPECT_EQ(pos->rule50(), 0);  // during a count the clock field is the count
  EXPECT_EQ(pos->fen(), fen);
}

TEST(Notation, SquareNamesAndLetters) {
  for (int sq = 0; sq < 64; ++sq) {
    const std::string name = square_name(sq);
    ASSERT_EQ(name.size(), 2u);
    EXPECT_EQ((name[0] - 'a') + 8 * (name[1] - '1'), sq) << name;
  }
  for (Game game : {Game::Sittuyin, Game::Shatranj})
    for (int t = Pawn; t <= King; ++t) {
      const char letter = piece_letter(game, PieceType(t));
      if (!letter) continue;
      EXPECT_EQ(piece_from_letter(game, letter), PieceType(t)) << letter;
      EXPECT_EQ(piece_from_letter(game, char(letter - 'A' + 'a')), PieceType(t)) << letter;
    }
  EXPECT_EQ(piece_from_letter(Game::Sittuyin, 'B'), NoPieceType);
  EXPECT_EQ(piece_from_letter(Game::Sittuyin, 'Q'), NoPieceType);
  EXPECT_EQ(piece_from_letter(Game::Shatranj, 'S'), NoPieceType);
  EXPECT_EQ(piece_from_letter(Game::Shatranj, 'F'), NoPieceType);
}

// Every legal move of every reference position (and of the positions one move later) prints as
// text that parses back to the same move; the listed strings parse and print unchanged.
TEST(Notation, MoveRoundTripOfReferencePositions) {
  int moves = 0;
  for (const char* file : {"moves-sittuyin.txt", "moves-shatranj.txt"})
    for (const auto& line : test::read_vector_file(file)) {
      SCOPED_TRACE(std::string(file) + ":" + std::to_string(line.number) + " " + line.fields.at(1));
      const RuleProfile& rules = profile(line.fields.at(0));
      const auto pos = Position::from_fen(line.fields.at(1), rules);
      ASSERT_TRUE(pos.ok()) << pos.error();
      for (const std::string& text : test::split_words(line.fields.at(2))) {
        const auto m = parse_move(text, *pos);
        ASSERT_TRUE(m.ok()) << text << ": " << m.error();
        EXPECT_EQ(to_uci(*m, rules.game), text);
        if (m->is_promotion()) {  // Fairy-Stockfish forgives the case of the promotion letter
          std::string upper = text;
          upper[4] = char(upper[4] - 'a' + 'A');
          const auto again = parse_move(upper, *pos);
          ASSERT_TRUE(again.ok()) << upper << ": " << again.error();
          EXPECT_EQ(*again, *m);
        }
      }
      MoveList list;
      generate_legal(*pos, list);
      for (Move m : list) {
        const auto back = parse_move(to_uci(m, rules.game), *pos);
        ASSERT_TRUE(back.ok()) << to_uci(m, rules.game) << ": " << back.error();
        EXPECT_EQ(*back, m) << to_uci(m, rules.game);
        ++moves;
        // One ply later: the child's FEN round-trips too (counting state included).
        Position child = *pos;
        child.do_move(m);
        const auto reparsed = Position::from_fen(child.fen(), rules);
        ASSERT_TRUE(reparsed.ok()) << to_uci(m, rules.game) << ": " << reparsed.error();
        EXPECT_EQ(reparsed->key(), child.key()) << to_uci(m, rules.game);
        EXPECT_EQ(reparsed->fen(), child.fen()) << to_uci(m, rules.game);
      }
    }
  EXPECT_GT(moves, 1000);
}

}  // namespace
}  // namespace sz::chaturanga
