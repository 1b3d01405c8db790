#include <csignal>
#include <filesystem>
#include <optional>

#include "cli/command.h"
#include "cli/config_args.h"
#include "core/error.h"
#include "core/parse_number.h"

namespace sz::cli {

std::string flag_value(Args args, size_t& i) {
  if (i + 1 >= args.size()) throw Error("option " + args[i] + " needs a value");
  // An empty value would read as the option left out (perft --fen '' as the start position,
  // selfplay --model '' as the bootstrap player): the silent default of a typo.
  if (args[i + 1].empty()) throw Error("option " + args[i] + " needs a value, not an empty one");
  return args[++i];
}

int parse_int_flag(std::string_view flag, const std::string& value, int lo, int hi) {
  const std::optional<int> v = parse_number<int>(value);
  if (!v || *v < lo || *v > hi)
    throw Error("option " + std::string(flag) + " wants a whole number in " + std::to_string(lo) + ".." +
                std::to_string(hi) + ", not '" + value + "'");
  return *v;
}

namespace {
std::atomic<bool> g_interrupted{false};

void on_interrupt(int signal) {
  g_interrupted = true;
  if (signal == SIGINT) std::signal(SIGINT, SIG_DFL);  // a second Ctrl-C kills at once
}
}  // namespace

run::RunConfig run_config_from_args(Args args) {
  std::string name = "quickstart";
  std::vector<std::string> overrides;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--config")
      name = flag_value(args, i);
    else if (args[i] == "--set")
      overrides.push_back(flag_value(args, i));
    else
      throw Error("unknown option '" + args[i] + "' (see --help)");
  }
  return run::load_run_config(name, overrides).take_or_throw();
}

run::RunConfig run_config_of(const std::string& config_name, const std::string& run_dir,
                             const std::vector<std::string>& overrides) {
  std::string name = config_name;
  if (name.empty()) {
    const std::string in_run = run_dir.empty() ? "" : (std::filesystem::path(run_dir) / "config.yaml").string();
    std::error_code ec;
    name = !in_run.empty() && std::filesystem::exists(in_run, ec) ? in_run : "quickstart";
  }
  return run::load_run_config(name, overrides).take_or_throw();
}

const std::atomic<bool>& stop_on_interrupt() {
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  return g_interrupted;
}

}  // namespace sz::cli
