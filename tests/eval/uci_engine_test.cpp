// The UCI engine driven in-process through an ostream: a scripted session checked line by line,
// malformed commands answered with a named error, and random garbage that must neither crash nor
// hang it.
#include "uci/uci_engine.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <filesystem>
#include <sstream>
#include <thread>

#include "core/rng.h"
#include "eval/player.h"
#include "games/registry.h"
#include "heuristics/heuristics.h"
#include "search/game_search.h"
#include "search/leaf_blend.h"

namespace sz::uci {
namespace {

// The rule profiles, as `sittuyin-zero uci` offers them.
UciGames registry_games() {
  return {"sittuyin-zero", games::profile_names(), games::new_game, {}, "", heuristics::of_game};
}

class Session {
 public:
  // The lines written since the last call (only while no search runs, or after wait()).
  std::vector<std::string> take() {
    engine.wait();
    const std::string all = out_.str();
    std::vector<std::string> lines;
    std::istringstream in(all.substr(read_));
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    read_ = all.size();
    return lines;
  }
  std::vector<std::string> send(const std::string& line) {
    engine.handle(line);
    return take();
  }

 private:
  std::ostringstream out_;
  size_t read_ = 0;

 public:
  UciEngine engine{out_, registry_games()};
};

bool starts_with(const std::string& s, std::string_view prefix) { return s.rfind(prefix, 0) == 0; }

std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// The value after `key` in an info line.
std::string field(const std::string& line, const std::string& key) {
  const auto w = words(line);
  for (size_t i = 0; i + 1 < w.size(); ++i)
    if (w[i] == key) return w[i + 1];
  return {};
}

// The FEN that `d` reports.
std::string shown_fen(Session& s) {
  const auto lines = s.send("d");
  const std::string marker = " fen ";
  for (const auto& l : lines)
    if (starts_with(l, "info string variant")) return l.substr(l.find(marker) + marker.size());
  return {};
}

// Checks a finished search's output: info lines, then `bestmove M` with M legal in `position`.
void expect_search_output(const std::vector<std::string>& lines, const game::GameState& position, int nodes) {
  ASSERT_GE(lines.size(), 2u);
  const std::string& info = lines[lines.size() - 2];
  const std::string& best = lines.back();
  ASSERT_TRUE(starts_with(info, "info depth ")) << info;
  ASSERT_TRUE(starts_with(best, "bestmove ")) << best;
  for (const char* key : {"depth", "seldepth", "time", "nodes", "nps", "cp", "wdl", "pv"})
    EXPECT_FALSE(field(info, key).empty()) << key << " missing in: " << info;
  if (nodes > 0) {
    EXPECT_EQ(field(info, "nodes"), std::to_string(nodes)) << info;
  }
  const auto w = words(info);
  const auto wdl = std::find(w.begin(), w.end(), "wdl");
  ASSERT_LT(wdl + 3, w.end());
  EXPECT_EQ(std::stoi(wdl[1]) + std::stoi(wdl[2]) + std::stoi(wdl[3]), 1000) << info;
  const std::string move = words(best)[1];
  EXPECT_TRUE(position.parse_action(move).ok()) << move << " in " << position.to_string();
  EXPECT_EQ(field(info, "pv"), move) << "at full strength the most visited move is played: " << info;
}

std::unique_ptr<game::GameState> replay(const std::string& profile, const std::string& fen,
                                        const std::vector<std::string>& moves) {
  auto state = games::new_game(profile, fen).take_or_throw("test");
  for (const auto& m : moves) state->apply(*state->parse_action(m));
  return state;
}

TEST(UciEngine, ScriptedSession) {
  Session s;
  auto lines = s.send("uci");
  ASSERT_GE(lines.size(), 4u);
  EXPECT_EQ(lines[0], "id name sittuyin-zero");
  EXPECT_TRUE(starts_with(lines[1], "id author "));
  EXPECT_EQ(lines.back(), "uciok");
  const std::string variant = lines[2];
  EXPECT_TRUE(starts_with(variant, "option name UCI_Variant type combo default sittuyin")) << variant;
  for (const auto& p : games::profile_names()) EXPECT_NE(variant.find(" var " + p), std::string::npos) << p;
  for (const char* o :
       {"Model type string", "Simulations type spin", "Threads type spin", "Strength type spin",
        "Contempt type spin default 0 min -100 max 100", "Leaf Quiescence type spin default 0 min 0 max 100",
        "King Hunt type spin default 0 min 0 max 1000", "Win Search type spin default 0 min 0 max 4",
        "Full Plies type spin default 0 min 0 max 3", "Quiescence Plies type spin default 8 min 0 max 64"}) {
    EXPECT_TRUE(std::any_of(lines.begin(), lines.end(), [&](const auto& l) { return l.find(o) != std::string::npos; }))
        << o;
  }
  EXPECT_EQ(s.send("isready"), std::vector<std::string>{"readyok"});

  lines = s.send("setoption name UCI_Variant value shatranj");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "info string variant shatranj startpos rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1");
  EXPECT_EQ(s.send("setoption name UCI_Variant value sittuyin").size(), 1u);
  EXPECT_TRUE(s.send("setoption name Simulations value 64").empty());
  EXPECT_TRUE(s.send("setoption name Contempt value 30").empty());
  EXPECT_TRUE(s.send("setoption name Leaf Quiescence value 100").empty());
  EXPECT_TRUE(s.send("setoption name Win Search value 2").empty());
  EXPECT_TRUE(s.send("setoption name Full Plies value 1").empty());
  EXPECT_TRUE(s.send("setoption name King Hunt value 100").empty());
  EXPECT_TRUE(s.send("setoption name quiescence plies value 6").empty());
  EXPECT_TRUE(s.send("ucinewgame").empty());
  EXPECT_TRUE(s.send("isready") == std::vector<std::string>{"readyok"});

