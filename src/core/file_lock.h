#pragma once
// An exclusive lock on a file (flock), released when the object dies or the process does (also
// on SIGKILL, so a killed holder never leaves a lock behind). The trainer holds one per run
// directory; each self-play worker holds one on its worker id, so two live processes never share
// an id, and a restarted worker gets its id back.
#include <memory>
#include <string>

namespace sz {

class FileLock {
 public:
  // Creates `path` if needed and locks it. Throws sz::Error naming the file when another holder
  // has it ("another <what> is working here") or it cannot be opened.
  FileLock(const std::string& path, const std::string& what);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

  // The lock on `path`, or null when another holder has it; throws sz::Error naming the file
  // when it cannot be opened.
  static std::unique_ptr<FileLock> try_lock(const std::string& path);

 private:
  explicit FileLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace sz
