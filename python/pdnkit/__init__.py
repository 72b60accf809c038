"""pdnkit: read, replay and check draughts game records (PDN).

Brazilian, international, Canadian, Russian, Czech, Italian and Frisian
draughts and English checkers, with the same answers as the ``pdnkit``
command line: the same library pipeline underneath (``pdnkit::batch``), which
reads a path as the command line reads a PATH (folders, archives, compressed
streams, binary files skipped), decides each file's variant and checks it.

>>> import pdnkit
>>> checked = pdnkit.check(b'[GameType "20"]\\n1. 32-28 19-23 2. 28x19 14x23 *\\n')
>>> checked.games[0]["valid"]
True
"""
from __future__ import annotations

import json
import os
import warnings
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Union

from . import _pdnkit
from ._pdnkit import FenError, IllegalMoveError

__all__ = [
    "Game",
    "Checked",
    "Position",
    "FenError",
    "IllegalMoveError",
    "read_games",
    "check",
    "check_batch",
    "explore",
    "index",
    "merge_index",
    "files",
    "to_arrow",
    "perft",
    "to_pandas",
    "variants",
    "__version__",
]

__version__: str = _pdnkit.__version__

Source = Union[str, "os.PathLike[str]", bytes, bytearray]


@dataclass(frozen=True)
class Game:
    """A game as read: its tags, its main-line moves as written, the result
    it declares, where it starts, and the reader's findings (syntax level)."""

    file: str
    index: int
    line: int
    tags: Dict[str, str]
    moves: List[str]
    result: Optional[str]
    findings: List[Dict[str, Any]] = field(default_factory=list)


def read_games(
    source: Source,
    *,
    encoding: Optional[str] = None,
    material: Union[None, str, Sequence[str]] = None,
    material_either: bool = False,
) -> Iterator[Game]:
    """The games of a path or of bytes, one at a time, read as
    ``pdnkit check --syntax-only`` reads them: a folder's files in name order,
    an archive's members, a compressed stream decoded, binary files skipped.

    ``encoding`` (a label such as ``"cp1252"`` or ``"koi8-r"``) decodes the
    whole input first (a file, or bytes); by default the encoding is told game
    by game, as the command line does. Raises ``OSError`` (with the file
    name) when the source cannot be read; a game that cannot be read whole is
    still a game, with its findings. Reading runs on a thread of its own,
    without the GIL; Ctrl-C raises ``KeyboardInterrupt``.

    ``material`` (``"3K:1K"``, a list: any one) and ``material_either``: only
    the games whose main line reaches that material, as ``--material`` and
    ``--material-either`` select them (docs/select.md). To see the positions
    a game reaches, each game is then replayed as :func:`check` replays it
    (and its findings are still those of reading).
    """
    (materials,) = _lists(material)
    for g in _pdnkit.read_games(source, encoding, materials, material_either):
        yield Game(**g)


@dataclass(frozen=True)
class Checked:
    """A source checked: one report per game, with the fields of
    ``pdnkit check --format json`` (docs/json.md); the findings about its
    files (``unknown-variant``, ``variant-inferred``, ..., each with its
    ``file``); the files that could not be read, or not to their end
    (``{"file", "message"}``: the games before the break are in ``games``);
    and the files skipped (``{"file", "reason"}``: binary, another format)."""

    games: List[Dict[str, Any]]
    findings: List[Dict[str, Any]]
    errors: List[Dict[str, Any]] = field(default_factory=list)
    skipped: List[Dict[str, Any]] = field(default_factory=list)
    # Each game's row of the games table (the library's one definition),
    # for to_arrow and check_batch.
    _rows: List[Dict[str, Any]] = field(default_factory=list, repr=False, compare=False)

    @property
    def valid(self) -> bool:
        """Every game read, checked and without an error finding, and every
        file read to its end."""
        return (
            not self.errors
            and all(g["valid"] is True for g in self.games)
            and not any(f["severity"] == "error" for f in self.findings)
        )


