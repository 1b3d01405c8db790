#pragma once
// The sliding window: the newest positions of a run, in memory, and the batches drawn from it.
// Whole shards are loaded with sequential reads (random single-row reads from compressed HDF5
// ran ~100x slower) and kept as PositionColumns; a batch is a list of window rows. Torch-free.
//
// Sampling: batch k's rows are drawn uniformly, with replacement, by an RNG seeded from
// (seed, k) alone, so a batch depends only on the seed, its step and the window's shards (the
// same shards give the same window rows in the same order).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "data/records.h"
#include "train/shard_catalog.h"

namespace sz::train {

// The seed of batch `step`'s RNG.
uint64_t batch_seed(uint64_t seed, int64_t step);

// How a batch's rows are drawn: uniformly from the whole window, except a fixed share from its
// newest rows (TrainConfig::recent_share, recent_positions) and, when the window keeps the
// bootstrap's rows apart, a fixed share from those (TrainConfig::bootstrap_share).
struct Sampling {
  double recent_share = 0;
  int64_t recent_positions = 0;
  double bootstrap_share = 0;
};

// Rows of batch `step` drawn from the bootstrap pool when it is kept apart: round(bootstrap_share
// * count) of them, none when there is no pool.
int bootstrap_rows_in_batch(const Sampling& sampling, int count, int64_t pool_rows);

// `count` row indices for batch `step`, into `out` (resized). Rows [0, pool_rows) of the window
// are the bootstrap pool and [pool_rows, size) the others, oldest first (pool_rows 0: no pool).
// The first bootstrap_rows_in_batch() are uniform over the pool; of the rest, count -
// round(recent_share * count) uniform over the other rows and the others uniform over their
// newest min(rows, recent_positions). With both shares 0 every row is uniform.
void sample_rows(uint64_t seed, int64_t step, int count, int64_t pool_rows, int64_t size, const Sampling& sampling,
                 std::vector<int64_t>& out);
inline void sample_rows(uint64_t seed, int64_t step, int count, int64_t size, const Sampling& sampling,
                        std::vector<int64_t>& out) {
  sample_rows(seed, step, count, 0, size, sampling, out);
}

// How many positions a window holds of each kind: a single newest-first window over every shard
// (bootstrap_pool 0), or the newest `bootstrap_pool` rows of the bootstrap's shards kept apart
// from the newest `others` rows of the rest.
struct WindowSizes {
  int64_t others = 0;
  int64_t bootstrap_pool = 0;
};

// Immutable once built: the loader thread reads it while the trainer builds the next one.
class Window {
 public:
  // The newest `size` positions of the catalog's shards (fewer if they hold fewer), oldest
  // first. Shards that `previous` holds are shared, not read again. A shard that fails to load
  // is marked bad in the catalog (a warning naming it) and the next older one is taken instead.
  static std::shared_ptr<const Window> build(ShardCatalog& catalog, int64_t size, const Window* previous) {
    return build(catalog, WindowSizes{size, 0}, previous);
  }
  // With a bootstrap pool (sizes.bootstrap_pool > 0): the pool's rows first, then the others.
  static std::shared_ptr<const Window> build(ShardCatalog& catalog, const WindowSizes& sizes, const Window* previous);

  struct Row {
    const data::PositionColumns* columns;
    int64_t index;  // row of *columns
  };

  int64_t size() const { return ends_.empty() ? 0 : ends_.back(); }
  int64_t pool_rows() const { return pool_rows_; }  // rows of the bootstrap pool, first
  size_t num_shards() const { return segments_.size(); }
  Row row(int64_t i) const;  // 0 <= i < size()

  std::vector<std::string> shard_paths() const;  // oldest first
  std::string newest_shard() const;              // its file name; "" when empty
  // The first row after the segment of the shard named `name` (a file name), or -1 when the
  // window holds no segment of it.
  int64_t end_of_shard(const std::string& name) const;
  std::vector<std::string> profiles() const;  // rule profiles of its shards, sorted

 private:
  struct Segment {
    std::shared_ptr<const data::PositionColumns> columns;  // the whole shard
    ShardEntry shard;
    int64_t first = 0;  // the window takes rows [first, first + count) of the shard
    int64_t count = 0;
  };
  std::vector<Segment> segments_;  // oldest first
  std::vector<int64_t> ends_;      // ends_[s]: window rows in segments 0..s
  int64_t pool_rows_ = 0;

  // Appends the newest `need` rows of the shards `take` accepts, oldest first.
  template <typename Take>
  void add_newest(ShardCatalog& catalog, const std::vector<ShardEntry>& shards, int64_t need, const Window* previous,
                  Take take);
};

}  // namespace sz::train
