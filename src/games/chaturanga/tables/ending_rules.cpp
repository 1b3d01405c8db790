#include "games/chaturanga/tables/ending_rules.h"

#include <cstdio>

#include "core/fnv1a.h"

namespace sz::chaturanga::tables {

namespace {

const char* stalemate_name(StalemateRule r) {
  switch (r) {
    case StalemateRule::Draw:
      return "draw";
    case StalemateRule::IllegalToCause:
      return "illegal-to-cause";
    case StalemateRule::Loss:
      return "loss";
  }
  return "?";
}

const char* insufficient_name(InsufficientMaterialRule r) {
  switch (r) {
    case InsufficientMaterialRule::None:
      return "none";
    case InsufficientMaterialRule::Pychess:
      return "pychess";
    case InsufficientMaterialRule::BareKings:
      return "bare-kings";
  }
  return "?";
}

}  // namespace

EndingRules ending_rules(const RuleProfile& p) {
  return {p.game, p.stalemate, p.counting, p.n_move_plies, p.insufficient, p.bare_king_loses};
}

std::string describe(const EndingRules& r) {
  return "game=" + std::string(game_name(r.game)) + " stalemate=" + stalemate_name(r.stalemate) +
         " counting=" + (r.counting == CountingRule::Asean ? "asean" : "none") +
         " n-move=" + std::to_string(r.n_move_plies) + " insufficient=" + insufficient_name(r.insufficient) +
         " bare-king=" + (r.bare_king_loses ? "loses" : "no");
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
