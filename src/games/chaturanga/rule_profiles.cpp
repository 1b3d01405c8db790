#include "games/chaturanga/rule_profiles.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>

#include "config/section.h"

namespace sz::chaturanga {

namespace {

void read_placement(config::Section& m, RuleProfile& p) {
  m.choice("order", p.placement_order,
           {{"alternate", PlacementOrder::Alternate}, {"white-then-black", PlacementOrder::WhiteThenBlack}});
  m.range("men_ranks", p.men_ranks, 1, 4);
  m.range("rook_ranks", p.rook_ranks, 1, 4);
  m.flag("rook_needs_screen", p.rook_needs_screen);
  m.finish();
}

void read_promotion(config::Section& m, RuleProfile& p) {
  m.flag("diagonal_step", p.promotion_diagonal_step);
  m.flag("last_pawn_anywhere", p.last_pawn_promotes_anywhere);
  m.flag("no_discovered_check", p.promotion_no_discovered_check);
  m.finish();
}

void read_end(config::Section& m, RuleProfile& p) {
  m.choice("stalemate", p.stalemate,
           {{"draw", StalemateRule::Draw},
            {"illegal-to-cause", StalemateRule::IllegalToCause},
            {"loss", StalemateRule::Loss}});
  m.flag("promotion_only_draw", p.promotion_only_draw);
  m.choice("counting", p.counting, {{"asean", CountingRule::Asean}, {"none", CountingRule::None}});
  m.num("n_move_plies", p.n_move_plies, 0, 1000);
  m.num("repetitions", p.repetitions, 0, 10);
  m.choice("insufficient_material", p.insufficient,
           {{"pychess", InsufficientMaterialRule::Pychess},
            {"bare-kings", InsufficientMaterialRule::BareKings},
            {"none", InsufficientMaterialRule::None}});
  m.flag("bare_king_loses", p.bare_king_loses);
  m.finish();
}

RuleProfile parse_or_throw(std::string_view yaml, std::string_view source) {
  config::Section top = config::read_document(yaml, source, {}, /*whole_file=*/true);
  RuleProfile p;
  p.id.clear();
  top.text("id", p.id);
  top.text("source", p.source);
  std::string game;
  top.text("game", game);
  if (p.id.empty()) throw top.error("missing key 'id'");
  if (game != "sittuyin" && game != "shatranj")
    throw top.error("'game' must be sittuyin or shatranj, not '" + game + "'");
  p.game = game == "sittuyin" ? Game::Sittuyin : Game::Shatranj;
  for (const char* section : {"placement", "promotion"})
    if (p.game == Game::Shatranj && top.has(section))
      throw top.error(section, std::string("'") + section + "' is for sittuyin profiles only");
  if (auto m = top.child("placement")) read_placement(*m, p);
  if (auto m = top.child("promotion")) read_promotion(*m, p);
  if (auto m = top.child("end")) read_end(*m, p);
  top.finish();
  resolve(p);
  return p;
}

}  // namespace

Result<RuleProfile> parse_rule_profile(std::string_view yaml, std::string_view source) {
  try {
    return parse_or_throw(yaml, source);
  } catch (const Error& e) {
    return fail(e.what());
  }
}

std::vector<std::string> builtin_rule_profiles() {
  std::vector<std::string> names = config::builtin_config_names("rules");
  std::stable_partition(names.begin(), names.end(), [](const std::string& n) { return n == "sittuyin"; });
  return names;
}

Result<const RuleProfile*> rule_profile(std::string_view name_or_path) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<RuleProfile>, std::less<>> cache;
  std::lock_guard lock(mutex);
  if (auto it = cache.find(name_or_path); it != cache.end()) return it->second.get();
  const auto text = config::find_config_text("rules", name_or_path, "rule profile");
  if (!text) return fail(text.error());
  auto parsed = parse_rule_profile(text->text, text->source);
  if (!parsed) return fail(parsed.error());
  auto& slot = cache[std::string(name_or_path)];
  slot = std::make_unique<RuleProfile>(std::move(parsed).value());
  return slot.get();
}

}  // namespace sz::chaturanga
