#pragma once
// The lines of a small "key: value" text file (checkpoint metadata, trainer state), split once
// for every reader of such files. Not for hot paths: it returns a vector.
#include <algorithm>
#include <string_view>
#include <vector>

namespace sz {

struct KeyValueLine {
  std::string_view line;   // the whole line, for error messages
  std::string_view key;    // before the first ": ", or the whole line if it has none
  std::string_view value;  // after it, "" if none
  bool has_separator = false;
};

// The non-empty lines of `text`, in order; views into `text`.
inline std::vector<KeyValueLine> key_value_lines(std::string_view text) {
  std::vector<KeyValueLine> lines;
  for (size_t start = 0; start < text.size();) {
    const size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (line.empty()) continue;
    const size_t colon = line.find(": ");
    const bool has = colon != std::string_view::npos;
    lines.push_back({line, line.substr(0, colon), has ? line.substr(colon + 2) : std::string_view(), has});
  }
  return lines;
}

}  // namespace sz
