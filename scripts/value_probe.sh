#!/usr/bin/env bash
# What a network's value says of material (docs/BENCHMARKS.md, "value probes"): W/D/L per mille for
# the side to move at one node (`uci`, `go nodes 1`, the leaf search off so that the network alone
# answers) in a middle game with material level and the
# same with White a rook up, and W - L of the second minus the first (issue 43's target 2: +0.30).
# A line before it gives the same difference with each of six other men off the board (Black's
# other rook and its knights; White's rooks and a knight): one position alone can mislead (x3's
# value moves +0.20 with Black's rook off and -0.06 with White's; docs/BENCHMARKS.md, E31).
#   scripts/value_probe.sh MODEL [PROGRAM]     PROGRAM: default build/sittuyin-zero
set -euo pipefail
model=${1:?usage: scripts/value_probe.sh MODEL [PROGRAM]}
program=${2:-$(dirname "$0")/../build/sittuyin-zero}
level='rnsk1snr/4f3/4pppp/pppp4/4PPPP/PPPP4/4F3/RNSK1SNR[] w - - 0 20'
rook_up='1nsk1snr/4f3/4pppp/pppp4/4PPPP/PPPP4/4F3/RNSK1SNR[] w - - 0 20'
wdl() {  # prints "W D L" for FEN $1
  printf 'setoption name Model value %s\nsetoption name Leaf Quiescence value 0\nsetoption name Win Search value 0\nposition fen %s\ngo nodes 1\nquit\n' "$model" "$1" |
    "$program" uci 2>&1 | awk '/ wdl /{for (i = 1; i < NF; ++i) if ($i == "wdl") w = $(i+1) " " $(i+2) " " $(i+3)} END {
      if (w == "") exit 1; print w }' || { echo "value_probe: no wdl from $program uci with $model" >&2; exit 1; }
}
read -r w1 d1 l1 <<<"$(wdl "$level")"
read -r w2 d2 l2 <<<"$(wdl "$rook_up")"
echo "level:   W/D/L $w1/$d1/$l1 per mille"
echo "rook up: W/D/L $w2/$d2/$l2 per mille"
line="one man off, W - L minus level:"
for off in 'rnsk1sn1 RNSK1SNR r(h8)' 'r1sk1snr RNSK1SNR n(b8)' 'rnsk1s1r RNSK1SNR n(g8)' \
           'rnsk1snr 1NSK1SNR R(a1)' 'rnsk1snr RNSK1SN1 R(h1)' 'rnsk1snr R1SK1SNR N(b1)'; do
  read -r black white name <<<"$off"
  fen=${level/#rnsk1snr/$black}  # the level middle game with these back ranks
  read -r w d l <<<"$(wdl "${fen/RNSK1SNR/$white}")"
  line+=$(awk -v n="$name" -v x="$((w - l - w1 + l1))" 'BEGIN { printf " -%s %+.3f", n, x / 1000 }')
done
echo "$line"
awk -v a="$((w1 - l1))" -v b="$((w2 - l2))" 'BEGIN { printf "W - L, rook up minus level: %+.3f\n", (b - a) / 1000 }'
