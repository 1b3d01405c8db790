#include "config/rule_profiles.h"

#include <yaml-cpp/yaml.h>

#include <fstream>
#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>

#include "config/embedded.h"

namespace sz::config {

using chaturanga::RuleProfile;

namespace {

// Reads one YAML mapping strictly: every key must be consumed by a reader, or it is reported.
class StrictMap {
 public:
  StrictMap(const YAML::Node& node, std::string where, std::string_view source)
      : node_(node), where_(std::move(where)), source_(source) {
    if (!node.IsMap()) throw error(node, where_ + " must be a mapping");
  }

  template <typename T>
  void read(const std::string& key, T& out) {
    seen_.insert(key);
    if (const YAML::Node v = node_[key]) {
      try {
        out = v.as<T>();
      } catch (const YAML::Exception&) {
        throw error(v, "'" + path(key) + "' has a value of the wrong type");
      }
    }
  }

  template <typename E>
  void read_enum(const std::string& key, E& out, std::initializer_list<std::pair<const char*, E>> names) {
    seen_.insert(key);
    const YAML::Node v = node_[key];
    if (!v) return;
    const std::string text = v.IsScalar() ? v.Scalar() : "";
    std::string choices;
    for (auto [name, value] : names) {
      if (text == name) {
        out = value;
        return;
      }
      choices += std::string(choices.empty() ? "" : " | ") + name;
    }
    throw error(v, "'" + path(key) + "' must be one of " + choices + ", not '" + text + "'");
  }

  void read_range(const std::string& key, int (&out)[2], int lo, int hi) {
    seen_.insert(key);
    const YAML::Node v = node_[key];
    if (!v) return;
    if (!v.IsSequence() || v.size() != 2) throw error(v, "'" + path(key) + "' must be [first, last]");
    int a = 0, b = 0;
    try {
      a = v[0].as<int>();
      b = v[1].as<int>();
    } catch (const YAML::Exception&) {
      throw error(v, "'" + path(key) + "' must hold two whole numbers");
    }
    if (a < lo || b > hi || a > b)
      throw error(v, "'" + path(key) + "' must satisfy " + std::to_string(lo) + " <= first <= last <= " + std::to_string(hi));
    out[0] = a;
    out[1] = b;
  }

  std::optional<StrictMap> child(const std::string& key) {
    seen_.insert(key);
    if (const YAML::Node v = node_[key]) return StrictMap(v, path(key), source_);
    return std::nullopt;
  }

  void check_no_unknown_keys() const {
    for (const auto& kv : node_) {
      const std::string key = kv.first.as<std::string>();
      if (!seen_.count(key)) throw error(kv.first, "unknown key '" + path(key) + "'");
    }
  }

  Error error(const YAML::Node& at, const std::string& what) const {
    const YAML::Mark mark = at.Mark();
    std::string place(source_);
    if (mark.line >= 0) place += ":" + std::to_string(mark.line + 1);
    return Error(place + ": " + what);
  }

 private:
  std::string path(const std::string& key) const { return where_.empty() ? key : where_ + "." + key; }

  YAML::Node node_;
  std::string where_;
  std::string_view source_;
  std::set<std::string> seen_;
};

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
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml));
  } catch (const YAML::Exception& e) {
    throw Error(std::string(source) + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
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
      return fail("unknown rule profile '" + std::string(name_or_path) + "' (built in:" + known + "; or give a path to a .yaml file)");
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
