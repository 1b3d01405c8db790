// End states of Fairy-Stockfish's reference files (gameend-*.txt): the FEN after the moves,
// the verdict and its kind, the claimable draw, and pychess's insufficient-material flags.
#include <gtest/gtest.h>

#include "games/chaturanga/adjudicate.h"
#include "games/chaturanga/notation.h"
#include "games/chaturanga/rule_profiles.h"
#include "games/vector_files.h"

namespace sz::chaturanga {
namespace {

// The claimable draw a line's note describes.
EndReason claimed_reason(const std::string& note) {
  if (note.find("-move rule") != std::string::npos) return EndReason::NMove;
  if (note.find("repetition") != std::string::npos) return EndReason::Repetition;
  if (note.find("count") != std::string::npos) return EndReason::Counting;
  if (note.find("promotion") != std::string::npos) return EndReason::PromotionOnly;
  return EndReason::None;
}

// What adjudicate() must say, given the reference columns (kind, result, claim, insufficient).
GameEnd expected_end(const std::vector<std::string>& f) {
  const std::string &result = f[4], &kind = f[5], &claim = f[6], &insufficient = f[7];
  auto outcome = [](const std::string& r) {
    return r == "1-0" ? Outcome::WhiteWins : r == "0-1" ? Outcome::BlackWins : Outcome::Draw;
  };
  if (kind == "immediate") return {outcome(result), EndReason::BareKing};
  if (kind == "checkmate") return {outcome(result), EndReason::Checkmate};
  if (kind == "stalemate") return {outcome(result), EndReason::Stalemate};
  if (claim != "-") return {outcome(claim), claimed_reason(f[8])};
  if (insufficient == "W/B") return {Outcome::Draw, EndReason::Insufficient};
  return {};
}

void expect_game_ends_match(const std::string& file, size_t expected_lines) {
  const auto lines = test::read_vector_file(file);
  ASSERT_EQ(lines.size(), expected_lines);
  for (const auto& line : lines) {
    const auto& f = line.fields;
    ASSERT_EQ(f.size(), 9u) << file << ":" << line.number;
    const std::string where = file + ":" + std::to_string(line.number) + " (" + f[8] + ")";
    const RuleProfile& rules = *chaturanga::rule_profile(f[0]).value();
    auto parsed = Position::from_fen(f[1], rules);
    ASSERT_TRUE(parsed.ok()) << where << ": " << parsed.error();
    Position pos = *parsed;
    std::vector<uint64_t> history;
    for (const auto& text : f[2] == "-" ? std::vector<std::string>{} : test::split_words(f[2])) {
      const auto m = parse_move(text, pos);
      ASSERT_TRUE(m.ok()) << where << ": " << m.error();
      history.push_back(pos.key());
      pos.do_move(*m);
    }
    EXPECT_EQ(pos.fen(), f[3]) << where;
    const GameEnd want = expected_end(f), got = adjudicate(pos, history);
    EXPECT_EQ(to_string(got.outcome), to_string(want.outcome)) << where;
    EXPECT_EQ(to_string(got.reason), to_string(want.reason)) << where;
    const std::string flags =
        std::string(cannot_mate(pos, White) ? "W" : "-") + "/" + (cannot_mate(pos, Black) ? "B" : "-");
    EXPECT_EQ(flags, f[7]) << where;
  }
}

TEST(GameEndVectors, Sittuyin) { expect_game_ends_match("gameend-sittuyin.txt", 28); }
TEST(GameEndVectors, Shatranj) { expect_game_ends_match("gameend-shatranj.txt", 16); }

TEST(GameEndVectors, RepetitionNeedsTheThirdOccurrence) {
  // One move short of the threefold line above: the position has been seen only twice.
  const RuleProfile& rules = *chaturanga::rule_profile("sittuyin").value();
  Position pos = Position::from_fen("4k3/8/4p3/8/8/4P3/8/R3K3[] w - - 0 1", rules).value();
  std::vector<uint64_t> history;
  for (const char* text : {"a1a2", "e8d8", "a2a1", "d8e8", "a1a2", "e8d8", "a2a1", "d8e8"}) {
    EXPECT_FALSE(adjudicate(pos, history).over()) << "before " << text;
    history.push_back(pos.key());
    pos.do_move(parse_move(text, pos).value());
  }
  EXPECT_EQ(adjudicate(pos, history).reason, EndReason::Repetition);
}

}  // namespace
}  // namespace sz::chaturanga
