#pragma once
// Whether a path names a file that can be read to its end: opening a FIFO blocks until a writer
// comes (for ever, for a model path given by mistake), and a directory or device is no model.
// Checked with stat, which never blocks, before a file is opened.
#include <sys/stat.h>

#include <string>

namespace sz {

// "" for a regular file (or a symbolic link to one); else why not, e.g. "is a FIFO, not a file".
inline std::string regular_file_problem(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "";  // missing: the opener names that as it always did
  if (S_ISREG(st.st_mode)) return "";
  if (S_ISFIFO(st.st_mode)) return "is a FIFO, not a file";
  if (S_ISDIR(st.st_mode)) return "is a directory, not a file";
  return "is not a regular file";
}

}  // namespace sz
