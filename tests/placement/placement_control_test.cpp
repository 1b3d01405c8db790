// Placement control in matches (eval/placement_control.h, the `placement=` player setting):
// fixed formations and books read from files, errors naming FILE:LINE, formations illegal under a
// profile refused, and a match whose player really places the formation it was given. Also the
// network's values of formations (placement/network_values.h) with the uniform evaluator.
#include "eval/placement_control.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "eval/arena.h"
#include "eval/player_spec.h"
#include "games/formation.h"
#include "games/formation_play.h"
#include "games/registry.h"
#include "placement/formation_ab.h"
#include "placement/network_values.h"

namespace sz::eval {
namespace {

namespace fs = std::filesystem;

constexpr const char* kClassic = "R@a1 N@b1 S@c2 F@d2 K@e2 S@f2 N@g1 R@h1";
constexpr const char* kEdgeKing = "K@h1 F@g2 S@e1 S@f2 N@b1 N@d2 R@a1 R@c1";

struct Files {
  fs::path dir;
  Files() {
    dir = fs::temp_directory_path() / ("sz-placement-control-" + std::to_string(::getpid()) + "-" +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir);
  }
  ~Files() { fs::remove_all(dir); }
  std::string write(const std::string& name, const std::string& text) const {
    const std::string path = (dir / name).string();
    std::ofstream(path) << text;
    return path;
  }
};

std::string error_of(const std::string& text) {
  const auto control = parse_placement_control(text);
  return control ? "" : control.error();
}

TEST(PlacementControl, ReadsFixedFormationsAndBooks) {
  Files f;
  const std::string fixed = f.write("fixed.txt", std::string("# the classic\n\n") + kClassic + "\n");
  const auto a = parse_placement_control("fixed:" + fixed);
  ASSERT_TRUE(a.ok()) << a.error();
  EXPECT_EQ(a->kind, PlacementControl::Kind::Fixed);
  ASSERT_EQ(a->formations.size(), 1u);
  EXPECT_EQ(a->formations[0].where, fixed + ":3");
  const std::string book = f.write("book.txt", std::string("3 ") + kClassic + "  # mostly\n1.5 " + kEdgeKing + "\n");
  const auto b = parse_placement_control("book:" + book);
  ASSERT_TRUE(b.ok()) << b.error();
  ASSERT_EQ(b->formations.size(), 2u);
  EXPECT_DOUBLE_EQ(b->formations[0].weight, 3);
  EXPECT_DOUBLE_EQ(b->formations[1].weight, 1.5);
  EXPECT_EQ(games::formation_text(b->formations[1].formation),
            games::formation_text(games::parse_formation(kEdgeKing).take_or_throw("")));
  EXPECT_EQ(parse_placement_control("random")->kind, PlacementControl::Kind::Random);
  EXPECT_EQ(parse_placement_control("network")->kind, PlacementControl::Kind::Network);
  const auto spec = parse_player_spec("uniform,sims=2,placement=fixed:" + fixed);
  ASSERT_TRUE(spec.ok()) << spec.error();
  EXPECT_EQ(spec->placement.kind, PlacementControl::Kind::Fixed);
}

TEST(PlacementControl, MalformedFilesAreErrorsNamingFileAndLine) {
  Files f;
  const std::string book = f.write("book.txt", std::string("2 ") + kClassic + "\n" + kEdgeKing + "\n");
  EXPECT_NE(error_of("book:" + book).find(book + ":2: 'K@h1' is not a positive weight"), std::string::npos)
      << error_of("book:" + book);
  const std::string short_line = f.write("short.txt", "1 K@e2 F@d2\n");
  EXPECT_NE(error_of("book:" + short_line).find(short_line + ":1: a formation has 2 khons, not 0"), std::string::npos)
      << error_of("book:" + short_line);
  const std::string junk = f.write("junk.txt", "K@e2 F@d2 S@c2 S@f2 N@b1 N@g1 R@a1 R@z9\n");
  EXPECT_NE(error_of("fixed:" + junk).find(junk + ":1: 'R@z9'"), std::string::npos) << error_of("fixed:" + junk);
  const std::string two = f.write("two.txt", std::string(kClassic) + "\n" + kEdgeKing + "\n");
  EXPECT_NE(error_of("fixed:" + two).find(two + ":2: a second formation"), std::string::npos)
      << error_of("fixed:" + two);
  const std::string empty = f.write("empty.txt", "# nothing\n");
  EXPECT_NE(error_of("fixed:" + empty).find(empty + ": no formation"), std::string::npos);
  EXPECT_NE(error_of("fixed:" + (f.dir / "none.txt").string()).find("none.txt: cannot open"), std::string::npos);
  EXPECT_NE(error_of("fixed").find("give fixed:FILE"), std::string::npos);
  EXPECT_NE(error_of("greedy").find("unknown placement 'greedy'"), std::string::npos);
  const auto spec = parse_player_spec("random,placement=book:" + book);
  ASSERT_FALSE(spec.ok());
  EXPECT_NE(spec.error().find(book + ":2"), std::string::npos) << spec.error();
}

TEST(PlacementControl, AFormationIllegalUnderTheProfileIsRefused) {
  Files f;
  // Rooks go on the back rank only, and Ply Yard keeps every other man off it.
  const std::string high_rook = f.write("rook.txt", "K@e2 F@d2 S@c2 S@f2 N@b1 N@g1 R@a1 R@h2\n");
  const auto rook = parse_placement_control("fixed:" + high_rook).take_or_throw("parse");
  const auto refused = check_placement_control(rook, "sittuyin");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find(high_rook + ":1: "), std::string::npos) << refused.error();
  EXPECT_NE(refused.error().find("R@h2"), std::string::npos) << refused.error();
  EXPECT_NE(refused.error().find("under sittuyin"), std::string::npos) << refused.error();
  const std::string classic = f.write("classic.txt", std::string(kClassic) + "\n");
  const auto c = parse_placement_control("fixed:" + classic).take_or_throw("parse");
  EXPECT_TRUE(check_placement_control(c, "sittuyin").ok());
  const auto plyyard = check_placement_control(c, "sittuyin-plyyard");
  ASSERT_FALSE(plyyard.ok());
  EXPECT_NE(plyyard.error().find("N@b1"), std::string::npos) << plyyard.error();
}

// The formation of `colour` in a finished match game, in that side's frame.
std::string formation_in(const GameRecord& g, int colour) {
  std::string moves;
  for (const std::string& m : g.uci_moves) moves += (moves.empty() ? "" : " ") + m;
  const auto placed = games::replay_placement("sittuyin", "", moves, 0).take_or_throw("replay");
  return games::formation_text(placed.side[size_t(colour)].formation);
}

TEST(PlacementControl, AMatchPlayerPlacesItsFormationInEitherColour) {
  Files f;
  const std::string fixed = f.write("fixed.txt", std::string(kEdgeKing) + "\n");
  MatchSpec match;
  match.players.push_back(
      make_match_player(parse_player_spec("uniform,sims=2,placement=fixed:" + fixed).take_or_throw(""), {}, 2, {}));
  match.players.push_back(make_match_player(parse_player_spec("random,placement=random").take_or_throw(""), {}, 2, {}));
  match.max_plies = 40;
  match.rounds = 2;
  std::vector<GameRecord> games_played;
  match.on_game = [&](const GameRecord& g, const MatchResult&) { games_played.push_back(g); };
  const MatchResult result = play_match(match);
  ASSERT_EQ(games_played.size(), 4u);
  EXPECT_EQ(result.forfeits, 0);
  const std::string expected = games::formation_text(games::parse_formation(kEdgeKing).take_or_throw(""));
  for (const GameRecord& g : games_played) EXPECT_EQ(formation_in(g, g.white == 0 ? 0 : 1), expected) << g.index;
  // The random placer's formations differ from game to game (seeded per game).
  EXPECT_NE(formation_in(games_played[0], games_played[0].white == 1 ? 0 : 1),
            formation_in(games_played[2], games_played[2].white == 1 ? 0 : 1));
}

TEST(PlacementControl, SelfplayChoosersAreStatelessAndFollowTheSeed) {
  Files f;
  EXPECT_FALSE(placement_chooser(parse_placement_control("network").take_or_throw("")));
  const auto fixed = placement_chooser(
      parse_placement_control("fixed:" + f.write("f.txt", std::string(kEdgeKing) + "\n")).take_or_throw(""));
  const auto random = placement_chooser(parse_placement_control("random").take_or_throw(""));
  const auto play = [](const auto& chooser, uint64_t seed) {
    auto state = games::new_game("sittuyin").take_or_throw("");
    while (state->phase() == game::Phase::Placement) state->apply(chooser(*state, seed).value());
    EXPECT_FALSE(chooser(*state, seed).has_value());  // play is the search's
    return state->to_string();
  };
  EXPECT_EQ(play(random, 1), play(random, 1));
  EXPECT_NE(play(random, 1), play(random, 2));
  const std::string fen = play(fixed, 7);
  const auto men = games::men_of_fen(fen).take_or_throw(fen);
  const std::string expected = games::formation_text(games::parse_formation(kEdgeKing).take_or_throw(""));
  EXPECT_EQ(games::formation_text(men[0].formation), expected);
  EXPECT_EQ(games::formation_text(men[1].formation), expected);
}

TEST(PlacementControl, AnIllegalFormationEndsTheMatchNamingTheFile) {
  Files f;
  const std::string bad = f.write("bad.txt", "K@e2 F@d2 S@c2 S@f2 N@b1 N@g1 R@a1 R@h2\n");
  MatchSpec match;
  match.players.push_back(
      make_match_player(parse_player_spec("random,placement=fixed:" + bad).take_or_throw(""), {}, 2, {}));
  match.players.push_back(make_match_player(parse_player_spec("random").take_or_throw(""), {}, 2, {}));
  try {
    play_match(match);
    ADD_FAILURE() << "the match played an illegal formation";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(bad + ":1"), std::string::npos) << e.what();
  }
}

