#pragma once
// Data-parallel ranks train one network only when they were started alike: each compares the
// configuration it trains under with rank 0's before its first step.
#include <string>

#include "train/process_group.h"

namespace sz::train {

// A rank whose configuration is not rank 0's would train other weights and checkpoint nothing
// of its own: it stops, throwing sz::Error that names the first line of `agreement` (YAML, as the
// run writes its config) that differs, as "section.key: value" here and on rank 0.
void check_agreement(ProcessGroup& group, const std::string& agreement);

}  // namespace sz::train
