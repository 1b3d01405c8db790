#pragma once
// `sittuyin-zero tables build`: the tables of the requested ending rules and materials, each
// after the tables one capture away, on worker threads (one table each), every file written
// atomically into the tables directory (table_dir.h). A table already there and sound is kept
// unless `force`.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "games/chaturanga/tables/material.h"

namespace sz::chaturanga::tables {

struct BuildRequest {
  // Profiles whose ending rules to build (each set of rules once); every profile given that
  // shares a set's rules is named in its RULES.txt.
  std::vector<const RuleProfile*> profiles;
  // Canonical materials of the profiles' game; the tables one capture away come too. Materials
  // of the other game are skipped for a profile.
  std::vector<Material> materials;
  std::string out;
  int threads = 2;
  bool force = false;
};

struct BuiltTable {
  std::string folder;  // the rules folder
  std::string name;    // "KRSvK"
  uint64_t entries = 0;
  uint64_t bytes = 0;  // its file's size
  double seconds = 0;
  bool kept = false;  // already there, sound
};

struct BuildReport {
  std::vector<BuiltTable> tables;  // in the order they finished
  double seconds = 0;
  uint64_t bytes = 0;
};

// Lines of progress, serialised (called from the workers).
using BuildLog = std::function<void(const std::string& line)>;

// Throws sz::Error (a file that cannot be written, ...), after the running tables stop.
BuildReport build_tables(const BuildRequest& request, const BuildLog& log);

}  // namespace sz::chaturanga::tables
