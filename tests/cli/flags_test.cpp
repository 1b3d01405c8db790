// The flag parser every subcommand declares its flags with (src/cli/flags.h): the parsing, the
// errors that name the flag, and the help generated from the same declaration.
#include "cli/flags.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace sz::cli {
namespace {

// A command's flags as the subcommands declare them.
struct Options {
  std::string run, out;
  std::vector<std::string> games;
  int count = 5;
  int64_t seed = -1;
  double seconds = 30;
  bool quiet = false;
  std::vector<int> batches = {1, 16};
  ConfigFlags config;
};

Flags flags_of(Options& o) {
  Flags f("prog --run DIR [options]", "Does a thing with a run.\n");
  f.text("--run", "DIR", o.run, "the run directory").required();
  f.text("--out/--dir", "DIR", o.out, "where the output goes");
  f.texts("--games", "DIR", o.games, "a folder of shards; repeat to compare runs");
  f.number("--count", "N", o.count, 2, 20, "levels, 2..20 (default 5)");
  f.number("--seed", "N", o.seed, 0, 2'000'000'000, "seeds every game");
  f.number("--seconds", "S", o.seconds, 0, 86'400, "how long the games may go on");
  f.set("--quiet", o.quiet, "no line per game");
  f.numbers("--batches", "LIST", o.batches, 1, 4096, "comma-separated batch sizes (default 1,16)");
  f.config(o.config, "run config (default: DIR/config.yaml)");
  return f;
}

// The error parse() throws on `args`, or "" when it throws none.
std::string error_of(const std::vector<std::string>& args) {
  Options o;
  Flags f = flags_of(o);
  try {
    f.parse(args);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Flags, ReadsEveryKindIntoItsTarget) {
  Options o;
  Flags f = flags_of(o);
  const std::vector<std::string> args = {"--run",     "r",     "--dir",   "d",         "--games", "g1",
                                         "--games",   "g2",    "--count", "7",         "--seed",  "3",
                                         "--seconds", "12",    "--quiet", "--batches", "1,2,64",  "--config",
                                         "c.yaml",    "--set", "a=1",     "--set",     "b=2"};
  ASSERT_TRUE(f.parse(args));
  EXPECT_EQ(o.run, "r");
  EXPECT_EQ(o.out, "d");
  EXPECT_EQ(o.games, (std::vector<std::string>{"g1", "g2"}));
  EXPECT_EQ(o.count, 7);
  EXPECT_EQ(o.seed, 3);
  EXPECT_EQ(o.seconds, 12.0);
  EXPECT_TRUE(o.quiet);
  EXPECT_EQ(o.batches, (std::vector<int>{1, 2, 64}));
  EXPECT_EQ(o.config.name, "c.yaml");
  EXPECT_EQ(o.config.overrides, (std::vector<std::string>{"a=1", "b=2"}));
  EXPECT_TRUE(o.config.given());
  EXPECT_TRUE(f.given("--out"));  // given as --dir, its other name
  EXPECT_TRUE(f.given("--dir"));
  EXPECT_FALSE(f.given("--nope"));
}

TEST(Flags, LeavesTheDefaultsOfFlagsNotGiven) {
  Options o;
  Flags f = flags_of(o);
  ASSERT_TRUE(f.parse(std::vector<std::string>{"--run", "r"}));
  EXPECT_EQ(o.count, 5);
  EXPECT_EQ(o.seed, -1);
  EXPECT_FALSE(o.quiet);
  EXPECT_EQ(o.batches, (std::vector<int>{1, 16}));
  EXPECT_FALSE(o.config.given());
  EXPECT_FALSE(f.given("--count"));
}

TEST(Flags, AnUnknownFlagIsAnError) {
  EXPECT_EQ(error_of({"--run", "r", "--frobnicate", "1"}), "unknown option '--frobnicate' (see --help)");
  EXPECT_EQ(error_of({"--run", "r", "stray"}), "unknown option 'stray' (see --help)");
  EXPECT_EQ(error_of({"--run", "r", "--count=3"}), "unknown option '--count=3' (see --help)");
}

TEST(Flags, AMissingOrEmptyValueIsAnError) {
  EXPECT_EQ(error_of({"--run"}), "option --run needs a value");
  EXPECT_EQ(error_of({"--run", "r", "--count"}), "option --count needs a value");
  // An empty value would read as the flag left out: the silent default of a typo.
  EXPECT_EQ(error_of({"--run", ""}), "option --run needs a value, not an empty one");
  EXPECT_EQ(error_of({"--run", "r", "--dir", ""}), "option --dir needs a value, not an empty one");
}

TEST(Flags, ANumberOutOfRangeOrNotANumberIsAnError) {
  EXPECT_EQ(error_of({"--run", "r", "--count", "21"}), "option --count wants a whole number in 2..20, not '21'");
  EXPECT_EQ(error_of({"--run", "r", "--count", "1"}), "option --count wants a whole number in 2..20, not '1'");
  EXPECT_EQ(error_of({"--run", "r", "--count", "3x"}), "option --count wants a whole number in 2..20, not '3x'");
  EXPECT_EQ(error_of({"--run", "r", "--count", "2.5"}), "option --count wants a whole number in 2..20, not '2.5'");
  EXPECT_EQ(error_of({"--run", "r", "--seed", "99999999999999999999"}),
            "option --seed wants a whole number in 0..2000000000, not '99999999999999999999'");
  EXPECT_EQ(error_of({"--run", "r", "--batches", "1,,2"}), "option --batches wants a whole number in 1..4096, not ''");
  EXPECT_EQ(error_of({"--run", "r", "--batches", "1,5000"}),
            "option --batches wants a whole number in 1..4096, not '5000'");
}

TEST(Flags, AFlagGivenTwiceIsAnErrorUnlessRepeatable) {
  EXPECT_EQ(error_of({"--run", "r", "--count", "3", "--count", "4"}),
            "option --count given twice (it takes one value)");
  EXPECT_EQ(error_of({"--run", "r", "--run", "s"}), "option --run given twice (it takes one value)");
  EXPECT_EQ(error_of({"--run", "r", "--quiet", "--quiet"}), "option --quiet given twice (it takes one value)");
  EXPECT_EQ(error_of({"--run", "r", "--out", "a", "--dir", "b"}), "option --dir given twice (it takes one value)");
  EXPECT_EQ(error_of({"--run", "r", "--games", "a", "--games", "b", "--set", "x=1", "--set", "y=2"}), "");
}

TEST(Flags, ARequiredFlagMissingIsAnError) {
  EXPECT_EQ(error_of({}), "--run is required (see --help)");
  EXPECT_EQ(error_of({"--count", "3"}), "--run is required (see --help)");
  std::string a, b;
  Flags two("prog --a X --b Y");
  two.text("--a", "X", a, "one").required();
  two.text("--b", "Y", b, "two").required();
  try {
    two.parse(std::vector<std::string>{"--b", "y"});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "--a and --b are required (see --help)");  // all of them named
  }
}

TEST(Flags, ChoiceAndCustomFlagsNameTheFlagInTheirErrors) {
  enum class Kind { Fast, Slow };
  Kind kind = Kind::Slow;
  Flags f("prog");
  f.choice("--kind", "K", kind, {{"fast", Kind::Fast}, {"slow", Kind::Slow}}, "how");
  ASSERT_TRUE(f.parse(std::vector<std::string>{"--kind", "fast"}));
  EXPECT_EQ(kind, Kind::Fast);
  Flags g("prog");
  g.choice("--kind", "K", kind, {{"fast", Kind::Fast}, {"slow", Kind::Slow}, {"auto", Kind::Slow}}, "how");
  try {
    g.parse(std::vector<std::string>{"--kind", "medium"});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "option --kind wants fast, slow or auto, not 'medium'");
  }
}

TEST(Flags, HelpIsAskedForAnywhereAndParsesNothing) {
  Options o;
  Flags f = flags_of(o);
  testing::internal::CaptureStdout();
  // --help wins over an unknown flag and a missing required one; nothing is read.
  EXPECT_FALSE(f.parse(std::vector<std::string>{"--count", "7", "--nope", "--help"}));
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(out, f.help());
  EXPECT_EQ(o.count, 5);
  Flags g = flags_of(o);
  testing::internal::CaptureStdout();
  EXPECT_FALSE(g.parse(std::vector<std::string>{"-h"}));
  EXPECT_EQ(testing::internal::GetCapturedStdout(), g.help());
  EXPECT_TRUE(wants_help(std::vector<std::string>{"x", "--help"}));
  EXPECT_FALSE(wants_help(std::vector<std::string>{"x", "--helpful"}));
}

TEST(Flags, HelpIsGeneratedFromTheDeclarations) {
  Options o;
  const std::string help = flags_of(o).help();
  EXPECT_EQ(help.rfind("usage: prog --run DIR [options]\n\nDoes a thing with a run.\n", 0), 0u) << help;
  // One line per flag in declaration order, the help in one column.
  EXPECT_NE(help.find("\n  --run DIR        the run directory\n"), std::string::npos) << help;
  EXPECT_NE(help.find("\n  --out/--dir DIR  where the output goes\n"), std::string::npos) << help;
  EXPECT_NE(help.find("\n  --quiet          no line per game\n"), std::string::npos) << help;
  EXPECT_NE(help.find("\n  --set KEY=VALUE  override a config value (repeatable)\n"), std::string::npos) << help;
  EXPECT_LT(help.find("--run DIR"), help.find("--count N"));
  EXPECT_LT(help.find("--count N"), help.find("--config FILE"));
}

TEST(Flags, HelpWrapsLongTextsAndPutsAWideFlagsTextBesideIt) {
  std::string sprt, x;
  Flags f("prog", "About.\n");
  f.text("--x", "N", x, "short");
  f.text("--sprt", "ELO0,ELO1[,ALPHA,BETA],AND,MORE", sprt,
         "two players: stop once H0 (elo <= ELO0) or H1 (elo >= ELO1) of the first player over the second is "
         "accepted (alpha, beta: 0.05), and a few more words to wrap the text over three lines at the least");
  f.after("Text after.\n");
  const std::string help = f.help();
  std::istringstream in(help);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 8u) << help;
  EXPECT_EQ(lines[3], "  --x N  short");
  EXPECT_EQ(lines[4].rfind("  --sprt ELO0,ELO1[,ALPHA,BETA],AND,MORE  two players: stop once", 0), 0u) << help;
  for (size_t k = 4; k < 7; ++k) {
    EXPECT_LE(lines[k].size(), 100u) << lines[k];
    EXPECT_NE(lines[k].back(), ' ') << lines[k];
  }
  EXPECT_EQ(lines[5].rfind("         ", 0), 0u) << help;  // continued at the column
  EXPECT_NE(lines[5][9], ' ') << help;
  EXPECT_EQ(lines[7], "Text after.");
}

TEST(Flags, OneOfListsWords) {
  EXPECT_EQ(Flags::one_of({"a"}), "a");
  EXPECT_EQ(Flags::one_of({"a", "b"}), "a or b");
  EXPECT_EQ(Flags::one_of({"a", "b", "c"}), "a, b or c");
}

}  // namespace
}  // namespace sz::cli
