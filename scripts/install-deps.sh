#!/usr/bin/env bash
# Installs the Debian packages the project needs, only those that are missing. Idempotent and
# quiet when everything is there. Run as root (or with sudo available).
# --anchor: also Node.js and npm, with which the loop installs and runs its Fairy-Stockfish
# anchor (loop.anchor, docs/EVALUATION.md) and the tests run Fairy-Stockfish and onnxruntime;
# the main job (scripts/run.sh) and the test command (scripts/test.sh) ask for them.
# --web: also what the web client needs (docs/CLIENTS.md): Emscripten, which builds the runtime
# as WebAssembly (scripts/build-web.sh), and Chromium, in which the web tests play the page
# (tests/web); the test command asks for them.
set -euo pipefail

packages=(
  cmake ninja-build g++ clang libclang-rt-14-dev  # build; clang for the fuzzers
  clang-format                                     # scripts/format.sh
  libyaml-cpp-dev libgtest-dev libbenchmark-dev    # configs, tests, benchmarks
  libtorch-dev libopenblas0-pthread                # the network (OpenBLAS: 3.5x faster CPU GEMM)
  libonnx-dev libprotobuf-dev                      # `export`: model.onnx, ONNX's checker
  libgloo-dev                                      # data-parallel training (c10d Gloo headers)
  libeigen3-dev libtbb-dev libhdf5-dev python3-h5py  # ratings, worker pool, game records
  python3-numpy                                    # the docs' Python (DATA.md, PLACEMENT.md)
  valgrind                                         # instruction-count benchmarks
  gnuplot-nox                                      # `plot` and `placements`: PNG plots
)

missing=() optional=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
for option in "$@"; do
  case $option in
    --anchor | --web)
      # By command, not package: a Node.js from elsewhere (nodesource, nvm) carries its own npm.
      command -v node >/dev/null || missing+=(nodejs)
      command -v npm >/dev/null || missing+=(npm)
      ;;&
    --web)  # optional: where they cannot be had, the web tests say so and are skipped
      command -v emcmake >/dev/null || optional+=(emscripten)
      command -v chromium >/dev/null || optional+=(chromium)
      ;;
    --anchor) ;;
    *) echo "install-deps: unknown option $option (--anchor, --web)" >&2; exit 2 ;;
  esac
done
((${#missing[@]} + ${#optional[@]} == 0)) && exit 0

echo "install-deps: installing ${missing[*]} ${optional[*]}" >&2
sudo=""
[[ $(id -u) -eq 0 ]] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
((${#missing[@]} == 0)) || $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
if ((${#optional[@]})) && ! $sudo apt-get install -y -qq --no-install-recommends "${optional[@]}" >/dev/null; then
  echo "install-deps: could not install ${optional[*]}: the web tests will be skipped" >&2
fi
