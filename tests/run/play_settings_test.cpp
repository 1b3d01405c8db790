// The play settings are declared once (search::play_settings: contempt and the leaf search,
// search/play_settings.h), and the config keys, the player-spec keys and the UCI options are
// derived from that declaration. These tests walk the declaration, so that a setting added there
// is checked here without a line of its own.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "config/section.h"
#include "core/number_text.h"
#include "eval/player_spec.h"
#include "games/registry.h"
#include "run/run_config.h"
#include "search/search_config.h"
#include "uci/uci_engine.h"

namespace sz {
namespace {

struct SpinOption {
  std::string line, name;
  int64_t value = 0, min = 0, max = 0;
};

// The spin options `uci` prints with `play` as its play-time search.
std::vector<SpinOption> spin_options(const search::SearchConfig& play) {
  std::ostringstream out;
  uci::UciEngine engine(out, {"sittuyin-zero", games::profile_names(), games::new_game, {}, "", {}}, {}, play);
  engine.handle("uci");
  std::vector<SpinOption> options;
  std::istringstream lines(out.str());
  for (std::string line; std::getline(lines, line);) {
    const size_t type = line.find(" type spin ");
    if (!line.starts_with("option name ") || type == std::string::npos) continue;
    SpinOption o{line, line.substr(12, type - 12)};
    std::istringstream rest(line.substr(type + 11));
    std::string defaults, min, max;
    rest >> defaults >> o.value >> min >> o.min >> max >> o.max;
    EXPECT_EQ(defaults + " " + min + " " + max, "default min max") << line;
    options.push_back(o);
  }
  EXPECT_NE(out.str().find("uciok"), std::string::npos) << out.str();
  return options;
}

void expect_defaults_in_range(const search::SearchConfig& play, const std::string& what) {
  const std::vector<SpinOption> options = spin_options(play);
  EXPECT_GE(options.size(), 6u) << what;
  for (const SpinOption& o : options) {
    EXPECT_LE(o.min, o.value) << what << ": " << o.line;
    EXPECT_LE(o.value, o.max) << what << ": " << o.line;
  }
}

// One declared setting: its names, its range as text, and its range and value as UCI shows them.
struct Declared {
  search::PlaySetting names;
  std::string top;  // the end of its range as a config or a player spec writes it
  int64_t uci_top = 0;
};

class ListSettings {
 public:
  template <typename T, typename N>
  void setting(const search::PlaySetting& s, const T&, N, N hi) {
    if constexpr (std::is_integral_v<T>)
      settings.push_back({s, std::to_string(hi), int64_t(hi) * s.uci_scale});
    else
      settings.push_back({s, shortest_text(hi), int64_t(std::llround(hi * float(s.uci_scale)))});
  }
  std::vector<Declared> settings;
};

std::vector<Declared> declared() {
  ListSettings list;
  const search::SearchConfig defaults;
  search::play_settings(list, defaults);
  return list.settings;
}

// Sets the play setting `key` (all of them when empty) to the top of its range.
class SetToTop {
 public:
  explicit SetToTop(std::string key = "") : key_(std::move(key)) {}
  template <typename T, typename N>
  void setting(const search::PlaySetting& s, T& field, N, N hi) {
    if (key_.empty() || key_ == s.key) field = hi;
  }

