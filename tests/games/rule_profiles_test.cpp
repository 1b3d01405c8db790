// Rule profiles load strictly from YAML, and every error names the file, line and key.
#include "games/chaturanga/rule_profiles.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>

namespace sz::chaturanga {
namespace {

using chaturanga::Game;

void expect_error(std::string_view yaml, const std::string& needle) {
  const auto r = parse_rule_profile(yaml, "test.yaml");
  ASSERT_FALSE(r.ok()) << "accepted: " << yaml;
  EXPECT_NE(r.error().find(needle), std::string::npos) << r.error();
  EXPECT_EQ(r.error().rfind("test.yaml", 0), 0u) << r.error();
}

TEST(RuleProfiles, AllBuiltInProfilesLoad) {
  const auto names = builtin_rule_profiles();
  ASSERT_EQ(names.size(), 6u);
  EXPECT_EQ(names.front(), "sittuyin");
  for (const auto& name : names) {
    const auto p = rule_profile(name);
    ASSERT_TRUE(p.ok()) << p.error();
    EXPECT_EQ((*p)->id, name);
    EXPECT_EQ((*p)->game, name == "shatranj" ? Game::Shatranj : Game::Sittuyin);
  }
}

TEST(RuleProfiles, ProfilesHashApart) {
  std::set<uint64_t> keys;
  for (const auto& name : builtin_rule_profiles()) keys.insert((*rule_profile(name))->hash_key);
  EXPECT_EQ(keys.size(), builtin_rule_profiles().size());
}

TEST(RuleProfiles, SittuyinFileEqualsTheStructDefaults) {
  // The defaults in RuleProfile are the `sittuyin` profile; the YAML file says so explicitly.
  const chaturanga::RuleProfile& file = **rule_profile("sittuyin");
  chaturanga::RuleProfile defaults;
  chaturanga::resolve(defaults);
  EXPECT_EQ(file.placement_order, defaults.placement_order);
  EXPECT_EQ(file.men_drop_zone[0], defaults.men_drop_zone[0]);
  EXPECT_EQ(file.rook_drop_zone[1], defaults.rook_drop_zone[1]);
  EXPECT_EQ(file.stalemate, defaults.stalemate);
  EXPECT_EQ(file.counting, defaults.counting);
  EXPECT_EQ(file.n_move_plies, defaults.n_move_plies);
  EXPECT_EQ(file.insufficient, defaults.insufficient);
  EXPECT_EQ(file.promotion_no_discovered_check, defaults.promotion_no_discovered_check);
}

TEST(RuleProfiles, UnknownKeysAreErrorsWithLine) {
  expect_error("id: x\ngame: sittuyin\ncolour: red\n", "test.yaml:3: unknown key 'colour'");
  expect_error("id: x\ngame: sittuyin\nend:\n  stalemat: draw\n", "unknown key 'end.stalemat'");
}

TEST(RuleProfiles, BadValuesNameTheKey) {
  expect_error("id: x\ngame: sittuyin\nend:\n  stalemate: win\n",
               "'end.stalemate' must be one of draw | illegal-to-cause | loss");
  expect_error("id: x\ngame: sittuyin\nend:\n  n_move_plies: lots\n",
               "'end.n_move_plies' has a value of the wrong type");
  expect_error("id: x\ngame: sittuyin\nend:\n  n_move_plies: -3\n", "'end.n_move_plies' must be in 0..1000");
  expect_error("id: x\ngame: sittuyin\nplacement:\n  men_ranks: [3, 1]\n", "'placement.men_ranks' must satisfy");
  expect_error("id: x\ngame: go\n", "'game' must be sittuyin or shatranj");
  expect_error("game: sittuyin\n", "missing key 'id'");
  expect_error("id: x\ngame: shatranj\npromotion:\n  diagonal_step: true\n",
               "'promotion' is for sittuyin profiles only");
  expect_error("id: [unclosed\n", "test.yaml:");
}

TEST(RuleProfiles, LoadsAFileByPath) {
  const std::string path = testing::TempDir() + "/my-profile.yaml";
  std::ofstream(path) << "id: my-profile\ngame: sittuyin\nend:\n  n_move_plies: 140\n";
  const auto p = rule_profile(path);
  ASSERT_TRUE(p.ok()) << p.error();
  EXPECT_EQ((*p)->n_move_plies, 140);
  EXPECT_EQ((*p)->stalemate, chaturanga::StalemateRule::Draw);  // everything else: the defaults
}

TEST(RuleProfiles, UnknownNameListsTheBuiltIns) {
  const auto p = rule_profile("sittuyn");
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().find("unknown rule profile 'sittuyn'"), std::string::npos) << p.error();
  EXPECT_NE(p.error().find("sittuyin-plyyard"), std::string::npos) << p.error();
}

}  // namespace
}  // namespace sz::chaturanga
