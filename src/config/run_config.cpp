#include "config/run_config.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <type_traits>

#include "config/embedded.h"
#include "config/strict_map.h"
#include "core/number_text.h"
#include "core/shown_text.h"

namespace sz::config {

namespace {

// Reads one section's fields with range checks; the error names the line and the dotted key.
class Reader {
 public:
  Reader(StrictMap& map, const YAML::Node& node) : map_(map), node_(node) {}

  template <typename T>
  void num(const char* key, T& field, T lo, T hi) {
    map_.read(key, field);
    if (field < lo || field > hi) {
      std::ostringstream what;
      what << "'" << map_.path(key) << "' must be in " << lo << ".." << hi << ", not " << field;
      throw map_.error(node_[key] ? node_[key] : node_, what.str());
    }
  }
  void flag(const char* key, bool& field) { map_.read(key, field); }
  void text(const char* key, std::string& field) { map_.read(key, field); }
  template <typename E>
  void choice(const char* key, E& field, std::initializer_list<std::pair<const char*, E>> names) {
    map_.read_enum(key, field, names);
  }

 private:
  StrictMap& map_;
  YAML::Node node_;  // a handle, held by value: callers pass temporaries (root[section])
};

// Writes the same fields, so that one list (the fields() functions below) serves both.
class Writer {
 public:
  explicit Writer(YAML::Emitter& out) : out_(out) {}
  template <typename T>
  void num(const char* key, T& field, T, T) {
    out_ << YAML::Key << key << YAML::Value;
    if constexpr (std::is_floating_point_v<T>)
      out_ << shortest_text(field);
    else
      out_ << field;
  }
  void flag(const char* key, bool& field) { out_ << YAML::Key << key << YAML::Value << field; }
  void text(const char* key, std::string& field) { out_ << YAML::Key << key << YAML::Value << field; }
  template <typename E>
  void choice(const char* key, E& field, std::initializer_list<std::pair<const char*, E>> names) {
    for (auto [name, value] : names)
      if (value == field) out_ << YAML::Key << key << YAML::Value << name;
  }

