"""The Spark recipe of docs/python.md (mapInArrow over check_batch), run when
pyspark is installed."""
import pytest

from test_pdnkit import CORPUS

import pdnkit

pyspark = pytest.importorskip("pyspark", reason="SKIP: pyspark is not installed (pip install pyspark to run the Spark recipe)")


def test_map_in_arrow_gives_the_games_of_check():
    from pyspark.sql import SparkSession
    from pyspark.sql.pandas.types import from_arrow_schema

    spark = SparkSession.builder.master("local[2]").getOrCreate()
    try:
        files = spark.read.format("binaryFile").load(str(CORPUS / "*" / "*.pdn")).select("path", "content")

        def check(batches):
            for b in batches:
                yield pdnkit.check_batch(b.column("content"), names=b.column("path"))

        games = files.mapInArrow(check, from_arrow_schema(pdnkit._schema()))
        want = sum(len(pdnkit.check(p).games) for p in CORPUS.glob("*/*.pdn"))
        assert games.count() == want
    finally:
        spark.stop()
