#pragma once
// Untrusted text (file contents, command-line words, protocol input) quoted in a message that
// a person reads on a terminal: never raw bytes, never pages of it.
#include <cstddef>
#include <string>
#include <string_view>

namespace sz {

// `text` with every control byte (tab and newline included), DEL and byte that is not part of
// valid UTF-8 written as \xNN, cut after `max_chars` characters (an escape or a multi-byte
// character counts as one) with "..." appended. Printable ASCII and valid UTF-8 stay as they are.
std::string shown_text(std::string_view text, size_t max_chars = 60);

}  // namespace sz
