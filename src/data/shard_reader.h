#pragma once
// Reads HDF5 shards written by ShardWriter (schema: docs/DATA.md). open() checks the whole
// layout before anything is read: a file of an unknown schema version, with a missing or
// misshapen dataset, or truncated or corrupt, is refused with an sz::Error that names the file
// and what is wrong. Readers upgrade old versions step by step or refuse; they never guess.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "data/records.h"
#include "data/shard_files.h"
#include "game/game_state.h"

namespace sz::data {

// A shard of a schema version this reader does not know: not damaged (a newer program may read
// it), so it is skipped and left in place, where a damaged one is moved aside.
class ShardVersionError : public Error {
 public:
  using Error::Error;
};

// The file attributes and table sizes of a shard.
struct ShardInfo {
  std::string path;
  int format_version = 0;             // sample_format_version
  game::GameSpec spec;                // game, planes, scalars, action space and their versions
  std::vector<std::string> profiles;  // the rule profiles of its games, sorted
  std::string writer;                 // the writing program and its version
  int64_t num_games = 0;
  int64_t num_positions = 0;
  int64_t num_policy_entries = 0;
  // The shard's place in the run (schema::kAttrGeneration, kAttrFinishedUnixMs); -1: a shard
  // written before they were (finished_unix_ms), or 0 for its generation.
  int64_t generation = 0;
  int64_t finished_unix_ms = -1;
  // The self-play worker that wrote it (the `worker` attribute), "" when none was named (the
  // loop's own self-play, shards written before 2026-12-02).
  std::string worker{};
};

// Holds the file open. Not thread-safe: one per thread (the module serialises HDF5 calls).
class ShardReader {
 public:
  // Opens and validates a shard; throws sz::Error naming `path` on any problem.
  static ShardReader open(const std::string& path);
  ~ShardReader();
  ShardReader(ShardReader&&) noexcept;
  ShardReader& operator=(ShardReader&&) noexcept;

  const ShardInfo& info() const;

  // Throws sz::Error naming the file and the first field in which the shard's encoding differs
  // from `spec` (game, planes, scalars, action space, encoder or action-space version).
  void check_compatible(const game::GameSpec& spec) const;

  // Positions [first, first + count) into memory, policy starts rebased to the returned arrays.
  // Throws sz::Error on a range outside the shard or on corrupt data (checksums, action ids out
  // of the action space).
  PositionColumns read_positions(int64_t first, int64_t count) const;
  PositionColumns read_positions() const { return read_positions(0, info().num_positions); }

  // The games table, in file order; a game's positions are
  // [first_position, first_position + num_positions).
  std::vector<GameInfo> read_games() const;
  // The games table's seed column alone (cheap: no strings), in file order.
  std::vector<uint64_t> read_seeds() const;
  // The games table's model_id column alone, in file order.
  std::vector<std::string> read_model_ids() const;

 private:
  struct Impl;
  explicit ShardReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Opens the shard at `path` for a process that goes on without it if it cannot: a damaged shard
// (truncated, corrupt, not a shard) is moved into damaged/ beside it (move_to_damaged) and an
// unknown schema version left in place; either way `on_skip` gets the one warning every program
// gives for it, "skipping shard <path>: <why> (...; the run goes on without it)", and the result
// is empty. Throws only what `on_skip` throws.
std::optional<ShardReader> open_or_skip(const std::string& path,
                                        const std::function<void(const std::string&)>& on_skip);

// The warning for a shard skipped because reading it failed with `why` (a message that may or may
// not start with the path); moves it into damaged/ unless `damaged` is false.
std::string skip_shard(const std::string& path, const std::string& why, bool damaged = true);

}  // namespace sz::data
