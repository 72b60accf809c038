"""The Python package against the command line and the vendored conformance
data (issue 25). Run from the repository: ``pytest python/tests``. The command
line is ``$PDNKIT_BIN`` or the one cargo built in ``target/``."""
import json
import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

import pdnkit

ROOT = pathlib.Path(__file__).resolve().parents[2]
CORPUS = ROOT / "corpus"
DATA = ROOT / "tests" / "data"


def cli() -> str:
    for p in [os.environ.get("PDNKIT_BIN"), ROOT / "target/release/pdnkit", ROOT / "target/debug/pdnkit"]:
        if p and pathlib.Path(p).exists():
            return str(p)
    if os.environ.get("CI") == "true":
        raise AssertionError("no pdnkit binary: build it with cargo first")
    pytest.skip("SKIP: no pdnkit binary in target/ (cargo build first)")


def cli_check(path: pathlib.Path, *options: str) -> tuple:
    out = subprocess.run(
        [cli(), "check", "--no-progress", "--format", "json", *options, str(path)], capture_output=True, text=True
    )
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    games = [v for v in lines if v["type"] == "game"]
    files = [dict(d, file=v["file"]) for v in lines if v["type"] == "file" for d in v["diagnostics"]]
    return games, files


@pytest.mark.parametrize("path", sorted(CORPUS.rglob("*.pdn")), ids=lambda p: str(p.relative_to(CORPUS)))
def test_check_answers_as_the_command_line(path):
    games, findings = cli_check(path)
    checked = pdnkit.check(str(path))
    assert checked.games == games
    assert checked.findings == findings


def test_check_takes_bytes_paths_and_options():
    data = (CORPUS / "russian" / "untagged.pdn").read_bytes()
    by_path = pdnkit.check(CORPUS / "russian" / "untagged.pdn")
    by_bytes = pdnkit.check(data, name=str(CORPUS / "russian" / "untagged.pdn"))
    assert by_bytes == by_path
    # The file's evidence is named once; --variant chooses instead.
    assert [f["code"] for f in by_path.findings] == ["variant-inferred"]
    named = pdnkit.check(data, variant="russian")
    assert named.findings == [] and all(g["variant"] == "russian" for g in named.games)
    # Levels as -A/-W/-D.
    faults = CORPUS / "brazilian" / "faults.pdn"
    allowed = pdnkit.check(faults, levels={"errors": "allow"})
    assert all(d["severity"] != "error" for g in allowed.games for d in g["diagnostics"])
    with pytest.raises(ValueError, match="unknown variant"):
        pdnkit.check(data, variant="frisian-ish")
    with pytest.raises(ValueError, match="unknown code"):
        pdnkit.check(data, levels={"no-such-code": "allow"})


def test_producers_dialects_are_read_as_meant_unless_strict():
    # Issue 66: a capture written one jump per token (27x38 38x29 for
    # 27x38x29) is one move, said once for the file; strict_dialects reads
    # every token as a move, as the command line's --strict-dialects.
    data = (
        b'[GameType "20"]\n\n1. 31-26 17-21 2. 26x17 12x21 3. 33-28 21-27 4. 32x21 16x27 '
        b"5. 38-33 11-17 6. 42-38 6-11 7. 38-32 27x38 8. 38x29 34x21 9. 19-23 28x19 *\n"
    )
    read = pdnkit.check(data)
    assert [g["plies"] for g in read.games] == [17]
    assert read.games[0]["valid"]
    assert [f["code"] for f in read.findings] == ["dialect"]
    strict = pdnkit.check(data, strict_dialects=True)
    assert strict.findings == []
    assert [d["code"] for d in strict.games[0]["diagnostics"]] == ["non-maximal-capture"]
    assert strict.games[0]["diagnostics"][0]["ply"] == 14


@pytest.mark.parametrize(
    "args",
    [
        ("--play", "32-28 17-21 33-29"),
        ("--depth", "3"),
        ("--position", "W:WK46:BK1", "--player", "eva"),
    ],
)
def test_explore_answers_as_the_command_line(args):
    hand = CORPUS / "explore" / "hand.pdn"
    out = subprocess.run(
        [cli(), "explore", "--no-progress", "--format", "json", *args, str(hand)],
        capture_output=True,
        text=True,
    )
    want = [json.loads(line) for line in out.stdout.splitlines()]
    kwargs = {}
    for flag, value in zip(args[::2], args[1::2]):
        key = flag.lstrip("-")
        kwargs[key] = int(value) if key == "depth" else value
    assert pdnkit.explore(hand, **kwargs) == want
    assert want and want[0]["type"] == "position"


