// Damaged, foreign and half-written shards are refused with an sz::Error that names the file,
// never a crash or a guess; a writer killed with SIGKILL leaves only complete shards visible.
//
// This test edits shards with the HDF5 C API to make files the writer never would (another
// schema version, a missing dataset, a corrupt chunk): the module's own tests are the one place
// besides src/data that may include hdf5.h.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <thread>

#include "core/error.h"
#include "data/shard_reader.h"
#include "data/shard_writer.h"
#include "test_games.h"

namespace sz::data {
namespace {

using test::make_game;
using test::TempDir;

std::string write_shard(const TempDir& dir, int games) {
  ShardWriter writer(dir.str(), "w", test::test_spec(), {.games_per_shard = 1000});
  for (int i = 0; i < games; ++i) writer.add_game(make_game(i));
  return writer.close();
}

// Runs `body` on the open file, read-write.
template <typename F>
void edit_file(const std::string& path, F body) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(file, 0) << path;
  body(file);
  ASSERT_GE(H5Fclose(file), 0);
}

// Expects open() (or, with `on_read`, reading everything) to throw an sz::Error whose message
// names `path` and contains `needle`.
void expect_refused(const std::string& path, const std::string& needle, bool on_read = false) {
  try {
    const ShardReader reader = ShardReader::open(path);
    if (!on_read) FAIL() << "opened " << path;
    reader.read_games();
    reader.read_positions();
    FAIL() << "read " << path;
  } catch (const Error& e) {
    const std::string message = e.what();
    // SZ_SHOW_ERRORS=1 prints the messages, to read what a user would see.
    if (std::getenv("SZ_SHOW_ERRORS")) std::fprintf(stderr, "refused: %s\n", message.c_str());
    EXPECT_NE(message.find(path), std::string::npos) << message;
    EXPECT_NE(message.find(needle), std::string::npos) << message;
  }
}

TEST(ShardDamage, UnknownSchemaVersionIsRefused) {
  TempDir dir;
  const std::string path = write_shard(dir, 2);
  edit_file(path, [](hid_t file) {
    const hid_t attr = H5Aopen(file, "sample_format_version", H5P_DEFAULT);
    const int64_t version = 4;
    EXPECT_GE(H5Awrite(attr, H5T_NATIVE_INT64, &version), 0);
    H5Aclose(attr);
  });
  expect_refused(path, "schema version (sample_format_version) 4 is unknown; this reader knows versions 1 to 3");
}

// A version-1 shard (version 2 without positions/search_wdl) still reads: the game's result
// stands in for the search value it did not record.
TEST(ShardDamage, VersionOneShardsReadWithTheResultAsSearchValue) {
  TempDir dir;
  const std::string path = write_shard(dir, 2);
  edit_file(path, [](hid_t file) {
    EXPECT_GE(H5Ldelete(file, "positions/search_wdl", H5P_DEFAULT), 0);
    for (const char* v3 :
         {"positions/has_search_value", "positions/policy_target", "positions/legal_count", "positions/material"})
      EXPECT_GE(H5Ldelete(file, v3, H5P_DEFAULT), 0);
    const hid_t attr = H5Aopen(file, "sample_format_version", H5P_DEFAULT);
    const int64_t version = 1;
    EXPECT_GE(H5Awrite(attr, H5T_NATIVE_INT64, &version), 0);
    H5Aclose(attr);
  });
  const ShardReader reader = ShardReader::open(path);
  EXPECT_EQ(reader.info().format_version, 1);
  const PositionColumns p = reader.read_positions();
  ASSERT_GT(p.size(), 0);
  ASSERT_EQ(p.search_wdl.size(), size_t(3 * p.size()));
  for (int64_t i = 0; i < p.size(); ++i) {
    const int8_t r = p.result[size_t(i)];
    const std::vector<float> wdl(p.search_wdl.begin() + 3 * i, p.search_wdl.begin() + 3 * i + 3);
    EXPECT_EQ(wdl, (std::vector<float>{r > 0 ? 1.0f : 0.0f, r == 0 ? 1.0f : 0.0f, r < 0 ? 1.0f : 0.0f})) << i;
  }
}

// A version-2 shard still reads: rows of games without a model (the uniform bootstrap) get no
// search value and no policy target, the others a value and a target where the search was full;
// no legal actions (no mask) and no material (NaN).
TEST(ShardDamage, VersionTwoShardsReadWithTheirTargetsUpgraded) {
  TempDir dir;
  const std::string path = write_shard(dir, 8);
  edit_file(path, [](hid_t file) {
    for (const char* v3 :
         {"positions/has_search_value", "positions/policy_target", "positions/legal_count", "positions/material"})
      EXPECT_GE(H5Ldelete(file, v3, H5P_DEFAULT), 0);
    const hid_t attr = H5Aopen(file, "sample_format_version", H5P_DEFAULT);
    const int64_t version = 2;
    EXPECT_GE(H5Awrite(attr, H5T_NATIVE_INT64, &version), 0);
    H5Aclose(attr);
  });
  const ShardReader reader = ShardReader::open(path);
  const std::vector<GameInfo> games = reader.read_games();
  const PositionColumns p = reader.read_positions();
  int modelless = 0;
  for (const GameInfo& g : games) {
    modelless += g.model_id.empty();
    for (int64_t i = g.first_position; i < g.first_position + g.num_positions; ++i) {
      const size_t k = size_t(i);
      EXPECT_EQ(p.has_search_value[k], g.model_id.empty() ? 0 : 1) << i;
      EXPECT_EQ(p.policy_target[k], !g.model_id.empty() && p.full_search[k]) << i;
      EXPECT_EQ(p.legal_count[k], 0);
      EXPECT_TRUE(std::isnan(p.material[k]));
    }
  }
  EXPECT_EQ(modelless, 2);  // games 0 and 4 (test_games.h)
}

// A NaN in the data passes no check: the shard is refused when read, by name, not trained on.
TEST(ShardDamage, NanInPolicyOrScalarsIsRefusedOnRead) {
  for (const char* dataset : {"policy/prob", "positions/scalars"}) {
    TempDir dir;
    const std::string path = write_shard(dir, 3);
    edit_file(path, [&](hid_t file) {
      const hid_t d = H5Dopen2(file, dataset, H5P_DEFAULT);
      const hid_t space = H5Dget_space(d);
      const hsize_t start[2] = {1, 0}, count[2] = {1, 1};
      H5Sselect_hyperslab(space, H5S_SELECT_SET, start, nullptr, count, nullptr);
      const hid_t mem = H5Screate_simple(1, count, nullptr);
      const float nan = std::numeric_limits<float>::quiet_NaN();
      EXPECT_GE(H5Dwrite(d, H5T_NATIVE_FLOAT, mem, space, H5P_DEFAULT, &nan), 0);
      H5Sclose(mem);
      H5Sclose(space);
      H5Dclose(d);
    });
    expect_refused(path, std::string(dataset) == "policy/prob" ? "policy probability" : "scalar feature",
                   /*on_read=*/true);
  }
}

TEST(ShardDamage, MissingVersionAttributeIsRefused) {
  TempDir dir;
  const std::string path = write_shard(dir, 1);
  edit_file(path, [](hid_t file) { EXPECT_GE(H5Adelete(file, "sample_format_version"), 0); });
  expect_refused(path, "missing attribute 'sample_format_version'");
}

TEST(ShardDamage, MissingDatasetIsRefused) {
  TempDir dir;
  const std::string path = write_shard(dir, 2);
  edit_file(path, [](hid_t file) { EXPECT_GE(H5Ldelete(file, "positions/plies_to_end", H5P_DEFAULT), 0); });
  expect_refused(path, "missing dataset 'positions/plies_to_end'");
}

TEST(ShardDamage, TruncatedFileIsRefused) {
  TempDir dir;
  const std::string path = write_shard(dir, 50);
  const auto size = std::filesystem::file_size(path);
  std::filesystem::resize_file(path, size / 2);
  expect_refused(path, "truncated");
  // Whatever the cut, an error and never a crash.
  for (const double fraction : {0.0, 0.001, 0.25, 0.75, 0.999}) {
    std::filesystem::remove(path);
    ASSERT_EQ(write_shard(dir, 50), path);
    std::filesystem::resize_file(path, uintmax_t(double(size) * fraction));
    expect_refused(path, "", /*on_read=*/true);
  }
}

TEST(ShardDamage, CorruptChunkIsDetectedOnRead) {
  TempDir dir;
  const std::string path = write_shard(dir, 20);
  haddr_t address = 0;
  hsize_t size = 0;
  edit_file(path, [&](hid_t file) {
    const hid_t dataset = H5Dopen2(file, "positions/planes", H5P_DEFAULT);
    const hid_t space = H5Dget_space(dataset);
    hsize_t offset[2] = {0, 0};
    unsigned mask = 0;
    EXPECT_GE(H5Dget_chunk_info(dataset, space, 0, offset, &mask, &address, &size), 0);
    H5Sclose(space);
    H5Dclose(dataset);
  });
  ASSERT_GT(size, 64u);
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(std::streamoff(address + size / 2));
  const char garbage[8] = {'\x5a', '\x13', '\x77', '\x00', '\x42', '\x42', '\x09', '\x7f'};
  f.write(garbage, sizeof garbage);
  f.close();
  expect_refused(path, "positions/planes", /*on_read=*/true);
}

TEST(ShardDamage, ForeignFilesAreRefused) {
  TempDir dir;
  std::ofstream(dir.file("text.h5")) << "not an HDF5 file at all";
  expect_refused(dir.file("text.h5"), "cannot open as HDF5");
  expect_refused(dir.file("absent.h5"), "no such shard file");
  const hid_t file = H5Fcreate(dir.file("empty.h5").c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  H5Fclose(file);
  expect_refused(dir.file("empty.h5"), "not a sittuyin-zero shard");
}

// A child process writes games forever in shards of 3; once some shards are complete, it is
// killed with SIGKILL in the middle of whatever it was doing.
[[noreturn]] void write_forever(const std::string& dir) {
  try {
    ShardWriter writer(dir, "w", test::test_spec(), {.games_per_shard = 3});
    for (int i = 0;; ++i) writer.add_game(make_game(i));
  } catch (...) {
  }
  _exit(1);
}

TEST(ShardDamage, KilledWriterLeavesOnlyCompleteShards) {
  TempDir dir;
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) write_forever(dir.str());
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (list_shards(dir.str()).size() < 4 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ASSERT_EQ(kill(child, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "the writer ended by itself";

  const std::vector<std::string> shards = list_shards(dir.str());
  ASSERT_GE(shards.size(), 4u);
  for (size_t s = 0; s < shards.size(); ++s) {
    EXPECT_EQ(shards[s], dir.file(shard_file_name("w", int64_t(s))));
    const ShardReader reader = ShardReader::open(shards[s]);
    const std::vector<GameInfo> games = reader.read_games();
    ASSERT_EQ(games.size(), 3u);
    for (size_t g = 0; g < games.size(); ++g) {
      const GameRecord expected = make_game(int(s * 3 + g));
      test::expect_same_meta(games[g], expected.meta);
      test::expect_same_positions(reader.read_positions(games[g].first_position, games[g].num_positions),
                                  expected.positions);
    }
  }
  for (const std::string& name : test::file_names(dir.str())) {
    const bool listed = std::count(shards.begin(), shards.end(), dir.file(name)) == 1;
    EXPECT_TRUE(listed || shard_sequence(name, "w", /*temporary=*/true) >= 0) << "unexpected file " << name;
  }
  // A restarted writer clears the half-written temporary and carries on after the last shard.
  ShardWriter writer(dir.str(), "w", test::test_spec(), {.games_per_shard = 3});
  EXPECT_EQ(writer.next_sequence(), int64_t(shards.size()));
  EXPECT_EQ(test::file_names(dir.str()).size(), shards.size());
}

}  // namespace
}  // namespace sz::data
