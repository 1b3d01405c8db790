// The training loop end to end on the tiny network: two generations of self-play and training
// in one run directory (the first with more games, played by the bootstrap), then the final
// match against the bootstrap player; run again, it picks up where it stopped.
#include "run/loop.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "core/atomic_file.h"
#include "core/read_file.h"
#include "data/shard_files.h"
#include "data/shard_reader.h"
#include "games/registry.h"
#include "rundir/checkpoint_files.h"
#include "rundir/loop_state.h"
#include "selfplay/selfplay.h"
#include "selfplay/worker_id.h"
#include "train/train_fixtures.h"

namespace sz::run {
namespace {

namespace fs = std::filesystem;
using train::test::TempDir;

RunConfig loop_config(const std::string& dir) {
  RunConfig c;  // the trainer's tests' tiny setup, as a run
  const train::TrainerSetup tiny = train::test::tiny_setup();
  c.seed = tiny.seed;
  c.net = "tiny";
  c.profile = "sittuyin";
  c.train = tiny.train;
  c.dir = dir;
  c.search.full_visits = 16;
  c.search.cheap_visits = 4;
  c.selfplay.threads = 1;
  c.selfplay.games_per_thread = 8;
  c.selfplay.max_plies = 200;
  c.selfplay.games_per_shard = 4;
  c.selfplay.search = c.search;
  c.selfplay.seed = c.seed;
  c.loop.generations = 2;
  c.loop.bootstrap_games = 12;  // the first generation: the bootstrap plays more games
  c.loop.games_per_generation = 8;
  c.loop.train_steps_per_generation = 10;
  c.loop.bootstrap_train_steps = 14;  // the first network learns from the bootstrap's games longer
  c.loop.rate_games = 2;
  c.loop.anchor = "random";  // an anchor that needs no engine: the test is about the bookkeeping
  c.loop.final_eval_games = 4;
  c.loop.eval_suite = "suites/starts-partial.epd";
  c.loop.eval_concurrency = 1;
  c.inference.threads = 1;
  c.tables.men = 0;  // one test below builds its own
  return c;
}

// Hooks that keep the progress lines (into `lines`, if given) and report checkpoints.
LoopHooks quiet(std::vector<std::string>* lines = nullptr,
                std::function<void(const std::string&)> on_checkpoint = nullptr) {
  LoopHooks hooks;
  hooks.on_line = [lines](const std::string& line) {
    if (lines) lines->push_back(line);
  };
  hooks.on_checkpoint = std::move(on_checkpoint);
  return hooks;
}

size_t lines_in(const std::string& path) {
  std::ifstream in(path);
  size_t n = 0;
  for (std::string line; std::getline(in, line);) n += !line.empty();
  return n;
}

TEST(Loop, TwoGenerationsLeaveShardsCheckpointsMetricsALadderAndFinalMatches) {
  TempDir dir;
  const RunConfig config = loop_config(dir.str());
  std::vector<std::string> lines;
  const LoopReport report = run_loop(config, nullptr, quiet(&lines));

  EXPECT_EQ(report.generations, 2);
  EXPECT_EQ(report.stop_reason, "loop.generations (2) done");
  EXPECT_EQ(selfplay::count_games(dir.str() + "/games"), 12 + 8);
  EXPECT_GE(data::list_shards(dir.str() + "/games").size(), 4u);
  ASSERT_FALSE(report.final_model.empty());
  EXPECT_TRUE(fs::exists(report.final_model));
  EXPECT_EQ(fs::path(report.final_model).filename(), "model-00000024.pt");  // 14 + 10 steps
  EXPECT_EQ(fs::path(report.first_model).filename(), "model-00000014.pt");
  EXPECT_TRUE(fs::exists(dir.str() + "/models/current.txt"));
  EXPECT_TRUE(fs::exists(dir.str() + "/config.yaml"));
  EXPECT_GE(lines_in(dir.str() + "/logs/train.jsonl"), 2u);
  // The ladder: generation 1 played the anchor; generation 2 the anchor and generation 1; the
  // final network then the first and the anchor again. Every network is rated over the anchor.
  EXPECT_EQ(lines_in(dir.str() + "/eval/networks.jsonl"), 2u);
  EXPECT_EQ(lines_in(dir.str() + "/eval/ladder.jsonl"), 3u + 2u);
  EXPECT_EQ(lines_in(dir.str() + "/eval/elo.jsonl"), 2u);
  EXPECT_TRUE(fs::exists(dir.str() + "/eval/ladder.json"));
  EXPECT_EQ(report.anchor, "random");
  EXPECT_TRUE(report.ladder.anchored);
  ASSERT_EQ(report.ladder.networks.size(), 2u);
  EXPECT_EQ(report.ladder.networks[0].generation, 1);
  EXPECT_EQ(report.ladder.networks[1].generation, 2);
  EXPECT_EQ(report.ladder.games, 2 * 3 + 4 * 2);
  ASSERT_TRUE(report.final_vs_first.has_value());
  ASSERT_TRUE(report.final_vs_anchor.has_value());
  EXPECT_EQ(report.final_vs_first->games_played, 4);
  EXPECT_EQ(report.final_vs_anchor->games_played, 4);
  EXPECT_TRUE(fs::exists(dir.str() + "/eval/final-vs-first.json"));
  EXPECT_TRUE(fs::exists(dir.str() + "/eval/final-vs-anchor.pgn"));
  EXPECT_TRUE(std::any_of(lines.begin(), lines.end(),
                          [](const std::string& l) { return l.find("rated model-") != std::string::npos; }));

  // Run again with one more generation: it continues from the directory, not from scratch, and
  // the ladder keeps the matches already played.
  RunConfig more = config;
  more.loop.generations = 3;
  more.loop.final_eval_games = 0;
  const LoopReport again = run_loop(more, nullptr, quiet());
  EXPECT_EQ(again.generations, 1);
  EXPECT_EQ(again.generations_total, 3);
  EXPECT_EQ(selfplay::count_games(dir.str() + "/games"), 12 + 8 + 8);
  EXPECT_EQ(lines_in(dir.str() + "/eval/ladder.jsonl"), 5u + 2u);
  EXPECT_EQ(again.ladder.networks.size(), 3u);
}

// A time limit that stops the run early says so.
TEST(Loop, ARunCutShortByTimeSaysWhy) {
  TempDir dir;
  RunConfig config = loop_config(dir.str());
  config.loop.max_minutes = 1e-6;  // before the first generation
  config.loop.rate_games = 0;
  config.loop.final_eval_games = 0;
  const LoopReport report = run_loop(config, nullptr, quiet());
  EXPECT_EQ(report.generations, 0);
  EXPECT_EQ(report.stop_reason, "loop.max_minutes (1e-06) reached after 0 of 2 generations");
}

// A small loop: one generation of 12 bootstrap games and 14 steps, no matches.
RunConfig short_config(const std::string& dir) {
  RunConfig c = loop_config(dir);
  c.loop.generations = 1;
  c.loop.rate_games = 0;
  c.loop.final_eval_games = 0;
  return c;
}

int64_t step_of(const std::string& checkpoint) {
  return rundir::checkpoint_step(fs::path(checkpoint).filename().string());
}

// Ctrl-C during a generation's training counted the generation as done, and its missing steps
// were never trained. Started again, the loop finishes that training first.
TEST(Loop, StoppedInTrainingFinishesThatTrainingWhenRunAgain) {
  TempDir dir;
  std::atomic<bool> stop{false};
  const LoopReport stopped =
      run_loop(short_config(dir.str()), &stop, quiet(nullptr, [&](const std::string& checkpoint) {
                 if (step_of(checkpoint) == 5) stop = true;  // Ctrl-C after 5 of the 14 steps
               }));
  EXPECT_EQ(stopped.generations, 0);  // not counted
  EXPECT_EQ(rundir::read_current(dir.str() + "/models"), dir.str() + "/models/model-00000005.pt");
  EXPECT_EQ(stopped.final_model, "");
  std::vector<std::string> lines;
  const LoopReport again = run_loop(short_config(dir.str()), nullptr, quiet(&lines));
  EXPECT_EQ(again.generations, 1);
  EXPECT_EQ(step_of(again.final_model), 14);                   // the 9 missing steps, then adopted
  EXPECT_EQ(selfplay::count_games(dir.str() + "/games"), 12);  // no games played again
  ASSERT_FALSE(lines.empty());
  EXPECT_NE(lines[0].find("generation 1: finishing its training"), std::string::npos) << lines[0];
  EXPECT_TRUE(rundir::read_generation_training(dir.str()).done);
}

// Ctrl-C in the final matches: the last line said only why the generations ended and how many
// games the match had played. The reason says the matches were stopped, a stopped match is not
// rated (the line of one cut short says "stopped after N of M games"), and the same command
// plays them again.
TEST(Loop, StoppedInTheFinalMatchesSaysSoAndPlaysThemWhenRunAgain) {
  TempDir dir;
  RunConfig config = short_config(dir.str());
  config.loop.final_eval_games = 2;
  config.loop.eval_simulations = 2;  // a fast match: the test is about its bookkeeping
  std::atomic<bool> stop{false};
  LoopHooks hooks = quiet();
  hooks.on_line = [&](const std::string& line) {
    if (line.starts_with("loop: final matches")) stop = true;
  };
  const LoopReport stopped = run_loop(config, &stop, hooks);
  EXPECT_EQ(stopped.generations, 1);
  EXPECT_EQ(stopped.stop_reason, "loop.generations (1) done; final matches stopped (interrupt)");
  EXPECT_FALSE(stopped.final_vs_anchor.has_value());  // stopped before it began
  EXPECT_EQ(lines_in(dir.str() + "/eval/ladder.jsonl"), 0u);

  const LoopReport again = run_loop(config, nullptr, quiet());
  EXPECT_EQ(again.generations, 0);
  EXPECT_EQ(again.stop_reason, "loop.generations (1) done");
  ASSERT_TRUE(again.final_vs_anchor.has_value());
  EXPECT_FALSE(again.final_vs_anchor->stopped);
  EXPECT_EQ(again.final_vs_anchor->games_played, 2);
  EXPECT_EQ(lines_in(dir.str() + "/eval/ladder.jsonl"), 1u);
}

// Ctrl-C in a network's rating matches: the network stayed unrated for good, since only a new
// adoption started ratings. Run again, the loop plays the missing matches first.
TEST(Loop, StoppedInARatingRatesThatNetworkWhenRunAgain) {
  TempDir dir;
  RunConfig config = short_config(dir.str());
  config.loop.rate_games = 2;
  config.loop.eval_simulations = 2;
  std::atomic<bool> stop{false};
  LoopHooks hooks = quiet();
  hooks.on_line = [&](const std::string& line) {
    if (line.starts_with("generation 1 |")) stop = true;  // adopted, its rating about to begin
  };
  const LoopReport stopped = run_loop(config, &stop, hooks);
  EXPECT_EQ(stopped.generations, 1);
  EXPECT_EQ(lines_in(dir.str() + "/eval/ladder.jsonl"), 0u);

  std::vector<std::string> lines;
  const LoopReport again = run_loop(config, nullptr, quiet(&lines));
  EXPECT_EQ(again.generations, 0);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0], "loop: rating model-00000014.pt first (its ratings are missing)");
  EXPECT_EQ(lines_in(dir.str() + "/eval/ladder.jsonl"), 1u);
  ASSERT_EQ(again.ladder.networks.size(), 1u);
  EXPECT_TRUE(again.ladder.anchored);
}

