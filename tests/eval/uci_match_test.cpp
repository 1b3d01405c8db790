// The built program as other tools see it: an arena match between two `sittuyin-zero uci`
// processes, garbage on the engine's standard input, and the `arena` command line.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/rng.h"
#include "eval/arena.h"
#include "eval/start_suite.h"
#include "eval/uci_process.h"
#include "game_collector.h"
#include "games/registry.h"
#include "pgn_reader.h"
#include "shell_helpers.h"
#include "test_paths.h"

namespace sz::eval {
namespace {

std::string temp_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("sz-uci-match-" + name + "-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  return dir.string();
}

MatchPlayer engine(const std::string& name, const std::vector<std::pair<std::string, std::string>>& options) {
  UciPlayerOptions o;
  o.command = sz::test::binary() + " uci";
  o.name = name;
  o.options = options;
  o.nodes = 24;
  o.start_timeout_s = o.move_timeout_s = 30;
  return {name, uci_player_factory(o)};
}

TEST(UciMatch, TwoEngineProcessesPlayAMatchWithValidPgn) {
  const std::string dir = temp_dir("pgn");
  MatchSpec spec;
  spec.players = {engine("sz-a", {}), engine("sz-b", {{"Strength", "9"}})};
  spec.starts = read_start_suite(sz::test::testdata("suites/starts-partial.epd"), "sittuyin", 1).take_or_throw("suite");
  spec.concurrency = 2;
  spec.max_plies = 300;
  spec.pgn_path = dir + "/games.pgn";
  test::GameCollector played;
  played.attach(spec);
  const MatchResult m = play_match(spec);
  const std::vector<GameRecord>& records = played.games();
  EXPECT_EQ(m.games_played, 2);
  EXPECT_EQ(m.forfeits, 0);
  for (const auto& r : records) EXPECT_TRUE(r.error.empty()) << r.error;

  const auto games = test::read_pgn(spec.pgn_path);
  ASSERT_EQ(games.size(), 2u);
  for (const auto& g : games) {
    const GameRecord& rec = records[0].index + 1 == std::stoi(g.tags.at("Round")) ? records[0] : records[1];
    EXPECT_EQ(g.tags.at("Variant"), "sittuyin");
    EXPECT_EQ(g.tags.at("FEN"), spec.starts[0]);
    EXPECT_EQ(g.tags.at("SetUp"), "1");
    EXPECT_EQ(g.tags.at("Result"), g.result);
    const std::string expected = rec.result == game::GameResult::FirstWins    ? "1-0"
                                 : rec.result == game::GameResult::SecondWins ? "0-1"
                                                                              : "1/2-1/2";
    EXPECT_EQ(g.result, expected);
    ASSERT_EQ(g.sans.size(), rec.uci_moves.size());
    EXPECT_GT(g.sans.size(), 12u) << "the twelve men in hand are placed first";
    for (const auto& san : g.sans) EXPECT_FALSE(san.empty());
    EXPECT_EQ(g.sans[0].find('@'), 1u) << "a placement drop: " << g.sans[0];
  }
  std::filesystem::remove_all(dir);
}

TEST(UciMatch, EngineProcessSurvivesGarbage) {
  UciProcess p(sz::test::binary() + " uci", "garbage");
  Rng rng(7);
  for (int i = 0; i < 400; ++i) {
    std::string line;
    for (int k = int(rng.below(40)); k > 0; --k) {
      char c = char(rng.below(256));
      if (c == '\n') c = ' ';
      line += c;
    }
    if (i % 3 == 0) line = (i % 2 ? "position fen " : "go ") + line;
    if (line.find("quit") != std::string::npos) continue;
    p.send(line);
  }
  p.send("stop");
  p.send("isready");
  EXPECT_NO_THROW(p.wait_for("readyok", 30));
  p.send("position startpos moves R@a1");
  p.send("go nodes 10");
  EXPECT_NO_THROW(p.wait_for("bestmove", 30));
}

// Engines that crash or answer nonsense lose the game; a crashed one is restarted for the next.
TEST(UciMatch, BrokenEnginesForfeit) {
  const std::string loop = "while read l; do case \"$l\" in uci) echo uciok;; isready) echo readyok;; ";
  for (const auto& [go, message] :
       std::vector<std::pair<std::string, std::string>>{{"go*) exit 3;;", "exited"},
                                                        {"go*) echo bestmove a1a1;;", "illegal move 'a1a1'"},
                                                        {"go*) echo \"bestmove (none)\";;", "found no move"}}) {
    UciPlayerOptions o;
    o.command = "sh -c '" + loop + go + " esac; done'";
    o.name = "broken";
    o.start_timeout_s = o.move_timeout_s = 10;
    MatchSpec spec;
    spec.players = {{"broken", uci_player_factory(o)}, {"random", random_player_factory()}};
    test::GameCollector played;
    played.attach(spec);
    const MatchResult m = play_match(spec);
    const std::vector<GameRecord>& records = played.games();
    EXPECT_EQ(m.forfeits, 2) << go;
    EXPECT_EQ(m.pairings[0].score.losses, 2) << go;
    for (const auto& r : records) EXPECT_NE(r.error.find(message), std::string::npos) << go << ": " << r.error;
  }
}

using sz::test::CommandRun;
constexpr auto run = sz::test::run_shell;

TEST(UciMatch, CommandLines) {
  const std::string dir = temp_dir("cli");
  CommandRun r =
      run(sz::test::binary() + " arena --player uniform,sims=8 --player random --max-plies 200 --quiet --out " + dir);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("2 of 2 games played"), std::string::npos) << r.output;
  std::ifstream json(dir + "/results.json");
  const std::string text((std::istreambuf_iterator<char>(json)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("\"anchor\": \"random\""), std::string::npos) << text;
  EXPECT_EQ(test::read_pgn(dir + "/games.pgn").size(), 2u);

  r = run(sz::test::binary() + " arena --player uniform --player chess");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.output.find("unknown player kind 'chess'"), std::string::npos) << r.output;
  r = run(sz::test::binary() + " arena --player uniform --player random --sprt 5");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.output.find("--sprt"), std::string::npos) << r.output;

  // End of input lets a finite search finish, so a pipe gets its bestmove.
  r = run("printf 'uci\\nposition startpos moves R@a1\\ngo nodes 20\\n' | " + sz::test::binary() + " uci");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.output.find("uciok"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\nbestmove "), std::string::npos) << r.output;
  // The engine searches with the config's `play` settings: the quickstart's leaf search, which a
  // --set takes away again.
  EXPECT_NE(r.output.find("option name Leaf Quiescence type spin default 100 "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("option name Full Plies type spin default 3 "), std::string::npos) << r.output;
  r = run("printf 'uci\n' | " + sz::test::binary() + " uci --set play.leaf_quiescence=0");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.output.find("option name Leaf Quiescence type spin default 0 "), std::string::npos) << r.output;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace sz::eval
