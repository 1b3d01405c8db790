// `selfplay --follow RUN` and `train --run RUN` as separate processes on one run directory: the
// trainer waits for the worker's games, trains and adopts its checkpoint; the worker switches to
// it between games (the games record it); a worker killed with SIGKILL and restarted with its id
// loses nothing on disk, plays none of its games twice, and stops on SIGTERM with its games in
// flight finished and its shard closed.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <set>
#include <string>
#include <thread>

#include "core/read_file.h"
#include "data/shard_files.h"
#include "data/shard_reader.h"
#include "rundir/loop_state.h"
#include "selfplay/game_slot.h"
#include "test_paths.h"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// `args` of sittuyin-zero in a child process (its output appended to `log`); returns its pid.
pid_t spawn(const std::string& args, const std::string& log) {
  const std::string command = "exec " + sz::test::binary() + " " + args + " >>" + log + " 2>&1";
  const pid_t pid = fork();
  if (pid == 0) {
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  return pid;
}

// The exit status of `pid` once it ends within `seconds` (-1 if killed by a signal), or -2 (it is
// then killed) if it does not.
int wait_exit(pid_t pid, double seconds) {
  const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
  for (;;) {
    int raw = 0;
    if (waitpid(pid, &raw, WNOHANG) == pid) return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    if (Clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
      return -2;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

bool wait_for(const std::function<bool()>& done, double seconds) {
  const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
  while (!done() && Clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  return done();
}

std::string read_log(const std::string& path) {
  std::error_code ec;
  return fs::exists(path, ec) ? sz::read_file(path) : "";
}

int games_of(const std::string& games_dir, const std::string& model) {
  int n = 0;
  for (const std::string& path : sz::data::list_shards(games_dir))
    for (const auto& g : sz::data::ShardReader::open(path).read_games()) n += g.model_id == model;
  return n;
}

TEST(Follow, WorkerPlaysTheTrainersAdoptedModelAndSurvivesSigkill) {
  const std::string base = testing::TempDir() + "/follow-" + std::to_string(getpid());
  fs::remove_all(base);
  fs::create_directories(base);
  const std::string run = base + "/run", games = run + "/games", log = base + "/log.txt";
  const std::string quick =
      " --set net=tiny --set search.full_visits=4 --set search.cheap_visits=2 --set selfplay.max_plies=120"
      " --set selfplay.games_per_thread=2 --set selfplay.games_per_shard=2";
  const std::string worker = "selfplay --follow " + run + " --worker w1 --finish-seconds 60" + quick;
  // The trainer first: it waits for games (min_positions), trains two steps and adopts.
  fs::create_directories(run);
  const pid_t trainer =
      spawn("train --run " + run + " --steps 2" + quick +
                " --set train.min_positions=200 --set train.batch_size=16 --set train.poll_seconds=0.2",
            log);
  pid_t pid = spawn(worker, log);
  const int trained = wait_exit(trainer, 180);
  ASSERT_EQ(trained, 0) << read_log(log);
  const std::string adopted = sz::rundir::read_adopted(run);
  ASSERT_FALSE(adopted.empty()) << read_log(log);
  ASSERT_TRUE(wait_for([&] { return games_of(games, adopted) >= 2; }, 120))
      << "the worker did not switch to " << adopted << "\n"
      << read_log(log);
  EXPECT_GT(games_of(games, ""), 0);  // the bootstrap's games before

  // SIGKILL: the finished shards stay, the restarted worker (same id) goes on after them.
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  const std::vector<std::string> before = sz::data::list_shards(games);
  // What the kill lost: the indices below the highest on disk that are missing, the games of
  // the shards in progress and in flight. At most, per thread (2), a shard (2 games) and its
  // slots (2 games in flight).
  const uint64_t seed = sz::selfplay::worker_seed(1, "w1");  // the quickstart's seed is 1
  std::set<uint64_t> kept;
  for (const std::string& path : before)
    for (const uint64_t s : sz::data::ShardReader::open(path).read_seeds())
      kept.insert(sz::selfplay::game_index_of(seed, s));
  ASSERT_FALSE(kept.empty());
  EXPECT_LE(*kept.rbegin() + 1 - kept.size(), 2u * (2 + 2)) << "the kill lost more than the shards in progress";
  pid = spawn(worker, log);
  ASSERT_TRUE(wait_for([&] { return sz::data::list_shards(games).size() >= before.size() + 2; }, 120)) << read_log(log);
  kill(pid, SIGTERM);
  EXPECT_EQ(wait_exit(pid, 90), 130) << read_log(log);  // 130: stopped by a signal, cleanly

  const std::vector<std::string> after = sz::data::list_shards(games);
  for (const std::string& path : before) EXPECT_TRUE(fs::exists(path)) << path << " lost";
  std::set<uint64_t> indices;
  for (const std::string& path : after) {
    const auto reader = sz::data::ShardReader::open(path);  // every shard reads
    EXPECT_EQ(reader.info().worker, "w1") << path;
    for (const auto& g : reader.read_games()) {
      EXPECT_TRUE(indices.insert(sz::selfplay::game_index_of(seed, g.seed)).second) << "a game twice: " << path;
      EXPECT_TRUE(g.model_id.empty() || g.model_id == adopted) << g.model_id;
    }
  }
  for (const auto& entry : fs::directory_iterator(games))
    EXPECT_FALSE(entry.path().filename().string().ends_with(".tmp")) << entry.path();
  fs::remove_all(base);
}

}  // namespace
