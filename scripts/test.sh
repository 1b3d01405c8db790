#!/usr/bin/env bash
# The test command (README): installs what is missing, builds, and runs every test with ctest.
# Extra arguments go to ctest, e.g. `scripts/test.sh -L unit` or `-R Perft`.
set -euo pipefail
cd "$(dirname "$0")/.."
# Node.js: the tests play Fairy-Stockfish and run onnxruntime; Emscripten and Chromium: the web
# client's tests (label web) build the page and play it in the browser.
scripts/install-deps.sh --anchor --web
scripts/build.sh
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j "$(nproc)" "$@"
