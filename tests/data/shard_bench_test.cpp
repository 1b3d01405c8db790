// Write and read speed of shards, and bytes per position on disk, with positions of real
// Sittuyin games (random playouts, encoded by the game) and search-like sparse policies.
// Prints its measurements; asserts only that what was written reads back.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>

#include "data/shard_reader.h"
#include "data/shard_writer.h"
#include "games/registry.h"
#include "test_games.h"

namespace sz::data {
namespace {

using Clock = std::chrono::steady_clock;

// A random game under `profile`: every position encoded, a full search (playout-cap
// randomisation) on a quarter of the moves, and a policy over up to 24 random legal moves on
// those, or on every move with `policy_everywhere`.
GameRecord random_game(const std::string& profile, uint64_t seed, bool policy_everywhere) {
  auto state = std::move(games::new_game(profile)).take_or_throw("bench");
  const game::GameSpec spec = state->spec();
  std::mt19937_64 rng(seed);
  GameRecord rec;
  rec.meta = {profile, 0, "", state->to_string(), "", "bench-model", seed};
  rec.positions = PositionColumns(spec.binary_planes, spec.scalar_features);
  std::vector<uint64_t> planes(size_t(spec.binary_planes));
  std::vector<float> scalars(size_t(spec.scalar_features));
  std::vector<game::ActionId> legal(game::kMaxActions);
  std::vector<PolicyEntry> policy;
  std::vector<game::Player> mover;
  while (!state->outcome().over() && state->ply() < 400) {
    const int n = state->legal_actions(legal);
    std::shuffle(legal.begin(), legal.begin() + n, rng);
    const bool full = rng() % 4 == 0;
    policy.clear();
    const int k = full || policy_everywhere ? std::min(n, 24) : 0;
    for (int i = 0; i < k; ++i) policy.push_back({legal[size_t(i)], float(1 + rng() % 50) / 600.0f});
    state->encode({planes, scalars});
    PositionRow row{planes, scalars, policy, 0, legal[0], state->phase(), state->ply(), full, 0};
    rec.positions.append(row);
    mover.push_back(state->to_move());
    rec.meta.moves += (rec.meta.moves.empty() ? "" : " ") + state->action_to_string(legal[0]);
    state->apply(legal[0]);
  }
  const game::Outcome end = state->outcome();
  rec.meta.end_reason = end.over() ? std::string(end.reason) : "max-plies";
  rec.meta.result = end.result == game::GameResult::FirstWins ? 1 : end.result == game::GameResult::SecondWins ? -1 : 0;
  const int64_t plies = rec.positions.size();
  for (int64_t i = 0; i < plies; ++i) {
    const int white = mover[size_t(i)] == game::Player::First ? 1 : -1;
    rec.positions.result[size_t(i)] = int8_t(rec.meta.result * white);
    rec.positions.plies_to_end[size_t(i)] = int32_t(plies - i);
  }
  return rec;
}

void bench(bool policy_everywhere) {
  std::vector<GameRecord> games;
  int64_t positions = 0;
  for (uint64_t seed = 1; seed <= 150; ++seed) {
    games.push_back(random_game(seed % 3 ? "sittuyin" : "sittuyin-plyyard", seed, policy_everywhere));
    positions += games.back().positions.size();
  }
  const game::GameSpec spec = std::move(games::spec_for("sittuyin")).take_or_throw("bench");
  test::TempDir dir;
  constexpr int kRounds = 8;  // the same games again, as more shards
  const auto t0 = Clock::now();
  {
    ShardWriter writer(dir.str(), "bench", spec, {.games_per_shard = 300, .seconds_per_shard = 0});
    for (int r = 0; r < kRounds; ++r) {
      for (const GameRecord& g : games) writer.add_game(g);
    }
    writer.close();
  }
  const double write_s = std::chrono::duration<double>(Clock::now() - t0).count();
  int64_t bytes = 0, read_positions = 0;
  const auto t1 = Clock::now();
  for (const std::string& path : list_shards(dir.str())) {
    bytes += int64_t(std::filesystem::file_size(path));
    read_positions += ShardReader::open(path).read_positions().size();
  }
  const double read_s = std::chrono::duration<double>(Clock::now() - t1).count();
  ASSERT_EQ(read_positions, positions * kRounds);
  std::printf(
      "policy %s: %lld positions (%lld games, %.0f plies/game) written in %.2f s: %.0f positions/s, "
      "%.1f bytes/position; read back at %.0f positions/s\n",
      policy_everywhere ? "on every move" : "on full searches (1/4)", static_cast<long long>(read_positions),
      static_cast<long long>(games.size() * kRounds), double(positions) / double(games.size()), write_s,
      double(read_positions) / write_s, double(bytes) / double(read_positions), double(read_positions) / read_s);
}

TEST(ShardBench, PolicyOnFullSearches) { bench(/*policy_everywhere=*/false); }
TEST(ShardBench, PolicyOnEveryMove) { bench(/*policy_everywhere=*/true); }

}  // namespace
}  // namespace sz::data
