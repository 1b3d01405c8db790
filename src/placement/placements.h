#pragma once
// `sittuyin-zero placements`: the placement statistics of one or more sets of shards (a run's
// games/ or any folder of *.h5), per source and rule profile, written as CSV and PNG files
// (report.h) into out/<profile>/ (out/<source>/<profile>/ with several sources), with
// out/summary.csv comparing them.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "search/evaluator.h"

namespace sz::placement {

struct PlacementOptions {
  std::vector<std::string> games;   // folders of shards
  std::string out;                  // the output folder
  int top = 20;                     // formations listed per colour
  std::string gnuplot = "gnuplot";  // empty: CSV files only
  // With a network: its value of each listed formation (network_values.h). Empty: none.
  search::EvaluatorFactory model;
  // Progress lines for long steps (reading, the network's values); none if empty.
  std::function<void(const std::string&)> progress;
};

struct PlacementSummary {
  std::vector<std::string> written;   // file paths
  std::vector<std::string> warnings;  // games skipped, and why (the first few of each folder)
  int64_t games = 0;                  // games read
  int64_t skipped = 0;                // games without a placement to read
};

// Throws sz::Error naming the folder or file: a folder that does not exist or holds no shards, a
// shard that cannot be read, a shard of another game than Sittuyin.
PlacementSummary run_placements(const PlacementOptions& options);

}  // namespace sz::placement
