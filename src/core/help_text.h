#pragma once
// Help texts generated from declarations (the play settings' options and player-spec keys): one
// entry, a term and what it means, wrapped as the hand-written help around it is.
#include <string>
#include <string_view>

#include "core/split.h"

namespace sz {

// "  TERM    TEXT..." lines: `term` indented by `indent` spaces, `text`'s words from column
// `column` (on the next line when the term reaches it), wrapped before `width`; ends in '\n'.
inline std::string help_entry(std::string_view term, std::string_view text, size_t indent, size_t column,
                              size_t width = 96) {
  std::string out(indent, ' ');
  out += term;
  size_t line_start = 0;
  const auto new_line = [&] {
    out += '\n';
    line_start = out.size();
    out.append(column, ' ');
  };
  if (out.size() + 1 > column) new_line();
  out.append(column - (out.size() - line_start), ' ');
  bool first = true;
  for (const std::string_view word : split_words(text)) {
    if (!first && out.size() - line_start + 1 + word.size() > width) {
      new_line();
      first = true;
    }
    if (!first) out += ' ';
    out += word;
    first = false;
  }
  return out + '\n';
}

}  // namespace sz
