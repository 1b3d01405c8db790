#include "bench/benches.h"

#include <cstdio>
#include <string>

#include "core/error.h"

namespace sz::bench {

namespace {

constexpr cli::Command kBenchmarks[] = {
    {"perft", "perft speed on the anchor positions, beside Fairy-Stockfish's", bench_perft},
    {"nn", "network throughput per batch size, raw and through the inference service", bench_nn},
    {"client", "the clients' Eigen forward pass against LibTorch's on the CPU", bench_client},
    {"selfplay", "self-play's search overhead, and its evaluations against the raw forward pass", bench_selfplay},
    {"train", "training samples per second through the data loader against an in-memory batch", bench_train},
    {"targets", "self-play's policy targets against the prior of the network that searched", bench_targets},
    {"workers", "self-play in worker processes against one process with as many threads", bench_workers},
    {"tables", "nanoseconds per endgame-table probe", bench_tables},
};

}  // namespace

std::span<const cli::Command> benchmarks() { return kBenchmarks; }

int bench_command(Args args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::printf("usage: sittuyin-zero bench <benchmark> [options]   (each benchmark takes --help)\n\nbenchmarks:\n%s",
                cli::command_list(kBenchmarks).c_str());
    return args.empty() ? 2 : 0;
  }
  if (const cli::Command* b = cli::find_command(kBenchmarks, args[0])) return b->run(args.subspan(1));
  std::string known;
  for (const cli::Command& b : kBenchmarks) known += std::string(known.empty() ? "" : ", ") + std::string(b.name);
  throw Error("unknown benchmark '" + args[0] + "' (known: " + known + ")");
}

}  // namespace sz::bench
