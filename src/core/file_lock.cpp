#include "core/file_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/error.h"

namespace sz {

namespace {

// The open descriptor with the lock taken, or -1 when another holder has it.
int open_locked(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw Error(path + ": cannot open the lock file: " + std::strerror(errno));
  if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return fd;
  const int err = errno;
  ::close(fd);
  if (err == EWOULDBLOCK) return -1;
  throw Error(path + ": cannot lock: " + std::strerror(err));
}

}  // namespace

FileLock::FileLock(const std::string& path, const std::string& what) : fd_(open_locked(path)) {
  if (fd_ < 0) throw Error(path + ": another " + what + " is working here");
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);  // releases the lock
}

std::unique_ptr<FileLock> FileLock::try_lock(const std::string& path) {
  const int fd = open_locked(path);
  return fd < 0 ? nullptr : std::unique_ptr<FileLock>(new FileLock(fd));
}

}  // namespace sz