// A run resumed with another search fitted the new ratings together with those of the old search
// as one ladder (E21 resumed a run with the leaf search on). Each match now carries the conditions
// it was played under; a resumed run under others rates every network again, oldest first.
TEST(Loop, ResumedWithAnotherSearchRatesEveryNetworkAgain) {
  TempDir dir;
  RunConfig config = loop_config(dir.str());
  config.loop.final_eval_games = 0;
  config.loop.eval_simulations = 2;
  run_loop(config, nullptr, quiet());
  EXPECT_EQ(lines_in(dir.str() + "/eval/ladder.jsonl"), 3u);  // first vs anchor; second vs first, anchor

  config.search.leaf.quiescence = 1;
  config.search.dirichlet_weight = 0.5f;  // self-play only: not a condition of the ratings
  std::vector<std::string> lines;
  const LoopReport again = run_loop(config, nullptr, quiet(&lines));
  EXPECT_EQ(again.generations, 0);
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines[0],
            "loop: 3 rating matches on file were played under another search, visit count, anchor or suite: the "
            "ratings leave them out");
  EXPECT_EQ(lines[1], "loop: rating model-00000014.pt first (its ratings are missing)");
  EXPECT_EQ(lines_in(dir.str() + "/eval/ladder.jsonl"), 6u);
  ASSERT_EQ(again.ladder.networks.size(), 2u);
  EXPECT_EQ(again.ladder.games, 3 * config.loop.rate_games);

  config.search.dirichlet_weight = 0;
  run_loop(config, nullptr, quiet());
  EXPECT_EQ(lines_in(dir.str() + "/eval/ladder.jsonl"), 6u) << "rated under these conditions already";
  EXPECT_NE(rating_conditions(config), rating_conditions(loop_config(dir.str())));
}

