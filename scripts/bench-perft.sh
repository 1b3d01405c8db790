#!/usr/bin/env bash
# Perft benchmark of the rules core against Fairy-Stockfish (FSF), as docs/BENCHMARKS.md records:
#   1. builds sittuyin-zero (Release) in $BUILD_DIR (default: build);
#   2. installs FSF's WebAssembly build with npm into a temporary folder (see
#      ../shared/tools/fsf-uci/README.md) and runs `sittuyin-zero bench perft --fsf ...`, which
#      times both engines alternately in one run and prints the ratio; without npm, node or the
#      package it says so and times ours alone;
#   3. counts instructions per perft leaf under valgrind --tool=callgrind on the four anchor
#      positions of ../shared/RULES.md section 8: (Ir(depth d) - Ir(depth 1)) / nodes(d), next to
#      FSF's figures quoted from RULES.md.
# usage: scripts/bench-perft.sh [--quick] [--repeat N] [--no-fsf] [--no-callgrind] [--no-build]
#   --quick, --repeat N are passed to `bench perft`; --no-build uses $BUILD_DIR/sittuyin-zero as is.
#   Environment: BUILD_DIR; FSF_UCI_JS, the fsf-uci.js adapter (default:
#   ../shared/tools/fsf-uci/fsf-uci.js beside this repository).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-build}
fsf_js=${FSF_UCI_JS:-$repo/../shared/tools/fsf-uci/fsf-uci.js}
fsf_package=fairy-stockfish-nnue.wasm@1.1.12
bench_args=()
with_fsf=1
with_callgrind=1
with_build=1
while (($#)); do
  case $1 in
    --quick) bench_args+=(--quick) ;;
    --repeat) bench_args+=(--repeat "${2:?--repeat needs a value}"); shift ;;
    --no-fsf) with_fsf=0 ;;
    --no-callgrind) with_callgrind=0 ;;
    --no-build) with_build=0 ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-perft.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

cd "$repo"
bin=$build_dir/sittuyin-zero

build() {
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  ninja -C "$build_dir" sittuyin-zero >/dev/null
}

print_machine() {
  echo "machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores"
  echo "date:    $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
  echo "compiler: $(c++ --version | head -1)"
}

# Prints the --fsf command line, or nothing (with the reason on stderr) when FSF is unavailable.
install_fsf() {
  local dir=$1
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "FSF skipped: node or npm not found" >&2; return
  fi
  if [[ ! -f $fsf_js ]]; then
    echo "FSF skipped: no $fsf_js (set FSF_UCI_JS)" >&2; return
  fi
  if ! npm install --silent --prefix "$dir" "$fsf_package" >&2; then
    echo "FSF skipped: npm install $fsf_package failed (offline?)" >&2; return
  fi
  echo "NODE_PATH=$dir/node_modules node $fsf_js"
}

run_speed() {
  local fsf_cmd=""
  if ((with_fsf)); then
    fsf_dir=$(mktemp -d)
    trap 'rm -rf "$fsf_dir"' EXIT
    fsf_cmd=$(install_fsf "$fsf_dir")
  fi
  if [[ -n $fsf_cmd ]]; then
    echo "FSF: $fsf_package under node $(node --version) (the wasm build runs at about half native speed, per its README)"
  fi
  echo "+ $bin bench perft ${bench_args[*]-} ${fsf_cmd:+--fsf \"$fsf_cmd\"}"
  if [[ -n $fsf_cmd ]]; then
    "$bin" bench perft ${bench_args[@]+"${bench_args[@]}"} --fsf "$fsf_cmd"
  else
    "$bin" bench perft ${bench_args[@]+"${bench_args[@]}"}
  fi
}

# Instructions (callgrind "Collected") of one untimed perft; sets ir and nodes.
callgrind_ir() {
  local position=$1 depth=$2 out
  out=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null \
          "$bin" bench perft --callgrind --position "$position" --depth "$depth" 2>&1)
  ir=$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' <<<"$out")
  nodes=$(sed -n 's/^nodes \([0-9]*\)$/\1/p' <<<"$out")
  if [[ -z $ir || -z $nodes ]]; then
    echo "callgrind run failed for $position depth $depth:" >&2; echo "$out" >&2; return 1
  fi
}

run_callgrind() {
  if ! command -v valgrind >/dev/null; then
    echo "callgrind skipped: valgrind not found"; return
  fi
  echo "instructions per perft leaf, (Ir(depth d) - Ir(depth 1)) / nodes(d); FSF column quoted from RULES.md section 8"
  echo
  echo "| position | depth | nodes | Ir(d) | Ir(1) | ours instr/leaf | FSF instr/leaf (RULES.md) | FSF/ours |"
  echo "|---|---|---|---|---|---|---|---|"
  local position depth fsf ir nodes ir_d nodes_d
  while read -r position depth fsf; do
    callgrind_ir "$position" "$depth"; ir_d=$ir; nodes_d=$nodes
    callgrind_ir "$position" 1
    awk -v p="$position" -v d="$depth" -v n="$nodes_d" -v a="$ir_d" -v b="$ir" -v f="$fsf" 'BEGIN {
      per = (a - b) / n
      printf "| %s | %d | %d | %.0f | %.0f | %.1f | %d | %.1fx |\n", p, d, n, a, b, per, f, f / per }'
  done <<'EOF'
sittuyin-start 3 805
middlegame-a 4 909
middlegame-b 4 799
shatranj-start 5 873
EOF
}

if ((with_build)); then build; fi
[[ -x $bin ]] || { echo "bench-perft.sh: no $bin (build it, or drop --no-build)" >&2; exit 1; }
print_machine
echo
run_speed
echo
if ((with_callgrind)); then run_callgrind; fi
