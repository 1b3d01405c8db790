#pragma once
// The shards of a run's games directory as the trainer sees them: each readable shard with its
// position count, in the order they were finished (modification time, then file name: names sort
// by writing order only within one writer's prefix, and several writers share the directory).
// Torch-free.
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "game/game_state.h"

namespace sz::train {

using WarningSink = std::function<void(const std::string&)>;

struct ShardEntry {
  std::string path;
  int64_t positions = 0;
  // The order, oldest first: finished time (Unix ms; a shard without the attribute: its file's
  // modification time), then generation, then path (data/schema.h, kAttrFinishedUnixMs). Time
  // first, so that shards of standalone self-play processes (generation 0) joining a loop's run
  // still count as new.
  int64_t finished_unix_ms = 0;
  int64_t generation = 0;
  std::vector<std::string> profiles;  // rule profiles of its games
  // Every game was played without a model (the uniform bootstrap): its rows carry no search value
  // and no policy target, and the window keeps them apart (TrainConfig::bootstrap_share).
  bool bootstrap = false;
};

// Not thread-safe.
class ShardCatalog {
 public:
  // `spec`: the encoding of the network being trained.
  ShardCatalog(std::string games_dir, game::GameSpec spec, WarningSink on_warning);

  // Looks for shards added or removed since the last call; returns true if the set changed.
  // A shard that cannot be opened (truncated, corrupt, an unknown schema version) is skipped
  // with one warning naming the file (data::open_or_skip: a damaged one is moved into
  // games/damaged/), and not tried again. A shard whose encoding differs from `spec` throws
  // sz::Error naming the file: training on it would be wrong, skipping it silent.
  bool refresh();
  // The same over the shards `names` (file names in the games directory, as shard_names() gives
  // them) instead of the directory's listing: several ranks refresh over rank 0's names, so that
  // they build one window. A named shard not there (yet) is passed over quietly.
  bool refresh(const std::vector<std::string>& names);
  // The completed shards in the games directory now, by file name.
  std::vector<std::string> shard_names() const;

  // Excludes a shard found damaged later (when its rows were read), with the same warning, and
  // moves it into games/damaged/.
  void mark_bad(const std::string& path, const std::string& why);

  const std::vector<ShardEntry>& shards() const { return ordered_; }  // oldest first
  int64_t total_positions() const { return total_; }
  int64_t bootstrap_positions() const { return bootstrap_total_; }  // in bootstrap shards
  int64_t network_positions() const { return total_ - bootstrap_total_; }
  const std::string& games_dir() const { return dir_; }

 private:
  void reorder();

  std::string dir_;
  game::GameSpec spec_;
  WarningSink warn_;
  std::map<std::string, ShardEntry> entries_;  // by path
  std::set<std::string> bad_;
  std::vector<ShardEntry> ordered_;
  int64_t total_ = 0;
  int64_t bootstrap_total_ = 0;
};

}  // namespace sz::train
