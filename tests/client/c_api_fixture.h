#pragma once
// The C API tests' fixture (c_api_test.cpp, c_api_view_test.cpp): a bundle exported from a tiny
// random network with three levels (random, uniform MCTS, the network), under sittuyin and
// sittuyin-plyyard, in a fresh folder per test.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "bundle/export_bundle.h"
#include "core/atomic_file.h"
#include "games/registry.h"
#include "models/checkpoint.h"

namespace sz {

inline constexpr const char* kManifest = R"(format: sittuyin-zero levels
version: 1
run: "test"
profile: sittuyin
levels:
  - level: 1
    name: "random"
    elo: 0.0
    elo_lower: -20.0
    elo_upper: 20.0
    player: random
    checkpoint: ""
    simulations: 0
    temperature: 0.00
  - level: 2
    name: "uniform-8"
    elo: 100.0
    elo_lower: 80.0
    elo_upper: 120.0
    player: uniform-mcts
    checkpoint: ""
    simulations: 8
    temperature: 0.50
  - level: 3
    name: "net-16"
    elo: 200.0
    elo_lower: 170.0
    elo_upper: 230.0
    player: model
    checkpoint: "CHECKPOINT"
    simulations: 16
    temperature: 0.00
)";

class CApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() / ("sz-capi-" + std::to_string(::getpid()) + "-" + info->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    const std::string checkpoint = (dir_ / "net.ckpt").string();
    models::CheckpointMeta meta;
    meta.profiles = {"sittuyin"};
    torch::manual_seed(9);
    net::Architecture arch{net::load_net_config("tiny").take_or_throw(), games::spec_for("sittuyin").take_or_throw()};
    models::Network net(arch);
    net->eval();
    models::save_checkpoint(checkpoint, net, nullptr, "", meta);
    std::string manifest = kManifest;
    manifest.replace(manifest.find("CHECKPOINT"), 10, checkpoint);
    write_file_atomically((dir_ / "levels.yaml").string(), manifest);
    bundle::export_bundle(
        {checkpoint, {"sittuyin", "sittuyin-plyyard"}, bundle_dir(), (dir_ / "levels.yaml").string(), {}});
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  std::string bundle_dir() const { return (dir_ / "bundle").string(); }

  std::filesystem::path dir_;
  char error_[512] = {};
};

}  // namespace sz
