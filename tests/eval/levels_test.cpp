// Strength levels: which candidates a run yields, and how levels are picked from their ratings.
#include "eval/levels.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "eval/match_report.h"
#include "search/evaluator.h"

namespace sz::eval {
namespace {

TEST(Levels, CandidatesSpanRandomToTheNewestCheckpointAtFullVisits) {
  LevelsSpec spec;
  spec.checkpoints = {"m-1.pt", "m-2.pt"};
  spec.full_simulations = 64;
  const auto c = level_candidates(spec);
  ASSERT_GE(c.size(), 6u);
  EXPECT_TRUE(c.front().random);
  EXPECT_EQ(c.back().checkpoint, "m-2.pt");
  EXPECT_EQ(c.back().simulations, 64);
  bool oldest = false, uniform = false;
  for (const auto& s : c) {
    oldest |= s.checkpoint == "m-1.pt";
    uniform |= !s.random && s.checkpoint.empty();
  }
  EXPECT_TRUE(oldest);
  EXPECT_TRUE(uniform);
  EXPECT_THROW(level_candidates(LevelsSpec{}), Error);
}

TEST(Levels, PicksIncreasingRatingsSpreadFromWeakestToStrongest) {
  std::vector<LevelSetting> candidates;
  std::vector<Rating> ratings;
  for (double elo : {0.0, 400.0, 10.0, 205.0, 190.0, 390.0, 95.0, 300.0}) {
    candidates.push_back({"elo " + std::to_string(int(elo)), "", false, 1, 0});
    ratings.push_back({elo, elo - 20, elo + 20});
  }
  const auto levels = pick_levels(candidates, ratings, 5);
  ASSERT_EQ(levels.size(), 5u);
  const double expected[] = {0, 95, 205, 300, 400};  // nearest to 0, 100, 200, 300, 400
  for (size_t i = 0; i < levels.size(); ++i) {
    EXPECT_EQ(levels[i].level, int(i) + 1);
    EXPECT_DOUBLE_EQ(levels[i].rating.elo, expected[i]) << "level " << i + 1;
  }
  EXPECT_EQ(pick_levels(candidates, ratings, 20).size(), candidates.size());  // at most one per candidate
}

TEST(Levels, ManifestListsEveryLevelWithItsSettings) {
  LevelsResult result;
  result.candidates = {{"random", "", true, 0, 0}, {"newest, 64 visits", "runs/r/models/model-1.pt", false, 64, 0}};
  result.levels = {{1, result.candidates[0], {0, 0, 0}, {}}, {2, result.candidates[1], {250, 200, 300}, {}}};
  const std::string yaml = levels_manifest(result, "runs/r", "sittuyin");
  EXPECT_NE(yaml.find("level: 2"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("elo: 250.0"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("elo_lower: 200.0"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("checkpoint: \"runs/r/models/model-1.pt\""), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("player: random"), std::string::npos) << yaml;
  EXPECT_EQ(yaml.find("elo_over_anchor"), std::string::npos) << yaml;
}

// An anchor joins the round robin without becoming a level, and every level's Elo over it comes
// from the same games: its rating over the random mover, shifted by the anchor's.
TEST(Levels, AnAnchorIsRatedWithTheLevelsButIsNoLevel) {
  LevelsSpec spec;
  spec.checkpoints = {"m-1.pt"};
  spec.count = 3;
  spec.full_simulations = 8;
  spec.search.full_visits = spec.search.cheap_visits = 8;
  spec.load_model = [](const std::string&) -> search::EvaluatorFactory {
    return [](int) { return std::make_unique<search::UniformEvaluator>(); };
  };
  MctsPlayerOptions strong{spec.search, 32, 0, nullptr};
  spec.anchor = MatchPlayer{"anchor", mcts_player_factory(strong, spec.load_model(""))};
  spec.pgn_path = (std::filesystem::path(::testing::TempDir()) / "levels-anchor.pgn").string();
  std::vector<std::string> progress;
  spec.on_game = [&](const GameRecord& g, const MatchResult& m) { progress.push_back(format_game_line(g, m)); };
  const LevelsResult result = build_levels(spec);
  // A long round robin reports every game as it ends, and keeps every game in PGN.
  ASSERT_EQ(int(progress.size()), result.match.games_played);
  EXPECT_EQ(progress.back().rfind("game " + std::to_string(result.match.games_played) + "/", 0), 0u) << progress.back();
  std::ifstream pgn(spec.pgn_path);
  int results = 0;
  for (std::string line; std::getline(pgn, line);) results += line.starts_with("[Result ");
  EXPECT_EQ(results, result.match.games_played);
  EXPECT_EQ(result.anchor, "anchor");
  EXPECT_EQ(result.match.names.back(), "anchor");
  ASSERT_EQ(result.levels.size(), 3u);
  const double anchor_elo = result.match.ratings.back().elo;
  for (const Level& l : result.levels) {
    EXPECT_NE(l.setting.name, "anchor");
    EXPECT_NEAR(l.over_anchor.elo, l.rating.elo - anchor_elo, 25.0) << l.setting.name;
    EXPECT_LT(l.over_anchor.lower, l.over_anchor.elo);
  }
  EXPECT_NEAR(result.random_over_anchor.elo, -anchor_elo, 25.0);
  const std::string yaml = levels_manifest(result, "runs/r", "sittuyin");
  EXPECT_NE(yaml.find("anchor: \"anchor\""), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("elo_over_anchor: "), std::string::npos) << yaml;
}

}  // namespace
}  // namespace sz::eval