def check(
    source: Source,
    *,
    variant: Union[str, Sequence[str]] = "auto",
    draw_rules: str = "auto",
    levels: Optional[Mapping[str, str]] = None,
    name: Optional[str] = None,
    root: Optional[str] = None,
    irregularities: str = "stop",
    opening_table: Union[None, str, Sequence[str]] = None,
    strict_dialects: bool = False,
    material: Union[None, str, Sequence[str]] = None,
    material_either: bool = False,
) -> Checked:
    """Check a path or bytes as ``pdnkit check`` does, through the same
    pipeline: a folder is walked, an archive's members and a compressed
    stream are read, a binary file is skipped (in ``skipped``), a read error
    keeps the games before it (in ``errors``). The same limits hold, the GIL
    is released while it runs, and Ctrl-C raises ``KeyboardInterrupt``.

    ``variant``: for games without a GameType tag, ``"auto"`` or a name of
    :func:`variants`, or ``"GLOB=NAME"`` for the files whose name (or path)
    the glob matches, or a list of these: the meaning of the command line's
    repeated ``--variant``; a variant is applied only to a file whose board
    fits it; ``draw_rules``: ``"auto"``, ``"cbjd"`` or ``"fmjd"``;
    ``irregularities``: ``"stop"`` (the first move error stops a game's
    replay) or ``"stand"`` (an irregularity that could stand is played and
    the replay goes on, as ``--irregularities stand``; each game's
    ``irregularities`` counts the moves that stood);
    ``levels``: ``{code or "errors"/"warnings"/"notes": "allow"|"warn"|"deny"}``
    as ``-A``/``-W``/``-D``; ``name``: the file name the reports carry;
    ``root``: the PATH the file was named under when it was found in a folder
    (the words of the folders below it are evidence of the variant, as on the
    command line; by default the file itself);
    ``opening_table``: as ``--opening-table``, a table's name (``"fmjd-64"``),
    a user's table file (``.csv`` or ``.pdn``, docs/openings.md), ``"none"``,
    or a list of these, in order; a table that cannot be used raises
    ``ValueError``, and each row of a user's table left out is a
    ``UserWarning`` naming the file, the row and why;
    ``strict_dialects``: as ``--strict-dialects``, every record read as
    standard PDN (no producer's dialect read as meant, no ``dialect``
    finding; docs/dialect.md);
    ``material``: as ``--material``, a SPEC (``"3K:1K"``) or a list of them
    (any one), and ``material_either`` as ``--material-either``: only the
    games whose main line reaches that material (docs/writing.md), with the
    findings of the files that gave one; a SPEC that cannot be read raises
    ``ValueError``.
    """
    if not isinstance(variant, str):
        variant = list(variant)
    if isinstance(opening_table, (str, os.PathLike)):
        opening_table = [os.fspath(opening_table)]
    elif opening_table is not None:
        opening_table = [os.fspath(t) for t in opening_table]
    if isinstance(material, str):
        material = [material]
    elif material is not None:
        material = list(material)
    out = _pdnkit.check(
        source,
        variant,
        draw_rules,
        dict(levels) if levels else None,
        name,
        root,
        irregularities,
        opening_table,
        strict_dialects,
        material,
        material_either,
    )
    for w in out.pop("table_warnings"):
        warnings.warn(w, UserWarning, stacklevel=2)
    rows = out.pop("rows")
    return Checked(**out, _rows=rows)


