#!/usr/bin/env bash
# Fingerprints of a tiny two-generation loop, to show that a change leaves behaviour alone:
# run it with the program before and after the change and compare the output.
#   scripts/fingerprint.sh BINARY DIR [--set key=value ...]
# One self-play thread (with two, which worker plays which game varies, and so does the order of
# the window's rows). Prints one line for the games (each game's seed, moves, result, policy
# targets and search values, ordered by seed) and one per checkpoint (its tensors' bytes, whatever
# their order inside the file). Needs python3-h5py (scripts/install-deps.sh).
set -euo pipefail
(($# >= 2)) || { echo "usage: $0 BINARY DIR [--set key=value ...]" >&2; exit 2; }
bin=$(realpath "$1"); dir=$2; shift 2
# A python3 with h5py: $SZ_PYTHON, the one on the PATH, or the system's (a pyenv or venv python3
# often lacks Debian's python3-h5py), as the tests choose theirs (tests/python_helpers.h).
python=""
for candidate in ${SZ_PYTHON:-} python3 /usr/bin/python3; do
  if "$candidate" -c 'import h5py' 2>/dev/null; then python=$candidate; break; fi
done
[[ -n $python ]] || { echo "fingerprint: no python3 with h5py (apt-get install python3-h5py)" >&2; exit 1; }
rm -rf "$dir"; mkdir -p "$dir"
(cd "$dir" && "$bin" loop --set name=fp --set loop.generations=2 --set loop.bootstrap_games=200 \
  --set loop.bootstrap_train_steps=40 --set loop.games_per_generation=20 --set loop.train_steps_per_generation=20 \
  --set loop.rate_games=0 --set loop.final_eval_games=0 --set loop.max_minutes=0 --set train.min_positions=100 \
  --set train.checkpoint_every=20 --set search.full_visits=16 --set search.cheap_visits=8 \
  --set selfplay.games_per_shard=50 --set selfplay.threads=1 "$@" > loop.log 2>&1) ||
  { echo "fingerprint: the loop failed; see $dir/loop.log" >&2; exit 1; }
"$python" - "$dir/runs/fp" <<'PY'
import glob, hashlib, os, sys, zipfile
import h5py
run = sys.argv[1]
games = {}
for path in sorted(glob.glob(run + "/games/*.h5")):
    with h5py.File(path, "r") as h:
        g, p, pol = h["games"], h["positions"], h["policy"]
        for k in range(len(g["seed"])):
            first, n = int(g["first_position"][k]), int(g["num_positions"][k])
            start, count = int(p["policy_start"][first]), int(p["policy_count"][first:first + n].sum())
            x = hashlib.md5(bytes(g["moves"][k]) + str(int(g["result"][k])).encode())
            x.update(p["search_wdl"][first:first + n].tobytes())
            x.update(pol["prob"][start:start + count].tobytes())
            games[int(g["seed"][k])] = x.hexdigest()
print("games", len(games), hashlib.md5("".join(f"{s}:{h}" for s, h in sorted(games.items())).encode()).hexdigest()[:12])
for path in sorted(glob.glob(run + "/models/*.pt")):
    z = zipfile.ZipFile(path)
    tensors = sorted(hashlib.md5(z.read(n)).hexdigest() for n in z.namelist() if "/data/" in n)
    print(os.path.basename(path), hashlib.md5("".join(tensors).encode()).hexdigest()[:12])
PY
