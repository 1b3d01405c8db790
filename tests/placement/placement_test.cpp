// Placement research (src/placement): formations read back from hand-made shards, heat maps that
// sum to games x men, formation counts and results, features of a known formation, the Wilson
// interval and the logistic fit against known answers, and bad input named in the error.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/split.h"
#include "data/shard_writer.h"
#include "eval/ratings.h"
#include "games/formation.h"
#include "games/registry.h"
#include "placement/features.h"
#include "placement/logistic.h"
#include "placement/placements.h"
#include "placement/statistics.h"
#include "python_helpers.h"
#include "shell_helpers.h"
#include "test_paths.h"

namespace sz::placement {
namespace {

namespace fs = std::filesystem;

// Own frame: rooks in the corners, knights beside them, khons and the met on rank 2 around the king.
constexpr const char* kClassic = "R@a1 N@b1 S@c2 F@d2 K@e2 S@f2 N@g1 R@h1";
constexpr const char* kLeftKing = "K@b2 F@c2 S@a2 S@d2 N@c1 N@f2 R@a1 R@h1";
constexpr const char* kEdgeKing = "K@h1 F@g2 S@e1 S@f2 N@b1 N@d2 R@a1 R@c1";

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("sz-placement-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

// The moves of a placement under `profile`: White's drops and Black's (each in its own frame),
// in the order the profile has the sides place, Black's squares turned onto the real board.
std::string placement_moves(const std::string& profile, const std::string& white, const std::string& black) {
  auto state = games::new_game(profile).take_or_throw("new game");
  const std::vector<std::string_view> drops[2] = {split_words(white), split_words(black)};
  size_t next[2] = {0, 0};
  std::string moves;
  while (state->phase() == game::Phase::Placement) {
    const int c = state->to_move() == game::Player::First ? 0 : 1;
    std::string drop(drops[c].at(next[c]++));
    if (c == 1) {
      const int s = board_square(1, (drop[3] - '1') * 8 + (drop[2] - 'a'));
      drop = drop.substr(0, 2) + square_name(s);
    }
    state->apply(state->parse_action(drop).take_or_throw(drop));
    moves += (moves.empty() ? "" : " ") + drop;
  }
  return moves + " e4e5";  // a first move of play, which the reader must not take for a placement
}

data::GameRecord make_record(const std::string& profile, const std::string& white, const std::string& black, int result,
                             const game::GameSpec& spec) {
  data::GameRecord g;
  g.meta.profile = profile;
  g.meta.result = int8_t(result);
  g.meta.end_reason = "checkmate";
  g.meta.start_fen = std::string(games::new_game(profile).take_or_throw("new game")->to_string());
  g.meta.moves = placement_moves(profile, white, black);
  g.positions = data::PositionColumns(spec.binary_planes, spec.scalar_features);
  const std::vector<uint64_t> planes(size_t(spec.binary_planes), 0);
  const std::vector<float> scalars(size_t(spec.scalar_features), 0.0f);
  data::PositionRow row;
  row.planes = planes;
  row.scalars = scalars;
  row.phase = game::Phase::Placement;
  g.positions.append(row);
  return g;
}

Result<PlacedGame> replay(const data::GameMeta& g) {
  return games::replay_placement(g.profile, g.start_fen, g.moves, g.result);
}

struct Game {
  std::string white, black;
  int result = 0;
};

void write_shard(const fs::path& dir, const std::string& profile, const std::vector<Game>& games) {
  const game::GameSpec spec = games::spec_for(profile).take_or_throw("spec");
  data::ShardWriter writer(dir.string(), "test", spec, {.games_per_shard = 1000, .seconds_per_shard = 0});
  for (const Game& g : games) writer.add_game(make_record(profile, g.white, g.black, g.result, spec));
  writer.close();
}

ProfileStats stats_of(const std::string& profile, const std::vector<Game>& games) {
  const game::GameSpec spec = games::spec_for(profile).take_or_throw("spec");
  ProfileStats stats;
  for (const Game& g : games)
    stats.add(replay(make_record(profile, g.white, g.black, g.result, spec).meta).take_or_throw("replay"));
  return stats;
}

const std::vector<Game> kGames = {
    {kClassic, kLeftKing, +1}, {kClassic, kLeftKing, 0},  {kClassic, kLeftKing, -1},
    {kEdgeKing, kClassic, +1}, {kEdgeKing, kClassic, +1},
};

std::string canonical(const char* text) { return formation_text(parse_formation(text).take_or_throw(text)); }

TEST(PlacementFormation, ParsesWritesCanonicallyAndRefusesWrongMen) {
  EXPECT_EQ(canonical(kClassic), "K@e2 F@d2 S@c2 S@f2 N@b1 N@g1 R@a1 R@h1");
  EXPECT_EQ(canonical("R@h1,R@a1,N@g1,N@b1,S@f2,S@c2,F@d2,K@e2"), canonical(kClassic));
  const auto missing = parse_formation("K@e2 F@d2 S@c2 S@f2 N@b1 N@g1 R@a1");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("2 rooks, not 1"), std::string::npos) << missing.error();
  const auto twice = parse_formation("K@e2 F@e2 S@c2 S@f2 N@b1 N@g1 R@a1 R@h1");
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.error().find("two men on e2"), std::string::npos) << twice.error();
  const auto bad = parse_formation("K@e2 Q@d2");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("'Q@d2'"), std::string::npos) << bad.error();
}

