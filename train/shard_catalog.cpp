#include "train/shard_catalog.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <system_error>

#include "core/error.h"
#include "data/shard_files.h"
#include "data/shard_reader.h"

namespace sz::train {

namespace fs = std::filesystem;

ShardCatalog::ShardCatalog(std::string games_dir, game::GameSpec spec, WarningSink on_warning)
    : dir_(std::move(games_dir)), spec_(std::move(spec)), warn_(std::move(on_warning)) {}

bool ShardCatalog::refresh() {
  const std::vector<std::string> paths = data::list_shards(dir_);
  bool changed = false;
  const std::set<std::string> present(paths.begin(), paths.end());
  for (auto it = entries_.begin(); it != entries_.end();) {  // deleted by someone: forget
    if (present.count(it->first)) {
      ++it;
    } else {
      it = entries_.erase(it);
      changed = true;
    }
  }
  for (const std::string& path : paths) {
    if (entries_.count(path) || bad_.count(path)) continue;
    std::error_code ec;
    const auto mtime = fs::last_write_time(path, ec);
    ShardEntry entry{path, 0, ec ? 0 : int64_t(mtime.time_since_epoch().count()), {}};
    std::optional<data::ShardReader> reader = data::open_or_skip(path, [&](const std::string& warning) {
      bad_.insert(path);
      if (warn_) warn_(warning);
    });
    if (!reader) continue;
    reader->check_compatible(spec_);  // throws, naming the file
    entry.positions = reader->info().num_positions;
    entry.profiles = reader->info().profiles;
    entries_.emplace(path, std::move(entry));
    changed = true;
  }
  if (changed) reorder();
  return changed;
}

void ShardCatalog::mark_bad(const std::string& path, const std::string& why) {
  if (!bad_.insert(path).second) return;
  if (entries_.erase(path)) reorder();
  const std::string warning = data::skip_shard(path, why);  // moves it into damaged/
  if (warn_) warn_(warning);
}

void ShardCatalog::reorder() {
  ordered_.clear();
  total_ = 0;
  for (const auto& [path, entry] : entries_) {
    ordered_.push_back(entry);
    total_ += entry.positions;
  }
  std::sort(ordered_.begin(), ordered_.end(), [](const ShardEntry& a, const ShardEntry& b) {
    return a.mtime != b.mtime ? a.mtime < b.mtime : a.path < b.path;
  });
}

}  // namespace sz::train
