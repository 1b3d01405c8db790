// `train --world-size 2 --rank R --rendezvous HOST:PORT` as two processes on one run: both train
// the same steps, rank 0 alone writes checkpoints and metrics, and bad rank flags are an error
// that names them. A stop signal to one rank stops both at once, at the same step (they used to
// wait for each other until the timeout and fail).
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "shell_helpers.h"
#include "test_paths.h"

namespace {

namespace fs = std::filesystem;
using sz::test::run_shell;

const std::string kQuick =
    " --set net=tiny --set search.full_visits=4 --set search.cheap_visits=2 --set selfplay.max_plies=120";

// A fresh run folder `name` with 12 games of self-play in it; "" (a test failure) if they fail.
std::string run_with_games(const std::string& name) {
  const std::string run = testing::TempDir() + "/" + name + "-" + std::to_string(getpid());
  fs::remove_all(run);
  const sz::test::CommandRun r =
      run_shell(sz::test::binary() + " selfplay --games 12 --out " + run + "/games" + kQuick);
  EXPECT_EQ(r.status, 0) << r.output;
  return r.status == 0 ? run : "";
}

TEST(TrainRanks, TwoProcessesTrainTogetherAndRankZeroWritesTheFiles) {
  const std::string run = run_with_games("train-ranks");
  ASSERT_FALSE(run.empty());
  const std::string bin = sz::test::binary(), quick = kQuick;
  sz::test::CommandRun r;
  const std::string train =
      bin + " train --run " + run + " --steps 4" + quick +
      " --set train.min_positions=100 --set train.batch_size=16"
      " --set train.checkpoint_every=2 --set train.log_every=2 --world-size 2 --rendezvous 127.0.0.1:" +
      std::to_string(20000 + getpid() % 20000) + " --timeout 60 --rank ";
  r = run_shell("sh -c '" + train + "0 & a=$!; " + train + "1; rb=$?; wait $a; ra=$?; exit $((ra + rb))'");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("rank 1 of 2"), std::string::npos) << r.output;
  EXPECT_TRUE(fs::exists(run + "/models/model-00000002.pt"));
  EXPECT_TRUE(fs::exists(run + "/models/model-00000004.pt"));
  std::ifstream metrics(run + "/logs/train.jsonl");
  int lines = 0;
  for (std::string line; std::getline(metrics, line);) ++lines;
  EXPECT_EQ(lines, 2) << "one metric line per log_every steps, from rank 0 alone";

  r = run_shell(bin + " train --run " + run + " --world-size 2 --rank 2 --rendezvous 127.0.0.1:1");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("rank 2: not in 0..1"), std::string::npos) << r.output;
  fs::remove_all(run);
}

// A rank started with another configuration (here another learning rate) joined silently and
// trained other weights: it now stops before the first step, naming what differs.
TEST(TrainRanks, ARankWithAnotherConfigurationIsRefusedNamingTheKey) {
  const std::string run = run_with_games("train-ranks-config");
  ASSERT_FALSE(run.empty());
  const std::string train = sz::test::binary() + " train --run " + run + " --steps 2" + kQuick +
                            " --set train.min_positions=100 --set train.batch_size=16 --world-size 2"
                            " --rendezvous 127.0.0.1:" +
                            std::to_string(20000 + (getpid() + 3571) % 20000) + " --timeout 60";
  const sz::test::CommandRun r = run_shell("sh -c '" + train + " --rank 0 & a=$!; " + train +
                                           " --set train.learning_rate=0.5 --rank 1; rb=$?; wait $a; exit $rb'");
  EXPECT_NE(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("rank 1 was started with another configuration than rank 0: 'train.learning_rate: 0.5' here, "
                          "'train.learning_rate: 0.02' on rank 0"),
            std::string::npos)
      << r.output;
  fs::remove_all(run);
}

TEST(TrainRanks, AStopSignalToOneRankStopsBothTogether) {
  const std::string run = run_with_games("train-ranks-stop");
  ASSERT_FALSE(run.empty());
  const std::string bin = sz::test::binary(), quick = kQuick;
  // Until stopped; rank 1 is signalled once rank 0 (which alone prints metrics) has taken two
  // steps. The replay ratio soon caps the steps, so the ranks also wait for games, polling.
  const std::string train = bin + " train --run " + run + quick +
                            " --set train.min_positions=100 --set train.batch_size=16 --set train.log_every=1"
                            " --set train.poll_seconds=0.5 --world-size 2 --rendezvous 127.0.0.1:" +
                            std::to_string(20000 + (getpid() + 7919) % 20000) + " --timeout 120 --rank ";
  const auto start = std::chrono::steady_clock::now();
  const sz::test::CommandRun r =
      run_shell("sh -c '" + train + "0 > " + run + "/r0.log 2>&1 & a=$!; " + train + "1 > " + run +
                "/r1.log 2>&1 & b=$!; "
                "for i in $(seq 600); do grep -q \"step 2 \" " +
                run +
                "/r0.log 2>/dev/null && break; sleep 0.1; done; "
                "kill -TERM $b; wait $a; ra=$?; wait $b; rb=$?; echo exit $ra $rb'");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::string r0 = sz::test::read_file(run + "/r0.log"), r1 = sz::test::read_file(run + "/r1.log");
  EXPECT_NE(r.output.find("exit 0 130"), std::string::npos) << r.output << r0 << r1;
  EXPECT_LT(seconds, 100) << "the ranks waited for each other until the timeout";
  EXPECT_NE(r0.find("rank 0: another rank was stopped; all stop together at step"), std::string::npos) << r0;
  // Both report the same final step, and rank 0 wrote its checkpoint.
  const auto final_step = [](const std::string& log) {
    const size_t at = log.rfind("now at step ");
    return at == std::string::npos ? std::string("none") : log.substr(at, log.find(';', at) - at);
  };
  EXPECT_EQ(final_step(r0), final_step(r1)) << r0 << r1;
  EXPECT_NE(final_step(r0), "none") << r0;
  fs::remove_all(run);
}

}  // namespace
