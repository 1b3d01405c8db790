#pragma once
// Cutting text into fields and words, for the parsers of untrusted text (FEN, player specs, the
// UCI protocol, metadata lines). Views into the text: it must outlive them. Not for hot paths.
#include <cctype>
#include <string_view>
#include <vector>

namespace sz {

// `text` cut at every `separator`: n separators give n + 1 fields, empty ones included
// ("a,,b" -> "a", "", "b"; "" -> one empty field).
inline std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> fields;
  for (size_t start = 0;;) {
    const size_t end = text.find(separator, start);
    fields.push_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) return fields;
    start = end + 1;
  }
}

// The words of `text`: the runs of characters that are not white space (std::isspace), in order.
inline std::vector<std::string_view> split_words(std::string_view text) {
  std::vector<std::string_view> words;
  const auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  for (size_t i = 0; i < text.size();) {
    while (i < text.size() && space(text[i])) ++i;
    const size_t first = i;
    while (i < text.size() && !space(text[i])) ++i;
    if (i > first) words.push_back(text.substr(first, i - first));
  }
  return words;
}

}  // namespace sz
