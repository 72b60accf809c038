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
