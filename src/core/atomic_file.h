#pragma once
// Small files written whole or not at all: a temporary name beside the target, fsync, rename,
// fsync of the directory. After a crash the path holds the old text or the new, never half. And
// records appended to logs a line at a time.
#include <string>
#include <string_view>
#include <vector>

namespace sz {

// Throws sz::Error naming the file; the temporary is removed on failure.
void write_file_atomically(const std::string& path, std::string_view bytes);

// The temporaries of writers killed between their write and their rename, which no one else
// deletes: the files of `dir` named as write_file_atomically names them ("<name>.tmp<pid>")
// whose process is gone on this host. Deletes them and returns their paths. For the owner of the
// directory as it starts (a live writer's temporary, here or, by a pid that is free here, on
// another host sharing the directory, would be deleted under it).
std::vector<std::string> remove_stale_temporaries(const std::string& dir);

// Appends `line` and a newline to a line-per-record file (JSON lines), created if missing, in
// one write. A file whose last line a killed writer left unfinished gets a newline first, so
// that the partial line stays a line of its own (which readers skip) instead of swallowing this
// record. Throws sz::Error naming the file (a full disk).
void append_line(const std::string& path, std::string_view line);

}  // namespace sz