 private:
  std::string key_;
};

search::SearchConfig at_top(const std::string& key = "") {
  search::SearchConfig c;
  SetToTop top(key);
  search::play_settings(top, c);
  return c;
}

// The config keys whose values differ between two search configs ("key: value" lines).
std::string differences(const search::SearchConfig& a, const search::SearchConfig& b) {
  std::string out;
  for (const std::string& line : config::changed_fields(a, b)) out += line + "; ";
  return out;
}

// King Hunt was 0..10 in the config and 0..100 percent in UCI, so `play.leaf_king_hunt: 2` made
// `uci` print a default above its max. With one declaration no setting can: checked for the
// shipped config (the quickstart's `play`, which `uci` uses) and with every setting at its top.
TEST(PlaySettings, EveryUciOptionsDefaultLiesInItsRange) {
  const auto quickstart = run::load_run_config("quickstart");
  ASSERT_TRUE(quickstart.ok()) << quickstart.error();
  expect_defaults_in_range(quickstart->play, "the quickstart's play");

  // Every setting at its top, written as a `play` section and read back as a run config reads it.
  std::string yaml = "play:\n";
  for (const std::string& line : config::changed_fields(search::SearchConfig{}, at_top())) yaml += "  " + line + "\n";
  const auto top = run::parse_run_config(yaml, "top.yaml");
  ASSERT_TRUE(top.ok()) << top.error();
  EXPECT_EQ(differences(top->play, at_top()), "");
  expect_defaults_in_range(top->play, "every play setting at its top");
  const std::vector<SpinOption> options = spin_options(top->play);
  for (const Declared& d : declared()) {
    const std::string line =
        "option name " + std::string(d.names.uci) + " type spin default " + std::to_string(d.uci_top) + " min ";
    EXPECT_TRUE(std::any_of(options.begin(), options.end(), [&](const SpinOption& o) {
      return o.line.starts_with(line);
    })) << line;
  }
}

// Each declared setting is a config key (in `search` and `play`), a player-spec key and a UCI
// option, each name used once, and each sets the same field to the same value.
TEST(PlaySettings, EverySettingIsAConfigKeyAPlayerSpecKeyAndAUciOption) {
  const std::vector<Declared> settings = declared();
  ASSERT_GE(settings.size(), 6u);
  std::set<std::string> keys, specs, options;
  for (const Declared& d : settings) {
    const std::string key = d.names.key;
    EXPECT_TRUE(keys.insert(key).second) << key;
    EXPECT_TRUE(specs.insert(d.names.spec).second) << d.names.spec;
    EXPECT_TRUE(options.insert(d.names.uci).second) << d.names.uci;
    EXPECT_GT(d.names.uci_scale, 0) << key;
    EXPECT_FALSE(std::string(d.names.help).empty()) << key;
    const search::SearchConfig expected = at_top(key);
    ASSERT_NE(differences(search::SearchConfig{}, expected), "") << key << ": its top is its default";

    for (const char* section : {"search", "play"}) {
      const auto c = run::parse_run_config("", "run.yaml", {std::string(section) + "." + key + "=" + d.top});
      ASSERT_TRUE(c.ok()) << c.error();
      EXPECT_EQ(differences(expected, c->play), "") << section << "." << key;
    }

    const std::string spec_text = "uniform," + std::string(d.names.spec) + "=" + d.top;
    const auto spec = eval::parse_player_spec(spec_text);
    ASSERT_TRUE(spec.ok()) << spec.error();
    EXPECT_EQ(differences(expected, eval::player_search(*spec, {})), "") << spec_text;

    std::ostringstream out;
    uci::UciEngine engine(out, {"sittuyin-zero", games::profile_names(), games::new_game, {}, "", {}});
    engine.handle("setoption name " + std::string(d.names.uci) + " value " + std::to_string(d.uci_top));
    EXPECT_EQ(out.str(), "") << d.names.uci;
    engine.handle("setoption name " + std::string(d.names.uci) + " value " + std::to_string(d.uci_top + 1));
    EXPECT_NE(out.str().find("info string error: option '" + std::string(d.names.uci) + "'"), std::string::npos)
        << out.str();
  }
  EXPECT_EQ(uci::play_option_lines(search::SearchConfig{}).size(), settings.size());
}

// The help texts are made from the declaration too: every setting appears in both.
TEST(PlaySettings, TheHelpTextsListEverySetting) {
  const std::string uci_help = uci::play_options_help(search::SearchConfig{}, "play", "the defaults");
  const std::string arena_help = eval::player_search_settings_help(/*indent=*/6);
  for (const Declared& d : declared()) {
    EXPECT_NE(uci_help.find("  " + std::string(d.names.uci) + " "), std::string::npos) << uci_help;
    EXPECT_NE(uci_help.find("play." + std::string(d.names.key)), std::string::npos) << uci_help;
    EXPECT_NE(arena_help.find("      " + std::string(d.names.spec) + "="), std::string::npos) << arena_help;
  }
  std::istringstream lines(uci_help + arena_help);
  for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 96u) << line;
}

}  // namespace
}  // namespace sz
