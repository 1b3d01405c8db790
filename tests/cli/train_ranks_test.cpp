// `train --world-size 2 --rank R --rendezvous HOST:PORT` as two processes on one run: both train
// the same steps, rank 0 alone writes checkpoints and metrics, and bad rank flags are an error
// that names them.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "test_paths.h"

namespace {

namespace fs = std::filesystem;

std::string run_shell(const std::string& command, int* status) {
  std::string output;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return output;
  char buffer[4096];
  for (size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) output.append(buffer, n);
  const int raw = pclose(pipe);
  *status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return output;
}

TEST(TrainRanks, TwoProcessesTrainTogetherAndRankZeroWritesTheFiles) {
  const std::string run = testing::TempDir() + "/train-ranks-" + std::to_string(getpid());
  fs::remove_all(run);
  const std::string bin = sz::test::binary();
  const std::string quick =
      " --set net=tiny --set search.full_visits=4 --set search.cheap_visits=2 --set selfplay.max_plies=120";
  int status = -1;
  std::string out = run_shell(bin + " selfplay --games 12 --out " + run + "/games" + quick, &status);
  ASSERT_EQ(status, 0) << out;
  const std::string train =
      bin + " train --run " + run + " --steps 4" + quick +
      " --set train.min_positions=100 --set train.batch_size=16"
      " --set train.checkpoint_every=2 --set train.log_every=2 --world-size 2 --rendezvous 127.0.0.1:" +
      std::to_string(20000 + getpid() % 20000) + " --timeout 60 --rank ";
  out = run_shell("sh -c '" + train + "0 & a=$!; " + train + "1; rb=$?; wait $a; ra=$?; exit $((ra + rb))'", &status);
  ASSERT_EQ(status, 0) << out;
  EXPECT_NE(out.find("rank 1 of 2"), std::string::npos) << out;
  EXPECT_TRUE(fs::exists(run + "/models/model-00000002.pt"));
  EXPECT_TRUE(fs::exists(run + "/models/model-00000004.pt"));
  std::ifstream metrics(run + "/logs/train.jsonl");
  int lines = 0;
  for (std::string line; std::getline(metrics, line);) ++lines;
  EXPECT_EQ(lines, 2) << "one metric line per log_every steps, from rank 0 alone";

  out = run_shell(bin + " train --run " + run + " --world-size 2 --rank 2 --rendezvous 127.0.0.1:1", &status);
  EXPECT_EQ(status, 1) << out;
  EXPECT_NE(out.find("rank 2: not in 0..1"), std::string::npos) << out;
  fs::remove_all(run);
}

}  // namespace