def explore(
    source: Source,
    *,
    position: Optional[str] = None,
    play: Union[None, str, Sequence[str]] = None,
    depth: int = 1,
    variant: Union[str, Sequence[str]] = "auto",
    draw_rules: str = "auto",
    irregularities: str = "stop",
    player: Union[None, str, Sequence[str]] = None,
    event: Union[None, str, Sequence[str]] = None,
    material: Union[None, str, Sequence[str]] = None,
    material_either: bool = False,
    keep_duplicates: bool = False,
) -> List[Dict[str, Any]]:
    """The moves played from a position, with their results, as
    ``pdnkit explore --format json`` gives them, through the same pipeline:
    per position a record with ``"type": "position"`` (``variant``,
    ``position`` as FEN, ``line``, ``games``, ``white_wins``, ``draws``,
    ``black_wins``, ``unfinished``, ``score``, ``first_year``,
    ``last_year``, ``opening``, ``opening_name``, ``recent``), then one per
    move from it (``"type": "move"``, ``move``, the same counts, ``latest``),
    most played first (docs/explore.md).

    ``position``: a FEN (each variant it is a position of; by default the
    start of each variant present); ``play``: moves played from it first
    (``"32-28 18-23"`` or a list); ``depth``: plies of the tree (1 to 64);
    ``player``, ``event``, ``material``, ``material_either``: only the games
    ``--player``, ``--event``, ``--material`` and ``--material-either``
    select (a list: any one); ``keep_duplicates``: every copy of a game
    stored more than once in an event counts (by default once, as
    ``pdnkit stats`` counts it). ``variant``, ``draw_rules`` and
    ``irregularities`` as for :func:`check`. A bad argument raises
    ``ValueError``; files that cannot be read are warned of
    (``UserWarning``) and the others counted.

    :func:`to_arrow` makes the records a ``pyarrow.Table``.

    >>> rows = explore("archive/", play="32-28 18-23")  # doctest: +SKIP
    >>> [(r["move"], r["games"], r["score"]) for r in rows if r["type"] == "move"]  # doctest: +SKIP
    """
    if not isinstance(variant, str):
        variant = list(variant)
    if play is not None and not isinstance(play, str):
        play = " ".join(play)
    lists = _lists(player, event, material)
    out = _pdnkit.explore(
        source,
        position,
        play,
        depth,
        variant,
        draw_rules,
        irregularities,
        lists[0],
        lists[1],
        lists[2],
        material_either,
        keep_duplicates,
    )
    for e in out["errors"]:
        warnings.warn(f"{e['file']}: {e['message']}", UserWarning, stacklevel=2)
    return out["records"]


def _lists(*values: Union[None, str, Sequence[str]]) -> List[Optional[List[str]]]:
    """Each value as a list (a string: a list of one), ``None`` kept."""
    return [[v] if isinstance(v, str) else (None if v is None else list(v)) for v in values]


def _index_schema(plies: int, variants: Sequence[str]) -> Any:
    """The position index's columns (the library's one definition,
    ``stats::Explorer::INDEX_TABLE``) with the metadata entry that makes a
    Parquet file an index ``pdnkit explore --index`` reads."""
    import pyarrow as pa

    types = {"string": pa.string(), "uint64": pa.uint64(), "uint32": pa.uint32()}
    fields = [pa.field(n, types[t], nullable) for n, t, nullable in _pdnkit.index_table()]
    meta = {"version": 1, "plies": plies, "variants": list(variants)}
    return pa.schema(fields, metadata={"pdnkit.index": json.dumps(meta)})


def index(
    source: Source,
    *,
    plies: int = 40,
    part: int = 0,
    root: Optional[str] = None,
    variant: Union[str, Sequence[str]] = "auto",
    draw_rules: str = "auto",
    irregularities: str = "stop",
    player: Union[None, str, Sequence[str]] = None,
    event: Union[None, str, Sequence[str]] = None,
    material: Union[None, str, Sequence[str]] = None,
    material_either: bool = False,
    keep_duplicates: bool = False,
) -> Any:
    """The position index of a source as ``pdnkit index --index-plies
    PLIES`` makes it, as a ``pyarrow.Table`` in the columns of the index
    file (docs/explore.md) with its ``pdnkit.index`` metadata:
    ``pyarrow.parquet.write_table(table, "games.index.parquet")`` writes a
    file ``pdnkit explore --index`` answers from.

    For an archive indexed in parts (one per file, on a cluster:
    ``examples/python/dask_index.py``), ``part`` is the part's place in the
    archive (0, 1, ...): parts merged with :func:`merge_index` then give
    the index of the whole, the newest games of one date in the archive's
    order. Copies of a game in one event are counted once within a part
    (``keep_duplicates``: every copy). ``root``: the PATH the file was
    found under, as for :func:`check` (:func:`files` gives it). Other
    keywords as :func:`explore`.
    Needs ``pip install "pdnkit[arrow]"``.
    """
    import pyarrow as pa

    if not 0 <= part < 2**31:
        raise ValueError("part: 0 to 2**31 - 1")
    if not isinstance(variant, str):
        variant = list(variant)
    players, events, materials = _lists(player, event, material)
    out = _pdnkit.index_part(
        source,
        plies,
        part << 32,
        root,
        variant,
        draw_rules,
        irregularities,
        players,
        events,
        materials,
        material_either,
        keep_duplicates,
    )
    for e in out["errors"]:
        warnings.warn(f"{e['file']}: {e['message']}", UserWarning, stacklevel=2)
    return pa.Table.from_pydict(out["columns"], schema=_index_schema(out["plies"], out["variants"]))


