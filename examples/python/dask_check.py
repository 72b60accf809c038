"""Check a corpus on a Dask cluster, with pdnkit: one task per file (an
archive is one file: its members are read by its task).

    python examples/python/dask_check.py PATH... -o games.parquet
    python examples/python/dask_check.py PATH... -o games.csv --scheduler tcp://host:8786

Every task reads its file through the library's own pipeline
(``pdnkit.check``: the command line's reading of compressed streams,
archives and binary files, its per-file variant decision and its limits), so
each game's row is the one ``pdnkit check`` gives. Without ``--scheduler`` it
runs on a ``LocalCluster`` of ``--workers`` processes. Needs
``pip install "pdnkit[arrow]" "dask[distributed]"``.
"""
from __future__ import annotations

import argparse
import sys
from typing import Any, List, Optional

import pdnkit


def check_file(file: str, root: str) -> Any:
    """One task: the games table of one file (evidence of its variant taken
    from the folders below the PATH it was found under, as on the command line)."""
    return pdnkit.to_arrow(pdnkit.check(file, root=root))


def run(paths: List[str], output: str, scheduler: Optional[str] = None, workers: int = 2) -> Any:
    """Checks `paths` on the cluster and writes the games table to `output`
    (.parquet or .csv); returns it as a ``pyarrow.Table``."""
    import pyarrow as pa
    from dask.distributed import Client, LocalCluster

    cluster = None if scheduler else LocalCluster(n_workers=workers, threads_per_worker=1, processes=True)
    client = Client(scheduler or cluster)
    try:
        files = pdnkit.files(*paths)
        batches = client.gather(client.map(check_file, *zip(*files), pure=False)) if files else []
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    table = pa.Table.from_batches(batches, schema=batches[0].schema) if batches else None
    if table is not None:
        if output.endswith(".parquet"):
            import pyarrow.parquet as pq

            pq.write_table(table, output, compression="zstd")
        else:
            import pyarrow.csv as pc

            pc.write_csv(table.drop_columns(["diagnostics"]), output)
    return table


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+", help="files, folders, archives")
    ap.add_argument("-o", "--output", required=True, help="FILE.parquet or FILE.csv")
    ap.add_argument("--scheduler", help="the address of a Dask scheduler (default: a LocalCluster)")
    ap.add_argument("--workers", type=int, default=2, help="LocalCluster workers (default 2)")
    a = ap.parse_args(argv)
    table = run(a.paths, a.output, a.scheduler, a.workers)
    rows = table.num_rows if table is not None else 0
    valid = sum(1 for v in table.column("valid").to_pylist() if v is True) if table is not None else 0
    print(f"{rows} games, {valid} valid, written to {a.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