TEST(PlacementFormation, ReplaysBothProfilesOrdersIntoTheSidesFrames) {
  for (const std::string profile : {"sittuyin", "sittuyin-traditional"}) {
    const game::GameSpec spec = games::spec_for(profile).take_or_throw("spec");
    const PlacedGame g = replay(make_record(profile, kClassic, kLeftKing, 1, spec).meta).take_or_throw("replay");
    EXPECT_EQ(formation_text(g.side[0].formation), canonical(kClassic)) << profile;
    EXPECT_EQ(formation_text(g.side[1].formation), canonical(kLeftKing)) << profile;
    ASSERT_EQ(g.side[0].order.size(), 8u);
    EXPECT_EQ(kMen[size_t(g.side[1].order[0].man)], 'K');  // Black's first drop, K@b2 in its frame
    EXPECT_EQ(g.side[1].order[0].square, 9);
    // Both sides' pawns stand on a3-d3 and e4-h4 of their own frames.
    EXPECT_EQ(g.side[0].pawns, g.side[1].pawns);
    EXPECT_EQ(g.side[0].pawns, 0x000000F00F0000ull);
  }
}

TEST(PlacementStatistics, HeatMapsSumToGamesTimesMenAndFormationsCount) {
  const ProfileStats stats = stats_of("sittuyin", kGames);
  ASSERT_EQ(stats.games, 5);
  for (int c = 0; c < 2; ++c) {
    for (const Heat& h : {stats.heat[size_t(c)], stats.board_heat(c)}) {
      int64_t all = 0;
      for (int m = 0; m < kManTypes; ++m) {
        int64_t men = 0;
        for (const int64_t n : h[size_t(m)]) men += n;
        EXPECT_EQ(men, 5 * kMenPerType[size_t(m)]) << "colour " << c << " man " << kMen[size_t(m)];
        all += men;
      }
      EXPECT_EQ(all, 5 * kMenPerSide);
    }
  }
  // White's king: e2 three times, h1 twice; Black's: b2 (own frame) = g7 on the board three times.
  const int king = 0;
  EXPECT_EQ(stats.heat[0][king][12], 3);
  EXPECT_EQ(stats.heat[0][king][7], 2);
  EXPECT_EQ(stats.heat[1][king][9], 3);
  EXPECT_EQ(stats.board_heat(1)[king][54], 3);  // g7

  const auto white = top_formations(stats, 0, 10);
  ASSERT_EQ(white.size(), 2u);
  EXPECT_EQ(white[0].first, canonical(kClassic));
  EXPECT_EQ(white[0].second.games(), 3);
  EXPECT_EQ(white[0].second.wins, 1);
  EXPECT_EQ(white[0].second.draws, 1);
  EXPECT_EQ(white[1].first, canonical(kEdgeKing));
  EXPECT_EQ(white[1].second.wins, 2);
  const auto black = top_formations(stats, 1, 10);
  ASSERT_EQ(black.size(), 2u);
  EXPECT_EQ(black[0].first, canonical(kLeftKing));
  EXPECT_EQ(black[1].first, canonical(kClassic));
  EXPECT_EQ(black[1].second.losses, 2);  // Black's view of White's two wins

  // The order: White's first drop in every game is its first listed man.
  int64_t first_rooks = 0;
  for (const int64_t n : stats.order[0][0]) first_rooks += n;
  EXPECT_EQ(first_rooks, 5);
  EXPECT_EQ(stats.order[0][0][4], 3);  // R@a1 first in the three classic games
  EXPECT_EQ(stats.order[0][0][0], 2);  // K@h1 first in the two edge-king games
}

