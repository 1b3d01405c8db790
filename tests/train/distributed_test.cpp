// Data-parallel ranks: where a rank stands (flags, torchrun's and Slurm's environment), and two
// Gloo ranks in forked processes on this host: their all-reduce averages, and a rank that dies
// makes the other stop with a clear error instead of hanging for c10d's 30-minute default.
// The processes are forked before this binary has run any torch operation.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <thread>

#include "core/error.h"
#include "models/checkpoint.h"
#include "models/network.h"
#include "net/architecture.h"
#include "train/distributed_config.h"
#include "train/process_group.h"
#include "train/shard_catalog.h"
#include "train/train_fixtures.h"
#include "train/trainer.h"

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

// A port for this test run: parallel ctest runs get different ones. Call it before forking.
int test_port(int offset) { return 20000 + int(getpid() % 20000) + offset; }

// Runs `body(rank)` in `world` forked processes; returns their exit statuses (-N: killed by
// signal N).
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
    statuses.push_back(WIFEXITED(raw) ? WEXITSTATUS(raw) : -WTERMSIG(raw));
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
    struct sigaction pipe {};
    sigaction(SIGPIPE, nullptr, &pipe);
    if (pipe.sa_handler != SIG_IGN) return 3;  // a peer's death would kill this rank, not fail it
    const bool ok =
        torch::allclose(a, torch::full({3, 2}, 1.5)) && torch::allclose(b, torch::arange(5, torch::kFloat32) * 1.5f);
    return ok ? 0 : 2;
  });
  EXPECT_EQ(statuses, (std::vector<int>{0, 0})) << "2: a rank's tensors are not the mean, 3: SIGPIPE not ignored";
}

