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
