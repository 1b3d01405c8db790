#pragma once
// Perft suites: lines `<variant>;<FEN>;D1 <n>;D2 <n>;...` (Fairy-Stockfish's reference format,
// ../shared/testdata/perft-*.txt). Used by `sittuyin-zero perft --suite` and by the tests.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace sz::cli {

struct PerftCase {
  std::string variant;  // a rule profile name
  std::string fen;
  std::vector<uint64_t> expected;  // expected[d - 1] = leaves at depth d
  int line = 0;
};

struct PerftReport {
  int passed = 0;
  int failed = 0;
  uint64_t nodes = 0;
  double seconds = 0;
};

// Reads a suite; a malformed line is an error naming the file and line, and so are a directory
// and a suite without a single position (its "0 passed, 0 failed" would read as success).
std::vector<PerftCase> read_perft_suite(const std::string& path);

// Runs every case up to `max_depth` (0 = all), under `rules_override` if not empty. Calls
// `on_failure` with one line per failing case (expected and actual counts).
PerftReport run_perft_suite(const std::vector<PerftCase>& cases, const std::string& rules_override,
                            int max_depth, const std::function<void(const std::string&)>& on_failure);

}  // namespace sz::cli
