// core/: untrusted text shown in messages, and the FNV-1a checksum.
#include <gtest/gtest.h>

#include <string>

#include "core/fnv1a.h"
#include "core/shown_text.h"

namespace sz {
namespace {

TEST(ShownText, PrintableTextIsUnchanged) {
  EXPECT_EQ(shown_text("name: quickstart"), "name: quickstart");
  EXPECT_EQ(shown_text(""), "");
  EXPECT_EQ(shown_text("caf\xC3\xA9 \xE2\x99\x9E"), "caf\xC3\xA9 \xE2\x99\x9E");  // UTF-8 stays
}

TEST(ShownText, BinaryBytesAreEscaped) {
  EXPECT_EQ(shown_text(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(shown_text("\x1B[2J\x7F"), "\\x1B[2J\\x7F");
  EXPECT_EQ(shown_text("tab\there\n"), "tab\\x09here\\x0A");
  // Bytes that are not UTF-8: a lone continuation byte, a truncated sequence, an overlong form.
  EXPECT_EQ(shown_text("\x80\xFF"), "\\x80\\xFF");
  EXPECT_EQ(shown_text("\xE2\x99"), "\\xE2\\x99");
  EXPECT_EQ(shown_text("\xC0\xAF"), "\\xC0\\xAF");
  EXPECT_EQ(shown_text("\xED\xA0\x80"), "\\xED\\xA0\\x80");  // a UTF-16 surrogate
}

TEST(ShownText, LongTextIsCutShort) {
  const std::string long_text(200, 'x');
  EXPECT_EQ(shown_text(long_text), std::string(60, 'x') + "...");
  EXPECT_EQ(shown_text(std::string(60, 'x')), std::string(60, 'x'));
  EXPECT_EQ(shown_text("\x01\x02\x03\x04", 2), "\\x01\\x02...");  // an escape counts as one
  EXPECT_EQ(shown_text(std::string(100, '\xFF')).size(), 60u * 4 + 3);
}

TEST(Fnv1a, KnownValues) {
  EXPECT_EQ(fnv1a64("", 0), 0xcbf29ce484222325ull);
  EXPECT_EQ(fnv1a64("a", 1), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(fnv1a64("foobar", 6), 0x85944171f73967e8ull);
  EXPECT_EQ(fnv1a64("bar", 3, fnv1a64("foo", 3)), fnv1a64("foobar", 6));  // continues
}

}  // namespace
}  // namespace sz
