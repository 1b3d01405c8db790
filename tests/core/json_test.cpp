// The one JSON reader (core/json.h): documents read as written, every error names the place; the
// flat numbers of a JSON-lines log; and the writer of such lines.
#include "core/json.h"
#include "core/json_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace sz {
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

// A JSON-lines log's flat numbers: null as NaN, strings and nested values left out, a line cut short
// (one being written) or another kind of document refused.
TEST(JsonNumbers, ReadsTheFlatNumbersOfALogLine) {
  const auto r =
      json_numbers(R"({"step":100,"loss":2.5,"lr":1e-05,"policy":null,"name":"x,}","nested":{"a":[1,2]},"ok":true})");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->size(), 4u);
  EXPECT_EQ(r->at("step"), 100);
  EXPECT_EQ(r->at("loss"), 2.5);
  EXPECT_EQ(r->at("lr"), 1e-05);
  EXPECT_TRUE(std::isnan(r->at("policy")));
  EXPECT_EQ(r->count("name"), 0u);
  EXPECT_EQ(r->count("nested"), 0u);
  EXPECT_FALSE(json_numbers(R"({"step":1,"loss":)").has_value());  // a line being written
  EXPECT_FALSE(json_numbers("[1, 2]").has_value());
  EXPECT_FALSE(json_numbers("not json").has_value());
  // Beyond a double's range: infinity, for the reader's range check to name (the ladder's lines).
  EXPECT_EQ(json_numbers(R"({"conditions":1e999})")->at("conditions"), std::numeric_limits<double>::infinity());
  const Json big = parse_json(R"({"x":-1e999})", "big.json").take_or_throw();
  EXPECT_THROW(JsonAt(big, "big.json")["x"].number(), Error);
}

// A log line (Compact) reads back through json_numbers, keys quoted and a diverged loss as null.
TEST(JsonWriter, CompactLinesReadBack) {
  JsonWriter w;
  w.object(JsonWriter::Layout::Compact)
      .add("step", int64_t{40})
      .add("time", 1.5, "%.3f")
      .add("loss", std::nan(""))
      .add("weird \"key\"", 0.125)
      .close();
  EXPECT_EQ(w.str(), R"({"step":40,"time":1.500,"loss":null,"weird \"key\"":0.125})");
  const auto back = json_numbers(w.str());
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->at("step"), 40.0);
  EXPECT_TRUE(std::isnan(back->at("loss")));
  EXPECT_EQ(back->at("weird \"key\""), 0.125);
  EXPECT_EQ(JsonWriter().object(JsonWriter::Layout::Compact).close().str(), "{}");
}

// A document: Lines containers an item a line, Inline ones (and all inside them) on one line,
// strings escaped, raw JSON as given; and what it writes, the reader reads back.
TEST(JsonWriter, DocumentsLayOutAsAskedAndReadBack) {
  JsonWriter w;
  w.object()
      .add("format", "a \"test\"\n")
      .add("ok", true)
      .object("games", JsonWriter::Layout::Inline)
      .add("played", 3)
      .array("seen")
      .add(1)
      .add(2)
      .close()
      .close()
      .array("players");
  for (const char* name : {"x", "y"}) w.object(JsonWriter::Layout::Inline).add("name", name).add("elo", -1.25, "%.1f").close();
  w.close().array("none").close().raw("sprt", "null").close();
  EXPECT_EQ(w.str(),
            "{\n"
            "  \"format\": \"a \\\"test\\\"\\u000a\",\n"
            "  \"ok\": true,\n"
            "  \"games\": {\"played\": 3, \"seen\": [1, 2]},\n"
            "  \"players\": [\n"
            "    {\"name\": \"x\", \"elo\": -1.2},\n"
            "    {\"name\": \"y\", \"elo\": -1.2}\n"
            "  ],\n"
            "  \"none\": [],\n"
            "  \"sprt\": null\n"
            "}");
  const Json back = parse_json(w.str(), "w.json").take_or_throw();
  const JsonAt at(back, "w.json");
  EXPECT_EQ(at["format"].text(), "a \"test\"\n");
  EXPECT_EQ(at["games"]["seen"][1].integer(0, 9), 2);
  EXPECT_EQ(at["players"][1]["name"].text(), "y");
  EXPECT_EQ(at["none"].size(), 0u);
  // An unclosed container is the caller's bug, refused rather than written half.
  JsonWriter open;
  open.object();
  EXPECT_THROW((void)open.str(), std::logic_error);
  EXPECT_THROW(JsonWriter().close(), std::logic_error);
}

}  // namespace
}  // namespace sz