def _index_meta(table: Any) -> Dict[str, Any]:
    """What an index table says of itself (its ``pdnkit.index`` entry)."""
    meta = (table.schema.metadata or {}).get(b"pdnkit.index")
    if meta is None:
        raise ValueError("not a pdnkit index (no pdnkit.index metadata)")
    return json.loads(meta)


def merge_index(tables: Sequence[Any]) -> Any:
    """Index tables of parts of one archive (from :func:`index`, or read
    back with ``pyarrow.parquet.read_table``) merged by position key and
    move, as one run over their games makes them: counts summed, years
    widened, the four newest games kept. The parts must index as many plies
    (``ValueError`` otherwise, or for a row that is not an index row); the
    variants are those of any part. Returns a ``pyarrow.Table`` as
    :func:`index`."""
    import pyarrow as pa

    tables = list(tables)
    metas = [_index_meta(t) for t in tables]
    plies = {m.get("plies") for m in metas}
    if len(plies) > 1:
        raise ValueError(f"index parts of different plies: {sorted(plies)}")
    present = {v for m in metas for v in m.get("variants", [])}
    names = [v for v in _pdnkit.variants() if v in present]
    columns = _pdnkit.merge_index([t.to_pydict() for t in tables])
    return pa.Table.from_pydict(columns, schema=_index_schema(plies.pop() if plies else 40, names))


class Position:
    """A position of a variant. ``play`` is checked (``IllegalMoveError``
    says why a move is refused); positions are immutable and compare equal
    when the pieces, the side to move and the variant are."""

    __slots__ = ("_native",)

    def __init__(self, native: Any) -> None:
        self._native = native

    @classmethod
    def from_fen(cls, fen: str, variant: str) -> "Position":
        """Read a FEN (``W:W31-50:B1-20``); ``FenError`` (with ``offset``) when it is none."""
        return cls(_pdnkit.NativePosition.from_fen(fen, variant))

    @classmethod
    def start(cls, variant: str) -> "Position":
        """The start position of a variant."""
        return cls(_pdnkit.NativePosition.start(variant))

    def legal_moves(self) -> List[str]:
        """Every legal move, written as the variant's records write them."""
        return list(self._native.legal_moves())

    def play(self, move: str) -> "Position":
        """The position after ``move`` (``"32-28"``, ``"c3xe5"``, ``"26x17x8"``)."""
        return Position(self._native.play(move))

    def play_line(self, moves: Sequence[str]) -> List["Position"]:
        """The positions after each of ``moves``, played as ``pdnkit check``
        replays a record: a short capture that matches several (``"36x16"``)
        is settled by the moves after it (RULES.md 5.3), where ``play``
        refuses it; one that stays ambiguous, or an illegal move, raises
        ``IllegalMoveError`` naming the move."""
        return [Position(p) for p in self._native.play_line(list(moves))]

    def fen(self) -> str:
        return self._native.fen()

    def to_svg(self, *, flip: bool = False) -> str:
        """The position as an SVG picture (as ``pdnkit diagram``)."""
        return self._native.to_svg(flip)

    @property
    def variant(self) -> str:
        return self._native.variant

    @property
    def side(self) -> str:
        """``"white"`` or ``"black"``: who is to move."""
        return self._native.side

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self._native == other._native

    def __hash__(self) -> int:
        return hash((self.fen(), self.variant))

    def __repr__(self) -> str:
        return f"Position.from_fen({self.fen()!r}, {self.variant!r})"


def perft(fen: Optional[str], variant: str, depth: int) -> int:
    """Leaf nodes of the legal-move tree ``depth`` plies deep (``fen=None``: the start)."""
    return _pdnkit.perft(fen, variant, depth)


def variants() -> List[str]:
    """The variants checked, by name."""
    return list(_pdnkit.variants())


