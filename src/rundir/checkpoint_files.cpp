#include "rundir/checkpoint_files.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "core/atomic_file.h"
#include "core/parse_number.h"
#include "core/read_file.h"

namespace sz::rundir {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kCheckpointPrefix = "model-";
constexpr std::string_view kCheckpointSuffix = ".pt";
constexpr std::string_view kStateSuffix = ".state";
constexpr const char* kCurrentFile = "current.txt";

std::string errno_text() { return std::strerror(errno); }

}  // namespace

std::string checkpoint_file_name(int64_t step) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "model-%08lld.pt", static_cast<long long>(step));
  return buf;
}

int64_t checkpoint_step(std::string_view name) {
  if (!name.starts_with(kCheckpointPrefix) || !name.ends_with(kCheckpointSuffix)) return -1;
  name.remove_prefix(kCheckpointPrefix.size());
  name.remove_suffix(kCheckpointSuffix.size());
  int64_t step = -1;
  if (name.empty() || name.size() > 18 || !parse_number(name, step) || step < 0) return -1;
  return step;
}

std::string state_path(const std::string& checkpoint_path) {
  std::string p = checkpoint_path;
  if (p.ends_with(kCheckpointSuffix)) p.resize(p.size() - kCheckpointSuffix.size());
  return p + std::string(kStateSuffix);
}

std::string current_path(const std::string& models_dir) { return (fs::path(models_dir) / kCurrentFile).string(); }

std::string read_current(const std::string& models_dir) {
  const std::string current = current_path(models_dir);
  std::error_code ec;
  if (!fs::exists(current, ec)) return "";
  std::string name = read_file(current);
  while (!name.empty() && (name.back() == '\n' || name.back() == '\r' || name.back() == ' ')) name.pop_back();
  if (checkpoint_step(name) < 0)
    throw Error(current + ": does not name a checkpoint (model-<step>.pt): '" + name + "'");
  const std::string path = (fs::path(models_dir) / name).string();
  if (!fs::is_regular_file(path, ec)) throw Error(current + ": names " + name + ", which is not there");
  return path;
}

void write_current(const std::string& models_dir, const std::string& checkpoint_file) {
  write_file_atomically(current_path(models_dir), checkpoint_file + "\n");
}

std::vector<std::string> list_checkpoints(const std::string& models_dir) {
  std::vector<std::pair<int64_t, std::string>> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(models_dir, ec))
    if (const int64_t step = checkpoint_step(entry.path().filename().string()); step >= 0 && entry.is_regular_file(ec))
      found.emplace_back(step, entry.path().string());
  std::sort(found.rbegin(), found.rend());
  std::vector<std::string> paths;
  for (auto& [step, path] : found) paths.push_back(std::move(path));
  return paths;
}

std::string move_checkpoint_to_damaged(const std::string& path, std::string* why_not) {
  const fs::path dir = fs::path(path).parent_path() / "damaged";
  const std::string target = (dir / fs::path(path).filename()).string();
  std::error_code ec;
  std::string why;
  if (fs::create_directories(dir, ec); ec) {
    why = "cannot create " + dir.string() + ": " + ec.message();
  } else if (fs::exists(target, ec)) {
    why = target + " exists already";
  } else if (std::rename(path.c_str(), target.c_str()) != 0) {
    why = errno_text();
  } else {
    const std::string state = state_path(path);
    if (fs::exists(state, ec)) std::rename(state.c_str(), state_path(target).c_str());
    return target;
  }
  if (why_not) *why_not = why;
  return "";
}

std::vector<std::string> prune_checkpoints(const std::string& models_dir, int keep) {
  std::vector<std::string> deleted;
  std::error_code ec;
  std::vector<std::pair<int64_t, std::string>> checkpoints;
  for (const auto& entry : fs::directory_iterator(models_dir, ec)) {
    const std::string name = entry.path().filename().string();
    const bool ours = name.starts_with(kCheckpointPrefix) || name.starts_with(kCurrentFile);
    if (ours && name.find(".tmp") != std::string::npos) {
      if (fs::remove(entry.path(), ec)) deleted.push_back(entry.path().string());  // a killed writer's
    } else if (const int64_t step = checkpoint_step(name); step >= 0) {
      checkpoints.emplace_back(step, entry.path().string());
    }
  }
  if (keep <= 0 || int(checkpoints.size()) <= keep) return deleted;
  std::sort(checkpoints.begin(), checkpoints.end());
  const std::string current = read_current(models_dir);
  for (size_t i = 0; i + size_t(keep) < checkpoints.size(); ++i) {
    const std::string& path = checkpoints[i].second;
    if (path == current) continue;
    fs::remove(state_path(path), ec);
    if (fs::remove(path, ec)) deleted.push_back(path);
  }
  return deleted;
}

}  // namespace sz::rundir
