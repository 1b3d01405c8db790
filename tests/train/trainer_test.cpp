// The trainer end to end on CPU with the tiny network: the replay-ratio cap, exact resumption in
// process (the averaged weights too), checkpoints that do not read, one trainer a run, metrics
// and the held-out check. Batches and learning: batches_test.cpp; the `train` command: train_command_test.cpp.
#include "train/trainer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "../models/checkpoint_damage.h"
#include "checkpoint_compare.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/json.h"
#include "data/shard_files.h"
#include "models/checkpoint.h"
#include "models/training.h"
#include "nn/net_runner.h"
#include "rundir/checkpoint_files.h"
#include "rundir/run_plots.h"
#include "test_paths.h"
#include "train_fixtures.h"

namespace sz::train {
namespace {

namespace fs = std::filesystem;
using test::expect_same_checkpoints;
using test::games_of;
using test::in_run;
using test::TempDir;
using test::tiny_setup;
using test::write_shards;

TEST(Trainer, ResumedTrainerContinuesExactlyAsOneNeverStopped) {
  nn::set_torch_threads(1);
  TempDir once, twice;
  write_shards(games_of(once), 0, 40, 10);
  write_shards(games_of(twice), 0, 40, 10);
  const auto config = tiny_setup();
  {
    Trainer t(in_run(config, once.str()));
    EXPECT_EQ(t.train_available(20), 20);
  }
  {
    Trainer t(in_run(config, twice.str()));
    EXPECT_EQ(t.train_available(10), 10);
    EXPECT_EQ(t.current_checkpoint(), twice.file("models/model-00000010.pt"));
  }
  {
    Trainer t(in_run(config, twice.str()));
    EXPECT_EQ(t.step(), 10);
    EXPECT_EQ(t.train_available(10), 10);
  }
  expect_same_checkpoints(once.file("models/model-00000020.pt"), twice.file("models/model-00000020.pt"));
  // The metadata says what the file holds.
  const auto meta = models::read_checkpoint_meta(once.file("models/model-00000020.pt"));
  EXPECT_EQ(meta.step, 20);
  EXPECT_EQ(meta.optimizer, "sgd");
  EXPECT_EQ(meta.profiles, (std::vector<std::string>{"sittuyin", "sittuyin-plyyard"}));
}

// train.average_decay: the first step's average is 1/10 of the initial weights and 9/10 of the
// step's (the fast start), each checkpoint carries it, players load it, and a resumed trainer
// goes on averaging exactly as one that never stopped.
TEST(Trainer, AveragesTheWeightsForPlayAndResumesTheAverage) {
  nn::set_torch_threads(1);
  TempDir once, twice;
  write_shards(games_of(once), 0, 40, 10);
  write_shards(games_of(twice), 0, 40, 10);
  auto config = tiny_setup();
  config.train.average_decay = 0.9;
  config.train.checkpoint_every = 1;
  {
    Trainer t(in_run(config, once.str()));
    EXPECT_EQ(t.train_available(12), 12);
  }
  torch::manual_seed(config.seed);  // the trainer's first network
  const models::Network initial(net::Architecture{config.net, config.spec});
  const net::Architecture arch{config.net, config.spec};
  models::Network trained(arch), averaged(arch);
  models::AveragedWeights slot{&averaged};
  models::load_checkpoint(once.file("models/model-00000001.pt"), trained, nullptr, {}, &slot);
  ASSERT_TRUE(slot.loaded);
  const torch::Tensor w0 = initial->parameters().front(), w1 = trained->parameters().front();
  const torch::Tensor a1 = averaged->parameters().front();
  EXPECT_TRUE(torch::allclose(a1, 0.1 * w0 + 0.9 * w1, 1e-5, 1e-6));
  EXPECT_FALSE(torch::allclose(w0, w1));
  const auto played = models::load_network(once.file("models/model-00000012.pt"), config.spec);
  models::load_checkpoint(once.file("models/model-00000012.pt"), trained, nullptr, {}, &slot);
  EXPECT_TRUE(torch::equal(played.net->parameters().front(), averaged->parameters().front()));
  EXPECT_FALSE(torch::equal(played.net->parameters().front(), trained->parameters().front()));
  {
    Trainer t(in_run(config, twice.str()));
    EXPECT_EQ(t.train_available(7), 7);
  }
  {
    Trainer t(in_run(config, twice.str()));
    EXPECT_EQ(t.train_available(5), 5);
  }
  expect_same_checkpoints(once.file("models/model-00000012.pt"), twice.file("models/model-00000012.pt"));
}

// Runs of checkpoint format 2 and older kept the trainer's state in a .state file beside each
// checkpoint: a trainer resumes from such a pair exactly as from a checkpoint that holds its state.
TEST(Trainer, ResumesFromTheStateFileBesideAnOlderCheckpoint) {
  nn::set_torch_threads(1);
  TempDir once, twice;
  write_shards(games_of(once), 0, 40, 10);
  write_shards(games_of(twice), 0, 40, 10);
  Trainer(tiny_setup(once.str())).train_available(10);
  Trainer(tiny_setup(twice.str())).train_available(5);
  // model-00000005.pt as an older trainer left it: its state beside it, not inside.
  const std::string old = twice.file("models/model-00000005.pt");
  const TrainerSetup setup = tiny_setup();
  models::Network net(net::Architecture{setup.net, setup.spec});
  auto optimizer = models::make_optimizer(net, setup.train.optimizer);
  models::CheckpointMeta meta = models::load_checkpoint(old, net, optimizer.get(), "sgd");
  write_file_atomically(rundir::state_path(old), meta.trainer_state);
  meta.trainer_state.clear();
  fs::remove(old);
  models::save_checkpoint(old, net, optimizer.get(), "sgd", meta);
  ASSERT_TRUE(models::read_checkpoint_meta(old).trainer_state.empty());
  {
    Trainer t(tiny_setup(twice.str()));
    EXPECT_EQ(t.step(), 5);
    EXPECT_EQ(t.train_available(5), 5);
  }
  expect_same_checkpoints(once.file("models/model-00000010.pt"), twice.file("models/model-00000010.pt"));
}

TEST(Trainer, ReplayRatioCapsTheStepsUntilNewGamesArrive) {
  TempDir run;
  write_shards(games_of(run), 0, 30, 10);
  auto config = tiny_setup();
  config.train.replay_ratio = 2;
  const int64_t first = test::positions_of_games(0, 30);
  Trainer t(in_run(config, run.str()));
  const int expected = int(first * 2 / 32);
  EXPECT_EQ(t.train_available(100'000), expected);
  EXPECT_EQ(t.step(), expected);
  EXPECT_EQ(t.train_available(100'000), 0);  // nothing new: no more steps
  write_shards(games_of(run), 30, 10, 10);
  const int64_t total = first + test::positions_of_games(30, 10);
  EXPECT_EQ(t.train_available(100'000), int(total * 2 / 32) - expected);
  EXPECT_EQ(t.positions_seen(), total);
  EXPECT_EQ(rundir::read_current(run.file("models")), t.current_checkpoint());
  EXPECT_EQ(rundir::checkpoint_step(fs::path(t.current_checkpoint()).filename().string()), t.step());
}

TEST(Trainer, NoTrainingBeforeMinPositions) {
  TempDir run;
  write_shards(games_of(run), 0, 10, 10);
  auto config = tiny_setup();
  config.train.min_positions = test::positions_of_games(0, 10) + 1;
  Trainer t(in_run(config, run.str()));
  EXPECT_EQ(t.train_available(10), 0);
  EXPECT_EQ(t.current_checkpoint(), "");
  write_shards(games_of(run), 10, 1, 10);
  EXPECT_EQ(t.train_available(10), 10);
}

TEST(Trainer, TrainWaitsWhenCappedAndStopsCleanlyWithACheckpoint) {
  TempDir run;
  write_shards(games_of(run), 0, 20, 10);
  auto config = tiny_setup();
  config.train.replay_ratio = 1;
  config.train.poll_seconds = 0.05;
  config.train.checkpoint_every = 1000;
  std::vector<std::string> info;
  TrainerHooks hooks;
  hooks.on_info = [&](const std::string& s) { info.push_back(s); };
  Trainer t(in_run(config, run.str()), hooks);
  std::atomic<bool> stop{false};
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    stop = true;
  });
  const int64_t cap = test::positions_of_games(0, 20) / 32;
  EXPECT_EQ(t.train(cap + 100, &stop), cap);
  stopper.join();
  ASSERT_FALSE(info.empty());
  EXPECT_NE(info[0].find("waiting for games"), std::string::npos) << info[0];
  EXPECT_EQ(t.current_checkpoint(), run.file("models/" + rundir::checkpoint_file_name(cap)));
}

struct Collected {
  std::vector<std::string> lines;
  TrainerHooks hooks() {
    TrainerHooks h;
    h.on_warning = [this](const std::string& s) { lines.push_back(s); };
    return h;
  }
  bool has(const std::string& text) const {
    for (const auto& l : lines)
      if (l.find(text) != std::string::npos) return true;
    return false;
  }
};

// Without models/current.txt a trainer started a fresh network at step 0 and wrote its
// checkpoints over the run's. It resumes from the newest checkpoint that reads, and says so.
TEST(Trainer, MissingCurrentTxtResumesFromTheNewestReadableCheckpoint) {
  TempDir run;
  write_shards(games_of(run), 0, 20, 10);
  Trainer(tiny_setup(run.str())).train_available(15);  // checkpoints at 5, 10 and 15
  const std::string models = run.file("models");
  fs::remove(models + "/current.txt");
  sz::test::damage_weights(models + "/model-00000015.pt");
  Collected w;
  {
    Trainer t(tiny_setup(run.str()), w.hooks());
    EXPECT_EQ(t.step(), 10);
    EXPECT_EQ(t.current_checkpoint(), models + "/model-00000010.pt");
    EXPECT_TRUE(w.has("skipping checkpoint " + models + "/model-00000015.pt: damaged: its tensors do not match"))
        << w.lines.at(0);
    EXPECT_TRUE(w.has("(moved to " + models + "/damaged/model-00000015.pt)"));
    EXPECT_TRUE(w.has(models + "/current.txt is missing; resuming from " + models +
                      "/model-00000010.pt, the newest readable checkpoint"));
    EXPECT_EQ(rundir::read_current(models), models + "/model-00000010.pt");  // the pointer is back
    EXPECT_EQ(t.train_available(5), 5);                                      // a new model-00000015.pt, over nothing
  }
  EXPECT_NO_THROW(models::read_checkpoint_meta(models + "/model-00000015.pt"));
  // A trainer stopped between writing a checkpoint and current.txt: the newer, complete one wins.
  write_file_atomically(models + "/current.txt", "model-00000005.pt\n");
  Collected again;
  EXPECT_EQ(Trainer(tiny_setup(run.str()), again.hooks()).step(), 15);
  EXPECT_TRUE(again.has("is newer and complete")) << again.lines.at(0);
}

TEST(Trainer, CheckpointsOfWhichNoneReadsStopTheTrainer) {
  TempDir run;
  write_shards(games_of(run), 0, 20, 10);
  Trainer(tiny_setup(run.str())).train_available(10);
  const std::string models = run.file("models");
  fs::remove(models + "/current.txt");
  for (const char* name : {"/model-00000005.pt", "/model-00000010.pt"}) sz::test::damage_weights(models + name);
  try {
    Trainer t(tiny_setup(run.str()));
    FAIL() << "started at step " << t.step() << " over checkpoints it could not read";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("refusing to start a fresh network"), std::string::npos) << what;
    EXPECT_NE(what.find(models + "/model-00000005.pt: damaged"), std::string::npos) << what;
  }
  EXPECT_TRUE(fs::exists(models + "/model-00000010.pt"));  // left where they are
}

TEST(Trainer, SecondTrainerOnTheSameRunIsRefused) {
  TempDir run;
  Trainer first(tiny_setup(run.str()));
  try {
    Trainer second(tiny_setup(run.str()));
    FAIL() << "two trainers on one run";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(".trainer.lock"), std::string::npos) << e.what();
  }
}

TEST(Trainer, WritesMetricLines) {
  TempDir run;
  write_shards(games_of(run), 0, 20, 10);
  std::vector<StepMetrics> seen;
  TrainerHooks hooks;
  hooks.on_metrics = [&](const StepMetrics& m) { seen.push_back(m); };
  Trainer t(tiny_setup(run.str()), hooks);
  t.train_available(10);
  ASSERT_EQ(seen.size(), 2u);  // log_every 5
  EXPECT_EQ(seen[1].step, 10);
  EXPECT_EQ(seen[1].samples, 320);
  EXPECT_EQ(seen[1].window, test::positions_of_games(0, 20));
  EXPECT_EQ(seen[1].window_shards, 2);
  EXPECT_GT(seen[1].policy, 0);
  EXPECT_GT(seen[1].moves_left, 0);  // the tiny net has the head
  std::ifstream in(run.file("logs/train.jsonl"));
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) {
    const auto record = json_numbers(line);
    ASSERT_TRUE(record.has_value()) << line;
    for (const char* key :
         {"step", "loss", "policy", "wdl", "moves_left", "lr", "samples_per_s", "window", "positions_seen"})
      EXPECT_EQ(record->count(key), 1u) << key << " in " << line;
    ++lines;
  }
  EXPECT_EQ(lines, 2);
}

// The held-out check: before training on games that arrived since it last trained, the network
// is scored on them (positions it never trained on), by head and by material edge.
TEST(Trainer, ScoresNewerGamesBeforeTrainingOnThem) {
  TempDir run;
  write_shards(games_of(run), 0, 20, 10);
  std::vector<std::string> info;
  TrainerHooks hooks;
  hooks.on_info = [&](const std::string& s) { info.push_back(s); };
  Trainer t(tiny_setup(run.str()), hooks);
  t.train_available(10);
  EXPECT_FALSE(fs::exists(run.file("logs/heldout.jsonl")));  // a fresh network: nothing to hold out
  t.train_available(5);
  EXPECT_FALSE(fs::exists(run.file("logs/heldout.jsonl")));  // no newer games
  write_shards(games_of(run), 20, 10, 10);
  t.train_available(5);
  std::ifstream in(run.file("logs/heldout.jsonl"));
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  const auto record = json_numbers(line);
  ASSERT_TRUE(record) << line;
  EXPECT_EQ(record->at("step"), 15);
  EXPECT_EQ(record->at("positions"), double(test::positions_of_games(20, 10)));
  EXPECT_GT(record->at("policy"), 0);
  EXPECT_GT(record->at("wdl"), 0);
  int64_t binned = 0;
  for (const auto& [key, value] : *record)
    if (key.starts_with("n_")) binned += int64_t(value);
  EXPECT_EQ(binned, test::positions_of_games(20, 10));  // every test row records its material
  EXPECT_FALSE(std::getline(in, line));
  EXPECT_TRUE(std::any_of(info.begin(), info.end(), [](const std::string& s) { return s.starts_with("held out: "); }));
}

}  // namespace
}  // namespace sz::train
