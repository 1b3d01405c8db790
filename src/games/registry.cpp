#include "games/registry.h"

#include "games/chaturanga/rule_profiles.h"
#include "games/chaturanga/state.h"
#include "games/chaturanga/tables/chaturanga_tables.h"
#include "games/chaturanga/tables/ending_rules.h"
#include "games/chaturanga/tables/generator.h"
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

TablesBuilt build_endgame_tables(std::string_view profile, int men, const std::string& dir, int threads,
                                 const std::function<void(const std::string&)>& log) {
  if (men != 3 && men != 4) throw Error("endgame tables: men must be 3 or 4, not " + std::to_string(men));
  const chaturanga::RuleProfile* rules = chaturanga::rule_profile(profile).take_or_throw("profile");
  chaturanga::tables::BuildRequest request;
  request.profiles = {rules};
  for (const std::string& name : chaturanga::builtin_rule_profiles()) {  // named in RULES.txt too
    const chaturanga::RuleProfile* other = chaturanga::rule_profile(name).take_or_throw(name);
    if (other != rules && chaturanga::tables::ending_rules(*other) == chaturanga::tables::ending_rules(*rules))
      request.profiles.push_back(other);
  }
  request.materials = chaturanga::tables::all_materials(rules->game, men);
  request.out = dir;
  request.threads = std::max(threads, 1);
  const chaturanga::tables::BuildReport report = chaturanga::tables::build_tables(request, log);
  TablesBuilt out{0, 0, report.seconds, report.bytes};
  for (const auto& t : report.tables) ++(t.kept ? out.kept : out.built);
  return out;
}

}  // namespace sz::games
