// core/: whole-text number parsing and field splitting, shared by every parser of untrusted text.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/parse_number.h"
#include "core/split.h"

namespace sz {
namespace {

TEST(ParseNumber, ReadsTheWholeTextOrNothing) {
  EXPECT_EQ(parse_number<int>("12"), 12);
  EXPECT_EQ(parse_number<int>("-7"), -7);
  EXPECT_EQ(parse_number<uint64_t>("18446744073709551615"), UINT64_MAX);
  for (const std::string_view bad : {"", " 12", "12 ", "12x", "+1", "0x10", "1.5"})
    EXPECT_FALSE(parse_number<int>(bad).has_value()) << "'" << bad << "'";
  EXPECT_FALSE(parse_number<int>("99999999999").has_value());  // overflows int
  EXPECT_FALSE(parse_number<uint64_t>("-1").has_value());
}

TEST(ParseNumber, ReadsFloatsAsWritten) {
  EXPECT_EQ(parse_number<double>("0.25"), 0.25);
  EXPECT_EQ(parse_number<double>("1e-4"), 1e-4);
  EXPECT_EQ(parse_number<float>("2"), 2.0f);
  EXPECT_TRUE(std::isinf(*parse_number<double>("inf")));
  EXPECT_FALSE(parse_number<double>("1e999").has_value());
  EXPECT_FALSE(parse_number<double>("0.5,").has_value());
  EXPECT_FALSE(parse_number<double>("").has_value());
}

// The web client's runtime reads floats with strtod (Emscripten's libc++ has no floating-point
// from_chars): it must accept and refuse exactly what from_chars does, with the same values.
TEST(ParseNumber, TheStrtodFallbackReadsWhatFromCharsReads) {
  for (const std::string_view text :
       {"0.25",  "1e-4",   "2",      "-0.5", "1.",     ".5",    "-.5e+3",       "12E2", "inf", "-Infinity", "NaN",
        "1e999", "-1e999", "",       " 1",   "1 ",     "+1",    "0x10",         "1e",   "1e+", ".",         "-",
        "e5",    "1.5.2",  "nan(1)", "nan(", "1e-400", "1e-40", "3.4028235e38", "1e39", "12x", "0.5,"}) {
    const std::optional<double> d = parse_number<double>(text), dd = detail::parse_float_by_strtod<double>(text);
    ASSERT_EQ(d.has_value(), dd.has_value()) << "'" << text << "'";
    if (d && !std::isnan(*d)) {
      EXPECT_EQ(*d, *dd) << "'" << text << "'";
    }
    const std::optional<float> f = parse_number<float>(text), ff = detail::parse_float_by_strtod<float>(text);
    ASSERT_EQ(f.has_value(), ff.has_value()) << "'" << text << "' as float";
    if (f && !std::isnan(*f)) {
      EXPECT_EQ(*f, *ff) << "'" << text << "' as float";
    }
  }
}

TEST(ParseNumber, IntoLeavesTheTargetAloneOnFailure) {
  int64_t out = 5;
  EXPECT_FALSE(parse_number("x", out));
  EXPECT_EQ(out, 5);
  EXPECT_TRUE(parse_number("42", out));
  EXPECT_EQ(out, 42);
}

TEST(Split, KeepsEmptyFields) {
  using Fields = std::vector<std::string_view>;
  EXPECT_EQ(split("a,,b", ','), (Fields{"a", "", "b"}));
  EXPECT_EQ(split("", ','), (Fields{""}));
  EXPECT_EQ(split("a,", ','), (Fields{"a", ""}));
  EXPECT_EQ(split("8/8/8", '/'), (Fields{"8", "8", "8"}));
}

TEST(Split, WordsAreRunsOfNonSpace) {
  using Words = std::vector<std::string_view>;
  EXPECT_EQ(split_words("  go  nodes\t100\n"), (Words{"go", "nodes", "100"}));
  EXPECT_TRUE(split_words(" \t ").empty());
  EXPECT_EQ(split_words("uci"), (Words{"uci"}));
}

}  // namespace
}  // namespace sz
