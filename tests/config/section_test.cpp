// config/section.h with a toy config of its own (no module's): strict reading, the errors and
// their places, --set overrides, writing back, and the check of configs built in code.
#include "config/section.h"

#include <gtest/gtest.h>

#include <string>

namespace sz::config {
namespace {

enum class Colour { Red, Green };

struct Toy {
  int count = 3;
  double share = 0.5;
  uint64_t seed = 1;
  bool on = false;
  std::string label = "x";
  Colour colour = Colour::Red;
  int span[2] = {1, 2};
  int low = 1, high = 5;
};

template <typename V>
void fields(V& v, Toy& t) {
  v.num("count", t.count, 1, 10);
  v.num("share", t.share, 0.0, 1.0);
  v.num("seed", t.seed, uint64_t{0}, ~uint64_t{0});
  v.flag("on", t.on);
  v.text("label", t.label);
  v.choice("colour", t.colour, {{"red", Colour::Red}, {"green", Colour::Green}});
  v.range("span", t.span, 1, 4);
  v.num("low", t.low, 0, 100);
  v.num("high", t.high, 0, 100);
  v.check(t.low <= t.high, "low", "must be at most '" + v.path("high") + "'");
}

void expect_error(std::string_view yaml, const std::string& needle) {
  const auto r = parse_config<Toy>(yaml, "toy.yaml");
  ASSERT_FALSE(r.ok()) << "accepted: " << yaml;
  EXPECT_NE(r.error().find(needle), std::string::npos) << r.error();
}

TEST(Section, ReadsEveryKindOfField) {
  const auto t = parse_config<Toy>(
      "count: 7\nshare: 0.25\nseed: 18446744073709551615\non: true\nlabel: hello\ncolour: green\nspan: [2, 3]\n",
      "toy.yaml");
  ASSERT_TRUE(t.ok()) << t.error();
  EXPECT_EQ(t->count, 7);
  EXPECT_EQ(t->share, 0.25);
  EXPECT_EQ(t->seed, ~uint64_t{0});
  EXPECT_TRUE(t->on);
  EXPECT_EQ(t->label, "hello");
  EXPECT_EQ(t->colour, Colour::Green);
  EXPECT_EQ(t->span[0], 2);
  EXPECT_EQ(t->span[1], 3);
  EXPECT_EQ(parse_config<Toy>("", "toy.yaml")->count, 3);  // absent keys keep the defaults
}

TEST(Section, ErrorsNameTheFileTheLineAndTheKey) {
  expect_error("label: a\ncount: 11\n", "toy.yaml:2: 'count' must be in 1..10, not 11");
  expect_error("count: many\n", "toy.yaml:1: 'count' has a value of the wrong type");
  expect_error("colour: blue\n", "toy.yaml:1: 'colour' must be one of red | green, not 'blue'");
  expect_error("span: [3, 2]\n", "'span' must satisfy 1 <= first <= last <= 4");
  expect_error("span: 3\n", "'span' must be [first, last]");
  expect_error("count: 2\ncolor: red\n", "toy.yaml:2: unknown key 'color'");
  expect_error("count: 2\ncount: 3\n", "toy.yaml:2: duplicate key 'count' (first given on line 1)");
  expect_error("count:\nlabel: a\n", "toy.yaml:1: 'count' has no value");
  expect_error("low: 9\nhigh: 2\n", "toy.yaml:1: 'low' must be at most 'high'");
  expect_error("count: [1\n", "toy.yaml:");
  expect_error("- 1\n- 2\n", "the document must be a mapping");
}

TEST(Section, NestedSectionsHaveDottedPaths) {
  Section root = read_document("outer:\n  count: 0\n", "toy.yaml");
  auto outer = root.child("outer");
  ASSERT_TRUE(outer.has_value());
  Toy t;
  try {
    fields(*outer, t);
    FAIL() << "accepted count 0";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "toy.yaml:2: 'outer.count' must be in 1..10, not 0");
  }
  EXPECT_FALSE(root.child("missing").has_value());
  root.finish();  // `outer` and `missing` were read
}

TEST(Section, ListsOfMappingsHaveIndexedPaths) {
  Section root = read_document("outer:\n  - count: 2\n  - count: 0\nflat: 3\n", "toy.yaml");
  std::vector<Section> items = root.items("outer");
  ASSERT_EQ(items.size(), 2u);
  Toy t;
  fields(items[0], t);
  EXPECT_EQ(t.count, 2);
  try {
    fields(items[1], t);
    FAIL() << "accepted count 0";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "toy.yaml:3: 'outer[1].count' must be in 1..10, not 0");
  }
  EXPECT_TRUE(root.items("missing").empty());
  EXPECT_THROW(root.items("flat"), Error);
}

