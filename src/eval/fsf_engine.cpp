#include "eval/fsf_engine.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>

#include "core/atomic_file.h"
#include "core/read_file.h"

namespace sz::eval {

namespace fs = std::filesystem;

namespace {

// UCI on standard input/output around the wasm engine (as ../shared/tools/fsf-uci/fsf-uci.js).
constexpr const char* kWrapper =
    R"js(// Written by sittuyin-zero: Fairy-Stockfish (npm fairy-stockfish-nnue.wasm) as a UCI engine.
delete globalThis.fetch; // the emscripten loader would try fetch() on a file path and fail
const readline = require("readline");
const Stockfish = require("fairy-stockfish-nnue.wasm/stockfish.js");
(async () => {
  const engine = await Stockfish();
  engine.addMessageListener((line) => process.stdout.write(line + "\n"));
  const input = readline.createInterface({ input: process.stdin });
  for await (const command of input) {
    if (command.trim() === "quit") break;
    engine.postMessage(command);
  }
  engine.postMessage("quit");
  setTimeout(() => process.exit(0), 200);
})();
)js";

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

bool have(const char* program) {
  return std::system(("command -v " + std::string(program) + " >/dev/null 2>&1").c_str()) == 0;
}

// Holds an exclusive flock on `path` for its lifetime (other processes installing wait).
class InstallLock {
 public:
  explicit InstallLock(const std::string& path) : fd_(open(path.c_str(), O_CREAT | O_RDWR, 0644)) {
    if (fd_ >= 0) flock(fd_, LOCK_EX);
  }
  ~InstallLock() {
    if (fd_ >= 0) close(fd_);
  }
  InstallLock(const InstallLock&) = delete;
  InstallLock& operator=(const InstallLock&) = delete;

 private:
  int fd_;
};

std::string file_text(const std::string& path) {
  const Result<std::string> text = try_read_file(path);
  return text ? *text : "";
}

Result<bool> install(const std::string& dir) {
  const std::string package = dir + "/node_modules/fairy-stockfish-nnue.wasm/stockfish.js";
  if (fs::exists(package)) return true;
  if (!have("npm"))
    return fail("Fairy-Stockfish is not installed in " + dir + " and npm is missing (apt-get install npm)");
  std::fprintf(stderr, "fsf: installing %s with npm into %s (once)\n", kFsfPackage, dir.c_str());
  const std::string log = dir + "/npm.log";
  const std::string command = "timeout 600 npm install --silent --no-audit --no-fund --prefix " + quoted(dir) + " " +
                              kFsfPackage + " >" + quoted(log) + " 2>&1";
  if (std::system(command.c_str()) != 0 || !fs::exists(package))
    return fail(std::string("npm install ") + kFsfPackage + " failed (is the npm registry reachable?); see " + log);
  return true;
}

}  // namespace

std::string fsf_install_dir() {
  if (const char* dir = std::getenv("SZ_FSF_DIR"); dir && *dir) return dir;
  if (const char* cache = std::getenv("XDG_CACHE_HOME"); cache && *cache)
    return std::string(cache) + "/sittuyin-zero/fsf";
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : "/tmp") + "/.cache/sittuyin-zero/fsf";
}

Result<std::string> fsf_command() {
  static std::mutex mutex;  // threads of one process; the flock covers other processes
  std::lock_guard guard(mutex);
  if (!have("node")) return fail("Fairy-Stockfish needs Node.js: 'node' is not on the PATH (apt-get install nodejs)");
  const std::string dir = fsf_install_dir();
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return fail("cannot create the Fairy-Stockfish folder " + dir + ": " + ec.message());
  InstallLock lock(dir + "/.install.lock");
  auto installed = install(dir);
  if (!installed) return fail(installed.error());
  const std::string script = dir + "/fsf-uci.js";
  try {
    if (file_text(script) != kWrapper) write_file_atomically(script, kWrapper);
  } catch (const Error& e) {
    return fail(e.what());
  }
  return "NODE_PATH=" + quoted(dir + "/node_modules") + " node " + quoted(script);
}

}  // namespace sz::eval
