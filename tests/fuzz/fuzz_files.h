#pragma once
// What the fuzz targets of the run's files share: an input split into the files it stands for,
// a scratch run directory, and the rule that a bad file fails with an error naming it.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace sz::fuzz {

// The input split at its NUL bytes into at most `count` parts (the last keeps any further NULs);
// missing parts are empty.
inline std::vector<std::string_view> split_files(const uint8_t* data, size_t size, size_t count) {
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  std::vector<std::string_view> parts;
  while (parts.size() + 1 < count) {
    const size_t nul = rest.find('\0');
    parts.push_back(rest.substr(0, nul));
    rest = nul == std::string_view::npos ? std::string_view() : rest.substr(nul + 1);
  }
  parts.push_back(rest);
  return parts;
}

// A run directory of this process's own, made once, with the sub-directories a run has; removed
// when the process exits. Under $TMPDIR, else /dev/shm where there is one: the run's writers fsync
// every file, which on a disk makes a target 40 times slower.
inline const std::string& scratch_run() {
  // Never destroyed: the exit handler that removes the directory runs after static destructors.
  static const std::string* const dir = [] {
    const char* tmp = std::getenv("TMPDIR");
    const std::string base = tmp && *tmp ? tmp : std::filesystem::is_directory("/dev/shm") ? "/dev/shm" : "/tmp";
    auto* d = new std::string(base + "/sz-fuzz-" + std::to_string(getpid()));
    for (const char* sub : {"models", "logs", "eval", "games", "plots"})
      std::filesystem::create_directories(*d + "/" + sub);
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(scratch_run(), ec);
    });
    return d;
  }();
  return *dir;
}

inline void write_bytes(const std::string& path, std::string_view bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), std::streamsize(bytes.size()));
}

// A reader's error must name the file it read (or the name it was given for it): anything else
// is a finding, so the target aborts and libFuzzer keeps the input.
inline void expect_named(std::string_view message, std::string_view file) {
  if (message.find(file) != std::string_view::npos) return;
  std::fprintf(stderr, "error without the file's name (%.*s): %.*s\n", int(file.size()), file.data(),
               int(message.size()), message.data());
  std::abort();
}

}  // namespace sz::fuzz
