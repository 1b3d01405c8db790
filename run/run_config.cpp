#include "run/run_config.h"

#include <filesystem>
#include <string_view>
#include <utility>

#include "config/embedded.h"
#include "config/section.h"
#include "core/fnv1a.h"
#include "core/read_file.h"
#include "core/retired_keys.h"
#include "core/shown_text.h"
#include "games/registry.h"
#include "net/net_config.h"

#ifndef SZ_VERSION
#define SZ_VERSION "unknown"
#endif

namespace sz::run {

namespace {

// The keys of the top level of a run config (the sections are read and written beside them).
template <typename V>
void top_fields(V& v, RunConfig& c) {
  v.text("name", c.name);
  v.text("dir", c.dir);
  v.num("seed", c.seed, uint64_t{0}, ~uint64_t{0});
  v.text("profile", c.profile);
  v.text("net", c.net);
}

// The overlays of `search`: sections read over a copy of it and written as the keys in which they
// differ from it (`play`, the shipped engine's search; `network_selfplay`, the networks' self-play).
constexpr std::pair<const char*, search::SearchConfig RunConfig::*> kSearchOverlays[] = {
    {"play", &RunConfig::play}, {"network_selfplay", &RunConfig::network_selfplay}};

bool is_search_section(std::string_view section) {
  if (section == "search") return true;
  for (const auto& [name, field] : kSearchOverlays)
    if (section == name) return true;
  return false;
}

// Keys that earlier versions wrote into a run's config.yaml and this one no longer has
// (core/retired_keys.h), by section; the `search` section's (which its overlays share) are
// search's.
struct RetiredRunKey {
  const char* section;
  RetiredKey key;
};
constexpr RetiredRunKey kRetiredKeys[] = {
    {"inference", {"material_utility", true, "dropped with the material head after E9 and E10 (docs/BENCHMARKS.md)"}},
    {"train", {"material_weight", true, "dropped with the material head after E9 and E10 (docs/BENCHMARKS.md)"}},
    {"train", {"material_horizon", false, "dropped with the material head after E9 and E10 (docs/BENCHMARKS.md)"}},
    {"train", {"draw_material_weight", true, "dropped (no measurable gain, docs/BENCHMARKS.md)"}},
    {"train", {"draw_material_scale", false, "dropped with train.draw_material_weight"}},
    {"loop", {"endgame_share", true, "dropped after E11 (the endgame curriculum, docs/BENCHMARKS.md)"}},
    {"loop", {"endgame_plies", false, "dropped after E11 (the endgame curriculum, docs/BENCHMARKS.md)"}},
    {"loop", {"endgame_plies_step", false, "dropped after E11 (the endgame curriculum, docs/BENCHMARKS.md)"}},
    {"loop", {"endgame_positions", false, "dropped after E11 (the endgame curriculum, docs/BENCHMARKS.md)"}},
};

void read_retired(config::Section& m, std::string_view section) {
  if (is_search_section(section)) return sz::read_retired_keys(m, search::kRetiredSearchKeys);
  std::vector<RetiredKey> retired;
  for (const RetiredRunKey& r : kRetiredKeys)
    if (section == r.section) retired.push_back(r.key);
  sz::read_retired_keys(m, retired);
}

// Reads `section` with the field list of `out`'s type; an absent section keeps the defaults.
template <typename T>
void read_section(config::Section& top, const char* section, T& out) {
  if (auto m = top.child(section)) {
    fields(*m, out);
    read_retired(*m, section);
    m->finish();
  }
}

template <typename T>
void write_section(config::Writer& w, const char* section, T& value) {
  w.begin(section);
  fields(w, value);
  w.end();
}

// The run config's sections, listed once for the reader and the writer, in config.yaml's order.
// The overlays of `search` (kSearchOverlays) are not among them: they are read and written right
// after it.
template <typename F>
void for_each_section(RunConfig& c, F&& f) {
  f("search", c.search);
  f("selfplay", c.selfplay);
  f("resign", c.selfplay.resign);
  f("adjudicate", c.selfplay.adjudicate);
  f("train", c.train);
  f("loop", c.loop);
  f("tables", c.tables);
  f("inference", c.inference);
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
  config::Section top = config::read_document(yaml, source, overrides, whole_file);
  RunConfig c;
  top_fields(top, c);
  if (const std::string why = run_name_problem(c.name); !why.empty())
    throw top.error("name", why + " (the run directory is runs/<name>; 'dir' sets another)");
  if (const auto net = net::load_net_config(c.net); !net) throw top.error("net", net.error());
  for_each_section(c, [&](const char* name, auto& section) {
    read_section(top, name, section);
    if (std::string_view(name) != "search") return;
    for (const auto& [overlay, field] : kSearchOverlays) {
      c.*field = c.search;
      read_section(top, overlay, c.*field);
    }
  });
  top.finish();
  c.selfplay.seed = c.seed;
  c.selfplay.search = c.search;
  c.selfplay.network_search = c.network_selfplay;
  return c;
}

Result<RunConfig> parse_checked(std::string_view yaml, std::string_view source,
                                const std::vector<std::string>& overrides, bool whole_file) {
  try {
    return parse_or_throw(yaml, source, overrides, whole_file);
  } catch (const Error& e) {
    return fail(e.what());
  }
}

}  // namespace

Result<RunConfig> parse_run_config(std::string_view yaml, std::string_view source,
                                   const std::vector<std::string>& overrides) {
  return parse_checked(yaml, source, overrides, /*whole_file=*/false);
}

Result<RunConfig> load_run_config(std::string_view name_or_path, const std::vector<std::string>& overrides) {
  const std::string embedded = std::string(name_or_path) + ".yaml";
  for (const config::EmbeddedFile& f : config::embedded_files())
    if (f.path == embedded) return parse_checked(f.text, "configs/" + embedded, overrides, /*whole_file=*/true);
  const std::string path(name_or_path), shown = "run config '" + shown_text(path) + "'";
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return fail(shown + " is a directory, not a YAML file");
  const Result<std::string> text = try_read_file(path);
  if (!text) return fail("cannot read " + shown);
  return parse_checked(*text, name_or_path, overrides, /*whole_file=*/true);
}

std::string to_yaml(const RunConfig& config) {
  RunConfig c = config;  // the field lists take mutable references
  config::Writer w;
  top_fields(w, c);
  for_each_section(c, [&](const char* name, auto& section) {
    write_section(w, name, section);
    if (std::string_view(name) != "search") return;
    for (const auto& [overlay, field] : kSearchOverlays) config::write_changes(w, overlay, c.search, c.*field);
  });
  return w.finish();
}

std::string play_changes(const RunConfig& config) {
  std::string keys;
  for (const std::string& line : config::changed_fields(config.search, config.play))
    keys += (keys.empty() ? "" : ", ") + line;
  return keys;
}

int eval_simulations(const RunConfig& config) {
  return config.loop.eval_simulations > 0 ? config.loop.eval_simulations : config.search.full_visits;
}

namespace {

// The draw adjudication's settings that matches use, as text (not self-play's control share).
std::string adjudication_text(const RunConfig& config) {
  search::DrawAdjudication a = config.selfplay.adjudicate;
  a.control_fraction = 0;
  config::Writer w;
  write_section(w, "adjudicate", a);
  return w.finish();
}

}  // namespace

uint64_t rating_conditions(const RunConfig& config) {
  search::SearchConfig s = config.search;
  const search::SearchConfig unused;  // a match player's search is Cheap, at temperature 0
  s.full_visits = unused.full_visits;
  s.cheap_visits = unused.cheap_visits;
  s.full_search_fraction = unused.full_search_fraction;
  s.dirichlet_weight = unused.dirichlet_weight;
  s.dirichlet_total_alpha = unused.dirichlet_total_alpha;
  s.forced_playouts = unused.forced_playouts;
  s.forced_playouts_k = unused.forced_playouts_k;
  s.policy_target_pruning = unused.policy_target_pruning;
  s.placement_temperature = unused.placement_temperature;
  s.play_temperature = unused.play_temperature;
  s.play_temperature_plies = unused.play_temperature_plies;
  s.play_temperature_half_life = unused.play_temperature_half_life;
  s.play_temperature_floor = unused.play_temperature_floor;
  s.reserve_nodes = unused.reserve_nodes;
  s.reserve_edges_per_node = unused.reserve_edges_per_node;
  config::Writer w;
  write_section(w, "search", s);
  const std::string text = w.finish() + "visits: " + std::to_string(eval_simulations(config)) +
                           "\nanchor: " + config.loop.anchor + "\nsuite: " + config.loop.eval_suite +
                           "\nprofile: " + config.profile + "\n" +
                           (config.tables.men > 0 ? "tables: " + std::to_string(config.tables.men) + "\n" : "") +
                           (config.selfplay.adjudicate.draws ? "adjudicate: " + adjudication_text(config) + "\n" : "");
  return fnv1a64(text.data(), text.size()) >> 11;
}

std::shared_ptr<const game::EndgameTables> config_tables(const RunConfig& config) {
  if (config.tables.men == 0) return nullptr;
  return games::endgame_tables(config.profile, config.tables.dir).take_or_throw("tables.dir");
}

train::TrainerSetup trainer_setup(const RunConfig& config, const std::string& run_dir) {
  train::TrainerSetup setup;
  setup.train = config.train;
  setup.net = net::load_net_config(config.net).take_or_throw("net '" + config.net + "'");
  setup.spec = games::spec_for(config.profile).take_or_throw("profile '" + config.profile + "'");
  setup.seed = config.seed;
  setup.run_dir = run_dir;
  // What every rank must agree on: the train section but where each rank runs, the network, the
  // seed, the profile and the program.
  train::TrainConfig agreed = config.train;
  agreed.device = train::TrainConfig().device;
  agreed.threads = 0;
  config::Writer w;
  write_section(w, "train", agreed);
  write_section(w, "net", setup.net);
  setup.agreement = w.finish() + "seed: " + std::to_string(config.seed) + "\nprofile: " + config.profile +
                    "\nprogram: sittuyin-zero " + SZ_VERSION + "\n";
  return setup;
}

}  // namespace sz::run
