#!/usr/bin/env bash
# Instructions executed (callgrind: repeatable whatever else the machine does) by
# `check -j1` and by the reader alone (`check --syntax-only -j1`), for another
# build of pdnkit (BASE) and this one, on the same files, in one run:
#   - the real international games (../shared/corpus/real/international, concatenated);
#   - the conformance games (../shared/conformance/games, concatenated), with -q.
# Usage: bash benches/instructions.sh BASE_BINARY
# Build a BASE with e.g. `git worktree add /tmp/base REV && cargo build --release`
# in it. Needs valgrind and ../shared.
set -euo pipefail
cd "$(dirname "$0")/.."
BASE=${1:?usage: benches/instructions.sh BASE_BINARY}
SHARED=../shared
[ -d "$SHARED/corpus/real" ] || { echo "SKIP: $SHARED is absent"; exit 0; }
command -v valgrind >/dev/null || { echo "SKIP: valgrind is not installed"; exit 0; }
cargo build --release --quiet
NEW=$PWD/target/release/pdnkit
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
find "$SHARED/corpus/real/international" -name '*.pdn' -print0 | sort -z | xargs -0 cat > "$TMP/international.pdn"
find "$SHARED/conformance/games" -name '*.pdn' -print0 | sort -z | xargs -0 cat > "$TMP/conformance.pdn"
# count COMMAND...: instructions COMMAND executes (its exit status, 1 when a game
# has an error finding, does not matter here).
count() {
  { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null || true; } |
    sed -n 's/.*refs: *//p' | tr -d ,
}
printf '%-44s %14s %14s %8s\n' "command and file" "base" "this build" "ratio"
for file in international conformance; do
  for mode in "check -j1" "check --syntax-only -j1"; do
    q=""
    if [ "$file" = conformance ]; then q="-q"; fi
    # shellcheck disable=SC2086
    b=$(count "$BASE" $mode $q --no-progress "$TMP/$file.pdn")
    # shellcheck disable=SC2086
    n=$(count "$NEW" $mode $q --no-progress "$TMP/$file.pdn")
    printf '%-44s %14s %14s %8.4f\n' "$mode $q ($file)" "$b" "$n" "$(echo "$n / $b" | bc -l)"
  done
done
