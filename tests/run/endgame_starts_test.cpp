// The endgame curriculum's starts: positions shortly before the end of the run's own decisive
// games, of the generations before the one that will play them.
#include "run/endgame_starts.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "core/split.h"
#include "data/records.h"
#include "games/registry.h"
#include "selfplay/selfplay.h"
#include "selfplay/selfplay_fixtures.h"
#include "train/train_fixtures.h"

namespace sz::run {
namespace {

// The FENs of the last `plies` play-phase positions of `game` before its end.
std::set<std::string> last_positions(const data::GameInfo& game, int plies) {
  auto state = games::new_game(game.profile, game.start_fen).take_or_throw(game.start_fen);
  const auto moves = split_words(game.moves);
  std::set<std::string> fens;
  for (size_t ply = 0; ply < moves.size(); ++ply) {
    if (ply + size_t(plies) >= moves.size() && state->phase() == game::Phase::Play) fens.insert(state->to_string());
    state->apply(state->parse_action(moves[ply]).take_or_throw(std::string(moves[ply])));
  }
  return fens;
}

TEST(EndgameStarts, ArePositionsShortlyBeforeTheEndOfDecisiveGamesOfEarlierGenerations) {
  train::test::TempDir dir;
  // Uniform bootstrap games, as the loop's first generation plays them.
  selfplay::SelfplayJob job = selfplay::small_job(dir.str(), 40);
  job.config.seed = 5;
  job.generation = 1;
  selfplay::run_selfplay(job);
  const auto games = selfplay::all_games(dir.str());
  std::vector<data::GameInfo> decisive;
  std::copy_if(games.begin(), games.end(), std::back_inserter(decisive), [](const auto& g) { return g.result != 0; });
  ASSERT_GE(decisive.size(), 6u) << "too few decisive games to pick from";

  const EndgamePick pick = pick_endgame_starts(dir.str(), /*generation=*/2, /*max_plies=*/6, /*count=*/5, 11);
  EXPECT_EQ(pick.decisive_games, int64_t(decisive.size()));
  ASSERT_EQ(pick.starts.size(), 5u);
  std::set<std::string> near_ends;
  for (const auto& g : decisive) near_ends.merge(last_positions(g, 6));
  for (const std::string& fen : pick.starts) {
    EXPECT_TRUE(near_ends.count(fen)) << fen << " is not 1-6 plies before the end of a decisive game";
    const auto state = games::new_game("sittuyin", fen).take_or_throw(fen);
    EXPECT_EQ(state->phase(), game::Phase::Play);
    EXPECT_FALSE(state->outcome().over());
  }
  EXPECT_EQ(pick_endgame_starts(dir.str(), 2, 6, 5, 11).starts, pick.starts);  // the seed decides
  EXPECT_NE(pick_endgame_starts(dir.str(), 2, 6, 5, 12).starts, pick.starts);
  // The generation that wrote the games does not pick from itself.
  const EndgamePick own = pick_endgame_starts(dir.str(), /*generation=*/1, 6, 5, 11);
  EXPECT_EQ(own.decisive_games, 0);
  EXPECT_TRUE(own.starts.empty());
}

TEST(EndgameStarts, MoveBackGenerationByGeneration) {
  EXPECT_EQ(endgame_max_plies(2, 8, 8), 8);  // the second generation: the first network's games
  EXPECT_EQ(endgame_max_plies(3, 8, 8), 16);
  EXPECT_EQ(endgame_max_plies(6, 8, 4), 24);
  EXPECT_EQ(endgame_max_plies(5, 10, 0), 10);
}

}  // namespace
}  // namespace sz::run
