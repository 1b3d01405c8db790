// A stand-alone driver for bench/nn_bench.cpp (`nn_bench` = `sittuyin-zero bench nn`), so that
// the benchmark builds without the rest of the CLI (scripts/gpu-check.sh).
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "cli/command.h"

namespace sz::cli {
int bench_nn(Args args);
}

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    return sz::cli::bench_nn(args);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nn_bench: error: %s\n", e.what());
    return 1;
  }
}