// adopted.txt held a path relative to the working directory: a run continued from elsewhere
// found no such file and silently self-played with the bootstrap player. It is relative to the
// run now, and a checkpoint it names that is missing is an error.
TEST(Loop, RunContinuedFromAnotherDirectoryKeepsItsAdoptedNetwork) {
  TempDir dir;
  fs::create_directories(dir.file("work/deeper"));
  const fs::path old_cwd = fs::current_path();
  fs::current_path(dir.file("work"));
  RunConfig first = short_config("runs/r");  // a run directory relative to the working one
  run_loop(first, nullptr, quiet());
  EXPECT_EQ(sz::read_file("runs/r/models/adopted.txt"), "models/model-00000014.pt\n");
  fs::current_path(dir.file("work/deeper"));
  RunConfig second = short_config("../runs/r");
  second.loop.generations = 2;
  const LoopReport report = run_loop(second, nullptr, quiet());
  fs::current_path(old_cwd);
  EXPECT_EQ(report.generations, 1);
  // The second generation's games were played by the adopted network, not the bootstrap.
  std::set<std::string> models;
  for (const auto& path : data::list_shards(dir.file("work/runs/r/games")))
    for (const auto& g : data::ShardReader::open(path).read_games()) models.insert(g.model_id);
  EXPECT_EQ(models, (std::set<std::string>{"", "../runs/r/models/model-00000014.pt"}));

  const std::string run = dir.file("work/runs/r");
  // adopted.txt as older builds wrote it, relative to the working directory they ran in.
  write_file_atomically(run + "/models/adopted.txt", "runs/r/models/model-00000014.pt\n");
  EXPECT_EQ(rundir::read_adopted(run), run + "/models/model-00000014.pt");
  // A missing or damaged adopted checkpoint is an error naming adopted.txt, not the bootstrap.
  write_file_atomically(run + "/models/adopted.txt", "models/model-00000099.pt\n");
  EXPECT_THROW(
      {
        try {
          rundir::read_adopted(run);
        } catch (const Error& e) {
          EXPECT_NE(std::string(e.what()).find(run + "/models/adopted.txt: names 'models/model-00000099.pt'"),
                    std::string::npos)
              << e.what();
          throw;
        }
      },
      Error);
  std::ofstream(run + "/models/model-00000099.pt") << "not a checkpoint";
  EXPECT_THROW(rundir::read_adopted(run), Error);
  EXPECT_THROW(run_loop(short_config(run), nullptr, quiet()), Error);
}

