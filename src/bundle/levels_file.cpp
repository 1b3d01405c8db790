#include "bundle/levels_file.h"

#include "config/section.h"
#include "core/read_file.h"

namespace sz::bundle {

LevelsManifest read_levels_manifest(const std::string& path) {
  return levels_manifest_from_text(try_read_file(path, "cannot open the levels manifest").take_or_throw(), path);
}

LevelsManifest levels_manifest_from_text(std::string_view text, const std::string& source) {
  config::Section top = config::read_document(text, source, {}, /*whole_file=*/true);
  std::string format, run, profile, anchor;
  int version = 0;
  double random_over_anchor = 0;
  top.text("format", format);
  if (format != "sittuyin-zero levels") throw top.error("format", "'format' must be 'sittuyin-zero levels'");
  top.num("version", version, 1, 1);
  top.text("run", run);
  top.text("profile", profile);
  top.text("anchor", anchor);
  top.num("random_over_anchor", random_over_anchor, -1e5, 1e5);
  LevelsManifest out;
  for (config::Section& l : top.items("levels")) {
    for (const char* key : {"level", "name", "elo", "elo_lower", "elo_upper", "player", "simulations", "temperature"})
      if (!l.has(key)) throw l.error(std::string("missing key '") + l.path(key) + "'");
    ManifestLevel m;
    client::BundleLevel& b = m.level;
    l.num("level", b.level, 1, 1000);
    l.text("name", b.name);
    l.num("elo", b.elo, -1e5, 1e5);
    l.num("elo_lower", b.elo_lower, -1e5, 1e5);
    l.num("elo_upper", b.elo_upper, -1e5, 1e5);
    l.choice<std::string>("player", b.player,
                          {{"model", "model"}, {"uniform-mcts", "uniform-mcts"}, {"random", "random"}});
    l.text("checkpoint", m.checkpoint);
    l.num("simulations", b.simulations, 0, 1 << 24);
    l.num("temperature", b.temperature, 0.0f, 100.0f);
    double over_anchor = 0;  // the same games, with the anchor at 0: not carried into the bundle
    l.num("elo_over_anchor", over_anchor, -1e5, 1e5);
    l.num("elo_over_anchor_lower", over_anchor, -1e5, 1e5);
    l.num("elo_over_anchor_upper", over_anchor, -1e5, 1e5);
    l.finish();
    if (b.player == "model" && m.checkpoint.empty()) throw l.error("checkpoint", "a model level names its checkpoint");
    out.levels.push_back(m);
  }
  if (out.levels.empty()) throw top.error("levels", "the manifest lists no levels");
  if (std::optional<config::Section> search = top.child("search")) {
    search::SearchConfig c;
    search::fields(*search, c);
    read_retired_keys(*search, search::kRetiredSearchKeys);  // a manifest of an older program
    search->finish();
    out.search = c;
  }
  top.finish();
  return out;
}

}  // namespace sz::bundle
