#!/usr/bin/env python3
"""The time a move of UCI search settings, at the same positions (docs/BENCHMARKS.md).

Equal-time matches need the ratio of two searches' costs a move in real games, which the
self-play logs' positions a second do not give (batched evaluations, other positions, no tree
reuse). This plays games with the first setting against itself from a start suite and, at every
position, asks each setting for its move from a fresh tree (`ucinewgame`), one engine at a time.
It prints each setting's mean CPU seconds a move (the engine process's user + system time, from
/proc, so a busy machine changes the figures little) and its ratio to the first's.

    python3 scripts/play_speed.py --model M \\
        --setting ship:800 --setting cand:1600:"Leaf Quiescence=50,Full Plies=0" \\
        [--program build/sittuyin-zero] [--starts ../shared/testdata/suites/starts-partial.epd]
        [--games 3] [--plies 70]

A setting is NAME:VISITS[:OPTION=VALUE,...[:ARGS]], the options as `uci` names them, ARGS more
arguments of `uci` (`--setting torch:800::--runtime libtorch`).
"""
import argparse
import os
import sys

from uci_pipe import UciPipe

TICKS = os.sysconf("SC_CLK_TCK")


class Engine(UciPipe):
    def __init__(self, program, model, options, args):
        super().__init__([program, "uci", *args], "play_speed")
        self.send("uci")
        self.until("uciok")
        if model:
            self.send(f"setoption name Model value {model}")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.until("readyok")

    def cpu_seconds(self):
        with open(f"/proc/{self.p.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime (fields 14, 15 of stat)

    def move(self, position, visits):
        self.send("ucinewgame")
        self.send(position)
        self.send("isready")
        self.until("readyok")
        before = self.cpu_seconds()
        self.send(f"go nodes {visits}")
        best = self.until("bestmove")[-1].split()[1]
        return self.cpu_seconds() - before, best


def parse_setting(text):
    parts = text.split(":", 3)
    if len(parts) < 2 or not parts[1].isdigit() or int(parts[1]) < 1:
        sys.exit(f"play_speed: --setting '{text}': expected NAME:VISITS[:OPTION=VALUE,...[:ARGS]]")
    options = []
    for item in (parts[2].split(",") if len(parts) >= 3 and parts[2] else []):
        if "=" not in item:
            sys.exit(f"play_speed: --setting '{text}': option '{item}' is not OPTION=VALUE")
        name, value = item.split("=", 1)
        options.append((name.strip(), value.strip()))
    return parts[0], int(parts[1]), options, parts[3].split() if len(parts) == 4 else []


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", required=True)
    ap.add_argument("--program", default="build/sittuyin-zero")
    ap.add_argument("--starts", default="../shared/testdata/suites/starts-partial.epd")
    ap.add_argument("--setting", action="append", required=True, help="NAME:VISITS[:OPTION=VALUE,...[:ARGS]]")
    ap.add_argument("--games", type=int, default=3, help="games, one from each of the first starts")
    ap.add_argument("--plies", type=int, default=70, help="plies of each game")
    args = ap.parse_args()
    if not os.path.exists(f"/proc/{os.getpid()}/stat"):
        sys.exit("play_speed: needs /proc for the engines' CPU time (Linux)")
    settings = [parse_setting(s) for s in args.setting]
    try:
        with open(args.starts) as f:
            starts = [line.split(";")[0].strip() for line in f if line.strip() and not line.startswith("#")]
    except OSError as e:
        sys.exit(f"play_speed: {args.starts}: {e.strerror}")
    if len(starts) < args.games:
        sys.exit(f"play_speed: {args.starts} has {len(starts)} positions, --games asks for {args.games}")
    engines = [Engine(args.program, args.model, options, uci_args) for _, _, options, uci_args in settings]
    seconds = [0.0] * len(settings)
    positions = 0
    for game, fen in enumerate(starts[:args.games], 1):
        moves = []
        for _ in range(args.plies):
            position = f"position fen {fen}" + (" moves " + " ".join(moves) if moves else "")
            played = None
            for i, (engine, (_, visits, _, _)) in enumerate(zip(engines, settings)):
                cpu, best = engine.move(position, visits)
                seconds[i] += cpu
                played = played or best
            positions += 1
            if played in ("(none)", "0000"):
                break
            moves.append(played)
        print(f"game {game}/{args.games}: {len(moves)} plies", file=sys.stderr)
    for engine in engines:
        engine.close()
    print(f"{positions} positions, {args.games} games of {settings[0][0]}'s moves from {args.starts}")
    for (name, visits, options, uci_args), s in zip(settings, seconds):
        words = [f"{k} {v}" for k, v in options] + ([" ".join(uci_args)] if uci_args else [])
        described = ", ".join(words) or "defaults"
        print(f"{name:>12}  {visits:>6} visits  {1000 * s / positions:8.1f} ms CPU a move  "
              f"{s / seconds[0]:5.2f}x  ({described})")


if __name__ == "__main__":
    main()
