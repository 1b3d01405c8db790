#pragma once
// Numbers from untrusted text (files, command lines, protocols) that must be a number and nothing
// else: "12" and "-0.5" read, "", " 12", "12x", "+1" and a value that overflows the type do not.
// The one place that turns text into a number; each caller checks the range it needs.
#include <cctype>
#include <cerrno>
#include <charconv>
#include <concepts>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

namespace sz {

namespace detail {

// What std::from_chars reads as a floating-point number (general format) and no more: an
// optional '-', then digits with at most one '.' (at least one digit) and an optional exponent
// (e or E, an optional sign, digits), or "inf", "infinity", "nan", "nan(chars)" in any case.
inline bool is_float_text(std::string_view t) {
  if (!t.empty() && t[0] == '-') t.remove_prefix(1);
  std::string lower;
  for (const char c : t) lower += char(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "inf" || lower == "infinity" || lower == "nan") return true;
  if (lower.starts_with("nan(") && lower.ends_with(")"))
    return lower.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_", 4) == lower.size() - 1;
  size_t i = 0, digits = 0;
  const auto skip_digits = [&] {
    size_t n = 0;
    for (; i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])); ++i) ++n;
    return n;
  };
  digits += skip_digits();
  if (i < t.size() && t[i] == '.') ++i, digits += skip_digits();
  if (digits == 0) return false;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    if (skip_digits() == 0) return false;
  }
  return i == t.size();
}

// std::from_chars for float and double where the standard library lacks it (Emscripten's libc++
// 14, the web client's runtime): the same texts, read by strtod; out of range is refused.
template <std::floating_point T>
std::optional<T> parse_float_by_strtod(std::string_view text) {
  if (!is_float_text(text)) return std::nullopt;
  const std::string copy(text);  // NUL-terminated
  errno = 0;
  T value{};
  if constexpr (std::same_as<T, float>)
    value = std::strtof(copy.c_str(), nullptr);
  else
    value = T(std::strtod(copy.c_str(), nullptr));
  // Out of range: an overflow (infinite) or an underflow to zero; a subnormal value reads.
  if (errno == ERANGE && (value == 0 || value - value != 0)) return std::nullopt;
  return value;
}

}  // namespace detail

// The value of the whole of `text`: an integer of T, or for float and double a decimal, a
// scientific or "inf"/"nan" text (std::from_chars, general format). nullopt otherwise.
template <typename T>
requires std::integral<T> || std::floating_point<T> std::optional<T> parse_number(std::string_view text) {
#if !defined(__cpp_lib_to_chars)
  if constexpr (std::floating_point<T>) {
    return detail::parse_float_by_strtod<T>(text);
  } else
#endif
  {
    T value{};
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    if (text.empty() || error != std::errc() || stop != end) return std::nullopt;
    return value;
  }
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
