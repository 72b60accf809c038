#!/usr/bin/env bash
# Throughput of `pdnkit check` (and of the reader alone) on a large file and on
# the same text as a folder of 40 files, with one and two workers (-j1, -j2), in
# JSON, CSV and human output, against `grep -c '\[Event'` on the same bytes, in
# one run; -j2 against -j1; and peak memory for two file sizes (memory must stay
# flat in the file size). Besides the workers, a reading thread cuts the text into
# pieces and the output runs on its own thread, so the table gives CPU time
# (user+sys) besides wall time: the cost for one core, to compare with grep's.
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
# The same text as a folder of 40 files (cut at game starts).
mkdir -p "$TMP/folder"
python3 - "$TMP/big.pdn" "$TMP/folder" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
n, start, k = 40, 0, 0
step = len(data) // n
while start < len(data):
    cut = data.find(b"\n\n[", start + step)
    end = len(data) if cut < 0 or k == n - 1 else cut + 2
    open(f"{sys.argv[2]}/part{k:02d}.pdn", "wb").write(data[start:end])
    start, k = end, k + 1
PY
echo "draughts|$SIZE|$GAMES" > "$TMP/files"
echo "folder|$SIZE|$GAMES" >> "$TMP/files"
for round in $(seq "$RUNS"); do
  grep_best draughts "$TMP/big.pdn"
  for j in 1 2; do
    measure "reader alone (check --syntax-only -q -j$j)" draughts "$BIN" check --syntax-only -q -j$j --no-progress "$TMP/big.pdn"
    measure "check -q -j$j" draughts "$BIN" check -q -j$j --no-progress "$TMP/big.pdn"
  done
  measure "check -j2 (human findings)" draughts "$BIN" check -j2 --no-progress "$TMP/big.pdn"
  measure "check --format json -j2" draughts "$BIN" check --format json -j2 --no-progress "$TMP/big.pdn"
  measure "convert --to csv -j2" draughts "$BIN" convert --to csv -j2 --no-progress "$TMP/big.pdn"
  grep_best folder "$TMP/folder"
  for j in 1 2; do
    measure "check -q -j$j" folder "$BIN" check -q -j$j --no-progress "$TMP/folder"
  done
done
echo "file: $((SIZE / 1000000)) MB, $GAMES games, $(nproc) cores; medians of $RUNS rounds"
echo
summary "$TMP/files" "$RUNS"
# -j2 against -j1, within each round (the median of the ratios).
python3 - "$TIMES" <<'PY'
import statistics as st, sys
rows = [l.rstrip("\n").split("|") for l in open(sys.argv[1])]
def walls(label, tag):
    return [float(w) for l, t, w, _ in rows if l == label and t == tag]
print()
for label, tag in [("reader alone (check --syntax-only -q -j{})", "draughts"),
                   ("check -q -j{}", "draughts"), ("check -q -j{}", "folder")]:
    one, two = walls(label.format(1), tag), walls(label.format(2), tag)
    print(f"{label.format('2')} on {tag}: {st.median(a / b for a, b in zip(one, two)):.2f}x -j1")
PY

# Peak memory for the file and for one twice its size.
cat "$TMP/big.pdn" "$TMP/big.pdn" > "$TMP/double.pdn"
rss() { { /usr/bin/time -f %M "$BIN" check --no-progress "$1" 2>&1 >/dev/null || true; } | tail -1; }
echo
echo "peak RSS: $((SIZE / 1000000)) MB file: $(rss "$TMP/big.pdn") KiB; $((2 * SIZE / 1000000)) MB file: $(rss "$TMP/double.pdn") KiB"
