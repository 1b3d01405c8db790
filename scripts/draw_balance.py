#!/usr/bin/env python3
"""Who was ahead when a player's drawn games ended (docs/BENCHMARKS.md, E19).

Reads the arena's PGN files, replays every game that NAME drew (SAN resolved against
Fairy-Stockfish's legal moves, as scripts/loss_drops.py does) and prints, per drawn game, its
length, how it ended and the material balance of the final position from NAME's side, in pawns
(the search's men values: rook 5, knight 3, khon and alfil 2.5, met 1.5, pawn 1). The last line
counts the draws that ended with NAME, or its opponent, LEAD pawns or more ahead: leads that the
side ahead did not convert before a move-count rule or a repetition ended the game.

    python3 scripts/draw_balance.py NAME GAMES.pgn... [--lead 4] [--variant sittuyin]
"""
import argparse

from loss_drops import engine_for, games, played_white, replay

VALUES = {"p": 1, "n": 3, "s": 2.5, "b": 2.5, "f": 1.5, "m": 1.5, "q": 1.5, "r": 5, "k": 0}


def balance(fen, white):
    """White's material less Black's (board and hands), from White's side if `white`."""
    total = 0.0
    for ch in fen.split()[0]:
        if ch.isalpha():
            total += VALUES[ch.lower()] if ch.isupper() else -VALUES[ch.lower()]
    return total if white else -total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("name")
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--lead", type=float, default=4.0)
    ap.add_argument("--variant", default="sittuyin")
    args = ap.parse_args()
    engine = engine_for(args.variant)
    drawn = ahead = behind = 0
    for path in args.pgn:
        for headers, sans in games(path):
            white = played_white(headers, args.name)
            if white is None or headers.get("Result") != "1/2-1/2" or "FEN" not in headers:
                continue
            drawn += 1
            moves, fens = replay(engine, headers["FEN"], sans, f"draw_balance: {path}")
            fen = fens[-1]
            final = balance(fen, white)
            ahead += final >= args.lead
            behind += final <= -args.lead
            print(f"{len(moves)} plies ({headers.get('EndReason', '?')}): {final:+.1f} for {args.name} in {fen}", flush=True)
    print(f"# {args.name}: {drawn} drawn games; it ended {args.lead:g} pawns or more ahead in {ahead}, "
          f"behind in {behind}")


if __name__ == "__main__":
    main()
