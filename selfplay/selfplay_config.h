#pragma once
// Self-play settings: plain structs with every default in one place and their field lists (the
// `selfplay` and `resign` sections of a run config, read and written through config/section.h).
#include <cstdint>
#include <optional>
#include <string>

#include "search/draw_adjudication.h"
#include "search/evaluator.h"
#include "search/search_config.h"

namespace sz::selfplay {

// Resignation (lc0, minigo): the mover resigns once its chance of not losing (win + draw, from
// the root's value) has stayed below `threshold` for `consecutive` of its own moves. In `disabled_fraction` of the
// games nobody resigns, and those games measure the false-positive rate: the share of would-be resignations whose side
// did not go on to lose.
struct ResignConfig {
  bool enabled = true;
  float threshold = 0.05f;         // probability of not losing, [0, 1)
  int consecutive = 3;             // own moves in a row below the threshold
  double disabled_fraction = 0.1;  // [0, 1]
  int min_ply = 20;                // never before this ply (placement is never resigned)
};

// Every key of the `resign` section, with its range.
template <typename V>
void fields(V& v, ResignConfig& c) {
  v.flag("enabled", c.enabled);
  v.num("threshold", c.threshold, 0.0f, 0.999f);
  v.num("consecutive", c.consecutive, 1, 1000);
  v.num("disabled_fraction", c.disabled_fraction, 0.0, 1.0);
  v.num("min_ply", c.min_ply, 0, 100'000);
}

// The game played is the job's start position (SelfplayJob::start); the run config fills `seed`
// and `search` from its own top-level and `search` settings.
struct SelfplayConfig {
  int threads = 1;            // worker threads; each advances many games
  int games_per_thread = 32;  // games in flight per worker: the batch size it sends
  uint64_t seed = 1;          // every random choice flows from here
  int max_plies = 2000;       // a game still running here is recorded as a draw ("max-plies")
  // Play the most visited move that does not return to an earlier position of the game when the
  // chosen one would (and another exists): early networks of a drawish game otherwise shuffle
  // into threefold repetitions and teach the next ones nothing. Policy targets are unchanged.
  bool avoid_repetition = false;
  search::SearchConfig search;
  // How a game searches once a network plays (its evaluator gives a prior), where `search` is
  // then the bootstrap's (uniform or material player) alone: expert iteration under the leaf
  // search (the run config's `network_selfplay` section; docs/TRAINING.md). Unset: `search`.
  std::optional<search::SearchConfig> network_search;
  // The search of a game whose evaluator has `knowledge`.
  const search::SearchConfig& search_for(search::Knowledge knowledge) const {
    return knowledge.prior && network_search ? *network_search : search;
  }
  ResignConfig resign;
  search::DrawAdjudication adjudicate;  // search/draw_adjudication.h
  int64_t games_per_shard = 100;        // a worker's shard is finished after this many games ...
  double seconds_per_shard = 300;       // ... or when it is this old
  std::string shard_prefix;             // before the worker id in shard names (SelfplayJob::worker_id)
};

// Every key of the `selfplay` section, with its range (`seed`, `search`, `resign` and
// `adjudicate` are not in it: they come from the run config's other sections).
template <typename V>
void fields(V& v, SelfplayConfig& c) {
  v.num("threads", c.threads, 1, 1024);
  v.num("games_per_thread", c.games_per_thread, 1, 65536);
  v.num("max_plies", c.max_plies, 1, 1'000'000);
  v.flag("avoid_repetition", c.avoid_repetition);
  v.num("games_per_shard", c.games_per_shard, int64_t{1}, int64_t{1'000'000});
  v.num("seconds_per_shard", c.seconds_per_shard, 0.0, 1e7);
  v.text("shard_prefix", c.shard_prefix);
}

}  // namespace sz::selfplay
