// The `sittuyin-zero` program as a user runs it: output format, exit codes, error messages.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "bench/benches.h"
#include "shell_helpers.h"
#include "test_paths.h"

namespace {

using sz::test::CommandRun;

// The program with `args`.
CommandRun run(const std::string& args) { return sz::test::run_shell(sz::test::binary() + " " + args); }

bool ends_with_line(const std::string& output, const std::string& line) {
  std::string trimmed = output;
  while (!trimmed.empty() && trimmed.back() == '\n') trimmed.pop_back();
  return trimmed.size() >= line.size() && trimmed.compare(trimmed.size() - line.size(), line.size(), line) == 0;
}

TEST(PerftCommand, DivideListsEveryMoveAndTheTotal) {
  const CommandRun r = run("perft --fen '4k3/8/8/3P4/8/8/P7/4K3[] w - - 0 1' --depth 2 --divide");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("d5c6f: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("a2a3: "), std::string::npos) << r.output;
  EXPECT_TRUE(ends_with_line(r.output, "Nodes searched: 56")) << r.output;
}

TEST(PerftCommand, StartPositionOfEachGame) {
  EXPECT_TRUE(ends_with_line(run("perft --depth 2").output, "Nodes searched: 7744"));
  EXPECT_TRUE(ends_with_line(run("perft --depth 3 --rules shatranj").output, "Nodes searched: 4176"));
}

TEST(PerftCommand, SuiteReportsFailuresAndExitsNonZero) {
  const std::string path = testing::TempDir() + "/suite.txt";
  std::ofstream(path) << "sittuyin;4k3/8/8/3P4/8/8/P7/4K3[] w - - 0 1;D1 12;D2 56\n"
                         "shatranj;4k3/8/8/3R4/8/8/8/4K3 b - - 0 1;D1 3;D2 1\n";
  const CommandRun r = run("perft --suite " + path);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.output.find("FAIL line 2: shatranj;4k3/8/8/3R4/8/8/8/4K3 b - - 0 1: D2 expected 1 got 0"),
            std::string::npos)
      << r.output;
  EXPECT_TRUE(ends_with_line(r.output, "1 passed, 1 failed")) << r.output;
}

TEST(PerftCommand, BadInputIsAClearErrorNotACrash) {
  CommandRun r = run("perft --fen 'rnbkqbnr/ppppmppp/8/8/8/8/PPPPPPPP/RNBKQBNR w' --depth 1 --rules shatranj");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.output.find("unknown letter 'm'"), std::string::npos) << r.output;
  r = run("perft --depth 99");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.output.find("--depth wants a whole number in 1..20"), std::string::npos) << r.output;
  r = run("perft --suite /nonexistent/suite.txt");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.output.find("cannot open perft suite '/nonexistent/suite.txt'"), std::string::npos) << r.output;
  r = run("perft --depth 1 --rules nosuch");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.output.find("unknown rule profile 'nosuch'"), std::string::npos) << r.output;
}

// Inputs that used to mean a default or a success: each is an error now, with exit status 1.
TEST(PerftCommand, EmptySuiteFolderOrFenIsAnError) {
  const std::string empty = testing::TempDir() + "/empty-suite.txt", comments = testing::TempDir() + "/comments.txt";
  std::ofstream(empty) << "";
  std::ofstream(comments) << "# only a comment\n\n";
  for (const std::string& suite : {empty, comments}) {
    const CommandRun r = run("perft --suite " + suite);
    EXPECT_EQ(r.status, 1) << r.output;
    EXPECT_NE(r.output.find("perft suite '" + suite + "' holds no positions"), std::string::npos) << r.output;
  }
  CommandRun r = run("perft --suite " + testing::TempDir());
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("is a directory, not a file"), std::string::npos) << r.output;
  r = run("perft --fen '' --depth 1");  // was the start position
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("option --fen needs a value, not an empty one"), std::string::npos) << r.output;
  r = run("perft --rules '' --depth 1");  // was the default profile
  EXPECT_EQ(r.status, 1) << r.output;
}

TEST(PlotCommand, MissingOrNonRunDirectoryIsAnError) {
  CommandRun r = run("plot --run /nonexistent/run");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("/nonexistent/run: no such run directory"), std::string::npos) << r.output;
  const std::string not_a_run = testing::TempDir() + "/not-a-run";
  std::filesystem::create_directories(not_a_run);
  r = run("plot --run " + not_a_run);  // a typo naming another directory: every plot skipped, exit 0
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("not a run directory"), std::string::npos) << r.output;
}

TEST(Program, EveryCommandHasHelp) {
  for (const char* command : {"perft", "rules", "selfplay", "uci", "arena", "loop", "levels", "export", "train", "plot",
                              "placements", "placements ab", "tables", "bench"}) {
    const CommandRun r = run(std::string(command) + " --help");
    EXPECT_EQ(r.status, 0) << command;
    EXPECT_NE(r.output.find("usage: sittuyin-zero " + std::string(command)), std::string::npos) << r.output;
  }
  EXPECT_EQ(run("--help").status, 0);
  EXPECT_EQ(run("frobnicate").status, 2);
}

// The benchmarks come from bench/'s one list: `bench --help` names each, and each has a help.
TEST(Program, EveryBenchmarkHasHelp) {
  const CommandRun list = run("bench --help");
  EXPECT_EQ(list.status, 0) << list.output;
  EXPECT_EQ(run("bench").status, 2);
  EXPECT_EQ(run("bench frobnicate").status, 1);
  ASSERT_EQ(sz::bench::benchmarks().size(), 8u);
  for (const sz::cli::Command& b : sz::bench::benchmarks()) {
    const std::string name(b.name);
    EXPECT_NE(list.output.find("\n  " + name + " "), std::string::npos) << list.output;
    const CommandRun r = run("bench " + name + " --help");
    EXPECT_EQ(r.status, 0) << name;
    EXPECT_NE(r.output.find("usage: sittuyin-zero bench " + name), std::string::npos) << r.output;
  }
}

// The flags' errors name the flag and exit with status 1, for every command alike.
TEST(Program, BadFlagsAreClearErrors) {
  const struct {
    const char* args;
    const char* error;
  } cases[] = {
      {"plot --frobnicate", "unknown option '--frobnicate' (see --help)"},
      {"plot --run", "option --run needs a value"},
      {"arena --sims 0 --player random --player random", "option --sims wants a whole number in 1..10000000, not '0'"},
      {"bench perft --repeat 1000", "option --repeat wants a whole number in 1..100, not '1000'"},
      {"tables probe --fen x --fen y", "option --fen given twice"},
      {"export --out /nonexistent/b", "--model and --out are required"},
      {"bench nn --precision float64", "option --precision wants float32, float16, bfloat16 or auto, not 'float64'"},
  };
  for (const auto& c : cases) {
    const CommandRun r = run(c.args);
    EXPECT_EQ(r.status, 1) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.error), std::string::npos) << c.args << "\n" << r.output;
  }
}

TEST(RulesCommand, PrintsTheBoardMovesAndVerdict) {
  const CommandRun r = run("rules --rules sittuyin --fen '8/8/8/8/8/8/8/k1K1R3[] w - - 0 1' --moves e1e2");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("FEN: 8/8/8/8/8/8/4R3/k1K5[] b - 32 0 1"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("Legal moves (0):"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("Result: 1/2-1/2 (stalemate)"), std::string::npos) << r.output;
}

}  // namespace
