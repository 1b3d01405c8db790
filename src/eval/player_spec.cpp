#include "eval/player_spec.h"

#include <cmath>
#include <optional>
#include <vector>

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
  } else if (mcts && key == "contempt") {
    auto v = parse_real(key, value, -1, 1);
    if (!v) return fail(v.error());
    spec.contempt = *v;
  } else if (mcts && key == "qs") {
    auto v = parse_real(key, value, 0, 1);
    if (!v) return fail(v.error());
    spec.leaf_quiescence = *v;
  } else if (mcts && key == "full") {
    auto v = parse_whole(key, value, 0, search::kMaxLeafFullPlies);
    if (!v) return fail(v.error());
    spec.leaf_full_plies = *v;
  } else if (mcts && key == "win") {
    auto v = parse_whole(key, value, 0, search::kMaxWinSearchMoves);
    if (!v) return fail(v.error());
    spec.leaf_win_moves = *v;
  } else if (mcts && key == "hunt") {
    auto v = parse_real(key, value, 0, 10);
    if (!v) return fail(v.error());
    spec.leaf_king_hunt = *v;
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
    return fail("unknown setting '" + key +
                "' (model/uniform/material: sims, temp, contempt, qs, full, win, hunt, name; random: name; " +
                "uci: option.NAME, nodes, movetime, depth, name; fsf: the same as uci, skill, elo; any: placement)");
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

MatchPlayer make_match_player(const PlayerSpec& spec, const search::SearchConfig& search, int default_simulations,
                              const ModelLoader& load_model, std::shared_ptr<const game::EndgameTables> tables) {
  MatchPlayer player{spec.name, {}};
  MctsPlayerOptions mcts{search, spec.simulations > 0 ? spec.simulations : default_simulations, spec.temperature,
                         std::move(tables)};
  if (spec.contempt) mcts.search.contempt = *spec.contempt;
  if (spec.leaf_quiescence) mcts.search.leaf_quiescence = *spec.leaf_quiescence;
  if (spec.leaf_full_plies) mcts.search.leaf_full_plies = *spec.leaf_full_plies;
  if (spec.leaf_win_moves) mcts.search.leaf_win_moves = *spec.leaf_win_moves;
  if (spec.leaf_king_hunt) mcts.search.leaf_king_hunt = *spec.leaf_king_hunt;
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
