// A full disk, for real: `selfplay` and `loop` writing into a tiny tmpfs (mounted in a user and
// mount namespace of their own, so no root is needed) end with one clean error and exit 1. They
// used to print "No space left on device" and then crash in HDF5's clean-up at exit.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "shell_helpers.h"
#include "test_paths.h"

namespace {

using sz::test::CommandRun;
using sz::test::run_shell;

class DiskFull : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::TempDir() + "/disk-full-" + std::to_string(getpid());
    std::filesystem::create_directories(dir_);
    if (run_shell("unshare -rm sh -c 'mount -t tmpfs -o size=64k tmpfs " + dir_ + "'").status != 0)
      GTEST_SKIP() << "no user namespaces here (unshare -rm): cannot mount a small tmpfs";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // `args` of sittuyin-zero, run with a tmpfs of `size` mounted on dir_ (the process's own view).
  CommandRun run_full(const std::string& size, const std::string& args) const {
    return run_shell("unshare -rm sh -c 'mount -t tmpfs -o size=" + size + " tmpfs " + dir_ + " && exec " +
                     sz::test::binary() + " " + args + "'");
  }

  std::string dir_;
};

const char* kQuick =
    "--set search.full_visits=4 --set search.cheap_visits=2 --set selfplay.max_plies=120 "
    "--set selfplay.games_per_thread=4 --set selfplay.games_per_shard=2";

TEST_F(DiskFull, SelfplayEndsWithOneCleanError) {
  const CommandRun r = run_full("300k", "selfplay --games 400 --out " + dir_ + "/games " + kQuick);
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("sittuyin-zero selfplay: error: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("No space left on device"), std::string::npos) << r.output;
}

TEST_F(DiskFull, LoopEndsWithOneCleanError) {
  const CommandRun r = run_full("300k", std::string("loop --set dir=") + dir_ + "/run --set loop.bootstrap_games=400 " +
                                            kQuick + " --set loop.final_eval_games=0");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("sittuyin-zero loop: error: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("No space left on device"), std::string::npos) << r.output;
}

}  // namespace
