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
#include "eval/start_suite.h"
#include "eval/uci_process.h"
#include "game/registry.h"
#include "game_collector.h"
#include "test_paths.h"

namespace sz::eval {
namespace {

// Installs the npm package once per build tree (under a lock: ctest runs tests in parallel) and
// returns the command that runs FSF, or "" with `why` set.
std::string fsf_command(std::string& why) {
  const std::string dir = std::string(SZ_TEST_WORK_DIR) + "/fsf-npm";
  std::filesystem::create_directories(dir);
  const std::string script = sz::test::shared_dir() + "/tools/fsf-uci/fsf-uci.js";
  if (!std::filesystem::exists(script)) return why = "no " + script, "";
  if (std::system("command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1") != 0)
    return why = "node or npm is not installed", "";
  const int lock = open((dir + "/.lock").c_str(), O_CREAT | O_RDWR, 0644);
  if (lock >= 0) flock(lock, LOCK_EX);
  const std::string package = dir + "/node_modules/fairy-stockfish-nnue.wasm/stockfish.js";
  if (!std::filesystem::exists(package)) {
    const std::string install = "timeout 300 npm install --silent --no-audit --no-fund --prefix '" + dir +
                                "' fairy-stockfish-nnue.wasm@1.1.12 >'" + dir + "/npm.log' 2>&1";
    if (std::system(install.c_str()) != 0 || !std::filesystem::exists(package))
      why = "npm install fairy-stockfish-nnue.wasm@1.1.12 failed (registry unreachable?), see " + dir + "/npm.log";
  }
  if (lock >= 0) close(lock);
  if (!why.empty()) return "";
  return "NODE_PATH='" + dir + "/node_modules' node '" + script + "'";
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
    auto state = game::new_game(profile, g.start_fen).take_or_throw("start");
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
  spec.players = {{"uniform", mcts_player_factory(uniform, [](int) { return std::make_unique<search::UniformEvaluator>(); })},
                  fsf_player(command)};
  spec.concurrency = 1;  // one FSF start-up (about 3 s under wasm) per match
  spec.max_plies = 400;
  test::GameCollector played;
  played.attach(spec);
  const MatchResult m = play_match(spec);
  expect_clean(m, played.games());
  expect_fsf_agrees(command, "shatranj", played.games());
}

}  // namespace
}  // namespace sz::eval