TEST(PlacementFeatures, OfKnownFormations) {
  const uint64_t pawns = 0x000000F00F0000ull;
  const Features classic = formation_features(parse_formation(kClassic).take_or_throw("f"), pawns);
  EXPECT_EQ(classic[kKingFile], 4);
  EXPECT_EQ(classic[kKingRank], 2);
  EXPECT_EQ(classic[kKingRightWing], 1);
  EXPECT_EQ(classic[kKingOnEdge], 0);
  EXPECT_EQ(classic[kKingCentreDistance], 2);
  EXPECT_EQ(classic[kKhonsBesideKing], 1);
  EXPECT_EQ(classic[kMetBesideKing], 1);
  EXPECT_EQ(classic[kPawnsAheadOfKing], 3);  // d3, e4, f4
  EXPECT_EQ(feature_value_text(kRookFiles, classic[kRookFiles]), "a+h");
  EXPECT_EQ(classic[kRooksOnEdgeFiles], 2);
  EXPECT_EQ(classic[kKnightsOnBackRank], 2);
  EXPECT_EQ(classic[kMirrorPairs], 3);
  const Features edge = formation_features(parse_formation(kEdgeKing).take_or_throw("f"), pawns);
  EXPECT_EQ(edge[kKingOnEdge], 1);
  EXPECT_EQ(edge[kKingCentreDistance], 3);
  EXPECT_EQ(edge[kPawnsAheadOfKing], 2);  // g4, h4
  EXPECT_EQ(edge[kMirrorPairs], 0);
  // Ply Yard lets the king stand on a4, in front of its pawns: behind none.
  const Features bare =
      formation_features(parse_formation("K@a4 F@b4 S@c4 S@d4 N@e3 N@f3 R@a1 R@h1").take_or_throw("f"), pawns);
  EXPECT_EQ(bare[kKingOnEdge], 1);
  EXPECT_EQ(bare[kPawnsAheadOfKing], 0);
}

TEST(PlacementStatistics, WilsonIntervalsMatchKnownValues) {
  const eval::Interval eight = eval::wilson_interval(8, 10);  // the textbook case
  EXPECT_NEAR(eight.lower, 0.4902, 1e-4);
  EXPECT_NEAR(eight.upper, 0.9433, 1e-4);
  const eval::Interval none = eval::wilson_interval(0, 10);
  EXPECT_NEAR(none.lower, 0.0, 1e-12);
  EXPECT_NEAR(none.upper, 0.2775, 1e-4);
  const eval::Interval half = eval::wilson_interval(50, 100);
  EXPECT_NEAR(half.lower, 0.4038, 1e-4);
  EXPECT_NEAR(half.upper, 0.5962, 1e-4);
  // A score counts draws half: 1 win and 1 draw of 2 games is 1.5 of 2.
  const eval::Interval score = score_interval({1, 1, 0});
  const eval::Interval direct = eval::wilson_interval(1.5, 2);
  EXPECT_DOUBLE_EQ(score.lower, direct.lower);
  EXPECT_DOUBLE_EQ(score.upper, direct.upper);
}

