#!/usr/bin/env bash
# The main job (README): installs what is missing, builds, and runs a short, complete training
# run with the built-in quickstart config: `sittuyin-zero loop` (self-play and training in
# runs/quickstart/, each network rated against the previous ones and Fairy-Stockfish, then the
# final model against the first network and against Fairy-Stockfish). Extra arguments go to
# `loop`, e.g. `scripts/run.sh --set loop.generations=2`. Ctrl-C stops it; run it again to go on.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --anchor
scripts/build.sh
exec ./build/sittuyin-zero loop "$@"
