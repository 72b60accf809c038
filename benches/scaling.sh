#!/usr/bin/env bash
# Time against input size for hostile inputs (issue: linear time): each case
# is generated at N and 4N and `pdnkit check` is timed on both in the same
# run (best of 3); a ratio near 4 is linear, near 16 quadratic.
# Usage: bash benches/scaling.sh [N]   (default 50000)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
BIN=$PWD/target/release/pdnkit
N=${1:-50000}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
gen() { # gen CASE COUNT FILE
  python3 - "$1" "$2" "$3" <<'PY'
import sys
case, n, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(path, "w") as f:
    if case == "close-parens":
        f.write('[GameType "20"]\n1. 32-28 ' + ')\n' * n)
    elif case == "open-parens":
        f.write('(' * (n * 10))
    elif case == "variations":
        f.write('[GameType "20"]\n1. 32-28 ' + '(1. 11-12)\n' * n)
    elif case == "tags":
        f.write(''.join('[T%d "v"]\n' % i for i in range(n)) + '1. 32-28 *\n')
    elif case == "one-line-game":
        f.write('[GameType "20"]\n' + '1. 32-28 19-23 2. 28x19 14x23 ' * (n // 4) + '*\n')
    elif case == "ambiguous-then-long":
        # An ambiguous short capture, then a long legal game of king moves.
        f.write('[GameType "26"]\n[FEN "W:WK29,K4:BK1,K32"]\n')
        moves = ["29-25", "1-5", "25-29", "5-1"] * (n // 4)
        f.write(' '.join(moves) + ' *\n')
PY
}
best() { # best FILE -> seconds
  local b=999
  for _ in 1 2 3; do
    s=$(date +%s.%N); "$BIN" check --no-progress "$1" > /dev/null 2>&1 || true; e=$(date +%s.%N)
    b=$(echo "t=$e - $s; if (t < $b) t else $b" | bc -l)
  done
  echo "$b"
}
printf '%-22s %10s %10s %7s\n' case "N" "4N" ratio
for c in close-parens open-parens variations tags one-line-game ambiguous-then-long; do
  gen "$c" "$N" "$TMP/a.pdn"; gen "$c" "$((4 * N))" "$TMP/b.pdn"
  a=$(best "$TMP/a.pdn"); b=$(best "$TMP/b.pdn")
  printf '%-22s %9.3fs %9.3fs %7.1f\n' "$c" "$a" "$b" "$(echo "$b / $a" | bc -l)"
done

# Peak memory (maximum resident set, /usr/bin/time) of the two outputs whose
# memory once grew with the input: `convert --moves` of one long game, and a
# report of very many games (refused past 100,000 games). docs/limits.md
# states the figures.
peak() { # peak COMMAND... -> "KB status"
  /usr/bin/time -f '%M' -o "$TMP/peak" "$@" > /dev/null 2>&1 && s=0 || s=$?
  echo "$(tail -1 "$TMP/peak") $s"
}
python3 - "$TMP/long.pdn" "$TMP/many.pdn" <<'PY'
import sys
seq = ["50-45", "1-6", "45-50", "6-1"]
with open(sys.argv[1], "w") as f:
    f.write('[GameType "20"]\n[FEN "W:WK50:BK1"]\n')
    f.write(" ".join(seq[i % 4] for i in range(2_500_000)) + " *\n")
with open(sys.argv[2], "w") as f:
    f.write('[GameType "20"]\n1. 32-28 *\n\n' * 1_000_000)
PY
printf '\n%-48s %12s %12s %7s\n' "memory" "input MB" "peak MB" status
for to in csv jsonl; do
  read -r kb st < <(peak "$BIN" convert --to "$to" --moves --no-progress "$TMP/long.pdn" -o "$TMP/out")
  printf '%-48s %12.1f %12.1f %7s\n' "convert --to $to --moves (one 2.5M-ply game)" \
    "$(echo "$(stat -c %s "$TMP/long.pdn") / 1048576" | bc -l)" "$(echo "$kb / 1024" | bc -l)" "$st"
done
read -r kb st < <(peak "$BIN" report --no-progress "$TMP/many.pdn" -o "$TMP/r.html")
printf '%-48s %12.1f %12.1f %7s\n' "report (1,000,000 one-move games: refused)" \
  "$(echo "$(stat -c %s "$TMP/many.pdn") / 1048576" | bc -l)" "$(echo "$kb / 1024" | bc -l)" "$st"

# `dupes` and `select --unique=prefixes` on a chain of fragments of one line of
# play (game k is the first k plies of the next): every game starts all the
# longer ones, N²/2 pairs. Each game is reported once, with its longest
# container: time and memory follow the input (M games, then 2M: 4x the bytes).
chain() { # chain GAMES FILE
  python3 - "$1" "$2" <<'PY'
import sys
n, path = int(sys.argv[1]), sys.argv[2]
line = ["46-41", "1-6", "41-46", "6-1"] * (n // 4 + 1)
with open(path, "w") as f:
    for k in range(2, n + 2):
        f.write('[GameType "20"]\n[FEN "W:WK46:BK1"]\n' + " ".join(line[:k]) + " *\n\n")
PY
}
M=${CHAIN:-1000}
chain "$M" "$TMP/chain-a.pdn"; chain "$((2 * M))" "$TMP/chain-b.pdn"
printf '%-34s %12s %12s %7s\n' "chain of fragments" "$M games" "$((2 * M)) games" ratio
for cmd in "dupes" "select --unique=prefixes"; do
  ta=$(date +%s.%N); pa=$(peak "$BIN" $cmd --no-progress "$TMP/chain-a.pdn"); tb=$(date +%s.%N)
  pb=$(peak "$BIN" $cmd --no-progress "$TMP/chain-b.pdn"); tc=$(date +%s.%N)
  printf '%-34s %10.3fs %10.3fs %7.1f\n' "$cmd (time)" "$(echo "$tb - $ta" | bc -l)" "$(echo "$tc - $tb" | bc -l)" "$(echo "($tc - $tb) / ($tb - $ta)" | bc -l)"
  printf '%-34s %9s KB %9s KB %7.1f\n' "$cmd (peak memory)" "${pa%% *}" "${pb%% *}" "$(echo "${pb%% *} / ${pa%% *}" | bc -l)"
done
ls -l "$TMP/chain-a.pdn" "$TMP/chain-b.pdn" | awk '{print $5, $9}'

# Whole-archive commands at two sizes of one archive (issue 51): the real corpus
# copied 8 and 32 times into folders (the same events, players and games
# repeated, as merged databases are), and one event of N players (12,000 and
# 48,000 games, a quarter as many players). Wall time and peak memory of each
# command; per added game = (peak x32 - peak x8) / (games x32 - games x8).
# SCALE_10M=1 also writes a synthetic archive of 10,000,000 games (about 3.5 GB
# in $TMP: set TMPDIR to a disk with room) and runs the commands on it.
if [ -d ../shared/corpus/real ]; then
  for n in 8 32; do
    mkdir -p "$TMP/x$n"
    for i in $(seq 1 "$n"); do cp -r ../shared/corpus/real "$TMP/x$n/c$i"; done
  done
  # check exits 1 on the corpus's own faults: its summary is what is read.
  g8=$({ "$BIN" check --no-progress --format json "$TMP/x8" 2>/dev/null || true; } | tail -1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["games"])')
  g32=$((g8 * 4))
  printf '\n%-22s %9s %9s %7s %10s %10s %12s\n' "corpus x8 / x32" "x8 s" "x32 s" ratio "x8 MB" "x32 MB" "B/added game"
  for cmd in "check" "convert --to csv" "dupes" "select --unique" "stats" "stats --by player" "stats --by event" "stats --by year" "tournament"; do
    ta=$(date +%s.%N); read -r ka _ < <(peak "$BIN" $cmd --no-progress "$TMP/x8"); tb=$(date +%s.%N)
    read -r kb _ < <(peak "$BIN" $cmd --no-progress "$TMP/x32"); tc=$(date +%s.%N)
    printf '%-22s %9.2f %9.2f %7.2f %10.1f %10.1f %12.0f\n' "$cmd" "$(echo "$tb - $ta" | bc -l)" "$(echo "$tc - $tb" | bc -l)" \
      "$(echo "($tc - $tb) / ($tb - $ta)" | bc -l)" "$(echo "$ka / 1024" | bc -l)" "$(echo "$kb / 1024" | bc -l)" \
      "$(echo "($kb - $ka) * 1024 / ($g32 - $g8)" | bc -l)"
  done
else
  echo "SKIP: ../shared is absent (the whole-archive commands run on the real corpus)"
fi
python3 - "$TMP" <<'PY'
import random, sys
for n, players in ((12000, 3000), (48000, 12000)):
    rng = random.Random(1)
    names = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(10)).capitalize()
             for _ in range(players)]
    with open(f"{sys.argv[1]}/one{n}.pdn", "w") as f:
        for i in range(n):
            a = rng.randrange(players); b = rng.randrange(players - 1)
            b += b >= a
            r = rng.choice(["2-0", "1-1", "0-2"])
            f.write(f'[Event "Open"]\n[Round "{i % 9 + 1}"]\n[White "{names[a]}"]\n[Black "{names[b]}"]\n'
                    f'[Result "{r}"]\n[GameType "20"]\n1. 32-28 19-23 {r}\n\n')
PY
printf '\n%-40s %9s %9s\n' "tournament, one event" "s" "MB"
for n in 12000 48000; do
  s=$(date +%s.%N); read -r k _ < <(peak "$BIN" tournament --no-progress "$TMP/one$n.pdn"); e=$(date +%s.%N)
  printf '%-40s %9.2f %9.1f\n' "$n games, $((n / 4)) players" "$(echo "$e - $s" | bc -l)" "$(echo "$k / 1024" | bc -l)"
done
# Line ends: 1,000,000 short games with LF, a lone CR and LF-CR.
python3 - "$TMP" <<'PY'
import sys
g = '[GameType "20"]\n[Event "e"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n' * 1_000_000
for name, eol in (("lf", "\n"), ("cr", "\r"), ("lfcr", "\n\r")):
    open(f"{sys.argv[1]}/{name}.pdn", "w", newline="").write(g.replace("\n", eol))
PY
printf '\n%-40s %9s\n' "check, 1,000,000 games, line ends" "peak MB"
for e in lf cr lfcr; do
  read -r k _ < <(peak "$BIN" check --no-progress "$TMP/$e.pdn")
  printf '%-40s %9.1f\n' "$e" "$(echo "$k / 1024" | bc -l)"
done
if [ "${SCALE_10M:-0}" = 1 ] && [ -d ../shared/corpus/real ]; then
  # The real corpus copied 1,030 times: about 10,000,000 games, 3.7 GB.
  mkdir -p "$TMP/x1030"
  for i in $(seq 1 1030); do cp -r ../shared/corpus/real "$TMP/x1030/c$i"; done
  printf '\n%-22s %9s %10s\n' "10,000,000 games" "s" "peak MB"
  for cmd in "check" "dupes" "select --unique" "stats --by player" "tournament"; do
    s=$(date +%s.%N); read -r k st < <(peak "$BIN" $cmd --no-progress "$TMP/x1030"); e=$(date +%s.%N)
    printf '%-22s %9.1f %10.1f (exit %s)\n' "$cmd" "$(echo "$e - $s" | bc -l)" "$(echo "$k / 1024" | bc -l)" "$st"
  done
fi
