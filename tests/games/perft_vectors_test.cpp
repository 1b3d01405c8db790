// Every perft count of Fairy-Stockfish's reference files, through the code behind
// `sittuyin-zero perft --suite`.
#include <gtest/gtest.h>

#include "cli/perft_suite.h"
#include "test_paths.h"

namespace sz::cli {
namespace {

void expect_suite_passes(const std::string& file, size_t expected_lines) {
  const auto cases = read_perft_suite(test::testdata(file));
  ASSERT_EQ(cases.size(), expected_lines) << file;
  std::vector<std::string> failures;
  const PerftReport r = run_perft_suite(cases, "", /*max_depth=*/0,
                                        [&](const std::string& line) { failures.push_back(line); });
  for (const auto& f : failures) ADD_FAILURE() << f;
  EXPECT_EQ(r.failed, 0);
  EXPECT_EQ(r.passed, int(expected_lines));
}

TEST(PerftVectors, Sittuyin) { expect_suite_passes("perft-sittuyin.txt", 241); }
TEST(PerftVectors, Shatranj) { expect_suite_passes("perft-shatranj.txt", 118); }

TEST(PerftVectors, RulesOverrideChangesTheCounts) {
  // The same start position under Ply Yard's placement zones has other counts: the override
  // really selects the profile (88 = 4 men x 20 squares + 8 rook squares under `sittuyin`).
  const auto cases = read_perft_suite(test::testdata("perft-sittuyin.txt"));
  std::vector<std::string> failures;
  const PerftReport r = run_perft_suite({cases.front()}, "sittuyin-plyyard", /*max_depth=*/1,
                                        [&](const std::string& line) { failures.push_back(line); });
  EXPECT_EQ(r.failed, 1);
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_NE(failures[0].find("D1 expected 88"), std::string::npos) << failures[0];
}

}  // namespace
}  // namespace sz::cli
