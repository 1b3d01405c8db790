#pragma once
// Running a command from a test: its exit status and its output (stdout and stderr together),
// reading a file whole, and editing a text. The one place tests spawn shells.
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace sz::test {

struct CommandRun {
  int status = -1;     // the exit status; -1 when the command was killed by a signal (a crash)
  std::string output;  // stdout and stderr together
};

// Runs `command` with /bin/sh, its stderr into its stdout.
inline CommandRun run_shell(const std::string& command) {
  CommandRun r;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return r;
  char buffer[4096];
  for (size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) r.output.append(buffer, n);
  const int raw = pclose(pipe);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return r;
}

// The bytes of the file at `path`; "" when it cannot be read.
inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// Replaces the first `from` in `text` by `to`; false, leaving it as it was, when there is none.
inline bool replace_first(std::string& text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  if (at == std::string::npos) return false;
  text.replace(at, from.size(), to);
  return true;
}

}  // namespace sz::test
