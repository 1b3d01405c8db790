#include "games/chaturanga/tables/ending_rules.h"

#include <cstdio>
#include <initializer_list>
#include <map>
#include <utility>

#include "core/fnv1a.h"
#include "games/chaturanga/rule_profile_fields.h"

namespace sz::chaturanga::tables {

namespace {

// The names the rule profile's field list (rule_profile_fields.h) gives the `end` section's
// choices, so that each name is spelled there alone: {"stalemate": "draw", ...}.
struct ChoiceNames {
  std::map<std::string, std::string> names;
  template <typename E>
  void choice(const char* key, const E& field, std::initializer_list<std::pair<const char*, E>> choices) {
    for (const auto& [name, value] : choices)
      if (value == field) names[key] = name;
  }
  template <typename T>
  void num(const char*, const T&, T, T) {}
  void flag(const char*, const bool&) {}
};

}  // namespace

EndingRules ending_rules(const RuleProfile& p) {
  return {p.game, p.stalemate, p.counting, p.n_move_plies, p.insufficient, p.bare_king_loses};
}

std::string describe(const EndingRules& r) {
  RuleProfile p;
  p.stalemate = r.stalemate;
  p.counting = r.counting;
  p.insufficient = r.insufficient;
  ChoiceNames choices;
  end_fields(choices, p);
  return "game=" + std::string(game_name(r.game)) + " stalemate=" + choices.names["stalemate"] +
         " counting=" + choices.names["counting"] + " n-move=" + std::to_string(r.n_move_plies) +
         " insufficient=" + choices.names["insufficient_material"] + " bare-king=" + (r.bare_king_loses ? "loses" : "no");
}

uint64_t fingerprint(const EndingRules& rules) {
  const std::string text = describe(rules);
  return fnv1a64(text.data(), text.size());
}

std::string rules_folder(const EndingRules& rules) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fingerprint(rules)));
  return std::string(game_name(rules.game)) + "-" + std::string(hex, 12);
}

int max_clock_plies(const EndingRules& rules) { return rules.n_move_plies > 0 ? rules.n_move_plies : kNoClockPlies; }

}  // namespace sz::chaturanga::tables
