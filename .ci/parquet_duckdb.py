"""The Parquet output read by DuckDB (issue 24): the games table of a corpus
has the counts `pdnkit check --format json` gives. Run by .ci/run in a venv
with duckdb from PyPI: python .ci/parquet_duckdb.py PDNKIT PATH..."""
import json
import subprocess
import sys
import tempfile

import duckdb

pdnkit, paths = sys.argv[1], sys.argv[2:]
for path in paths:
    with tempfile.TemporaryDirectory() as tmp:
        out = f"{tmp}/games.parquet"
        subprocess.run([pdnkit, "convert", "--no-progress", "--to", "parquet", "-o", out, path], check=True)
        check = subprocess.run([pdnkit, "check", "--no-progress", "--format", "json", path],
                               capture_output=True, text=True)
        summary = json.loads(check.stdout.strip().splitlines()[-1])
        games, valid, unchecked = duckdb.sql(
            f"select count(*), count(*) filter (where valid), count(*) filter (where valid is null) from '{out}'"
        ).fetchall()[0]
        errors, warnings = duckdb.sql(
            f"select count(*) filter (where d.severity = 'error'), count(*) filter (where d.severity = 'warning') "
            f"from (select unnest(diagnostics) as d from '{out}')"
        ).fetchall()[0]
        # File-level findings are not in the games table.
        file_findings = [json.loads(l) for l in check.stdout.splitlines() if json.loads(l).get("type") == "file"]
        file_errors = sum(1 for f in file_findings for d in f.get("diagnostics", []) if d["severity"] == "error")
        file_warnings = sum(1 for f in file_findings for d in f.get("diagnostics", []) if d["severity"] == "warning")
        got = (games, valid, unchecked, errors + file_errors, warnings + file_warnings)
        want = (summary["games"], summary["valid_games"], summary["unchecked_games"], summary["errors"], summary["warnings"])
        print(f"{path}: duckdb {got}, check {want}")
        if got != want:
            sys.exit(f"{path}: the Parquet games table disagrees with check")
        # The plies table too: one row per ply read.
        plies = f"{tmp}/plies.parquet"
        subprocess.run([pdnkit, "convert", "--no-progress", "--to", "parquet", "--moves", "-o", plies, path], check=True)
        n = duckdb.sql(f"select count(*) from '{plies}'").fetchall()[0][0]
        m = duckdb.sql(f"select sum(plies) from '{out}'").fetchall()[0][0] or 0
        print(f"{path}: {n} plies in the plies table, {m} in the games table")
        if n != m:
            sys.exit(f"{path}: the plies table has {n} rows, the games table counts {m} plies")
# Partition values read back as written (issue 54 item 3): the folder's
# value, percent-encoded, is what a hive reader gives as the column.
events = ["A/B", "A_B", "A:B", "A=B", "50%", "Ch. NL 2016/17", "a\\b?*", "~x", " lead", "Ч" * 150]
with tempfile.TemporaryDirectory() as tmp:
    src = f"{tmp}/events.pdn"
    with open(src, "w", encoding="utf-8") as f:
        for e in events:
            f.write(f'[Event "{e}"]\n[GameType "20"]\n1. 32-28 *\n\n')
    parts = f"{tmp}/parts"
    subprocess.run([pdnkit, "convert", "--no-progress", "--to", "parquet", "--partition-by", "event",
                    "-o", parts, src], check=True)
    got = sorted(r[0] for r in duckdb.sql(
        f"select event from read_parquet('{parts}/*/*.parquet', hive_partitioning = true)").fetchall())
    # A value past the folder name's cap comes back cut, with its hash.
    want = sorted(e if len(e.encode()) <= 200 else got[-1] for e in events)
    print(f"partitions read back by duckdb: {got[:-1]}")
    if got != want or not got[-1].startswith("Ч" * 100):
        sys.exit(f"partition values do not read back: {got} != {want}")
print("parquet read by duckdb: the same counts")
# The position index (issue 67): DuckDB reads it as it is, and its rows of a
# position add up to what `explore` says of it.
for path in paths:
    with tempfile.TemporaryDirectory() as tmp:
        index = f"{tmp}/index.parquet"
        subprocess.run([pdnkit, "index", "--no-progress", "-o", index, path], check=True,
                       stderr=subprocess.DEVNULL)
        explored = subprocess.run([pdnkit, "explore", "--no-progress", "--format", "json", path],
                                  capture_output=True, text=True, check=True)
        for rec in (json.loads(l) for l in explored.stdout.splitlines()):
            if rec["type"] != "position":
                continue
            got = duckdb.execute(
                f"select sum(games), sum(white_wins), sum(draws), sum(black_wins), sum(unfinished) "
                f"from '{index}' where variant = ? and position = ?",
                [rec["variant"], rec["position"]]).fetchall()[0]
            want = (rec["games"], rec["white_wins"], rec["draws"], rec["black_wins"], rec["unfinished"])
            print(f"{path}: index {rec['variant']} start {got}, explore {want}")
            if tuple(int(x or 0) for x in got) != want:
                sys.exit(f"{path}: the index disagrees with explore at {rec['position']}")
