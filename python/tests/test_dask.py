"""examples/python/dask_check.py on a LocalCluster of 2 workers: every game's
verdict equals `pdnkit check --format json` on corpus/ and on the real corpus,
one task per file."""
import importlib.util
import json
import os
import pathlib
import subprocess

import pytest

from test_pdnkit import ROOT, _every_kind_of_input, cli

pytest.importorskip("dask.distributed")


def example(name="dask_check"):
    spec = importlib.util.spec_from_file_location(name, ROOT / "examples" / "python" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def verdicts_of_cli(path: str) -> dict:
    out = subprocess.run([cli(), "check", "--no-progress", "--format", "json", path], capture_output=True, text=True, cwd=ROOT)
    games = [json.loads(line) for line in out.stdout.splitlines()]
    return {(g["file"], g["game"]): (g["valid"], g["variant"], g["line"]) for g in games if g["type"] == "game"}


def paths():
    out = ["corpus"]
    real = ROOT.parent / "shared" / "corpus" / "real"
    if real.exists():
        out.append(os.path.relpath(real, ROOT))
    elif os.environ.get("CI") == "true":
        raise AssertionError(f"{real} is absent, and CI=true")
    else:
        print(f"SKIP: {real} is absent (the ../shared checkout is not here)")
    return out


def test_dask_gives_the_verdicts_of_the_command_line(tmp_path, monkeypatch):
    """One task per file through the library's pipeline: every game's
    verdict, variant and line are those of the command line."""
    monkeypatch.chdir(ROOT)
    mod = example()
    # corpus/, the real archives, and a folder of a zip, a tar.gz and a binary file.
    mixed = _every_kind_of_input(tmp_path / "kinds")[-1]
    for path in paths() + [str(mixed)]:
        out = tmp_path / "games.parquet"
        table = mod.run([path], str(out), workers=2)
        rows = table.to_pylist()
        got = {(r["file"], r["game"]): (r["valid"], r["variant"], r["line"]) for r in rows}
        want = verdicts_of_cli(path)
        assert got == want, path
        import pyarrow.parquet as pq

        assert pq.read_table(out).num_rows == len(want)


def test_dask_index_is_the_command_lines_index(tmp_path, monkeypatch):
    """examples/python/dask_index.py (an index per file, merged by key in 4
    buckets) on corpus/ and the real corpus: the rows of `pdnkit index` on
    the same PATH, and `explore --index` answers each query with the same
    bytes from either file. Copies of a game are counted once within a
    file, not across files: the real corpus has copies in two files, so
    there the two agree when every copy counts."""
    from test_index import answers, cli_index, rows

    monkeypatch.chdir(ROOT)
    mod = example("dask_index")
    for path in paths():
        for keep in [False, True] if path == "corpus" else [True]:
            out = tmp_path / "dask.parquet"
            written = mod.run([path], str(out), workers=2, buckets=4, plies=30, keep_duplicates=keep)
            flags = ["--index-plies", "30"] + (["--keep-duplicates"] if keep else [])
            want = cli_index(path, tmp_path / "cli.parquet", *flags)
            import pyarrow.parquet as pq

            got = pq.read_table(out)
            assert written == got.num_rows == want.num_rows, (path, keep)
            assert rows(got, seq=False) == rows(want, seq=False), (path, keep)
            assert answers(out) == answers(tmp_path / "cli.parquet"), (path, keep)