// A shard damaged while the loop was stopped: the resumed loop moves it aside and goes on (the
// count of games, and with it the generation, comes from the readable shards).
TEST(Loop, ResumedLoopGoesOnWithoutADamagedShard) {
  TempDir dir;
  run_loop(short_config(dir.str()), nullptr, quiet());
  const auto shards = data::list_shards(dir.str() + "/games");
  ASSERT_EQ(shards.size(), 3u);  // 12 games, 4 a shard
  fs::resize_file(shards[2], fs::file_size(shards[2]) / 3);
  RunConfig more = short_config(dir.str());
  more.loop.generations = 2;
  const LoopReport report = run_loop(more, nullptr, quiet());
  EXPECT_GE(report.generations, 1);
  EXPECT_TRUE(fs::exists(dir.str() + "/games/damaged/" + fs::path(shards[2]).filename().string()));
  EXPECT_EQ(selfplay::count_games(dir.str() + "/games"), 12 + 8);
}

// configs/workstation.yaml, the one-GPU recipe, at a reduced scale on the CPU: every key it sets
// is read, and a loop of its settings runs end to end once sizes, device and network are cut.
TEST(Loop, TheWorkstationRecipeRunsAtAReducedScaleOnTheCpu) {
  TempDir run;
  const RunConfig c = load_run_config("workstation", {"dir=" + run.str(),
                                                      "net=tiny",
                                                      "inference.device=cpu",
                                                      "train.device=cpu",
                                                      "search.full_visits=8",
                                                      "search.cheap_visits=4",
                                                      "selfplay.threads=1",
                                                      "selfplay.games_per_thread=4",
                                                      "selfplay.max_plies=120",
                                                      "selfplay.games_per_shard=4",
                                                      "train.batch_size=32",
                                                      "train.min_positions=100",
                                                      "train.window_floor=1000",
                                                      "train.window_cap=100000",
                                                      "train.heldout_positions=500",
                                                      "train.checkpoint_every=5",
                                                      "loop.generations=2",
                                                      "loop.bootstrap_games=8",
                                                      "loop.bootstrap_train_steps=6",
                                                      "loop.games_per_generation=4",
                                                      "loop.train_steps_per_generation=4",
                                                      "loop.rate_games=2",
                                                      "loop.anchor=random",
                                                      "loop.final_eval_games=2",
                                                      "loop.eval_simulations=8",
                                                      "loop.eval_concurrency=2",
                                                      "inference.max_batch=64",
                                                      "tables.dir=" + run.str() + "/tables",
                                                      "tables.men=3"})
                          .take_or_throw();
  EXPECT_EQ(c.name, "workstation");
  EXPECT_EQ(c.train.lr_schedule, train::LrSchedule::Cosine);
  EXPECT_EQ(c.inference.precision, nn::Precision::Auto);
  const LoopReport report = run_loop(c, nullptr, quiet());
  EXPECT_EQ(report.generations, 2);
  EXPECT_FALSE(report.final_model.empty());
  EXPECT_TRUE(report.final_vs_first.has_value());
}