def _schema() -> Any:
    """The games table of ``convert --to parquet`` (docs/parquet.md) as an
    Arrow schema, from the library's one definition (``export::GameRow::TABLE``)."""
    import pyarrow as pa

    types = {"string": pa.string(), "int64": pa.int64(), "int32": pa.int32(), "date32": pa.date32(), "bool": pa.bool_()}
    columns, diagnostic = _pdnkit.game_table()
    item = pa.struct([pa.field(n, types[t], nullable) for n, t, nullable in diagnostic])
    return pa.schema(
        [pa.field(n, types[t], nullable) for n, t, nullable in columns]
        + [pa.field("diagnostics", pa.list_(pa.field("item", item, nullable=False)), nullable=False)]
    )


def check_batch(texts: Any, *, names: Any = None, **options: Any) -> Any:
    """Check every PDN text of a ``pyarrow`` array (strings or binary, one
    file each) and return a ``pyarrow.RecordBatch`` with one row per game, in
    the columns of the Parquet games table (docs/parquet.md). For Spark's
    ``mapInArrow``, Polars' ``map_batches`` and Dask's ``map_partitions``.
    ``names``: the file name of each text (default ``batch[i]``); other
    keywords as :func:`check`. Needs ``pip install "pdnkit[arrow]"``.
    """
    import pyarrow as pa

    rows: List[Dict[str, Any]] = []
    values = texts.to_pylist() if hasattr(texts, "to_pylist") else list(texts)
    name_list = names.to_pylist() if hasattr(names, "to_pylist") else (list(names) if names is not None else None)
    for i, text in enumerate(values):
        if text is None:
            continue
        data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
        name = name_list[i] if name_list is not None else f"batch[{i}]"
        rows.extend(check(data, name=name, **options)._rows)
    return pa.RecordBatch.from_pylist(rows, schema=_schema())


def files(*paths: Union[str, "os.PathLike[str]"], all_files: bool = False) -> List[tuple]:
    """The files :func:`check` reads under ``paths`` (folders walked in name
    order, as the command line walks them), each as ``(file, root)``: the
    file, and the PATH it was found under (pass it as ``check(file,
    root=root)`` for the same evidence of its variant). An archive is one
    file: its members are read with it. The units to spread over a cluster
    (``examples/python/dask_check.py``)."""
    return list(_pdnkit.files([os.fspath(p) for p in paths], all_files))


def _explore_schema() -> Any:
    """The records of :func:`explore` as Arrow columns: a row per record,
    ``move`` null on a position's row, its games as structs."""
    import pyarrow as pa

    game = pa.struct(
        [("white", pa.string()), ("black", pa.string()), ("event", pa.string()), ("date", pa.string()), ("year", pa.uint32())]
    )
    counts = [(n, pa.uint64()) for n in ("games", "white_wins", "draws", "black_wins", "unfinished")]
    return pa.schema(
        [("type", pa.string()), ("variant", pa.string()), ("position", pa.string()), ("line", pa.string()), ("move", pa.string())]
        + counts
        + [("score", pa.float64()), ("first_year", pa.uint32()), ("last_year", pa.uint32())]
        + [("opening", pa.string()), ("opening_name", pa.string()), ("recent", pa.list_(game)), ("latest", game)]
    )


def to_arrow(checked: Union[Checked, Sequence[Dict[str, Any]]]) -> Any:
    """The games of a :class:`Checked` as a ``pyarrow.RecordBatch`` in the
    columns of the Parquet games table (as :func:`check_batch`); or the
    records of :func:`explore` as a ``pyarrow.Table``, a row per record in
    the columns of ``explore --format json`` (``move`` null on a position's
    row, ``recent`` and ``latest`` as structs). Needs
    ``pip install "pdnkit[arrow]"``."""
    import pyarrow as pa

    if isinstance(checked, Checked):
        return pa.RecordBatch.from_pylist(checked._rows, schema=_schema())
    return pa.Table.from_pylist(list(checked), schema=_explore_schema())


def to_pandas(checked: Union[Checked, Any]) -> Any:
    """The games of a :class:`Checked` (or a ``check_batch`` result) as a
    ``pandas.DataFrame``, one row per game; or the records of
    :func:`explore`, one row per record. Needs pandas."""
    import pandas as pd

    if isinstance(checked, (Checked, list)):
        return to_arrow(checked).to_pandas()
    return checked.to_pandas()


def __dir__() -> List[str]:
    """What ``dir(pdnkit)`` lists: the public names of ``__all__`` only, not
    the helpers it imports (PEP 562)."""
    return sorted(__all__)
