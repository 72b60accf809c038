#!/usr/bin/env bash
# The report of the whole real corpus in headless Chromium (issue 23's targets):
# size, time to the load event and first paint, filtering and sorting, memory.
# Usage: benches/report.sh [REPORT.html...]   (default: the report made now by this build)
# Needs chromium and chromedriver (Debian packages) and ../shared.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
if [ "$#" -eq 0 ]; then
  cargo test --release --quiet --test it -- --ignored --nocapture browser::report_benchmark 2>&1 | grep '^report '
else
  for f in "$@"; do
    PDNKIT_REPORT="$(realpath "$f")" cargo test --release --quiet --test it -- --ignored --nocapture browser::report_benchmark 2>&1 | grep '^report '
  done
fi