  // Drops, from the start position.
  EXPECT_TRUE(s.send("position startpos moves R@a1 R@h8").empty());
  expect_search_output(s.send("go nodes 50"), *replay("sittuyin", "", {"R@a1", "R@h8"}), 50);
  // The tree is kept when the next position extends the searched one; `nodes` counts new visits.
  EXPECT_TRUE(s.send("position startpos moves R@a1 R@h8 R@b1 R@g8").empty());
  expect_search_output(s.send("go nodes 40"), *replay("sittuyin", "", {"R@a1", "R@h8", "R@b1", "R@g8"}), 40);

  // A FEN with the hand in brackets, and a sittuyin promotion in place.
  const std::string fen = "4k3/8/8/3P4/8/8/P7/4K3[] w - - 0 1";
  EXPECT_TRUE(s.send("position fen " + fen + " moves d5d5f e8d7").empty());
  EXPECT_EQ(shown_fen(s), replay("sittuyin", fen, {"d5d5f", "e8d7"})->to_string());
  lines = s.send("go nodes 30");
  expect_search_output(lines, *replay("sittuyin", fen, {"d5d5f", "e8d7"}), 30);

  // A plain go uses the Simulations option.
  EXPECT_TRUE(s.send("position startpos").empty());
  expect_search_output(s.send("go"), *replay("sittuyin", "", {}), 64);

  // Shatranj, with a promotion to fers.
  EXPECT_EQ(s.send("setoption name UCI_Variant value shatranj").size(), 1u);
  const std::string shatranj_fen = "4k3/1P6/8/8/8/p7/8/4K3 w - - 0 1";
  EXPECT_TRUE(s.send("position fen " + shatranj_fen + " moves b7b8q e8d7").empty());
  EXPECT_EQ(shown_fen(s), replay("shatranj", shatranj_fen, {"b7b8q", "e8d7"})->to_string());

  // go infinite: isready is answered during the search, bestmove comes only after stop.
  s.engine.handle("position startpos moves e2e3");
  s.engine.handle("go infinite");
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_TRUE(s.engine.searching());
  s.engine.handle("isready");
  s.engine.handle("stop");
  lines = s.take();
  ASSERT_FALSE(lines.empty());
  EXPECT_TRUE(std::find(lines.begin(), lines.end(), "readyok") != lines.end());
  EXPECT_TRUE(starts_with(lines.back(), "bestmove ")) << lines.back();
  EXPECT_FALSE(s.engine.searching());

