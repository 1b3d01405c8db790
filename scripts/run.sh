#!/usr/bin/env bash
# The main job (README). The complete quickstart training run lands with the trainer issue;
# until then this installs what is missing, builds, and checks the rules core against every
# Fairy-Stockfish reference vector, which is the part of the system that exists today.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
for game in sittuyin shatranj; do
  ./build/sittuyin-zero perft --suite ../shared/testdata/perft-$game.txt
done
echo "run.sh: the self-play training loop is not built yet (see README, 'Status')." >&2
