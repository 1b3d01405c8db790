// Random damage anywhere in a shard (metadata, chunk indexes, data, strings) is reported as an
// sz::Error or does not change what is read: never a crash, a hang or silently different data.
// This is why shards use the checksummed HDF5 1.10 format, Fletcher-32 on every chunk and no
// variable-length strings (see docs/DATA.md).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

#include "core/error.h"
#include "data/shard_reader.h"
#include "data/shard_writer.h"
#include "test_games.h"

namespace sz::data {
namespace {

struct Contents {
  ShardInfo info;
  std::vector<GameInfo> games;
  PositionColumns positions;
};

Contents read_all(const std::string& path) {
  const ShardReader reader = ShardReader::open(path);
  return {reader.info(), reader.read_games(), reader.read_positions()};
}

void expect_same(const Contents& a, const Contents& b, int trial) {
  SCOPED_TRACE("trial " + std::to_string(trial));
  EXPECT_EQ(a.info.profiles, b.info.profiles);
  EXPECT_EQ(a.info.writer, b.info.writer);
  EXPECT_EQ(a.info.spec.game, b.info.spec.game);
  ASSERT_EQ(a.games.size(), b.games.size());
  for (size_t g = 0; g < a.games.size(); ++g) {
    test::expect_same_meta(a.games[g], b.games[g]);
    EXPECT_EQ(a.games[g].first_position, b.games[g].first_position);
  }
  test::expect_same_positions(a.positions, b.positions);
}

TEST(ShardFlips, DamageIsAnErrorNeverACrashOrGarbage) {
  test::TempDir dir;
  std::string shard;
  {
    ShardWriter writer(dir.str(), "w", test::test_spec());
    for (int i = 0; i < 40; ++i) writer.add_game(test::make_game(i));
    shard = writer.close();
  }
  const Contents original = read_all(shard);
  std::ifstream in(shard, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string damaged = dir.file("damaged.h5");
  std::mt19937 rng(/*seed=*/20240601);
  int refused = 0;
  constexpr int kTrials = 300;
  for (int trial = 0; trial < kTrials; ++trial) {
    std::string copy = bytes;
    for (int flips = 1 + int(rng() % 4); flips > 0; --flips) copy[rng() % copy.size()] ^= char(1 + rng() % 255);
    std::ofstream(damaged, std::ios::binary | std::ios::trunc) << copy;
    try {
      expect_same(read_all(damaged), original, trial);
    } catch (const Error& e) {
      ++refused;
      EXPECT_NE(std::string(e.what()).find(damaged), std::string::npos) << e.what();
    }
  }
  EXPECT_GT(refused, kTrials / 2);
}

}  // namespace
}  // namespace sz::data
