#pragma once
// The benchmarks, `sittuyin-zero bench NAME` (docs/BENCHMARKS.md): each bench/NAME_bench.cpp
// defines one, and benches.cpp lists them. The program's main (src/main) names them through this
// header alone.
#include <span>

#include "cli/command.h"

namespace sz::bench {

using cli::Args;

// The benchmarks, in the order `bench --help` lists them.
std::span<const cli::Command> benchmarks();

// `sittuyin-zero bench NAME [options]`: runs the benchmark NAME; without one, prints the list
// (exit status 2; with --help, 0).
int bench_command(Args args);

int bench_perft(Args args);
int bench_nn(Args args);
int bench_client(Args args);
int bench_selfplay(Args args);
int bench_train(Args args);
int bench_targets(Args args);
int bench_workers(Args args);
int bench_tables(Args args);

}  // namespace sz::bench
