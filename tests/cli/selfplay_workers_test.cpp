// Two `selfplay` processes on one folder, as users start them: with default settings both used
// the shard names "<host>-w0-<seq>", so each truncated and deleted the other's temporary file
// (".vm-w0-000000.h5.tmp: cannot open file to sync it") and one died; with distinct prefixes
// both played the same seeds, and the folder held twice the games asked for.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <set>
#include <string>

#include "data/shard_files.h"
#include "data/shard_reader.h"
#include "shell_helpers.h"
#include "test_paths.h"

namespace {

TEST(SelfplayWorkers, TwoProcessesOnOneFolderShareItsTarget) {
  const std::string dir = testing::TempDir() + "/selfplay-workers-" + std::to_string(getpid());
  std::filesystem::remove_all(dir);
  // Enough games that the second process starts before the first is done (8 took 0.2 s, less
  // than the second one's start-up, and it found the target met: one worker, no collision tried).
  const int target = 48;
  const std::string selfplay = sz::test::binary() + " selfplay --games " + std::to_string(target) + " --out " + dir +
                               " --set search.full_visits=4 --set search.cheap_visits=2 --set selfplay.max_plies=120"
                               " --set selfplay.games_per_thread=2 --set selfplay.games_per_shard=1";
  const sz::test::CommandRun both = sz::test::run_shell("sh -c '" + selfplay + " & a=$!; " + selfplay +
                                                        " & b=$!; wait $a; ra=$?; wait $b; rb=$?; exit $((ra + rb))'");
  const std::string& output = both.output;
  ASSERT_EQ(both.status, 0) << output;
  std::set<uint64_t> seeds;
  std::set<std::string> workers;
  int games = 0;
  for (const std::string& path : sz::data::list_shards(dir)) {
    const auto reader = sz::data::ShardReader::open(path);  // throws on a damaged shard
    workers.insert(reader.info().worker);
    for (const uint64_t seed : reader.read_seeds()) {
      EXPECT_TRUE(seeds.insert(seed).second) << "seed " << seed << " played twice";
      ++games;
    }
  }
  EXPECT_EQ(workers.size(), 2u) << output;
  EXPECT_GE(games, target);
  EXPECT_LE(games, target + 4) << "the two processes did not share the target";
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    EXPECT_FALSE(entry.path().filename().string().ends_with(".tmp")) << entry.path();
  std::filesystem::remove_all(dir);
}

}  // namespace
