#pragma once
// The levels manifest of `sittuyin-zero levels` (eval/levels.h writes it: runs/<run>/eval/
// levels.yaml) read back for `export --levels`: each level's search settings and measured Elo.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "client/bundle.h"
#include "search/search_config.h"

namespace sz::bundle {

struct ManifestLevel {
  client::BundleLevel level;
  std::string checkpoint;  // the network a `model` level plays; "" for random and uniform-mcts
};

struct LevelsManifest {
  std::vector<ManifestLevel> levels;
  // The search every MCTS level played with in the round robin (its `search` key); nullopt for a
  // manifest written before the key was (its levels played the run's search section).
  std::optional<search::SearchConfig> search;
};

// Throws sz::Error naming the file, the line and the key for a manifest that is not one, of
// another version, or with a missing or malformed field.
LevelsManifest read_levels_manifest(const std::string& path);
// The same from the manifest's text, named `source` in errors (the fuzzer's way in).
LevelsManifest levels_manifest_from_text(std::string_view text, const std::string& source);

}  // namespace sz::bundle
