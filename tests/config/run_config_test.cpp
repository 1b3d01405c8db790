// Run configs: strict loading (errors name the file, line and key), --set overrides, the
// resolved YAML that runs write next to their outputs, and the built-in quickstart.
#include <gtest/gtest.h>

#include "config/run_config.h"

namespace sz::config {
namespace {

void expect_error(std::string_view yaml, const std::string& needle, const std::vector<std::string>& overrides = {}) {
  const auto r = parse_run_config(yaml, "run.yaml", overrides);
  ASSERT_FALSE(r.ok()) << "accepted: " << yaml;
  EXPECT_NE(r.error().find(needle), std::string::npos) << r.error();
}

TEST(RunConfig, QuickstartLoadsAndFlowsIntoSelfplay) {
  const auto c = load_run_config("quickstart");
  ASSERT_TRUE(c.ok()) << c.error();
  EXPECT_EQ(c->name, "quickstart");
  EXPECT_EQ(c->run_dir(), "runs/quickstart");
  EXPECT_EQ(c->search.full_visits, 64);
  EXPECT_EQ(c->selfplay.search.full_visits, 64);  // the search section reaches self-play
  EXPECT_EQ(c->selfplay.profile, c->profile);
  EXPECT_EQ(c->selfplay.seed, c->seed);
}

TEST(RunConfig, UnknownKeysAndBadValuesNameFileLineAndKey) {
  expect_error("search:\n  full_visitz: 3\n", "run.yaml:2: unknown key 'search.full_visitz'");
  expect_error("selfplay:\n  threads: 0\n", "run.yaml:2: 'selfplay.threads' must be in 1..1024, not 0");
  expect_error("resign:\n  threshold: 2\n", "'resign.threshold' must be in");
  expect_error("search:\n  root_selection: alphabeta\n", "'search.root_selection' must be one of puct | gumbel");
  expect_error("loop:\n  generations: -1\n", "'loop.generations' must be in 0..");
  expect_error("colour: red\n", "run.yaml:1: unknown key 'colour'");
  expect_error("net: enormous\n", "run.yaml:1:");
}

TEST(RunConfig, SetOverridesAndRejectsTypos) {
  const auto c = parse_run_config("search:\n  full_visits: 100\n", "run.yaml", {"search.full_visits=32", "loop.gating=true"});
  ASSERT_TRUE(c.ok()) << c.error();
  EXPECT_EQ(c->search.full_visits, 32);
  EXPECT_TRUE(c->loop.gating);
  expect_error("", "unknown key 'search.nosuch'", {"search.nosuch=1"});
  expect_error("", "expected key=value", {"search.full_visits"});
}

TEST(RunConfig, ResolvedYamlReadsBackToTheSameConfig) {
  const auto c = parse_run_config("name: x\nsearch:\n  cpuct_init: 2.5\nloop:\n  generations: 3\n", "run.yaml");
  ASSERT_TRUE(c.ok()) << c.error();
  const std::string yaml = to_yaml(*c);
  for (const char* key : {"search:", "selfplay:", "resign:", "train:", "loop:", "inference:", "cpuct_init: 2.5"})
    EXPECT_NE(yaml.find(key), std::string::npos) << key << " missing from\n" << yaml;
  const auto again = parse_run_config(yaml, "resolved.yaml");
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_EQ(to_yaml(*again), yaml);
}

}  // namespace
}  // namespace sz::config
