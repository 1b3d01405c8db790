#pragma once
// Strength levels for game clients: candidate opponents made from a run's checkpoints, simulation
// counts and move-choice temperatures (plus the random mover), rated together in one round robin
// (a Bradley-Terry fit anchored at the random mover: measured, never assumed), from which
// `count` levels are picked with ratings as evenly spaced as the candidates allow. An external
// anchor (Fairy-Stockfish at one node) may join the round robin, not as a level: each level's
// Elo over it is then reported too, from the same games.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "eval/arena.h"
#include "eval/player.h"
#include "search/search_config.h"

namespace sz::eval {

struct LevelSetting {
  std::string name;
  std::string checkpoint;  // "" with simulations > 0: the uniform bootstrap; random: none
  bool random = false;
  int simulations = 0;
  float temperature = 0;
};

struct Level {
  int level = 0;  // 1 = weakest
  LevelSetting setting;
  Rating rating;       // Elo over the random mover, with its 95% interval
  Rating over_anchor;  // Elo over the anchor (when one played), with its 95% interval
};

struct LevelsSpec {
  std::vector<std::string> checkpoints;  // the run's checkpoints, oldest first (at least one)
  int count = 5;
  int full_simulations = 64;  // the strongest candidates' budget
  search::SearchConfig search;
  std::string profile = "sittuyin";
  std::vector<std::string> starts;  // each start twice per pairing, colours swapped
  int concurrency = 1;
  uint64_t seed = 1;
  ModelLoader load_model;             // the evaluators of a checkpoint
  std::optional<MatchPlayer> anchor;  // plays in the round robin; not a level
  std::string pgn_path;               // every game of the round robin in PGN; empty: none
  // Endgame tables (null: none): every level's search uses them and the round robin is
  // adjudicated by them, as a game client whose bundle carries them plays.
  std::shared_ptr<const game::EndgameTables> tables;
  // Called after each game of the round robin (MatchSpec::on_game): progress for a long run.
  std::function<void(const GameRecord&, const MatchResult&)> on_game;
};

struct LevelsResult {
  std::vector<LevelSetting> candidates;
  MatchResult match;  // the round robin of the candidates (and the anchor, the last player)
  std::vector<Level> levels;
  std::string anchor;         // its name, "" when none played
  Rating random_over_anchor;  // the random mover's Elo over the anchor
};

// The candidates `spec` makes (the random mover first).
std::vector<LevelSetting> level_candidates(const LevelsSpec& spec);

// `count` of the rated candidates, in increasing rating, spread as evenly as they allow between
// the weakest and the strongest (both always included).
std::vector<Level> pick_levels(const std::vector<LevelSetting>& candidates, const std::vector<Rating>& ratings,
                               int count);

// Builds the candidates, plays their round robin and picks the levels. Throws sz::Error.
LevelsResult build_levels(const LevelsSpec& spec);

// The manifest a game client reads (YAML): per level its Elo with interval and its settings. The
// `levels` command appends the `search` section the round robin played with (config writes it).
std::string levels_manifest(const LevelsResult& result, const std::string& run_dir, const std::string& profile);

}  // namespace sz::eval
