#include "games/chaturanga/rule_profiles.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>

#include "config/section.h"
#include "games/chaturanga/rule_profile_fields.h"

namespace sz::chaturanga {

namespace {

void read_placement(config::Section& m, RuleProfile& p) {
  placement_fields(m, p);
  m.finish();
}

void read_promotion(config::Section& m, RuleProfile& p) {
  promotion_fields(m, p);
  m.finish();
}

void read_end(config::Section& m, RuleProfile& p) {
  end_fields(m, p);
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