  EXPECT_FALSE(s.engine.handle("quit"));
}

TEST(UciEngine, TimedSearchesEndInTime) {
  Session s;
  s.send("position startpos");
  const auto t0 = std::chrono::steady_clock::now();
  auto lines = s.send("go movetime 200");
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_TRUE(starts_with(lines.back(), "bestmove "));
  EXPECT_LT(ms, 1000);
  EXPECT_GT(ms, 100);
  lines = s.send("go wtime 3000 btime 3000 winc 0 binc 0");
  EXPECT_TRUE(starts_with(lines.back(), "bestmove "));
  // stop right after go still answers a legal move (the root gets expanded first).
  s.engine.handle("go infinite");
  s.engine.handle("stop");
  lines = s.take();
  EXPECT_TRUE(starts_with(lines.back(), "bestmove ")) << lines.back();
}

// Every malformed command gets exactly one `info string error:` naming the bad part, and leaves
// the engine answering.
TEST(UciEngine, MalformedCommandsAreNamedErrors) {
  Session s;
  s.send("position startpos moves R@a1");
  const std::string before = shown_fen(s);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"xyzzy", "unknown command 'xyzzy'"},
      {"position", "expected 'startpos' or 'fen'"},
      {"position fen", "'fen' needs a FEN"},
      {"position startpos junk", "unexpected 'junk'"},
      {"position fen 8/8/8/8/8/8/8/8[Q] w - - 0 1", "bad FEN"},
      {"position fen not-a-fen", "bad FEN"},
      {"setoption", "expected 'name'"},
      {"setoption name", "name is missing"},
      {"setoption name Simulations value lots", "option 'Simulations' wants a whole number"},
      {"setoption name Simulations value 0", "option 'Simulations' wants a whole number in 1.."},
      {"setoption name Strength value 11", "option 'Strength'"},
      {"setoption name Contempt value 101", "option 'Contempt'"},
      {"setoption name Leaf Quiescence value -1", "option 'Leaf Quiescence'"},
      {"setoption name Win Search value 5", "option 'Win Search'"},
      {"setoption name Full Plies value 4", "option 'Full Plies'"},
      {"setoption name King Hunt value 1001", "option 'King Hunt' wants a whole number in 0..1000"},
      {"setoption name Quiescence Plies value 65", "option 'Quiescence Plies'"},
      {"setoption name NoSuchOption value 1", "unknown option 'NoSuchOption'"},
      {"setoption name UCI_Variant value chess", "option 'UCI_Variant': chess"},
      {"setoption name Model value /no/such/model.pt", "option 'Model'"},
      {"go nodes", "'nodes' needs a value"},
      {"go nodes -5", "go nodes wants a whole number"},
      {"go nodes 10 sideways", "unknown token 'sideways'"},
      {"go ponder", "'ponder' is not supported"},
      {"go wtime -100", "go wtime wants a whole number in 0.."},
      {"go btime 5000 binc -1", "go binc wants a whole number in 0.."},
      {"go movetime \x01\xff", "go movetime wants a whole number in 0..1099511627776, not '\\x01\\xFF'"},
  };
  for (const auto& [command, message] : cases) {
    const auto lines = s.send(command);
    ASSERT_EQ(lines.size(), 1u) << command;
    EXPECT_TRUE(starts_with(lines[0], "info string error: ")) << command << " -> " << lines[0];
    EXPECT_NE(lines[0].find(message), std::string::npos) << command << " -> " << lines[0];
  }
  EXPECT_EQ(shown_fen(s), before) << "a rejected position command changes nothing";

  // An illegal move: named, and the moves before it stay (as Fairy-Stockfish does).
  auto lines = s.send("position startpos moves R@a1 R@h8 R@a1 R@g8");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("move 3 'R@a1' is not legal"), std::string::npos) << lines[0];
  EXPECT_EQ(shown_fen(s), replay("sittuyin", "", {"R@a1", "R@h8"})->to_string());
  lines = s.send("position startpos moves e2e4");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("'e2e4' is not legal"), std::string::npos) << lines[0];
  // After a refused position `go` searches nothing stale: the reason, and bestmove 0000.
  lines = s.send("go nodes 5");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[0].find("the last 'position' was refused"), std::string::npos) << lines[0];
  EXPECT_EQ(lines[1], "bestmove 0000");
  s.send("position fen 8/8/8/8/8/8/8/8[Q] w - - 0 1");
  EXPECT_EQ(s.send("go nodes 5").back(), "bestmove 0000");
  // The empty pocket as cutechess-cli writes it, `[-]`, is a position like any other.
  EXPECT_TRUE(s.send("position fen 4k3/8/8/3n4/8/8/8/3RK3[-] b - 32 0 1").empty());
  lines = s.send("go nodes 5");
  EXPECT_TRUE(starts_with(lines.back(), "bestmove ") && lines.back() != "bestmove 0000") << lines.back();

  // Commands UCI forbids during a search.
  s.engine.handle("go infinite");
  for (const char* busy : {"go nodes 5", "position startpos", "setoption name Simulations value 5", "ucinewgame"}) {
    s.engine.handle(busy);
  }
  s.engine.handle("stop");
  lines = s.take();
  EXPECT_EQ(std::count_if(lines.begin(), lines.end(),
                          [](const auto& l) { return l.find("while searching") != std::string::npos; }),
            4);
  EXPECT_TRUE(starts_with(lines.back(), "bestmove "));
  EXPECT_EQ(s.send("isready"), std::vector<std::string>{"readyok"});
}

