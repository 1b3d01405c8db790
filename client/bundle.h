#pragma once
// A model bundle as `sittuyin-zero export` writes it (docs/CLIENTS.md): model.json (the game,
// the rule profiles, the encoding, the network's architecture, the action table, the strength
// levels) and model.onnx (the network, whose weights client/onnx_weights.h reads). Opening one checks everything a
// client relies on: the format and its version, the encoding against this runtime's rules core, every key, the weights
// against the architecture. Torch-free, yaml-free.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "client/eigen_net.h"
#include "core/error.h"
#include "game/endgame_tables.h"
#include "games/chaturanga/profile.h"
#include "net/architecture.h"
#include "search/search_config.h"

namespace sz::client {

inline constexpr char kBundleFormat[] = "sittuyin-zero-bundle";
inline constexpr int kBundleFormatVersion = 2;  // 1: the weights in a file of their own (weights.bin)
inline constexpr char kModelJson[] = "model.json";
inline constexpr char kModelOnnx[] = "model.onnx";
inline constexpr char kWeightsFormat[] = "onnx";
// Endgame tables a bundle may carry (`export --tables`), laid out as a tables directory
// (docs/TABLES.md); model.json does not name them, so a runtime that knows none ignores them.
inline constexpr char kTablesFolder[] = "tables";

// A strength level (`sittuyin-zero levels`): the search settings that play it and its measured
// rating.
struct BundleLevel {
  int level = 0;  // 1 = weakest
  std::string name;
  std::string player;  // "model", "uniform-mcts" or "random"
  int simulations = 0;
  float temperature = 0;
  double elo = 0, elo_lower = 0, elo_upper = 0;  // over the random mover, 95% interval
};

// A level's fields in model.json, for the field visitors of client/json_fields.h (the exporter
// writes them, the runtime reads them).
template <typename V>
void fields(V& v, BundleLevel& l) {
  v.num("level", l.level, 1, 1000);
  v.text("name", l.name);
  v.text("player", l.player);
  v.num("simulations", l.simulations, 0, 1 << 24);
  v.num("temperature", l.temperature, 0.0f, 100.0f);
  v.num("elo", l.elo, -1e5, 1e5);
  v.num("elo_lower", l.elo_lower, -1e5, 1e5);
  v.num("elo_upper", l.elo_upper, -1e5, 1e5);
}

struct Bundle {
  std::string dir;
  net::Architecture arch;  // the spec with this runtime's policy map
  // Resolved, at stable addresses (positions keep a reference to their profile). The first is
  // the default.
  std::vector<std::unique_ptr<chaturanga::RuleProfile>> profiles;
  std::vector<BundleLevel> levels;  // weakest first; empty when exported without levels
  search::SearchConfig search;      // the MCTS settings of the exporting run (its `search` section)
  EigenNet net;                     // copy it for each thread that evaluates
  // The endgame tables the bundle carries for each profile (by index), null where none.
  std::vector<std::shared_ptr<const game::EndgameTables>> tables;

  // nullptr when the bundle has no profile of that id.
  const chaturanga::RuleProfile* profile(std::string_view id) const;
  // The tables of a profile of the bundle; nullptr when it carries none.
  const game::EndgameTables* tables_for(const chaturanga::RuleProfile* profile) const;
};

// Opens the bundle in `dir`. Every failure is a message naming the file and what is wrong: a
// missing file, a foreign or truncated model.onnx, a format or encoding version this runtime
// does not know, a missing or unknown key in model.json, a damaged or foreign endgame table.
Result<std::unique_ptr<Bundle>> open_bundle(const std::string& dir);

}  // namespace sz::client
