#include "core/read_file.h"

#include <fstream>
#include <sstream>

#include "core/regular_file.h"

namespace sz {

Result<std::string> try_read_file(const std::string& path, std::string_view cannot_open) {
  if (const std::string why = regular_file_problem(path); !why.empty()) return fail(path + ": " + why);
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(path + ": " + std::string(cannot_open));
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) return fail(path + ": read error");
  return bytes.str();
}

std::string read_file(const std::string& path) { return try_read_file(path).take_or_throw(); }

}  // namespace sz
