#pragma once
// The run config of a command's --config and --set (declared by Flags::config).
#include <string>

#include "cli/flags.h"
#include "run/run_config.h"

namespace sz::cli {

// The config --config names (a file or a built-in name; default `fallback`), --set applied.
// Throws sz::Error naming the bad option, file, line or key.
run::RunConfig run_config_of(const ConfigFlags& flags, const std::string& fallback = "quickstart");

// The config of the run in `run_dir`: --config when given, else run_dir/config.yaml when there,
// else the built-in quickstart; --set applied. Throws sz::Error like the above.
run::RunConfig run_config_in(const ConfigFlags& flags, const std::string& run_dir);

}  // namespace sz::cli
