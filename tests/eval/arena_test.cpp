// The arena in-process: schedules, colours, PGN that reads back, SPRT stops, round robins with
// an anchored fit, forfeits, stop requests; player specs and start suites.
#include "eval/arena.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <set>

#include "core/json.h"
#include "eval/match_report.h"
#include "eval/player_spec.h"
#include "eval/start_suite.h"
#include "game_collector.h"
#include "games/registry.h"
#include "pgn_reader.h"
#include "test_paths.h"

namespace sz::eval {
namespace {

// Loses every game at its first move.
class Forfeiter final : public Player {
 public:
  void new_game(const game::GameState&, uint64_t) override {}
  Result<game::ActionId> choose_move(const GameView&) override { return fail("gives up"); }
};

MatchPlayer forfeiter() {
  return {"forfeiter", [](int) -> std::unique_ptr<Player> { return std::make_unique<Forfeiter>(); }};
}
MatchPlayer random_player() { return {"random", random_player_factory()}; }
MatchPlayer uniform(int sims) {
  MctsPlayerOptions o;
  o.simulations = sims;
  return {"uniform" + std::to_string(sims),
          mcts_player_factory(o, [](int) { return std::make_unique<search::UniformEvaluator>(); })};
}

std::string temp_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("sz-arena-test-" + name + "-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  return dir.string();
}

std::vector<std::string> suite(int n) {
  return read_start_suite(sz::test::testdata("suites/starts-partial.epd"), "sittuyin", n).take_or_throw("suite");
}

// Every game of `pgn_path` agrees with its record: tags, SAN replayed from the UCI moves, result.
void expect_pgn_matches(const std::string& pgn_path, const std::vector<GameRecord>& records, const MatchResult& m) {
  const auto games = test::read_pgn(pgn_path);
  ASSERT_EQ(games.size(), records.size());
  for (const auto& g : games) {
    const int round = std::stoi(g.tags.at("Round"));
    const auto rec = std::find_if(records.begin(), records.end(), [&](const auto& r) { return r.index + 1 == round; });
    ASSERT_NE(rec, records.end());
    EXPECT_EQ(g.tags.at("Variant"), "sittuyin");
    EXPECT_EQ(g.tags.at("SetUp"), "1");
    EXPECT_EQ(g.tags.at("FEN"), rec->start_fen);
    EXPECT_EQ(g.tags.at("White"), m.names[size_t(rec->white)]);
    EXPECT_EQ(g.tags.at("Black"), m.names[size_t(rec->black)]);
    const std::string result = rec->result == game::GameResult::FirstWins    ? "1-0"
                               : rec->result == game::GameResult::SecondWins ? "0-1"
                                                                             : "1/2-1/2";
    EXPECT_EQ(g.tags.at("Result"), result);
    EXPECT_EQ(g.result, result);
    ASSERT_EQ(g.sans.size(), rec->uci_moves.size());
    auto state = games::new_game("sittuyin", rec->start_fen).take_or_throw("start");
    for (size_t i = 0; i < g.sans.size(); ++i) {
      EXPECT_FALSE(g.sans[i].empty());
      auto action = state->parse_action(rec->uci_moves[i]);
      ASSERT_TRUE(action.ok()) << action.error();
      EXPECT_EQ(g.sans[i], state->action_to_san(*action));
      state->apply(*action);
    }
    if (rec->reason != "forfeit" && rec->reason != "max-plies") {
      EXPECT_TRUE(state->outcome().over());
      EXPECT_EQ(rec->reason, std::string(state->outcome().reason));
    }
  }
}

TEST(Arena, MatchPlaysEveryStartTwiceWithColoursSwapped) {
  const std::string dir = temp_dir("match");
  MatchSpec spec;
  spec.players = {uniform(16), random_player()};
  spec.starts = suite(3);
  spec.concurrency = 2;
  spec.anchor = 1;
  spec.max_plies = 600;
  spec.pgn_path = dir + "/games.pgn";
  test::GameCollector played;
  played.attach(spec);
  const MatchResult m = play_match(spec);
  const std::vector<GameRecord>& records = played.games();
  EXPECT_EQ(m.games_scheduled, 6);
  EXPECT_EQ(m.games_played, 6);
  EXPECT_FALSE(m.stopped);
  ASSERT_EQ(m.pairings.size(), 1u);
  EXPECT_EQ(m.pairings[0].score.games(), 6);
  EXPECT_EQ(m.ratings.size(), 2u);
  EXPECT_EQ(m.ratings[1].elo, 0.0);
  std::set<std::pair<std::string, int>> colours;  // (start, white player)
  for (const auto& r : records) colours.insert({r.start_fen, r.white});
  EXPECT_EQ(colours.size(), 6u) << "each start once with each colour";
  expect_pgn_matches(spec.pgn_path, records, m);
  // Each player's moves and time: every game's moves counted to the side that played them.
  std::array<int, 2> moves{};
  for (const auto& r : records) {
    EXPECT_EQ(r.moves[0] + r.moves[1], int(r.uci_moves.size()));
    moves[size_t(r.white)] += r.moves[0];
    moves[size_t(r.black)] += r.moves[1];
  }
  ASSERT_EQ(m.moves.size(), 2u);
  EXPECT_EQ(m.moves[0], moves[0]);
  EXPECT_EQ(m.moves[1], moves[1]);
  EXPECT_GT(m.moves[0], 0);
  EXPECT_GT(m.think_seconds[0], 0.0) << "a 16-visit search takes some time";
  EXPECT_GE(m.think_seconds[1], 0.0);
  EXPECT_LE(m.think_seconds[0] + m.think_seconds[1], m.seconds * spec.concurrency);
  EXPECT_NE(format_match_table(m).find("ms over " + std::to_string(moves[0]) + " moves"), std::string::npos)
      << format_match_table(m);
  const std::string json = match_json(m);
  for (const char* key :
       {"\"format\": \"sittuyin-zero match\"", "\"pairings\"", "\"anchor\": \"random\"", "\"sprt\": null"})
    EXPECT_NE(json.find(key), std::string::npos) << key << "\n" << json;
  // And it is JSON that reads back, with what the match found.
  const Json doc = parse_json(json, "results.json").take_or_throw();
  const JsonAt report(doc, "results.json");
  ASSERT_EQ(report["players"].size(), 2u);
  EXPECT_EQ(report["players"][1]["name"].text(), "random");
  EXPECT_EQ(report["pairings"][0]["games"].integer(0, 100), 6);
  EXPECT_EQ(report["games"]["played"].integer(0, 100), 6);
  EXPECT_EQ(report["players"][0]["moves"].integer(0, 100'000), moves[0]);
  EXPECT_EQ(report["players"][1]["moves"].integer(0, 100'000), moves[1]);
  std::filesystem::remove_all(dir);
}

// Draw adjudication by the players' values: two searchers whose values stay flat end their game
// "adjudicated-draw" once the move rules have run their share; a player without a value (the
// random mover) is never adjudicated.
TEST(Arena, FlatValuesOfBothPlayersAdjudicateADraw) {
  MatchSpec spec;
  spec.players = {uniform(8), uniform(8)};
  spec.rounds = 2;
  spec.adjudicate_draws = search::DrawAdjudication{.draws = true, .progress = 0.05f, .value = 1.0f, .plies = 4};
  const auto reasons = [](const MatchSpec& m) {
    std::vector<std::string> out;
    MatchSpec copy = m;
    copy.on_game = [&](const GameRecord& g, const MatchResult&) { out.push_back(g.reason); };
    play_match(copy);
    return out;
  };
  const std::vector<std::string> flat = reasons(spec);
  EXPECT_EQ(std::count(flat.begin(), flat.end(), "adjudicated-draw"), int(flat.size()));
  spec.players = {uniform(8), random_player()};
  const std::vector<std::string> one_without = reasons(spec);
  EXPECT_EQ(std::count(one_without.begin(), one_without.end(), "adjudicated-draw"), 0);
}

TEST(Arena, SprtStopsOnceDecided) {
  MatchSpec spec;
  spec.players = {random_player(), forfeiter()};
  spec.rounds = 200;  // 400 games scheduled; a forfeit every game decides it within a few
  spec.concurrency = 2;
  spec.sprt = Sprt{/*elo0=*/0, /*elo1=*/100, /*alpha=*/0.05, /*beta=*/0.05};
  const MatchResult m = play_match(spec);
  EXPECT_EQ(m.verdict, Sprt::Verdict::AcceptH1);
  EXPECT_TRUE(m.stopped);
  EXPECT_LT(m.games_played, 40);
  EXPECT_EQ(m.pairings[0].score.wins, m.games_played);
  EXPECT_EQ(m.forfeits, m.games_played);
  EXPECT_GT(m.llr, m.sprt->upper_bound() - 1e-9);
}

TEST(Arena, RoundRobinFitsRatingsAnchoredAtTheRandomMover) {
  MatchSpec spec;
  spec.players = {uniform(8), random_player(), forfeiter()};
  spec.starts = suite(2);
  spec.anchor = 1;
  spec.concurrency = 3;
  spec.max_plies = 400;
  const MatchResult m = play_match(spec);
  EXPECT_EQ(m.games_played, 3 * 2 * 2);
  ASSERT_EQ(m.pairings.size(), 3u);
  for (const auto& p : m.pairings) EXPECT_EQ(p.score.games(), 4);
  ASSERT_EQ(m.ratings.size(), 3u);
  EXPECT_EQ(m.ratings[1].elo, 0.0);
  EXPECT_LT(m.ratings[2].elo, m.ratings[1].elo);
  EXPECT_LT(m.ratings[2].elo, m.ratings[0].elo);
  ASSERT_EQ(m.pairing(2, 1)->a, 1);
  EXPECT_EQ(m.pairing(2, 1)->score.wins, 4) << "random beat the forfeiter every time";
  EXPECT_NE(format_match_table(m).find("Bradley-Terry"), std::string::npos);
}

TEST(Arena, StopRequestEndsTheMatch) {
  std::atomic<bool> stop{false};
  MatchSpec spec;
  spec.players = {random_player(), uniform(4)};
  spec.rounds = 50;
  spec.stop = &stop;
  spec.on_game = [&](const GameRecord&, const MatchResult& so_far) {
    if (so_far.games_played >= 3) stop = true;
  };
  const MatchResult m = play_match(spec);
  EXPECT_EQ(m.games_played, 3);
  EXPECT_TRUE(m.stopped);
}

TEST(Arena, BadSpecsAreErrors) {
  MatchSpec spec;
  spec.players = {random_player()};
  EXPECT_THROW(play_match(spec), Error);
  spec.players = {random_player(), random_player(), uniform(1)};
  spec.sprt = Sprt{};
  EXPECT_THROW(play_match(spec), Error);
  spec.sprt.reset();
  spec.starts = {"not a fen"};
  try {
    play_match(spec);
    FAIL() << "a bad start FEN must be an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("start 1"), std::string::npos) << e.what();
  }
}

TEST(PlayerSpec, ParsesEveryKindAndNamesBadSettings) {
  auto s = parse_player_spec("uniform,sims=32,temp=0.5,name=u");
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(s->kind, PlayerSpec::Kind::Uniform);
  EXPECT_EQ(s->simulations, 32);
  EXPECT_FLOAT_EQ(s->temperature, 0.5f);
  EXPECT_EQ(s->name, "u");
  EXPECT_TRUE(s->search_settings.empty());
  search::SearchConfig base;
  base.contempt = 0.1f;
  base.leaf.king_hunt = 2;
  s = parse_player_spec("model:runs/x/models/7.pt,sims=100,contempt=0.25");
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_FLOAT_EQ(player_search(*s, base).contempt, 0.25f);
  EXPECT_FLOAT_EQ(player_search(*s, base).leaf.king_hunt, 2.0f);  // not given: the caller's
  EXPECT_EQ(s->model, "runs/x/models/7.pt");
  EXPECT_EQ(s->name, "model:runs/x/models/7.pt,sims=100,contempt=0.25");
  s = parse_player_spec("material,qs=0.5,full=2,win=3,hunt=1.5,qplies=6");
  ASSERT_TRUE(s.ok()) << s.error();
  const search::SearchConfig c = player_search(*s, base);
  EXPECT_FLOAT_EQ(c.leaf.quiescence, 0.5f);
  EXPECT_EQ(c.leaf.full_plies, 2);
  EXPECT_EQ(c.leaf.win_moves, 3);
  EXPECT_FLOAT_EQ(c.leaf.king_hunt, 1.5f);
  EXPECT_EQ(c.leaf.quiescence_plies, 6);
  EXPECT_FLOAT_EQ(c.contempt, 0.1f);
  s = parse_player_spec("uci:node fsf-uci.js,option.UCI_Elo=1500,option.Skill Level=3,movetime=100");
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(s->uci.command, "node fsf-uci.js");
  ASSERT_EQ(s->uci.options.size(), 2u);
  EXPECT_EQ(s->uci.options[1].first, "Skill Level");
  EXPECT_EQ(s->uci.options[1].second, "3");
  EXPECT_EQ(s->uci.movetime_ms, 100);
  EXPECT_EQ(s->uci.nodes, 0);
  EXPECT_TRUE(parse_player_spec("random").ok());
  s = parse_player_spec("fsf:nodes=100,skill=5");
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(s->kind, PlayerSpec::Kind::Fsf);
  EXPECT_EQ(s->uci.nodes, 100);
  ASSERT_EQ(s->uci.options.size(), 1u);
  EXPECT_EQ(s->uci.options[0], (std::pair<std::string, std::string>{"Skill Level", "5"}));
  s = parse_player_spec("fsf,elo=1500,name=f");
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(s->uci.nodes, 1);  // the default limit: one node
  ASSERT_EQ(s->uci.options.size(), 2u);
  EXPECT_EQ(s->uci.options[1], (std::pair<std::string, std::string>{"UCI_Elo", "1500"}));
  EXPECT_EQ(s->name, "f");
  s = parse_player_spec("fsf:depth=3");
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(s->uci.depth, 3);
  EXPECT_EQ(s->uci.nodes, 0);

  const std::vector<std::pair<std::string, std::string>> bad = {
      {"chess", "unknown player kind 'chess'"},
      {"uniform,sims=0", "sims wants"},
      {"uniform,depth=3", "unknown setting 'depth'"},
      {"random,sims=3", "unknown setting 'sims'"},
      {"model:", "give model:PATH"},
      {"uci:a,b", "not KEY=VALUE"},
      {"uniform,temp=hot", "temp wants"},
      {"random:x", "takes no ':' argument"},
      {"uniform,contempt=2", "contempt wants a number in -1..1"},
      {"random,contempt=1", "unknown setting"},
      {"model:m.pt,qs=1.5", "qs wants a number in 0..1"},
      {"model:m.pt,hunt=11", "hunt wants a number in 0..10"},
      {"model:m.pt,full=4", "full wants a whole number in 0..3"},
      {"fsf,qs=1", "unknown setting 'qs'"},
      {"fsf:skill=21", "skill wants a whole number in 0..20"},
      {"fsf:sims=3", "unknown setting 'sims'"},
      {"fsf:nodes", "not KEY=VALUE"},
  };
  for (const auto& [text, message] : bad) {
    auto r = parse_player_spec(text);
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_NE(r.error().find(message), std::string::npos) << text << " -> " << r.error();
  }
}

TEST(StartSuite, ReadsTheSharedSuitesAndNamesBadLines) {
  auto all = read_start_suite(sz::test::testdata("suites/starts-full.epd"), "sittuyin");
  ASSERT_TRUE(all.ok()) << all.error();
  EXPECT_EQ(all->size(), 100u);
  EXPECT_EQ(suite(5).size(), 5u);
  const std::string dir = temp_dir("suite");
  std::ofstream(dir + "/bad.epd") << "# a comment\n\n" << (*all)[0] << "\nrubbish w - - 0 1\n";
  auto bad = read_start_suite(dir + "/bad.epd", "sittuyin");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("bad.epd:4"), std::string::npos) << bad.error();
  EXPECT_FALSE(read_start_suite(dir + "/missing.epd", "sittuyin").ok());
  std::filesystem::remove_all(dir);
}

// A binary file given as a suite: its bytes are shown escaped (\xNN) and cut short, never raw.
TEST(StartSuite, GarbageIsShownEscapedAndCutShort) {
  const std::string dir = temp_dir("garbage-suite");
  std::string garbage = std::string(1, '\x7f') + "ELF\x02\x01\x01";
  for (int i = 0; i < 300; ++i) garbage += char(i * 37 % 256 == '\n' ? 1 : i * 37 % 256);
  std::ofstream(dir + "/garbage.epd", std::ios::binary) << garbage << "\n";
  const auto r = read_start_suite(dir + "/garbage.epd", "sittuyin");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("garbage.epd:1: bad FEN '\\x7FELF\\x02\\x01\\x01"), std::string::npos) << r.error();
  EXPECT_NE(r.error().find("...'"), std::string::npos) << r.error();
  EXPECT_LT(r.error().size(), 700u) << r.error();
  for (const char c : r.error()) EXPECT_TRUE(c >= 0x20 && c < 0x7f) << "raw byte " << int(c) << " in " << r.error();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace sz::eval
