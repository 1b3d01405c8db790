// sittuyin-zero: one program, one thin file per subcommand (cli/command.h), the benchmarks under
// `bench` (bench/benches.h).
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "bench/benches.h"
#include "cli/command.h"

namespace {

constexpr sz::cli::Command kCommands[] = {
    {"perft", "count leaf nodes of the move tree; check a suite of reference counts", sz::cli::perft_command},
    {"rules", "list the rule profiles, or print one position with its legal moves", sz::cli::rules_command},
    {"selfplay", "play self-play games with MCTS and write them to HDF5 shards", sz::cli::selfplay_command},
    {"uci", "a UCI engine on standard input/output (Fairy-Stockfish's variant conventions)", sz::cli::uci_command},
    {"arena", "play matches among models, MCTS, random movers and UCI engines; Elo, SPRT, PGN", sz::cli::arena_command},
    {"loop", "the main job: self-play and training in one run directory, then a strength check", sz::cli::loop_command},
    {"levels", "build strength-graded opponents from a run and write their manifest", sz::cli::levels_command},
    {"export", "write a network as a bundle for game clients (model.json, model.onnx)", sz::cli::export_command},
    {"train", "train the network on a run's self-play games; checkpoints, metrics", sz::cli::train_command},
    {"plot", "draw a run's losses, game lengths, results and end reasons as PNG (gnuplot)", sz::cli::plot_command},
    {"placements", "placement research: heat maps, formations, features and results (CSV, PNG)",
     sz::cli::placements_command},
    {"tables", "endgame tables: build them (retrograde analysis), probe a position, verify them",
     sz::cli::tables_command},
    {"bench", "benchmarks of the rules, networks, self-play, training and tables (`bench --help`)",
     sz::bench::bench_command},
};

void print_usage() {
  std::printf("usage: sittuyin-zero <command> [options]   (each command takes --help)\n\ncommands:\n%s",
              sz::cli::command_list(kCommands).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    print_usage();
    return args.empty() ? 2 : 0;
  }
  if (const sz::cli::Command* c = sz::cli::find_command(kCommands, args[0])) {
    try {
      return c->run(sz::cli::Args(args).subspan(1));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "sittuyin-zero %s: error: %s\n", args[0].c_str(), e.what());
      return 1;
    }
  }
  std::fprintf(stderr, "sittuyin-zero: unknown command '%s'\n", args[0].c_str());
  print_usage();
  return 2;
}