TEST(Section, OverridesAreAppliedAndNamedInErrors) {
  Section root = read_document("count: 2\n", "toy.yaml", {"count=4", "label=set"});
  Toy t;
  fields(root, t);
  EXPECT_EQ(t.count, 4);
  EXPECT_EQ(t.label, "set");
  try {
    Section bad = read_document("count: 2\n", "toy.yaml", {"count=99"});
    fields(bad, t);
    FAIL() << "accepted count 99";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("--set count=99: 'count' must be in 1..10", 0), 0u) << e.what();
  }
  EXPECT_THROW(read_document("", "toy.yaml", {"count"}), Error);  // not key=value
}

TEST(Section, AWholeFileMustHoldAKey) {
  EXPECT_THROW(read_document("# nothing\n", "toy.yaml", {}, /*whole_file=*/true), Error);
  EXPECT_NO_THROW(read_document("# nothing\n", "toy.yaml", {}, /*whole_file=*/false));
}

TEST(Writer, WritesWhatASectionReadsBack) {
  Toy t;
  t.count = 9;
  t.share = 0.2f;  // a double that is not a short decimal: written exactly
  t.on = true;
  t.label = "two words";
  t.colour = Colour::Green;
  t.span[1] = 4;
  Writer w;
  fields(w, t);
  w.begin("inner");
  w.num("count", t.count, 1, 10);
  w.end();
  const std::string yaml = w.finish();
  EXPECT_NE(yaml.find("colour: green"), std::string::npos) << yaml;
  Section root = read_document(yaml, "written.yaml");
  Toy back;
  fields(root, back);
  ASSERT_TRUE(root.child("inner").has_value());
  root.finish();
  EXPECT_EQ(back.count, 9);
  EXPECT_EQ(back.share, t.share);
  EXPECT_TRUE(back.on);
  EXPECT_EQ(back.label, "two words");
  EXPECT_EQ(back.colour, Colour::Green);
  EXPECT_EQ(back.span[1], 4);
}

// A section that overlays another keeps only its own keys, and reads back over the base.
TEST(Writer, WritesAnOverlayAsTheKeysThatDiffer) {
  Toy base, over;
  base.count = 4;
  over.count = 4;
  over.colour = Colour::Green;
  over.span[1] = 4;
  over.share = 0.2f;
  Writer w;
  write_changes(w, "over", base, over);
  write_changes(w, "same", base, base);  // nothing differs: no section at all
  EXPECT_EQ(changed_fields(base, over),
            (std::vector<std::string>{"share: 0.20000000298023224", "colour: green", "span: [1, 4]"}));
  EXPECT_TRUE(changed_fields(base, base).empty());
  const std::string yaml = w.finish();
  EXPECT_EQ(yaml.find("same"), std::string::npos) << yaml;
  EXPECT_EQ(yaml.find("count"), std::string::npos) << yaml;
  Section root = read_document(yaml, "written.yaml");
  auto section = root.child("over");
  ASSERT_TRUE(section.has_value()) << yaml;
  Toy back = base;
  fields(*section, back);
  section->finish();
  root.finish();
  EXPECT_EQ(back.count, 4);
  EXPECT_EQ(back.colour, Colour::Green);
  EXPECT_EQ(back.span[1], 4);
  EXPECT_EQ(back.share, over.share);
  EXPECT_EQ(back.label, "x");
}

TEST(Checker, FindsTheFirstProblemOfAConfigBuiltInCode) {
  Toy t;
  EXPECT_EQ(config_problem(t), "");
  t.count = 0;
  EXPECT_EQ(config_problem(t), "'count' must be in 1..10, not 0");
  t.count = 2;
  t.low = 7;
  t.high = 6;
  EXPECT_EQ(config_problem(t), "'low' must be at most 'high'");
}

TEST(ConfigText, BuiltInByNameOrAFileByPath) {
  const auto tiny = find_config_text("nets", "tiny", "nets config");
  ASSERT_TRUE(tiny.ok()) << tiny.error();
  EXPECT_EQ(tiny->source, "configs/nets/tiny.yaml");
  const auto missing = find_config_text("nets", "huge", "nets config");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("unknown nets config 'huge' (built in: large long medium quick small tiny;"),
            std::string::npos)
      << missing.error();
  EXPECT_EQ(builtin_config_names("rules").front(), "shatranj");  // sorted
}

}  // namespace
}  // namespace sz::config
