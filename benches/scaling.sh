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
