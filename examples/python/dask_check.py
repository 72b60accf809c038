"""Check a folder of PDN archives on a Dask cluster, with pdnkit.

    python examples/python/dask_check.py ARCHIVE... -o games.parquet
    python examples/python/dask_check.py ARCHIVE... -o games.csv --scheduler tcp://host:8786

Each task checks one file, one member of a zip or tar archive, or one byte
range of a large file split at game boundaries (``--split-bytes``); the games
are gathered, numbered as the command line numbers them, and written to one
Parquet (needs pyarrow) or CSV file. Without ``--scheduler`` it runs on a
``LocalCluster`` of ``--workers`` processes.

A file's games without a GameType tag are read as one decision per file (the
command line's rule): a split file's first range is checked first, and the
variant it decides is given to the other ranges, so the verdicts are those of
``pdnkit check`` on the whole file.
"""
from __future__ import annotations

import argparse
import bz2
import csv
import gzip
import lzma
import os
import pathlib
import sys
import tarfile
import zipfile
from typing import Any, Dict, List, Optional, Tuple

import pdnkit

TEXT = (".pdn", ".pgn", ".txt")
COMPRESSED = {".gz": gzip.decompress, ".bz2": bz2.decompress, ".xz": lzma.decompress}

Task = Tuple[str, str, Any, Any, str]  # (kind, path, detail, detail, the PATH it was named under)


def is_text(name: str) -> bool:
    low = name.lower()
    for ext in COMPRESSED:
        if low.endswith(ext):
            low = low[: -len(ext)]
    return low.endswith(TEXT)


def boundaries(path: str, size: int, split_bytes: int) -> List[int]:
    """Offsets where a game starts (a `[` after a blank line), about every `split_bytes`."""
    cuts = [0]
    with open(path, "rb") as f:
        at = split_bytes
        while at < size:
            f.seek(at)
            window = f.read(1 << 20)
            k = window.find(b"\n\n[")
            if k < 0:
                break
            cut = at + k + 2
            cuts.append(cut)
            at = cut + split_bytes
    cuts.append(size)
    return cuts


def tasks_of(paths: List[str], split_bytes: int) -> List[Task]:
    out: List[Task] = []
    files: List[Tuple[str, str]] = []
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in sorted(os.walk(p)):
                files.extend((os.path.join(root, n), p) for n in sorted(names))
        else:
            files.append((p, p))
    for f, named in files:
        low = f.lower()
        if zipfile.is_zipfile(f):
            with zipfile.ZipFile(f) as z:
                out.extend(("zip", f, m, None, named) for m in z.namelist() if is_text(m))
        elif low.endswith((".tar", ".tgz", ".tar.gz", ".tar.bz2", ".tar.xz")) and tarfile.is_tarfile(f):
            with tarfile.open(f) as t:
                out.extend(("tar", f, m.name, None, named) for m in t.getmembers() if m.isfile() and is_text(m.name))
        elif is_text(f):
            size = os.path.getsize(f)
            if size > split_bytes and not low.endswith(tuple(COMPRESSED)):
                cuts = boundaries(f, size, split_bytes)
                out.extend(("range", f, a, b, named) for a, b in zip(cuts, cuts[1:]))
            else:
                out.append(("file", f, None, None, named))
    return out


def read_task(task: Task) -> Tuple[str, bytes, int]:
    """The task's bytes, the name its games carry, and the lines before them."""
    kind, path, a, b, _ = task
    if kind == "zip":
        with zipfile.ZipFile(path) as z:
            return f"{path}!{a}", z.read(a), 0
    if kind == "tar":
        with tarfile.open(path) as t:
            member = t.extractfile(a)
            return f"{path}!{a}", member.read() if member else b"", 0
    with open(path, "rb") as f:
        if kind == "range":
            prefix_lines = 0
            left = a
            while left > 0:
                chunk = f.read(min(left, 1 << 24))
                prefix_lines += chunk.count(b"\n")
                left -= len(chunk)
            return path, f.read(b - a), prefix_lines
        data = f.read()
    for ext, decompress in COMPRESSED.items():
        if path.lower().endswith(ext):
            data = decompress(data)
    return path, data, 0


def check_task(task: Task, variant: str = "auto") -> List[Dict[str, Any]]:
    """One task on a worker: its games as rows of the Parquet games table,
    with where they were found (for numbering them afterwards)."""
    name, data, lines_before = read_task(task)
    # The PATH the file was named under: the words of the folders below it
    # are evidence of the variant, as on the command line.
    checked = pdnkit.check(data, name=name, root=task[4], variant=variant)
    rows = []
    for g in checked.games:
        row = pdnkit._game_row(g)
        row["line"] += lines_before
        row["_start"] = task[2] if task[0] == "range" else 0
        rows.append(row)
    return rows


def decided_variant(rows: List[Dict[str, Any]]) -> str:
    """The variant a first range decided for its games without GameType."""
    for r in rows:
        if r["variant_source"] in ("inferred", "file") and r["variant"]:
            return r["variant"]
    return "auto"


def run(paths: List[str], output: str, scheduler: Optional[str] = None, workers: int = 2,
        split_bytes: int = 64 << 20) -> List[Dict[str, Any]]:
    from dask.distributed import Client, LocalCluster

    cluster = None if scheduler else LocalCluster(n_workers=workers, threads_per_worker=1, processes=True)
    client = Client(scheduler or cluster)
    try:
        tasks = tasks_of(paths, split_bytes)
        first = [t for t in tasks if t[0] != "range" or t[2] == 0]
        done = dict(zip(first, client.gather(client.map(check_task, first, pure=False))))
        # The later ranges of a split file take the variant its first range decided.
        later = [t for t in tasks if t[0] == "range" and t[2] != 0]
        first_range = {t[1]: t for t in first if t[0] == "range"}
        variants = [decided_variant(done[first_range[t[1]]]) for t in later]
        done.update(zip(later, client.gather(client.map(check_task, later, variants, pure=False))))
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    rows: List[Dict[str, Any]] = []
    for t in tasks:
        rows.extend(done[t])
    # Games numbered in their file, as the command line numbers them.
    count: Dict[str, int] = {}
    for r in rows:
        count[r["file"]] = count.get(r["file"], 0) + 1
        r["game"] = count[r["file"]]
        del r["_start"]
    write(rows, output)
    return rows


def write(rows: List[Dict[str, Any]], output: str) -> None:
    if output.endswith(".parquet"):
        import pyarrow as pa
        import pyarrow.parquet as pq

        pq.write_table(pa.Table.from_pylist(rows, schema=pdnkit._schema()), output, compression="zstd")
        return
    with open(output, "w", newline="") as f:
        columns = [c for c, _ in pdnkit._GAME_COLUMNS]
        w = csv.writer(f)
        w.writerow(columns)
        for r in rows:
            w.writerow(["" if r[c] is None else r[c] for c in columns])


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+", help="files, folders, zip or tar archives")
    ap.add_argument("-o", "--output", required=True, help="FILE.parquet or FILE.csv")
    ap.add_argument("--scheduler", help="the address of a Dask scheduler (default: a LocalCluster)")
    ap.add_argument("--workers", type=int, default=2, help="LocalCluster workers (default 2)")
    ap.add_argument("--split-bytes", type=int, default=64 << 20, help="split files larger than this at game boundaries")
    a = ap.parse_args(argv)
    rows = run(a.paths, a.output, a.scheduler, a.workers, a.split_bytes)
    valid = sum(1 for r in rows if r["valid"] is True)
    print(f"{len(rows)} games, {valid} valid, written to {a.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
