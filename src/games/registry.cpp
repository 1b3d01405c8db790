#include "games/registry.h"

#include "games/chaturanga/rule_profiles.h"
#include "games/chaturanga/state.h"
#include "games/chaturanga/tables/chaturanga_tables.h"
#include "games/chaturanga/tables/table_dir.h"

namespace sz::games {

Result<std::unique_ptr<game::GameState>> new_game(std::string_view profile, std::string_view fen) {
  const auto rules = chaturanga::rule_profile(profile);
  if (!rules) return fail(rules.error());
  if (fen.empty())
    return std::unique_ptr<game::GameState>(std::make_unique<chaturanga::State>(chaturanga::Position::start(**rules)));
  auto pos = chaturanga::Position::from_fen(fen, **rules);
  if (!pos) return fail(pos.error());
  return std::unique_ptr<game::GameState>(std::make_unique<chaturanga::State>(*pos));
}

Result<game::GameSpec> spec_for(std::string_view profile) {
  const auto rules = chaturanga::rule_profile(profile);
  if (!rules) return fail(rules.error());
  return chaturanga::game_spec((*rules)->game);
}

std::vector<std::string> profile_names() { return chaturanga::builtin_rule_profiles(); }

Result<ProfileInfo> profile_info(std::string_view profile) {
  const auto rules = chaturanga::rule_profile(profile);
  if (!rules) return fail(rules.error());
  return ProfileInfo{std::string(chaturanga::game_name((*rules)->game)), (*rules)->source};
}

Result<std::shared_ptr<const game::EndgameTables>> endgame_tables(std::string_view profile, const std::string& dir) {
  const auto rules = chaturanga::rule_profile(profile);
  if (!rules) return fail(rules.error());
  try {
    auto set = chaturanga::tables::load_table_set(dir, chaturanga::tables::ending_rules(**rules));
    if (!set) return std::shared_ptr<const game::EndgameTables>();
    return std::shared_ptr<const game::EndgameTables>(std::make_shared<chaturanga::tables::ChaturangaTables>(set));
  } catch (const Error& e) {
    return fail(e.what());
  }
}

}  // namespace sz::games
