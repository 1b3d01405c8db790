// Data-parallel ranks: where a rank stands (flags, torchrun's and Slurm's environment), and two
// Gloo ranks in forked processes on this host: their all-reduce averages, and a rank that dies
// makes the other stop with a clear error instead of hanging for c10d's 30-minute default.
// The processes are forked before this binary has run any torch operation.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <thread>

#include "core/error.h"
#include "train/distributed_config.h"
#include "train/process_group.h"

namespace sz::train {
namespace {

using Env = std::map<std::string, std::string>;

Result<DistributedConfig> from(const Env& env) {
  return distributed_from_env([&](const char* name) -> const char* {
    const auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  });
}

TEST(DistributedConfig, FromTorchrunAndSlurmEnvironments) {
  const auto none = from({});
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->distributed());
  const auto torchrun = from({{"WORLD_SIZE", "4"}, {"RANK", "3"}, {"MASTER_ADDR", "node7"}, {"MASTER_PORT", "29501"}});
  ASSERT_TRUE(torchrun.ok()) << torchrun.error();
  EXPECT_EQ(torchrun->world_size, 4);
  EXPECT_EQ(torchrun->rank, 3);
  EXPECT_EQ(torchrun->host, "node7");
  EXPECT_EQ(torchrun->port, 29501);
  const auto slurm =
      from({{"SLURM_NTASKS", "2"}, {"SLURM_PROCID", "1"}, {"MASTER_ADDR", "n1"}, {"MASTER_PORT", "1234"}});
  ASSERT_TRUE(slurm.ok()) << slurm.error();
  EXPECT_EQ(slurm->rank, 1);
  EXPECT_EQ(slurm->world_size, 2);
  EXPECT_FALSE(from({{"SLURM_NTASKS", "1"}, {"SLURM_PROCID", "0"}})->distributed());  // one task: no rendezvous
}

TEST(DistributedConfig, BadValuesNameTheirVariable) {
  const auto no_addr = from({{"WORLD_SIZE", "2"}, {"RANK", "0"}, {"MASTER_PORT", "1"}});
  ASSERT_FALSE(no_addr.ok());
  EXPECT_NE(no_addr.error().find("MASTER_ADDR is not set"), std::string::npos) << no_addr.error();
  const auto bad_rank = from({{"WORLD_SIZE", "2"}, {"RANK", "2"}, {"MASTER_ADDR", "a"}, {"MASTER_PORT", "1"}});
  ASSERT_FALSE(bad_rank.ok());
  EXPECT_NE(bad_rank.error().find("RANK: '2' is not a number in 0..1"), std::string::npos) << bad_rank.error();
  const auto bad_port = from({{"WORLD_SIZE", "2"}, {"RANK", "0"}, {"MASTER_ADDR", "a"}, {"MASTER_PORT", "http"}});
  ASSERT_FALSE(bad_port.ok());
  EXPECT_NE(bad_port.error().find("MASTER_PORT"), std::string::npos) << bad_port.error();
}

TEST(DistributedConfig, RendezvousIsHostColonPort) {
  const auto r = with_rendezvous({}, "node01:29500");
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->host, "node01");
  EXPECT_EQ(r->port, 29500);
  EXPECT_EQ(with_rendezvous({}, "[::1]:7")->host, "::1");
  EXPECT_FALSE(with_rendezvous({}, "node01").ok());
  EXPECT_FALSE(with_rendezvous({}, "node01:0").ok());
  EXPECT_FALSE(checked({.world_size = 2, .rank = 0}).ok());  // several ranks, no rendezvous
  EXPECT_FALSE(checked({.world_size = 2, .rank = 2, .host = "h"}).ok());
}

// A port for this test run: parallel ctest runs get different ones.
int test_port(int offset) { return 20000 + int(getpid() % 20000) + offset; }

