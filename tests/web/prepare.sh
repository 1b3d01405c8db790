#!/usr/bin/env bash
# The web tests' fixture (tests/web/CMakeLists.txt): the page with a test bundle, in WORK/site,
# and puppeteer-core in WORK/npm. Writes WORK/ready when all is there; otherwise WORK/not-ready
# says what is missing and it exits 77 (skipped), so that the tests skip too, naming it.
#
#   prepare.sh WORK SITTUYIN_ZERO HAVE_ONNX SHARED_DIR
set -euo pipefail
work=$1 binary=$2 have_onnx=$3 shared=$4
src=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$work"
rm -f "$work/ready" "$work/not-ready"
skip() {
  echo "$*" >"$work/not-ready"
  echo "SKIPPED: $*" >&2
  exit 77
}
command -v node >/dev/null && command -v npm >/dev/null || skip "Node.js and npm are missing (scripts/install-deps.sh --web)"
command -v chromium >/dev/null || skip "Chromium is missing (scripts/install-deps.sh --web: Debian's chromium)"
command -v emcmake >/dev/null || skip "Emscripten is missing (scripts/install-deps.sh --web: Debian's emscripten)"
[[ $have_onnx == ON ]] || skip "this build cannot export bundles (SZ_ONNX: Debian's libonnx-dev)"
model=$shared/models/reference-quickstart.pt
[[ -f $model ]] || skip "no network to export: $model is missing"

# puppeteer-core drives the system's Chromium (plain puppeteer would download a browser).
version=24.43.1
if ! grep -qs "\"version\": \"$version\"" "$work/npm/node_modules/puppeteer-core/package.json"; then
  echo "prepare: installing puppeteer-core@$version with npm into $work/npm (once)" >&2
  timeout 600 npm install --silent --no-audit --no-fund --prefix "$work/npm" "puppeteer-core@$version" \
    >"$work/npm.log" 2>&1 || skip "npm install puppeteer-core@$version failed (is the npm registry reachable?): $work/npm.log"
fi

# The tables of every profile's ending rules up to three men (about a second), and the page
# with the test bundles: in bundle/ the reference network under every Sittuyin profile, the
# levels of tests/web/levels.yaml (their Elo are test values, not measured) and the tables; in
# shatranj/ a tiny Shatranj network after one training step on four bootstrap games (a few
# seconds), without levels.
"$binary" tables build --men 3 --out "$work/tables" >"$work/tables.log" 2>&1
sed "s|CHECKPOINT|$model|" "$src/tests/web/levels.yaml" >"$work/levels.yaml"
export WEB_BUILD_DIR="$work/build" SZ_BINARY="$binary"
"$src/scripts/export-web.sh" --out "$work/site" --model "$model" \
  --profile sittuyin --profile sittuyin-plyyard --profile sittuyin-traditional --profile sittuyin-youzai \
  --profile sittuyin-chessplayx --levels "$work/levels.yaml" --tables "$work/tables"
shatranj=$work/shatranj-run
if [[ ! -f $shatranj/models/model-00000001.pt ]]; then
  rm -rf "$shatranj"
  set=(--set profile=shatranj --set net=tiny)
  "$binary" selfplay --games 4 --out "$shatranj/games" "${set[@]}" --set search.full_visits=2 \
    --set search.cheap_visits=2 --set selfplay.max_plies=40 --set selfplay.threads=1 >"$work/shatranj.log" 2>&1
  "$binary" train --run "$shatranj" --steps 1 "${set[@]}" --set train.min_positions=10 --set train.batch_size=16 \
    --set train.window_floor=10 --set train.recent_positions=10 >>"$work/shatranj.log" 2>&1
fi
"$src/scripts/export-web.sh" --out "$work/site" --bundle shatranj --model "$shatranj/models/model-00000001.pt" \
  --profile shatranj --tables "$work/tables"
touch "$work/ready"
