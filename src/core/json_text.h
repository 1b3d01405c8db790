#pragma once
// Text as a JSON string literal, for the JSON files the program writes (match reports, the
// loop's ladder).
#include <cstdio>
#include <string>
#include <string_view>

namespace sz {

// `text` in double quotes, with '"' and '\' escaped and control bytes written as \u00NN.
inline std::string json_quoted(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      out += escape;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace sz
