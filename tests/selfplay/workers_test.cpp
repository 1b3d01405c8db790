// Several self-play workers on one games directory: ids of their own (a lock each), shards named
// by worker, disjoint seeds, and a target of games they share. Two `selfplay` processes used to
// share the file names "<host>-w0-<seq>" (each truncated and deleted the other's temporary:
// ".vm-w0-000000.h5.tmp: cannot open file to sync it") and the seeds (every game played twice).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <set>
#include <thread>

#include "core/error.h"
#include "selfplay/game_slot.h"
#include "selfplay/selfplay_fixtures.h"
#include "selfplay/worker_id.h"

namespace sz::selfplay {
namespace {

namespace fs = std::filesystem;

TEST(Workers, EachWorkerGetsAnIdOfItsOwnAndARestartedOneGetsItBack) {
  const std::string dir = fresh_dir("ids");
  WorkerClaim a = claim_worker_id(dir, "");
  WorkerClaim b = claim_worker_id(dir, "");
  EXPECT_NE(a.id, b.id);
  EXPECT_TRUE(a.id.ends_with("-0")) << a.id;
  EXPECT_TRUE(b.id.ends_with("-1")) << b.id;
  const std::string first = a.id;
  a = {};  // the first worker dies: its lock is released, a restart takes its id
  EXPECT_EQ(claim_worker_id(dir, "").id, first);
}

TEST(Workers, AnIdHeldByALiveWorkerOrMalformedIsRefused) {
  const std::string dir = fresh_dir("taken");
  const WorkerClaim a = claim_worker_id(dir, "gpu3");
  EXPECT_EQ(a.id, "gpu3");
  try {
    claim_worker_id(dir, "gpu3");
    FAIL() << "two workers with one id";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(".worker-gpu3.lock: another self-play worker of this id is working here"),
              std::string::npos)
        << e.what();
  }
  for (const char* bad : {"a/b", ".hidden", "sp ace"}) EXPECT_THROW(claim_worker_id(dir, bad), Error) << bad;
}

TEST(Workers, SeedsDependOnTheWorker) {
  EXPECT_EQ(worker_seed(42, ""), 42u);  // the loop's own self-play keeps its seeds
  EXPECT_NE(worker_seed(42, "a"), worker_seed(42, "b"));
  EXPECT_NE(worker_seed(42, "a"), worker_seed(43, "a"));
  EXPECT_NE(worker_seed(42, "a"), 42u);
}

// Two workers at once on one directory with one target: distinct files, no seed twice, and the
// directory ends near the target (it ended with twice the target).
TEST(Workers, TwoWorkersShareADirectoryAndItsTarget) {
  const std::string dir = fresh_dir("two");
  const int64_t target = 12;
  auto job_of = [&](const std::string& id) {
    SelfplayJob job = small_job(dir, target);
    job.config.shard_prefix = "";
    job.config.games_per_thread = 2;
    job.config.games_per_shard = 1;
    job.worker_id = id;
    return job;
  };
  std::string error;
  std::thread other([&] {
    try {
      run_selfplay(job_of("b"));
    } catch (const std::exception& e) {
      error = e.what();
    }
  });
  run_selfplay(job_of("a"));
  other.join();
  ASSERT_EQ(error, "");
  std::set<uint64_t> seeds;
  std::set<std::string> workers;
  int64_t games = 0;
  for (const std::string& path : data::list_shards(dir)) {
    const auto reader = data::ShardReader::open(path);
    const std::string& worker = reader.info().worker;
    workers.insert(worker);
    EXPECT_TRUE(fs::path(path).filename().string().starts_with(worker + "-w0-")) << path;
    for (const uint64_t seed : reader.read_seeds()) {
      EXPECT_TRUE(seeds.insert(seed).second) << "seed " << seed << " played twice";
      EXPECT_LT(game_index_of(worker_seed(42, worker), seed), uint64_t(target)) << path;  // a game of its own
      ++games;
    }
  }
  EXPECT_EQ(workers, (std::set<std::string>{"a", "b"}));
  EXPECT_GE(games, target);
  // Beyond the target, at most the other worker's games in flight (its slots), and one more each
  // finishing as the target is reached.
  EXPECT_LE(games, target + 2 + 2) << "the workers did not share the target";
}

// A following worker (selfplay --follow) asks for the current model between games: once a newer
// one is adopted it finishes its games in flight and plays on with it, so each game is recorded
// by the one model that played it, and the old model's games all come before the new one's. On
// stop it finishes its games in flight (finish_seconds) and closes its shard: no game is lost.
TEST(Workers, AFollowingWorkerSwitchesToTheNewestModelBetweenGames) {
  const std::string dir = fresh_dir("follow");
  SelfplayJob job = small_job(dir, /*games=*/-1);
  job.config.games_per_thread = 2;
  job.config.games_per_shard = 1;
  job.worker_id = "f";
  std::atomic<int> version{1};
  std::vector<std::string> built;  // the models whose evaluators were built, in order
  job.current_model = [&] { return "m" + std::to_string(version.load()); };
  job.evaluators_for = [&](const std::string& model) {
    built.push_back(model);
    return search::EvaluatorFactory([](int) { return std::make_unique<search::UniformEvaluator>(); });
  };
  job.model_poll_seconds = 0;
  std::atomic<bool> stop{false};
  job.stop = &stop;
  job.finish_seconds = 600;
  std::string error;
  std::thread worker([&] {
    try {
      run_selfplay(job);
    } catch (const std::exception& e) {
      error = e.what();
    }
  });
  auto games_of = [&](const std::string& model) {
    int n = 0;
    for (const auto& g : all_games(dir)) n += g.model_id == model;
    return n;
  };
  auto wait_for = [&](const std::function<bool()>& done) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (!done() && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    return done();
  };
  const bool first = wait_for([&] { return games_of("m1") >= 3; });
  version = 2;  // adopted
  const bool second = first && wait_for([&] { return games_of("m2") >= 2; });
  stop = true;
  worker.join();
  ASSERT_TRUE(first && second) << "no games of the new model within 120 s; error: " << error;
  ASSERT_EQ(error, "");
  EXPECT_EQ(built, (std::vector<std::string>{"m1", "m2"}));
  // In the order the games finished (one writer, one game a shard): every m1 game before m2's.
  std::vector<std::string> models;
  for (const auto& g : all_games(dir)) models.push_back(g.model_id);
  const auto first_m2 = std::find(models.begin(), models.end(), "m2");
  EXPECT_EQ(std::count(models.begin(), first_m2, "m1"), first_m2 - models.begin());
  EXPECT_EQ(std::count(first_m2, models.end(), "m2"), models.end() - first_m2);
  // Stopped, it finished the games it had begun: the indices 0..n-1, each once, no hole.
  std::vector<uint64_t> indices;
  for (const auto& g : all_games(dir)) indices.push_back(game_index_of(worker_seed(42, "f"), g.seed));
  std::sort(indices.begin(), indices.end());
  for (size_t i = 0; i < indices.size(); ++i) EXPECT_EQ(indices[i], i);
}

}  // namespace
}  // namespace sz::selfplay
