#pragma once
// Fairy-Stockfish as a yardstick: the reference engine for Sittuyin and Shatranj, run as a UCI
// engine from its WebAssembly build on npm (fairy-stockfish-nnue.wasm) under Node.js, as
// ../shared/tools/fsf-uci does. The program carries the few lines of JavaScript that wrap the
// package; the package itself is installed once with npm into a cache folder:
//   $SZ_FSF_DIR, else $XDG_CACHE_HOME/sittuyin-zero/fsf, else $HOME/.cache/sittuyin-zero/fsf.
// Installation takes a lock, so concurrent games, processes and tests install it once.
#include <string>

#include "core/error.h"

namespace sz::eval {

inline constexpr const char* kFsfPackage = "fairy-stockfish-nnue.wasm@1.1.12";

// The folder Fairy-Stockfish is (or will be) installed in.
std::string fsf_install_dir();

// The shell command that runs Fairy-Stockfish as a UCI engine, installing the package into
// fsf_install_dir() first if it is missing (a line on stderr says so). Fails, naming what is
// missing, without node or npm, or when npm cannot install (the npm log's path is named).
Result<std::string> fsf_command();

}  // namespace sz::eval
