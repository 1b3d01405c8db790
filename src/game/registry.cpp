#include "game/registry.h"

#include "config/rule_profiles.h"
#include "games/chaturanga/state.h"

namespace sz::game {

sz::Result<std::unique_ptr<GameState>> new_game(std::string_view profile, std::string_view fen) {
  const auto rules = config::rule_profile(profile);
  if (!rules) return fail(rules.error());
  if (fen.empty()) return std::unique_ptr<GameState>(std::make_unique<chaturanga::State>(chaturanga::Position::start(**rules)));
  auto pos = chaturanga::Position::from_fen(fen, **rules);
  if (!pos) return fail(pos.error());
  return std::unique_ptr<GameState>(std::make_unique<chaturanga::State>(*pos));
}

sz::Result<GameSpec> spec_for(std::string_view profile) {
  const auto rules = config::rule_profile(profile);
  if (!rules) return fail(rules.error());
  return chaturanga::game_spec((*rules)->game);
}

std::vector<std::string> profile_names() { return config::builtin_rule_profiles(); }

}  // namespace sz::game
