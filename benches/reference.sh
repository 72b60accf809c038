#!/usr/bin/env bash
# How fast does a fast reader validate chess on this machine, against grep?
# pgn-reader (niklasf) with shakmaty replaying every move is the model issue 4
# names for its target ("one thread at 1/5 of grep"). This script measures it
# here, in the same run as grep and as `pdnkit check -j1`:
#
# - chess, short games: random legal games of 1..34 plies (17 on average, like the
#   draughts file) with eleven lichess-style tags, about 290 bytes a game;
# - chess, long games: 1..140 plies (70 on average, like lichess), about 1 KB;
# - draughts: the file of benches/throughput.sh (real corpus + conformance games).
#
# Each tool is compared with grep on its own file. Needs crates.io (pgn-reader and
# shakmaty are built in a temporary project, versions pinned below) and ../shared.
# Usage: [RUNS=5] bash benches/reference.sh [MB]   (default 200)
set -euo pipefail
cd "$(dirname "$0")/.."
source benches/common.sh
bench_setup "${1:-200}"
mkdir -p "$TMP/ref/src"
cp benches/reference/pgn_validate.rs "$TMP/ref/src/main.rs"
cat > "$TMP/ref/Cargo.toml" <<'TOML'
[package]
name = "pgn_validate"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
pgn-reader = "=0.29.0"
shakmaty = "=0.30.1"

[profile.release]
lto = "thin"
codegen-units = 4

[workspace]
TOML
if ! (cd "$TMP/ref" && cargo build --release --quiet); then
  echo "SKIP: could not build pgn-reader and shakmaty from crates.io"
  exit 0
fi
REF=$TMP/ref/target/release/pgn_validate
draughts_file "$MB" "$TMP/draughts.pdn" "$SHARED"
GAMES=$(games_in "$TMP/draughts.pdn")
echo "draughts|$(stat -c %s "$TMP/draughts.pdn")|$GAMES" > "$TMP/files"
for kind in short:34 long:140; do
  name=${kind%%:*}
  games=$("$REF" gen "$MB" "${kind##*:}" "$TMP/$name.pgn")
  echo "chess-$name|$(stat -c %s "$TMP/$name.pgn")|$games" >> "$TMP/files"
  read -r g plies bad < <("$REF" "$TMP/$name.pgn")
  echo "chess-$name: $g games, $plies plies replayed, $bad refused"
done
for round in $(seq "$RUNS"); do
  grep_best draughts "$TMP/draughts.pdn"
  measure "pdnkit check -j1" draughts "$BIN" check -j1 --no-progress "$TMP/draughts.pdn"
  measure "pdnkit check --syntax-only -j1 (reader)" draughts "$BIN" check --syntax-only -j1 --no-progress "$TMP/draughts.pdn"
  for name in short long; do
    grep_best "chess-$name" "$TMP/$name.pgn"
    measure "pgn-reader + shakmaty (validate)" "chess-$name" "$REF" "$TMP/$name.pgn"
  done
done
echo "$(nproc) cores; medians of $RUNS rounds"
echo
summary "$TMP/files" "$RUNS"
