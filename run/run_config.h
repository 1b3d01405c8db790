#pragma once
// The configuration of a run (configs/quickstart.yaml and friends): one YAML file with a section
// per part of the system. Each part owns its section's struct and field list (search/, selfplay/,
// train/, nn/, the loop here); this, the top of the house, composes them into the whole run and
// reads and writes it through config/section.h. Strict: an unknown key or an out-of-range value
// is an error naming the file, the line and the key. to_yaml writes the resolved configuration,
// every default included, next to a run's outputs.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "game/endgame_tables.h"
#include "nn/inference_config.h"
#include "run/loop_config.h"
#include "search/search_config.h"
#include "selfplay/selfplay_config.h"
#include "train/train_config.h"
#include "train/trainer.h"

namespace sz::run {

// Endgame tables (docs/TABLES.md): exact results and moves in the pawnless endings of up to
// `men` men. The loop builds the missing ones into `dir` before its first generation (Sittuyin's
// up to four men: about 26 s and 210 MB on 2 cores; kept for later runs); self-play ends a game
// that reaches them with their result, every search scores their positions exactly, and matches
// are adjudicated by them. men 0: none. `dir` is relative to the working directory, as runs are.
struct TablesConfig {
  std::string dir = "runs/tables";
  int men = 4;  // 0, 3 or 4
};

template <typename V>
void fields(V& v, TablesConfig& c) {
  v.text("dir", c.dir);
  v.num("men", c.men, 0, 4);
  v.check(c.men != 1 && c.men != 2, "men", "must be 0 (none), 3 or 4");
  v.check(c.men == 0 || !c.dir.empty(), "dir", "must name a directory when men is not 0");
}

struct RunConfig {
  std::string name = "run";  // the run directory is runs/<name> unless `dir` is set
  std::string dir;           // empty: runs/<name>
  uint64_t seed = 1;         // every random choice of the run flows from here
  std::string profile = "sittuyin";
  std::string net = "small";  // a preset (configs/nets) or the path of a net YAML
  nn::InferenceConfig inference;
  search::SearchConfig search;  // how self-play and the loop's rating matches search
  // How the shipped engine searches (`uci`, `levels`, `export` and the game clients): the
  // `search` section with the `play` section's keys on top, so that play can add the leaf search
  // that self-play does without (docs/EVALUATION.md, "The play-time search").
  search::SearchConfig play;
  // How self-play searches once a network plays (the bootstrap searches as `search`): the
  // `search` section with the `network_selfplay` section's keys on top, so that the networks can
  // learn from games of the leaf search (expert iteration, docs/TRAINING.md).
  search::SearchConfig network_selfplay;
  selfplay::SelfplayConfig selfplay;  // its seed and searches come from the fields above
  train::TrainConfig train;           // the trainer; its seed is `seed`
  LoopConfig loop;                    // generations, gating, strength measurements
  TablesConfig tables;                // endgame tables for self-play, the searches and matches

  std::string run_dir() const { return dir.empty() ? "runs/" + name : dir; }
};

// A run config from a file, or one of the configs compiled in (configs/<name>.yaml, e.g.
// "quickstart"). `overrides` are `section.key=value` strings (--set), applied before validation.
Result<RunConfig> load_run_config(std::string_view name_or_path, const std::vector<std::string>& overrides = {});
Result<RunConfig> parse_run_config(std::string_view yaml, std::string_view source,
                                   const std::vector<std::string>& overrides = {});

// The resolved configuration as YAML, every field written out (`play` and `network_selfplay` as
// the keys in which they differ from `search`, so that a --set of the search still reaches them).
std::string to_yaml(const RunConfig& config);

// The keys in which `play` differs from `search`, as "key: value" joined by ", " ("" if none).
std::string play_changes(const RunConfig& config);

// The visits of the loop's rating and final matches: loop.eval_simulations, or else the
// self-play budget search.full_visits.
int eval_simulations(const RunConfig& config);

// A fingerprint (53 bits, exact as a JSON number) of what a loop rating's result depends on besides
// its two players: the search as matches run it, their visits, the anchor, the eval suite and the
// profile. Settings that matches do not use (self-play's noise, temperatures, forced playouts, the
// full/cheap split, tree reserves) leave it unchanged. A ladder fits only the matches played under
// the run's present conditions (run/ladder.h).
uint64_t rating_conditions(const RunConfig& config);

// The endgame tables the config names for its profile (tables.dir, up to tables.men men; `loop`
// builds them there): null when tables.men is 0 or the directory holds none. Throws sz::Error
// naming the file of a damaged table.
std::shared_ptr<const game::EndgameTables> config_tables(const RunConfig& config);

// What the trainer of this run needs: its section, the network (`net`, loaded), the encoding of
// the profile's game, the seed and `run_dir`. Throws sz::Error for an unknown net or profile.
train::TrainerSetup trainer_setup(const RunConfig& config, const std::string& run_dir);

}  // namespace sz::run
