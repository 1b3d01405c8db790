// The h5py example in docs/DATA.md reads a shard that ShardWriter wrote, and prints what the
// writer put in it. Skipped, with the reason, where no python3 with h5py and numpy is found.
#include <gtest/gtest.h>

#include <bit>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "data/shard_writer.h"
#include "python_helpers.h"
#include "shell_helpers.h"
#include "test_games.h"

namespace sz::data {
namespace {

using test::make_game;

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The python block that follows the "example: read_shard.py" marker.
std::string doc_example() {
  const std::string doc = read_text(std::string(SZ_SOURCE_DIR) + "/docs/DATA.md");
  const size_t marker = doc.find("<!-- example: read_shard.py -->");
  if (marker == std::string::npos) return {};
  const size_t open = doc.find("```python\n", marker);
  const size_t close = doc.find("\n```", open);
  if (open == std::string::npos || close == std::string::npos) return {};
  return doc.substr(open + 10, close - open - 10 + 1);
}

TEST(DataDoc, PythonExampleReadsAShard) {
  const std::string script = doc_example();
  ASSERT_FALSE(script.empty()) << "docs/DATA.md lost its read_shard.py example";
  const std::string python = sz::test::find_python();
  if (python.empty()) GTEST_SKIP() << "no python3 with h5py and numpy (tried $SZ_PYTHON, python3, /usr/bin/python3)";

  test::TempDir dir;
  std::ofstream(dir.file("read_shard.py")) << script;
  ShardWriter writer(dir.str(), "w", test::test_spec());
  int64_t positions = 0, full = 0, bits = 0;
  for (int i = 0; i < 6; ++i) {
    const GameRecord g = make_game(i);
    writer.add_game(g);
    positions += g.positions.size();
    for (uint8_t f : g.positions.policy_target) full += f;
    for (uint64_t w : g.positions.planes) bits += std::popcount(w);
  }
  const std::string shard = writer.close();

  const sz::test::CommandRun run = sz::test::run_shell(python + " " + dir.file("read_shard.py") + " " + shard);
  ASSERT_EQ(run.status, 0) << run.output;
  const std::string& out = run.output;
  const GameRecord first = make_game(0);
  const int64_t n = first.positions.size();
  const std::string expected = "sittuyin: sittuyin sittuyin-plyyard\nsittuyin-plyyard 0-1 n-move\n" + first.meta.moves +
                               "\n" + "positions 0.." + std::to_string(n - 1) + ", moves left at the start " +
                               std::to_string(n) + "\n" + "6 games, " + std::to_string(positions) + " positions, " +
                               std::to_string(full) + " policy targets, " + std::to_string(bits) + " bits set\n";
  EXPECT_EQ(out, expected);
}

}  // namespace
}  // namespace sz::data
