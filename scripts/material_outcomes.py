#!/usr/bin/env python3
"""What a material edge is worth in a run's own games: the results the value head trains on.

For every play-phase position from ply MIN_PLY on (default 60), the mover's material balance
read off its planes (P 1, N 3, khon or alfil 2.5, met or fers 1.5, R 5, as GameState::material
counts; rounded, clipped to +-6) against the game's result for the mover, in per cent of
positions, separately for the bootstrap's games and the networks' (games/model_id empty or
not). Positions, not games, since positions are what training samples (docs/BENCHMARKS.md,
"Why the value counts no men").

    python3 scripts/material_outcomes.py runs/<run>/games [MIN_PLY]
"""
import glob
import os
import sys

import h5py
import numpy as np

# Planes 0-5 the mover's P N E F R K, 6-11 the opponent's (docs/ENCODING.md).
VALUES = np.array([1, 3, 2.5, 1.5, 5, 0, -1, -3, -2.5, -1.5, -5, 0])
BYTE_BITS = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)


def popcount(words):
    counts = np.zeros(words.shape, dtype=np.int64)
    for k in range(8):
        counts += BYTE_BITS[((words >> np.uint64(8 * k)) & np.uint64(255)).astype(np.int64)]
    return counts


def main():
    if len(sys.argv) not in (2, 3) or not os.path.isdir(sys.argv[1]):
        sys.exit(__doc__)
    min_ply = int(sys.argv[2]) if len(sys.argv) == 3 else 60
    counts = {}  # (kind, edge) -> [wins, draws, losses]
    for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.h5"))):
        with h5py.File(path, "r") as shard:
            models = shard["games/model_id"][:]
            p = shard["positions"]
            phase = p["phase"][:]
            # Each position's kind, by the game it belongs to.
            kinds = np.empty(len(phase), dtype=object)
            first = shard["games/first_position"][:]
            for g, (start, n) in enumerate(zip(first, shard["games/num_positions"][:])):
                kinds[start:start + n] = "networks" if len(models[g]) else "bootstrap"
            keep = (phase == 1) & (p["ply"][:] >= min_ply)
            balance = (popcount(p["planes"][:]) * VALUES).sum(1)[keep]
            edges = np.clip(np.round(balance), -6, 6).astype(int)
            for kind, edge, result in zip(kinds[keep], edges, p["result"][:][keep]):
                counts.setdefault((kind, edge), [0, 0, 0])[1 - int(result)] += 1
    for kind in ("bootstrap", "networks"):
        if not any(k == kind for k, _ in counts):
            continue
        print(f"{kind}: the mover's edge in pawns, win / draw / loss in % of positions at ply >= {min_ply}")
        for edge in range(-6, 7):
            w, d, l = counts.get((kind, edge), [0, 0, 0])
            n = w + d + l
            if n:
                print(f"  {edge:+d}  positions {n:9d}  W {100 * w / n:5.1f}  D {100 * d / n:5.1f}  L {100 * l / n:5.1f}")


if __name__ == "__main__":
    main()
