#include "train/rank_agreement.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/split.h"

namespace sz::train {

void check_agreement(ProcessGroup& group, const std::string& agreement) {
  const std::string leader = group.text_of_rank0(agreement);
  if (leader == agreement || group.rank() == 0) return;
  // "section.key: value" of line i (YAML: a section's keys are indented beneath it).
  const auto keyed = [](const std::vector<std::string_view>& lines, size_t i) {
    if (i >= lines.size()) return std::string("(nothing)");
    std::string section;
    for (size_t j = 0; j <= i; ++j)
      if (!lines[j].empty() && lines[j][0] != ' ' && lines[j].ends_with(":"))
        section = lines[j].substr(0, lines[j].size() - 1);
    const std::string_view line = lines[i];
    const size_t text = line.find_first_not_of(' ');
    return text == 0 || text == std::string_view::npos ? std::string(line)
                                                       : section + "." + std::string(line.substr(text));
  };
  const std::vector<std::string_view> mine = split(agreement, '\n'), theirs = split(leader, '\n');
  for (size_t i = 0; i < std::max(mine.size(), theirs.size()); ++i) {
    if (i < mine.size() && i < theirs.size() && mine[i] == theirs[i]) continue;
    throw Error("rank " + std::to_string(group.rank()) + " was started with another configuration than rank 0: '" +
                keyed(mine, i) + "' here, '" + keyed(theirs, i) + "' on rank 0; start every rank with the same config");
  }
}

}  // namespace sz::train
