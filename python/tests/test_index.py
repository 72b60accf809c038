"""The position index from Python (issue 67 item 4): ``pdnkit.index`` makes
the rows ``pdnkit index`` writes, parts merged by ``pdnkit.merge_index`` are
the index of the whole, and a table written with pyarrow is an index the
command line answers from, byte for byte as from its own."""
import json
import subprocess

import pytest

import pdnkit
from test_pdnkit import CORPUS, ROOT, cli

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

# Queries of `explore --index`, each on every index compared.
QUERIES = [
    ["--format", "json"],
    [],
    ["--depth", "3"],
    ["--play", "32-28"],
    ["--format", "csv", "--depth", "2"],
    ["--depth", "2", "--position", "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"],
]


def cli_index(path, out, *options):
    subprocess.run(
        [cli(), "index", "--no-progress", "-o", str(out), *options, str(path)], check=True, capture_output=True, cwd=ROOT
    )
    return pq.read_table(out)


def rows(table, seq=True):
    """The rows, sorted, with their recent games read; without the games'
    places when `seq` is false (parts place their games apart)."""
    out = []
    for r in table.to_pylist():
        recent = json.loads(r["recent"])
        if not seq:
            for game in recent:
                game.pop("seq")
        out.append(dict(r, recent=recent))
    return sorted(out, key=lambda r: (r["variant"], r["key"], r["move"] or ""))


def answers(index, *options):
    """`explore --index` of each query, as bytes."""
    out = []
    for q in QUERIES:
        run = subprocess.run(
            [cli(), "explore", "--no-progress", "--index", str(index), *options, *q],
            capture_output=True,
            cwd=ROOT,
        )
        assert run.returncode == 0, run.stderr
        out.append(run.stdout)
    assert all(out)
    return out


def meta(table):
    return json.loads(table.schema.metadata[b"pdnkit.index"])


@pytest.mark.parametrize("options", [{}, {"keep_duplicates": True, "plies": 12}])
def test_index_is_the_command_lines_row_for_row(tmp_path, options):
    flags = ["--keep-duplicates"] if options.get("keep_duplicates") else []
    flags += ["--index-plies", str(options.get("plies", 40))]
    want = cli_index(CORPUS, tmp_path / "cli.parquet", *flags)
    got = pdnkit.index(CORPUS, **options)
    assert got.num_rows > 100
    assert rows(got) == rows(want)
    assert meta(got) == meta(want)
    assert got.schema.remove_metadata() == want.schema.remove_metadata()


def test_parts_merged_are_the_index_of_the_whole(tmp_path):
    """One part per file of corpus/, merged: the command line's index of the
    folder, row for row (the games' places apart), and it answers every
    query with the same bytes once written."""
    files = pdnkit.files(CORPUS)
    assert len(files) > 5
    parts = [pdnkit.index(f, root=root, part=i) for i, (f, root) in enumerate(files)]
    # Merged in another order and in two steps: the same rows.
    half = len(parts) // 2
    merged = pdnkit.merge_index([pdnkit.merge_index(parts[half:]), pdnkit.merge_index(parts[:half])])
    want = cli_index(CORPUS, tmp_path / "cli.parquet")
    assert rows(merged, seq=False) == rows(want, seq=False)
    assert meta(merged) == meta(want)
    pq.write_table(merged, tmp_path / "merged.parquet")
    assert answers(tmp_path / "merged.parquet") == answers(tmp_path / "cli.parquet")


def test_merge_refuses_what_is_not_an_index_of_one_depth():
    hand = CORPUS / "explore" / "hand.pdn"
    a = pdnkit.index(hand, plies=10)
    with pytest.raises(ValueError, match="plies"):
        pdnkit.merge_index([a, pdnkit.index(hand, plies=12)])
    with pytest.raises(ValueError, match="not a pdnkit index"):
        pdnkit.merge_index([a.replace_schema_metadata({})])
    # A row whose key is not its position's, and one whose counts disagree.
    keys = a.column("key").to_pylist()
    bad = a.set_column(1, "key", pa.array([k ^ 1 for k in keys], pa.uint64()))
    with pytest.raises(ValueError, match="index row 0: the key"):
        pdnkit.merge_index([bad])
    games = a.column("games").to_pylist()
    bad = a.set_column(4, "games", pa.array([g + 1 for g in games], pa.uint64()))
    with pytest.raises(ValueError, match="sum of its results"):
        pdnkit.merge_index([bad])
    with pytest.raises(ValueError, match="part"):
        pdnkit.index(hand, part=-1)
    with pytest.raises(ValueError, match="plies: 0 to 1000"):
        pdnkit.index(hand, plies=1001)
