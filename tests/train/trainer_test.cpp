// The trainer end to end on CPU with the tiny network: the replay-ratio cap, exact resumption
// (in-process, and of a `sittuyin-zero train` killed with SIGKILL), checkpoints and metrics,
// deterministic batches, a loss that falls on real self-play games, and the Python script that
// counts those games' results by material edge.
#include "train/trainer.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "../models/checkpoint_damage.h"
#include "core/error.h"
#include "core/split.h"
#include "data/shard_files.h"
#include "data/shard_reader.h"
#include "heuristics/heuristics.h"
#include "models/checkpoint.h"
#include "models/training.h"
#include "nn/net_runner.h"
#include "python_helpers.h"
#include "selfplay/selfplay.h"
#include "selfplay/selfplay_fixtures.h"
#include "shell_helpers.h"
#include "test_paths.h"
#include "train/batch.h"
#include "train/plots.h"
#include "train/run_files.h"
#include "train_fixtures.h"

namespace sz::train {
namespace {

namespace fs = std::filesystem;
using test::in_run;
using test::TempDir;
using test::tiny_setup;
using test::write_shards;

std::string games_of(const TempDir& run) { return run.file("games"); }

// LibTorch names each parameter's optimiser state by the address of the parameter's tensor in the
// process that saved it (param_groups/<g>/params/<i> holds the address, state/<address> the
// state). Two processes save different addresses for the same state: compare through the
// parameter's place instead.
struct Addresses {
  std::map<std::string, std::string> a, b;  // address -> "param_groups/<g>/params/<i>"
  static std::map<std::string, std::string> of(torch::serialize::InputArchive& root) {
    std::map<std::string, std::string> places;
    torch::serialize::InputArchive optimizer, groups;
    if (root.try_read("optimizer", optimizer) && optimizer.try_read("param_groups", groups))
      collect(groups, "", places);
    return places;
  }
  static void collect(torch::serialize::InputArchive& archive, const std::string& at,
                      std::map<std::string, std::string>& out) {
    for (const std::string& key : archive.keys()) {
      torch::serialize::InputArchive sub;
      c10::IValue v;
      if (archive.try_read(key, sub))
        collect(sub, at + key + "/", out);
      else if (archive.try_read(key, v) && v.isString() && (at + key).find("params/") != std::string::npos)
        out[v.toStringRef()] = at + key;
    }
  }
  static std::string canon(const std::map<std::string, std::string>& m, const std::string& s) {
    const auto it = m.find(s);
    return it == m.end() ? s : "<" + it->second + ">";
  }
};

// Every tensor and value of two checkpoint archives, compared exactly (weights, batch-norm
// statistics, optimiser state, metadata).
void expect_same_archives(torch::serialize::InputArchive& a, torch::serialize::InputArchive& b, const std::string& at,
                          const Addresses& addr) {
  std::map<std::string, std::string> keys_a, keys_b;  // canonical -> real
  for (const auto& k : a.keys()) keys_a[Addresses::canon(addr.a, k)] = k;
  for (const auto& k : b.keys()) keys_b[Addresses::canon(addr.b, k)] = k;
  ASSERT_EQ(keys_a.size(), keys_b.size()) << at;
  for (const auto& [canon, key_a] : keys_a) {
    ASSERT_EQ(keys_b.count(canon), 1u) << at << canon;
    const std::string& key_b = keys_b.at(canon);
    torch::Tensor ta, tb;
    if (a.try_read(key_a, ta)) {
      ASSERT_TRUE(b.try_read(key_b, tb)) << at << canon;
      EXPECT_TRUE(ta.sizes() == tb.sizes() && torch::equal(ta, tb)) << at << canon;
      continue;
    }
    torch::serialize::InputArchive sa, sb;
    if (a.try_read(key_a, sa)) {
      ASSERT_TRUE(b.try_read(key_b, sb)) << at << canon;
      expect_same_archives(sa, sb, at + canon + "/", addr);
      continue;
    }
    c10::IValue va, vb;
    a.read(key_a, va);
    b.read(key_b, vb);
    EXPECT_EQ(va.tagKind(), vb.tagKind()) << at << canon;
    if (va.isString()) {
      EXPECT_EQ(Addresses::canon(addr.a, va.toStringRef()), Addresses::canon(addr.b, vb.toStringRef())) << at << canon;
    } else if (va.isInt()) {
      EXPECT_EQ(va.toInt(), vb.toInt()) << at << canon;
    } else if (va.isDouble()) {
      EXPECT_EQ(va.toDouble(), vb.toDouble()) << at << canon;
    }
  }
}

void expect_same_checkpoints(const std::string& a, const std::string& b) {
  ASSERT_TRUE(fs::exists(a)) << a;
  ASSERT_TRUE(fs::exists(b)) << b;
  torch::serialize::InputArchive xa, xb;
  xa.load_from(a);
  xb.load_from(b);
  const Addresses addr{Addresses::of(xa), Addresses::of(xb)};
  EXPECT_FALSE(addr.a.empty());            // the optimiser state is there
  expect_same_archives(xa, xb, "", addr);  // the trainer's state inside them too
  EXPECT_FALSE(models::read_checkpoint_meta(a).trainer_state.empty());
  EXPECT_FALSE(fs::exists(state_path(a)));  // no file beside the checkpoint any more
}

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
  const models::Network initial(models::Architecture{config.net, config.spec});
  const models::Architecture arch{config.net, config.spec};
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
  models::Network net(models::Architecture{setup.net, setup.spec});
  auto optimizer = models::make_optimizer(net, setup.train.optimizer);
  models::CheckpointMeta meta = models::load_checkpoint(old, net, optimizer.get(), "sgd");
  write_file_atomically(state_path(old), meta.trainer_state);
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
  EXPECT_EQ(read_current(run.file("models")), t.current_checkpoint());
  EXPECT_EQ(checkpoint_step(fs::path(t.current_checkpoint()).filename().string()), t.step());
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
  EXPECT_EQ(t.current_checkpoint(), run.file("models/" + checkpoint_file_name(cap)));
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
    EXPECT_EQ(read_current(models), models + "/model-00000010.pt");  // the pointer is back
    EXPECT_EQ(t.train_available(5), 5);                              // a new model-00000015.pt, over nothing
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
    const auto record = parse_json_numbers(line);
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
  const auto record = parse_json_numbers(line);
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

TEST(Batches, DependOnlyOnSeedStepAndShards) {
  TempDir a, b;
  write_shards(a.str(), 0, 20, 5);
  write_shards(b.str(), 0, 20, 5);
  ShardCatalog ca(a.str(), data::test::test_spec(), nullptr), cb(b.str(), data::test::test_spec(), nullptr);
  ca.refresh();
  cb.refresh();
  const auto wa = Window::build(ca, 1'000'000, nullptr), wb = Window::build(cb, 1'000'000, nullptr);
  const BatchSpec spec{.seed = 3, .batch_size = 64, .sampling = {}};
  const HostBatch x = make_host_batch(*wa, spec, 7, false), y = make_host_batch(*wb, spec, 7, false);
  const HostBatch z = make_host_batch(*wa, spec, 8, false);
  EXPECT_TRUE(torch::equal(x.planes, y.planes));
  EXPECT_TRUE(torch::equal(x.policy_index, y.policy_index));
  EXPECT_TRUE(torch::equal(x.policy_prob, y.policy_prob));
  EXPECT_TRUE(torch::equal(x.wdl, y.wdl));
  EXPECT_FALSE(torch::equal(x.planes, z.planes));
  // Targets: one-hot WDL rows, a dense policy equal to the sparse entries.
  EXPECT_TRUE(torch::equal(x.wdl.sum(1), torch::ones({64})));
  const auto loss = to_loss_batch(x, torch::kCPU, 2212, true);
  EXPECT_TRUE(torch::allclose(loss.policy.sum(1), x.policy_prob.sum(1)));
  EXPECT_EQ(loss.input.sizes(), (std::vector<int64_t>{64, 44, 8, 8}));
}

// The value target mixes the result and the search's value: w * search + (1 - w) * one-hot.
TEST(Batches, ValueTargetMixesTheResultAndTheSearchValue) {
  TempDir a;
  write_shards(a.str(), 0, 20, 5);
  ShardCatalog catalog(a.str(), data::test::test_spec(), nullptr);
  catalog.refresh();
  const auto window = Window::build(catalog, 1'000'000, nullptr);
  BatchSpec spec{.seed = 3, .batch_size = 64, .sampling = {}};
  const HostBatch result_only = make_host_batch(*window, spec, 7, false);
  spec.value_target_search = 1.0;
  const HostBatch search_only = make_host_batch(*window, spec, 7, false);
  spec.value_target_search = 0.25;
  const HostBatch mixed = make_host_batch(*window, spec, 7, false);
  EXPECT_TRUE(torch::allclose(mixed.wdl, 0.75 * result_only.wdl + 0.25 * search_only.wdl));
  EXPECT_TRUE(torch::allclose(mixed.wdl.sum(1), torch::ones({64})));
  EXPECT_FALSE(torch::equal(search_only.wdl, result_only.wdl));  // the test games' values differ from their results
  // Each row of search_only is its position's recorded search value, or its result where the
  // search had no value (the uniform bootstrap's rows).
  std::vector<int64_t> rows;
  sample_rows(3, 7, 64, window->size(), Sampling{}, rows);
  int without_value = 0;
  for (size_t j = 0; j < rows.size(); ++j) {
    const Window::Row r = window->row(rows[j]);
    const size_t i = size_t(r.index);
    const bool valued = r.columns->has_search_value[i];
    without_value += !valued;
    for (int k = 0; k < 3; ++k) {
      const float result = r.columns->result[i] == 1 - k ? 1.0f : 0.0f;  // win, draw, loss
      EXPECT_FLOAT_EQ(search_only.wdl[int64_t(j)][k].item<float>(),
                      valued ? r.columns->search_wdl[3 * i + size_t(k)] : result);
    }
  }
  EXPECT_GT(without_value, 0);
  EXPECT_LT(without_value, 64);
}

// A prior that prefers action ids of a low residue mod 7, a drawn value: its searches' visits
// follow the prior, a learnable target (the uniform evaluator's are none).
class SkewedEvaluator final : public search::Evaluator {
 public:
  void evaluate(std::span<const search::EvalQuery> queries, std::span<search::EvalReply> replies) override {
    for (size_t i = 0; i < queries.size(); ++i) {
      float sum = 0;
      for (size_t a = 0; a < queries[i].actions.size(); ++a) {
        const float rank = float(1 + queries[i].actions[a] % 7);
        sum += replies[i].priors[a] = 1.0f / (rank * rank * rank);
      }
      for (float& p : replies[i].priors) p /= sum;
      replies[i].wdl[0] = replies[i].wdl[2] = 0.2f;
      replies[i].wdl[1] = 0.6f;
    }
  }
};

// Real games from self-play with the uniform evaluator (no targets but the result) or a skewed one.
std::string real_games(const std::string& dir, int games, bool uniform = false) {
  selfplay::SelfplayJob job;
  job.config.threads = 1;
  job.config.games_per_thread = 6;
  job.config.seed = 3;
  job.config.search.full_visits = 24;
  job.config.search.cheap_visits = 8;
  job.config.games_per_shard = 6;
  job.config.max_plies = 200;
  job.config.shard_prefix = "sp";
  job.start = games::new_game("sittuyin").take_or_throw("sittuyin");
  job.out_dir = dir;
  job.games = games;
  job.make_evaluator = [uniform](int) -> std::unique_ptr<search::Evaluator> {
    if (uniform) return std::make_unique<search::UniformEvaluator>();
    return std::make_unique<SkewedEvaluator>();
  };
  selfplay::run_selfplay(job);
  return dir;
}

// A search that knows nothing (a uniform prior and a constant draw) gives no target: its rows
// carry the result alone and no policy; a search with a prior gives both, its policy naming
// every legal action.
TEST(Batches, TheUniformBootstrapsRowsHaveNeitherPolicyNorSearchValue) {
  TempDir dir;
  real_games(dir.str(), 6, /*uniform=*/true);
  TempDir other;
  real_games(other.str(), 6, /*uniform=*/false);
  for (const auto& [path, uniform] : {std::pair{dir.str(), true}, std::pair{other.str(), false}}) {
    int64_t rows = 0, targets = 0;
    for (const std::string& shard : data::list_shards(path)) {
      const data::PositionColumns p = data::ShardReader::open(shard).read_positions();
      for (int64_t i = 0; i < p.size(); ++i, ++rows) {
        const size_t k = size_t(i);
        EXPECT_EQ(p.has_search_value[k], uniform ? 0 : 1);
        if (uniform) {
          EXPECT_EQ(p.search_wdl[3 * k + 1], 1.0f);  // a draw, unused
        }
        EXPECT_EQ(p.policy_target[k], !uniform && p.full_search[k]);
        if (!p.policy_target[k]) continue;
        ++targets;
        EXPECT_TRUE(p.policy_lists_legal(i)) << i;
      }
    }
    EXPECT_GT(rows, 0);
    if (!uniform) {
      EXPECT_GT(targets, 0);
    }
  }
}

// scripts/material_outcomes.py (docs/BENCHMARKS.md, "Why the value counts no men"): the play
// positions by the mover's material edge and result, for the bootstrap's games and the
// networks'. The script reads the balance off the planes; here each game is replayed through the
// rules and game::Heuristics::material counts it.
TEST(MaterialOutcomes, ThePythonScriptCountsEveryPlayPositionByKindEdgeAndResult) {
  const std::string python = sz::test::find_python();
  if (python.empty()) GTEST_SKIP() << "no python3 with h5py and numpy (tried $SZ_PYTHON, python3, /usr/bin/python3)";
  TempDir dir;
  real_games(dir.str(), 6, /*uniform=*/true);
  selfplay::SelfplayJob job = selfplay::small_job(dir.str(), 6);  // "a network's" games
  job.config.seed = 4;
  job.config.max_plies = 120;
  job.config.shard_prefix = "nw";
  job.model_id = "net";
  selfplay::run_selfplay(job);
  std::map<std::pair<std::string, int>, std::array<int64_t, 3>> expected;  // (kind, edge) -> W, D, L
  for (const auto& entry : fs::directory_iterator(dir.str())) {
    if (entry.path().extension() != ".h5") continue;
    const data::ShardReader shard = data::ShardReader::open(entry.path().string());
    const data::PositionColumns p = shard.read_positions();
    for (const data::GameInfo& g : shard.read_games()) {
      auto state = games::new_game(g.profile, g.start_fen).take_or_throw(g.start_fen);
      const std::string kind = g.model_id.empty() ? "bootstrap" : "networks";
      const auto moves = split_words(g.moves);
      // One position per move, and one more when the game ended by resignation (no move after it).
      ASSERT_TRUE(int64_t(moves.size()) == g.num_positions || int64_t(moves.size()) + 1 == g.num_positions) << g.moves;
      for (int64_t j = 0; j < g.num_positions; ++j) {
        const size_t row = size_t(g.first_position + j);
        if (state->phase() == game::Phase::Play) {
          const float material = heuristics::of_game(state->spec().game)->material(*state);
          const int edge = std::clamp(int(std::nearbyint(material)), -6, 6);  // half to even, as numpy
          ++expected[{kind, edge}][size_t(1 - p.result[row])];
        }
        if (size_t(j) < moves.size())
          state->apply(state->parse_action(moves[size_t(j)]).take_or_throw(std::string(moves[size_t(j)])));
      }
    }
  }
  ASSERT_FALSE(expected.empty());
  const sz::test::CommandRun run =
      sz::test::run_shell(python + " " + sz::test::source_dir() + "/scripts/material_outcomes.py " + dir.str() + " 0");
  ASSERT_EQ(run.status, 0) << run.output;
  size_t rows = 0;
  std::string kind;
  std::istringstream lines(run.output);
  std::string line;
  while (std::getline(lines, line)) {
    if (const size_t colon = line.find(": the mover's edge"); colon != std::string::npos) kind = line.substr(0, colon);
    int edge = 0;
    long long n = 0;
    double w = 0, d = 0, l = 0;
    if (std::sscanf(line.c_str(), " %d positions %lld W %lf D %lf L %lf", &edge, &n, &w, &d, &l) != 5) continue;
    ++rows;
    const std::array<int64_t, 3>& want = expected[{kind, edge}];
    ASSERT_EQ(n, want[0] + want[1] + want[2]) << kind << ": " << line;
    EXPECT_NEAR(w, 100.0 * double(want[0]) / double(n), 0.051) << kind << ": " << line;
    EXPECT_NEAR(l, 100.0 * double(want[2]) / double(n), 0.051) << kind << ": " << line;
  }
  EXPECT_EQ(rows, expected.size()) << run.output;
}

TEST(Trainer, LossFallsOnRealSelfplayGames) {
  TempDir run;
  real_games(games_of(run), 12);
  auto config = tiny_setup();
  config.train.batch_size = 64;
  config.train.optimizer.learning_rate = 0.05;
  config.train.lr_schedule = LrSchedule::Constant;
  config.train.log_every = 10;
  config.train.checkpoint_every = 1000;
  std::vector<StepMetrics> seen;
  TrainerHooks hooks;
  hooks.on_metrics = [&](const StepMetrics& m) { seen.push_back(m); };
  Trainer t(in_run(config, run.str()), hooks);
  EXPECT_EQ(t.train_available(150), 150);
  ASSERT_EQ(seen.size(), 15u);
  const StepMetrics& first = seen.front();
  const StepMetrics& last = seen.back();
  std::printf("loss %.3f -> %.3f (policy %.3f -> %.3f, wdl %.3f -> %.3f, moves-left %.4f -> %.4f)\n", first.loss,
              last.loss, first.policy, last.policy, first.wdl, last.wdl, first.moves_left, last.moves_left);
  EXPECT_LT(last.policy, first.policy - 1.0);
  EXPECT_LT(last.wdl, first.wdl);
  EXPECT_LT(last.loss, first.loss - 1.0);
}

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
      const std::string current = read_current(killed.file("models"));
      if (!current.empty()) at = checkpoint_step(fs::path(current).filename().string());
    } catch (const Error&) {  // current.txt is replaced atomically; a reader sees old or new
    }
  }
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the trainer ended before it was killed";
  const std::string current = read_current(killed.file("models"));
  const int64_t resumed_at = checkpoint_step(fs::path(current).filename().string());
  ASSERT_LT(resumed_at, kSteps);
  std::printf("killed after checkpoint %lld; resuming\n", static_cast<long long>(resumed_at));
  ASSERT_EQ(run_cli({"train", "--run", killed.str(), "--steps", std::to_string(kSteps - resumed_at)}, true), 0);
  const std::string last = "models/" + checkpoint_file_name(kSteps);
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
  const PlotReport report = plot_run(run.str(), {.games_per_point = 10});
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
  EXPECT_EQ(plot_run(run.str()).written.size(), 8u);
  EXPECT_TRUE(fs::exists(run.file("plots/elo.png")));
}

}  // namespace
}  // namespace sz::train
