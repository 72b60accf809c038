#!/usr/bin/env bash
# Throughput of `pdnkit check` (and of the reader alone) on a large file, against
# `grep -c '\[Event'` on the same file, in one run; and peak memory for two file
# sizes (memory must stay flat in the file size). `check` runs in three stages
# (reader, replay workers, output) on their own threads, so besides wall time the
# table gives CPU time (user+sys): the cost for one core, to compare with grep's.
#
# Usage: [RUNS=3] bash benches/throughput.sh [MB]   (default 200; needs ../shared)
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
# Each command runs RUNS times; the fastest run is kept, as "wall user+sys" seconds.
RUNS=${RUNS:-3}
# Wall time from `date` (nanoseconds: grep takes well under a second), CPU time from
# /usr/bin/time.
best() {
  local i s e t best=""
  for i in $(seq "$RUNS"); do
    s=$(date +%s.%N)
    /usr/bin/time -o "$TMP/time" -f '%U %S' "$@" > "$TMP/out" 2>/dev/null || true
    e=$(date +%s.%N)
    t="$(echo "$e - $s" | bc -l) $(tail -1 "$TMP/time")"
    if [ -z "$best" ] || [ "$(echo "${t%% *} < ${best%% *}" | bc -l)" = 1 ]; then best=$t; fi
  done
  echo "$best"
}

GAMES=$({ "$BIN" check --syntax-only --format json --no-progress "$TMP/big.pdn" || true; } | tail -1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["games"])')
T_GREP=$(best grep -c '\[Event' "$TMP/big.pdn")
T_READ=$(best "$BIN" check --syntax-only -j1 --no-progress "$TMP/big.pdn")
T_J1=$(best "$BIN" check -j1 --no-progress "$TMP/big.pdn")
T_JN=$(best "$BIN" check --no-progress "$TMP/big.pdn")

row() { # name "wall user sys"
  python3 - "$1" "$2" "$SIZE" "$GAMES" "$T_GREP" <<'PY'
import sys
name, t, size, games, tg = sys.argv[1], sys.argv[2].split(), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5].split()
wall, cpu = float(t[0]), float(t[1]) + float(t[2])
gwall = float(tg[0])
print(f"| {name} | {wall:.3f} s | {cpu:.2f} s | {size/1e6/wall:.1f} MB/s | {games/wall:,.0f} | 1/{wall/gwall:.0f} | 1/{cpu/gwall:.0f} |")
PY
}
echo "file: $((SIZE / 1000000)) MB, $GAMES games, $(nproc) cores; best of $RUNS runs"
echo
echo "| command | wall | CPU (user+sys) | MB/s (wall) | games/s (wall) | vs grep (wall) | vs grep (CPU) |"
echo "|---|---|---|---|---|---|---|"
row "grep -c '\\[Event'" "$T_GREP"
row "pdnkit check --syntax-only -j1 (reader)" "$T_READ"
row "pdnkit check -j1" "$T_J1"
row "pdnkit check (all cores)" "$T_JN"

# Peak memory for the file and for one twice its size.
cat "$TMP/big.pdn" "$TMP/big.pdn" > "$TMP/double.pdn"
rss() { { /usr/bin/time -f %M "$BIN" check --no-progress "$1" 2>&1 >/dev/null || true; } | tail -1; }
echo
echo "peak RSS: $((SIZE / 1000000)) MB file: $(rss "$TMP/big.pdn") KiB; $((2 * SIZE / 1000000)) MB file: $(rss "$TMP/double.pdn") KiB"
