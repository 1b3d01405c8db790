#include "eval/uci_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

#include "core/error.h"

namespace sz::eval {

UciProcess::UciProcess(const std::string& command, std::string name) : command_(command), name_(std::move(name)) {
  int in[2], out[2];
  // Close-on-exec: a second engine started meanwhile must not inherit this one's pipe ends, or
  // each would hold the other's stdin open and neither would see end of file when we die.
  if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0) throw Error(name_ + ": pipe: " + std::strerror(errno));
  const char* argv[] = {"/bin/sh", "-c", command.c_str(), nullptr};
  pid_ = fork();
  if (pid_ < 0) throw Error(name_ + ": fork: " + std::strerror(errno));
  if (pid_ == 0) {  // child: only async-signal-safe calls from here
    setpgid(0, 0);  // its own process group, so that the destructor can end /bin/sh's children
    dup2(in[0], STDIN_FILENO);
    dup2(out[1], STDOUT_FILENO);
    close(in[0]), close(in[1]), close(out[0]), close(out[1]);
    execv(argv[0], const_cast<char* const*>(argv));
    _exit(127);
  }
  close(in[0]), close(out[1]);
  to_ = in[1];
  from_ = out[0];
  signal(SIGPIPE, SIG_IGN);  // a dead engine must give a write error, not kill us
}

UciProcess::~UciProcess() {
  if (to_ >= 0) {
    const char quit[] = "quit\n";
    [[maybe_unused]] const ssize_t n = write(to_, quit, sizeof quit - 1);
    close(to_);
  }
  // An engine still busy in a long perft may not see `quit`: give it 3 s, then kill its group.
  // Its output is drained meanwhile: an engine that writes on its way out to a closed pipe dies
  // of EPIPE and says so on stderr (Node.js does).
  bool exited = pid_ <= 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  while (!exited && std::chrono::steady_clock::now() < deadline) {
    if (waitpid(pid_, nullptr, WNOHANG) == pid_)
      exited = true;
    else if (from_ >= 0)
      drain(10);
    else
      usleep(10'000);
  }
  if (from_ >= 0) close(from_);
  if (exited) return;
  kill(-pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
}

// Reads and drops whatever the child wrote, waiting up to `ms`; stops reading at end of file.
void UciProcess::drain(int ms) {
  pollfd p{from_, POLLIN, 0};
  if (poll(&p, 1, ms) <= 0) return;
  char chunk[4096];
  if (read(from_, chunk, sizeof chunk) <= 0) {
    close(from_);
    from_ = -1;
  }
}

void UciProcess::send(const std::string& line) {
  const std::string text = line + "\n";
  for (size_t done = 0; done < text.size();) {
    const ssize_t n = write(to_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw Error(name_ + ": `" + command_ + "` stopped reading (" + std::strerror(errno) + ")");
    done += size_t(n);
  }
}

bool UciProcess::take_buffered_line(std::string& line) {
  const size_t eol = buffer_.find('\n');
  if (eol == std::string::npos) return false;
  line = buffer_.substr(0, eol);
  buffer_.erase(0, eol + 1);
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return true;
}

std::string UciProcess::read_line(double timeout_s) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  std::string line;
  while (!take_buffered_line(line)) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd p{from_, POLLIN, 0};
    const int ready = left.count() > 0 ? poll(&p, 1, int(left.count())) : 0;
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0)
      throw Error(name_ + ": no answer from `" + command_ + "` within " + std::to_string(timeout_s) + " s");
    char chunk[4096];
    const ssize_t n = read(from_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw Error(name_ + ": `" + command_ + "` exited");
    buffer_.append(chunk, size_t(n));
  }
  return line;
}

std::string UciProcess::wait_for(std::string_view prefix, double timeout_s) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  for (;;) {
    const double left = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
    try {
      std::string line = read_line(std::max(left, 0.0));
      if (line.starts_with(prefix)) return line;
    } catch (const Error&) {
      throw Error(name_ + ": no '" + std::string(prefix) + "' from `" + command_ + "` within " +
                  std::to_string(timeout_s) + " s, or it exited");
    }
  }
}

}  // namespace sz::eval