TEST(ProcessGroup, ARankThatDiesStopsTheOtherWithAClearError) {
  if (!distributed_built()) GTEST_SKIP() << "built without c10d (SZ_DISTRIBUTED)";
  const int port = test_port(1);
  const auto start = std::chrono::steady_clock::now();
  const auto statuses = run_ranks(2, [&](int rank) {
    try {
      // Under load rank 1 may be gone before rank 0 has finished joining: then the join fails,
      // with an error as clear.
      ProcessGroup group({.world_size = 2, .rank = rank, .host = "127.0.0.1", .port = port, .timeout_seconds = 5});
      if (rank == 1) _exit(0);  // dies before the all-reduce
      group.average({torch::ones({4})});
    } catch (const Error& e) {
      const std::string what = e.what();
      std::fprintf(stderr, "rank %d got: %s\n", rank, what.c_str());
      const bool clear = what.find("another rank died or did not answer within 5 s") != std::string::npos ||
                         what.find("cannot join the other ranks within 5 s") != std::string::npos;
      return rank == 0 && what.find("distributed: rank 0 of 2 at 127.0.0.1:") == 0 && clear ? 0 : 3;
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

// Two Gloo ranks training K steps, each on its half of every batch, end with the weights of one
// rank that cuts every batch into the same two slices (batch normalisation sees a slice either
// way), within 1e-5; rank 1 writes no checkpoint, rank 0 all of them.
TEST(DistributedTrainer, TwoRanksTrainAsOneRankOnTheCombinedBatches) {
  if (!distributed_built()) GTEST_SKIP() << "built without c10d (SZ_DISTRIBUTED)";
  test::TempDir one, two;
  test::write_shards(one.str() + "/games", 0, 40, 10);
  test::write_shards(two.str() + "/games", 0, 40, 10);
  const int steps = 4, port = test_port(3);
  const auto alone = run_ranks(1, [&](int) {
    TrainerSetup setup = test::tiny_setup(one.str());
    setup.batch_slices = 2;
    Trainer(setup).train_available(steps);
    return 0;
  });
  const auto ranks = run_ranks(2, [&](int rank) {
    TrainerSetup setup = test::tiny_setup(two.str());
    setup.distributed = {.world_size = 2, .rank = rank, .host = "127.0.0.1", .port = port, .timeout_seconds = 60};
    Trainer(setup).train_available(steps);
    return 0;
  });
  ASSERT_EQ(alone, std::vector<int>{0});
  ASSERT_EQ(ranks, (std::vector<int>{0, 0}));
  const std::string a = one.str() + "/models/model-00000004.pt", b = two.str() + "/models/model-00000004.pt";
  const TrainerSetup setup = test::tiny_setup();
  const net::Architecture arch{setup.net, setup.spec};
  torch::manual_seed(int64_t(setup.seed));  // as the trainer does before it builds the network
  models::Network fresh(arch), net_a(arch), net_b(arch);
  models::load_checkpoint(a, net_a);
  models::load_checkpoint(b, net_b);
  double most = 0, moved = 0;
  const auto pa = net_a->named_parameters(), pb = net_b->named_parameters(), p0 = fresh->named_parameters();
  for (const auto& item : pa) {
    most = std::max(most, (item.value() - pb[item.key()]).abs().max().item<double>());
    moved = std::max(moved, (item.value() - p0[item.key()]).abs().max().item<double>());
  }
  EXPECT_LT(most, 1e-5) << "the ranks' weights differ from one rank's on the combined batches";
  EXPECT_GT(moved, 1e-4) << "the weights did not train";
}

// A rank killed mid-run makes the other stop with an error that says so (within the timeout, not
// c10d's 30-minute default); both restarted resume from rank 0's last checkpoint, together.
TEST(DistributedTrainer, AKilledRankStopsTheOtherAndBothResume) {
  if (!distributed_built()) GTEST_SKIP() << "built without c10d (SZ_DISTRIBUTED)";
  test::TempDir run;
  test::write_shards(run.str() + "/games", 0, 40, 10);
  const auto setup_of = [&](int rank, int port) {
    TrainerSetup setup = test::tiny_setup(run.str());
    setup.distributed = {.world_size = 2, .rank = rank, .host = "127.0.0.1", .port = port, .timeout_seconds = 20};
    return setup;
  };
  const int first_port = test_port(4), second_port = test_port(5);  // here: a child has a pid of its own
  const auto start = std::chrono::steady_clock::now();
  const auto killed = run_ranks(2, [&](int rank) {
    Trainer trainer(setup_of(rank, first_port));
    if (rank == 1) {
      std::thread([] {
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));
        raise(SIGKILL);
      }).detach();
    }
    try {
      trainer.train_available(100'000);
    } catch (const Error& e) {
      std::fprintf(stderr, "rank %d got: %s\n", rank, e.what());
      return std::string(e.what()).find("the all-reduce failed") != std::string::npos ? 0 : 3;
    }
    return 4;
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(killed, (std::vector<int>{0, -SIGKILL})) << "rank 0 - 3: an unclear error, 4: none";
  EXPECT_LT(seconds, 60);
  const auto resumed = run_ranks(2, [&](int rank) {
    Trainer trainer(setup_of(rank, second_port));
    const int64_t from = trainer.step();
    if (from < 5 || from % 5 != 0) return 5;  // a checkpoint of rank 0's (every 5 steps)
    return trainer.train_available(5) == 5 && trainer.step() == from + 5 ? 0 : 6;
  });
  EXPECT_EQ(resumed, (std::vector<int>{0, 0})) << "5: not resumed from a checkpoint, 6: did not train on";
}

// Rank 0 names the shards of the window: a rank that sees a shard rank 0 does not (here, rank 1's
// folder holds one more, as a shard finished between the two ranks' scans would) trains on rank
// 0's shards alone, so both build one window. Each used to scan games/ for itself.
TEST(DistributedTrainer, EveryRankTrainsOnTheShardsRankZeroNames) {
  if (!distributed_built()) GTEST_SKIP() << "built without c10d (SZ_DISTRIBUTED)";
  test::TempDir zero, one;
  test::write_shards(zero.str() + "/games", 0, 40, 10);
  test::write_shards(one.str() + "/games", 0, 40, 10);
  test::write_shards(one.str() + "/games", 40, 10, 10, "late");  // only rank 1 sees it
  // The positions of each folder (torch-free: no torch before the fork).
  const game::GameSpec spec = test::tiny_setup().spec;
  ShardCatalog named(zero.str() + "/games", spec, nullptr), more(one.str() + "/games", spec, nullptr);
  named.refresh();
  more.refresh();
  ASSERT_GT(more.total_positions(), named.total_positions());
  const int port = test_port(6);
  const auto ranks = run_ranks(2, [&](int rank) {
    TrainerSetup setup = test::tiny_setup(rank == 0 ? zero.str() : one.str());
    setup.distributed = {.world_size = 2, .rank = rank, .host = "127.0.0.1", .port = port, .timeout_seconds = 60};
    Trainer trainer(setup);
    if (trainer.train_available(2) != 2) return 2;
    return trainer.positions_seen() == named.total_positions() ? 0 : 3;
  });
  EXPECT_EQ(ranks, (std::vector<int>{0, 0})) << "2: did not train, 3: a rank's catalog is not rank 0's";
}

}  // namespace
}  // namespace sz::train
