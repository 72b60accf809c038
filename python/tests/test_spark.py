"""The Spark recipe of docs/python.md (mapInArrow over check_batch), run when
pyspark is installed."""
import os
import sys

import pytest

from test_pdnkit import CORPUS

import pdnkit

pyspark = pytest.importorskip("pyspark", reason="SKIP: pyspark is not installed (pip install pyspark to run the Spark recipe)")


def test_map_in_arrow_gives_the_games_of_check():
    from pyspark.sql import SparkSession
    from pyspark.sql.pandas.types import from_arrow_schema

    # Spark's Python workers run `python3` from PATH unless told: here they
    # must be this interpreter, the one pdnkit is installed in (on a cluster,
    # every worker's Python has pdnkit installed).
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = SparkSession.builder.master("local[2]").getOrCreate()
    try:
        files = spark.read.format("binaryFile").load(str(CORPUS / "*" / "*.pdn")).select("path", "content")
        # Spark names a file `file:/abs/path`; the folder loaded, named the
        # same way, is the root whose subfolders are evidence of the variant,
        # as under `pdnkit check corpus/`.
        root = "file:" + str(CORPUS.resolve())

        def check(batches):
            for b in batches:
                yield pdnkit.check_batch(b.column("content"), names=b.column("path"), root=root)

        games = files.mapInArrow(check, from_arrow_schema(pdnkit._schema()))
        got = {r["variant"]: r["count"] for r in games.groupBy("variant").count().collect()}
        want = {}
        for g in pdnkit.check(str(CORPUS)).games:
            want[g["variant"]] = want.get(g["variant"], 0) + 1
        assert got == want
        assert sum(got.values()) > 100
    finally:
        spark.stop()
