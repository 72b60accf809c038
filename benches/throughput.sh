#!/usr/bin/env bash
# Throughput of `pdnkit check` (and of the reader alone) on a large file, against
# `grep -c '\[Event'` on the same file, in one run; and peak memory for two file
# sizes (memory must stay flat in the file size).
#
# Usage: bash benches/throughput.sh [MB]   (default 200; needs ../shared)
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
secs() { local s e; s=$(date +%s.%N); "$@" > "$TMP/out" 2>&1 || true; e=$(date +%s.%N); echo "$e - $s" | bc -l; }

GAMES=$({ "$BIN" check --syntax-only --format json --no-progress "$TMP/big.pdn" || true; } | tail -1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["games"])')
T_GREP=$(secs grep -c '\[Event' "$TMP/big.pdn")
T_READ=$(secs "$BIN" check --syntax-only -j1 --no-progress "$TMP/big.pdn")
T_J1=$(secs "$BIN" check -j1 --no-progress "$TMP/big.pdn")
T_JN=$(secs "$BIN" check --no-progress "$TMP/big.pdn")

row() { # name seconds
  python3 - "$1" "$2" "$SIZE" "$GAMES" "$T_GREP" <<'PY'
import sys
name, t, size, games, tg = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
print(f"| {name} | {t:.2f} s | {size/1e6/t:.1f} MB/s | {games/t:,.0f} | 1/{t/tg:.0f} |")
PY
}
echo "file: $((SIZE / 1000000)) MB, $GAMES games, $(nproc) cores"
echo
echo "| command | time | MB/s | games/s | speed vs grep |"
echo "|---|---|---|---|---|"
row "grep -c '\\[Event'" "$T_GREP"
row "pdnkit check --syntax-only -j1 (reader)" "$T_READ"
row "pdnkit check -j1" "$T_J1"
row "pdnkit check (all cores)" "$T_JN"

# Peak memory for the file and for one twice its size.
cat "$TMP/big.pdn" "$TMP/big.pdn" > "$TMP/double.pdn"
rss() { { /usr/bin/time -f %M "$BIN" check --no-progress "$1" 2>&1 >/dev/null || true; } | tail -1; }
echo
echo "peak RSS: $((SIZE / 1000000)) MB file: $(rss "$TMP/big.pdn") KiB; $((2 * SIZE / 1000000)) MB file: $(rss "$TMP/double.pdn") KiB"
