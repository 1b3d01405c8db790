#include <algorithm>
#include <csignal>
#include <filesystem>

#include "cli/command.h"
#include "cli/config_args.h"
#include "rundir/run_paths.h"

namespace sz::cli {

std::string command_list(std::span<const Command> commands) {
  size_t width = 0;
  for (const Command& c : commands) width = std::max(width, c.name.size());
  std::string out;
  for (const Command& c : commands) {
    std::string line = "  " + std::string(c.name);
    line.resize(width + 4, ' ');
    out += line + std::string(c.summary) + "\n";
  }
  return out;
}

const Command* find_command(std::span<const Command> commands, std::string_view name) {
  for (const Command& c : commands)
    if (c.name == name) return &c;
  return nullptr;
}

run::RunConfig run_config_of(const ConfigFlags& flags, const std::string& fallback) {
  return run::load_run_config(flags.name.empty() ? fallback : flags.name, flags.overrides).take_or_throw();
}

run::RunConfig run_config_in(const ConfigFlags& flags, const std::string& run_dir) {
  const std::string in_run = run_dir.empty() ? "" : rundir::RunPaths(run_dir).config();
  std::error_code ec;
  return run_config_of(flags, !in_run.empty() && std::filesystem::exists(in_run, ec) ? in_run : "quickstart");
}

namespace {
std::atomic<bool> g_interrupted{false};

void on_interrupt(int signal) {
  g_interrupted = true;
  if (signal == SIGINT) std::signal(SIGINT, SIG_DFL);  // a second Ctrl-C kills at once
}
}  // namespace

const std::atomic<bool>& stop_on_interrupt() {
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  return g_interrupted;
}

}  // namespace sz::cli
