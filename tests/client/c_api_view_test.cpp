// The C API's calls for a game's screen (API version 3, client/c_api_view.cpp) against the rules
// core: the status beside the FEN, the SAN of every legal move, the counting clocks, and the
// formations (checked per profile, placed drop by drop).
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "c_api_fixture.h"
#include "client/sittuyin_client.h"
#include "core/rng.h"
#include "games/chaturanga/rule_profiles.h"
#include "games/chaturanga/state.h"
#include "games/formation.h"
#include "games/registry.h"

namespace sz {
namespace {

std::vector<std::string> words(const char* text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// The status the rules core gives for `state`, as sz_game_status must write it.
void expect_status(const sz_game* g, const chaturanga::State& state) {
  sz_status s;
  ASSERT_EQ(sz_game_status(g, &s), 0);
  const chaturanga::Position& pos = state.position();
  EXPECT_EQ(s.side_to_move, int(pos.side_to_move()));
  EXPECT_EQ(s.placing, state.phase() == game::Phase::Placement ? 1 : 0);
  EXPECT_EQ(s.in_check, pos.in_check() ? 1 : 0);
  EXPECT_EQ(s.ply, state.ply());
  EXPECT_EQ(s.repetitions, state.repetitions());
  EXPECT_EQ(s.rule50, pos.rule50());
  EXPECT_EQ(s.rule50_limit, pos.rules().n_move_plies);
  EXPECT_EQ(s.counting_limit, pos.counting_limit());
  EXPECT_EQ(s.counting_ply, pos.counting_ply());
  if (pos.counting_limit()) {
    ASSERT_GE(s.counting_side, 0);
    const auto bare = chaturanga::Color(s.counting_side);
    EXPECT_EQ(pos.pieces(bare), pos.pieces(bare, chaturanga::King));
  } else {
    EXPECT_EQ(s.counting_side, -1);
  }
}

TEST_F(CApiTest, TheBundleNamesItsGameAndItsProfilesSources) {
  sz_bundle* b = sz_bundle_open(bundle_dir().c_str(), error_, sizeof error_);
  ASSERT_NE(b, nullptr) << error_;
  EXPECT_EQ(SZ_CLIENT_API_VERSION, 3);
  EXPECT_STREQ(sz_bundle_game(b), "sittuyin");
  EXPECT_EQ(sz_bundle_profile_source(b, 1), (*chaturanga::rule_profile("sittuyin-plyyard"))->source);
  EXPECT_EQ(sz_bundle_profile_source(b, 2), nullptr);
  EXPECT_EQ(sz_bundle_game(nullptr), nullptr);
  sz_bundle_close(b);
}

// Random games under both profiles, move by move beside the rules core: the status and the SAN
// of every legal move agree, through placement, play and the end.
TEST_F(CApiTest, StatusAndSanAreTheRulesCores) {
  sz_bundle* b = sz_bundle_open(bundle_dir().c_str(), error_, sizeof error_);
  ASSERT_NE(b, nullptr) << error_;
  Rng rng(11);
  for (const char* profile : {"sittuyin", "sittuyin-plyyard"}) {
    sz_game* g = sz_game_new(b, profile, nullptr, error_, sizeof error_);
    ASSERT_NE(g, nullptr) << error_;
    auto started = games::new_game(profile);
    auto& state = static_cast<chaturanga::State&>(**started);
    char moves[SZ_MOVES_BUFFER], san[SZ_MOVE_BUFFER];
    int checks = 0;
    while (sz_game_result(g, nullptr) == SZ_ONGOING) {
      expect_status(g, state);
      checks += state.position().in_check();
      ASSERT_GT(sz_game_legal_moves(g, moves, sizeof moves), 0);
      const std::vector<std::string> legal = words(moves);
      for (const std::string& m : legal) {
        ASSERT_EQ(sz_game_san(g, m.c_str(), san, sizeof san, error_, sizeof error_), 0) << error_;
        EXPECT_EQ(san, state.action_to_san(*state.parse_action(m))) << m;
      }
      const std::string& move = legal[rng.below(uint32_t(legal.size()))];
      ASSERT_EQ(sz_game_apply(g, move.c_str(), error_, sizeof error_), 0) << error_;
      state.apply(*state.parse_action(move));
    }
    expect_status(g, state);
    EXPECT_GT(checks, 0) << profile;
    EXPECT_EQ(sz_game_san(g, "a1a2", san, sizeof san, error_, sizeof error_), -1);
    EXPECT_STREQ(error_, "move 'a1a2': the game is over");
    sz_game_free(g);
  }

  sz_game* g = sz_game_new(b, nullptr, nullptr, error_, sizeof error_);
  char san[SZ_MOVE_BUFFER];
  EXPECT_EQ(sz_game_san(g, "a1a9", san, sizeof san, error_, sizeof error_), -1);
  EXPECT_NE(std::string(error_).find("move 'a1a9'"), std::string::npos) << error_;
  EXPECT_EQ(sz_game_san(g, "R@a1", san, 2, error_, sizeof error_), -1);
  EXPECT_STREQ(error_, "the SAN buffer is too small for 'R@a1'");
  EXPECT_EQ(sz_game_status(nullptr, nullptr), -1);
  sz_game_free(g);
  sz_bundle_close(b);
}

// A king and rook against the bare king: the count runs, and the status follows it ply by ply.
TEST_F(CApiTest, TheCountingClockIsShown) {
  sz_bundle* b = sz_bundle_open(bundle_dir().c_str(), error_, sizeof error_);
  ASSERT_NE(b, nullptr) << error_;
  const char* fen = "8/8/8/4k3/8/8/8/R3K3[] w - - 0 1";
  sz_game* g = sz_game_new(b, nullptr, fen, error_, sizeof error_);
  ASSERT_NE(g, nullptr) << error_;
  auto state = chaturanga::State(*chaturanga::Position::from_fen(fen, **chaturanga::rule_profile("sittuyin")));
  int counted = 0;
  for (const char* move : {"a1a2", "e5e4", "a2a3", "e4e5", "a3a4"}) {
    ASSERT_EQ(sz_game_apply(g, move, error_, sizeof error_), 0) << move << ": " << error_;
    state.apply(*state.parse_action(move));
    expect_status(g, state);
    sz_status s;
    sz_game_status(g, &s);
    counted += s.counting_limit > 0;
    if (s.counting_limit) {
      EXPECT_EQ(s.counting_limit, 32);  // 16 moves with a rook
      EXPECT_EQ(s.counting_side, 1);
    }
  }
  EXPECT_GT(counted, 0);
  sz_game_free(g);
  sz_bundle_close(b);
}

TEST_F(CApiTest, FormationsAreCheckedPerProfileAndPlacedDropByDrop) {
  sz_bundle* b = sz_bundle_open(bundle_dir().c_str(), error_, sizeof error_);
  ASSERT_NE(b, nullptr) << error_;
  const char* classic = "K@e2 F@d2 S@c2 S@f2 N@b1 N@g1 R@a1 R@h1";
  EXPECT_EQ(sz_bundle_check_formation(b, nullptr, classic, error_, sizeof error_), 0) << error_;
  EXPECT_EQ(sz_bundle_check_formation(b, "sittuyin-plyyard", classic, error_, sizeof error_), -1);
  EXPECT_NE(std::string(error_).find("under sittuyin-plyyard as White"), std::string::npos) << error_;
  EXPECT_EQ(sz_bundle_check_formation(b, nullptr, "K@e2", error_, sizeof error_), -1);
  EXPECT_NE(std::string(error_).find("formation 'K@e2': a formation has 1 met, not 0"), std::string::npos) << error_;
  EXPECT_EQ(sz_bundle_check_formation(b, "shatranj", classic, error_, sizeof error_), -1);
  EXPECT_NE(std::string(error_).find("no rule profile 'shatranj'"), std::string::npos) << error_;

  // Black places the formation (in its own frame) against White's first legal drops.
  sz_game* g = sz_game_new(b, nullptr, nullptr, error_, sizeof error_);
  char moves[SZ_MOVES_BUFFER], move[SZ_MOVE_BUFFER];
  sz_status s;
  while (sz_game_status(g, &s) == 0 && s.placing) {
    if (s.side_to_move == 1) {
      ASSERT_EQ(sz_game_formation_drop(g, classic, move, sizeof move, error_, sizeof error_), 0) << error_;
    } else {
      ASSERT_GT(sz_game_legal_moves(g, moves, sizeof moves), 0);
      std::string first = words(moves).front();
      std::snprintf(move, sizeof move, "%s", first.c_str());
    }
    ASSERT_EQ(sz_game_apply(g, move, error_, sizeof error_), 0) << move << ": " << error_;
  }
  const auto men = games::men_of_fen(sz_game_fen(g));
  ASSERT_TRUE(men) << men.error();
  EXPECT_EQ(games::formation_text((*men)[1].formation), games::formation_text(*games::parse_formation(classic)));
  EXPECT_EQ(sz_game_formation_drop(g, classic, move, sizeof move, error_, sizeof error_), -1);
  EXPECT_STREQ(error_, "the placement is over");
  sz_game_free(g);
  sz_bundle_close(b);
}

}  // namespace
}  // namespace sz
