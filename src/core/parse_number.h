#pragma once
// Numbers from untrusted text (files, command lines, protocols) that must be a number and nothing
// else: "12" and "-0.5" read, "", " 12", "12x", "+1" and a value that overflows the type do not.
// The one place that turns text into a number; each caller checks the range it needs.
#include <charconv>
#include <concepts>
#include <optional>
#include <string_view>
#include <system_error>

namespace sz {

// The value of the whole of `text`: an integer of T, or for float and double a decimal, a
// scientific or "inf"/"nan" text (std::from_chars, general format). nullopt otherwise.
template <typename T>
requires std::integral<T> || std::floating_point<T> std::optional<T> parse_number(std::string_view text) {
  T value{};
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || stop != end) return std::nullopt;
  return value;
}

// The same into `out`: true when `text` is a number (then `out` holds it), false otherwise (then
// `out` is left alone).
template <typename T>
bool parse_number(std::string_view text, T& out) {
  const std::optional<T> value = parse_number<T>(text);
  if (value) out = *value;
  return value.has_value();
}

}  // namespace sz