// No legal move: FSF's `bestmove (none)`. A game the rules have ended that still has moves (a
// claimable draw, applied automatically): a legal move all the same.
TEST(UciEngine, EndedPositionsStillGetAnAnswer) {
  Session s;
  s.send("setoption name UCI_Variant value shatranj");
  s.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");  // black is stalemated (a loss in shatranj)
  auto lines = s.send("go nodes 10");
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back(), "bestmove (none)");
  const std::string drawn = "4k3/8/8/8/8/8/p7/R3K3 w - - 140 100";  // the 70-move rule
  s.send("position fen " + drawn);
  lines = s.send("go nodes 10");
  ASSERT_FALSE(lines.empty());
  ASSERT_TRUE(starts_with(lines.back(), "bestmove "));
  EXPECT_TRUE(replay("shatranj", drawn, {})->parse_action(words(lines.back())[1]).ok()) << lines.back();
}

std::string random_line(Rng& rng) {
  static const std::vector<std::string> kWords = {"uci",
                                                  "isready",
                                                  "ucinewgame",
                                                  "position",
                                                  "startpos",
                                                  "fen",
                                                  "moves",
                                                  "go",
                                                  "nodes",
                                                  "movetime",
                                                  "wtime",
                                                  "btime",
                                                  "winc",
                                                  "binc",
                                                  "movestogo",
                                                  "depth",
                                                  "infinite",
                                                  "stop",
                                                  "setoption",
                                                  "name",
                                                  "value",
                                                  "UCI_Variant",
                                                  "sittuyin",
                                                  "shatranj",
                                                  "Simulations",
                                                  "Strength",
                                                  "Hash",
                                                  "Threads",
                                                  "Model",
                                                  "d",
                                                  "R@a1",
                                                  "R@h8",
                                                  "e2e3",
                                                  "d5d5f",
                                                  "b7b8q",
                                                  "K@e2",
                                                  "0",
                                                  "1",
                                                  "5",
                                                  "30",
                                                  "-3",
                                                  "99999999999999999999",
                                                  "abc",
                                                  "[]",
                                                  "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KSSFRRNNkssfrrnn]",
                                                  "w",
                                                  "b",
                                                  "-",
                                                  "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR"};
  static const std::vector<std::string> kCommands = {"go",      "position",   "setoption", "stop",
                                                     "isready", "ucinewgame", "d"};
  // Mostly a real command with garbage arguments, sometimes garbage from the start.
  std::string line = rng.below(3) ? kCommands[rng.below(uint32_t(kCommands.size()))] + " " : "";
  const int n = int(rng.below(8));
  for (int i = 0; i < n; ++i) {
    if (rng.below(5) == 0) {
      for (int k = int(rng.below(12)); k > 0; --k) line += char(rng.below(256));  // raw bytes, NUL included
    } else {
      line += kWords[rng.below(uint32_t(kWords.size()))];
    }
    line += rng.below(6) == 0 ? "\t" : " ";
  }
  return line;
}

