// libFuzzer target: the logs a run reads back to draw its plots (train/plots.h): logs/train.jsonl,
// logs/heldout.jsonl and eval/elo.jsonl, the input's three parts split at NUL bytes, written into
// a scratch run and plotted. gnuplot is replaced by a script that only creates the PNG it is asked
// for, so every chart's table is built and written. A bad line is skipped with a warning or fails
// with an sz::Error; nothing may crash or overflow.
#include <cstdint>
#include <filesystem>
#include <string>

#include "core/error.h"
#include "core/json.h"
#include "fuzz_files.h"
#include "rundir/run_plots.h"

namespace {

// A stand-in for gnuplot: creates the file of the script's `set output '...'` line (shell
// builtins alone: one process a chart).
constexpr const char* kFakeGnuplot = R"sh(#!/bin/sh
while IFS= read -r line; do
  case "$line" in
    "set output '"*) file=${line#"set output '"}; : >"${file%"'"}" ;;
  esac
done <"$1"
)sh";

const std::string& fake_gnuplot() {
  static const std::string path = [] {
    const std::string p = sz::fuzz::scratch_run() + "/fake-gnuplot";
    sz::fuzz::write_bytes(p, kFakeGnuplot);
    std::filesystem::permissions(p, std::filesystem::perms::owner_all);
    return p;
  }();
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto files = sz::fuzz::split_files(data, size, 3);
  const std::string& run = sz::fuzz::scratch_run();
  sz::fuzz::write_bytes(run + "/logs/train.jsonl", files[0]);
  sz::fuzz::write_bytes(run + "/logs/heldout.jsonl", files[1]);
  sz::fuzz::write_bytes(run + "/eval/elo.jsonl", files[2]);
  sz::rundir::PlotOptions options;
  options.gnuplot = fake_gnuplot();
  try {
    (void)sz::rundir::plot_run(run, options);
  } catch (const sz::Error& e) {
    sz::fuzz::expect_named(e.what(), run);
  }
  return 0;
}
