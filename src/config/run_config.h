#pragma once
// The configuration of a run (configs/quickstart.yaml and friends): one YAML file with a section
// per part of the system. Strict: an unknown key or an out-of-range value is an error naming the
// file, the line and the key. Every default lives in the C++ structs; to_yaml writes the
// resolved configuration, every default included, next to a run's outputs.
#include <cstdint>
#include <string>
#include <string_view>

#include "config/net_config.h"
#include "core/error.h"
#include "selfplay/selfplay_config.h"
#include "train/loop_config.h"
#include "train/train_config.h"

namespace sz::config {

struct RunConfig {
  std::string name = "run";   // the run directory is runs/<name> unless `dir` is set
  std::string dir;            // empty: runs/<name>
  uint64_t seed = 1;          // every random choice of the run flows from here
  std::string profile = "sittuyin";
  std::string net = "small";  // a preset (configs/nets) or the path of a net YAML
  InferenceConfig inference;
  search::SearchConfig search;
  selfplay::SelfplayConfig selfplay;  // its profile, seed and search come from the fields above
  train::TrainConfig train;           // the trainer; its seed is `seed`
  train::LoopConfig loop;             // generations, gating, strength measurements

  std::string run_dir() const { return dir.empty() ? "runs/" + name : dir; }
};

// A run config from a file, or one of the configs compiled in (configs/<name>.yaml, e.g.
// "quickstart"). `overrides` are `section.key=value` strings (--set), applied before validation.
Result<RunConfig> load_run_config(std::string_view name_or_path, const std::vector<std::string>& overrides = {});
Result<RunConfig> parse_run_config(std::string_view yaml, std::string_view source,
                                   const std::vector<std::string>& overrides = {});

// The resolved configuration as YAML, every field written out.
std::string to_yaml(const RunConfig& config);

}  // namespace sz::config
