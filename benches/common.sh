# Shared by the benchmark scripts (sourced, not run): timing in interleaved
# rounds and the summary table. This machine's speed drifts by up to 1.7x over
# minutes, so each script runs all its commands once per round, RUNS rounds in a
# row; every figure is a median over the rounds, and each ratio to grep is taken
# within its round, against grep on the same file.
#
# `bench_setup MB` sets what every script uses: MB, SHARED, BIN (the release
# binary, built), TMP (removed on exit), RUNS and TIMES (rows of `measure`:
# `label|file tag|wall|user sys`); it exits with a SKIP line without ../shared.
bench_setup() {
  MB=${1:-200}
  SHARED=../shared
  [ -d "$SHARED/corpus/real" ] || { echo "SKIP: $SHARED is absent"; exit 0; }
  cargo build --release --quiet
  BIN=$PWD/target/release/pdnkit
  TMP=$(mktemp -d)
  trap 'rm -rf "$TMP"' EXIT
  RUNS=${RUNS:-5}
  TIMES=$TMP/times
  : > "$TIMES"
}

# measure LABEL TAG COMMAND...: runs COMMAND once, output to a scratch file.
# Output goes to a file, not /dev/null: GNU grep stops at the first match when it
# sees /dev/null. Wall time comes from `date`, CPU time from /usr/bin/time.
measure() {
  local label=$1 tag=$2 s e
  shift 2
  sync # the previous command's output is not written back during this one
  s=$(date +%s.%N)
  /usr/bin/time -o "$TIMES.time" -f '%U %S' "$@" > "$TIMES.out" 2>/dev/null || true
  e=$(date +%s.%N)
  echo "$label|$tag|$(echo "$e - $s" | bc -l)|$(tail -1 "$TIMES.time")" >> "$TIMES"
}

# grep_best TAG FILE: `grep -c '\[Event'` (-r for a folder) three times in a row; the summary keeps
# the fastest (grep takes a tenth of a second, so one run is noisy).
grep_best() {
  local again r=()
  [ -d "$2" ] && r=(-r) # a folder: every file in it
  measure "grep -c '\\[Event'" "$1" grep "${r[@]}" -c '\[Event' "$2"
  for again in 1 2; do measure "again" "$1" grep "${r[@]}" -c '\[Event' "$2"; done
}

# summary FILES_INFO RUNS: the table. FILES_INFO has one line `tag|bytes|games`
# per file; the first row measured on each file must be its grep.
summary() {
  python3 - "$TIMES" "$1" "$2" <<'PY'
import statistics as st, sys
times, info, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
files = {t: (int(b), int(g)) for t, b, g in (l.rstrip("\n").split("|") for l in open(info))}
rows = []
for label, tag, wall, cpu in (l.rstrip("\n").split("|") for l in open(times)):
    wall, cpu = float(wall), sum(map(float, cpu.split()))
    if label == "again":  # fold a grep repeat into the run before it: the fastest stands
        if wall < rows[-1][2]:
            rows[-1] = (rows[-1][0], tag, wall, cpu)
    else:
        rows.append((label, tag, wall, cpu))
keys = list(dict.fromkeys((l, t) for l, t, _, _ in rows))
def series(key):
    s = [(w, c) for l, t, w, c in rows if (l, t) == key]
    assert len(s) == runs, (key, len(s))
    return s
grep = {t: series(k) for k in keys for t in [k[1]] if k[0].startswith("grep")}
print("| command | file | wall | CPU (user+sys) | MB/s (wall) | games/s (wall) | vs grep (wall) | vs grep (CPU) |")
print("|---|---|---|---|---|---|---|---|")
for key in keys:
    label, tag = key
    s, g = series(key), grep[tag]
    size, games = files[tag]
    wall, cpu = st.median(w for w, _ in s), st.median(c for _, c in s)
    rw = st.median(w / gw for (w, _), (gw, _) in zip(s, g))
    rc = st.median(c / gw for (_, c), (gw, _) in zip(s, g))
    ratio = "1/1 | 1/1" if label.startswith("grep") else f"1/{rw:.0f} | 1/{rc:.0f}"
    print(f"| {label} | {tag} | {wall:.3f} s | {cpu:.2f} s | {size / 1e6 / wall:.1f} | {games / wall:,.0f} | {ratio} |")
print()
print("wall seconds per round (rows in the order above):")
for i in range(runs):
    print(f"  {i + 1}: " + " ".join(f"{series(k)[i][0]:.2f}" for k in keys))
PY
}

# games_in FILE: the number of games pdnkit reads in FILE.
games_in() {
  { "$BIN" check --syntax-only --format json --no-progress "$1" || true; } | tail -1 \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["games"])'
}

# draughts_file MB OUT SHARED: the real corpus and the conformance games
# concatenated until OUT holds at least MB megabytes.
draughts_file() {
  local unit="$2.unit"
  find "$3/corpus/real" "$3/conformance/games" -name '*.pdn' -print0 | sort -z | xargs -0 cat > "$unit"
  : > "$2"
  while [ "$(stat -c %s "$2")" -lt $(( $1 * 1024 * 1024 )) ]; do cat "$unit" >> "$2"; done
  rm -f "$unit"
}
