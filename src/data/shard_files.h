#pragma once
// Shard file names in a games directory (runs/<run>/games/), and the atomic step that makes a
// finished shard visible. A shard is written as ".<prefix>-<seq>.h5.tmp" (hidden, and not *.h5,
// so no reader globs it), then fsynced and renamed to "<prefix>-<seq>.h5"; a reader therefore
// sees a complete file or none.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sz::data {

// "<prefix>-<seq>.h5" with the sequence zero-padded to 6 digits, so that names sort in the
// order a writer wrote them.
std::string shard_file_name(std::string_view prefix, int64_t sequence);
std::string temporary_file_name(std::string_view prefix, int64_t sequence);

// The sequence number if `file_name` is exactly shard_file_name(prefix, n) for some n (also with
// more than 6 digits), else -1. With `temporary`, matches temporary_file_name instead.
int64_t shard_sequence(std::string_view file_name, std::string_view prefix, bool temporary = false);

// The completed shards of `directory` (regular *.h5 files whose name does not start with '.'),
// as paths sorted by file name. Empty if the directory does not exist yet (self-play may not
// have finished a shard); throws sz::Error if it cannot be read.
std::vector<std::string> list_shards(const std::string& directory);

// Moves a damaged shard into `damaged/` in its directory (created if needed), where no reader
// looks, so that every process goes on without it; a name already there gets a numbered suffix.
// Returns the new path, or "" with `why_not` set when it could not be moved (e.g. another
// process moved it first, or the directory is read-only).
std::string move_to_damaged(const std::string& path, std::string* why_not = nullptr);

// Creates `path` (replacing any file there) holding `bytes`. Throws sz::Error naming the file and
// the system's reason (e.g. "No space left on device"); the file is then removed.
void write_new_file(const std::string& path, std::span<const char> bytes);

// Makes `temporary` durable and visible as `final_path` (same directory): fsync the file, rename
// it, fsync the directory. Refuses (sz::Error) to replace an existing file, which would mean two
// writers share a prefix.
void commit_file(const std::string& temporary, const std::string& final_path);

namespace testing {
// Tests only: the next `count` calls of write_new_file in this process fail after writing half
// their bytes, as on a full disk (errno ENOSPC). Thread-safe.
void fail_next_writes(int count);
}  // namespace testing

}  // namespace sz::data
