#!/usr/bin/env python3
"""Where each man stands after placement, on the real board, counted from a folder of shards.

Reproduces the `count` column of `sittuyin-zero placements`' heat_<white|black>_board.csv
(docs/PLACEMENT.md) with h5py and numpy alone: a game's placement is the leading drops "X@sq" of
its `moves` column, and since each side places in its own half, a drop on ranks 1-4 is White's
and one on ranks 5-8 Black's, under every rule profile.

    python3 scripts/placement_heat.py runs/<run>/games > heat.csv
"""
import glob
import os
import sys

import h5py
import numpy as np

MEN = "KFSNR"
COLOURS = ("white", "black")


def main(folder):
    paths = sorted(p for p in glob.glob(os.path.join(folder, "*.h5")) if not os.path.basename(p).startswith("."))
    if not paths:
        sys.exit(f"{folder}: no shards (*.h5) in it")
    counts = np.zeros((2, len(MEN), 64), dtype=np.int64)  # [colour, man, square a1 = 0]
    games = 0
    for path in paths:
        with h5py.File(path, "r") as f:
            if f.attrs["game"].decode() != "sittuyin":
                sys.exit(f"{path}: a shard of {f.attrs['game'].decode()} games; only Sittuyin has a placement")
            for moves in f["games"]["moves"].asstr()[:]:
                games += 1
                for move in moves.split():
                    if len(move) != 4 or move[1] != "@":
                        break  # the placement is over
                    square = (int(move[3]) - 1) * 8 + (ord(move[2]) - ord("a"))
                    counts[0 if move[3] <= "4" else 1, MEN.index(move[0]), square] += 1
    print("colour,man,square,count")
    for c, colour in enumerate(COLOURS):
        for m, man in enumerate(MEN):
            for square in np.flatnonzero(counts[c, m]):
                name = "abcdefgh"[square % 8] + str(square // 8 + 1)
                print(f"{colour},{man},{name},{counts[c, m, square]}")
    print(f"# {games} games, {counts.sum()} men", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
