// Self-play end to end with the uniform bootstrap evaluator: deterministic games from a seed,
// shards that survive SIGKILL, and a resumed run that plays only the missing games.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "data/shard_files.h"
#include "data/shard_reader.h"
#include "selfplay/selfplay.h"

namespace sz::selfplay {
namespace {

namespace fs = std::filesystem;

SelfplayJob small_job(const std::string& dir, int64_t games) {
  SelfplayJob job;
  job.config.threads = 1;
  job.config.games_per_thread = 4;
  job.config.seed = 42;
  job.config.search.full_visits = 24;
  job.config.search.cheap_visits = 8;
  job.config.games_per_shard = 3;
  job.config.shard_prefix = "test";
  job.out_dir = dir;
  job.games = games;
  job.make_evaluator = [](int) { return std::make_unique<search::UniformEvaluator>(); };
  return job;
}

std::string fresh_dir(const std::string& name) {
  const std::string dir = testing::TempDir() + "/selfplay-" + name + "-" + std::to_string(getpid());
  fs::remove_all(dir);
  return dir;
}

std::vector<data::GameInfo> all_games(const std::string& dir) {
  std::vector<data::GameInfo> games;
  for (const auto& path : data::list_shards(dir))
    for (auto& g : data::ShardReader::open(path).read_games()) games.push_back(g);
  return games;
}

TEST(Selfplay, SameSeedOneThreadWritesIdenticalGames) {
  const std::string a = fresh_dir("a"), b = fresh_dir("b");
  const auto stats = run_selfplay(small_job(a, 6));
  run_selfplay(small_job(b, 6));
  EXPECT_EQ(stats->games(), 6);
  const auto ga = all_games(a), gb = all_games(b);
  ASSERT_EQ(ga.size(), 6u);
  ASSERT_EQ(gb.size(), 6u);
  for (size_t i = 0; i < ga.size(); ++i) {
    EXPECT_EQ(ga[i].moves, gb[i].moves) << "game " << i;
    EXPECT_EQ(ga[i].result, gb[i].result) << "game " << i;
    EXPECT_EQ(ga[i].seed, gb[i].seed) << "game " << i;
  }
  // Every position carries the game's result from its mover's view, and a policy target.
  const auto positions = data::ShardReader::open(data::list_shards(a).front()).read_positions();
  ASSERT_GT(positions.size(), 0);
  for (int64_t i = 0; i < positions.size(); ++i) EXPECT_GT(positions.policy_count[size_t(i)], 0) << i;
}

int64_t repetition_endings(const std::string& dir) {
  int64_t n = 0;
  for (const auto& g : all_games(dir)) n += g.end_reason == "repetition";
  return n;
}

TEST(Selfplay, AvoidingRepetitionCutsRepetitionDraws) {
  // The uniform bootstrap shuffles its men into threefold repetitions; avoid_repetition plays
  // the most visited move that reaches a new position instead, when there is one.
  const std::string plain = fresh_dir("plain"), fresh = fresh_dir("fresh");
  run_selfplay(small_job(plain, 8));
  SelfplayJob job = small_job(fresh, 8);
  job.config.avoid_repetition = true;
  run_selfplay(job);
  EXPECT_GT(repetition_endings(plain), 0);
  EXPECT_LT(repetition_endings(fresh), repetition_endings(plain));
}

TEST(Selfplay, ResumedRunPlaysOnlyTheMissingGames) {
  const std::string dir = fresh_dir("resume");
  run_selfplay(small_job(dir, 3));
  EXPECT_EQ(count_games(dir), 3);
  const auto stats = run_selfplay(small_job(dir, 5));
  EXPECT_EQ(stats->games(), 2);
  EXPECT_EQ(count_games(dir), 5);
}

TEST(Selfplay, SigkillLeavesEveryCompletedShardReadable) {
  const std::string dir = fresh_dir("kill");
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {  // the child plays on until killed: one game per shard
    SelfplayJob job = small_job(dir, 100000);
    job.config.games_per_shard = 1;
    run_selfplay(job);
    _exit(0);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (data::list_shards(dir).size() < 3 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  const auto shards = data::list_shards(dir);
  ASSERT_GE(shards.size(), 3u) << "self-play finished no shards in 60 s";
  for (const auto& path : shards) EXPECT_EQ(data::ShardReader::open(path).info().num_games, 1) << path;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.ends_with(".h5")) {
      EXPECT_NE(name[0], '.') << name;  // temporaries are hidden, never *.h5
    }
  }
}

}  // namespace
}  // namespace sz::selfplay
