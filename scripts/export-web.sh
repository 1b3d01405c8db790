#!/usr/bin/env bash
# Writes the web client with a bundle into a folder that any static server can serve offline
# (docs/CLIENTS.md, "The web client"):
#
#   scripts/export-web.sh --out DIR --model CHECKPOINT [sittuyin-zero export's options ...]
#
# DIR gets the page (index.html, bench.html, style.css, js/, formations.txt), the runtime
# (runtime/: WebAssembly with and without SIMD, built by scripts/build-web.sh when missing or
# stale) and the bundle in DIR/bundle/ (`sittuyin-zero export --out DIR/bundle` with the other
# options: --profile, --levels, --tables, ...), with bundle/tables.txt listing the endgame tables
# the page loads. Serve it with any static server, e.g. `python3 -m http.server -d DIR`.
# $SZ_BINARY names sittuyin-zero (default build/sittuyin-zero).
set -euo pipefail
cd "$(dirname "$0")/.."
out="" args=()
while (($#)); do
  case $1 in
    --out) out=${2:?--out needs a folder}; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
[[ -n $out ]] || { echo "usage: scripts/export-web.sh --out DIR --model CHECKPOINT [export options ...]" >&2; exit 2; }
binary=${SZ_BINARY:-build/sittuyin-zero}
[[ -x $binary ]] || { echo "export-web: $binary is missing (build it: scripts/build.sh)" >&2; exit 1; }

scripts/build-web.sh
site=${WEB_BUILD_DIR:-build/web}/site
mkdir -p "$out"
rm -rf "$out/js" "$out/runtime" "$out/bundle"
cp -r "$site"/. "$out"/
"$binary" export --out "$out/bundle" "${args[@]}"
# The files of the bundle's endgame tables, for the page to fetch (model.json does not name them).
(cd "$out/bundle" && { echo "# endgame tables the page loads (scripts/export-web.sh)"; \
  find tables -type f 2>/dev/null | sort || true; } >tables.txt)
echo "export-web: the page is in $out (serve it: python3 -m http.server -d $out)" >&2
