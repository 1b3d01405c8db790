#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz) with clang, ASan and UBSan in build-fuzz, then runs each
# for N seconds (argument 1, default 60) on a scratch copy of its seed corpus: fen_fuzz and
# move_fuzz (the rules core's text), bundle_fuzz (a bundle's model.json and model.onnx), and the
# files a run reads back: ladder_fuzz (eval/networks.jsonl, eval/ladder.jsonl), run_state_fuzz
# (models/generation.txt, current.txt, adopted.txt, trainer state, checkpoint metadata) and
# metrics_fuzz (logs/train.jsonl, logs/heldout.jsonl, eval/elo.jsonl, as `plot` reads them) and
# levels_fuzz (eval/levels.yaml, as `export --levels` reads it).
# The run's readers are compiled into their targets without LibTorch, whose headers clang 14
# cannot compile (tests/fuzz/CMakeLists.txt says why). Exits non-zero if a target crashes; the crashing inputs are kept
# under build-fuzz/artifacts/<target>/ and can be replayed with `build-fuzz/tests/fuzz/<target> FILE`.
set -euo pipefail

seconds="${1:-60}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build-fuzz"
targets=(fen move bundle ladder run_state metrics levels)

generator=()
if [[ ! -f "$build/CMakeCache.txt" ]] && command -v ninja >/dev/null; then generator=(-G Ninja); fi
CC=clang CXX=clang++ cmake -S "$root" -B "$build" "${generator[@]}" \
  -DSZ_FUZZ=ON -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" --target "${targets[@]/%/_fuzz}"

status=0
for name in "${targets[@]}"; do
  target="${name}_fuzz"
  corpus="$build/fuzz-run/$name"
  artifacts="$build/artifacts/$target"
  rm -rf "$corpus"
  mkdir -p "$corpus" "$artifacts"
  cp "$root/tests/fuzz/corpus/$name/"* "$corpus/"
  echo "== $target: ${seconds}s"
  if ! "$build/tests/fuzz/$target" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
      -dict="$root/tests/fuzz/$name.dict" -artifact_prefix="$artifacts/" "$corpus"; then
    echo "fuzz.sh: $target failed; inputs in $artifacts/" >&2
    status=1
  fi
done
exit "$status"
