#include "core/shown_text.h"

namespace sz {

namespace {

// The length of the valid UTF-8 sequence at the start of `s` (2..4), or 0 if there is none
// (overlong forms, surrogates and code points past U+10FFFF are not valid).
size_t utf8_sequence(std::string_view s) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char b = byte(0);
  size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the range of the second byte
  if (b >= 0xC2 && b <= 0xDF)
    n = 2;
  else if (b >= 0xE0 && b <= 0xEF)
    n = 3, lo = b == 0xE0 ? 0xA0 : 0x80, hi = b == 0xED ? 0x9F : 0xBF;
  else if (b >= 0xF0 && b <= 0xF4)
    n = 4, lo = b == 0xF0 ? 0x90 : 0x80, hi = b == 0xF4 ? 0x8F : 0xBF;
  if (n == 0 || s.size() < n || byte(1) < lo || byte(1) > hi) return 0;
  for (size_t i = 2; i < n; ++i)
    if (byte(i) < 0x80 || byte(i) > 0xBF) return 0;
  return n;
}

}  // namespace

std::string shown_text(std::string_view text, size_t max_chars) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  size_t chars = 0, i = 0;
  for (; i < text.size() && chars < max_chars; ++chars) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7F) {
      out += char(c);
      ++i;
    } else if (const size_t n = c >= 0x80 ? utf8_sequence(text.substr(i)) : 0; n > 0) {
      out.append(text.substr(i, n));
      i += n;
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
      ++i;
    }
  }
  if (i < text.size()) out += "...";
  return out;
}

}  // namespace sz
