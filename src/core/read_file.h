#pragma once
// The one whole-file reader: a file's bytes as a string (a config, a manifest, a bundle's JSON or
// weights, a run's small files). What is not a regular file is never opened: a FIFO would block
// until a writer came, and a directory has no bytes.
#include <string>
#include <string_view>

#include "core/error.h"

namespace sz {

// The whole of the file at `path`, or why not, naming the file: "<path>: is a directory, not a
// file" (core/regular_file.h), "<path>: <cannot_open>" when it does not open (missing, no
// permission), "<path>: read error".
Result<std::string> try_read_file(const std::string& path, std::string_view cannot_open = "cannot read");

// The same, throwing sz::Error with that message.
std::string read_file(const std::string& path);

}  // namespace sz
