// Inputs that used to hang or write where they should not (issue "Nothing lost, nothing silent,
// round three"): a FIFO given as a model is refused at once, `levels` on a run directory that
// does not exist creates nothing, and an engine's pipes are not inherited by the next engine.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <set>
#include <sstream>
#include <string>

#include "eval/uci_process.h"
#include "shell_helpers.h"
#include "test_paths.h"

namespace {

using sz::test::CommandRun;

CommandRun run(const std::string& args) {
  return sz::test::run_shell("timeout 60 " + sz::test::binary() + " " + args);  // a hang fails, not blocks
}

std::string fifo_path() {
  const std::string path = testing::TempDir() + "/model-fifo-" + std::to_string(::getpid()) + ".pt";
  std::filesystem::remove(path);
  EXPECT_EQ(::mkfifo(path.c_str(), 0600), 0);
  return path;
}

TEST(Hardening, AFifoGivenAsAModelIsRefusedNotWaitedOn) {
  const std::string fifo = fifo_path();
  CommandRun r = sz::test::run_shell("printf 'setoption name Model value " + fifo + "\\nquit\\n' | timeout 60 " +
                                     sz::test::binary() + " uci");
  EXPECT_EQ(r.status, 0) << r.output;  // 124 would be the timeout
  EXPECT_NE(r.output.find("is a FIFO, not a file"), std::string::npos) << r.output;
  r = run("export --model " + fifo + " --out " + testing::TempDir() + "/fifo-bundle");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.status, 124) << "export waited on the FIFO";
  EXPECT_NE(r.output.find("is a FIFO, not a file"), std::string::npos) << r.output;
  std::filesystem::remove(fifo);
}

TEST(Hardening, LevelsOnAMissingRunDirectoryCreatesNothing) {
  const std::string missing = testing::TempDir() + "/no-such-run-" + std::to_string(::getpid());
  const CommandRun r = run("levels --run " + missing);
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("no such run directory"), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(missing));
}

// The file descriptors this process has open now.
std::set<int> open_fds() {
  std::set<int> fds;
  for (const auto& e : std::filesystem::directory_iterator("/proc/self/fd")) fds.insert(std::stoi(e.path().filename()));
  return fds;
}

// Every engine's pipes are close-on-exec: a second engine holds none of the first's ends (two
// engines each holding the other's stdin outlived a SIGKILLed arena).
TEST(Hardening, AnEngineInheritsNoOtherEnginesPipes) {
  const std::set<int> before = open_fds();
  sz::eval::UciProcess first("cat", "first");
  std::set<int> pipes;  // the first engine's ends, in this process
  for (const int fd : open_fds())
    if (!before.count(fd)) pipes.insert(fd);
  ASSERT_FALSE(pipes.empty());
  sz::eval::UciProcess second("ls /proc/self/fd | tr '\\n' ' '; echo; cat", "second");
  const std::string line = second.read_line(5.0);
  std::istringstream listed(line);
  for (int fd; listed >> fd;) EXPECT_FALSE(pipes.count(fd) && fd > 2) << "inherited fd " << fd << ": " << line;
}

}  // namespace
