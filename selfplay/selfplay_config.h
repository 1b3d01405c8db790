#pragma once
// Self-play settings: a plain struct with every default in one place (config/ parses it from
// the `selfplay` section of a run config; unknown keys are errors there).
#include <cstdint>
#include <string>

#include "search/search_config.h"

namespace sz::selfplay {

// Resignation (lc0, minigo): the mover resigns once its chance of not losing (win + draw, from
// the root's value) has stayed below `threshold` for `consecutive` of its own moves. In `disabled_fraction` of the games nobody
// resigns, and those games measure the false-positive rate: the share of would-be resignations
// whose side did not go on to lose.
struct ResignConfig {
  bool enabled = true;
  float threshold = 0.05f;         // probability of not losing, [0, 1)
  int consecutive = 3;             // own moves in a row below the threshold
  double disabled_fraction = 0.1;  // [0, 1]
  int min_ply = 20;                // never before this ply (placement is never resigned)
};

struct SelfplayConfig {
  std::string profile = "sittuyin";  // rule profile (built-in name or YAML path)
  int threads = 1;                   // worker threads; each advances many games
  int games_per_thread = 32;         // games in flight per worker: the batch size it sends
  uint64_t seed = 1;                 // every random choice flows from here
  int max_plies = 2000;
  // Play the most visited move that does not return to an earlier position of the game when the
  // chosen one would (and another exists): early networks of a drawish game otherwise shuffle
  // into threefold repetitions and teach the next ones nothing. Policy targets are unchanged.
  bool avoid_repetition = false;              // a game still running here is recorded as a draw ("max-plies")
  search::SearchConfig search;
  ResignConfig resign;
  int64_t games_per_shard = 100;     // a worker's shard is finished after this many games ...
  double seconds_per_shard = 300;    // ... or when it is this old
  std::string shard_prefix;          // empty: "<hostname>-w<worker>"
};

}  // namespace sz::selfplay
