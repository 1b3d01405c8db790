#pragma once
// Running the project's Python (docs' examples, scripts/) from a test: an interpreter that has
// h5py and numpy (shell_helpers.h runs it).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace sz::test {

// A python interpreter that has h5py and numpy: $SZ_PYTHON, python3 on the PATH, or the
// system's (a pyenv or venv python3 often lacks the Debian python3-h5py package). Empty if none.
inline std::string find_python() {
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("SZ_PYTHON")) candidates.emplace_back(env);
  candidates.emplace_back("python3");
  candidates.emplace_back("/usr/bin/python3");
  for (const std::string& py : candidates) {
    const std::string probe = py + " -c 'import h5py, numpy' >/dev/null 2>&1";
    if (std::system(probe.c_str()) == 0) return py;
  }
  return {};
}

}  // namespace sz::test
