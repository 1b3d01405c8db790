#pragma once
// Small files written whole or not at all: a temporary name beside the target, fsync, rename,
// fsync of the directory. After a crash the path holds the old text or the new, never half.
#include <string>
#include <string_view>

namespace sz {

// Throws sz::Error naming the file; the temporary is removed on failure.
void write_file_atomically(const std::string& path, std::string_view bytes);

}  // namespace sz
