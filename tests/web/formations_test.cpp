// web/formations.txt, the formations the page offers for "place the rest": a book file that the
// arena's `placement=book:` reads, every formation placeable under at least one Sittuyin profile,
// and every Sittuyin profile with at least one of them to offer.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "eval/placement_control.h"
#include "games/chaturanga/rule_profiles.h"
#include "games/formation.h"
#include "games/formation_play.h"
#include "games/registry.h"
#include "test_paths.h"

namespace sz {
namespace {

TEST(WebFormations, EveryOneIsABookLinePlaceableUnderSomeProfile) {
  const auto book = eval::parse_placement_control("book:" + test::source_dir() + "/web/formations.txt");
  ASSERT_TRUE(book) << book.error();
  ASSERT_GE(book->formations.size(), 4u);
  std::map<std::string, int> offered;  // per profile
  for (const auto& entry : book->formations) {
    int profiles = 0;
    for (const std::string& profile : chaturanga::builtin_rule_profiles()) {
      if ((*games::new_game(profile))->spec().game != "sittuyin") continue;
      const bool ok = games::check_formation(entry.formation, profile).ok();
      offered[profile] += ok;
      profiles += ok;
    }
    EXPECT_GT(profiles, 0) << entry.where << ": " << games::formation_text(entry.formation);
  }
  ASSERT_GE(offered.size(), 5u);
  for (const auto& [profile, count] : offered) EXPECT_GT(count, 0) << profile << " is offered no formation";
}

}  // namespace
}  // namespace sz
