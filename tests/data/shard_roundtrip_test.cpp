// Shards round-trip every field, rotate by game count and age, resume their numbering, and are
// the only files list_shards reports.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "core/error.h"
#include "data/shard_reader.h"
#include "data/shard_writer.h"
#include "test_games.h"

namespace sz::data {
namespace {

using test::make_game;
using test::TempDir;

// Writes games [first, first + count) and returns the shards that add_game/close finished.
std::vector<std::string> write_games(ShardWriter& writer, int first, int count, bool close = true) {
  std::vector<std::string> done;
  for (int i = first; i < first + count; ++i) {
    std::string path = writer.add_game(make_game(i));
    if (!path.empty()) done.push_back(path);
  }
  if (close) {
    std::string path = writer.close();
    if (!path.empty()) done.push_back(path);
  }
  return done;
}

TEST(ShardRoundTrip, EveryFieldOfGamesAndPositionsAcrossShards) {
  TempDir dir;
  ShardWriter writer(dir.str(), "w", test::test_spec(), {.games_per_shard = 4});
  const auto written = write_games(writer, 0, 10);
  const auto shards = list_shards(dir.str());
  ASSERT_EQ(shards, written);
  ASSERT_EQ(shards.size(), 3u);  // 4 + 4 + 2 games
  EXPECT_EQ(shards[0], dir.file("w-000000.h5"));
  EXPECT_EQ(shards[2], dir.file("w-000002.h5"));

  int game = 0;
  for (const std::string& path : shards) {
    const ShardReader reader = ShardReader::open(path);
    const ShardInfo& info = reader.info();
    EXPECT_EQ(info.format_version, kSampleFormatVersion);
    EXPECT_EQ(info.spec.game, "sittuyin");
    EXPECT_NO_THROW(reader.check_compatible(test::test_spec()));
    EXPECT_EQ(info.writer.rfind("sittuyin-zero ", 0), 0u) << info.writer;
    EXPECT_EQ(info.profiles, (std::vector<std::string>{"sittuyin", "sittuyin-plyyard"}));
    const std::vector<GameInfo> games = reader.read_games();
    ASSERT_EQ(int64_t(games.size()), info.num_games);
    const PositionColumns all = reader.read_positions();
    ASSERT_EQ(all.size(), info.num_positions);
    for (const GameInfo& g : games) {
      const GameRecord expected = make_game(game++);
      test::expect_same_meta(g, expected.meta);
      ASSERT_EQ(g.num_positions, expected.positions.size());
      test::expect_same_positions(reader.read_positions(g.first_position, g.num_positions), expected.positions);
    }
    int64_t policy = 0;
    for (int32_t c : all.policy_count) policy += c;
    EXPECT_EQ(policy, info.num_policy_entries);
  }
  EXPECT_EQ(game, 10);
}

TEST(ShardRoundTrip, RangesSpanGamesAndRebasePolicies) {
  TempDir dir;
  ShardWriter writer(dir.str(), "w", test::test_spec(), {.games_per_shard = 100});
  write_games(writer, 0, 5);
  PositionColumns expected(12, 32);
  for (int i = 0; i < 5; ++i) expected.append(make_game(i).positions);
  const ShardReader reader = ShardReader::open(list_shards(dir.str()).at(0));
  test::expect_same_positions(reader.read_positions(), expected);
  const PositionColumns mid = reader.read_positions(4, 20);  // crosses game boundaries
  ASSERT_EQ(mid.size(), 20);
  EXPECT_EQ(mid.policy_start.front(), 0);
  for (int64_t i = 0; i < mid.size(); ++i) {
    EXPECT_TRUE(std::ranges::equal(mid.planes_of(i), expected.planes_of(4 + i)));
    EXPECT_TRUE(std::ranges::equal(mid.policy_actions_of(i), expected.policy_actions_of(4 + i)));
    EXPECT_TRUE(std::ranges::equal(mid.policy_probs_of(i), expected.policy_probs_of(4 + i)));
    EXPECT_EQ(mid.plies_to_end[size_t(i)], expected.plies_to_end[size_t(4 + i)]);
  }
  EXPECT_EQ(reader.read_positions(7, 0).size(), 0);
  EXPECT_THROW(reader.read_positions(expected.size() - 1, 2), Error);
}

TEST(ShardRoundTrip, LargeShardCrossesTheWriteBuffer) {
  TempDir dir;  // more positions than the writer buffers, so the file is appended to twice or more
  ShardWriter writer(dir.str(), "big", test::test_spec(), {.games_per_shard = 2000});
  PositionColumns expected(12, 32);
  for (int i = 0; i < 2000; ++i) expected.append(make_game(i).positions);
  write_games(writer, 0, 2000);
  ASSERT_GT(expected.size(), 8192 * 2);
  const ShardReader reader = ShardReader::open(list_shards(dir.str()).at(0));
  test::expect_same_positions(reader.read_positions(), expected);
  EXPECT_EQ(reader.read_games().at(1999).seed, make_game(1999).meta.seed);
}

TEST(ShardRoundTrip, NoScalarsAndEmptyGames) {
  TempDir dir;  // a toy encoding without scalar features, and a game adjudicated before a move
  const game::GameSpec toy{"toy", 3, 0, 10, 1, 1, 0, {}};
  GameRecord empty;
  empty.meta = {"toy-rules", 0, "agreed", "start", "", "", 1};
  empty.positions = PositionColumns(3, 0);
  GameRecord one = empty;
  const uint64_t planes[3] = {1, 2, ~0ull};
  const PolicyEntry policy[2] = {{9, 0.75f}, {0, 0.25f}};
  one.positions.append({planes, {}, policy, 1, 9, game::Phase::Play, 0, true, 1});
  one.meta.moves = "x";
  ShardWriter writer(dir.str(), "toy", toy);
  writer.add_game(empty);
  writer.add_game(one);
  writer.add_game(empty);
  const ShardReader reader = ShardReader::open(writer.close());
  const std::vector<GameInfo> games = reader.read_games();
  ASSERT_EQ(games.size(), 3u);
  EXPECT_EQ(games[0].num_positions, 0);
  EXPECT_EQ(games[1].first_position, 0);
  EXPECT_EQ(games[2].first_position, 1);
  EXPECT_EQ(games[0].moves, "");
  test::expect_same_positions(reader.read_positions(), one.positions);
  EXPECT_TRUE(reader.read_positions().scalars.empty());
}

TEST(ShardRotation, ByGameCount) {
  TempDir dir;
  ShardWriter writer(dir.str(), "w", test::test_spec(), {.games_per_shard = 3, .seconds_per_shard = 0});
  EXPECT_EQ(writer.add_game(make_game(0)), "");
  EXPECT_EQ(writer.add_game(make_game(1)), "");
  EXPECT_EQ(writer.games_in_shard(), 2);
  EXPECT_TRUE(list_shards(dir.str()).empty()) << "an unfinished shard is visible";
  EXPECT_EQ(writer.add_game(make_game(2)), dir.file("w-000000.h5"));
  EXPECT_EQ(writer.games_in_shard(), 0);
  EXPECT_EQ(writer.next_sequence(), 1);
  EXPECT_EQ(ShardReader::open(dir.file("w-000000.h5")).info().num_games, 3);
  EXPECT_EQ(writer.close(), "");  // nothing in progress: no empty shard
  EXPECT_EQ(list_shards(dir.str()).size(), 1u);
}

TEST(ShardRotation, ByAge) {
  TempDir dir;
  ShardWriter writer(dir.str(), "w", test::test_spec(), {.games_per_shard = 1000, .seconds_per_shard = 0.05});
  EXPECT_EQ(writer.add_game(make_game(0)), "");
  std::this_thread::sleep_for(std::chrono::milliseconds(80));
  EXPECT_EQ(writer.add_game(make_game(1)), dir.file("w-000000.h5"));
  EXPECT_EQ(ShardReader::open(dir.file("w-000000.h5")).info().num_games, 2);
}

TEST(ShardRotation, DestructorFinishesTheShard) {
  TempDir dir;
  {
    ShardWriter writer(dir.str(), "w", test::test_spec());
    writer.add_game(make_game(0));
  }
  EXPECT_EQ(test::file_names(dir.str()), (std::vector<std::string>{"w-000000.h5"}));
}

TEST(ShardResume, ContinuesNumberingAndDeletesOwnStaleTemporaries) {
  TempDir dir;
  {
    ShardWriter writer(dir.str(), "w", test::test_spec(), {.games_per_shard = 2});
    write_games(writer, 0, 4);  // w-000000, w-000001
  }
  std::ofstream(dir.file(".w-000002.h5.tmp")) << "left by a killed writer";
  std::ofstream(dir.file(".v-000005.h5.tmp")) << "another writer's, still running";
  std::ofstream(dir.file("w-x-000009.h5")) << "another prefix";
  ShardWriter writer(dir.str(), "w", test::test_spec(), {.games_per_shard = 2});
  EXPECT_EQ(writer.next_sequence(), 2);
  const std::vector<std::string> names = test::file_names(dir.str());
  EXPECT_EQ(std::count(names.begin(), names.end(), ".w-000002.h5.tmp"), 0);
  EXPECT_EQ(std::count(names.begin(), names.end(), ".v-000005.h5.tmp"), 1);
  EXPECT_EQ(write_games(writer, 4, 2), (std::vector<std::string>{dir.file("w-000002.h5")}));
}

TEST(ShardFiles, NamesAndSequences) {
  EXPECT_EQ(shard_file_name("w03", 7), "w03-000007.h5");
  EXPECT_EQ(temporary_file_name("w03", 7), ".w03-000007.h5.tmp");
  EXPECT_EQ(shard_sequence("w03-000007.h5", "w03"), 7);
  EXPECT_EQ(shard_sequence("w03-1234567.h5", "w03"), 1234567);
  EXPECT_EQ(shard_sequence(".w03-000007.h5.tmp", "w03", /*temporary=*/true), 7);
  EXPECT_EQ(shard_sequence(".w03-000007.h5.tmp", "w03"), -1);
  EXPECT_EQ(shard_sequence("w03-000007.h5", "w0"), -1);
  EXPECT_EQ(shard_sequence("w03-x-000007.h5", "w03"), -1);
  EXPECT_EQ(shard_sequence("w03-.h5", "w03"), -1);
}

TEST(ShardFiles, ListsOnlyCompletedShardsSortedByName) {
  TempDir dir;
  for (const char* name :
       {"b-000001.h5", "a-000002.h5", ".a-000003.h5.tmp", "a-000003.h5.tmp", "notes.txt", ".hidden.h5"}) {
    std::ofstream(dir.file(name)) << "x";
  }
  std::filesystem::create_directory(dir.file("folder.h5"));
  EXPECT_EQ(list_shards(dir.str()), (std::vector<std::string>{dir.file("a-000002.h5"), dir.file("b-000001.h5")}));
  EXPECT_TRUE(list_shards(dir.file("does-not-exist")).empty());
}

TEST(ShardWriterChecks, RefusesBadRecordsBeforeWriting) {
  TempDir dir;
  ShardWriter writer(dir.str(), "w", test::test_spec());
  GameRecord wrong_planes = make_game(0, {"sittuyin", 11, 32, 2212, 1, 1, 0, {}});
  EXPECT_THROW(writer.add_game(wrong_planes), Error);
  GameRecord bad_action = make_game(1);
  bad_action.positions.action[2] = 5000;
  try {
    writer.add_game(bad_action);
    FAIL() << "accepted an action outside the action space";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("position 2: action 5000"), std::string::npos) << e.what();
  }
  GameRecord bad_result = make_game(2);
  bad_result.meta.result = 2;
  EXPECT_THROW(writer.add_game(bad_result), Error);
  EXPECT_TRUE(test::file_names(dir.str()).empty()) << "a refused record left a file";
  EXPECT_THROW(ShardWriter(dir.str(), ".hidden", test::test_spec()), Error);
  EXPECT_THROW(ShardWriter(dir.str(), "a/b", test::test_spec()), Error);
  EXPECT_THROW(ShardWriter(dir.str(), "w", test::test_spec(), {.games_per_shard = 0}), Error);
}

// A full disk while a shard is written out: one clean error naming the file and the reason, no
// temporary left, nothing half visible; the writer goes on once there is room again. (HDF5 wrote
// its files itself before, and after such a failure crashed in its clean-up at exit.)
TEST(ShardWriterChecks, FullDiskIsOneCleanErrorAndLeavesNothing) {
  TempDir dir;
  ShardWriter writer(dir.str(), "w", test::test_spec(), {.games_per_shard = 2, .seconds_per_shard = 0});
  writer.add_game(make_game(0));
  testing::fail_next_writes(1);
  try {
    writer.add_game(make_game(1));
    FAIL() << "a failed write was not reported";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(dir.file(".w-000000.h5.tmp") + ": cannot write: No space left on device"), std::string::npos)
        << what;
  }
  EXPECT_TRUE(list_shards(dir.str()).empty());
  EXPECT_TRUE(std::filesystem::is_empty(dir.str())) << "a temporary was left behind";
  const auto done = write_games(writer, 2, 2);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(ShardReader::open(done[0]).read_games().size(), 2u);
  testing::fail_next_writes(1);
  EXPECT_THROW(write_games(writer, 4, 1), Error);  // close() reports it too
  EXPECT_EQ(list_shards(dir.str()), done);
  testing::fail_next_writes(1);
  {
    ShardWriter doomed(dir.str(), "d", test::test_spec());
    doomed.add_game(make_game(5));
  }  // the destructor cannot report the failure; it leaves nothing behind either
  EXPECT_EQ(list_shards(dir.str()), done);
}