// A rerun of a finished loop plays no final match again: each is on record once (it was played
// and counted again on every rerun, and after a stop between the two).
TEST(Loop, FinalMatchesArePlayedAndCountedOnce) {
  TempDir dir;
  RunConfig config = short_config(dir.str());
  config.loop.final_eval_games = 2;
  config.loop.rate_games = 2;
  config.loop.eval_simulations = 2;
  const LoopReport first = run_loop(config, nullptr, quiet());
  ASSERT_TRUE(first.final_vs_anchor.has_value());
  const size_t matches = lines_in(dir.str() + "/eval/ladder.jsonl");
  std::vector<std::string> lines;
  const LoopReport again = run_loop(config, nullptr, quiet(&lines));
  EXPECT_EQ(lines_in(dir.str() + "/eval/ladder.jsonl"), matches);
  ASSERT_TRUE(again.final_vs_anchor.has_value());
  EXPECT_EQ(again.final_vs_anchor->pairings.front().score.games(), 2);
  EXPECT_EQ(again.final_vs_anchor->pairings.front().score.wins, first.final_vs_anchor->pairings.front().score.wins);
  EXPECT_EQ(again.ladder.games, first.ladder.games);
  EXPECT_TRUE(std::any_of(lines.begin(), lines.end(),
                          [](const std::string& l) { return l.find("played before") != std::string::npos; }));
}