TEST(PlacementLogistic, OneBinaryFeatureGivesTheLogOddsExactly) {
  // 30 of 100 wins without the feature, 60 of 100 with it: the fit is saturated, so the
  // intercept is logit(0.3), the coefficient the log odds ratio, and the standard errors Woolf's.
  std::vector<std::vector<double>> x;
  std::vector<double> y;
  for (int group = 0; group < 2; ++group)
    for (int i = 0; i < 100; ++i) {
      x.push_back({double(group)});
      y.push_back(i < (group ? 60 : 30) ? 1.0 : 0.0);
    }
  const LogisticFit fit = fit_logistic(x, y);
  ASSERT_TRUE(fit.converged);
  EXPECT_NEAR(fit.coefficient[0], std::log(30.0 / 70.0), 1e-9);
  EXPECT_NEAR(fit.coefficient[1], std::log(60.0 / 40.0) - std::log(30.0 / 70.0), 1e-9);
  EXPECT_NEAR(fit.std_error[0], std::sqrt(1.0 / 30 + 1.0 / 70), 1e-9);
  EXPECT_NEAR(fit.std_error[1], std::sqrt(1.0 / 30 + 1.0 / 70 + 1.0 / 60 + 1.0 / 40), 1e-9);
  EXPECT_NEAR(two_sided_p(1.959963984540054), 0.05, 1e-9);
}

TEST(PlacementLogistic, RecoversKnownCoefficientsFromSyntheticDraws) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> count(0, 3);
  std::uniform_real_distribution<double> unit(0, 1);
  const double truth[3] = {0.4, -0.8, 0.3};
  std::vector<std::vector<double>> x;
  std::vector<double> y;
  for (int i = 0; i < 20000; ++i) {
    const double a = count(rng), b = unit(rng) < 0.5;
    const double p = 1 / (1 + std::exp(-(truth[0] + truth[1] * b + truth[2] * a)));
    x.push_back({b, a});
    y.push_back(unit(rng) < p ? 1.0 : 0.0);
  }
  const LogisticFit fit = fit_logistic(x, y);
  ASSERT_TRUE(fit.converged);
  for (int j = 0; j < 3; ++j) {
    EXPECT_NEAR(fit.coefficient[size_t(j)], truth[j], 4 * fit.std_error[size_t(j)]) << "coefficient " << j;
    EXPECT_GT(fit.std_error[size_t(j)], 0.005);
    EXPECT_LT(fit.std_error[size_t(j)], 0.06);
  }
}

TEST(PlacementLogistic, RefusesCollinearFeatures) {
  std::vector<std::vector<double>> x = {{1, 2}, {2, 4}, {3, 6}, {4, 8}};
  EXPECT_THROW(fit_logistic(x, {0, 1, 0, 1}), Error);
  EXPECT_THROW(fit_logistic({{1}}, {0, 1}), Error);
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

int64_t csv_column_sum(const fs::path& path, size_t column) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);  // the header
  int64_t sum = 0;
  while (std::getline(in, line)) sum += std::stoll(std::string(split(line, ',').at(column)));
  return sum;
}

