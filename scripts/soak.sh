#!/usr/bin/env bash
# The soak (docs/TRAINING.md, "The soak"): `sittuyin-zero loop` on a tiny config (three
# generations of a tiny network, about a minute undisturbed on 2 cores) is killed at random
# moments, by SIGKILL or SIGTERM, and started again with the same command, for N minutes; then the
# run goes to its end undisturbed. tests/run/soak_check checks each finished run against its
# config: every game once, every generation trained once, every match on record once, every
# checkpoint loads, no temporary file left. This script checks that the loop never crashed or
# hung and that no process it started (Fairy-Stockfish under node) outlived it. A run that ends
# while the kills go on is checked and the next one starts in a fresh directory.
#
# --disk: each run lives on a small tmpfs (in a user and mount namespace of its own, or mounted
# directly by root where those are refused) with a random 64 KB to 48 MB free; the loop must stop
# with an error naming the file when the disk fills, leave no temporary behind, and the same
# command must finish once space is freed, with the same checks. Where no tmpfs can be mounted it
# says so and exits 77 (skipped), never passes.
#
# usage: scripts/soak.sh [--minutes N] [--disk] [--seed S] [--max-delay SECONDS] [--anchor SPEC]
#                        [--work DIR] [--binary PATH] [--checker PATH] [-- LOOP ARGUMENTS...]
#   --minutes N      how long to kill and restart (default 30; --disk: rounds to start, at least one)
#   --seed S         the random kill times and signals (default: from the clock; printed)
#   --max-delay S    a kill comes 1 to S seconds after a start (default 30)
#   --anchor SPEC    loop.anchor (default fsf:nodes=1 where node is on the PATH, else material)
#   --work DIR       where the runs go (default $BUILD_DIR/soak; runs that failed a check stay)
# Exit status: 0 every check passed, 1 one failed, 77 skipped (--disk without a tmpfs).
set -euo pipefail
set +m  # no job control: a background loop is no group leader, so setsid keeps its pid

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-build}"
[[ $build == /* ]] || build="$root/$build"
minutes=30 disk=0 seed="" max_delay=30 anchor="" work="" binary="" checker="" extra=()
args=("$@")
while (($#)); do
  case "$1" in
    --minutes) minutes="$2"; shift 2 ;;
    --disk) disk=1; shift ;;
    --seed) seed="$2"; shift 2 ;;
    --max-delay) max_delay="$2"; shift 2 ;;
    --anchor) anchor="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --binary) binary="$2"; shift 2 ;;
    --checker) checker="$2"; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    *) echo "soak.sh: unknown argument '$1' (see the comment at the top of $0)" >&2; exit 2 ;;
  esac
done
binary="${binary:-$build/sittuyin-zero}"
checker="${checker:-$build/tests/run/soak_check}"
work="${work:-$build/soak}"
for program in "$binary" "$checker"; do
  [[ -x $program ]] || { echo "soak.sh: $program is missing: build first (scripts/build.sh)" >&2; exit 1; }
done
if [[ -z $anchor ]]; then
  if command -v node >/dev/null; then anchor="fsf:nodes=1"; else anchor="material"; fi
fi

# --disk needs a mount of its own: this script again inside a user and mount namespace, where
# the tmpfs lives and dies with it (the default), or root's plain mount.
mount_mode="${SZ_SOAK_MOUNT:-}"
if ((disk)) && [[ -z $mount_mode ]]; then
  if unshare -rm true 2>/dev/null; then
    SZ_SOAK_MOUNT=namespace exec unshare -rm "$0" "${args[@]}"
  elif ((EUID == 0)); then
    mount_mode=root
  else
    echo "soak.sh --disk: SKIPPED: cannot mount a tmpfs here (no user namespaces for unshare -rm, not root)"
    exit 77
  fi
fi

seed="${seed:-$(date +%s)}"
RANDOM=$seed
mkdir -p "$work"
work="$(cd "$work" && pwd)"
rm -rf "$work"/round-*
cd "$work"  # the loop's relative paths (runs/, tables) stay in here

tiny=(--set net=tiny --set loop.generations=3 --set loop.bootstrap_games=60 --set loop.bootstrap_train_steps=20
  --set loop.games_per_generation=20 --set loop.train_steps_per_generation=10 --set loop.rate_games=2
  --set loop.final_eval_games=2 --set train.min_positions=100 --set train.batch_size=32
  --set train.checkpoint_every=5 --set search.full_visits=8 --set search.cheap_visits=4
  --set selfplay.games_per_shard=10 --set selfplay.threads=1 --set selfplay.games_per_thread=4
  --set selfplay.max_plies=200 --set name=r
  # Beside issue 47's config: no endgame tables to build, no time limit, every network rated,
  # a metrics line every 5 steps (soak_check wants them all).
  --set tables.men=0 --set loop.max_minutes=0 --set loop.rate_every=1 --set train.log_every=5
  --set loop.anchor="$anchor")

declare -A total=()
kills=0 sigkills=0 sigterms=0 crashes=0 hangs=0 orphans=0 failed_runs=0 runs=0
now_ms() { echo $(($(date +%s%N) / 1000000)); }
started_ms=$(now_ms)
deadline_ms=$((started_ms + $(awk -v m="$minutes" 'BEGIN { printf "%d", m * 60000 }')))

alive() { [[ -e /proc/$1 ]] && ! grep -qs '^State:[[:space:]]*Z' "/proc/$1/status"; }

# Waits up to $2 milliseconds for process $1 to end; fails if it has not.
wait_gone() {
  local until=$(($(now_ms) + $2))
  while alive "$1"; do
    (($(now_ms) < until)) || return 1
    sleep 0.1
  done
}

# Starts the loop of run directory $run (seed $round_seed) in a session of its own, so that
# whatever it starts can be found afterwards by its session id; sets `pid` (the loop's) and
# `waiter` (a subshell that ends with the loop's status: bash's "Killed" lines for a job killed
# by a signal go to its stderr, /dev/null). Its output goes to $log, beside the run (not in it: a
# full disk must not swallow the error).
start_loop() {
  rm -f "$work/loop.pid"
  (
    setsid "$binary" loop "${tiny[@]}" --set dir="$run" --set seed="$round_seed" "${extra[@]}" >>"$log" 2>&1 &
    echo $! >"$work/loop.pid"
    wait $!
  ) 2>/dev/null &
  waiter=$!
  until [[ -s $work/loop.pid ]]; do sleep 0.01; done
  pid=$(<"$work/loop.pid")
}

# After the loop $1 ended: its session must empty within 10 s (node sees its stdin close; a
# zombie waiting for init to reap it is dead already). Survivors are orphans: counted, shown
# and killed.
check_orphans() {
  local until=$(($(now_ms) + 10000)) left
  while :; do
    left="$(ps -e -o pid=,sid=,stat=,args= | awk -v s="$1" '$2 == s && $1 != s && $3 !~ /^Z/')"
    [[ -z $left ]] && return 0
    (($(now_ms) < until)) || break
    sleep 0.2
  done
  echo "soak: ORPHANS of loop $1 still running 10 s after it ended:"
  echo "$left" | sed 's/^/  /'
  orphans=$((orphans + $(wc -l <<<"$left")))
  awk '{ print $1 }' <<<"$left" | xargs -r kill -KILL 2>/dev/null || true
}

show_log() { tail -n 15 "$log" | sed 's/^/  /'; }

# Waits up to $2 milliseconds for loop $1 (one still running then has hung: counted and killed),
# reaps it into `status` and looks for its orphans.
reap() {
  if ! wait_gone "$1" "$2"; then
    hangs=$((hangs + 1))
    echo "soak: the loop did not end within $(($2 / 1000)) s$([[ $sent == none ]] || echo " of SIG$sent"); killed"
    kill -KILL "$1" 2>/dev/null || true
  fi
  status=0
  wait "$waiter" || status=$?
  check_orphans "$1"
}

# Whether `status` is what `sent` (KILL, TERM or none) allows: the signal's own status, 130
# (stopped by SIGTERM) or 0 (done). Anything else is a crash or an error, counted and shown.
judge() {
  case "$sent:$status" in
    KILL:137 | TERM:130 | TERM:143 | *:0) return 0 ;;
  esac
  crashes=$((crashes + 1))
  echo "soak: the loop exited with status $status (sent: $sent); the end of $log:"
  show_log
  return 1
}

# Checks the finished run $run with soak_check and adds its figures to the totals; keeps a run
# that fails (its round directory), deletes the others.
check_run() {
  local out check=0 figures
  out="$("$checker" "$run" 2>&1)" || check=$?
  runs=$((runs + 1))
  grep -v '^figures:' <<<"$out" | sed 's/^/  /' || true
  figures="$(sed -n 's/^figures: //p' <<<"$out")"
  for pair in $figures; do total[${pair%%=*}]=$((${total[${pair%%=*}]:-0} + ${pair#*=})); done
  if ((check != 0)); then
    failed_runs=$((failed_runs + 1))
    echo "soak: $run FAILED its check (kept, its output in $log)"
    return
  fi
  echo "soak: $run checked: $figures"
  ((disk)) || rm -rf "$(dirname "$run")"
}

# Runs the loop of $run to its end, undisturbed (at most 20 minutes), and checks it.
finish_run() {
  sent=none
  start_loop
  reap "$pid" 1200000
  if judge; then check_run; fi
}

# One run under random kills until it ends on its own (then checked: returns 0) or the time is
# up (returns 1, the run left to finish).
kill_run() {
  local delay_ms
  while (($(now_ms) < deadline_ms)); do
    sent=none
    start_loop
    delay_ms=$((1000 + (RANDOM * 32768 + RANDOM) % (max_delay * 1000 - 999)))
    if wait_gone "$pid" "$delay_ms"; then
      reap "$pid" 0
      if judge; then check_run; fi
      return 0
    fi
    if ((RANDOM % 2)); then sent=KILL sigkills=$((sigkills + 1)); else sent=TERM sigterms=$((sigterms + 1)); fi
    kills=$((kills + 1))
    kill -"$sent" "$pid" 2>/dev/null || true
    reap "$pid" 120000
    judge || true
  done
  return 1
}

soak_kills() {
  echo "soak: $minutes min of kills, seed $seed, anchor $anchor, runs in $work"
  round=0
  while :; do
    round=$((round + 1)) round_seed=$round run="$work/round-$round/run" log="$work/round-$round/loop.log"
    mkdir -p "$work/round-$round"
    kill_run || break
  done
  echo "soak: kills over after $kills; $run goes to its end"
  finish_run
}

# --disk: one run on a tmpfs with `free_kb` KB left: it must fail naming the file and leave no
# temporary, then finish once the filler is gone.
disk_run() {
  local mnt="$work/round-$round/disk" free_kb error temporaries
  # Half the runs fill the disk within the first self-play (under 1 MB free), half later (a
  # checkpoint, a match, a log line); a run needs about 75 MB.
  if ((RANDOM % 2)); then free_kb=$((64 + RANDOM % 960)); else free_kb=$(((1 + RANDOM % 48) * 1024)); fi
  mkdir -p "$mnt"
  if ! mount -t tmpfs -o size=128m tmpfs "$mnt"; then
    echo "soak.sh --disk: SKIPPED: mounting a tmpfs on $mnt failed"
    exit 77
  fi
  mounted="$mnt"
  run="$mnt/run" log="$work/round-$round/loop.log"
  head -c $(((128 * 1024 - free_kb) * 1024)) /dev/zero >"$mnt/filler"
  echo "soak: round $round: $free_kb KB free on a 128 MB tmpfs"
  sent=none
  start_loop
  reap "$pid" 1200000
  error="$(grep 'sittuyin-zero loop: error: ' "$log" || true)"
  echo "  ${error:-(no error line)}"
  if ((status != 1)) || ! grep -q "No space left on device" <<<"$error" || ! grep -qF "$run/" <<<"$error"; then
    crashes=$((crashes + 1))
    echo "soak: expected exit 1 and one error naming a file of $run and 'No space left on device'; got status $status:"
    show_log
  fi
  temporaries="$(find "$run" -name '*.tmp*')"
  if [[ -n $temporaries ]]; then
    echo "soak: temporaries left by the full disk:"
    echo "$temporaries" | sed 's/^/  /'
    total[temporaries]=$((${total[temporaries]:-0} + $(wc -l <<<"$temporaries")))
  fi
  rm "$mnt/filler"
  echo "soak: space freed; the same command again"
  local failed=$failed_runs
  finish_run
  if ((failed_runs > failed)); then cp -r "$run" "$work/round-$round/"; fi  # the tmpfs goes
  umount "$mnt" && mounted=""
}

soak_disk() {
  echo "soak: full disks for $minutes min (at least one run), seed $seed, anchor $anchor, runs in $work"
  mounted=""
  trap '[[ -z $mounted ]] || umount "$mounted"' EXIT
  round=0
  while :; do
    round=$((round + 1)) round_seed=$round
    disk_run
    (($(now_ms) < deadline_ms)) || break
  done
}

if ((disk)); then soak_disk; else soak_kills; fi

elapsed="$(awk -v ms=$(($(now_ms) - started_ms)) 'BEGIN { printf "%.1f", ms / 60000 }')"
t() { echo "${total[$1]:-0}"; }
echo
echo "soak: $elapsed min, seed $seed, anchor $anchor; $kills kills ($sigkills SIGKILL, $sigterms SIGTERM);" \
  "$crashes crashes, $hangs hangs, $orphans orphaned processes"
echo "soak: $runs runs checked: $(t games) games ($(t lost) lost, $(t duplicated) duplicated," \
  "$(t damaged_shards) damaged shards), $(t generations) generations ($(t skipped) skipped, $(t repeated) repeated)," \
  "$(t matches) matches ($(t double_matches) double-counted, $(t missing_matches) missing," \
  "$(t unexpected_matches) unexpected), $(t checkpoints) checkpoints ($(t unloadable) unloadable)," \
  "$(t metric_steps_missing) metric lines missing, $(t temporaries) temporaries left"
if ((crashes + hangs + orphans + failed_runs + $(t temporaries) == 0 && runs > 0)); then
  echo "soak: passed"
  exit 0
fi
echo "soak: FAILED (runs that failed are in $work)"
exit 1
