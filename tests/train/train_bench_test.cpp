// Smoke test of `sittuyin-zero bench train` (bench/train_bench.cpp) with a tiny network. For the
// real figures, set SZ_BENCH_TRAIN_ARGS, e.g. "--net small --batch 256 --steps 40 --repeat 3".
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "bench/benches.h"

namespace {

TEST(TrainBench, MeasuresLoaderAgainstInMemory) {
  std::vector<std::string> args;
  const char* env = std::getenv("SZ_BENCH_TRAIN_ARGS");
  std::istringstream in(env ? env : "--net tiny --batch 64 --steps 20 --repeat 1 --games 8");
  for (std::string a; in >> a;) args.push_back(a);
  if (!env) args.insert(args.end(), {"--dir", testing::TempDir() + "/sz-train-bench-test"});
  EXPECT_EQ(sz::bench::bench_train(args), 0);
}

}  // namespace
