#pragma once
// Synthetic game records for the data tests: deterministic in the game index, with every field
// different from game to game and position to position, so that a round trip that mixed up
// rows or columns would show.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "data/records.h"

namespace sz::data::test {

inline game::GameSpec test_spec() {
  game::GameSpec spec;
  spec.game = "sittuyin";
  spec.binary_planes = 12;
  spec.scalar_features = 32;
  spec.action_space = 2212;
  spec.encoder_version = 1;
  spec.action_space_version = 1;
  return spec;
}

inline uint64_t mix(uint64_t x) {  // splitmix64
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

inline int positions_in_game(int index) { return 3 + (index * 7) % 23; }

// Game `index`: a few positions with sparse planes, varied scalars and 0-8 policy entries.
inline GameRecord make_game(int index, const game::GameSpec& spec = test_spec()) {
  GameRecord g;
  g.meta.profile = index % 3 == 0 ? "sittuyin-plyyard" : "sittuyin";
  g.meta.result = int8_t(index % 3 - 1);
  g.meta.end_reason = index % 2 ? "checkmate" : "n-move";
  g.meta.start_fen = "fen of game " + std::to_string(index);
  g.meta.moves = "R@a1 K@b2 e3e4 d5d4 #" + std::to_string(index);
  g.meta.model_id = index % 4 ? "model-" + std::to_string(index / 4) : "";
  g.meta.seed = 0xF00D000000000000ull + uint64_t(index);
  g.positions = PositionColumns(spec.binary_planes, spec.scalar_features);
  const int n = positions_in_game(index);
  std::vector<uint64_t> planes(size_t(spec.binary_planes));
  std::vector<float> scalars(size_t(spec.scalar_features));
  std::vector<PolicyEntry> policy;
  for (int j = 0; j < n; ++j) {
    const uint64_t key = uint64_t(index) * 1000 + uint64_t(j);
    for (size_t k = 0; k < planes.size(); ++k) planes[k] = mix(key * 64 + k) & mix(key * 64 + k + 32);
    for (size_t k = 0; k < scalars.size(); ++k) scalars[k] = float(k % 5) * 0.25f + float(j) * 0.001f;
    policy.clear();
    const int m = (index + 3 * j) % 9;
    for (int e = 0; e < m; ++e) {
      policy.push_back({game::ActionId((index * 31 + j * 17 + e * 101) % spec.action_space), float(e + 1) / 45.0f});
    }
    PositionRow row;
    row.planes = planes;
    row.scalars = scalars;
    row.policy = policy;
    row.result = int8_t((j + index) % 3 - 1);
    row.action = game::ActionId((index * 13 + j * 7) % spec.action_space);
    row.phase = j < 2 ? game::Phase::Placement : game::Phase::Play;
    row.ply = j;
    row.full_search = j % 3 != 0;
    row.plies_to_end = n - j;
    const float w = float((index + j) % 5) * 0.2f;
    row.search_wdl = {w, (1 - w) * 0.5f, (1 - w) * 0.5f};
    row.has_search_value = j % 4 != 1;
    row.policy_target = row.full_search && m > 0;
    row.legal_count = row.policy_target ? m : m + j % 2;
    row.material = float(j % 7) - 3.0f;
    g.positions.append(row);
  }
  return g;
}

inline void expect_same_positions(const PositionColumns& a, const PositionColumns& b) {
  EXPECT_EQ(a.binary_planes, b.binary_planes);
  EXPECT_EQ(a.scalar_features, b.scalar_features);
  EXPECT_EQ(a.planes, b.planes);
  EXPECT_EQ(a.scalars, b.scalars);
  EXPECT_EQ(a.policy_start, b.policy_start);
  EXPECT_EQ(a.policy_count, b.policy_count);
  EXPECT_EQ(a.policy_action, b.policy_action);
  EXPECT_EQ(a.policy_prob, b.policy_prob);
  EXPECT_EQ(a.result, b.result);
  EXPECT_EQ(a.action, b.action);
  EXPECT_EQ(a.phase, b.phase);
  EXPECT_EQ(a.ply, b.ply);
  EXPECT_EQ(a.full_search, b.full_search);
  EXPECT_EQ(a.plies_to_end, b.plies_to_end);
  EXPECT_EQ(a.search_wdl, b.search_wdl);
  EXPECT_EQ(a.has_search_value, b.has_search_value);
  EXPECT_EQ(a.policy_target, b.policy_target);
  EXPECT_EQ(a.legal_count, b.legal_count);
  EXPECT_EQ(a.material, b.material);
}

inline void expect_same_meta(const GameMeta& a, const GameMeta& b) {
  EXPECT_EQ(a.profile, b.profile);
  EXPECT_EQ(a.result, b.result);
  EXPECT_EQ(a.end_reason, b.end_reason);
  EXPECT_EQ(a.start_fen, b.start_fen);
  EXPECT_EQ(a.moves, b.moves);
  EXPECT_EQ(a.model_id, b.model_id);
  EXPECT_EQ(a.seed, b.seed);
}

// A fresh, empty directory under the system's temporary directory, removed at destruction.
class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::temp_directory_path() /
            ("sz-data-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + "-" +
             (info ? std::string(info->name()) : "x"));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string str() const { return path_.string(); }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

// The names of the files in `dir`, sorted.
inline std::vector<std::string> file_names(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace sz::data::test
