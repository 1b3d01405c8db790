#pragma once
// The rule points a pawnless ending depends on, and the fingerprint that names a set of tables:
// profiles whose ending rules agree share tables (docs/TABLES.md). Placement and promotion rules
// do not reach a pawnless ending; repetition is outside the tables (they know no history).
#include <cstdint>
#include <string>

#include "games/chaturanga/profile.h"

namespace sz::chaturanga::tables {

struct EndingRules {
  Game game = Game::Sittuyin;
  StalemateRule stalemate = StalemateRule::Draw;
  CountingRule counting = CountingRule::Asean;
  int n_move_plies = 100;
  InsufficientMaterialRule insufficient = InsufficientMaterialRule::Pychess;
  bool bare_king_loses = false;
  bool operator==(const EndingRules&) const = default;
};

EndingRules ending_rules(const RuleProfile& profile);

// The rules as one line of text, "game=sittuyin stalemate=draw counting=asean n-move=100
// insufficient=pychess bare-king=no": what the fingerprint hashes, and what a table folder's
// RULES.txt shows.
std::string describe(const EndingRules& rules);
uint64_t fingerprint(const EndingRules& rules);  // FNV-1a of describe()

// The folder of a rule set's tables inside a tables directory: "<game>-<fingerprint, 12 hex>".
std::string rules_folder(const EndingRules& rules);

// Plies a clock can allow at most: the n-move rule's plies, or kNoClockPlies without one.
inline constexpr int kNoClockPlies = 30000;
int max_clock_plies(const EndingRules& rules);

}  // namespace sz::chaturanga::tables
