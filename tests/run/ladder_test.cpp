// The ladder's file and its conditions: a match counts only under the conditions it was played
// under, and a line from before conditions were recorded counts under any.
#include "run/ladder.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/read_file.h"
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
  std::ofstream(dir.str() + "/eval/networks.jsonl") << "{\"step\": 100, \"generation\": 1}\n";
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
  {
    Ladder ladder(dir.str(), "anchor", conditions);
    ladder.add_network({100, 1});
    ladder.record(match(100, kAnchorStep, 2));
  }
  const Ladder again(dir.str(), "anchor", conditions);
  EXPECT_EQ(again.set_aside(), 0);
  EXPECT_TRUE(again.played(100, kAnchorStep));
}

// A line of ladder.jsonl is read back strictly: out-of-range counts, a self-match or a network
// not adopted are errors naming the file and line (they gave "-986 games" and "+37203 Elo"); a
// killed writer's unfinished line is skipped.
TEST(Ladder, OutOfRangeLinesAreErrorsNamingFileAndLine) {
  const std::string good =
      "{\"a_step\": 100, \"a_generation\": 1, \"b_step\": -1, \"b_generation\": 0, \"wins\": 1, \"draws\": 1, "
      "\"losses\": 0}";
  auto with = [&](const std::string& key, const std::string& value) {
    std::string line = good;
    const size_t at = line.find("\"" + key + "\": ") + key.size() + 4;
    return line.substr(0, at) + value + line.substr(line.find_first_of(",}", at));
  };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {with("wins", "-1000"), "wins -1000"},
      {with("draws", "1e300"), "draws 1.0000000000000001e+300"},
      {with("losses", "0.5"), "losses 0.5"},
      {with("a_step", "1e30"), "a_step"},
      {with("b_step", "100"), "against itself"},
      {with("a_step", "200"), "step 200 is not in networks.jsonl"},
      {"{\"a_step\": 100}", "no 'a_generation'"},
      // Its conditions converted to an integer: infinity was undefined behaviour (ladder_fuzz).
      {good.substr(0, good.size() - 1) + ", \"conditions\": 1e999}", "conditions inf"},
      {good.substr(0, good.size() - 1) + ", \"conditions\": -3}", "conditions -3"},
  };
  for (const auto& [line, message] : cases) {
    TempDir dir;
    std::filesystem::create_directories(dir.str() + "/eval");
    std::ofstream(dir.str() + "/eval/networks.jsonl") << "{\"step\": 100, \"generation\": 1}\n";
    std::ofstream(dir.str() + "/eval/ladder.jsonl") << good << "\n" << line << "\n";
    try {
      Ladder ladder(dir.str(), "anchor", 0);
      ADD_FAILURE() << "accepted: " << line;
    } catch (const Error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("eval/ladder.jsonl:2: "), std::string::npos) << what;
      EXPECT_NE(what.find(message), std::string::npos) << what;
    }
  }
  TempDir dir;
  std::filesystem::create_directories(dir.str() + "/eval");
  std::ofstream(dir.str() + "/eval/networks.jsonl") << "{\"step\": 100, \"generation\": 1}\n{\"step\": 2";
  std::ofstream(dir.str() + "/eval/ladder.jsonl") << good << "\n{\"a_step\": 100, \"a_gen";
  const Ladder ladder(dir.str(), "anchor", 0);
  EXPECT_EQ(ladder.networks().size(), 1u);
  EXPECT_EQ(ladder.matches().size(), 1u);
}

// The fuzzer's way in (tests/fuzz/ladder_fuzz.cpp): the two files' text gives the ladder their
// files give, and its errors name the files of the run named, though none was read.
TEST(Ladder, ReadsTheSameFromTextAsFromItsFiles) {
  TempDir dir;
  {
    Ladder ladder(dir.str(), "anchor", 11);
    ladder.add_network({100, 1});
    ladder.add_network({200, 2});
    ladder.record(match(100, kAnchorStep, 1));
    ladder.record(match(200, 100, 2));
  }
  const Ladder files(dir.str(), "anchor", 11);
  const Ladder text("elsewhere", "anchor", 11, sz::read_file(dir.str() + "/eval/networks.jsonl"),
                    sz::read_file(dir.str() + "/eval/ladder.jsonl"));
  ASSERT_EQ(text.networks().size(), 2u);
  ASSERT_EQ(text.matches().size(), files.matches().size());
  EXPECT_EQ(text.networks()[1].step, 200);
  EXPECT_EQ(text.matches()[1].a_step, 200);
  EXPECT_EQ(text.matches()[1].score.wins, 2);
  EXPECT_EQ(text.fit().games, files.fit().games);
  EXPECT_FALSE(std::filesystem::exists("elsewhere"));
  try {
    Ladder bad("elsewhere", "anchor", 11, "{\"step\": -5, \"generation\": 1}\n", "");
    FAIL() << "a negative step was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("elsewhere/eval/networks.jsonl:1: step -5"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace sz::run