TEST(Placements, WritesTheTablesAndPlotsPerProfile) {
  TempDir dir;
  write_shard(dir.path / "games", "sittuyin", kGames);
  write_shard(dir.path / "games", "sittuyin-traditional", {{kLeftKing, kClassic, 0}});
  PlacementOptions options;
  options.games = {(dir.path / "games").string()};
  options.out = (dir.path / "out").string();
  std::vector<std::string> progress;
  options.progress = [&](const std::string& line) { progress.push_back(line); };
  const PlacementSummary summary = run_placements(options);
  EXPECT_EQ(summary.games, 6);
  EXPECT_EQ(summary.skipped, 0);
  EXPECT_FALSE(progress.empty());
  const fs::path out = dir.path / "out" / "sittuyin";
  for (const char* name : {"heat_white_mover", "heat_black_board", "order_white", "formations_black", "features"}) {
    EXPECT_TRUE(fs::exists(out / (std::string(name) + ".csv"))) << name;
    EXPECT_TRUE(fs::exists(out / (std::string(name) + ".png"))) << name;
  }
  // Ten sides cannot fit ten coefficients apart: the table says so instead of failing the run.
  EXPECT_NE(read_text(out / "logistic.csv").find("# no fit: "), std::string::npos) << read_text(out / "logistic.csv");
  for (const char* name :
       {"heat_white_mover.csv", "heat_white_board.csv", "heat_black_mover.csv", "heat_black_board.csv"})
    EXPECT_EQ(csv_column_sum(out / name, 2), 5 * kMenPerSide) << name;
  EXPECT_EQ(csv_column_sum(dir.path / "out" / "sittuyin-traditional" / "heat_black_board.csv", 2), kMenPerSide);
  const std::string formations = read_text(out / "formations_white.csv");
  EXPECT_NE(formations.find("1,0.6,3,1,1,1,0.5,"), std::string::npos) << formations;
  EXPECT_NE(formations.find(canonical(kClassic)), std::string::npos) << formations;
  const std::string summary_csv = read_text(dir.path / "out" / "summary.csv");
  EXPECT_NE(summary_csv.find(",sittuyin,5,3,1,1,"), std::string::npos) << summary_csv;
  EXPECT_NE(summary_csv.find(",sittuyin-traditional,1,0,1,0,"), std::string::npos) << summary_csv;
}

// scripts/placement_heat.py (docs/PLACEMENT.md) counts the men per square from the shards with
// h5py and numpy alone, and gets the heat maps' counts.
TEST(Placements, ThePythonScriptReproducesTheHeatMaps) {
  const std::string python = test::find_python();
  if (python.empty()) GTEST_SKIP() << "no python3 with h5py and numpy (tried $SZ_PYTHON, python3, /usr/bin/python3)";
  TempDir dir;
  write_shard(dir.path / "games", "sittuyin", kGames);
  write_shard(dir.path / "games", "sittuyin-traditional", {{kLeftKing, kClassic, 0}, {kEdgeKing, kLeftKing, 1}});
  PlacementOptions options;
  options.games = {(dir.path / "games").string()};
  options.out = (dir.path / "out").string();
  options.gnuplot.clear();
  run_placements(options);
  // The script counts all profiles together: add the two profiles' tables.
  std::map<std::string, int64_t> expected;
  for (const char* profile : {"sittuyin", "sittuyin-traditional"})
    for (const char* colour : {"white", "black"}) {
      std::ifstream in(dir.path / "out" / profile / (std::string("heat_") + colour + "_board.csv"));
      std::string line;
      std::getline(in, line);
      while (std::getline(in, line)) {
        const auto f = split(line, ',');
        expected[std::string(colour) + "," + std::string(f[0]) + "," + std::string(f[1])] +=
            std::stoll(std::string(f[2]));
      }
    }
  const test::CommandRun heat = test::run_shell(python + " " + test::source_dir() + "/scripts/placement_heat.py " +
                                                (dir.path / "games").string());
  ASSERT_EQ(heat.status, 0) << heat.output;
  const std::string& out = heat.output;
  std::map<std::string, int64_t> counted;
  for (const std::string_view line : split(out, '\n')) {
    const auto f = split(line, ',');
    if (f.size() != 4 || f[0] == "colour") continue;
    counted[std::string(f[0]) + "," + std::string(f[1]) + "," + std::string(f[2])] = std::stoll(std::string(f[3]));
  }
  EXPECT_EQ(counted, expected) << out;
  EXPECT_NE(out.find("# 7 games, 112 men"), std::string::npos) << out;
}

