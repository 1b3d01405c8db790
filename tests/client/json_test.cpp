// The bundle's JSON reader: documents read as written, and every error names the place.
#include "client/json.h"

#include <gtest/gtest.h>

#include "client/json_fields.h"

namespace sz::client {
namespace {

TEST(Json, ReadsEveryKindOfValue) {
  const auto doc =
      parse_json(R"({"a": [1, -2.5e3, true, false, null], "s": "x\"\\\n\u00e9\ud83d\ude00", "o": {}})", "t.json");
  ASSERT_TRUE(doc) << doc.error();
  const JsonAt at(*doc, "t.json");
  EXPECT_EQ(at["a"].size(), 5u);
  EXPECT_EQ(at["a"][0].integer(0, 10), 1);
  EXPECT_DOUBLE_EQ(at["a"][1].number(), -2500.0);
  EXPECT_TRUE(at["a"][2].boolean());
  EXPECT_FALSE(at["a"][3].boolean());
  EXPECT_EQ(at["a"][4].value().kind, Json::Kind::Null);
  EXPECT_EQ(at["s"].text(), "x\"\\\n\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_TRUE(at["o"].members().empty());
}

TEST(Json, ErrorsNameTheLineAndColumn) {
  const auto doc = parse_json("{\n  \"a\": 1,\n  \"b\" 2\n}", "m.json");
  ASSERT_FALSE(doc);
  EXPECT_EQ(doc.error(), "m.json:3:7: expected ':'");
  EXPECT_NE(parse_json("{\"a\": 1, \"a\": 2}", "m.json").error().find("key 'a' given twice"), std::string::npos);
  EXPECT_NE(parse_json("[1, 2", "m.json").error().find("expected ']'"), std::string::npos);
  EXPECT_NE(parse_json("{\"a\": nan}", "m.json").error().find("expected a value"), std::string::npos);
  EXPECT_NE(parse_json("\"abc", "m.json").error().find("unterminated string"), std::string::npos);
  EXPECT_NE(parse_json("1 2", "m.json").error().find("unexpected text"), std::string::npos);
  EXPECT_NE(parse_json(std::string(100, '['), "m.json").error().find("nested more than"), std::string::npos);
}

TEST(Json, AccessorsNameTheDottedKey) {
  const auto doc = parse_json(R"({"net": {"blocks": "six", "list": [1]}})", "b/model.json");
  ASSERT_TRUE(doc);
  const JsonAt at(*doc, "b/model.json");
  try {
    (void)at["net"]["channels"];
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "b/model.json: missing key 'net.channels'");
  }
  try {
    (void)at["net"]["blocks"].number();
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "b/model.json: 'net.blocks' must be a number, not a string");
  }
  try {
    (void)at["net"]["list"][1];
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "b/model.json: 'net.list' has no element 1");
  }
}

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
