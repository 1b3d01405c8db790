#include "data/shard_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "core/error.h"

namespace sz::data {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kShardSuffix = ".h5";
constexpr std::string_view kTemporarySuffix = ".h5.tmp";

std::string errno_text() { return std::strerror(errno); }

std::atomic<int> g_failing_writes{0};

void fsync_path(const std::string& path, int flags, const char* what) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) throw Error(path + ": cannot open " + what + " to sync it: " + errno_text());
  const int rc = ::fsync(fd);
  const std::string err = rc != 0 ? errno_text() : "";
  ::close(fd);
  if (rc != 0) throw Error(path + ": fsync failed: " + err);
}

}  // namespace

std::string shard_file_name(std::string_view prefix, int64_t sequence) {
  char seq[32];
  std::snprintf(seq, sizeof seq, "%06lld", static_cast<long long>(sequence));
  return std::string(prefix) + "-" + seq + std::string(kShardSuffix);
}

std::string temporary_file_name(std::string_view prefix, int64_t sequence) {
  char seq[32];
  std::snprintf(seq, sizeof seq, "%06lld", static_cast<long long>(sequence));
  return "." + std::string(prefix) + "-" + seq + std::string(kTemporarySuffix);
}

int64_t shard_sequence(std::string_view name, std::string_view prefix, bool temporary) {
  if (temporary) {
    if (!name.starts_with('.')) return -1;
    name.remove_prefix(1);
  }
  const std::string_view suffix = temporary ? kTemporarySuffix : kShardSuffix;
  if (!name.starts_with(prefix) || !name.ends_with(suffix)) return -1;
  name.remove_prefix(prefix.size());
  name.remove_suffix(suffix.size());
  if (!name.starts_with('-')) return -1;
  name.remove_prefix(1);
  if (name.empty() || name.size() > 18) return -1;
  int64_t seq = 0;
  for (char c : name) {
    if (c < '0' || c > '9') return -1;
    seq = seq * 10 + (c - '0');
  }
  return seq;
}

std::vector<std::string> list_shards(const std::string& directory) {
  std::error_code ec;
  if (!fs::exists(directory, ec)) return {};
  std::vector<std::string> shards;
  fs::directory_iterator it(directory, ec);
  if (ec) throw Error(directory + ": cannot list the shard directory: " + ec.message());
  for (const fs::directory_entry& entry : it) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with('.') || !name.ends_with(kShardSuffix)) continue;
    if (!entry.is_regular_file(ec)) continue;
    shards.push_back(entry.path().string());
  }
  std::sort(shards.begin(), shards.end());
  return shards;
}

namespace testing {
void fail_next_writes(int count) { g_failing_writes = count; }
}  // namespace testing

std::string move_to_damaged(const std::string& path, std::string* why_not) {
  const fs::path source(path);
  const fs::path dir = source.parent_path() / "damaged";
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    if (why_not) *why_not = "cannot create " + dir.string() + ": " + ec.message();
    return "";
  }
  for (int n = 0; n < 1000; ++n) {
    const std::string name = source.filename().string() + (n == 0 ? "" : "." + std::to_string(n));
    const std::string target = (dir / name).string();
    // link + unlink: never replaces a file already in damaged/ (rename would).
    if (::link(path.c_str(), target.c_str()) == 0) {
      ::unlink(path.c_str());
      return target;
    }
    if (errno == EEXIST) continue;
    if (errno != ENOENT && std::rename(path.c_str(), target.c_str()) == 0) return target;  // no hard links here
    if (why_not) *why_not = errno_text();
    return "";
  }
  if (why_not) *why_not = "too many damaged shards of that name in " + dir.string();
  return "";
}

void write_new_file(const std::string& path, std::span<const char> bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw Error(path + ": cannot create: " + errno_text());
  // A test may ask for a full disk: half the bytes, then ENOSPC.
  const bool fail = g_failing_writes.load() > 0 && g_failing_writes.fetch_sub(1) > 0;
  const size_t limit = fail ? bytes.size() / 2 : bytes.size();
  for (size_t done = 0; done < bytes.size();) {
    const ssize_t n = done < limit ? ::write(fd, bytes.data() + done, limit - done) : (errno = ENOSPC, -1);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const std::string why = errno_text();
      ::close(fd);
      ::unlink(path.c_str());
      throw Error(path + ": cannot write: " + why);
    }
    done += size_t(n);
  }
  if (::close(fd) != 0) {  // some file systems (NFS) report a full disk only here
    const std::string why = errno_text();
    ::unlink(path.c_str());
    throw Error(path + ": cannot write: " + why);
  }
}

void commit_file(const std::string& temporary, const std::string& final_path) {
  fsync_path(temporary, O_RDONLY, "file");
  std::error_code ec;
  if (fs::exists(final_path, ec)) {
    throw Error(final_path + ": already exists; do two shard writers share a file-name prefix?");
  }
  if (std::rename(temporary.c_str(), final_path.c_str()) != 0) {
    throw Error(temporary + ": cannot rename to " + final_path + ": " + errno_text());
  }
  // The rename is durable only once the directory entry is.
  const fs::path parent = fs::path(final_path).parent_path();
  fsync_path(parent.empty() ? "." : parent.string(), O_RDONLY | O_DIRECTORY, "directory");
}

}  // namespace sz::data