 private:
  YAML::Emitter& out_;
};

template <typename V>
void fields(V& v, search::SearchConfig& c) {
  v.num("full_visits", c.full_visits, 1, 1'000'000);
  v.num("cheap_visits", c.cheap_visits, 1, 1'000'000);
  v.num("full_search_fraction", c.full_search_fraction, 0.0, 1.0);
  v.num("cpuct_init", c.cpuct_init, 0.0f, 100.0f);
  v.num("cpuct_base", c.cpuct_base, 1.0f, 1e9f);
  v.num("fpu_reduction", c.fpu_reduction, -2.0f, 2.0f);
  v.num("fpu_reduction_root", c.fpu_reduction_root, -2.0f, 2.0f);
  v.num("contempt", c.contempt, -1.0f, 1.0f);
  v.num("dirichlet_weight", c.dirichlet_weight, 0.0f, 1.0f);
  v.num("dirichlet_total_alpha", c.dirichlet_total_alpha, 0.0f, 1000.0f);
  v.flag("forced_playouts", c.forced_playouts);
  v.num("forced_playouts_k", c.forced_playouts_k, 0.0f, 100.0f);
  v.flag("policy_target_pruning", c.policy_target_pruning);
  v.num("placement_temperature", c.placement_temperature, 0.0f, 100.0f);
  v.num("play_temperature", c.play_temperature, 0.0f, 100.0f);
  v.num("play_temperature_plies", c.play_temperature_plies, 0, 100'000);
  v.num("play_temperature_half_life", c.play_temperature_half_life, 0.01f, 1e6f);
  v.num("play_temperature_floor", c.play_temperature_floor, 0.0f, 100.0f);
  v.choice("root_selection", c.root_selection,
           {{"puct", search::RootSelection::Puct}, {"gumbel", search::RootSelection::Gumbel}});
  v.num("gumbel_considered", c.gumbel_considered, 1, 256);
  v.num("gumbel_c_visit", c.gumbel_c_visit, 0.0f, 1e6f);
  v.num("gumbel_c_scale", c.gumbel_c_scale, 0.0f, 1e6f);
  v.flag("tree_reuse", c.tree_reuse);
  v.num("reserve_nodes", c.reserve_nodes, 0, 100'000'000);
  v.num("reserve_edges_per_node", c.reserve_edges_per_node, 1, 256);
}

template <typename V>
void fields(V& v, selfplay::ResignConfig& c) {
  v.flag("enabled", c.enabled);
  v.num("threshold", c.threshold, 0.0f, 0.999f);
  v.num("consecutive", c.consecutive, 1, 1000);
  v.num("disabled_fraction", c.disabled_fraction, 0.0, 1.0);
  v.num("min_ply", c.min_ply, 0, 100'000);
}

template <typename V>
void fields(V& v, selfplay::SelfplayConfig& c) {
  v.num("threads", c.threads, 1, 1024);
  v.num("games_per_thread", c.games_per_thread, 1, 65536);
  v.num("max_plies", c.max_plies, 1, 1'000'000);
  v.flag("avoid_repetition", c.avoid_repetition);
  v.num("games_per_shard", c.games_per_shard, int64_t{1}, int64_t{1'000'000});
  v.num("seconds_per_shard", c.seconds_per_shard, 0.0, 1e7);
  v.text("shard_prefix", c.shard_prefix);
}

template <typename V>
void fields(V& v, train::TrainConfig& c) {
  v.num("batch_size", c.batch_size, 1, 1 << 16);
  v.choice("optimizer", c.optimizer, {{"sgd", train::OptimizerChoice::Sgd}, {"adamw", train::OptimizerChoice::AdamW}});
  v.num("learning_rate", c.learning_rate, 0.0, 10.0);
  v.num("momentum", c.momentum, 0.0, 0.999);
  v.num("weight_decay", c.weight_decay, 0.0, 1.0);
  v.num("adam_beta1", c.adam_beta1, 0.0, 0.9999);
  v.num("adam_beta2", c.adam_beta2, 0.0, 0.99999);
  v.choice("lr_schedule", c.lr_schedule,
           {{"constant", train::LrSchedule::Constant},
            {"step", train::LrSchedule::Step},
            {"cosine", train::LrSchedule::Cosine}});
  v.num("warmup_steps", c.warmup_steps, int64_t{0}, int64_t{1'000'000'000});
  v.num("lr_step_every", c.lr_step_every, int64_t{1}, int64_t{1'000'000'000});
  v.num("lr_step_factor", c.lr_step_factor, 0.0, 1.0);
  v.num("lr_decay_steps", c.lr_decay_steps, int64_t{1}, int64_t{1'000'000'000});
  v.num("lr_final_fraction", c.lr_final_fraction, 0.0, 1.0);
  v.num("value_target_search", c.value_target_search, 0.0, 1.0);
  v.num("policy_weight", c.policy_weight, 0.0, 1000.0);
  v.num("wdl_weight", c.wdl_weight, 0.0, 1000.0);
  v.num("moves_left_weight", c.moves_left_weight, 0.0, 1000.0);
  v.num("window_floor", c.window_floor, int64_t{1}, int64_t{1} << 40);
  v.num("window_cap", c.window_cap, int64_t{1}, int64_t{1} << 40);
  v.num("window_scale", c.window_scale, 0.0, 1e9);
  v.num("window_exponent", c.window_exponent, 0.0, 1.0);
  v.num("recent_share", c.recent_share, 0.0, 1.0);
  v.num("recent_positions", c.recent_positions, int64_t{1}, int64_t{1} << 40);
  v.num("min_positions", c.min_positions, int64_t{1}, int64_t{1} << 40);
  v.num("replay_ratio", c.replay_ratio, 0.0, 1e6);
  v.num("checkpoint_every", c.checkpoint_every, int64_t{1}, int64_t{1'000'000'000});
  v.num("keep_checkpoints", c.keep_checkpoints, 0, 1'000'000);
  v.num("log_every", c.log_every, int64_t{1}, int64_t{1'000'000'000});
  v.num("refresh_every", c.refresh_every, int64_t{1}, int64_t{1'000'000'000});
  v.num("poll_seconds", c.poll_seconds, 0.01, 86'400.0);
  v.num("prefetch_batches", c.prefetch_batches, 1, 1024);
  v.text("device", c.device);
  v.choice("precision", c.precision,
           {{"auto", train::TrainPrecision::Auto},
            {"float32", train::TrainPrecision::Float32},
            {"bfloat16", train::TrainPrecision::BFloat16},
            {"float16", train::TrainPrecision::Float16}});
  v.num("threads", c.threads, 0, 1024);
}

template <typename V>
void fields(V& v, train::LoopConfig& c) {
  v.num("generations", c.generations, 0, 1'000'000);
  v.num("games_per_generation", c.games_per_generation, int64_t{1}, int64_t{100'000'000});
  v.num("bootstrap_games", c.bootstrap_games, int64_t{0}, int64_t{100'000'000});
  v.choice("bootstrap_player", c.bootstrap_player, {{"uniform", std::string("uniform")}, {"material", std::string("material")}});
  v.num("train_steps_per_generation", c.train_steps_per_generation, 0, 100'000'000);
  v.num("bootstrap_train_steps", c.bootstrap_train_steps, 0, 100'000'000);
  v.num("max_minutes", c.max_minutes, 0.0, 1e7);
  v.flag("gating", c.gating);
  v.num("gating_games", c.gating_games, 2, 100'000);
  v.num("gating_score", c.gating_score, 0.0, 1.0);
  v.num("rate_games", c.rate_games, 0, 100'000);
  v.num("rate_previous", c.rate_previous, 0, 1'000);
  v.text("anchor", c.anchor);
  v.num("final_eval_games", c.final_eval_games, 0, 100'000);
  v.text("eval_suite", c.eval_suite);
  v.num("eval_simulations", c.eval_simulations, 0, 1'000'000);
  v.num("eval_concurrency", c.eval_concurrency, 1, 1024);
}

// The inference section is read by config/net_config.cpp (read_inference_config, with its
// ranges); this only writes it back out.
void write_inference(YAML::Emitter& out, const InferenceConfig& c) {
  out << YAML::Key << "inference" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "device" << YAML::Value << c.device;
  out << YAML::Key << "precision" << YAML::Value << std::string(precision_name(c.precision));
  out << YAML::Key << "threads" << YAML::Value << c.threads;
  out << YAML::Key << "max_batch" << YAML::Value << c.max_batch;
  out << YAML::Key << "max_wait_us" << YAML::Value << c.max_wait_us;
  out << YAML::Key << "cache_entries" << YAML::Value << c.cache_entries;
  out << YAML::Key << "cache_shards" << YAML::Value << c.cache_shards;
  out << YAML::EndMap;
}

template <typename V>
void top_fields(V& v, RunConfig& c) {
  v.text("name", c.name);
  v.text("dir", c.dir);
  v.num("seed", c.seed, uint64_t{0}, ~uint64_t{0});
  v.text("profile", c.profile);
  v.text("net", c.net);
}

// Reads `section` of the top map with fields(); absent sections keep the defaults.
template <typename T>
void read_section(StrictMap& top, const YAML::Node& root, const char* section, T& out) {
  if (auto m = top.child(section)) {
    Reader r(*m, root[section]);
    fields(r, out);
    m->check_no_unknown_keys();
  }
}

// --set section.key=value: sets (or adds) one scalar in the parsed tree, and notes the nodes it
// made (the value, and any section it created) so that an error about them names the override.
void apply_override(YAML::Node root, const std::string& assignment, Overrides& overrides) {
  const std::string shown = "--set '" + shown_text(assignment) + "'";
  const size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) throw Error(shown + ": expected key=value");
  const std::string path = assignment.substr(0, eq);
  std::vector<std::string> keys;
  for (size_t start = 0, dot; start <= path.size(); start = dot + 1) {
    dot = std::min(path.find('.', start), path.size());
    keys.push_back(path.substr(start, dot - start));
  }
  size_t created = keys.size() - 1;  // the first key on the path that did not exist
  YAML::Node node = root;
  for (size_t i = 0; i + 1 < keys.size(); ++i) {
    YAML::Node next = node[keys[i]];
    if (next && !next.IsMap()) throw Error(shown + ": '" + shown_text(keys[i]) + "' is not a section");
    if (!next) created = std::min(created, i);
    node.reset(next);
  }
  try {
    node[keys.back()] = YAML::Load(assignment.substr(eq + 1));
  } catch (const YAML::Exception& e) {
    throw Error(shown + ": " + e.msg);
  }
  YAML::Node set = root;  // the nodes the override created, from the first to the value
  for (size_t i = 0; i < keys.size(); ++i) {
    set.reset(set[keys[i]]);
    if (i >= created) overrides.push_back({set, assignment});
  }
}

// Why `name` cannot name a directory under runs/, or "".
std::string run_name_problem(const std::string& name) {
  if (name.empty()) return "'name' is empty";
  if (name.find_first_of("/\\") == std::string::npos && name.find("..") == std::string::npos && name != ".") return "";
  return "'name' must be a plain directory name, without '/', '\\' or '..', not '" + shown_text(name) + "'";
}

// `whole_file`: the text is a config file of its own, which must hold at least one key (an empty
// file, or one of comments only, would silently run every default).
RunConfig parse_or_throw(std::string_view yaml, std::string_view source, const std::vector<std::string>& overrides,
                         bool whole_file) {
  YAML::Node root = load_yaml(yaml, source);
  if (root.IsNull()) {
    if (whole_file) throw Error(std::string(source) + ": the config is empty (a YAML mapping of sections is expected)");
    root = YAML::Node(YAML::NodeType::Map);
  }
  Overrides set;
  if (root.IsMap())
    for (const auto& o : overrides) apply_override(root, o, set);
  StrictMap top(root, "", source, &set);
  RunConfig c;
  Reader r(top, root);
  top_fields(r, c);
  if (const std::string why = run_name_problem(c.name); !why.empty())
    throw top.error(root["name"] ? root["name"] : root,
                    why + " (the run directory is runs/<name>; 'dir' sets another)");
  if (const auto net = load_net_config(c.net); !net) throw top.error(root["net"] ? root["net"] : root, net.error());
  if (auto m = top.child("inference")) {
    read_inference_config(*m, root["inference"], c.inference);
    m->check_no_unknown_keys();
  }
  read_section(top, root, "search", c.search);
  read_section(top, root, "selfplay", c.selfplay);
  if (auto m = top.child("resign")) {
    Reader rr(*m, root["resign"]);
    fields(rr, c.selfplay.resign);
    m->check_no_unknown_keys();
  }
  read_section(top, root, "train", c.train);
  read_section(top, root, "loop", c.loop);
  if (c.train.window_cap < c.train.window_floor)
    throw top.error(root["train"], "'train.window_cap' must be at least 'train.window_floor'");
  top.check_no_unknown_keys();
  c.selfplay.profile = c.profile;
  c.selfplay.seed = c.seed;
  c.selfplay.search = c.search;
  return c;
}

}  // namespace

namespace {

Result<RunConfig> parse_checked(std::string_view yaml, std::string_view source,
                                const std::vector<std::string>& overrides, bool whole_file) {
  try {
    return parse_or_throw(yaml, source, overrides, whole_file);
  } catch (const Error& e) {
    return fail(e.what());
  } catch (const YAML::Exception& e) {
    return fail(std::string(source) + ": " + shown_text(e.what(), 200));
  }
}

}  // namespace

Result<RunConfig> parse_run_config(std::string_view yaml, std::string_view source,
                                   const std::vector<std::string>& overrides) {
  return parse_checked(yaml, source, overrides, /*whole_file=*/false);
}

Result<RunConfig> load_run_config(std::string_view name_or_path, const std::vector<std::string>& overrides) {
  const std::string embedded = std::string(name_or_path) + ".yaml";
  for (const EmbeddedFile& f : embedded_files())
    if (f.path == embedded) return parse_checked(f.text, "configs/" + embedded, overrides, /*whole_file=*/true);
  const std::string path(name_or_path), shown = "run config '" + shown_text(path) + "'";
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return fail(shown + " is a directory, not a YAML file");
  std::ifstream in{path};
  if (!in) return fail("cannot read " + shown);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return fail("cannot read " + shown);
  return parse_checked(text.str(), name_or_path, overrides, /*whole_file=*/true);
}

std::string to_yaml(const RunConfig& config) {
  RunConfig c = config;
  YAML::Emitter out;
  Writer w(out);
  out << YAML::BeginMap;
  top_fields(w, c);
  out << YAML::Key << "search" << YAML::Value << YAML::BeginMap;
  fields(w, c.search);
  out << YAML::EndMap << YAML::Key << "selfplay" << YAML::Value << YAML::BeginMap;
  fields(w, c.selfplay);
  out << YAML::EndMap << YAML::Key << "resign" << YAML::Value << YAML::BeginMap;
  fields(w, c.selfplay.resign);
  out << YAML::EndMap << YAML::Key << "train" << YAML::Value << YAML::BeginMap;
  fields(w, c.train);
  out << YAML::EndMap << YAML::Key << "loop" << YAML::Value << YAML::BeginMap;
  fields(w, c.loop);
  out << YAML::EndMap;
  write_inference(out, c.inference);
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

}  // namespace sz::config
