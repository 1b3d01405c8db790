// A stand-alone driver for bench/nn_bench.cpp (`nn_bench` = `sittuyin-zero bench nn`), so that
// the benchmark builds without the rest of the CLI (scripts/gpu-check.sh).
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "bench/benches.h"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    return sz::bench::bench_nn(args);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nn_bench: error: %s\n", e.what());
    return 1;
  }
}
