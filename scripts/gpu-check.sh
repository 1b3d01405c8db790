#!/usr/bin/env bash
# Builds and runs the network tests (models_test, net_config_test, nn_test, nn_gpu_test) and the
# network benchmark (nn_bench = `sittuyin-zero bench nn`) on a CUDA machine, against the LibTorch
# that comes with Python's torch. Exits non-zero when a step fails or when the GPU tests were
# skipped (no CUDA device visible to LibTorch).
#
#   scripts/gpu-check.sh [--quick]      --quick: fewer batch sizes and shorter benchmark cells
#
# Environment: BUILD_DIR (default build-gpu), JOBS (default nproc), LOG_DIR (default
# $BUILD_DIR/gpu-check; also copied to $OUT when that is set), SZ_WERROR (default OFF: a newer
# LibTorch may deprecate what 1.13 needs).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build-gpu}"
jobs="${JOBS:-$(nproc)}"
logs="${LOG_DIR:-$build/gpu-check}"
quick=0
[[ ${1:-} == --quick ]] && quick=1
mkdir -p "$logs"

step() { printf '\n== %s\n' "$*"; }
die() { printf 'gpu-check: %s\n' "$*" >&2; exit 1; }
publish() {
  if [[ -n ${OUT:-} && -d ${OUT:-} ]]; then cp -r "$logs" "$OUT/" 2>/dev/null || true; fi
}
trap publish EXIT

step "environment"
command -v python3 >/dev/null || die "python3 not found (LibTorch is taken from Python's torch)"
python3 - <<'PY' | tee "$logs/torch.txt" || die "Python's torch is not importable"
import torch
print("torch", torch.__version__, "cuda", torch.version.cuda, "cudnn", torch.backends.cudnn.version())
print("cuda available", torch.cuda.is_available(), "devices", torch.cuda.device_count())
for i in range(torch.cuda.device_count()):
    print("  cuda:%d" % i, torch.cuda.get_device_name(i))
print("cxx11 abi", int(torch._C._GLIBCXX_USE_CXX11_ABI))
PY
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee -a "$logs/torch.txt"
prefix="$(python3 -c 'import torch.utils; print(torch.utils.cmake_prefix_path)')"
# Our libraries pass std::string across yaml-cpp, GoogleTest and the system's libstdc++, which
# all use the C++11 ABI; a LibTorch built with the old ABI (pip wheels before torch 2.7) cannot
# link with them.
[[ $(python3 -c 'import torch; print(int(torch._C._GLIBCXX_USE_CXX11_ABI))') == 1 ]] ||
  die "this torch uses the pre-C++11 ABI (_GLIBCXX_USE_CXX11_ABI=0); install torch >= 2.7 or a cxx11-abi LibTorch"
for tool in cmake g++; do command -v "$tool" >/dev/null || die "$tool not found"; done
generator=(-G Ninja)
command -v ninja >/dev/null || generator=(-G "Unix Makefiles")

# LibTorch's CMake config looks for the CUDA toolkit: nvcc on PATH, in /usr/local/cuda, or the
# one pip installs with torch (nvidia-cuda-nvcc-cu*).
cuda_args=()
nvcc="$(command -v nvcc || true)"
[[ -z $nvcc && -x /usr/local/cuda/bin/nvcc ]] && nvcc=/usr/local/cuda/bin/nvcc
if [[ -z $nvcc ]]; then
  nvcc="$(python3 -c 'import nvidia.cuda_nvcc, os; print(os.path.join(list(nvidia.cuda_nvcc.__path__)[0], "bin", "nvcc"))' 2>/dev/null || true)"
  [[ -x $nvcc ]] || nvcc=""
fi
if [[ -n $nvcc ]]; then
  cuda_root="$(cd "$(dirname "$nvcc")/.." && pwd)"
  cuda_args=(-DCMAKE_CUDA_COMPILER="$nvcc" -DCUDAToolkit_ROOT="$cuda_root" -DCUDA_TOOLKIT_ROOT_DIR="$cuda_root")
  echo "nvcc: $nvcc"
else
  echo "gpu-check: warning: no nvcc found; LibTorch's CMake config may not find CUDA" >&2
fi

step "configure ($build, LibTorch from $prefix)"
# --no-as-needed: nothing of ours names a libtorch_cuda symbol, so an as-needed linker would
# drop that library and with it the CUDA backend (torch::cuda::is_available() would say false).
if ! cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_EXE_LINKER_FLAGS="-Wl,--no-as-needed" \
  -DSZ_WERROR="${SZ_WERROR:-OFF}" "${cuda_args[@]}" >"$logs/configure.txt" 2>&1; then
  grep -E -A3 "CMake Error|Could NOT find" "$logs/configure.txt" | head -30
  die "configure failed; see $logs/configure.txt (missing packages: scripts/install-deps.sh)"
fi
grep -E -i "torch|cuda" "$logs/configure.txt" | head -10 || true

step "build"
targets=(models_test net_config_test nn_test nn_gpu_test nn_bench)
if ! cmake --build "$build" --parallel "$jobs" --target "${targets[@]}" >"$logs/build.txt" 2>&1; then
  grep -E -B2 -A6 "error|FAILED" "$logs/build.txt" | head -60
  die "build failed; see $logs/build.txt"
fi
tail -2 "$logs/build.txt"

step "tests"
failed=0
for t in models/net_config_test models/models_test nn/nn_test nn/nn_gpu_test; do
  name="$(basename "$t")"
  if "$build/tests/$t" >"$logs/$name.txt" 2>&1; then
    echo "$name: $(grep -E '^\[  PASSED  \]' "$logs/$name.txt")"
  else
    echo "$name: FAILED (see $logs/$name.txt)"
    grep -E '^\[  FAILED  \]|Failure' "$logs/$name.txt" | head -20
    failed=1
  fi
done
if grep -q '^\[  SKIPPED \]' "$logs/nn_gpu_test.txt"; then
  echo "nn_gpu_test: SKIPPED: LibTorch sees no CUDA device"
  failed=1
fi
grep -E 'max \|cpu - cuda\|' "$logs/nn_gpu_test.txt" || true

step "benchmark"
bench=("$build/nn_bench" --device cuda --clients 8)
if ((quick)); then
  bench+=(--ms 400 --batches "1,16,64,256,1024")
else
  bench+=(--ms 1000 --repeat 2 --batches "1,2,4,8,16,32,64,128,256,512,1024")
fi
for config in "small float32" "large float32" "large float16"; do
  read -r net precision <<<"$config"
  echo "-- $net, $precision"
  "${bench[@]}" --net "$net" --precision "$precision" 2>&1 | tee "$logs/bench-$net-$precision.txt" || failed=1
done

((failed == 0)) || die "some checks failed; logs in $logs"
step "all checks passed; logs in $logs"
