// Exact legal-move sets of Fairy-Stockfish's reference files (moves-*.txt).
#include <gtest/gtest.h>

#include <algorithm>

#include "games/chaturanga/movegen.h"
#include "games/chaturanga/notation.h"
#include "games/chaturanga/rule_profiles.h"
#include "games/vector_files.h"

namespace sz::chaturanga {
namespace {

void expect_move_lists_match(const std::string& file, size_t expected_lines) {
  const auto lines = test::read_vector_file(file);
  ASSERT_EQ(lines.size(), expected_lines);
  for (const auto& line : lines) {
    ASSERT_EQ(line.fields.size(), 3u) << file << ":" << line.number;
    const RuleProfile& rules = *chaturanga::rule_profile(line.fields[0]).value();
    const auto pos = Position::from_fen(line.fields[1], rules);
    ASSERT_TRUE(pos.ok()) << file << ":" << line.number << ": " << pos.error();
    MoveList list;
    generate_legal(*pos, list);
    std::vector<std::string> got;
    for (Move m : list) got.push_back(to_uci(m, rules.game));
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, test::split_words(line.fields[2])) << file << ":" << line.number << " " << line.fields[1];
  }
}

TEST(MoveVectors, Sittuyin) { expect_move_lists_match("moves-sittuyin.txt", 241); }
TEST(MoveVectors, Shatranj) { expect_move_lists_match("moves-shatranj.txt", 118); }

}  // namespace
}  // namespace sz::chaturanga