TEST(Placements, SeveralSourcesGetAFolderEachAndOneSummary) {
  TempDir dir;
  write_shard(dir.path / "run-a" / "games", "sittuyin", kGames);
  write_shard(dir.path / "run-b" / "games", "sittuyin", {{kLeftKing, kClassic, 0}});
  PlacementOptions options;
  options.games = {(dir.path / "run-a" / "games").string(), (dir.path / "run-b" / "games/").string()};
  options.out = (dir.path / "out").string();
  options.gnuplot.clear();
  EXPECT_EQ(run_placements(options).games, 6);
  EXPECT_EQ(csv_column_sum(dir.path / "out" / "run-a" / "sittuyin" / "heat_white_board.csv", 2), 5 * kMenPerSide);
  EXPECT_EQ(csv_column_sum(dir.path / "out" / "run-b" / "sittuyin" / "heat_white_board.csv", 2), kMenPerSide);
  const std::string summary = read_text(dir.path / "out" / "summary.csv");
  EXPECT_NE(summary.find("\nrun-a,sittuyin,5,"), std::string::npos) << summary;
  EXPECT_NE(summary.find("\nrun-b,sittuyin,1,"), std::string::npos) << summary;
}

// The program: an error names the folder, exits non-zero, and writes nothing.
TEST(Placements, TheCommandReportsBadInputAndExitsNonZero) {
  TempDir dir;
  fs::create_directories(dir.path / "empty");
  const test::CommandRun run = test::run_shell(test::binary() + " placements --games " + (dir.path / "empty").string() +
                                               " --out " + (dir.path / "out").string());
  EXPECT_NE(run.status, 0) << run.output;
  const std::string& out = run.output;
  EXPECT_NE(out.find("sittuyin-zero placements: error: " + (dir.path / "empty").string() + ": no shards"),
            std::string::npos)
      << out;
  EXPECT_FALSE(fs::exists(dir.path / "out"));
}

std::string error_of(const PlacementOptions& options) {
  try {
    run_placements(options);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Placements, BadInputIsAnErrorNamingIt) {
  TempDir dir;
  PlacementOptions options;
  options.out = (dir.path / "out").string();
  options.gnuplot.clear();
  fs::create_directories(dir.path / "empty");
  options.games = {(dir.path / "empty").string()};
  EXPECT_NE(error_of(options).find((dir.path / "empty").string() + ": no shards"), std::string::npos)
      << error_of(options);
  options.games = {(dir.path / "missing").string()};
  EXPECT_NE(error_of(options).find("missing: no such folder"), std::string::npos) << error_of(options);

  // A shard of another game.
  const game::GameSpec shatranj = games::spec_for("shatranj").take_or_throw("spec");
  {
    data::ShardWriter writer((dir.path / "shatranj").string(), "test", shatranj);
    data::GameRecord g;
    g.meta.profile = "shatranj";
    g.meta.moves = "e2e3";
    g.positions = data::PositionColumns(shatranj.binary_planes, shatranj.scalar_features);
    writer.add_game(g);
    writer.close();
  }
  options.games = {(dir.path / "shatranj").string()};
  std::string why = error_of(options);
  EXPECT_NE(why.find("test-000000.h5: a shard of shatranj games"), std::string::npos) << why;

  // A file that is no shard, left where it is.
  fs::create_directories(dir.path / "broken");
  std::ofstream(dir.path / "broken" / "x.h5") << "not an HDF5 file\n";
  options.games = {(dir.path / "broken").string()};
  why = error_of(options);
  EXPECT_NE(why.find((dir.path / "broken" / "x.h5").string()), std::string::npos) << why;
  EXPECT_TRUE(fs::exists(dir.path / "broken" / "x.h5"));
}

}  // namespace
}  // namespace sz::placement