TEST(UciEngine, GarbageNeitherCrashesNorHangs) {
  Session s;
  Rng rng(20240601);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  int sent = 0, searches = 0;
  for (; sent < 3000 && std::chrono::steady_clock::now() < deadline; ++sent) {
    std::string line = random_line(rng);
    // Keep the searches short: no budget beyond a few hundred visits.
    if (line.find("Simulations") != std::string::npos || line.find("Hash") != std::string::npos) continue;
    if (line.find("go") != std::string::npos && line.find("infinite") == std::string::npos) line += " nodes 20";
    if (!s.engine.handle(line)) break;
    if (!s.engine.searching()) {
      for (const auto& l : s.take()) searches += starts_with(l, "bestmove");
    }
  }
  s.engine.handle("stop");
  EXPECT_GT(searches, 20) << "the garbage should also start some searches";
  EXPECT_EQ(s.send("isready").back(), "readyok") << "after " << sent << " lines";

  // The same through run(): half commands and bytes up to the end of the input.
  std::ostringstream out;
  std::stringstream in;
  for (int i = 0; i < 500; ++i) in << random_line(rng) << (i % 7 ? "\n" : "\r\n");
  in << "stop\nisready\n";
  UciEngine engine(out, registry_games());
  engine.run(in);
  EXPECT_NE(out.str().find("readyok"), std::string::npos);
}

TEST(UciEngine, StrengthTimeAndScoreMappings) {
  EXPECT_EQ(strength_setting(kMaxStrength, 800).simulations, 800);
  EXPECT_EQ(strength_setting(kMaxStrength, 800).temperature, 0.0f);
  EXPECT_EQ(strength_setting(9, 800).simulations, 400);
  EXPECT_NEAR(strength_setting(9, 800).temperature, 0.1f, 1e-6);
  EXPECT_EQ(strength_setting(0, 800).simulations, 1);
  EXPECT_NEAR(strength_setting(0, 800).temperature, 1.0f, 1e-6);

  EXPECT_EQ(q_to_centipawns(0), 0);
  EXPECT_EQ(q_to_centipawns(0.5f), -q_to_centipawns(-0.5f));
  EXPECT_NEAR(q_to_centipawns(0.5f), 285, 2);
  EXPECT_GT(q_to_centipawns(1.0f), 10000);
  EXPECT_LT(q_to_centipawns(1.0f), 20000);

  EXPECT_EQ(allot_time_ms(60000, 0, 0, 30), 2000 - 30);
  EXPECT_EQ(allot_time_ms(60000, 1000, 0, 0), 2750);
  EXPECT_EQ(allot_time_ms(10000, 0, 1, 0), 9000);
  EXPECT_EQ(allot_time_ms(10, 0, 0, 30), 1);

  const std::vector<std::string> go = {"wtime", "0", "btime", "5000", "winc", "100", "binc", "100", "movestogo", "7"};
  const auto limits = parse_go(go);
  ASSERT_TRUE(limits.ok()) << limits.error();
  EXPECT_EQ(limits->time_ms[0], 0);
  EXPECT_EQ(limits->time_ms[1], 5000);
  EXPECT_EQ(limits->movestogo, 7);
  // A negative clock is an error, not silently 0.
  const auto negative = parse_go(std::vector<std::string>{"wtime", "-20", "btime", "5000"});
  ASSERT_FALSE(negative.ok());
  EXPECT_NE(negative.error().find("go wtime wants a whole number in 0.."), std::string::npos) << negative.error();
}

// What nn/ throws for a network whose output is NaN or infinite (net_runner.cpp).
class FailingEvaluator final : public search::Evaluator {
 public:
  void evaluate(std::span<const search::EvalQuery>, std::span<search::EvalReply>) override {
    throw Error("broken.pt: the network's output holds NaN or infinity");
  }
};

