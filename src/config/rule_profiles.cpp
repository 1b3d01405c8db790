#include "config/rule_profiles.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>

#include "config/embedded.h"
#include "config/strict_map.h"
#include "core/shown_text.h"

namespace sz::config {

using chaturanga::RuleProfile;

namespace {

void read_placement(StrictMap& m, RuleProfile& p) {
  using chaturanga::PlacementOrder;
  m.read_enum("order", p.placement_order,
              {{"alternate", PlacementOrder::Alternate}, {"white-then-black", PlacementOrder::WhiteThenBlack}});
  m.read_range("men_ranks", p.men_ranks, 1, 4);
  m.read_range("rook_ranks", p.rook_ranks, 1, 4);
  m.read("rook_needs_screen", p.rook_needs_screen);
  m.check_no_unknown_keys();
}

void read_promotion(StrictMap& m, RuleProfile& p) {
  m.read("diagonal_step", p.promotion_diagonal_step);
  m.read("last_pawn_anywhere", p.last_pawn_promotes_anywhere);
  m.read("no_discovered_check", p.promotion_no_discovered_check);
  m.check_no_unknown_keys();
}

void read_end(StrictMap& m, RuleProfile& p, const YAML::Node& node) {
  using namespace chaturanga;
  m.read_enum("stalemate", p.stalemate,
              {{"draw", StalemateRule::Draw}, {"illegal-to-cause", StalemateRule::IllegalToCause}, {"loss", StalemateRule::Loss}});
  m.read("promotion_only_draw", p.promotion_only_draw);
  m.read_enum("counting", p.counting, {{"asean", CountingRule::Asean}, {"none", CountingRule::None}});
  m.read("n_move_plies", p.n_move_plies);
  m.read("repetitions", p.repetitions);
  m.read_enum("insufficient_material", p.insufficient,
              {{"pychess", InsufficientMaterialRule::Pychess}, {"bare-kings", InsufficientMaterialRule::BareKings}, {"none", InsufficientMaterialRule::None}});
  m.read("bare_king_loses", p.bare_king_loses);
  m.check_no_unknown_keys();
  if (p.n_move_plies < 0 || p.n_move_plies > 1000) throw m.error(node["n_move_plies"], "'end.n_move_plies' must be in 0..1000");
  if (p.repetitions < 0 || p.repetitions > 10) throw m.error(node["repetitions"], "'end.repetitions' must be in 0..10");
}

RuleProfile parse_or_throw(std::string_view yaml, std::string_view source) {
  const YAML::Node root = load_yaml(yaml, source);
  StrictMap top(root, "", source);
  RuleProfile p;
  p.id.clear();
  top.read("id", p.id);
  top.read("source", p.source);
  std::string game;
  top.read("game", game);
  if (p.id.empty()) throw top.error(root, "missing key 'id'");
  if (game != "sittuyin" && game != "shatranj")
    throw top.error(root, "'game' must be sittuyin or shatranj, not '" + game + "'");
  p.game = game == "sittuyin" ? chaturanga::Game::Sittuyin : chaturanga::Game::Shatranj;
  for (const char* section : {"placement", "promotion"})
    if (p.game == chaturanga::Game::Shatranj && root[section])
      throw top.error(root[section], std::string("'") + section + "' is for sittuyin profiles only");
  if (auto m = top.child("placement")) read_placement(*m, p);
  if (auto m = top.child("promotion")) read_promotion(*m, p);
  if (auto m = top.child("end")) read_end(*m, p, root["end"]);
  top.check_no_unknown_keys();
  chaturanga::resolve(p);
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
  std::vector<std::string> names;
  for (const EmbeddedFile& f : embedded_files()) {
    if (!f.path.starts_with("rules/") || !f.path.ends_with(".yaml")) continue;
    names.emplace_back(f.path.substr(6, f.path.size() - 6 - 5));
  }
  std::stable_partition(names.begin(), names.end(), [](const std::string& n) { return n == "sittuyin"; });
  return names;
}

Result<const RuleProfile*> rule_profile(std::string_view name_or_path) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<RuleProfile>, std::less<>> cache;
  std::lock_guard lock(mutex);
  if (auto it = cache.find(name_or_path); it != cache.end()) return it->second.get();
  std::string text, source;
  const std::string wanted = "rules/" + std::string(name_or_path) + ".yaml";
  for (const EmbeddedFile& f : embedded_files())
    if (f.path == wanted) {
      text = f.text;
      source = "configs/" + wanted;
    }
  if (source.empty()) {
    const bool looks_like_path = name_or_path.find('/') != std::string_view::npos || name_or_path.ends_with(".yaml");
    std::ifstream in{std::string(name_or_path)};
    if (!looks_like_path || !in) {
      std::string known;
      for (const auto& n : builtin_rule_profiles()) known += " " + n;
      return fail("unknown rule profile '" + shown_text(name_or_path) + "' (built in:" + known +
                  "; or give a path to a .yaml file)");
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    text = buffer.str();
    source = name_or_path;
  }
  auto parsed = parse_rule_profile(text, source);
  if (!parsed) return fail(parsed.error());
  auto& slot = cache[std::string(name_or_path)];
  slot = std::make_unique<RuleProfile>(std::move(parsed).value());
  return slot.get();
}

}  // namespace sz::config
