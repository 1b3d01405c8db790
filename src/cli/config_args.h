#pragma once
// For subcommands whose only options are a run config and its overrides.
#include "cli/command.h"
#include "run/run_config.h"

namespace sz::cli {

// Reads `--config FILE` (default: the built-in quickstart) and any `--set KEY=VALUE`; any other
// option is an error. Throws sz::Error naming the bad option, file, line or key.
run::RunConfig run_config_from_args(Args args);

}  // namespace sz::cli