// A failing network ends the search with its error and `bestmove (none)`, not the process; the
// engine keeps answering, and searches again once a usable model is set.
TEST(UciEngine, AFailingNetworkIsAnErrorNotACrash) {
  std::ostringstream out;
  UciEngine engine(out, registry_games(),
                   [](const std::string&, int, const game::GameSpec&) { return std::make_unique<FailingEvaluator>(); });
  engine.handle("setoption name Model value broken.pt");
  engine.handle("go nodes 20");
  engine.wait();
  std::vector<std::string> lines;
  {
    std::istringstream in(out.str());
    for (std::string line; std::getline(in, line);) lines.push_back(line);
  }
  ASSERT_EQ(lines.size(), 2u) << out.str();
  EXPECT_EQ(lines[0], "info string error: go: broken.pt: the network's output holds NaN or infinity");
  EXPECT_EQ(lines[1], "bestmove (none)");
  engine.handle("setoption name Model value <empty>");
  engine.handle("go nodes 20");
  engine.wait();
  const std::string all = out.str();
  const std::string last = all.substr(all.rfind("bestmove"));
  EXPECT_TRUE(starts_with(last, "bestmove ") && last != "bestmove (none)\n") << all;
}

// A network reads one game's encoding: the Model is loaded for the variant's game, and loaded
// again when UCI_Variant switches to another game (not for another profile of the same game).
TEST(UciEngine, TheModelIsLoadedForTheVariantsGame) {
  std::ostringstream out;
  std::vector<std::string> loaded;
  UciEngine engine(out, registry_games(), [&](const std::string&, int, const game::GameSpec& spec) {
    loaded.push_back(spec.game);
    return std::make_unique<search::UniformEvaluator>();
  });
  engine.handle("setoption name Model value net.pt");
  engine.handle("setoption name UCI_Variant value sittuyin-plyyard");
  EXPECT_EQ(loaded, std::vector<std::string>{"sittuyin"});
  engine.handle("setoption name UCI_Variant value shatranj");
  EXPECT_EQ(loaded, (std::vector<std::string>{"sittuyin", "shatranj"}));
  EXPECT_EQ(out.str().find("error"), std::string::npos) << out.str();
}

// One move choice through every path (issue: "two move choices"): the same search settings and
// seed give the same move from GameSearch::run, from the arena's MCTS player and from the UCI
// engine (`go nodes N`; the game clients' C API is checked against `uci` by UciParity). The
// leaf search and contempt are on, so that decided results and proven wins take part.
TEST(MoveChoice, TheSameMoveThroughTheSearchTheArenaAndUci) {
  search::SearchConfig config;
  config.cpuct_init = 0.1f;
  config.fpu_reduction = config.fpu_reduction_root = 0;
  config.contempt = 0.2f;
  config.leaf.quiescence = 1;
  config.leaf.win_moves = 2;
  const uint64_t seed = 0x9E3779B97F4A7C15ull;  // the UCI engine's first game's seed
  const int visits = 120;
  const std::vector<std::string> fens = {
      "",
      "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KSSFRRNNkssfrrnn] w - - 0 1",
      "rnsk1snr/4f3/4pppp/pppp4/4PPPP/PPPP4/4F3/RNSK1SNR[] w - - 0 20",
      "4k3/8/8/3n4/8/8/8/3RK3[] w - - 0 40",
  };
  search::UniformEvaluator uniform;
  for (const std::string& fen : fens) {
    const auto state = games::new_game("sittuyin", fen).take_or_throw(fen);
    search::GameSearch direct(config, *state, seed);
    direct.set_heuristics(heuristics::of_game("sittuyin"));
    search::LeafBlend blended(uniform, config.leaf, heuristics::of_game("sittuyin"));
    const game::ActionId by_search = direct.run(blended, search::SearchKind::Cheap, visits, 0.0f).action;

    eval::MctsPlayerOptions options{config, visits, /*temperature=*/0, /*tables=*/nullptr};
    auto player =
        eval::mcts_player_factory(options, [](int) { return std::make_unique<search::UniformEvaluator>(); })(0);
    player->new_game(*state, seed);
    const auto by_arena = player->choose_move({*state, {}, {}, *state});
    ASSERT_TRUE(by_arena) << by_arena.error();

    std::ostringstream out;
    UciEngine engine(out, registry_games(), {}, config);
    engine.handle(fen.empty() ? "position startpos" : "position fen " + fen);
    engine.handle("go nodes " + std::to_string(visits));
    engine.wait();
    const std::string text = out.str();
    const std::string by_uci = text.substr(text.rfind("bestmove ") + 9,
                                           text.find('\n', text.rfind("bestmove ")) - text.rfind("bestmove ") - 9);
    EXPECT_EQ(state->action_to_string(by_search), state->action_to_string(*by_arena)) << fen;
    EXPECT_EQ(state->action_to_string(by_search), by_uci) << fen;
  }
}

