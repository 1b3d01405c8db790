// The trainer's view of the data: the window's size, which shards it takes, deterministic
// sampling, and shards that are damaged, of an unknown schema version or of another encoding.
//
// One test edits a shard's schema-version attribute with the HDF5 C API (as tests/data does) to
// make a file no writer of this build would write.
#include "train/window.h"

#include <gtest/gtest.h>
#include <hdf5.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "core/error.h"
#include "data/schema.h"
#include "data/shard_reader.h"
#include "train/schedule.h"
#include "train/shard_catalog.h"
#include "train_fixtures.h"

namespace sz::train {
namespace {

namespace fs = std::filesystem;
using test::TempDir;
using test::write_shards;

struct Warnings {
  std::vector<std::string> lines;
  WarningSink sink() {
    return [this](const std::string& s) { lines.push_back(s); };
  }
};

TEST(WindowSize, FloorGrowthAndCap) {
  TrainConfig c;
  c.window_floor = 1000;
  c.window_cap = 50'000;
  c.window_scale = 10;
  c.window_exponent = 0.5;
  EXPECT_EQ(window_size(c, 0), 0);
  EXPECT_EQ(window_size(c, 500), 500);             // never more than the data
  EXPECT_EQ(window_size(c, 5'000), 1'000);         // the floor: 10 * sqrt(5000) = 707
  EXPECT_EQ(window_size(c, 1'000'000), 10'000);    // 10 * sqrt(1e6)
  EXPECT_EQ(window_size(c, 100'000'000), 50'000);  // the cap
  // It grows with the data, but more slowly than the data.
  EXPECT_LT(window_size(c, 4'000'000), 2 * window_size(c, 1'000'000) + 1);
  EXPECT_GT(window_size(c, 4'000'000), window_size(c, 1'000'000));
}

TEST(Sampling, DependsOnlyOnSeedAndStep) {
  std::vector<int64_t> a, b, c, d;
  const Sampling uniform;
  sample_rows(5, 17, 256, 1000, uniform, a);
  sample_rows(5, 17, 256, 1000, uniform, b);
  sample_rows(5, 18, 256, 1000, uniform, c);
  sample_rows(6, 17, 256, 1000, uniform, d);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_NE(a, d);
  for (int64_t r : a) EXPECT_TRUE(r >= 0 && r < 1000) << r;
  // Uniform: each tenth of the window gets about a tenth of 20000 draws.
  std::vector<int> buckets(10);
  for (int step = 0; step < 100; ++step) {
    sample_rows(5, step, 200, 1000, uniform, a);
    for (int64_t r : a) ++buckets[size_t(r / 100)];
  }
  for (int n : buckets) EXPECT_NEAR(n, 2000, 200);
}

// A recent share: that share of every batch from the newest rows, the rest uniform; the
// uniform part is the same draws as without the share.
TEST(Sampling, ARecentShareComesFromTheNewestRows) {
  std::vector<int64_t> plain, mixed;
  const Sampling recent{.recent_share = 0.25, .recent_positions = 100};
  int64_t newest = 0, total = 0;
  for (int step = 0; step < 100; ++step) {
    sample_rows(5, step, 200, 10'000, Sampling{}, plain);
    sample_rows(5, step, 200, 10'000, recent, mixed);
    EXPECT_TRUE(std::equal(plain.begin(), plain.begin() + 150, mixed.begin())) << step;
    for (size_t i = 150; i < 200; ++i) EXPECT_GE(mixed[i], 9'900) << step;
    for (int64_t r : mixed) newest += r >= 9'900, ++total;
  }
  // 25% from the newest 1%, plus the newest rows' 1% of the uniform 75%.
  EXPECT_NEAR(double(newest) / double(total), 0.25 + 0.75 * 0.01, 0.01);
  // A recent span larger than the window is the whole window.
  sample_rows(5, 0, 200, 50, Sampling{.recent_share = 1.0, .recent_positions = 1000}, mixed);
  for (int64_t r : mixed) EXPECT_TRUE(r >= 0 && r < 50) << r;
}

TEST(Window, TakesTheNewestPositionsOfTheNewestShards) {
  TempDir dir;
  const auto shards = write_shards(dir.str(), 0, 12, 3);  // 4 shards of 3 games
  ASSERT_EQ(shards.size(), 4u);
  Warnings w;
  ShardCatalog catalog(dir.str(), data::test::test_spec(), w.sink());
  EXPECT_TRUE(catalog.refresh());
  EXPECT_FALSE(catalog.refresh());  // nothing new
  EXPECT_EQ(catalog.total_positions(), test::positions_of_games(0, 12));
  const int64_t newest_two = test::positions_of_games(6, 6);
  const auto window = Window::build(catalog, newest_two + 3, nullptr);
  EXPECT_EQ(window->size(), newest_two + 3);
  EXPECT_EQ(window->shard_paths(), std::vector<std::string>(shards.begin() + 1, shards.end()));
  EXPECT_EQ(window->newest_shard(), fs::path(shards[3]).filename().string());
  // Row 0 is the third-last position of shard 1; the last row is shard 3's last position.
  const auto second = data::ShardReader::open(shards[1]).read_positions();
  const Window::Row first = window->row(0);
  EXPECT_EQ(first.index, second.size() - 3);
  EXPECT_EQ(first.columns->planes_of(first.index)[0], second.planes_of(second.size() - 3)[0]);
  const Window::Row last = window->row(window->size() - 1);
  const auto fourth = data::ShardReader::open(shards[3]).read_positions();
  EXPECT_EQ(last.index, fourth.size() - 1);
  EXPECT_EQ(last.columns->plies_to_end[size_t(last.index)], fourth.plies_to_end.back());
  EXPECT_TRUE(w.lines.empty());
}

// Sets an int64 root attribute of a finished shard (data/schema.h), as a later writer would.
void set_attribute(const std::string& shard, const char* name, int64_t value) {
  const hid_t file = H5Fopen(shard.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(file, 0) << shard;
  const hid_t attr = H5Aopen(file, name, H5P_DEFAULT);
  ASSERT_GE(attr, 0) << name;
  ASSERT_GE(H5Awrite(attr, H5T_NATIVE_INT64, &value), 0);
  H5Aclose(attr);
  H5Fclose(file);
}

int64_t finished_ms(const std::string& shard) { return data::ShardReader::open(shard).info().finished_unix_ms; }

TEST(Window, NewestMeansLastFinishedAcrossWriters) {
  TempDir dir;
  const auto a = write_shards(dir.str(), 0, 3, 3, "a");  // finished first, sorts first by name too
  const auto z = write_shards(dir.str(), 3, 3, 3, "z");
  set_attribute(a[0], data::schema::kAttrFinishedUnixMs, finished_ms(z[0]) + 5000);  // a finished last
  ShardCatalog catalog(dir.str(), data::test::test_spec(), nullptr);
  catalog.refresh();
  const auto window = Window::build(catalog, 1, nullptr);
  EXPECT_EQ(window->shard_paths(), std::vector<std::string>{a[0]});
}

// The order is written into the shards: copying a run (which resets modification times, here
// reversed) keeps it. The generation is read back and breaks ties of the finished time.
TEST(Window, OrderComesFromTheShardsNotTheirFileTimes) {
  TempDir dir;
  const auto shards = write_shards(dir.str(), 0, 12, 3);
  ASSERT_EQ(shards.size(), 4u);
  auto time = fs::file_time_type::clock::now();
  for (const std::string& path : shards) fs::last_write_time(path, time -= std::chrono::seconds(10));
  {
    ShardCatalog catalog(dir.str(), data::test::test_spec(), nullptr);
    catalog.refresh();
    EXPECT_EQ(Window::build(catalog, 1, nullptr)->shard_paths(), std::vector<std::string>{shards[3]});
  }
  const int64_t same_time = finished_ms(shards[3]);
  set_attribute(shards[0], data::schema::kAttrFinishedUnixMs, same_time);
  set_attribute(shards[0], data::schema::kAttrGeneration, 2);  // the others are generation 0
  ShardCatalog catalog(dir.str(), data::test::test_spec(), nullptr);
  catalog.refresh();
  EXPECT_EQ(Window::build(catalog, 1, nullptr)->shard_paths(), std::vector<std::string>{shards[0]});
  EXPECT_EQ(data::ShardReader::open(shards[0]).info().generation, 2);
}

TEST(Window, SharesShardsItAlreadyHolds) {
  TempDir dir;
  write_shards(dir.str(), 0, 6, 3);
  ShardCatalog catalog(dir.str(), data::test::test_spec(), nullptr);
  catalog.refresh();
  const auto first = Window::build(catalog, 1'000'000, nullptr);
  write_shards(dir.str(), 6, 3, 3);
  EXPECT_TRUE(catalog.refresh());
  const auto second = Window::build(catalog, 1'000'000, first.get());
  EXPECT_EQ(second->num_shards(), 3u);
  EXPECT_EQ(second->row(0).columns, first->row(0).columns);  // the same memory, not read again
}

TEST(Catalog, TruncatedShardIsSkippedWithAWarningNamingIt) {
  TempDir dir;
  const auto shards = write_shards(dir.str(), 0, 9, 3);
  fs::resize_file(shards[1], fs::file_size(shards[1]) / 2);
  Warnings w;
  ShardCatalog catalog(dir.str(), data::test::test_spec(), w.sink());
  catalog.refresh();
  ASSERT_EQ(w.lines.size(), 1u);
  EXPECT_NE(w.lines[0].find(shards[1]), std::string::npos) << w.lines[0];
  EXPECT_NE(w.lines[0].find("skipping"), std::string::npos) << w.lines[0];
  // Moved aside, so that no other process (self-play counting its games, a resumed loop) stops on it.
  const std::string moved = dir.file("damaged/" + fs::path(shards[1]).filename().string());
  EXPECT_NE(w.lines[0].find("moved to " + moved), std::string::npos) << w.lines[0];
  EXPECT_TRUE(fs::exists(moved));
  EXPECT_FALSE(fs::exists(shards[1]));
  EXPECT_EQ(catalog.shards().size(), 2u);
  EXPECT_EQ(catalog.total_positions(), test::positions_of_games(0, 3) + test::positions_of_games(6, 3));
  catalog.refresh();
  EXPECT_EQ(w.lines.size(), 1u);  // warned once, not at every scan
  const auto window = Window::build(catalog, 1'000'000, nullptr);
  EXPECT_EQ(window->shard_paths(), (std::vector<std::string>{shards[0], shards[2]}));
}

TEST(Catalog, UnknownSchemaVersionIsSkippedWithAWarningNamingIt) {
  TempDir dir;
  const auto shards = write_shards(dir.str(), 0, 6, 3);
  const hid_t file = H5Fopen(shards[0].c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  const hid_t attr = H5Aopen(file, "sample_format_version", H5P_DEFAULT);
  const int64_t version = 99;
  ASSERT_GE(H5Awrite(attr, H5T_NATIVE_INT64, &version), 0);
  H5Aclose(attr);
  H5Fclose(file);
  Warnings w;
  ShardCatalog catalog(dir.str(), data::test::test_spec(), w.sink());
  catalog.refresh();
  ASSERT_EQ(w.lines.size(), 1u);
  EXPECT_NE(w.lines[0].find(shards[0]), std::string::npos) << w.lines[0];
  EXPECT_NE(w.lines[0].find("schema version"), std::string::npos) << w.lines[0];
  EXPECT_EQ(catalog.shards().size(), 1u);
  EXPECT_EQ(catalog.shards()[0].path, shards[1]);
  // Not damaged: a newer program may read it, so it stays where it is.
  EXPECT_NE(w.lines[0].find("left in place"), std::string::npos) << w.lines[0];
  EXPECT_TRUE(fs::exists(shards[0]));
}

// A shard that opens but whose rows fail to load (a damaged chunk) is dropped from the window
// with the same warning, and moved aside as well.
TEST(Catalog, ShardDamagedInsideIsMovedAsideWhenItsRowsFail) {
  TempDir dir;
  const auto shards = write_shards(dir.str(), 0, 6, 3);
  Warnings w;
  ShardCatalog catalog(dir.str(), data::test::test_spec(), w.sink());
  catalog.refresh();
  catalog.mark_bad(shards[0], shards[0] + ": positions/planes: cannot read rows");
  ASSERT_EQ(w.lines.size(), 1u);
  EXPECT_EQ(w.lines[0].rfind("skipping shard " + shards[0] + ": positions/planes: cannot read rows (moved to ", 0), 0u)
      << w.lines[0];
  EXPECT_TRUE(fs::exists(dir.file("damaged/" + fs::path(shards[0]).filename().string())));
  EXPECT_EQ(catalog.shards().size(), 1u);
}

TEST(Catalog, ShardOfAnotherEncodingIsAnErrorNamingIt) {
  TempDir dir;
  write_shards(dir.str(), 0, 3, 3, "good");
  game::GameSpec other = data::test::test_spec();
  other.encoder_version = 2;
  const auto bad = write_shards(dir.str(), 3, 3, 3, "other", other);
  ShardCatalog catalog(dir.str(), data::test::test_spec(), nullptr);
  try {
    catalog.refresh();
    FAIL() << "a shard of encoder 2 was accepted";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(bad[0]), std::string::npos) << message;
    EXPECT_NE(message.find("encoder_version"), std::string::npos) << message;
  }
}

TEST(Catalog, MissingDirectoryIsEmptyNotAnError) {
  TempDir dir;
  ShardCatalog catalog(dir.file("games"), data::test::test_spec(), nullptr);
  EXPECT_FALSE(catalog.refresh());
  EXPECT_EQ(catalog.total_positions(), 0);
  EXPECT_EQ(Window::build(catalog, 100, nullptr)->size(), 0);
}

}  // namespace
}  // namespace sz::train