// A loop killed between a file's write and its rename left "<file>.tmp<pid>" in the run for good
// (the soak found eval/final-vs-first.json.tmp<pid>). Started again, it deletes those of ended
// processes, wherever it and its trainer write; a live writer's stays.
TEST(Loop, ALoopStartedAgainDeletesTheTemporariesOfKilledWriters) {
  TempDir dir;
  const RunConfig config = short_config(dir.str());
  run_loop(config, nullptr, quiet());
  const pid_t child = fork();
  if (child == 0) _exit(0);
  waitpid(child, nullptr, 0);
  const std::string dead = ".tmp" + std::to_string(child), live = ".tmp" + std::to_string(getpid());
  const std::vector<std::string> stale = {"config.yaml" + dead, "eval/final-vs-first.json" + dead,
                                          "models/adopted.txt" + dead, "models/generation.txt" + dead,
                                          "plots/.gnuplot/loss.dat" + dead};
  for (const std::string& file : stale) {
    fs::create_directories(fs::path(dir.str() + "/" + file).parent_path());
    std::ofstream(dir.str() + "/" + file) << "half";
    ASSERT_TRUE(fs::exists(dir.str() + "/" + file)) << file;
  }
  std::ofstream(dir.str() + "/eval/ladder.json" + live) << "being written";
  run_loop(config, nullptr, quiet());
  for (const std::string& file : stale) EXPECT_FALSE(fs::exists(dir.str() + "/" + file)) << file;
  EXPECT_TRUE(fs::exists(dir.str() + "/eval/ladder.json" + live));
}

// The loop counted generations from the games on disk: stopped just after a generation's games
// were written (before its training), or joined by `selfplay --follow` workers' games, it skipped
// trainings. The generations done now come from models/generation.txt alone.
TEST(Loop, GamesOnDiskNeverSkipATraining) {
  TempDir dir;
  RunConfig config = short_config(dir.str());
  config.loop.generations = 2;
  // The bootstrap's 12 games are there (a loop killed right after writing them), no training yet.
  selfplay::SelfplayJob job;
  job.config = config.selfplay;
  job.start = games::new_game("sittuyin").take_or_throw("sittuyin");
  job.out_dir = dir.str() + "/games";
  job.games = 12;
  job.make_evaluator = [](int) { return std::make_unique<search::UniformEvaluator>(); };
  selfplay::run_selfplay(job);
  run_loop(short_config(dir.str()), nullptr, quiet());
  EXPECT_EQ(step_of(rundir::read_current(dir.str() + "/models")), 14);  // the bootstrap's training happened
  // A worker adds games enough for two more generations while the loop is down.
  job.worker_id = "follower";
  job.games = 12 + 2 * 8;
  selfplay::run_selfplay(job);
  config.loop.generations = 3;
  const LoopReport report = run_loop(config, nullptr, quiet());
  EXPECT_EQ(report.generations, 2);
  EXPECT_EQ(step_of(report.final_model), 14 + 2 * 10);  // both generations trained
}

// A second loop on a run refused because one works there leaves the run's config.yaml alone.
TEST(Loop, ARefusedSecondLoopChangesNothing) {
  TempDir dir;
  RunConfig config = short_config(dir.str());
  run_loop(config, nullptr, quiet());
  const std::string before = sz::read_file(dir.str() + "/config.yaml");
  train::Trainer holder(trainer_setup(config, dir.str()));  // "another trainer is working here"
  RunConfig other = config;
  other.seed = 7;
  other.net = "small";
  EXPECT_THROW(run_loop(other, nullptr, quiet()), Error);
  EXPECT_EQ(sz::read_file(dir.str() + "/config.yaml"), before);
}

