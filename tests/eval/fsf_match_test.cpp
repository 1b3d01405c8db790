// Matches against Fairy-Stockfish (the reference engine, from npm, through
// ../shared/tools/fsf-uci): every move of either side must be accepted by the other. Ours are
// checked by the arena (an illegal move forfeits; our engine reports a rejected position). FSF
// silently stops at a move it rejects, so after each game FSF is asked (`d`) for the position
// after all the moves, and it must equal ours. Skipped where node, npm or the registry is missing.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "eval/arena.h"
#include "eval/fsf_engine.h"
#include "eval/player_spec.h"
#include "eval/start_suite.h"
#include "eval/uci_process.h"
#include "game_collector.h"
#include "games/registry.h"
#include "test_paths.h"

namespace sz::eval {
namespace {

// Fairy-Stockfish installed once per build tree (SZ_FSF_DIR; fsf_command locks against the
// parallel tests): the command that runs it, or "" with `why` set.
std::string fsf_command(std::string& why) {
  setenv("SZ_FSF_DIR", (std::string(SZ_TEST_WORK_DIR) + "/fsf-npm").c_str(), /*overwrite=*/1);
  auto command = eval::fsf_command();
  if (!command) return why = command.error(), "";
  return *command;
}

MatchPlayer fsf_player(const std::string& command) {
  UciPlayerOptions o;
  o.command = command;
  o.name = "fsf";
  o.depth = 1;
  return {"fsf", uci_player_factory(o)};
}

// The FEN with the hand's letters sorted: FSF orders the men in hand its own way.
std::string normalised(const std::string& fen) {
  const size_t open = fen.find('['), close = fen.find(']');
  if (open == std::string::npos || close == std::string::npos) return fen;
  std::string hand = fen.substr(open + 1, close - open - 1);
  std::sort(hand.begin(), hand.end());
  return fen.substr(0, open + 1) + hand + fen.substr(close);
}

// Asks FSF for the position after each game's moves; it must be ours.
void expect_fsf_agrees(const std::string& command, const std::string& profile, const std::vector<GameRecord>& games) {
  UciProcess fsf(command, "fsf");
  fsf.send("uci");
  fsf.wait_for("uciok", 60);
  fsf.send("setoption name UCI_Variant value " + profile);
  for (const GameRecord& g : games) {
    auto state = games::new_game(profile, g.start_fen).take_or_throw("start");
    std::string position = "position fen " + g.start_fen + (g.uci_moves.empty() ? "" : " moves");
    for (const std::string& m : g.uci_moves) {
      state->apply(*state->parse_action(m));
      position += " " + m;
    }
    fsf.send(position);
    fsf.send("d");
    const std::string fen = fsf.wait_for("Fen: ", 30).substr(5);
    EXPECT_EQ(normalised(fen), normalised(state->to_string()))
        << "FSF stopped at a move it rejected, or disagrees about the position; game " << g.index << ": " << position;
  }
}

void expect_clean(const MatchResult& m, const std::vector<GameRecord>& games) {
  EXPECT_EQ(m.games_played, 2);
  EXPECT_EQ(m.forfeits, 0);
  for (const GameRecord& g : games) {
    EXPECT_TRUE(g.error.empty()) << g.error;
    EXPECT_FALSE(g.uci_moves.empty());
  }
}

TEST(FsfMatch, OurEngineProcessAgainstFsfFromAPlacementStart) {
  std::string why;
  const std::string command = fsf_command(why);
  if (command.empty()) GTEST_SKIP() << why;
  MatchSpec spec;
  UciPlayerOptions ours;
  ours.command = sz::test::binary() + " uci";
  ours.name = "sittuyin-zero";
  ours.nodes = 16;
  spec.players = {{"sittuyin-zero", uci_player_factory(ours)}, fsf_player(command)};
  spec.starts = read_start_suite(sz::test::testdata("suites/starts-partial.epd"), "sittuyin", 1).take_or_throw("suite");
  spec.concurrency = 1;  // one FSF start-up (about 3 s under wasm) per match
  spec.max_plies = 400;
  test::GameCollector played;
  played.attach(spec);
  const MatchResult m = play_match(spec);
  expect_clean(m, played.games());
  expect_fsf_agrees(command, "sittuyin", played.games());
}

TEST(FsfMatch, UniformMctsAgainstFsfInShatranj) {
  std::string why;
  const std::string command = fsf_command(why);
  if (command.empty()) GTEST_SKIP() << why;
  MatchSpec spec;
  spec.profile = "shatranj";
  MctsPlayerOptions uniform;
  uniform.simulations = 16;
  spec.players = {
      {"uniform", mcts_player_factory(uniform, [](int) { return std::make_unique<search::UniformEvaluator>(); })},
      fsf_player(command)};
  spec.concurrency = 1;  // one FSF start-up (about 3 s under wasm) per match
  spec.max_plies = 400;
  test::GameCollector played;
  played.attach(spec);
  const MatchResult m = play_match(spec);
  expect_clean(m, played.games());
  expect_fsf_agrees(command, "shatranj", played.games());
}

// The fsf player spec finds the engine itself and plays at one node by default.
TEST(FsfMatch, FsfPlayerSpecPlaysAGame) {
  std::string why;
  if (fsf_command(why).empty()) GTEST_SKIP() << why;
  const PlayerSpec fsf = parse_player_spec("fsf:nodes=1,skill=3").take_or_throw("spec");
  const PlayerSpec uniform = parse_player_spec("uniform,sims=8").take_or_throw("spec");
  MatchSpec spec;
  spec.players = {make_match_player(uniform, {}, 8, nullptr), make_match_player(fsf, {}, 8, nullptr)};
  spec.starts = read_start_suite(sz::test::testdata("suites/starts-partial.epd"), "sittuyin", 1).take_or_throw("suite");
  spec.max_plies = 300;
  test::GameCollector played;
  played.attach(spec);
  const MatchResult m = play_match(spec);
  expect_clean(m, played.games());
  EXPECT_EQ(m.names[1], "fsf:nodes=1,skill=3");
}

}  // namespace
}  // namespace sz::eval
