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


def example():
    spec = importlib.util.spec_from_file_location("dask_check", ROOT / "examples" / "python" / "dask_check.py")
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