// The loop's shards are named after the host, as those of a worker of that id: the loop holds the
// id while it plays, so such a worker and the loop cannot write the same file names.
TEST(Loop, TheLoopHoldsItsShardNamesAgainstAWorkerOfTheSameName) {
  TempDir dir;
  RunConfig config = short_config(dir.str());
  fs::create_directories(dir.str() + "/games");
  const selfplay::WorkerClaim worker =
      selfplay::claim_worker_id(dir.str() + "/games", selfplay::writer_base(config.selfplay, ""));
  try {
    run_loop(config, nullptr, quiet());
    FAIL() << "the loop played beside a worker of its shards' name";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(worker.id), std::string::npos) << e.what();
  }
}

// The endgame tables in the loop: built into tables.dir before the first generation (then kept),
// loaded, and a self-play game that reaches them ends with their result.
TEST(Loop, BuildsTheEndgameTablesAndSelfplayEndsGamesThatReachThem) {
  TempDir dir;
  RunConfig config = short_config(dir.str());
  config.tables = {dir.str() + "/tables", 3};
  config.selfplay.max_plies = 600;  // long enough for random games to trade down to three men
  std::vector<std::string> lines;
  run_loop(config, nullptr, quiet(&lines));
  const auto said = [&](const std::string& what) {
    return std::any_of(lines.begin(), lines.end(),
                       [&](const std::string& l) { return l.find(what) != std::string::npos; });
  };
  EXPECT_TRUE(said("loop: endgame tables of up to 3 men in " + dir.str() + "/tables: 4 built"));
  lines.clear();
  config.loop.generations = 1;
  run_loop(config, nullptr, quiet(&lines));
  EXPECT_TRUE(said("0 built, 4 kept"));
  int64_t tables = 0, games = 0;
  for (const std::string& shard : data::list_shards(dir.str() + "/games"))
    for (const auto& g : data::ShardReader::open(shard).read_games()) {
      ++games;
      if (g.end_reason != "tables") continue;
      ++tables;
      // The final position is in the tables: replayed, three men or fewer, no pawn.
      auto state = games::new_game(g.profile, g.start_fen).take_or_throw(g.start_fen);
      std::istringstream moves(g.moves);
      for (std::string m; moves >> m;) state->apply(state->parse_action(m).take_or_throw(m));
      const auto table = games::endgame_tables(g.profile, dir.str() + "/tables").take_or_throw("tables");
      const auto value = table->probe(*state);
      ASSERT_TRUE(value.has_value()) << state->to_string();
      const game::GameResult exact = game::table_outcome(*value, state->to_move()).result;
      EXPECT_EQ(int(g.result), exact == game::GameResult::FirstWins ? 1 : exact == game::GameResult::Draw ? 0 : -1);
    }
  EXPECT_EQ(games, 12);
  EXPECT_GT(tables, 0) << "no bootstrap game reached three men";
}

// loop.rate_every: generations 1, 1 + k, ... are rated; the others play no rating match.
TEST(Loop, RatesEveryKthGeneration) {
  TempDir dir;
  RunConfig config = loop_config(dir.str());
  config.loop.generations = 3;
  config.loop.rate_every = 2;
  config.loop.final_eval_games = 0;
  config.loop.eval_simulations = 2;
  const LoopReport report = run_loop(config, nullptr, quiet());
  EXPECT_EQ(report.generations, 3);
  // generation 1 against the anchor; generation 3 against generation 2 and the anchor.
  EXPECT_EQ(lines_in(dir.str() + "/eval/ladder.jsonl"), 3u);
  const Ladder ladder(dir.str(), "random", rating_conditions(config));
  const int64_t second = ladder.networks()[1].step;
  EXPECT_FALSE(ladder.played(second, kAnchorStep));
  EXPECT_TRUE(ladder.played(ladder.networks()[2].step, second));
  // Run again: generation 2 is not "missing" a rating.
  std::vector<std::string> lines;
  run_loop(config, nullptr, quiet(&lines));
  EXPECT_EQ(lines_in(dir.str() + "/eval/ladder.jsonl"), 3u);
}

}  // namespace
}  // namespace sz::run
