// The C API (client/sittuyin_client.h) through the shared library: bad bundles, bad moves, bad
// FENs and NULLs give messages, never a crash; a search is reproducible from its seed; the levels
// play; and docs/CLIENTS.md's C program compiles (CMake) and runs.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <sstream>
#include <string>

#include "c_api_fixture.h"
#include "client/sittuyin_client.h"
#include "core/atomic_file.h"
#include "core/rng.h"
#include "games/chaturanga/rule_profiles.h"
#include "games/chaturanga/tables/generator.h"
#include "games/chaturanga/tables/table_dir.h"
#include "games/registry.h"
#include "models/checkpoint.h"
#include "shell_helpers.h"

namespace sz {
namespace {

namespace fs = std::filesystem;

TEST_F(CApiTest, BadBundlesGiveMessagesNotCrashes) {
  EXPECT_EQ(sz_bundle_open(nullptr, error_, sizeof error_), nullptr);
  EXPECT_STREQ(error_, "no bundle folder given");
  EXPECT_EQ(sz_bundle_open((dir_ / "none").string().c_str(), error_, sizeof error_), nullptr);
  EXPECT_NE(std::string(error_).find("none/model.json: cannot open"), std::string::npos) << error_;
  EXPECT_EQ(sz_bundle_open((dir_ / "none").string().c_str(), nullptr, 0), nullptr);  // no error buffer: fine
  char small[8];
  EXPECT_EQ(sz_bundle_open((dir_ / "none").string().c_str(), small, sizeof small), nullptr);
  EXPECT_EQ(std::string(small).size(), 7u);  // cut to the buffer, terminated

  // A truncated and a foreign model.onnx.
  const std::string onnx = bundle_dir() + "/model.onnx";
  write_file_atomically(onnx, test::read_file(onnx).substr(0, 100));
  EXPECT_EQ(sz_bundle_open(bundle_dir().c_str(), error_, sizeof error_), nullptr);
  EXPECT_NE(std::string(error_).find("model.onnx: not a complete ONNX model"), std::string::npos) << error_;
  write_file_atomically(onnx, "\x89PNG\r\n\x1a\n an image");
  EXPECT_EQ(sz_bundle_open(bundle_dir().c_str(), error_, sizeof error_), nullptr);
  EXPECT_NE(std::string(error_).find("model.onnx: not a"), std::string::npos) << error_;

  // A version this runtime does not know, and a missing key, in model.json.
  const std::string json_path = bundle_dir() + "/model.json", json = test::read_file(json_path);
  const auto with = [&](const std::string& from, const std::string& to) {
    std::string text = json;
    EXPECT_TRUE(test::replace_first(text, from, to)) << from;
    write_file_atomically(json_path, text);
  };
  with("\"format_version\": 2,", "\"format_version\": 3,");
  EXPECT_EQ(sz_bundle_open(bundle_dir().c_str(), error_, sizeof error_), nullptr);
  EXPECT_NE(std::string(error_).find("model.json: 'format_version' is 3, but this runtime reads version 2"),
            std::string::npos)
      << error_;
  with("\"game\": \"sittuyin\",\n", "");
  EXPECT_EQ(sz_bundle_open(bundle_dir().c_str(), error_, sizeof error_), nullptr);
  EXPECT_NE(std::string(error_).find("model.json: missing key 'game'"), std::string::npos) << error_;

  // NULLs everywhere are refused quietly.
  EXPECT_EQ(sz_bundle_profile_count(nullptr), 0);
  EXPECT_EQ(sz_bundle_profile(nullptr, 0), nullptr);
  EXPECT_EQ(sz_game_new(nullptr, nullptr, nullptr, error_, sizeof error_), nullptr);
  EXPECT_EQ(sz_game_apply(nullptr, "a1a2", error_, sizeof error_), -1);
  EXPECT_EQ(sz_game_search(nullptr, 8, 0, 1, nullptr, 0, error_, sizeof error_), -1);
  EXPECT_EQ(sz_game_fen(nullptr), nullptr);
  sz_bundle_close(nullptr);
  sz_game_free(nullptr);
}

TEST_F(CApiTest, PlaysTheRulesAndNamesBadMovesAndFens) {
  sz_bundle* b = sz_bundle_open(bundle_dir().c_str(), error_, sizeof error_);
  ASSERT_NE(b, nullptr) << error_;
  EXPECT_EQ(sz_api_version(), SZ_CLIENT_API_VERSION);
  ASSERT_EQ(sz_bundle_profile_count(b), 2);
  EXPECT_STREQ(sz_bundle_profile(b, 0), "sittuyin");
  EXPECT_STREQ(sz_bundle_profile(b, 1), "sittuyin-plyyard");
  EXPECT_EQ(sz_game_new(b, "shatranj", nullptr, error_, sizeof error_), nullptr);
  EXPECT_STREQ(error_, "the bundle has no rule profile 'shatranj' (it has: sittuyin, sittuyin-plyyard)");
  EXPECT_EQ(sz_game_new(b, nullptr, "not a fen", error_, sizeof error_), nullptr);
  EXPECT_NE(std::string(error_).find("FEN 'not a fen'"), std::string::npos) << error_;

  sz_game* g = sz_game_new(b, "sittuyin-plyyard", nullptr, error_, sizeof error_);
  ASSERT_NE(g, nullptr) << error_;
  const std::string start = sz_game_fen(g);
  auto state = std::move(games::new_game("sittuyin-plyyard")).take_or_throw();
  EXPECT_EQ(start, state->to_string());
  char moves[SZ_MOVES_BUFFER];
  game::ActionId legal[game::kMaxActions];
  EXPECT_EQ(sz_game_legal_moves(g, moves, sizeof moves), state->legal_actions(legal));
  EXPECT_EQ(sz_game_legal_moves(g, moves, 4), -1);  // too small
  EXPECT_EQ(sz_game_apply(g, "a1a9", error_, sizeof error_), -1);
  EXPECT_NE(std::string(error_).find("move 'a1a9'"), std::string::npos) << error_;
  EXPECT_EQ(sz_game_fen(g), start);  // nothing changed
  const std::string first = std::string(moves).substr(0, std::string(moves).find(' '));
  EXPECT_EQ(sz_game_apply(g, first.c_str(), error_, sizeof error_), 0) << error_;
  state->apply(*state->parse_action(first));
  EXPECT_EQ(sz_game_fen(g), state->to_string());
  EXPECT_EQ(sz_game_side_to_move(g), state->to_move() == game::Player::Second ? 1 : 0);
  const char* reason = nullptr;
  EXPECT_EQ(sz_game_result(g, &reason), SZ_ONGOING);
  EXPECT_STREQ(reason, "none");

  // A whole random game, move by move beside the rules core: the same positions, the same end
  // and reason.
  Rng rng(5);
  while (sz_game_result(g, &reason) == SZ_ONGOING) {
    const int n = state->legal_actions(legal);
    ASSERT_EQ(sz_game_legal_moves(g, moves, sizeof moves), n);
    const std::string move = state->action_to_string(legal[rng.below(uint32_t(n))]);
    ASSERT_EQ(sz_game_apply(g, move.c_str(), error_, sizeof error_), 0) << error_;
    state->apply(*state->parse_action(move));
    ASSERT_EQ(sz_game_fen(g), state->to_string());
  }
  const game::Outcome end = state->outcome();
  ASSERT_TRUE(end.over());
  EXPECT_EQ(reason, std::string(end.reason));
  EXPECT_EQ(int(sz_game_result(g, nullptr)), int(end.result));  // the enums agree
  EXPECT_EQ(sz_game_legal_moves(g, moves, sizeof moves), 0);
  EXPECT_EQ(sz_game_apply(g, "a1a2", error_, sizeof error_), -1);
  EXPECT_STREQ(error_, "move 'a1a2': the game is over");
  char move[SZ_MOVE_BUFFER];
  EXPECT_EQ(sz_game_search(g, 4, 0, 1, move, sizeof move, error_, sizeof error_), -1);
  EXPECT_NE(std::string(error_).find("the game is over"), std::string::npos) << error_;
  sz_game_free(g);
  sz_bundle_close(b);
}

TEST_F(CApiTest, SearchesAreReproducibleAndLevelsPlay) {
  sz_bundle* b = sz_bundle_open(bundle_dir().c_str(), error_, sizeof error_);
  ASSERT_NE(b, nullptr) << error_;
  ASSERT_EQ(sz_bundle_level_count(b), 3);
  sz_level level;
  ASSERT_EQ(sz_bundle_level(b, 2, &level), 0);
  EXPECT_EQ(level.level, 3);
  EXPECT_STREQ(level.player, "model");
  EXPECT_EQ(level.simulations, 16);
  EXPECT_DOUBLE_EQ(level.elo, 200.0);
  EXPECT_EQ(sz_bundle_level(b, 3, &level), -1);

  sz_game* g = sz_game_new(b, nullptr, nullptr, error_, sizeof error_);
  ASSERT_NE(g, nullptr) << error_;
  char moves[SZ_MOVES_BUFFER];
  for (int ply = 0; ply < 40; ++ply) {  // through placement into play
    ASSERT_GT(sz_game_legal_moves(g, moves, sizeof moves), 0);
    std::set<std::string> legal;
    std::istringstream words(moves);
    for (std::string w; words >> w;) legal.insert(w);
    char a[SZ_MOVE_BUFFER], c[SZ_MOVE_BUFFER];
    ASSERT_EQ(sz_game_search(g, 12, 1.0f, uint64_t(ply), a, sizeof a, error_, sizeof error_), 0) << error_;
    ASSERT_EQ(sz_game_search(g, 12, 1.0f, uint64_t(ply), c, sizeof c, error_, sizeof error_), 0) << error_;
    EXPECT_STREQ(a, c);  // the same seed, the same move
    EXPECT_TRUE(legal.count(a)) << a;
    const int lvl = 1 + ply % 3;
    ASSERT_EQ(sz_game_best_move(g, lvl, uint64_t(ply), c, sizeof c, error_, sizeof error_), 0) << error_;
    EXPECT_TRUE(legal.count(c)) << "level " << lvl << ": " << c;
    sz_evaluation e;
    ASSERT_EQ(sz_game_evaluate(g, &e, error_, sizeof error_), 0) << error_;
    EXPECT_NEAR(e.win + e.draw + e.loss, 1.0f, 1e-5f);
    EXPECT_GE(e.moves_left, 0.0f);
    ASSERT_EQ(sz_game_apply(g, a, error_, sizeof error_), 0) << error_;
    if (sz_game_result(g, nullptr) != SZ_ONGOING) break;
  }
  char move[4];
  EXPECT_EQ(sz_game_best_move(g, 9, 1, move, sizeof move, error_, sizeof error_), -1);
  EXPECT_STREQ(error_, "the bundle has no level 9 (it has 3; export with --levels)");
  EXPECT_EQ(sz_game_search(g, 0, 0, 1, move, sizeof move, error_, sizeof error_), -1);
  EXPECT_STREQ(error_, "simulations must be in 1..16777216");
  sz_game_free(g);
  sz_bundle_close(b);
}

TEST_F(CApiTest, TheDocumentedCProgramRuns) {
  const test::CommandRun run = test::run_shell(std::string(SZ_CLIENTS_EXAMPLE) + " " + bundle_dir());
  const std::string& output = run.output;
  EXPECT_EQ(run.status, 0) << output;
  EXPECT_NE(output.find("profiles: sittuyin sittuyin-plyyard"), std::string::npos) << output;
  EXPECT_NE(output.find("level 3: net-16 (model, 16 simulations), 200 Elo"), std::string::npos) << output;
  EXPECT_NE(output.find("refused: move 'a1a9'"), std::string::npos) << output;
  EXPECT_NE(output.find("fen: "), std::string::npos) << output;
  EXPECT_NE(output.find("legal moves"), std::string::npos) << output;
}

// A bundle exported with --tables plays the tables' best moves, through the C API and through
// sittuyin-client (`go` answered at once, with an info line); a damaged table refuses the bundle.
TEST_F(CApiTest, EndgameTablesInTheBundlePlayPerfectly) {
  using namespace chaturanga;
  const std::string tables_dir = (dir_ / "tables").string();
  tables::BuildRequest request;
  for (const char* p : {"sittuyin", "sittuyin-plyyard"}) request.profiles.push_back(*rule_profile(p));
  request.materials = tables::all_materials(Game::Sittuyin, 3);
  request.out = tables_dir;
  tables::build_tables(request, [](const std::string&) {});
  bundle::ExportSpec spec{
      (dir_ / "net.ckpt").string(), {"sittuyin"}, bundle_dir(), (dir_ / "levels.yaml").string(), {}};
  spec.tables = tables_dir;
  EXPECT_EQ(bundle::export_bundle(spec).tables, 4);  // KRvK, KSvK, KNvK, KFvK of sittuyin's rules

  sz_bundle* b = sz_bundle_open(bundle_dir().c_str(), error_, sizeof error_);
  ASSERT_NE(b, nullptr) << error_;
  const char* krk = "8/8/8/4k3/8/8/8/R3K3[] w - - 0 1";  // mate in 14: 27 plies
  sz_game* g = sz_game_new(b, nullptr, krk, error_, sizeof error_);
  ASSERT_NE(g, nullptr) << error_;
  sz_table_value value;
  ASSERT_EQ(sz_game_probe_tables(g, &value), 1);
  EXPECT_EQ(value.verdict, 1);
  EXPECT_EQ(value.plies_to_end, 27);
  EXPECT_EQ(value.exact, 1);
  char move[SZ_MOVE_BUFFER];
  ASSERT_EQ(sz_game_best_move(g, 2, 1, move, sizeof move, error_, sizeof error_), 0) << error_;  // uniform MCTS
  ASSERT_EQ(sz_game_apply(g, move, error_, sizeof error_), 0) << error_;
  ASSERT_EQ(sz_game_probe_tables(g, &value), 1);
  EXPECT_EQ(value.verdict, -1);
  EXPECT_EQ(value.plies_to_end, 26) << move;  // the fastest mate kept
  sz_game* start = sz_game_new(b, nullptr, nullptr, error_, sizeof error_);
  EXPECT_EQ(sz_game_probe_tables(start, &value), 0);
  sz_game_free(start);
  sz_game_free(g);
  sz_bundle_close(b);

  const test::CommandRun run = test::run_shell("printf 'uci\\nposition fen " + std::string(krk) +
                                               "\\ngo nodes 8\\nquit\\n' | " + SZ_CLIENT_BINARY + " " + bundle_dir());
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("info depth 1 score mate 14 nodes 0 pv "), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("string endgame tables: 27 plies to the end"), std::string::npos) << run.output;
  EXPECT_TRUE(run.output.find("bestmove e1e2") != std::string::npos ||
              run.output.find("bestmove a1a5") != std::string::npos)
      << run.output;

  const std::string table =
      bundle_dir() + "/tables/" + tables::rules_folder(tables::ending_rules(**rule_profile("sittuyin"))) + "/KRvK.szt";
  std::string bytes = test::read_file(table);
  bytes[bytes.size() / 2] ^= 0x40;
  write_file_atomically(table, bytes);
  EXPECT_EQ(sz_bundle_open(bundle_dir().c_str(), error_, sizeof error_), nullptr);
  EXPECT_NE(std::string(error_).find("KRvK.szt: damaged"), std::string::npos) << error_;
}

}  // namespace
}  // namespace sz
