#include "train/window.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include "core/error.h"
#include "core/rng.h"
#include "data/shard_reader.h"

namespace sz::train {

namespace {

constexpr uint64_t kSamplingSalt = 0x7472'6169'6e5f'7277ull;  // "train_rw"

}  // namespace

uint64_t batch_seed(uint64_t seed, int64_t step) {
  uint64_t state = seed ^ kSamplingSalt;
  uint64_t mixed = splitmix64(state) + uint64_t(step);
  return splitmix64(mixed);
}

int bootstrap_rows_in_batch(const Sampling& sampling, int count, int64_t pool_rows) {
  if (pool_rows <= 0) return 0;
  return int(std::lround(std::clamp(sampling.bootstrap_share, 0.0, 1.0) * count));
}

void sample_rows(uint64_t seed, int64_t step, int count, int64_t pool_rows, int64_t size, const Sampling& sampling,
                 std::vector<int64_t>& out) {
  out.resize(size_t(count));
  if (size <= 0) throw Error("sample_rows: the window is empty");
  if (pool_rows < 0 || pool_rows >= size) pool_rows = 0;  // no pool, or nothing beside it: one pool
  Rng rng(batch_seed(seed, step));
  // Lemire's multiply-shift on 64 bits: uniform in [0, n) up to a bias of n / 2^64.
  auto below = [&](int64_t n) { return int64_t((static_cast<unsigned __int128>(rng()) * uint64_t(n)) >> 64); };
  const int from_pool = bootstrap_rows_in_batch(sampling, count, pool_rows);
  const int64_t others = size - pool_rows;
  const int recent = int(std::lround(std::clamp(sampling.recent_share, 0.0, 1.0) * count));
  const int64_t recent_rows = std::clamp<int64_t>(sampling.recent_positions, 1, others);
  for (int i = 0; i < count; ++i) {
    if (i < from_pool)
      out[size_t(i)] = below(pool_rows);
    else if (i < count - recent)
      out[size_t(i)] = pool_rows + below(others);
    else
      out[size_t(i)] = size - recent_rows + below(recent_rows);
  }
}

Window::Row Window::row(int64_t i) const {
  const auto it = std::upper_bound(ends_.begin(), ends_.end(), i);
  const size_t s = size_t(it - ends_.begin());
  const Segment& seg = segments_[s];
  const int64_t start = s == 0 ? 0 : ends_[s - 1];
  return {seg.columns.get(), seg.first + (i - start)};
}

std::vector<std::string> Window::shard_paths() const {
  std::vector<std::string> paths;
  for (const Segment& s : segments_) paths.push_back(s.shard.path);
  return paths;
}

std::string Window::newest_shard() const {
  return segments_.empty() ? "" : std::filesystem::path(segments_.back().shard.path).filename().string();
}

int64_t Window::end_of_shard(const std::string& name) const {
  for (size_t i = 0; i < segments_.size(); ++i)
    if (std::filesystem::path(segments_[i].shard.path).filename().string() == name) return ends_[i];
  return -1;
}

std::vector<std::string> Window::profiles() const {
  std::set<std::string> all;
  for (const Segment& s : segments_) all.insert(s.shard.profiles.begin(), s.shard.profiles.end());
  return {all.begin(), all.end()};
}

template <typename Take>
void Window::add_newest(ShardCatalog& catalog, const std::vector<ShardEntry>& shards, int64_t need,
                        const Window* previous, Take take) {
  const size_t first_new = segments_.size();
  for (auto it = shards.rbegin(); it != shards.rend() && need > 0; ++it) {
    if (!take(*it)) continue;
    std::shared_ptr<const data::PositionColumns> columns;
    if (previous) {
      for (const Segment& s : previous->segments_)
        if (s.shard.path == it->path) columns = s.columns;
    }
    if (!columns) {
      try {
        columns = std::make_shared<const data::PositionColumns>(data::ShardReader::open(it->path).read_positions());
      } catch (const Error& e) {
        catalog.mark_bad(it->path, e.what());
        continue;
      }
    }
    const int64_t rows = std::min(need, columns->size());
    if (rows == 0) continue;
    segments_.push_back({columns, *it, columns->size() - rows, rows});
    need -= rows;
  }
  std::reverse(segments_.begin() + ptrdiff_t(first_new), segments_.end());
}

std::shared_ptr<const Window> Window::build(ShardCatalog& catalog, const WindowSizes& sizes, const Window* previous) {
  auto window = std::make_shared<Window>();
  const std::vector<ShardEntry> shards = catalog.shards();  // a copy: mark_bad changes the catalog
  if (sizes.bootstrap_pool > 0) {
    window->add_newest(catalog, shards, sizes.bootstrap_pool, previous,
                       [](const ShardEntry& e) { return e.bootstrap; });
    for (const Segment& s : window->segments_) window->pool_rows_ += s.count;
    window->add_newest(catalog, shards, sizes.others, previous, [](const ShardEntry& e) { return !e.bootstrap; });
  } else {
    window->add_newest(catalog, shards, sizes.others, previous, [](const ShardEntry&) { return true; });
  }
  int64_t end = 0;
  for (const Segment& s : window->segments_) window->ends_.push_back(end += s.count);
  return window;
}

}  // namespace sz::train
