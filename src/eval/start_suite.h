#pragma once
// Start positions for matches: an EPD or FEN file, one position per line (as cutechess-cli reads
// `-openings format=epd`). Blank lines and lines starting with '#' are skipped; EPD operations
// after the first ';' are ignored. See ../shared/testdata/README.md, "Start suites for matches".
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace sz::eval {

// The FENs of `path`, each checked under `profile`; an error names the file and line. At most
// `limit` positions when limit > 0 (the first ones).
Result<std::vector<std::string>> read_start_suite(const std::string& path, std::string_view profile, int limit = 0);

}  // namespace sz::eval
