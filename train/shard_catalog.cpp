#include "train/shard_catalog.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <optional>
#include <system_error>
#include <tuple>

#include "core/error.h"
#include "data/shard_files.h"
#include "data/shard_reader.h"

namespace sz::train {

namespace fs = std::filesystem;

namespace {

// A shard written before it carried its finished time: its file's modification time (0 when
// unreadable), in the same unit.
int64_t modified_unix_ms(const std::string& path) {
  std::error_code ec;
  const fs::file_time_type modified = fs::last_write_time(path, ec);
  if (ec) return 0;
  const auto since_epoch = std::chrono::file_clock::to_sys(modified).time_since_epoch();
  return std::chrono::duration_cast<std::chrono::milliseconds>(since_epoch).count();
}

}  // namespace

ShardCatalog::ShardCatalog(std::string games_dir, game::GameSpec spec, WarningSink on_warning)
    : dir_(std::move(games_dir)), spec_(std::move(spec)), warn_(std::move(on_warning)) {}

std::vector<std::string> ShardCatalog::shard_names() const {
  std::vector<std::string> names;
  for (const std::string& path : data::list_shards(dir_)) names.push_back(fs::path(path).filename().string());
  return names;
}

bool ShardCatalog::refresh() { return refresh(shard_names()); }

bool ShardCatalog::refresh(const std::vector<std::string>& names) {
  std::vector<std::string> paths;
  for (const std::string& name : names) paths.push_back((fs::path(dir_) / name).string());
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
    ShardEntry entry{path, 0, 0, 0, {}, false};  // positions, finished time, generation, kind: below
    std::optional<data::ShardReader> reader = data::open_or_skip(path, [&](const std::string& warning) {
      bad_.insert(path);
      if (warn_) warn_(warning);
    });
    if (!reader) continue;
    reader->check_compatible(spec_);  // throws, naming the file
    entry.positions = reader->info().num_positions;
    entry.profiles = reader->info().profiles;
    entry.generation = reader->info().generation;
    entry.finished_unix_ms =
        reader->info().finished_unix_ms >= 0 ? reader->info().finished_unix_ms : modified_unix_ms(path);
    try {
      const std::vector<std::string> models = reader->read_model_ids();
      entry.bootstrap =
          !models.empty() && std::all_of(models.begin(), models.end(), [](const std::string& m) { return m.empty(); });
    } catch (const Error& e) {  // a damaged games table
      mark_bad(path, e.what());
      continue;
    }
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
  total_ = bootstrap_total_ = 0;
  for (const auto& [path, entry] : entries_) {
    ordered_.push_back(entry);
    total_ += entry.positions;
    if (entry.bootstrap) bootstrap_total_ += entry.positions;
  }
  std::sort(ordered_.begin(), ordered_.end(), [](const ShardEntry& a, const ShardEntry& b) {
    return std::tie(a.finished_unix_ms, a.generation, a.path) < std::tie(b.finished_unix_ms, b.generation, b.path);
  });
}

}  // namespace sz::train
