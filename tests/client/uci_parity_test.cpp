// Move parity: `sittuyin-client BUNDLE` (the Eigen forward pass, the bundle's search settings)
// and `sittuyin-zero uci` with the checkpoint the bundle was exported from (LibTorch, the
// quickstart's search settings, which `export` wrote into the bundle) choose the same move at
// every ply of whole games at equal visits: both run the same UCI engine (src/uci) and seed it the
// same way, and their evaluations agree within 1e-4 (parity_test.cpp). The test plays the two
// programs over pipes, as cutechess-cli would.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "eval/uci_process.h"
#include "games/registry.h"
#include "models/checkpoint.h"
#include "test_paths.h"

namespace sz {
namespace {

namespace fs = std::filesystem;

struct Answer {
  std::string move;
  int wdl[3] = {0, 0, 0};  // of the last info line, permille
};

Answer bestmove(eval::UciProcess& engine, const std::string& position, int nodes) {
  engine.send(position);
  engine.send("go nodes " + std::to_string(nodes));
  Answer a;
  for (;;) {
    const std::string line = engine.read_line(60.0);
    if (const size_t at = line.find(" wdl "); line.rfind("info ", 0) == 0 && at != std::string::npos)
      std::sscanf(line.c_str() + at, " wdl %d %d %d", &a.wdl[0], &a.wdl[1], &a.wdl[2]);
    if (line.rfind("bestmove ", 0) == 0) {
      const size_t end = line.find(' ', 9);
      a.move = line.substr(9, end == std::string::npos ? std::string::npos : end - 9);
      return a;
    }
  }
}

TEST(UciParity, SittuyinClientAndSittuyinZeroUciChooseTheSameMoves) {
  const fs::path dir = fs::temp_directory_path() / ("sz-uci-parity-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string checkpoint = (dir / "net.ckpt").string(), bundle = (dir / "bundle").string();
  torch::manual_seed(21);
  models::Network net(
      net::Architecture{net::load_net_config("tiny").take_or_throw(), games::spec_for("sittuyin").take_or_throw()});
  net->eval();
  models::CheckpointMeta meta;
  meta.profiles = {"sittuyin"};
  models::save_checkpoint(checkpoint, net, nullptr, "", meta);
  ASSERT_EQ(
      std::system((test::binary() + " export --model " + checkpoint + " --out " + bundle + " > /dev/null").c_str()), 0);

  eval::UciProcess zero(test::binary() + " uci", "sittuyin-zero uci");
  eval::UciProcess client(std::string(SZ_CLIENT_BINARY) + " " + bundle, "sittuyin-client");
  for (eval::UciProcess* e : {&zero, &client}) {
    e->send("uci");
    e->wait_for("uciok", 30.0);
  }
  zero.send("setoption name Model value " + checkpoint);
  int plies = 0, games = 0, decided_by_network = 0;
  for (int game = 0; game < 2; ++game, ++games) {
    for (eval::UciProcess* e : {&zero, &client}) {
      e->send("ucinewgame");
      e->send("isready");
      e->wait_for("readyok", 30.0);
    }
    auto state = std::move(games::new_game("sittuyin")).take_or_throw();
    std::string position = "position startpos moves";
    for (int ply = 0; ply < 120 && !state->outcome().over(); ++ply, ++plies) {
      const int nodes = 24 + 8 * game;
      const Answer za = bestmove(zero, position, nodes);
      const Answer ca = bestmove(client, position, nodes);
      ASSERT_EQ(za.move, ca.move) << "game " << game << " ply " << ply << ": " << position;
      for (int k = 0; k < 3; ++k) EXPECT_NEAR(za.wdl[k], ca.wdl[k], 1) << "ply " << ply;  // rounding to permille
      // The network, not a uniform stand-in, evaluated: a uniform evaluator's value is a draw.
      decided_by_network += za.wdl[1] != 1000;
      const std::string a = za.move;
      const auto action = state->parse_action(a);
      ASSERT_TRUE(action) << a << ": " << action.error();
      state->apply(*action);
      position += " " + a;
    }
  }
  EXPECT_GT(plies, 100);
  EXPECT_GT(decided_by_network, plies / 2);  // placement and play, over whole games or 120 plies each
  std::error_code ec;
  fs::remove_all(dir, ec);
}

}  // namespace
}  // namespace sz
