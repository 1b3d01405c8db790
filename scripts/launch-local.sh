#!/usr/bin/env bash
# N self-play workers and one trainer on this host, on one run directory (docs/SCALING.md):
#
#   scripts/launch-local.sh RUN WORKERS [-- ARGS...]
#
# Starts `train --run RUN` and WORKERS times `selfplay --follow RUN --worker <host>-<i>`; ARGS go
# to every process (e.g. --config r1.yaml --set net=small). The trainer adopts each checkpoint it
# writes and the workers switch to it between games. With GPUs (nvidia-smi lists them), the
# trainer gets GPU 0 and worker i GPU i mod the number of GPUs, through CUDA_VISIBLE_DEVICES (set
# train.device and inference.device to cuda in the config). Logs go to RUN/logs/trainer.log and
# RUN/logs/worker-<i>.log. Ctrl-C or SIGTERM stops them all cleanly (the workers finish their
# games in flight, the trainer writes a checkpoint); the script returns when they have.
#
# Environment: SZ_BINARY (default: build/sittuyin-zero beside this script).
set -euo pipefail

usage() { echo "usage: $0 RUN WORKERS [-- ARGS...]" >&2; exit 2; }
(($# >= 2)) || usage
run=$1 workers=$2
shift 2
[[ $workers =~ ^[0-9]+$ ]] && ((workers >= 1)) || usage
if (($# > 0)); then [[ $1 == -- ]] || usage; shift; fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin=${SZ_BINARY:-$root/build/sittuyin-zero}
[[ -x $bin ]] || { echo "$0: no program at $bin (build it, or set SZ_BINARY)" >&2; exit 1; }

gpus=0
if command -v nvidia-smi >/dev/null 2>&1; then gpus=$(nvidia-smi --list-gpus 2>/dev/null | wc -l || echo 0); fi
host=$(hostname -s 2>/dev/null || hostname)
mkdir -p "$run/logs"

pids=()
stop() {
  trap - INT TERM
  echo "launch-local: stopping ${#pids[@]} processes" >&2
  kill -TERM "${pids[@]}" 2>/dev/null || true
}
trap stop INT TERM

on_gpu() {  # on_gpu INDEX CMD... &: CMD on GPU INDEX mod the GPUs, if any, as the background job itself
  local index=$1
  shift
  if ((gpus > 0)); then CUDA_VISIBLE_DEVICES=$((index % gpus)) exec "$@"; else exec "$@"; fi
}

on_gpu 0 "$bin" train --run "$run" "$@" >>"$run/logs/trainer.log" 2>&1 &
pids+=($!)
echo "launch-local: trainer pid $! (log $run/logs/trainer.log)" >&2
for ((i = 0; i < workers; ++i)); do
  on_gpu "$i" "$bin" selfplay --follow "$run" --worker "$host-$i" "$@" >>"$run/logs/worker-$i.log" 2>&1 &
  pids+=($!)
  echo "launch-local: worker $host-$i pid $! (log $run/logs/worker-$i.log)" >&2
done

# Until every process has ended; a failure of one (an error, not a clean stop) stops the others.
status=0
for pid in "${pids[@]}"; do
  while :; do
    rc=0
    wait "$pid" || rc=$?
    kill -0 "$pid" 2>/dev/null || break  # else the wait was cut short by a signal: wait again
  done
  if ((rc != 0 && rc != 130)); then
    echo "launch-local: process $pid failed (exit $rc); see $run/logs/" >&2
    status=1
    stop
  fi
done
exit $status
