#pragma once
// Numbers as text for files and messages that people read.
#include <charconv>
#include <concepts>
#include <string>

namespace sz {

// The shortest text that reads back as the same value: 0.2, not 0.200000003.
template <std::floating_point T>
std::string shortest_text(T value) {
  char text[32];
  return std::string(text, std::to_chars(text, text + sizeof text, value).ptr);
}

}  // namespace sz