// Damaged shards are moved into damaged/, never over one already there.
TEST(ShardFiles, DamagedShardsAreMovedAsideWithoutReplacingOthers) {
  TempDir dir;
  ShardWriter writer(dir.str(), "w", test::test_spec(), {.games_per_shard = 1});
  const auto first = write_games(writer, 0, 1);
  const std::string moved = move_to_damaged(first[0]);
  EXPECT_EQ(moved, dir.file("damaged/w-000000.h5"));
  EXPECT_TRUE(list_shards(dir.str()).empty());  // damaged/ is not a place readers look
  ShardWriter again(dir.str(), "w", test::test_spec(), {.games_per_shard = 1});
  const auto second = write_games(again, 1, 1);
  ASSERT_EQ(second, std::vector<std::string>{dir.file("w-000000.h5")});  // the number is free again
  EXPECT_EQ(move_to_damaged(second[0]), dir.file("damaged/w-000000.h5.1"));
  EXPECT_EQ(ShardReader::open(moved).read_games().at(0).seed, make_game(0).meta.seed);
  std::string why;
  EXPECT_EQ(move_to_damaged(second[0], &why), "");  // gone already (another process moved it)
  EXPECT_FALSE(why.empty());
}

TEST(ShardReaderChecks, IncompatibleSpecIsNamed) {
  TempDir dir;
  ShardWriter writer(dir.str(), "w", test::test_spec());
  write_games(writer, 0, 1);
  const ShardReader reader = ShardReader::open(dir.file("w-000000.h5"));
  game::GameSpec other = test::test_spec();
  other.encoder_version = 2;
  try {
    reader.check_compatible(other);
    FAIL() << "accepted a different encoder version";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("encoder_version is 1, expected 2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("w-000000.h5"), std::string::npos) << e.what();
  }
}

TEST(ShardConcurrency, WritersOnSeveralThreads) {
  TempDir dir;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&dir, t] {
      ShardWriter writer(dir.str(), "t" + std::to_string(t), test::test_spec(), {.games_per_shard = 5});
      write_games(writer, t * 100, 23);
    });
  }
  for (auto& th : threads) th.join();
  const auto shards = list_shards(dir.str());
  ASSERT_EQ(shards.size(), 4u * 5u);
  int64_t games = 0;
  for (const auto& path : shards) {
    const ShardReader reader = ShardReader::open(path);
    games += int64_t(reader.read_games().size());
    EXPECT_EQ(reader.read_positions().size(), reader.info().num_positions);
  }
  EXPECT_EQ(games, 4 * 23);
}

}  // namespace
}  // namespace sz::data
