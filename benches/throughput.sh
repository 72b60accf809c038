#!/usr/bin/env bash
# Throughput of `pdnkit check` (and of the reader alone) on a large file, against
# `grep -c '\[Event'` on the same file, in one run; and peak memory for two file
# sizes (memory must stay flat in the file size). `check` runs in three stages
# (reader, replay workers, output) on their own threads, so besides wall time the
# table gives CPU time (user+sys): the cost for one core, to compare with grep's.
#
# Usage: [RUNS=5] bash benches/throughput.sh [MB]   (default 200; needs ../shared)
# The file is built in a temporary directory by concatenating the real corpus and
# the conformance games until it reaches MB megabytes; nothing is written to the repo.
set -euo pipefail
cd "$(dirname "$0")/.."
MB=${1:-200}
SHARED=../shared
[ -d "$SHARED/corpus/real" ] || { echo "SKIP: $SHARED is absent"; exit 0; }
cargo build --release --quiet
BIN=$PWD/target/release/pdnkit
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

build() { # $1 = MB, $2 = output
  local unit="$TMP/unit.pdn"
  find "$SHARED/corpus/real" "$SHARED/conformance/games" -name '*.pdn' -print0 | sort -z | xargs -0 cat > "$unit"
  : > "$2"
  while [ "$(stat -c %s "$2")" -lt $(( $1 * 1024 * 1024 )) ]; do cat "$unit" >> "$2"; done
}
build "$MB" "$TMP/big.pdn"
SIZE=$(stat -c %s "$TMP/big.pdn")
# Output goes to a file, not /dev/null: GNU grep stops at the first match when it sees /dev/null.
# This machine's speed drifts by up to 1.7x over minutes, so the commands run in RUNS
# rounds, one after the other in each round, and every figure is a median over the
# rounds; the ratio to grep is taken within each round. Wall time comes from `date`
# (grep takes well under a second), CPU time (user+sys) from /usr/bin/time.
RUNS=${RUNS:-5}
GAMES=$({ "$BIN" check --syntax-only --format json --no-progress "$TMP/big.pdn" || true; } | tail -1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["games"])')
: > "$TMP/times"
measure() { # name command...
  local name=$1 s e
  shift
  sync # the previous command's output is not written back during this one
  s=$(date +%s.%N)
  /usr/bin/time -o "$TMP/time" -f '%U %S' "$@" > "$TMP/out" 2>/dev/null || true
  e=$(date +%s.%N)
  echo "$name|$(echo "$e - $s" | bc -l)|$(tail -1 "$TMP/time")" >> "$TMP/times"
}
for round in $(seq "$RUNS"); do
  measure "grep -c '\\[Event'" grep -c '\[Event' "$TMP/big.pdn"
  # grep takes a tenth of a second: its fastest of three in a row stands for the round.
  for again in 1 2; do measure "again" grep -c '\[Event' "$TMP/big.pdn"; done
  measure "pdnkit check --syntax-only -j1 (reader)" "$BIN" check --syntax-only -j1 --no-progress "$TMP/big.pdn"
  measure "pdnkit check -j1" "$BIN" check -j1 --no-progress "$TMP/big.pdn"
  measure "pdnkit check (all cores)" "$BIN" check --no-progress "$TMP/big.pdn"
done
echo "file: $((SIZE / 1000000)) MB, $GAMES games, $(nproc) cores; medians of $RUNS rounds"
echo
python3 - "$TMP/times" "$SIZE" "$GAMES" "$RUNS" <<'PY'
import statistics as st, sys
path, size, games, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rows = [l.rstrip("\n").split("|") for l in open(path)]
# Fold each round's extra grep runs into its first: the fastest of the three.
folded = []
for r in rows:
    if r[0] != "again":
        folded.append(r)
    elif float(r[1]) < float(folded[-1][1]):
        folded[-1] = [folded[-1][0], r[1], r[2]]
rows = folded
names = list(dict.fromkeys(r[0] for r in rows))
def series(n):
    return [(float(r[1]), sum(map(float, r[2].split()))) for r in rows if r[0] == n]
grep = series(names[0])
print("| command | wall | CPU (user+sys) | MB/s (wall) | games/s (wall) | vs grep (wall) | vs grep (CPU) |")
print("|---|---|---|---|---|---|---|")
for n in names:
    s = series(n)
    wall, cpu = st.median(w for w, _ in s), st.median(c for _, c in s)
    rw = st.median(w / g[0] for (w, _), g in zip(s, grep))
    rc = st.median(c / g[0] for (_, c), g in zip(s, grep))
    print(f"| {n} | {wall:.3f} s | {cpu:.2f} s | {size/1e6/wall:.1f} MB/s | {games/wall:,.0f} | 1/{rw:.0f} | 1/{rc:.0f} |")
print()
print("per round, wall seconds: " + "; ".join(
    f"{i + 1}: " + " ".join(f"{series(n)[i][0]:.2f}" for n in names) for i in range(runs)))
PY

# Peak memory for the file and for one twice its size.
cat "$TMP/big.pdn" "$TMP/big.pdn" > "$TMP/double.pdn"
rss() { { /usr/bin/time -f %M "$BIN" check --no-progress "$1" 2>&1 >/dev/null || true; } | tail -1; }
echo
echo "peak RSS: $((SIZE / 1000000)) MB file: $(rss "$TMP/big.pdn") KiB; $((2 * SIZE / 1000000)) MB file: $(rss "$TMP/double.pdn") KiB"