def test_explore_records_as_an_arrow_table():
    pa = pytest.importorskip("pyarrow")
    hand = CORPUS / "explore" / "hand.pdn"
    records = pdnkit.explore(hand, depth=2)
    table = pdnkit.to_arrow(records)
    assert table.num_rows == len(records)
    assert table.schema.field("games").type == pa.uint64()
    # Every field of every record is a column, and reads back as it was.
    for rec, row in zip(records, table.to_pylist()):
        assert set(rec) <= set(row)
        assert {k: row[k] for k in rec} == rec
    assert pdnkit.to_arrow([]).num_rows == 0
    assert len(pdnkit.to_pandas(records)) == len(records)


def test_the_index_reads_in_pyarrow_as_explore_counts(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    hand = CORPUS / "explore" / "hand.pdn"
    index = tmp_path / "hand.parquet"
    subprocess.run([cli(), "index", "--no-progress", "-o", str(index), str(hand)], check=True, capture_output=True)
    table = pq.read_table(index).to_pylist()
    for rec in pdnkit.explore(hand, depth=3):
        if rec["type"] == "position":
            rows = [r for r in table if r["position"] == rec["position"]]
            assert sum(r["games"] for r in rows) == rec["games"]
        else:
            (row,) = [r for r in table if r["position"] == rec["position"] and r["move"] == rec["move"]]
            assert (row["games"], row["white_wins"], row["black_wins"]) == (
                rec["games"],
                rec["white_wins"],
                rec["black_wins"],
            )


def test_explore_refuses_what_does_not_fit():
    hand = CORPUS / "explore" / "hand.pdn"
    with pytest.raises(ValueError, match="99-1"):
        pdnkit.explore(hand, play="32-28 99-1")
    with pytest.raises(ValueError, match="depth"):
        pdnkit.explore(hand, depth=0)
    with pytest.raises(ValueError, match="position"):
        pdnkit.explore(hand, position="W:W99:B1")


def test_material_selects_the_games_that_reach_it_as_the_command_line():
    # Issue 67 item 3: three kings against one (White's in round 1, Black's
    # in round 2); a man each in round 3.
    data = (
        b'[Round "1"]\n[GameType "20"]\n[FEN "W:W6,K20,K30:BK45"]\n1. 6-1 45-50 *\n\n'
        b'[Round "2"]\n[GameType "20"]\n[FEN "W:WK5:BK21,K31,45"]\n1. 5-10 45-50 *\n\n'
        b'[Round "3"]\n[GameType "20"]\n[FEN "W:W28:B23"]\n1. 28-22 *\n'
    )
    games = lambda c: [g["game"] for g in c.games]
    assert games(pdnkit.check(data)) == [1, 2, 3]
    assert games(pdnkit.check(data, material="3K:1K")) == [1]
    assert games(pdnkit.check(data, material="3K:1K", material_either=True)) == [1, 2]
    assert games(pdnkit.check(data, material=["1K:3K", "1M:1M"])) == [2, 3]
    with pytest.raises(ValueError, match="material"):
        pdnkit.check(data, material="3K")


def test_material_reached_after_a_capture_selects_as_the_command_line(tmp_path):
    """The material a game reaches only after its first ply (a capture)
    selects it, in check and read_games as on the command line: the
    positions of the main line are replayed for it, not only its start."""
    data = (
        b'[Round "1"]\n[GameType "20"]\n[FEN "W:W28,K50:B23,K5"]\n1. 28x19 *\n\n'
        b'[Round "2"]\n[GameType "20"]\n[FEN "W:W28,K50:B22,K5"]\n1. 28-23 *\n'
    )
    path = tmp_path / "caps.pdn"
    path.write_bytes(data)
    games, _ = cli_check(path, "--material", "1K1M:1K")
    assert [g["game"] for g in games] == [1]
    assert [g["game"] for g in pdnkit.check(data, material="1K1M:1K").games] == [1]
    assert [g.index for g in pdnkit.read_games(data, material="1K1M:1K")] == [1]
    assert [g.index for g in pdnkit.read_games(data, material="1K:1K1M", material_either=True)] == [1]
    assert [g.index for g in pdnkit.read_games(data)] == [1, 2]
    with pytest.raises(ValueError, match="material"):
        list(pdnkit.read_games(data, material="9Q"))


def test_a_missing_file_is_an_os_error_with_its_name():
    with pytest.raises(OSError) as e:
        pdnkit.check("no/such/file.pdn")
    assert e.value.filename == "no/such/file.pdn"
    with pytest.raises(OSError):
        list(pdnkit.read_games("no/such/file.pdn"))


def test_read_games_gives_tags_moves_results_and_findings():
    games = list(pdnkit.read_games(CORPUS / "brazilian" / "faults.pdn"))
    assert [g.index for g in games] == list(range(1, len(games) + 1))
    cli_games, _ = cli_check(CORPUS / "brazilian" / "faults.pdn")
    for g, c in zip(games, cli_games):
        assert g.tags == c["tags"]
        assert g.line == c["line"]
        assert g.result == c["declared_result_text"]
    # A reader finding has its place.
    text = b'[Event "x"]\n1. 32-28 {never closed\n'
    (g,) = pdnkit.read_games(text)
    assert g.moves == ["32-28"]
    assert g.findings[0]["code"] == "unterminated-comment"
    assert (g.findings[0]["line"], g.findings[0]["column"]) == (2, 10)
    # An encoding named decodes the whole input.
    latin = '[White "Jos\u00e9"]\n1. 32-28 *\n'.encode("cp1252")
    (g,) = pdnkit.read_games(latin, encoding="cp1252")
    assert g.tags["White"] == "Jos\u00e9"


def test_positions_agree_with_the_conformance_data():
    n = 0
    for line in (DATA / "positions.jsonl").read_text().splitlines()[:120]:
        case = json.loads(line)
        p = pdnkit.Position.from_fen(case["fen"], case["variant"])
        assert len(p.legal_moves()) == case["count"], case["fen"]
        # Every legal move plays, and the position after it has a FEN that reads back.
        for m in p.legal_moves():
            after = p.play(m)
            assert pdnkit.Position.from_fen(after.fen(), case["variant"]) == after
        n += 1
    assert n > 50


def test_perft_agrees_with_the_conformance_data():
    for line in (DATA / "perft.jsonl").read_text().splitlines():
        case = json.loads(line)
        if case["nodes"] > 200_000:
            continue
        assert pdnkit.perft(case["fen"], case["variant"], case["depth"]) == case["nodes"], case
    assert pdnkit.perft(None, "english", 6) == 36768


def test_play_refuses_an_ambiguous_move():
    # Issue 55: two captures fit 2x6; play took the first. It raises, naming
    # both, and the full path settles it.
    p = pdnkit.Position.from_fen("B:WK4,K7,9,K10,K15,17,19:BK2,K5,20,24,25", "brazilian")
    with pytest.raises(pdnkit.IllegalMoveError, match="ambiguous: it fits .* and "):
        p.play("2x6")
    assert p.play("2x11x22x13x6").side == "white"


def test_play_refuses_with_the_reason():
    p = pdnkit.Position.from_fen("W:W27:B23,14", "brazilian")
    with pytest.raises(pdnkit.IllegalMoveError, match="capturing is compulsory"):
        p.play("27-24")
    after = p.play("27x18x9")
    assert after.side == "black" and after.fen().startswith("B:")
    with pytest.raises(pdnkit.FenError) as e:
        pdnkit.Position.from_fen("W:W99:B1", "brazilian")
    assert e.value.offset == 3
    assert "<svg" in p.to_svg(flip=True)
    assert pdnkit.variants() == [
        "brazilian", "international", "canadian", "russian", "english", "czech", "italian", "frisian", "frysk",
        "antidraughts", "breakthrough", "turkish",
    ]
    # Turkish: all 64 squares, by name; a captured piece leaves as it is jumped (RULES.md 12).
    t = pdnkit.Position.from_fen("W:Wd4,Ke1:Bd5,c6,b7", "turkish")
    assert t.legal_moves() == ["d4xb8"]
    assert pdnkit.perft(None, "turkish", 4) == 7538
    with pytest.raises(pdnkit.FenError):
        pdnkit.Position.from_fen("W:W20:Ba7", "turkish")
    # Antidraughts: the side left without a move has won (RULES.md 13).
    anti = pdnkit.check(b'[GameType "98"]\n[FEN "B:W28:B23"]\n[Result "2-0"]\n\n1... 23x32 2-0\n')
    assert [(g["computed_result"], g["termination"], g["valid"]) for g in anti.games] == [("2-0", "no-moves", True)]
    assert pdnkit.perft(None, "breakthrough", 3) == 658
    # Frisian: a man captures along the row (RULES.md 10).
    f = pdnkit.Position.from_fen("W:W33:B34", "frisian")
    assert f.legal_moves() == ["33x35"]
    assert f.play("33x35").fen() == "B:W35:B"
    assert pdnkit.perft(None, "frysk", 3) == 657


def test_check_batch_has_the_parquet_types():
    pa = pytest.importorskip("pyarrow")
    texts = pa.array([(CORPUS / "russian" / "clean.pdn").read_text(), (CORPUS / "brazilian" / "faults.pdn").read_text()])
    batch = pdnkit.check_batch(texts, names=pa.array(["r.pdn", "b.pdn"]))
    assert isinstance(batch, pa.RecordBatch)
    assert batch.schema.field("game").type == pa.int64()
    assert batch.schema.field("date").type == pa.date32()
    assert batch.schema.field("valid").type == pa.bool_()
    assert pa.types.is_list(batch.schema.field("diagnostics").type)
    want = len(pdnkit.check(CORPUS / "russian" / "clean.pdn").games) + len(pdnkit.check(CORPUS / "brazilian" / "faults.pdn").games)
    assert batch.num_rows == want
    assert set(batch.column("file").to_pylist()) == {"r.pdn", "b.pdn"}


def test_to_pandas():
    pytest.importorskip("pandas")
    df = pdnkit.to_pandas(pdnkit.check(CORPUS / "brazilian" / "faults.pdn"))
    assert len(df) == 9 and "valid" in df.columns


def test_variant_named_for_some_files_as_on_the_command_line():
    """Issue 37: ``variant`` takes NAME, 'GLOB=NAME' or a list, with the
    command line's meaning; a variant is applied only where the board fits."""
    # One capture of two: legal under russian, not under brazilian (the default).
    text = b'[FEN "W:W26,31:B22,27,14"]\n1. 31x24 *\n\n[FEN "W:W26,31:B22,27,14"]\n1. 26x10 *\n\n[FEN "W:W26,31:B22,27,14"]\n1. 26x10 *\n'
    refused = pdnkit.check(text, name="club/movetexts.pdn")
    assert [g["variant_source"] for g in refused.games] == ["refused"] * 3
    message = refused.findings[0]["message"]
    assert "--variant 'movetexts.pdn=russian'" in message, message
    for variant in ["*texts.pdn=russian", ["czech", "movetexts.pdn=russian"], "russian"]:
        named = pdnkit.check(text, name="club/movetexts.pdn", variant=variant)
        assert [(g["variant"], g["valid"]) for g in named.games] == [("russian", True)] * 3, variant
    # A 10x10 game keeps its board: the named variant is not applied.
    ten = pdnkit.check(b'[Event "a"]\n1. 33-28 18-23 *\n', variant="czech")
    assert ten.games[0]["variant"] == "international"
    assert any("was not applied" in f["message"] for f in ten.findings)
    # The folders below the PATH named are evidence, as on the command line.
    ballot = b'[FEN "W:W21:B1"]\n*\n'
    assert pdnkit.check(ballot, name="archive/czech/a.pdn").games[0]["variant_source"] == "undecided"
    found = pdnkit.check(ballot, name="archive/czech/a.pdn", root="archive")
    assert (found.games[0]["variant"], found.games[0]["variant_source"]) == ("czech", "inferred")


def test_the_namespace_holds_what_all_names():
    """Issue 44: ``dir(pdnkit)`` lists ``__all__``, not ``Any`` or ``os``."""
    assert dir(pdnkit) == sorted(pdnkit.__all__)
    assert "os" not in dir(pdnkit) and "Any" not in dir(pdnkit)
    for name in pdnkit.__all__:
        assert hasattr(pdnkit, name), name
    # And the typed stubs declare each of them.
    stubs = (pathlib.Path(pdnkit.__file__).parent / "__init__.pyi").read_text()
    for name in pdnkit.__all__:
        assert f"def {name}(" in stubs or f"class {name}" in stubs or f"{name}:" in stubs, name


def test_irregularities_stand_as_the_command_line(tmp_path):
    # c3xa5 takes 1 piece where a3xa7 takes 2: it stands, and the game as
    # played ends 2-0, against the 1-1 written.
    text = '[GameType "26"]\n[FEN "W:W22,21:B6,17,9"]\n[Result "1-1"]\n1. c3xa5 c7-d6 2. a5xe5 1-1\n'
    path = tmp_path / "otb.pdn"
    path.write_text(text)
    stop = pdnkit.check(path)
    stand = pdnkit.check(path, irregularities="stand")
    assert [(g["plies"], g["plies_unchecked"], g["irregularities"]) for g in stop.games] == [(0, 2, 0)]
    assert [(g["plies"], g["plies_unchecked"], g["irregularities"], g["computed_result"]) for g in stand.games] == [
        (3, 0, 1, "2-0")
    ]
    codes = [d["code"] for d in stand.games[0]["diagnostics"]]
    assert codes == ["non-maximal-capture", "result-mismatch"]
    assert "it stood" in stand.games[0]["diagnostics"][0]["message"]
    out = subprocess.run(
        [cli(), "check", "--no-progress", "--format", "json", "--irregularities", "stand", str(path)],
        capture_output=True, text=True,
    )
    games = [json.loads(line) for line in out.stdout.splitlines()]
    assert [g for g in games if g["type"] == "game"] == stand.games
    with pytest.raises(ValueError, match="irregularities"):
        pdnkit.check(path, irregularities="rectify")


def test_the_games_table_is_the_parquet_games_table(tmp_path):
    """Issue 39: one schema. ``check_batch`` and ``to_arrow`` have the
    Parquet games table's columns, types and nullability, and the same
    values, row by row, as ``pdnkit convert --to parquet`` writes."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    folder = CORPUS / "brazilian"
    out = tmp_path / "games.parquet"
    subprocess.run([cli(), "convert", "--no-progress", "--to", "parquet", "-o", str(out), str(folder)], check=True)
    written = pq.read_table(out)
    mine = pa.Table.from_batches([pdnkit.to_arrow(pdnkit.check(folder))])
    assert [(f.name, f.type, f.nullable) for f in mine.schema] == [(f.name, f.type, f.nullable) for f in written.schema]
    assert mine.to_pylist() == written.to_pylist()
    batch = pdnkit.check_batch(pa.array([(folder / "faults.pdn").read_text()]), names=pa.array(["faults.pdn"]))
    assert batch.schema == pdnkit._schema()
    assert batch.num_rows == sum(1 for g in written.column("file").to_pylist() if g.endswith("faults.pdn"))
    captures = batch.column("captures").to_pylist()
    assert any(c > 0 for c in captures), "the moves are kept: captures are counted"


def test_check_batch_counts_moves_that_stood():
    pa = pytest.importorskip("pyarrow")
    text = '[GameType "26"]\n[FEN "W:W22,21:B6,17,9"]\n1. c3xa5 c7-d6 2. a5xe5 *\n'
    batch = pdnkit.check_batch(pa.array([text]), irregularities="stand")
    assert batch.column("irregularities").to_pylist() == [1]
    assert batch.schema.field("irregularities").type == pa.int32()


def _every_kind_of_input(tmp: pathlib.Path) -> list:
    """corpus/ as a folder, a plain file, each compression Python writes, a
    zip and a tar.gz of it, a binary file, and a folder of all of these."""
    import bz2
    import gzip
    import lzma
    import shutil
    import tarfile
    import zipfile

    tree = tmp / "tree"
    shutil.copytree(CORPUS, tree)
    one = tree / "russian" / "clean.pdn"
    data = one.read_bytes()
    out = [tree, one]
    for ext, pack in [("gz", gzip.compress), ("bz2", bz2.compress), ("xz", lzma.compress)]:
        p = tmp / f"one.pdn.{ext}"
        p.write_bytes(pack(data))
        out.append(p)
    files = sorted(f for f in tree.rglob("*") if f.is_file())
    zpath = tmp / "corpus.zip"
    with zipfile.ZipFile(zpath, "w", zipfile.ZIP_DEFLATED) as z:
        for f in files:
            z.write(f, str(f.relative_to(tree)))
    tpath = tmp / "corpus.tar.gz"
    with tarfile.open(tpath, "w:gz") as t:
        for f in files:
            t.add(f, str(f.relative_to(tree)))
    binary = tmp / "binary.pdn"
    binary.write_bytes(bytes([0, 1, 2, 3, 0, 255]) * 100)
    mixed = tmp / "mixed"
    mixed.mkdir()
    for p in [zpath, tpath, binary]:
        shutil.copy(p, mixed / p.name)
    return out + [zpath, tpath, binary, mixed]


def test_check_answers_as_the_command_line_on_every_kind_of_input(tmp_path):
    """The same pipeline: game by game and finding by finding, on folders,
    compressed files, archives and binary files (issue 39)."""
    kinds = _every_kind_of_input(tmp_path)
    for path in kinds:
        games, findings = cli_check(path)
        checked = pdnkit.check(path)
        assert checked.games == games, path
        assert checked.findings == findings, path
    assert len(kinds) == 9
    # The compressed file is read as its text, not as its bytes.
    plain = pdnkit.check(CORPUS / "russian" / "clean.pdn").games
    packed = pdnkit.check(tmp_path / "one.pdn.gz").games
    assert [g["valid"] for g in packed] == [g["valid"] for g in plain] and len(plain) == 5
    # Bytes are read as the file they hold.
    assert len(pdnkit.check((tmp_path / "one.pdn.gz").read_bytes()).games) == 5
    # A binary file is skipped, with its reason; a folder holds it among the rest.
    binary = pdnkit.check(tmp_path / "binary.pdn")
    assert binary.games == [] and binary.skipped[0]["reason"].startswith("binary file")
    members = {g["file"] for g in pdnkit.check(tmp_path / "mixed").games}
    assert any("corpus.zip!" in f for f in members) and any("corpus.tar.gz!" in f for f in members)
    # read_games reads the same games through the same pipeline.
    read = list(pdnkit.read_games(tmp_path / "corpus.zip"))
    assert [(g.file, g.index) for g in read] == [
        (g["file"], g["game"]) for g in pdnkit.check(tmp_path / "corpus.zip").games
    ]


def test_check_of_dev_zero_ends_with_a_reason():
    checked = pdnkit.check("/dev/zero")
    assert checked.games == []
    assert checked.skipped[0]["reason"].startswith("binary file")


def test_a_long_read_is_interrupted_by_ctrl_c(tmp_path):
    """A read that would never end (a FIFO fed forever): SIGINT raises
    KeyboardInterrupt within a second, from check and from read_games."""
    import signal
    import threading
    import time

    game = (CORPUS / "russian" / "clean.pdn").read_bytes()
    # A handler that raises KeyboardInterrupt as Python's own does, while
    # armed: what is tested is pdnkit's answer to it. SIGINT is sent every
    # quarter second from the first: Python may run the handler inside its
    # own code between two games of read_games (a weakref callback), which
    # swallows the exception ("Exception ignored in ..."), not pdnkit's doing.
    armed = [True]

    def handler(signum, frame):
        if armed[0]:
            raise KeyboardInterrupt

    before = signal.signal(signal.SIGINT, handler)
    try:
        for call in (lambda p: pdnkit.check(p), lambda p: list(pdnkit.read_games(p))):
            armed[0] = True
            fifo = tmp_path / f"endless-{time.monotonic_ns()}.pdn"
            os.mkfifo(fifo)
            stop = threading.Event()

            def feed():
                # Fed for 10 seconds at most: a call that misses the signal
                # then ends, and the test fails instead of hanging.
                end = time.monotonic() + 10
                try:
                    with open(fifo, "wb") as w:
                        while not stop.is_set() and time.monotonic() < end:
                            w.write(game * 50)
                except (BrokenPipeError, OSError):
                    pass

            writer = threading.Thread(target=feed, daemon=True)
            writer.start()
            sent = []

            def ring():
                if stop.wait(1.0):
                    return
                while not stop.is_set():
                    sent.append(time.monotonic())
                    os.kill(os.getpid(), signal.SIGINT)
                    stop.wait(0.25)

            ringer = threading.Thread(target=ring, daemon=True)
            ringer.start()
            with pytest.raises(KeyboardInterrupt):
                call(fifo)
            armed[0] = False
            raised = time.monotonic()
            stop.set()
            ringer.join(timeout=5)
            assert sent and raised - sent[0] < 1.0, raised - sent[0]
            writer.join(timeout=5)
    finally:
        signal.signal(signal.SIGINT, before)


def test_dates_are_read_as_the_library_reads_them():
    """One Date reader (issue 41): check_batch's date column is the
    library's reading, day-first dates included, no year for 03.07.20."""
    pa = pytest.importorskip("pyarrow")
    text = lambda d: f'[Date "{d}"]\n[GameType "20"]\n1. 32-28 *\n'.encode()
    texts = pa.array([text("2016.05.29"), text("25.11.2000"), text("03.07.20"), text("0000.00.00")])
    dates = pdnkit.check_batch(texts).column("date").to_pylist()
    import datetime

    assert dates == [datetime.date(2016, 5, 29), datetime.date(2000, 11, 25), None, None]


def test_an_archive_member_is_a_path_as_the_command_line_prints_it(tmp_path):
    """Issue 44: ``ARCHIVE!MEMBER`` reads that member alone, game by game and
    finding by finding as ``pdnkit check`` reads it; a member not there is
    an error that lists the members."""
    import zipfile

    archive = tmp_path / "a.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for name in ["clean.pdn", "faults.pdn"]:
            z.write(CORPUS / "brazilian" / name, name)
    member = f"{archive}!faults.pdn"
    games, findings = cli_check(member)
    checked = pdnkit.check(member)
    assert checked.games == games and games
    assert {g["file"] for g in checked.games} == {member}
    missing = pdnkit.check(f"{archive}!nope.pdn")
    assert missing.errors and "clean.pdn, faults.pdn" in missing.errors[0]["message"]


def test_keywords_read_a_path_as_the_command_line_does(tmp_path):
    """Issue 54 item 4: a compressed file or an archive is read by its
    content whatever the keywords. ``encoding=`` (which decodes plain text)
    on one is a ValueError that says why, never an empty answer; ``name=``
    and ``root=`` read it as without them."""
    import gzip
    import zipfile

    text = '[Event "Чемпионат"]\n[GameType "25"]\n1. c3-d4 *\n'.encode("cp1251")
    gz = tmp_path / "ru.pdn.gz"
    gz.write_bytes(gzip.compress(text))
    archive = tmp_path / "ru.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("ru.pdn", text)
    for path, what in ((gz, "gzip"), (archive, "zip")):
        with pytest.raises(ValueError, match=what):
            list(pdnkit.read_games(str(path), encoding="cp1251"))
        with pytest.raises(ValueError, match="encoding= decodes plain text"):
            list(pdnkit.read_games(path.read_bytes(), encoding="cp1251"))
        plain = pdnkit.check(str(path))
        assert len(plain.games) == 1
        named = pdnkit.check(str(path), name="renamed.pdn", root=str(tmp_path))
        assert [g["computed_result"] for g in named.games] == [g["computed_result"] for g in plain.games]
        assert named.games[0]["variant"] == plain.games[0]["variant"] == "russian"
    with pytest.raises(ValueError, match="member of an archive"):
        pdnkit.check(f"{archive}!ru.pdn", root=str(tmp_path))
    # Plain text still takes its encoding.
    plain = tmp_path / "ru.pdn"
    plain.write_bytes(text)
    (g,) = pdnkit.read_games(str(plain), encoding="cp1251")
    assert g.tags["Event"] == "Чемпионат"


@pytest.mark.parametrize("call", ["fifo", "stdin", "perft"])
def test_ctrl_c_stops_a_call_that_waits_or_counts_within_a_second(tmp_path, call):
    """Issue 54 item 5: ``check`` of a FIFO with no writer, of an idle
    standard input, and ``perft(None, "international", 12)`` raise
    KeyboardInterrupt within a second of SIGINT (run in a child Python)."""
    import signal
    import sys
    import time

    fifo = tmp_path / "no-writer.pdn"
    os.mkfifo(fifo)
    code = {
        "fifo": f"pdnkit.check({str(fifo)!r})",
        "stdin": "pdnkit.check('/dev/stdin')",
        "perft": "pdnkit.perft(None, 'international', 12)",
    }[call]
    script = (
        "import sys, time, pdnkit\n"
        "print('ready', flush=True)\n"
        "try:\n"
        f"    {code}\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', time.monotonic(), flush=True)\n"
        "    sys.exit(0)\n"
        "sys.exit(3)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "ready"
    time.sleep(0.5)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    try:
        out, _ = child.communicate(timeout=5)
    except subprocess.TimeoutExpired:
        child.kill()
        raise AssertionError(f"{call}: Ctrl-C was ignored")
    assert child.returncode == 0, out
    word, at = out.split()
    assert word == "interrupted" and float(at) - sent < 1.0, out


def test_play_line_settles_an_ambiguous_capture_by_lookahead():
    """Issue 55 item 5: ``play_line`` plays written moves as ``check``
    replays them, settling a short capture that fits several by the moves
    after it (RULES.md 5.3), where ``play`` refuses it. On the real games
    whose ambiguity ``check`` settles, every position after every move is
    the one ``convert --moves --fen`` gives; alone, the move stays
    ambiguous and raises."""
    p = pdnkit.Position.from_fen("B:WK4,K7,9,K10,K15,17,19:BK2,K5,20,24,25", "brazilian")
    with pytest.raises(pdnkit.IllegalMoveError, match="move 1"):
        p.play_line(["2x6"])
    assert [q.side for q in p.play_line(["2x11x22x13x6"])] == ["white"]
    with pytest.raises(ValueError, match="is not a move"):
        p.play_line(["2x6 {"])
    real = ROOT.parent / "shared" / "corpus" / "real"
    if not real.exists():
        if os.environ.get("CI") == "true":
            raise AssertionError(f"{real} is missing")
        pytest.skip(f"SKIP: {real} is not here")
    settled = 0
    for name in ["international/wiegerw__schildpad.pdn", "other/wiegerw__Tricks traps and shots.pdn"]:
        path = real / name
        checked = {g["game"]: g for g in pdnkit.check(str(path)).games}
        plies = subprocess.run([cli(), "convert", "--no-progress", "--to", "csv", "--csv-raw", "--moves", "--fen", str(path)],
                               capture_output=True, text=True).stdout
        import csv
        import io

        fens: dict = {}
        for row in csv.DictReader(io.StringIO(plies)):
            fens.setdefault(int(row["game"]), []).append(row["fen"])
        for g in pdnkit.read_games(str(path)):
            record = checked[g.index]
            codes = {(d["code"], d["severity"]) for d in record["diagnostics"]}
            if ("ambiguous-capture", "warning") not in codes or not record["valid"]:
                continue
            start = g.tags.get("FEN")
            pos = pdnkit.Position.from_fen(start, record["variant"]) if start else pdnkit.Position.start(record["variant"])
            line = pos.play_line(g.moves)
            assert [q.fen() for q in line] == fens[g.index], (name, g.index)
            settled += 1
    assert settled >= 3


def test_check_takes_opening_tables_as_the_command_line_does(tmp_path):
    games = CORPUS / "russian" / "micro-matches.pdn"

    def codes(checked):
        return [(r["opening_table"], r["opening_code"]) for r in checked._rows]

    default = codes(pdnkit.check(games))
    assert any(t is not None for t, _ in default)
    # The same answers as the command line's, table by table.
    for table in [None, "idf-150", "none"]:
        args = ["--opening-table", table] if table else []
        cli_games, _ = cli_check(games, *args)
        want = [(g["opening"] or {}).get("code") for g in cli_games]
        got = [c for _, c in codes(pdnkit.check(games, opening_table=table))]
        assert got == want, table
    assert all(c == (None, None) for c in codes(pdnkit.check(games, opening_table="none")))
    # A user's table: its good rows classify, each bad row is a warning.
    mine = tmp_path / "mine.csv"
    mine.write_text(
        "# table: my-ballots\n# variants: russian\ncode,moves\nA1,21-17 9-13\nBAD,21-17 21-17\n"
    )
    with pytest.warns(UserWarning, match=r"mine\.csv: row 2 \(line 5\)"):
        checked = pdnkit.check(games, opening_table=mine)
    assert {t for t, _ in codes(checked)} <= {"my-ballots", None}
    with pytest.raises(ValueError, match="'eco' is no opening table"):
        pdnkit.check(games, opening_table="eco")


def test_an_edited_opening_table_loads_again_in_one_process(tmp_path):
    # Issue 63 item 14 (issue 61 item 2): no table outlives its call. The
    # same file, edited, gives its new rows in the next call of the same
    # process; a table read once is not kept, nor named, afterwards.
    games = CORPUS / "russian" / "micro-matches.pdn"
    mine = tmp_path / "mine.csv"

    def codes(checked):
        return {r["opening_code"] for r in checked._rows if r["opening_table"] == "mine"}

    mine.write_text("# table: mine\n# variants: russian\ncode,moves\nOLD,21-17 9-13\n")
    assert codes(pdnkit.check(games, opening_table=mine)) == {"OLD"}
    mine.write_text("# table: mine\n# variants: russian\ncode,moves\nNEW,21-17 9-13\n")
    assert codes(pdnkit.check(games, opening_table=mine)) == {"NEW"}
    assert codes(pdnkit.check(games)) == set()
    with pytest.raises(ValueError, match="'mine' is no opening table"):
        pdnkit.check(games, opening_table="mine")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_table_on_a_fifo_blocks_no_other_thread(tmp_path):
    # Issue 63 item 7: the table is read with the GIL released. A call whose
    # opening table is a FIFO nobody writes yet waits on its own thread;
    # another thread runs Python meanwhile and then feeds the FIFO, and the
    # call ends with the table's rows. With the GIL held, the feeding thread
    # would never run: the child process is killed by the timeout instead.
    script = tmp_path / "fifo.py"
    fifo = tmp_path / "table.csv"
    os.mkfifo(fifo)
    script.write_text(
        textwrap.dedent(
            f"""
            import threading, time, pdnkit
            games = {str(CORPUS / "russian" / "micro-matches.pdn")!r}
            fifo = {str(fifo)!r}
            out = {{}}
            def call():
                out["rows"] = pdnkit.check(games, opening_table=fifo)._rows
            t = threading.Thread(target=call)
            t.start()
            ticks = 0
            for _ in range(20):
                time.sleep(0.01)
                ticks += 1
            with open(fifo, "w") as f:
                f.write("# table: piped\\n# variants: russian\\ncode,moves\\nP1,21-17 9-13\\n")
            t.join()
            codes = {{r["opening_code"] for r in out["rows"] if r["opening_table"] == "piped"}}
            print(ticks, sorted(codes))
            """
        )
    )
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["20", "['P1']"]
