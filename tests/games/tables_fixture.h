#pragma once
// Endgame tables for the tests: built once per test program into a temporary folder (removed at
// exit), for the four built-in sets of ending rules. The three-men tables take well under a
// second; a test that needs a four-men table names it.
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "games/chaturanga/rule_profiles.h"
#include "games/chaturanga/tables/generator.h"
#include "games/chaturanga/tables/table_dir.h"

namespace sz::chaturanga::tables::testing {

inline const std::vector<std::string>& test_profiles() {
  static const std::vector<std::string> profiles = {"sittuyin", "sittuyin-plyyard", "sittuyin-youzai", "shatranj"};
  return profiles;
}

// A folder of its own for this test program, removed at exit.
class TempDir {
 public:
  explicit TempDir(const std::string& name)
      : path_(std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

// Builds `materials` ("3", "4" or names like "KRvKN") for `profiles` into `dir`.
inline void build_test_tables(const std::string& dir, const std::vector<std::string>& profiles,
                              const std::vector<std::string>& materials) {
  BuildRequest request;
  for (const std::string& p : profiles) request.profiles.push_back(rule_profile(p).take_or_throw(p));
  for (const std::string& spec : materials) {
    if (spec == "3" || spec == "4") {
      for (Game game : {Game::Sittuyin, Game::Shatranj})
        for (const Material& m : all_materials(game, spec[0] - '0')) request.materials.push_back(m);
      continue;
    }
    for (Game game : {Game::Sittuyin, Game::Shatranj}) {
      const auto m = parse_material(spec, game);
      if (m) request.materials.push_back(m->canonical_form());
    }
  }
  request.out = dir;
  build_tables(request, [](const std::string&) {});
}

// The three-men tables of the four sets of rules, and KRvKN (a capture that starts a count, one
// under the n-move rule alone, one that bares a Shatranj king), built on first use: a few seconds.
inline const std::string& shared_tables() {
  static const TempDir dir("sz-tables-test");
  static const bool built =
      (build_test_tables(dir.path(), test_profiles(), {"3"}),
       build_test_tables(dir.path(), {"sittuyin", "sittuyin-youzai", "shatranj"}, {"KRvKN"}), true);
  (void)built;
  static const std::string path = dir.path();
  return path;
}

inline std::shared_ptr<const TableSet> shared_set(const std::string& profile) {
  return load_table_set(shared_tables(), ending_rules(*rule_profile(profile).take_or_throw(profile)));
}

}  // namespace sz::chaturanga::tables::testing
