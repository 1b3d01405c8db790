#!/usr/bin/env bash
# The test command (README): installs what is missing, builds, and runs every test with ctest.
# Extra arguments go to ctest, e.g. `scripts/test.sh -L unit` or `-R Perft`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --anchor  # Node.js: the tests play Fairy-Stockfish and run onnxruntime
scripts/build.sh
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j "$(nproc)" "$@"
