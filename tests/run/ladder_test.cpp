// The ladder's file and its conditions: a match counts only under the conditions it was played
// under, and a line from before conditions were recorded counts under any.
#include "run/ladder.h"

#include <gtest/gtest.h>

#include <fstream>

#include "train/train_fixtures.h"

namespace sz::run {
namespace {

using train::test::TempDir;

LadderMatch match(int64_t a, int64_t b, int wins) {
  LadderMatch m;
  m.a_step = a;
  m.b_step = b;
  m.a_generation = a == kAnchorStep ? 0 : 1;
  m.b_generation = b == kAnchorStep ? 0 : 1;
  m.score = {wins, 0, 2 - wins};
  m.simulations = 16;
  return m;
}

TEST(Ladder, MatchesCountOnlyUnderTheConditionsTheyWerePlayedUnder) {
  TempDir dir;
  {
    Ladder ladder(dir.str(), "anchor", 11);
    ladder.add_network({100, 1});
    ladder.record(match(100, kAnchorStep, 1));
    EXPECT_TRUE(ladder.played(100, kAnchorStep));
  }
  const Ladder same(dir.str(), "anchor", 11);
  EXPECT_TRUE(same.played(kAnchorStep, 100));
  EXPECT_EQ(same.set_aside(), 0);
  ASSERT_EQ(same.matches().size(), 1u);
  EXPECT_EQ(same.matches()[0].conditions, 11u);
  EXPECT_EQ(same.fit().games, 2);

  const Ladder other(dir.str(), "anchor", 12);
  EXPECT_FALSE(other.played(100, kAnchorStep));
  EXPECT_EQ(other.set_aside(), 1);
  EXPECT_TRUE(other.matches().empty());
  EXPECT_EQ(other.fit().games, 0);
  EXPECT_EQ(other.networks().size(), 1u) << "the adopted networks do not depend on the conditions";
}

TEST(Ladder, ALineWrittenBeforeConditionsCountsUnderAny) {
  TempDir dir;
  std::filesystem::create_directories(dir.str() + "/eval");
  std::ofstream(dir.str() + "/eval/ladder.jsonl")
      << "{\"a_step\": 100, \"a_generation\": 1, \"b_step\": -1, \"b_generation\": 0, \"wins\": 1, \"draws\": 1, "
         "\"losses\": 0, \"simulations\": 64}\n";
  const Ladder ladder(dir.str(), "anchor", 12345);
  EXPECT_TRUE(ladder.played(100, kAnchorStep));
  EXPECT_EQ(ladder.set_aside(), 0);
}

TEST(Ladder, ConditionsOfFiftyThreeBitsReadBackExactly) {
  TempDir dir;
  const uint64_t conditions = (uint64_t{1} << 53) - 3;
  Ladder(dir.str(), "anchor", conditions).record(match(100, kAnchorStep, 2));
  const Ladder again(dir.str(), "anchor", conditions);
  EXPECT_EQ(again.set_aside(), 0);
  EXPECT_TRUE(again.played(100, kAnchorStep));
}

}  // namespace
}  // namespace sz::run
