#pragma once
// A UCI engine (or any line-based program) in a child process, spoken to over pipes: the arena's
// external players and the perft benchmark's Fairy-Stockfish. POSIX only. Not thread-safe: one
// per game.
#include <sys/types.h>

#include <string>
#include <string_view>

namespace sz::eval {

class UciProcess {
 public:
  // Starts `command` with /bin/sh -c in a process group of its own. `name` prefixes errors.
  UciProcess(const std::string& command, std::string name);
  // Sends `quit`, waits up to 3 s, then kills the process group.
  ~UciProcess();
  UciProcess(const UciProcess&) = delete;
  UciProcess& operator=(const UciProcess&) = delete;

  void send(const std::string& line);
  // Reads lines until one starts with `prefix` and returns it; throws sz::Error on EOF or after
  // `timeout_s`.
  std::string wait_for(std::string_view prefix, double timeout_s);
  // The next line, or throws on EOF or timeout.
  std::string read_line(double timeout_s);
  const std::string& command() const { return command_; }

 private:
  bool take_buffered_line(std::string& line);
  void drain(int ms);

  std::string command_;
  std::string name_;
  pid_t pid_ = -1;
  int to_ = -1;    // the child's stdin
  int from_ = -1;  // the child's stdout
  std::string buffer_;
};

}  // namespace sz::eval
