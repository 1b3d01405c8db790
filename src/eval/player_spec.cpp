#include "eval/player_spec.h"

#include <cmath>
#include <optional>
#include <type_traits>
#include <vector>

#include "core/help_text.h"
#include "core/number_text.h"
#include "core/parse_number.h"
#include "core/split.h"
#include "eval/fsf_engine.h"
#include "eval/material_evaluator.h"

namespace sz::eval {

namespace {

Result<int> parse_whole(const std::string& key, const std::string& value, int lo, int hi) {
  const std::optional<int> v = parse_number<int>(value);
  if (!v || *v < lo || *v > hi)
    return fail(key + " wants a whole number in " + std::to_string(lo) + ".." + std::to_string(hi) + ", not '" + value +
                "'");
  return *v;
}

Result<int> parse_count(const std::string& key, const std::string& value, int hi) {
  return parse_whole(key, value, 1, hi);
}

Result<float> parse_real(const std::string& key, const std::string& value, float lo, float hi) {
  const std::optional<float> v = parse_number<float>(value);
  if (!v || !std::isfinite(*v) || *v < lo || *v > hi)
    return fail(key + " wants a number in " + shortest_text(lo) + ".." + shortest_text(hi) + ", not '" + value + "'");
  return *v;
}

Result<PlayerSpec> parse_kind(const std::string& head) {
  PlayerSpec spec;
  const size_t colon = head.find(':');
  const std::string kind = head.substr(0, colon);
  const std::string arg = colon == std::string::npos ? "" : head.substr(colon + 1);
  if (kind == "model")
    spec.kind = PlayerSpec::Kind::Model, spec.model = arg;
  else if (kind == "uci")
    spec.kind = PlayerSpec::Kind::Uci, spec.uci.command = arg;
  else if (kind == "uniform")
    spec.kind = PlayerSpec::Kind::Uniform;
  else if (kind == "material")
    spec.kind = PlayerSpec::Kind::Material;
  else if (kind == "random")
    spec.kind = PlayerSpec::Kind::Random;
  else if (kind == "fsf")
    spec.kind = PlayerSpec::Kind::Fsf;  // its ':' argument is its first setting (parse_player_spec)
  else
    return fail("unknown player kind '" + kind + "' (model:PATH, uniform, material, random, uci:COMMAND, fsf)");
  const bool wants_arg = spec.kind == PlayerSpec::Kind::Model || spec.kind == PlayerSpec::Kind::Uci;
  if (wants_arg && arg.empty()) return fail(kind + ": give " + (kind == "model" ? "model:PATH" : "uci:COMMAND"));
  if (!wants_arg && colon != std::string::npos) return fail(kind + " takes no ':' argument");
  return spec;
}

// Sets the play setting (search::play_settings) whose player-spec key is `key` from `value`.
class SpecSetter {
 public:
  SpecSetter(std::string_view key, const std::string& value) : key_(key), value_(value) {}
  const std::string& error() const { return error_; }

  template <typename T, typename N>
  void setting(const search::PlaySetting& s, T& field, N lo, N hi) {
    if (key_ != s.spec) return;
    if constexpr (std::is_integral_v<T>) {
      set(field, parse_whole(s.spec, value_, lo, hi));
    } else {
      set(field, parse_real(s.spec, value_, lo, hi));
    }
  }

 private:
  template <typename T>
  void set(T& field, const Result<T>& value) {
    if (value)
      field = *value;
    else
      error_ = value.error();
  }

  std::string_view key_;
  const std::string& value_;
  std::string error_;
};

// The play settings, in order, each with its range as the player spec reads it ("0..1").
class SpecKeys {
 public:
  template <typename T, typename N>
  void setting(const search::PlaySetting& s, const T&, N lo, N hi) {
    settings.emplace_back(s, text(lo) + ".." + text(hi));
  }
  std::vector<std::pair<search::PlaySetting, std::string>> settings;