TEST(PlacementNetworkValues, TheUniformNetworkValuesEveryFormationAtZero) {
  placement::ProfileStats stats;
  stats.profile = "sittuyin";
  auto state = games::new_game("sittuyin").take_or_throw("new game");
  std::string moves;
  // White places the classic formation, Black its first legal drops.
  const games::Formation classic = games::parse_formation(kClassic).take_or_throw("");
  std::array<game::ActionId, game::kMaxActions> actions{};
  while (state->phase() == game::Phase::Placement) {
    game::ActionId a = 0;
    if (state->to_move() == game::Player::First)
      a = games::next_formation_drop(*state, classic).take_or_throw("drop");
    else {
      state->legal_actions(actions);
      a = actions[0];
    }
    moves += (moves.empty() ? "" : " ") + state->action_to_string(a);
    state->apply(a);
  }
  stats.add(games::replay_placement("sittuyin", "", moves, 1).take_or_throw("replay"));
  search::UniformEvaluator uniform;
  const placement::FormationValues values = placement::formation_values(stats, uniform, 5);
  ASSERT_EQ(values[0].size(), 1u);
  const placement::FormationValue& v = values[0].begin()->second;
  EXPECT_EQ(values[0].begin()->first, games::formation_text(classic));
  EXPECT_DOUBLE_EQ(v.games_value, 0.0);
  EXPECT_DOUBLE_EQ(v.reply_value, 0.0);
  EXPECT_TRUE(games::parse_formation(v.reply).ok()) << v.reply;  // Black's complete reply formation
}

