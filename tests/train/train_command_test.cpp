// `sittuyin-zero train` killed with SIGKILL once it has checkpointed, then run again, ends as a
// run never stopped; and the run's plots.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "checkpoint_compare.h"
#include "core/error.h"
#include "data/shard_files.h"
#include "rundir/checkpoint_files.h"
#include "rundir/run_plots.h"
#include "shell_helpers.h"
#include "test_paths.h"
#include "train/trainer.h"
#include "train_fixtures.h"

namespace sz::train {
namespace {

namespace fs = std::filesystem;
using test::expect_same_checkpoints;
using test::games_of;
using test::TempDir;
using test::tiny_setup;
using test::write_shards;

// `sittuyin-zero train` in a child process, killed with SIGKILL once it has checkpointed, then run
// again: its final checkpoint equals that of a run that was never killed.
int run_cli(const std::vector<std::string>& args, bool wait, pid_t* child = nullptr) {
  std::fflush(stdout);  // else the child flushes our buffered output a second time
  const pid_t pid = fork();
  if (pid == 0) {
    std::vector<char*> argv;
    std::string binary = sz::test::binary();
    argv.push_back(binary.data());
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    if (!freopen("/dev/null", "w", stdout)) _exit(126);
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  if (child) *child = pid;
  if (!wait) return 0;
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void write_run_config(const TempDir& run) {
  std::ofstream(run.file("config.yaml")) << "seed: 11\nnet: tiny\nprofile: sittuyin\ntrain:\n  batch_size: 32\n"
                                            "  replay_ratio: 0\n  min_positions: 1\n  checkpoint_every: 25\n"
                                            "  keep_checkpoints: 2\n  log_every: 25\n  threads: 1\n  device: cpu\n";
}

TEST(TrainCommand, KilledTrainerResumesAsIfNeverStopped) {
  if (!fs::exists(sz::test::binary())) GTEST_SKIP() << "build sittuyin-zero first: " << sz::test::binary();
  constexpr int kSteps = 400;
  TempDir reference, killed;
  for (const TempDir* run : {&reference, &killed}) {
    write_shards(run->file("games"), 0, 40, 10);
    write_run_config(*run);
  }
  ASSERT_EQ(run_cli({"train", "--run", reference.str(), "--steps", std::to_string(kSteps)}, true), 0);

  pid_t child = 0;
  run_cli({"train", "--run", killed.str(), "--steps", "1000000"}, false, &child);  // far from done when killed
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  int64_t at = 0;
  while (at < 50 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    try {
      const std::string current = rundir::read_current(killed.file("models"));
      if (!current.empty()) at = rundir::checkpoint_step(fs::path(current).filename().string());
    } catch (const Error&) {  // current.txt is replaced atomically; a reader sees old or new
    }
  }
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the trainer ended before it was killed";
  const std::string current = rundir::read_current(killed.file("models"));
  const int64_t resumed_at = rundir::checkpoint_step(fs::path(current).filename().string());
  ASSERT_LT(resumed_at, kSteps);
  std::printf("killed after checkpoint %lld; resuming\n", static_cast<long long>(resumed_at));
  ASSERT_EQ(run_cli({"train", "--run", killed.str(), "--steps", std::to_string(kSteps - resumed_at)}, true), 0);
  const std::string last = "models/" + rundir::checkpoint_file_name(kSteps);
  expect_same_checkpoints(reference.file(last), killed.file(last));
}

TEST(Plots, DrawsLossAndGamePlots) {
  if (std::system("gnuplot --version > /dev/null 2>&1") != 0) GTEST_SKIP() << "gnuplot is not installed";
  TempDir run;
  write_shards(games_of(run), 0, 30, 10);
  {
    Trainer t(tiny_setup(run.str()));
    t.train_available(20);
    write_shards(games_of(run), 30, 10, 10);
    t.train_available(5);  // scores the newer games first: logs/heldout.jsonl
  }
  std::ofstream(run.file("logs/train.jsonl"), std::ios::app) << "{\"step\":25,\"loss\":";  // being written
  const rundir::PlotReport report = rundir::plot_run(run.str(), {.games_per_point = 10});
  for (const char* name :
       {"loss", "learning_rate", "heldout", "value_by_material", "game_length", "results", "end_reasons"}) {
    const std::string png = run.file(std::string("plots/") + name + ".png");
    ASSERT_TRUE(fs::exists(png)) << png;
    std::ifstream in(png, std::ios::binary);
    char magic[4] = {};
    in.read(magic, 4);
    EXPECT_EQ(std::string(magic + 1, 3), "PNG") << png;
  }
  EXPECT_EQ(report.written.size(), 7u);
  ASSERT_EQ(report.skipped.size(), 1u);
  EXPECT_NE(report.skipped[0].find("elo"), std::string::npos);
  EXPECT_TRUE(report.warnings.empty()) << report.warnings[0];
  // The ratings hook: eval/elo.jsonl makes elo.png.
  fs::create_directories(run.file("eval"));
  std::ofstream(run.file("eval/elo.jsonl")) << "{\"step\":10,\"elo\":0,\"lower\":-20,\"upper\":20}\n"
                                               "{\"step\":20,\"elo\":35.5,\"lower\":10,\"upper\":61}\n";
  EXPECT_EQ(rundir::plot_run(run.str()).written.size(), 8u);
  EXPECT_TRUE(fs::exists(run.file("plots/elo.png")));
}

}  // namespace
}  // namespace sz::train
