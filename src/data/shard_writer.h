#pragma once
// Writes self-play games into HDF5 shards (schema: docs/DATA.md). Each self-play worker owns
// one ShardWriter with its own file-name prefix, so writers never share a file. A shard is built
// in memory, written out under a hidden temporary name when it is finished and renamed into
// place, so a reader (or a crash) never sees half a shard; a crash loses at most the shard in
// progress. HDF5 itself never writes to the disk: a full disk is one sz::Error from our own
// write, after which nothing of the shard is left (HDF5 1.10 crashed at exit after failing to
// flush a file).
#include <cstdint>
#include <memory>
#include <string>

#include "data/records.h"
#include "game/game_state.h"

namespace sz::data {

struct ShardWriterOptions {
  int64_t games_per_shard = 500;   // finish a shard once it holds this many games ...
  double seconds_per_shard = 600;  // ... or once it is this old (0: no age limit)
  int64_t generation = 0;          // the loop's generation of the games (schema::kAttrGeneration)
  std::string worker{};            // the self-play worker writing (schema::kAttrWorker; "": none)
};

// Not thread-safe: one per worker. Different writers may run on different threads (the module
// serialises its HDF5 calls). The age limit is checked when a game is added, so an idle writer
// keeps its shard open until the next game or close().
class ShardWriter {
 public:
  // Creates `directory` if needed, deletes this prefix's stale temporaries (left by a killed
  // process) and continues numbering after this prefix's highest existing shard. `prefix` must
  // be unique among the live writers of the directory (e.g. "<host>-w03"), must not be empty,
  // start with '.' or contain '/'. `spec` is the encoding every added position must have.
  // Throws sz::Error on a bad argument or an unreadable directory.
  ShardWriter(std::string directory, std::string prefix, game::GameSpec spec, ShardWriterOptions options = {});
  // Finishes the current shard like close(), but cannot report a failure (the temporary is then
  // deleted): call close() to see errors.
  ~ShardWriter();
  ShardWriter(ShardWriter&&) noexcept;
  ShardWriter& operator=(ShardWriter&&) noexcept;

  // Appends one finished game, starting a shard if none is open, and finishes the shard when it
  // is full or old enough. Returns the path of the shard this call finished, or "" if none.
  // A record that does not fit the spec is refused (sz::Error) before anything is written; an
  // I/O failure discards the shard in progress (sz::Error), and the next game starts a new one.
  std::string add_game(const GameRecord& game);

  // Finishes the current shard, if any. Returns its path, or "". The writer stays usable.
  std::string close();

  const std::string& directory() const;
  int64_t next_sequence() const;   // the sequence number the next shard will get
  int64_t games_in_shard() const;  // games in the shard in progress

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Throws sz::Error naming the first field of `game` that does not fit `spec` (plane and scalar
// counts, column lengths, results in {-1, 0, 1}, action ids in [0, action_space), phases).
void validate_game(const GameRecord& game, const game::GameSpec& spec);

// The program version recorded in every shard's `writer` attribute, e.g. "sittuyin-zero 0.1.0".
std::string writer_version();

}  // namespace sz::data