// Endgame tables through the engine users get: TablesPath loads them; in a position of the tables
// `go` answers their best move with a mate score at once; every search scores their positions
// exactly; "<empty>" plays without them; a folder without tables for the variant is no error.
TEST(UciEngine, EndgameTablesAnswerTheirPositionsAndScoreTheSearch) {
  const std::string dir = testing::TempDir() + "/uci-tables-" + std::to_string(::getpid());
  games::build_endgame_tables("sittuyin", 3, dir, 2, [](const std::string&) {});
  UciGames with_tables = registry_games();
  with_tables.load_tables = games::endgame_tables;
  std::ostringstream out;
  UciEngine engine(out, with_tables);
  engine.handle("uci");
  EXPECT_NE(out.str().find("option name TablesPath type string default <empty>"), std::string::npos);
  engine.handle("setoption name TablesPath value " + dir);
  const std::string krk = "8/8/8/3k4/8/8/8/R3K3[] w - - 0 40";
  engine.handle("position fen " + krk);
  engine.handle("go nodes 50");
  engine.wait();
  std::string text = out.str();
  EXPECT_NE(text.find("info depth 1 score mate "), std::string::npos) << text;
  EXPECT_NE(text.find("string endgame tables: "), std::string::npos) << text;
  const auto krk_state = games::new_game("sittuyin", krk).take_or_throw(krk);
  const auto tables = games::endgame_tables("sittuyin", dir).take_or_throw("tables");
  std::array<game::ActionId, game::kMaxActions> best{};
  const int n = tables->best_actions(*krk_state, best);
  ASSERT_GT(n, 0);
  EXPECT_NE(text.find("bestmove " + krk_state->action_to_string(best[0])), std::string::npos) << text;
  // One move before the tables (a rook and a knight against a king): the search sees through.
  engine.handle("position fen 8/8/8/3k4/8/8/8/RN2K3[] w - - 0 40");
  engine.handle("go nodes 200");
  engine.wait();
  text = out.str();
  const std::string last_info = text.substr(text.rfind("info depth"));
  EXPECT_EQ(last_info.find("endgame tables"), std::string::npos) << last_info;  // four men: searched
  // Without them the same position is only searched.
  engine.handle("setoption name TablesPath value <empty>");
  engine.handle("position fen " + krk);
  engine.handle("go nodes 20");
  engine.wait();
  text = out.str();
  EXPECT_EQ(text.substr(text.rfind("bestmove") - 200).find("endgame tables"), std::string::npos);
  std::filesystem::remove_all(dir);
}

// The search with tables: a leaf in them is an exact terminal, so a won ending is seen as won
// at once where a uniform evaluator's search sees a draw.
TEST(GameSearch, ATableHitIsAnExactTerminal) {
  const std::string dir = testing::TempDir() + "/search-tables-" + std::to_string(::getpid());
  games::build_endgame_tables("sittuyin", 3, dir, 2, [](const std::string&) {});
  const auto tables = games::endgame_tables("sittuyin", dir).take_or_throw("tables");
  // White's rook can take the black knight: after that, K+R against a bare king wins.
  const auto state = games::new_game("sittuyin", "8/8/8/3k4/8/2n5/8/2R1K3[] w - - 0 40").take_or_throw("fen");
  search::UniformEvaluator uniform;
  search::SearchConfig config;
  search::GameSearch with(config, *state, 1), without(config, *state, 1);
  with.set_tables(tables.get());
  const search::SearchResult& a = with.run(uniform, search::SearchKind::Cheap, 100, 0.0f);
  EXPECT_EQ(state->action_to_string(a.action), "c1c3");  // into the won table position, a proven win
  const search::SearchResult& b = without.run(uniform, search::SearchKind::Cheap, 100, 0.0f);
  EXPECT_GT(a.wdl[0], b.wdl[0] + 0.2f);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace sz::uci
