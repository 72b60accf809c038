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
# See benches/reference.sh for pgn-reader (chess) measured the same way.
set -euo pipefail
cd "$(dirname "$0")/.."
source benches/common.sh
bench_setup "${1:-200}"
draughts_file "$MB" "$TMP/big.pdn" "$SHARED"
SIZE=$(stat -c %s "$TMP/big.pdn")
GAMES=$(games_in "$TMP/big.pdn")
echo "draughts|$SIZE|$GAMES" > "$TMP/files"
for round in $(seq "$RUNS"); do
  grep_best draughts "$TMP/big.pdn"
  measure "pdnkit check --syntax-only -j1 (reader)" draughts "$BIN" check --syntax-only -j1 --no-progress "$TMP/big.pdn"
  measure "pdnkit check -j1" draughts "$BIN" check -j1 --no-progress "$TMP/big.pdn"
  measure "pdnkit check (all cores)" draughts "$BIN" check --no-progress "$TMP/big.pdn"
done
echo "file: $((SIZE / 1000000)) MB, $GAMES games, $(nproc) cores; medians of $RUNS rounds"
echo
summary "$TMP/files" "$RUNS"

# Peak memory for the file and for one twice its size.
cat "$TMP/big.pdn" "$TMP/big.pdn" > "$TMP/double.pdn"
rss() { { /usr/bin/time -f %M "$BIN" check --no-progress "$1" 2>&1 >/dev/null || true; } | tail -1; }
echo
echo "peak RSS: $((SIZE / 1000000)) MB file: $(rss "$TMP/big.pdn") KiB; $((2 * SIZE / 1000000)) MB file: $(rss "$TMP/double.pdn") KiB"