// Runs `body(rank)` in `world` forked processes; returns their exit statuses (-1: killed).
std::vector<int> run_ranks(int world, const std::function<int(int)>& body) {
  std::vector<pid_t> pids;
  for (int rank = 0; rank < world; ++rank) {
    const pid_t pid = fork();
    if (pid == 0) {
      int status = 1;
      try {
        status = body(rank);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "rank %d: %s\n", rank, e.what());
      }
      std::fflush(stderr);
      _exit(status);
    }
    pids.push_back(pid);
  }
  std::vector<int> statuses;
  for (const pid_t pid : pids) {
    int raw = 0;
    waitpid(pid, &raw, 0);
    statuses.push_back(WIFEXITED(raw) ? WEXITSTATUS(raw) : -1);
  }
  return statuses;
}

TEST(ProcessGroup, TwoGlooRanksAverageTheirTensors) {
  if (!distributed_built()) GTEST_SKIP() << "built without c10d (SZ_DISTRIBUTED)";
  const int port = test_port(0);
  const auto statuses = run_ranks(2, [&](int rank) {
    ProcessGroup group({.world_size = 2, .rank = rank, .host = "127.0.0.1", .port = port, .timeout_seconds = 60});
    const torch::Tensor a = torch::full({3, 2}, double(rank + 1));
    const torch::Tensor b = torch::arange(5, torch::kFloat32) * float(rank + 1);
    group.average({a, b});
    const bool ok =
        torch::allclose(a, torch::full({3, 2}, 1.5)) && torch::allclose(b, torch::arange(5, torch::kFloat32) * 1.5f);
    return ok ? 0 : 2;
  });
  EXPECT_EQ(statuses, (std::vector<int>{0, 0})) << "2: a rank's tensors are not the mean";
}

TEST(ProcessGroup, ARankThatDiesStopsTheOtherWithAClearError) {
  if (!distributed_built()) GTEST_SKIP() << "built without c10d (SZ_DISTRIBUTED)";
  const int port = test_port(1);
  const auto start = std::chrono::steady_clock::now();
  const auto statuses = run_ranks(2, [&](int rank) {
    ProcessGroup group({.world_size = 2, .rank = rank, .host = "127.0.0.1", .port = port, .timeout_seconds = 5});
    if (rank == 1) _exit(0);  // dies before the all-reduce
    try {
      group.average({torch::ones({4})});
    } catch (const Error& e) {
      const std::string what = e.what();
      std::fprintf(stderr, "rank 0 got: %s\n", what.c_str());
      return what.find("distributed: rank 0 of 2 at 127.0.0.1:") == 0 &&
                     what.find("the all-reduce failed (another rank died or did not answer within 5 s)") !=
                         std::string::npos
                 ? 0
                 : 3;
    }
    return 4;  // no error: it hung or summed with a dead rank
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(statuses, (std::vector<int>{0, 0})) << "3: an unclear error, 4: none";
  EXPECT_LT(seconds, 30) << "the surviving rank waited past its timeout";
}

// A rank alive but silent (stuck, or waiting for games that never come) fails the other after
// the configured timeout, not c10d's 30-minute default.
TEST(ProcessGroup, ASilentRankFailsTheOtherAfterTheTimeout) {
  if (!distributed_built()) GTEST_SKIP() << "built without c10d (SZ_DISTRIBUTED)";
  const int port = test_port(2);
  const auto start = std::chrono::steady_clock::now();
  const auto statuses = run_ranks(2, [&](int rank) {
    ProcessGroup group({.world_size = 2, .rank = rank, .host = "127.0.0.1", .port = port, .timeout_seconds = 2});
    if (rank == 1) {
      std::this_thread::sleep_for(std::chrono::seconds(4));
      return 0;
    }
    try {
      group.average({torch::ones({4})});
    } catch (const Error& e) {
      std::fprintf(stderr, "rank 0 got: %s\n", e.what());
      return std::string(e.what()).find("did not answer within 2 s") != std::string::npos ? 0 : 3;
    }
    return 4;
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(statuses, (std::vector<int>{0, 0})) << "3: an unclear error, 4: none";
  EXPECT_LT(seconds, 20);
}

}  // namespace
}  // namespace sz::train
