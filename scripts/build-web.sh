#!/usr/bin/env bash
# Builds the web client's runtime (web/CMakeLists.txt: client/'s C API as WebAssembly) with
# Emscripten, with and without wasm SIMD, and assembles the page: web/'s files and the runtime in
# $WEB_BUILD_DIR/site (default build/web/site), ready for a bundle in site/bundle/
# (scripts/export-web.sh). Warnings are errors when CI is set. Exits 77 (the tests' "skipped")
# when Emscripten is missing: scripts/install-deps.sh --web installs it.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${WEB_BUILD_DIR:-build/web}
if ! command -v emcmake >/dev/null; then
  echo "build-web: Emscripten is missing (scripts/install-deps.sh --web, Debian's emscripten)" >&2
  exit 77
fi
# Debian's emscripten runs its JavaScript tools with Node.js and finds their packages (acorn) in
# /usr/share/nodejs, where a Node.js not from Debian does not look.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
werror=OFF
[[ -n ${CI:-} ]] && werror=ON
for simd in ON OFF; do
  dir="$out/wasm-simd-$simd"
  emcmake cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSZ_WASM_SIMD="$simd" -DSZ_WERROR="$werror" \
    -DEigen3_DIR=/usr/share/eigen3/cmake >/dev/null
  cmake --build "$dir" -j "$(nproc)"
done
site="$out/site"
mkdir -p "$site/runtime"
cp -r web/index.html web/bench.html web/style.css web/formations.txt web/js "$site/"
cp "$out"/wasm-simd-ON/sittuyin_client_simd.{js,wasm} "$out"/wasm-simd-OFF/sittuyin_client.{js,wasm} "$site/runtime/"
echo "build-web: the page is in $site (add a bundle: scripts/export-web.sh)" >&2