 private:
  static std::string text(int v) { return std::to_string(v); }
  static std::string text(float v) { return shortest_text(v); }
};

std::vector<std::pair<search::PlaySetting, std::string>> search_settings() {
  SpecKeys keys;
  const search::SearchConfig defaults;
  search::play_settings(keys, defaults);
  return keys.settings;
}

bool is_search_setting(const std::string& key) {
  for (const auto& [s, range] : search_settings())
    if (key == s.spec) return true;
  return false;
}

// A play setting's key and its value, checked; applied to `config`.
Result<bool> set_search_setting(search::SearchConfig& config, const std::string& key, const std::string& value) {
  SpecSetter setter(key, value);
  search::play_settings(setter, config);
  if (!setter.error().empty()) return fail(setter.error());
  return true;
}

std::string search_setting_keys() {
  std::string out;
  for (const auto& [s, range] : search_settings()) out += (out.empty() ? "" : ", ") + std::string(s.spec);
  return out;
}

// One `key=value` setting; returns an error naming the key.
Result<bool> apply_setting(PlayerSpec& spec, const std::string& key, const std::string& value) {
  using Kind = PlayerSpec::Kind;
  const bool mcts = spec.kind == Kind::Model || spec.kind == Kind::Uniform || spec.kind == Kind::Material;
  const bool uci = spec.kind == Kind::Uci || spec.kind == Kind::Fsf;
  const bool fsf = spec.kind == Kind::Fsf;
  if (key == "name") {
    if (value.empty()) return fail("name is empty");
    spec.name = value;
  } else if (key == "placement") {
    auto control = parse_placement_control(value);
    if (!control) return fail(control.error());
    spec.placement = std::move(control).value();
  } else if (mcts && key == "sims") {
    auto v = parse_count(key, value, 10'000'000);
    if (!v) return fail(v.error());
    spec.simulations = *v;
  } else if (mcts && key == "temp") {
    auto v = parse_real(key, value, 0, 100);
    if (!v) return fail(v.error());
    spec.temperature = *v;
  } else if (mcts && is_search_setting(key)) {
    search::SearchConfig checked;
    auto set = set_search_setting(checked, key, value);
    if (!set) return fail(set.error());
    spec.search_settings.emplace_back(key, value);
  } else if (uci && (key == "nodes" || key == "movetime" || key == "depth")) {
    auto v = parse_count(key, value, 1'000'000'000);
    if (!v) return fail(v.error());
    spec.uci.nodes = spec.uci.movetime_ms = spec.uci.depth = 0;  // the last limit given wins
    (key == "nodes" ? spec.uci.nodes : key == "movetime" ? spec.uci.movetime_ms : spec.uci.depth) = *v;
  } else if (uci && key.starts_with("option.") && key.size() > 7) {
    spec.uci.options.emplace_back(key.substr(7), value);
  } else if (fsf && key == "skill") {
    auto v = parse_whole(key, value, 0, 20);
    if (!v) return fail(v.error());
    spec.uci.options.emplace_back("Skill Level", value);
  } else if (fsf && key == "elo") {
    auto v = parse_count(key, value, 4000);
    if (!v) return fail(v.error());
    spec.uci.options.emplace_back("UCI_LimitStrength", "true");
    spec.uci.options.emplace_back("UCI_Elo", value);
  } else {
    return fail("unknown setting '" + key + "' (model/uniform/material: sims, temp, " + search_setting_keys() +
                ", name; random: name; uci: option.NAME, nodes, movetime, depth, name; fsf: the same as uci, " +
                "skill, elo; any: placement)");
  }
  return true;
}

}  // namespace

Result<PlayerSpec> parse_player_spec(std::string_view text) {
  const std::vector<std::string_view> parts = split(text, ',');
  std::vector<std::string> fields(parts.begin(), parts.end());
  if (fields[0].starts_with("fsf:")) {  // fsf:nodes=1,skill=5: the argument is a setting
    fields.insert(fields.begin() + 1, fields[0].substr(4));
    fields[0] = "fsf";
  }
  auto parsed = parse_kind(fields[0]);
  if (!parsed) return fail("player '" + std::string(text) + "': " + parsed.error());
  PlayerSpec spec = std::move(parsed).value();
  spec.text = std::string(text);
  for (size_t i = 1; i < fields.size(); ++i) {
    const size_t eq = fields[i].find('=');
    if (eq == std::string::npos)
      return fail("player '" + spec.text + "': setting '" + fields[i] + "' is not KEY=VALUE" +
                  (spec.kind == PlayerSpec::Kind::Uci ? " (a uci COMMAND may not contain commas)" : ""));
    auto ok = apply_setting(spec, fields[i].substr(0, eq), fields[i].substr(eq + 1));
    if (!ok) return fail("player '" + spec.text + "': " + ok.error());
  }
  if (spec.kind == PlayerSpec::Kind::Fsf && spec.uci.nodes == 0 && spec.uci.movetime_ms == 0 && spec.uci.depth == 0)
    spec.uci.nodes = 1;
  if (spec.name.empty()) spec.name = spec.text;
  spec.uci.name = spec.name;
  return spec;
}

search::SearchConfig player_search(const PlayerSpec& spec, search::SearchConfig search) {
  for (const auto& [key, value] : spec.search_settings)
    set_search_setting(search, key, value).take_or_throw("player '" + spec.text + "'");  // checked when parsed
  return search;
}

std::string player_search_settings_help(size_t indent) {
  std::string out;
  for (const auto& [s, range] : search_settings())
    out += help_entry(std::string(s.spec) + "=" + range, "search." + std::string(s.key) + ": " + s.help, indent,
                      indent + 16);
  return out;
}

MatchPlayer make_match_player(const PlayerSpec& spec, const search::SearchConfig& search, int default_simulations,
                              const ModelLoader& load_model, std::shared_ptr<const game::EndgameTables> tables) {
  MatchPlayer player{spec.name, {}};
  MctsPlayerOptions mcts{player_search(spec, search), spec.simulations > 0 ? spec.simulations : default_simulations,
                         spec.temperature, std::move(tables)};
  switch (spec.kind) {
    case PlayerSpec::Kind::Random:
      player.make = random_player_factory();
      break;
    case PlayerSpec::Kind::Uci:
      player.make = uci_player_factory(spec.uci);
      break;
    case PlayerSpec::Kind::Fsf: {
      UciPlayerOptions fsf = spec.uci;
      fsf.command = fsf_command().take_or_throw("player '" + spec.text + "'");
      player.make = uci_player_factory(fsf);
      break;
    }
    case PlayerSpec::Kind::Uniform:
      player.make = mcts_player_factory(mcts, [](int) { return std::make_unique<search::UniformEvaluator>(); });
      break;
    case PlayerSpec::Kind::Material:
      player.make = mcts_player_factory(mcts, [](int) { return std::make_unique<MaterialEvaluator>(); });
      break;
    case PlayerSpec::Kind::Model:
      if (!load_model) throw Error("player '" + spec.text + "': no model loader to run a network");
      player.make = mcts_player_factory(mcts, load_model(spec.model));
      break;
  }
  player.make = with_placement(std::move(player.make), spec.placement);
  return player;
}

}  // namespace sz::eval