placement::AbOptions ab_options(const std::string& a, const std::string& b) {
  placement::AbOptions o;
  o.a = placement::formation_control(a, "--a").take_or_throw("");
  o.b = placement::formation_control(b, "--b").take_or_throw("");
  o.player = parse_player_spec("material,sims=4").take_or_throw("");
  o.opponent = parse_player_spec("material,sims=4,placement=random").take_or_throw("");
  o.simulations = 4;
  o.games = 8;
  o.max_plies = 60;
  return o;
}

TEST(PlacementAb, TheSameFormationTwiceDiffersInNoPair) {
  // Same seeds, colours and opposing placements: every pair of games is the same game.
  const placement::AbResult same = placement::run_formation_ab(ab_options(kClassic, kClassic));
  EXPECT_EQ(same.pairs, 8);
  EXPECT_EQ(same.paired.draws, 8);
  EXPECT_DOUBLE_EQ(same.difference, 0.0);
  EXPECT_DOUBLE_EQ(same.lower, 0.0);
  EXPECT_EQ(same.a.wins, same.b.wins);
  const placement::AbResult other = placement::run_formation_ab(ab_options(kClassic, kEdgeKing));
  EXPECT_EQ(other.pairs, 8);
  EXPECT_NEAR(other.difference, other.a.score() - other.b.score(), 1e-12);
  EXPECT_LE(other.lower, other.difference);
  EXPECT_GE(other.upper, other.difference);
  EXPECT_NE(placement::format_ab(other, ab_options(kClassic, kEdgeKing)).find("95% interval"), std::string::npos);
}

TEST(PlacementAb, BadFormationsAreNamed) {
  const auto bad = placement::formation_control("K@e2 F@d2", "--a");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("--a: a formation has"), std::string::npos) << bad.error();
  const auto missing = placement::formation_control("/nonexistent/formation.txt", "--b");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("--b: /nonexistent/formation.txt: cannot open"), std::string::npos) << missing.error();
  placement::AbOptions o = ab_options(kClassic, "K@e2 F@d2 S@c2 S@f2 N@b1 N@g1 R@a1 R@h2");
  try {
    placement::run_formation_ab(o);
    ADD_FAILURE() << "played an illegal formation";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--b: formation"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace sz::eval
