#include <cstdio>

#include "cli/command.h"
#include "core/error.h"

namespace sz::cli {

int bench_perft(Args args);
int bench_nn(Args args);
int bench_train(Args args);
int bench_selfplay(Args args);
int bench_targets(Args args);
int bench_workers(Args args);
int bench_client(Args args);
int bench_tables(Args args);

int bench_command(Args args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::puts("usage: sittuyin-zero bench perft|nn|client|selfplay|train|targets|workers|tables [--help]");
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "perft") return bench_perft(args.subspan(1));
  if (args[0] == "nn") return bench_nn(args.subspan(1));
  if (args[0] == "train") return bench_train(args.subspan(1));
  if (args[0] == "selfplay") return bench_selfplay(args.subspan(1));
  if (args[0] == "targets") return bench_targets(args.subspan(1));
  if (args[0] == "workers") return bench_workers(args.subspan(1));
  if (args[0] == "client") return bench_client(args.subspan(1));
  if (args[0] == "tables") return bench_tables(args.subspan(1));
  throw Error("unknown benchmark '" + args[0] +
              "' (known: perft, nn, client, selfplay, train, targets, workers, tables)");
}

}  // namespace sz::cli
