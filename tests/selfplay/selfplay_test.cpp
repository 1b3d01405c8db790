// Self-play end to end with the uniform bootstrap evaluator: deterministic games from a seed,
// shards that survive SIGKILL, and a resumed run that plays only the missing games.
#include "selfplay/selfplay.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "data/shard_files.h"
#include "data/shard_reader.h"
#include "games/registry.h"
#include "selfplay/game_slot.h"
#include "selfplay/selfplay_fixtures.h"

namespace sz::selfplay {
namespace {

namespace fs = std::filesystem;

TEST(Selfplay, SameSeedOneThreadWritesIdenticalGames) {
  const std::string a = fresh_dir("a"), b = fresh_dir("b");
  const auto stats = run_selfplay(small_job(a, 6));
  run_selfplay(small_job(b, 6));
  EXPECT_EQ(stats->games(), 6);
  const auto ga = all_games(a), gb = all_games(b);
  ASSERT_EQ(ga.size(), 6u);
  ASSERT_EQ(gb.size(), 6u);
  for (size_t i = 0; i < ga.size(); ++i) {
    EXPECT_EQ(ga[i].moves, gb[i].moves) << "game " << i;
    EXPECT_EQ(ga[i].result, gb[i].result) << "game " << i;
    EXPECT_EQ(ga[i].seed, gb[i].seed) << "game " << i;
  }
  // Every position carries the game's result from its mover's view, and a policy target.
  const auto positions = data::ShardReader::open(data::list_shards(a).front()).read_positions();
  ASSERT_GT(positions.size(), 0);
  for (int64_t i = 0; i < positions.size(); ++i) EXPECT_GT(positions.policy_count[size_t(i)], 0) << i;
}

// An imposed placement (selfplay --placement): every drop is the chooser's, recorded without a
// policy target; play goes on with the search.
TEST(Selfplay, AnImposedPlacementIsPlayedAndRecordedWithoutPolicyTargets) {
  const std::string dir = fresh_dir("placement");
  SelfplayJob job = small_job(dir, 3);
  job.config.max_plies = 30;
  int calls = 0;
  std::mutex mutex;
  job.placement = [&](const game::GameState& state, uint64_t) -> std::optional<game::ActionId> {
    std::lock_guard lock(mutex);
    ++calls;
    EXPECT_EQ(state.phase(), game::Phase::Placement);
    std::array<game::ActionId, game::kMaxActions> actions{};
    EXPECT_GT(state.legal_actions(actions), 0);
    return actions[0];  // the first legal drop
  };
  run_selfplay(job);
  EXPECT_EQ(calls, 3 * 16);
  const auto games = all_games(dir);
  ASSERT_EQ(games.size(), 3u);
  EXPECT_EQ(games[0].moves.substr(0, 40), games[1].moves.substr(0, 40));  // the same drops every game
  for (const auto& path : data::list_shards(dir)) {
    const auto positions = data::ShardReader::open(path).read_positions();
    for (int64_t i = 0; i < positions.size(); ++i) {
      const bool placing = positions.phase[size_t(i)] == uint8_t(game::Phase::Placement);
      EXPECT_EQ(positions.full_search[size_t(i)] == 0 && positions.policy_count[size_t(i)] == 0, placing) << i;
    }
  }
}

// The bootstrap player is a real uniform-prior search: its ties go to random edges, so neither
// colour is favoured. With ties to the first edge the first legal moves (king moves) were
// always searched first and Black won 1.7 times as often as White (issue 11).
TEST(Selfplay, UniformBootstrapGamesAreColourBalanced) {
  const std::string dir = fresh_dir("colours");
  SelfplayJob job = small_job(dir, 2000);
  job.config.threads = 2;
  job.config.games_per_shard = 500;
  run_selfplay(job);
  int white = 0, black = 0;
  for (const auto& g : all_games(dir)) {
    if (g.result > 0) ++white;
    if (g.result < 0) ++black;
  }
  const int decisive = white + black;
  ASSERT_GE(decisive, 100) << "too few decisive games to compare the colours";
  // Under no bias white ~ Binomial(decisive, 1/2): 3.5 standard deviations either way.
  EXPECT_LT(std::abs(white - black), 3.5 * std::sqrt(double(decisive))) << "White " << white << ", Black " << black;
}

int64_t repetition_endings(const std::string& dir) {
  int64_t n = 0;
  for (const auto& g : all_games(dir)) n += g.end_reason == "repetition";
  return n;
}

TEST(Selfplay, AvoidingRepetitionCutsRepetitionDraws) {
  // The uniform bootstrap shuffles its men into threefold repetitions; avoid_repetition plays
  // the most visited move that reaches a new position instead, when there is one.
  const std::string plain = fresh_dir("plain"), fresh = fresh_dir("fresh");
  run_selfplay(small_job(plain, 8));
  SelfplayJob job = small_job(fresh, 8);
  job.config.avoid_repetition = true;
  run_selfplay(job);
  EXPECT_GT(repetition_endings(plain), 0);
  EXPECT_LT(repetition_endings(fresh), repetition_endings(plain));
}

// A uniform prior and a value that says "draw" everywhere, as a network that knows nothing does.
class FlatEvaluator final : public search::Evaluator {
 public:
  void evaluate(std::span<const search::EvalQuery> queries, std::span<search::EvalReply> replies) override {
    search::UniformEvaluator().evaluate(queries, replies);
  }
};

int64_t endings(const std::string& dir, const std::string& reason) {
  int64_t n = 0;
  for (const auto& g : all_games(dir)) n += g.end_reason == reason;
  return n;
}

// Draw adjudication: once the move rules have run `progress` of their way and the root's value
// stayed flat for `plies` plies, a game with a valued player ends "adjudicated-draw"; control
// games play on and measure how often that would have been wrong; the bootstrap (no value) is
// never adjudicated.
TEST(Selfplay, NoProgressTailsAreAdjudicatedDrawsExceptInControlGames) {
  auto job_in = [](const std::string& dir, double control) {
    SelfplayJob job = small_job(dir, 8);
    job.config.adjudicate = {.draws = true, .progress = 0.1f, .value = 0.1f, .plies = 4, .control_fraction = control};
    job.make_evaluator = [](int) { return std::make_unique<FlatEvaluator>(); };
    return job;
  };
  const std::string cut = fresh_dir("adjudicated"), control = fresh_dir("control"), bootstrap = fresh_dir("boot");
  run_selfplay(job_in(cut, 0.0));
  const auto checked = run_selfplay(job_in(control, 1.0));
  SelfplayJob uniform = job_in(bootstrap, 0.0);
  uniform.make_evaluator = [](int) { return std::make_unique<search::UniformEvaluator>(); };
  run_selfplay(uniform);
  EXPECT_GT(endings(cut, "adjudicated-draw"), 0);
  for (const auto& g : all_games(cut)) {
    if (g.end_reason == "adjudicated-draw") {
      EXPECT_EQ(g.result, 0);
    }
  }
  EXPECT_EQ(endings(control, "adjudicated-draw"), 0);
  EXPECT_GE(checked->draw_false_positive_rate(), 0.0);  // would-be adjudications were counted
  EXPECT_NE(checked->progress_line().find("draw FP"), std::string::npos);
  EXPECT_EQ(endings(bootstrap, "adjudicated-draw"), 0);
  int64_t plies_cut = 0, plies_control = 0;
  for (const auto& g : all_games(cut)) plies_cut += g.num_positions;
  for (const auto& g : all_games(control)) plies_control += g.num_positions;
  EXPECT_LT(plies_cut, plies_control);  // the same games, cut short
}

// The report of how searches spread their visits (issue 43's tree reports): the means of what
// add_search was given, by kind, and a real run's searches of the play phase in it.
TEST(Selfplay, FullSearchesAreReportedByHowTheirVisitsSpread) {
  SelfplayStats stats;
  EXPECT_EQ(stats.search_line(), "");
  stats.add_search(true, {.moves = 30, .visited = 20, .targeted = 4, .visits = 60, .best = 30, .kept = 40, .line = 3},
                   0.10);
  stats.add_search(true, {.moves = 40, .visited = 30, .targeted = 6, .visits = 60, .best = 20, .kept = 20, .line = 5},
                   -0.02);
  stats.add_search(false, {.moves = 20, .visited = 12, .targeted = 12, .visits = 16, .best = 3, .kept = 16, .line = 2},
                   0.0);
  EXPECT_EQ(stats.search_line(),
            "full searches 2: 35.0 moves, 25.0 visited, best 25.0 of 60.0 visits, line 4.0 plies; the target keeps "
            "50% of the visits on 5.0 moves, its W - L +0.040 over the root's mean | cheap searches 1: 20.0 moves, "
            "12.0 visited, best 3.0 of 16.0 visits, line 2.0 plies");

  const auto played = run_selfplay(small_job(fresh_dir("spread"), 4));
  const std::string line = played->search_line();
  ASSERT_NE(line.find("full searches "), std::string::npos) << line;
  ASSERT_NE(line.find("cheap searches "), std::string::npos) << line;
}

// An evaluator with a prior (a network) plays its games with config.network_search, the
// bootstrap with config.search: here a network search of 2 visits evaluates far fewer positions
// a move than the bootstrap's 24.
TEST(Selfplay, ANetworksGamesSearchAsNetworkSearchSays) {
  auto job_in = [](const std::string& dir, bool network) {
    SelfplayJob job = small_job(dir, 4);
    job.config.network_search = job.config.search;
    job.config.network_search->full_visits = job.config.network_search->cheap_visits = 2;
    if (network) job.make_evaluator = [](int) { return std::make_unique<FlatEvaluator>(); };
    return job;
  };
  const std::string network = fresh_dir("network-search"), bootstrap = fresh_dir("bootstrap-search");
  const auto by_network = run_selfplay(job_in(network, true));
  const auto by_bootstrap = run_selfplay(job_in(bootstrap, false));
  auto evals_a_position = [](const SelfplayStats& s) { return double(s.evaluations()) / double(s.positions()); };
  EXPECT_LT(evals_a_position(*by_network), 3.0);
  EXPECT_GT(evals_a_position(*by_bootstrap), 6.0);
}

TEST(Selfplay, ResumedRunPlaysOnlyTheMissingGames) {
  const std::string dir = fresh_dir("resume");
  run_selfplay(small_job(dir, 3));
  EXPECT_EQ(count_games(dir), 3);
  const auto stats = run_selfplay(small_job(dir, 5));
  EXPECT_EQ(stats->games(), 2);
  EXPECT_EQ(count_games(dir), 5);
}

// The game indices of the games in `dir`, in no particular order (one per game, repeats kept).
std::vector<uint64_t> indices_on_disk(const std::string& dir, uint64_t run_seed) {
  std::vector<uint64_t> indices;
  for (const auto& g : all_games(dir)) indices.push_back(game_index_of(run_seed, g.seed));
  return indices;
}

// Every index in [0, n) exactly once.
void expect_each_index_once(const std::string& dir, uint64_t run_seed, uint64_t n) {
  std::vector<uint64_t> indices = indices_on_disk(dir, run_seed);
  std::sort(indices.begin(), indices.end());
  std::vector<uint64_t> want(n);
  for (uint64_t i = 0; i < n; ++i) want[i] = i;
  EXPECT_EQ(indices, want);
}

TEST(Selfplay, GameIndexIsRecoveredFromItsSeed) {
  for (const uint64_t run_seed : {uint64_t{0}, uint64_t{42}, ~uint64_t{0}, uint64_t{0x9E3779B97F4A7C15ull}})
    for (const int64_t index : {int64_t{0}, int64_t{1}, int64_t{7}, int64_t{123456789}, int64_t{1} << 40})
      EXPECT_EQ(game_index_of(run_seed, game_seed(run_seed, index)), uint64_t(index)) << run_seed << " " << index;
  EXPECT_NE(game_seed(42, 1), game_seed(43, 1));
}

// Games finish out of order (games_per_thread run at once, of different lengths), so a run
// killed at any moment leaves a set of indices with holes. Resuming from the count on disk
// replayed indices that were there and never played the holes: a game twice, another never.
TEST(Selfplay, ResumeFillsTheHolesAKilledRunLeft) {
  const std::string dir = fresh_dir("holes");
  SelfplayJob job = small_job(dir, 9);
  job.config.games_per_shard = 1;
  run_selfplay(job);
  std::set<uint64_t> removed;
  for (const auto& path : data::list_shards(dir)) {  // as if games 2 and 5 were still in flight
    const uint64_t index = game_index_of(42, data::ShardReader::open(path).read_seeds().at(0));
    if (index == 2 || index == 5) fs::remove(path), removed.insert(index);
  }
  ASSERT_EQ(removed, (std::set<uint64_t>{2, 5}));
  const auto stats = run_selfplay(job);
  EXPECT_EQ(stats->games(), 2);
  expect_each_index_once(dir, 42, 9);
  EXPECT_EQ(scan_games(dir, 42).duplicates, 0);
}

// A shard that cannot be read is moved aside with a warning; its games are played again.
TEST(Selfplay, DamagedShardIsMovedAsideAndItsGamesReplayed) {
  const std::string dir = fresh_dir("damaged");
  run_selfplay(small_job(dir, 9));  // three shards of three games
  const auto shards = data::list_shards(dir);
  ASSERT_EQ(shards.size(), 3u);
  fs::resize_file(shards[1], fs::file_size(shards[1]) / 2);
  std::vector<std::string> warnings;
  SelfplayJob job = small_job(dir, 9);
  job.on_warning = [&](const std::string& w) { warnings.push_back(w); };
  const auto stats = run_selfplay(job);
  ASSERT_EQ(warnings.size(), 1u);
  const std::string moved = dir + "/damaged/" + fs::path(shards[1]).filename().string();
  EXPECT_EQ(warnings[0].rfind("skipping shard " + shards[1] + ": ", 0), 0u) << warnings[0];
  EXPECT_NE(warnings[0].find("(moved to " + moved + "; the run goes on without it)"), std::string::npos) << warnings[0];
  EXPECT_TRUE(fs::exists(moved));
  EXPECT_EQ(stats->games(), 3);
  expect_each_index_once(dir, 42, 9);
}

TEST(Selfplay, SigkillLeavesEveryCompletedShardReadable) {
  const std::string dir = fresh_dir("kill");
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {  // the child plays on until killed: one game per shard
    SelfplayJob job = small_job(dir, 100000);
    job.config.games_per_shard = 1;
    run_selfplay(job);
    _exit(0);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (data::list_shards(dir).size() < 3 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  const auto shards = data::list_shards(dir);
  ASSERT_GE(shards.size(), 3u) << "self-play finished no shards in 60 s";
  for (const auto& path : shards) EXPECT_EQ(data::ShardReader::open(path).info().num_games, 1) << path;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.ends_with(".h5")) {
      EXPECT_NE(name[0], '.') << name;  // temporaries are hidden, never *.h5
    }
  }
  // Resumed, the directory holds every game index once: none twice, none missing.
  const int64_t target = count_games(dir) + 4;
  SelfplayJob job = small_job(dir, target);
  job.config.games_per_shard = 1;
  run_selfplay(job);
  const auto indices = indices_on_disk(dir, 42);
  EXPECT_EQ(std::set<uint64_t>(indices.begin(), indices.end()).size(), indices.size()) << "a game was played twice";
  expect_each_index_once(dir, 42, uint64_t(target));
}

}  // namespace
}  // namespace sz::selfplay
