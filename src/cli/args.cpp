#include <csignal>
#include <filesystem>

#include "cli/command.h"
#include "cli/config_args.h"

namespace sz::cli {

std::string flag_value(Args args, size_t& i) {
  if (i + 1 >= args.size()) throw Error("option " + args[i] + " needs a value");
  if (args[i + 1].empty()) throw Error("option " + args[i] + " needs a value, not an empty one");
  return args[++i];
}

int parse_int_flag(std::string_view flag, const std::string& value, int lo, int hi) {
  return int(parse_whole_number(flag, value, lo, hi));
}

run::RunConfig run_config_of(const ConfigFlags& flags, const std::string& fallback) {
  return run::load_run_config(flags.name.empty() ? fallback : flags.name, flags.overrides).take_or_throw();
}

run::RunConfig run_config_in(const ConfigFlags& flags, const std::string& run_dir) {
  const std::string in_run = run_dir.empty() ? "" : (std::filesystem::path(run_dir) / "config.yaml").string();
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
