"""Build a position index of a corpus on a Dask cluster, with pdnkit: an
index per file, merged by position key, written as the one Parquet file
``pdnkit explore --index`` answers from.

    python examples/python/dask_index.py PATH... -o games.index.parquet
    python examples/python/dask_index.py PATH... -o games.index.parquet --scheduler tcp://host:8786

Two stages, as a map and a reduce:

1. One task per file (an archive is one file) indexes it through the
   library's pipeline (``pdnkit.index``: the command line's reading, variant
   decision and replay), placed by the file's order in the corpus, and
   splits its rows into ``--buckets`` buckets by ``key % buckets``.
2. One task per bucket merges that bucket of every file
   (``pdnkit.merge_index``): the rows of a position meet in one bucket.

The buckets are written one after another, so the machine that writes
holds one bucket at a time. The index is the one ``pdnkit index`` makes of
the same files, row for row, except that copies of a game stored in two
files are counted in each (``--keep-duplicates`` counts every copy on both
sides). Without ``--scheduler`` it runs on a ``LocalCluster`` of
``--workers`` processes. Needs ``pip install "pdnkit[arrow]" "dask[distributed]"``.
"""
from __future__ import annotations

import argparse
import sys
from typing import Any, Dict, List, Optional

import pdnkit


def index_file(part: int, file: str, root: str, buckets: int, options: Dict[str, Any]) -> List[Any]:
    """The map task: one file's index (evidence of its variant taken from
    the folders below the PATH it was found under), split by key into
    `buckets` tables."""
    import pyarrow as pa
    import pyarrow.compute as pc

    table = pdnkit.index(file, root=root, part=part, **options)
    key, n = table.column("key"), pa.scalar(buckets, pa.uint64())
    bucket = pc.subtract(key, pc.multiply(pc.divide(key, n), n))
    return [table.filter(pc.equal(bucket, pa.scalar(b, pa.uint64()))) for b in range(buckets)]


def merge_bucket(b: int, *parts: List[Any]) -> Any:
    """The reduce task: bucket `b` of every file, merged."""
    return pdnkit.merge_index([p[b] for p in parts])


def run(
    paths: List[str],
    output: str,
    scheduler: Optional[str] = None,
    workers: int = 2,
    buckets: int = 16,
    **options: Any,
) -> int:
    """Indexes `paths` on the cluster into `output` (keywords of
    ``pdnkit.index``: ``plies``, ``keep_duplicates``, ...); returns the
    number of rows written."""
    import pyarrow.parquet as pq
    from dask.distributed import Client, LocalCluster

    cluster = None if scheduler else LocalCluster(n_workers=workers, threads_per_worker=1, processes=True)
    client = Client(scheduler or cluster)
    rows = 0
    try:
        files = pdnkit.files(*paths)
        parts = [
            client.submit(index_file, i, file, root, buckets, options, pure=False)
            for i, (file, root) in enumerate(files)
        ]
        merged = [client.submit(merge_bucket, b, *parts, pure=False) for b in range(buckets)]
        writer = None
        try:
            for future in merged:
                # Every bucket names the variants of every file (each part's
                # buckets carry its metadata), so the first opens the file.
                table = future.result() if parts else pdnkit.index(b"", **options)
                if writer is None:
                    writer = pq.ParquetWriter(output, table.schema, compression="zstd")
                writer.write_table(table)
                rows += table.num_rows
                future.release()
        finally:
            if writer is not None:
                writer.close()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    return rows


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+", help="files, folders, archives")
    ap.add_argument("-o", "--output", required=True, help="the index file (Parquet)")
    ap.add_argument("--plies", type=int, default=40, help="plies of each game indexed (default 40)")
    ap.add_argument("--keep-duplicates", action="store_true", help="count every copy of a game")
    ap.add_argument("--scheduler", help="the address of a Dask scheduler (default: a LocalCluster)")
    ap.add_argument("--workers", type=int, default=2, help="LocalCluster workers (default 2)")
    ap.add_argument("--buckets", type=int, default=16, help="merge tasks (default 16)")
    a = ap.parse_args(argv)
    rows = run(
        a.paths,
        a.output,
        a.scheduler,
        a.workers,
        a.buckets,
        plies=a.plies,
        keep_duplicates=a.keep_duplicates,
    )
    print(f"{rows} rows written to {a.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
