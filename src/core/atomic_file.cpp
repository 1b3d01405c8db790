#include "core/atomic_file.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/error.h"
#include "core/parse_number.h"

namespace sz {

namespace {

std::string errno_text() { return std::strerror(errno); }

void fsync_directory(const std::string& path) {
  std::string dir = std::filesystem::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  if (const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); fd >= 0) {
    ::fsync(fd);  // makes the rename durable; best effort where directories cannot be synced
    ::close(fd);
  }
}

}  // namespace

void write_file_atomically(const std::string& path, std::string_view bytes) {
  const std::string tmp = path + ".tmp" + std::to_string(::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw Error("cannot create " + tmp + ": " + errno_text());
  for (size_t done = 0; done < bytes.size();) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const std::string why = errno_text();
      ::close(fd);
      ::unlink(tmp.c_str());
      throw Error("cannot write " + tmp + ": " + why);
    }
    done += size_t(n);
  }
  if (::fsync(fd) != 0) {
    const std::string why = errno_text();
    ::close(fd);
    ::unlink(tmp.c_str());
    throw Error("cannot fsync " + tmp + ": " + why);
  }
  ::close(fd);
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = errno_text();
    ::unlink(tmp.c_str());
    throw Error("cannot rename " + tmp + " to " + path + ": " + why);
  }
  fsync_directory(path);
}

std::vector<std::string> remove_stale_temporaries(const std::string& dir) {
  std::vector<std::string> removed;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    const size_t at = name.rfind(".tmp");
    int pid = 0;
    if (at == std::string::npos || !parse_number(std::string_view(name).substr(at + 4), pid) || pid <= 0) continue;
    if (::kill(pid, 0) == 0 || errno != ESRCH) continue;  // alive (or not ours to signal: alive)
    if (entry.is_regular_file(ec) && std::filesystem::remove(entry.path(), ec))
      removed.push_back(entry.path().string());
  }
  return removed;
}

void append_line(const std::string& path, std::string_view line) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw Error(path + ": cannot write: " + errno_text());
  std::string bytes;
  const off_t size = ::lseek(fd, 0, SEEK_END);
  if (size > 0) {
    char last = '\n';
    const int reader = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (reader >= 0) {
      if (::pread(reader, &last, 1, size - 1) != 1) last = '\n';
      ::close(reader);
    }
    if (last != '\n') bytes += '\n';  // a killed writer's unfinished line
  }
  bytes.append(line);
  bytes += '\n';
  const ssize_t written = ::write(fd, bytes.data(), bytes.size());
  const int saved = errno;
  ::close(fd);
  errno = saved;
  if (written != ssize_t(bytes.size()))
    throw Error(path + ": cannot write: " + (written < 0 ? errno_text() : "short write"));
}

}  // namespace sz
