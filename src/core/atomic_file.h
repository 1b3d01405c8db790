#pragma once
// Small files written whole or not at all: a temporary name beside the target, fsync, rename,
// fsync of the directory. After a crash the path holds the old text or the new, never half. And
// records appended to logs a line at a time.
#include <string>
#include <string_view>

namespace sz {

// Throws sz::Error naming the file; the temporary is removed on failure.
void write_file_atomically(const std::string& path, std::string_view bytes);

// Appends `line` and a newline to a line-per-record file (JSON lines), created if missing, in
// one write. A file whose last line a killed writer left unfinished gets a newline first, so
// that the partial line stays a line of its own (which readers skip) instead of swallowing this
// record. Throws sz::Error naming the file (a full disk).
void append_line(const std::string& path, std::string_view line);

}  // namespace sz
