#!/usr/bin/env python3
"""Where a player's lost games turned, by Fairy-Stockfish's judgement (docs/BENCHMARKS.md, E17).

Reads the arena's PGN files, replays every game that NAME lost (SAN resolved against
Fairy-Stockfish's own legal moves: `go perft 1`), evaluates each position at a fixed depth and
prints, per lost game, its length and the first move of NAME's after which the evaluation from
NAME's side fell by at least DROP centipawns to -100 or below: the ply, the FEN before it, the move
played, the engine's choice and its refutation (the engine's best reply). The last line counts
them. Fairy-Stockfish comes from `sittuyin-zero arena`'s cache (it installs it once; any `fsf:`
player does) or FSF_DIR.

    python3 scripts/loss_drops.py NAME GAMES.pgn... [--depth 9] [--drop 150] [--variant sittuyin]
"""
import argparse
import os
import re
import sys

from uci_pipe import UciPipe


class Engine(UciPipe):
    def __init__(self, directory, variant):
        script = os.path.join(directory, "fsf-uci.js")
        if not os.path.exists(script):
            sys.exit(f"loss_drops: no Fairy-Stockfish in {directory} (run an arena match with an fsf player once)")
        super().__init__(["node", script], "loss_drops", cwd=directory)
        self.send("uci"); self.until("uciok")
        self.send(f"setoption name UCI_Variant value {variant}"); self.send("isready"); self.until("readyok")

    def position(self, fen, moves):
        """The FEN after `moves` and its legal moves (UCI)."""
        self.send("position fen " + fen + (" moves " + " ".join(moves) if moves else ""))
        self.send("d")
        after = self.until("Fen:")[-1].split(" ", 1)[1].strip()
        self.send("go perft 1")
        legal = [l.split(":")[0] for l in self.until("Nodes searched") if ":" in l and not l.startswith("Nodes")]
        return after, legal

    def evaluate(self, fen, depth):
        """(centipawns for the side to move, mates as +-10000; best move)."""
        self.send("position fen " + fen); self.send(f"go depth {depth}")
        score, best = 0, None
        for line in self.until("bestmove"):
            p = line.split()
            if "score" in p:
                i = p.index("score")
                score = int(p[i + 2]) if p[i + 1] == "cp" else (10000 if int(p[i + 2]) > 0 else -10000)
            if line.startswith("bestmove"):
                best = p[1]
        return score, best


def games(path):
    """(headers, SAN moves) of each game in an arena PGN file."""
    for block in re.split(r"\n(?=\[Event )", open(path).read()):
        headers = dict(re.findall(r'^\[(\w+) "(.*)"\]$', block, re.M))
        body = "\n".join(l for l in block.split("\n") if not l.startswith("["))
        tokens = [re.sub(r"^\d+\.+", "", t) for t in re.sub(r"\{[^}]*\}", "", body).split()]
        yield headers, [t for t in tokens if t and t not in ("1-0", "0-1", "1/2-1/2", "*")]


def engine_for(variant):
    """Fairy-Stockfish from FSF_DIR, else from `sittuyin-zero arena`'s cache."""
    return Engine(os.environ.get("FSF_DIR", os.path.expanduser("~/.cache/sittuyin-zero/fsf")), variant)


def played_white(headers, name):
    """True if NAME had White in this game, False if Black, None if it did not play."""
    if headers.get("White") == name:
        return True
    return False if headers.get("Black") == name else None


def replay(engine, start, sans, where):
    """The UCI moves of `sans` played from `start`, and the FEN before each move and after the last."""
    moves = []
    fen, legal = engine.position(start, [])
    fens = [fen]
    for san in sans:
        move = resolve(san, fen, legal)
        if move is None:
            sys.exit(f"{where}: cannot read move '{san}' in {fen}")
        moves.append(move)
        fen, legal = engine.position(start, moves)
        fens.append(fen)
    return moves, fens


def piece_on(fen, square):
    rank = fen.split()[0].split("[")[0].split("/")[8 - int(square[1])]
    f = 0
    for ch in rank:
        if ch.isdigit():
            f += int(ch)
        else:
            if "abcdefgh"[f] == square[0]:
                return ch.lower()
            f += 1
    return ""


def resolve(san, fen, legal):
    """The UCI move among `legal` that `san` names, or None."""
    s = san.rstrip("+#")
    if "@" in s:
        return s if s in legal else None
    promotion = ""
    if "=" in s:
        s, promotion = s.split("=")
        promotion = promotion.lower()
    piece = "p"
    if s[0] in "KRNSF":
        piece, s = s[0].lower(), s[1:]
    s = s.replace("x", "")
    dest = re.findall(r"[a-h][1-8]", s)[-1]
    hint = s[: s.rfind(dest)]
    found = [m for m in legal
             if re.fullmatch(r"[a-h][1-8][a-h][1-8][a-z]?", m) and m[2:4] == dest and m[4:] == promotion
             and piece_on(fen, m[:2]) == piece and hint in m[:2]]
    return found[0] if len(found) == 1 else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("name")
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--depth", type=int, default=9)
    ap.add_argument("--drop", type=int, default=150)
    ap.add_argument("--variant", default="sittuyin")
    args = ap.parse_args()
    engine = engine_for(args.variant)
    lost = turned = 0
    for path in args.pgn:
        for headers, sans in games(path):
            white = played_white(headers, args.name)
            if white is None or "FEN" not in headers or headers.get("Result") != ("0-1" if white else "1-0"):
                continue
            lost += 1
            moves, fens = replay(engine, headers["FEN"], sans, f"loss_drops: {path}")
            ours = [fen.split()[1] == ("w" if white else "b") for fen in fens]
            evals = [engine.evaluate(fen, args.depth) for fen in fens[:-1]]
            mine = [s if ours[i] else -s for i, (s, _) in enumerate(evals)]
            for i in range(len(moves) - 1):
                if ours[i] and mine[i] - mine[i + 1] >= args.drop and mine[i + 1] <= -100:
                    turned += 1
                    print(f"{len(moves)} plies ({headers.get('EndReason', '?')}): ply {i}, {mine[i]:+d} -> {mine[i + 1]:+d} cp "
                          f"after {moves[i]} (engine: {evals[i][1]}, refutation {evals[i + 1][1]}) in {fens[i]}", flush=True)
                    break
            else:
                print(f"{len(moves)} plies ({headers.get('EndReason', '?')}): no drop of {args.drop} cp", flush=True)
    print(f"# {args.name}: {lost} lost games, {turned} with a drop of {args.drop} cp or more at depth {args.depth}")


if __name__ == "__main__":
    main()
