// Move parity: `sittuyin-client BUNDLE` (the Eigen forward pass, the bundle's search settings)
// and `sittuyin-zero uci --runtime libtorch` with the checkpoint the bundle was exported from
// (LibTorch, the quickstart's search settings, which `export` wrote into the bundle) choose the same move at
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
#include "shell_helpers.h"
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

// A fresh folder with a tiny network's checkpoint, net.ckpt; removed with the fixture.
struct TinyCheckpoint {
  fs::path dir;
  std::string checkpoint;
  explicit TinyCheckpoint(const std::string& name)
      : dir(fs::temp_directory_path() / (name + "-" + std::to_string(::getpid()))) {
    fs::remove_all(dir);
    fs::create_directories(dir);
    checkpoint = (dir / "net.ckpt").string();
    torch::manual_seed(21);
    models::Network net(
        net::Architecture{net::load_net_config("tiny").take_or_throw(), games::spec_for("sittuyin").take_or_throw()});
    net->eval();
    models::CheckpointMeta meta;
    meta.profiles = {"sittuyin"};
    models::save_checkpoint(checkpoint, net, nullptr, "", meta);
  }
  ~TinyCheckpoint() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

TEST(UciParity, SittuyinClientAndSittuyinZeroUciChooseTheSameMoves) {
  const TinyCheckpoint tiny("sz-uci-parity");
  const fs::path& dir = tiny.dir;
  const std::string& checkpoint = tiny.checkpoint;
  const std::string bundle = (dir / "bundle").string();
  ASSERT_EQ(
      std::system((test::binary() + " export --model " + checkpoint + " --out " + bundle + " > /dev/null").c_str()), 0);

  eval::UciProcess zero(test::binary() + " uci --runtime libtorch", "sittuyin-zero uci");
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
}

// `uci` runs its Model on the clients' Eigen forward pass where LibTorch would run float32 on one
// CPU thread (--runtime auto, the default), on LibTorch with more Threads or when asked, and both
// choose the same moves.
TEST(UciRuntime, EigenByDefaultOnOneCpuThreadLibTorchOtherwiseTheSameMoves) {
  const TinyCheckpoint tiny("sz-uci-runtime");
  const auto loads = [&](const std::string& flags, const std::string& commands) {
    return test::run_shell("printf 'uci\\nsetoption name Model value " + tiny.checkpoint + "\\n" + commands +
                           "isready\\nquit\\n' | timeout 60 " + test::binary() + " uci" + flags);
  };
  const std::string eigen = "runs on the Eigen forward pass", libtorch = "runs on LibTorch";
  const test::CommandRun automatic = loads("", "setoption name Threads value 2\\n");
  ASSERT_EQ(automatic.status, 0) << automatic.output;
  const size_t at_eigen = automatic.output.find(eigen), at_libtorch = automatic.output.find(libtorch);
  ASSERT_NE(at_eigen, std::string::npos) << automatic.output;
  ASSERT_NE(at_libtorch, std::string::npos) << automatic.output;
  EXPECT_LT(at_eigen, at_libtorch) << "Threads 1 first, then 2: " << automatic.output;

  const test::CommandRun torch_asked = loads(" --runtime libtorch", "");
  EXPECT_NE(torch_asked.output.find(libtorch), std::string::npos) << torch_asked.output;
  EXPECT_EQ(torch_asked.output.find(eigen), std::string::npos) << torch_asked.output;
  const test::CommandRun eigen_asked = loads(" --runtime eigen", "setoption name Threads value 2\\n");
  EXPECT_EQ(eigen_asked.output.find(libtorch), std::string::npos) << eigen_asked.output;

  const test::CommandRun bad = loads(" --runtime onnx", "");
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.output.find("--runtime"), std::string::npos) << bad.output;
  EXPECT_NE(bad.output.find("'onnx'"), std::string::npos) << bad.output;

  eval::UciProcess by_default(test::binary() + " uci", "uci (auto)");
  eval::UciProcess by_torch(test::binary() + " uci --runtime libtorch", "uci --runtime libtorch");
  for (eval::UciProcess* e : {&by_default, &by_torch}) {
    e->send("uci");
    e->wait_for("uciok", 30.0);
    e->send("setoption name Model value " + tiny.checkpoint);
    e->send("isready");
    e->wait_for("readyok", 30.0);
  }
  auto state = std::move(games::new_game("sittuyin")).take_or_throw();
  std::string position = "position startpos moves";
  int plies = 0;
  for (; plies < 60 && !state->outcome().over(); ++plies) {
    const Answer a = bestmove(by_default, position, 32), b = bestmove(by_torch, position, 32);
    ASSERT_EQ(a.move, b.move) << "ply " << plies << ": " << position;
    const auto action = state->parse_action(a.move);
    ASSERT_TRUE(action) << a.move << ": " << action.error();
    state->apply(*action);
    position += " " + a.move;
  }
  EXPECT_EQ(plies, 60);
}

}  // namespace
}  // namespace sz
