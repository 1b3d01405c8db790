#pragma once
// For subcommands whose only options are a run config and its overrides.
#include <string>
#include <vector>

#include "cli/command.h"
#include "run/run_config.h"

namespace sz::cli {

// Reads `--config FILE` (default: the built-in quickstart) and any `--set KEY=VALUE`; any other
// option is an error. Throws sz::Error naming the bad option, file, line or key.
run::RunConfig run_config_from_args(Args args);

// The config of the run in `run_dir`: `config_name` when given, else run_dir/config.yaml when
// there, else the built-in quickstart; `overrides` applied. Throws sz::Error like the above.
run::RunConfig run_config_of(const std::string& config_name, const std::string& run_dir,
                             const std::vector<std::string>& overrides);

}  // namespace sz::cli
