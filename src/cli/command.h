#pragma once
// The subcommands of the `sittuyin-zero` program. Each declares its flags once (cli/flags.h),
// which parses its arguments and prints its --help, and returns the process exit code; errors are
// thrown as sz::Error and reported by main.
#include <atomic>
#include <span>
#include <string>
#include <string_view>

#include "cli/flags.h"

namespace sz::cli {

struct Command {
  std::string_view name;
  std::string_view summary;
  int (*run)(Args args);
};

// One line per command, "  name  summary", the summaries in one column: the list of a help.
std::string command_list(std::span<const Command> commands);
// The command called `name`, or nullptr.
const Command* find_command(std::span<const Command> commands, std::string_view name);

int perft_command(Args args);
int rules_command(Args args);
int levels_command(Args args);
int loop_command(Args args);
int train_command(Args args);
int plot_command(Args args);
int placements_command(Args args);
int selfplay_command(Args args);
int uci_command(Args args);
int arena_command(Args args);
int export_command(Args args);
int tables_command(Args args);

// From now on Ctrl-C (SIGINT) and SIGTERM set the returned flag, which long commands poll to
// stop cleanly (finishing shards, writing a checkpoint); a second Ctrl-C kills at once.
const std::atomic<bool>& stop_on_interrupt();
// The exit status of a command that `stop_on_interrupt()` may have stopped: 130 if it did.
inline int exit_status(const std::atomic<bool>& stop) { return stop ? 130 : 0; }

}  // namespace sz::cli
