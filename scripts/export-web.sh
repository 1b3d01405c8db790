#!/usr/bin/env bash
# Writes the web client with a bundle into a folder that any static server can serve offline
# (docs/CLIENTS.md, "The web client"):
#
#   scripts/export-web.sh --out DIR [--bundle NAME] --model CHECKPOINT [sittuyin-zero export's options ...]
#
# DIR gets the page (index.html, bench.html, style.css, js/, formations.txt), the runtime
# (runtime/: WebAssembly with and without SIMD, built by scripts/build-web.sh when missing or
# stale) and the bundle in DIR/NAME/ (default bundle/: `sittuyin-zero export --out DIR/NAME` with
# the other options: --profile, --levels, --tables, ...), with NAME/tables.txt listing the endgame
# tables the page loads. Run again with another NAME (a Shatranj network, say) to add a bundle:
# DIR/bundles.txt lists them, and the page offers them as games. Serve DIR with any static
# server, e.g. `python3 -m http.server -d DIR`. $SZ_BINARY names sittuyin-zero (default
# build/sittuyin-zero).
set -euo pipefail
cd "$(dirname "$0")/.."
out="" name=bundle args=()
while (($#)); do
  case $1 in
    --out) out=${2:?--out needs a folder}; shift 2 ;;
    --bundle) name=${2:?--bundle needs a name}; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
[[ -n $out ]] || { echo "usage: scripts/export-web.sh --out DIR [--bundle NAME] --model CHECKPOINT [export options ...]" >&2; exit 2; }
[[ $name =~ ^[A-Za-z0-9_.-]+$ && $name != runtime && $name != js ]] || { echo "export-web: --bundle $name: not a folder name for a bundle" >&2; exit 2; }
binary=${SZ_BINARY:-build/sittuyin-zero}
[[ -x $binary ]] || { echo "export-web: $binary is missing (build it: scripts/build.sh)" >&2; exit 1; }

scripts/build-web.sh
site=${WEB_BUILD_DIR:-build/web}/site
mkdir -p "$out"
rm -rf "$out/js" "$out/runtime" "${out:?}/$name"
cp -r "$site"/. "$out"/
"$binary" export --out "$out/$name" "${args[@]}"
# The files of the bundle's endgame tables, for the page to fetch (model.json does not name them).
(cd "$out/$name" && { echo "# endgame tables the page loads (scripts/export-web.sh)"; \
  find tables -type f 2>/dev/null | sort || true; } >tables.txt)
# The folder's bundles (the first is the page's default), this one in the place of an earlier
# export of the same name, else last.
game=$(sed -n 's/^ *"game": "\([a-z]*\)",$/\1/p' "$out/$name/model.json" | head -1)
touch "$out/bundles.txt"
awk -v entry="$name/ $game" -v name="$name/" '$1 == name { print entry; found = 1; next } { print }
  END { if (!found) print entry }' "$out/bundles.txt" >"$out/bundles.txt.new"
mv "$out/bundles.txt.new" "$out/bundles.txt"
echo "export-web: bundle $name/ ($game) and the page are in $out (serve it: python3 -m http.server -d $out)" >&2
