// The training loop end to end on the tiny network: two generations of self-play and training
// in one run directory (the first with more games, played by the bootstrap), then the final
// match against the bootstrap player; run again, it picks up where it stopped.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "data/shard_files.h"
#include "selfplay/selfplay.h"
#include "train/loop.h"
#include "train_fixtures.h"

namespace sz::train {
namespace {

namespace fs = std::filesystem;

config::RunConfig loop_config(const std::string& dir) {
  config::RunConfig c = test::tiny_config();
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
  return c;
}

size_t lines_in(const std::string& path) {
  std::ifstream in(path);
  size_t n = 0;
  for (std::string line; std::getline(in, line);) n += !line.empty();
  return n;
}

TEST(Loop, TwoGenerationsLeaveShardsCheckpointsMetricsALadderAndFinalMatches) {
  test::TempDir dir;
  const config::RunConfig config = loop_config(dir.str());
  std::vector<std::string> lines;
  LoopHooks quiet{[&](const std::string& line) { lines.push_back(line); }};
  const LoopReport report = run_loop(config, nullptr, quiet);

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
  EXPECT_TRUE(std::any_of(lines.begin(), lines.end(), [](const std::string& l) { return l.find("rated model-") != std::string::npos; }));

  // Run again with one more generation: it continues from the directory, not from scratch, and
  // the ladder keeps the matches already played.
  config::RunConfig more = config;
  more.loop.generations = 3;
  more.loop.final_eval_games = 0;
  const LoopReport again = run_loop(more, nullptr, quiet);
  EXPECT_EQ(again.generations, 1);
  EXPECT_EQ(again.generations_total, 3);
  EXPECT_EQ(selfplay::count_games(dir.str() + "/games"), 12 + 8 + 8);
  EXPECT_EQ(lines_in(dir.str() + "/eval/ladder.jsonl"), 5u + 2u);
  EXPECT_EQ(again.ladder.networks.size(), 3u);
}

// A time limit that stops the run early says so.
TEST(Loop, ARunCutShortByTimeSaysWhy) {
  test::TempDir dir;
  config::RunConfig config = loop_config(dir.str());
  config.loop.max_minutes = 1e-6;  // before the first generation
  config.loop.rate_games = 0;
  config.loop.final_eval_games = 0;
  const LoopReport report = run_loop(config, nullptr, LoopHooks{[](const std::string&) {}});
  EXPECT_EQ(report.generations, 0);
  EXPECT_EQ(report.stop_reason, "loop.max_minutes (1e-06) reached after 0 of 2 generations");
}

}  // namespace
}  // namespace sz::train
