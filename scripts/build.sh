#!/usr/bin/env bash
# Configures and builds the project into $BUILD_DIR (default: build), Release, warnings as
# errors when CI is set. Extra arguments go to cmake's configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}
werror=OFF
[[ -n ${CI:-} ]] && werror=ON
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSZ_WERROR="$werror" "$@" >/dev/null
cmake --build "$build_dir" -j "$(nproc)"
