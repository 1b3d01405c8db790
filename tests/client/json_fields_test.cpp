// The bundle's field-list visitors over core's JSON reader (client/json_fields.h): a struct's
// fields written and read back, and the errors of a strict reader.
#include "client/json_fields.h"

#include <gtest/gtest.h>

namespace sz::client {
namespace {

struct Sample {
  int count = 3;
  bool on = true;
  float ratio = 0.25f;
  std::string label = "x";
  int span[2] = {1, 2};
};

template <typename V>
void fields(V& v, Sample& s) {
  v.num("count", s.count, 1, 9);
  v.flag("on", s.on);
  v.num("ratio", s.ratio, 0.0f, 1.0f);
  v.text("label", s.label);
  v.range("span", s.span, 1, 4);
}

TEST(JsonFields, WriteThenReadGivesTheSameFields) {
  Sample s;
  s.count = 7;
  s.on = false;
  s.ratio = 0.1f;
  s.label = "a \"b\"";
  s.span[1] = 4;
  JsonFieldWriter w;
  fields(w, s);
  const auto doc = parse_json(w.object(), "s.json");
  ASSERT_TRUE(doc) << doc.error();
  Sample back;
  JsonFieldReader r(JsonAt(*doc, "s.json"));
  fields(r, back);
  r.finish();
  EXPECT_EQ(back.count, 7);
  EXPECT_FALSE(back.on);
  EXPECT_EQ(back.ratio, 0.1f);
  EXPECT_EQ(back.label, "a \"b\"");
  EXPECT_EQ(back.span[1], 4);
}

TEST(JsonFields, MissingUnknownAndOutOfRangeKeysAreErrors) {
  const auto read = [](const std::string& text) -> std::string {
    const auto doc = parse_json(text, "s.json");
    if (!doc) return doc.error();
    try {
      Sample s;
      JsonFieldReader r(JsonAt(*doc, "s.json"));
      fields(r, s);
      r.finish();
      return "";
    } catch (const Error& e) {
      return e.what();
    }
  };
  const std::string good = R"("on": true, "ratio": 0.5, "label": "l", "span": [1, 3])";
  EXPECT_EQ(read("{\"count\": 2, " + good + "}"), "");
  EXPECT_EQ(read("{" + good + "}"), "s.json: missing key 'count'");
  EXPECT_EQ(read("{\"count\": 12, " + good + "}"), "s.json: 'count' must be a whole number in 1..9");
  EXPECT_EQ(read("{\"count\": 2.5, " + good + "}"), "s.json: 'count' must be a whole number in 1..9");
  EXPECT_EQ(read("{\"count\": 2, \"extra\": 1, " + good + "}"), "s.json: 'extra' is not a key this runtime knows");
}

}  // namespace
}  // namespace sz::client
