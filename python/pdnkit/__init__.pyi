"""Typed stubs of the pdnkit package (the docstrings are the API's documentation)."""
import os
from dataclasses import dataclass
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Union

__version__: str

Source = Union[str, os.PathLike[str], bytes, bytearray]

class FenError(ValueError):
    """A FEN that is no position of its variant; ``offset``: the byte where it goes wrong."""
    offset: int

class IllegalMoveError(ValueError):
    """A move the rules do not allow in the position, with the reason."""

@dataclass(frozen=True)
class Game:
    """A game as read: tags, main-line moves as written, declared result, start line, reader findings."""
    file: str
    index: int
    line: int
    tags: Dict[str, str]
    moves: List[str]
    result: Optional[str]
    findings: List[Dict[str, Any]]

def read_games(
    source: Source,
    *,
    encoding: Optional[str] = ...,
    material: Union[None, str, Sequence[str]] = ...,
    material_either: bool = ...,
) -> Iterator[Game]:
    """The games of a PDN file or of bytes, one at a time (``OSError`` with the file name when unreadable)."""

@dataclass(frozen=True)
class Checked:
    """One file checked: the game reports (fields of ``check --format json``) and the file's findings."""
    games: List[Dict[str, Any]]
    findings: List[Dict[str, Any]]
    @property
    def valid(self) -> bool: ...

def check(
    source: Source,
    *,
    variant: Union[str, Sequence[str]] = ...,
    draw_rules: str = ...,
    levels: Optional[Mapping[str, str]] = ...,
    name: Optional[str] = ...,
    root: Optional[str] = ...,
    irregularities: str = ...,
    opening_table: Union[None, str, Sequence[str]] = ...,
    strict_dialects: bool = ...,
    material: Union[None, str, Sequence[str]] = ...,
    material_either: bool = ...,
) -> Checked:
    """Check a file or bytes as ``pdnkit check`` does (same inference, same refusals)."""

def explore(
    source: Source,
    *,
    position: Optional[str] = ...,
    play: Union[None, str, Sequence[str]] = ...,
    depth: int = ...,
    variant: Union[str, Sequence[str]] = ...,
    draw_rules: str = ...,
    irregularities: str = ...,
    player: Union[None, str, Sequence[str]] = ...,
    event: Union[None, str, Sequence[str]] = ...,
    material: Union[None, str, Sequence[str]] = ...,
    material_either: bool = ...,
    keep_duplicates: bool = ...,
) -> List[Dict[str, Any]]:
    """The moves played from a position with their results, as ``pdnkit explore --format json``."""

def index(
    source: Source,
    *,
    plies: int = ...,
    part: int = ...,
    root: Optional[str] = ...,
    variant: Union[str, Sequence[str]] = ...,
    draw_rules: str = ...,
    irregularities: str = ...,
    player: Union[None, str, Sequence[str]] = ...,
    event: Union[None, str, Sequence[str]] = ...,
    material: Union[None, str, Sequence[str]] = ...,
    material_either: bool = ...,
    keep_duplicates: bool = ...,
) -> Any:
    """The position index of a source as ``pdnkit index`` makes it, as a ``pyarrow.Table``."""

def merge_index(tables: Sequence[Any]) -> Any:
    """Index tables of parts of one archive merged by position key and move."""

class Position:
    """A position of a variant; ``play`` is checked."""
    @classmethod
    def from_fen(cls, fen: str, variant: str) -> Position:
        """Read a FEN; ``FenError`` when it is no position of the variant."""
    @classmethod
    def start(cls, variant: str) -> Position:
        """The start position of a variant."""
    def legal_moves(self) -> List[str]:
        """Every legal move, written as the variant's records write them."""
    def play(self, move: str) -> Position:
        """The position after ``move``; ``IllegalMoveError`` with the reason when it is not legal."""
    def fen(self) -> str: ...
    def to_svg(self, *, flip: bool = ...) -> str:
        """The position as SVG."""
    @property
    def variant(self) -> str: ...
    @property
    def side(self) -> str:
        """``"white"`` or ``"black"``."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

def perft(fen: Optional[str], variant: str, depth: int) -> int:
    """Leaf nodes of the legal-move tree ``depth`` plies deep (``fen=None``: the start)."""

def variants() -> List[str]:
    """The variants checked, by name."""

def check_batch(texts: Any, *, names: Any = ..., **options: Any) -> Any:
    """A ``pyarrow.RecordBatch`` of the games of every text (columns of the Parquet games table)."""

def files(*paths: Union[str, os.PathLike[str]], all_files: bool = ...) -> List[tuple]:
    """The files ``check`` reads under ``paths``, each as ``(file, root)``."""

def to_arrow(checked: Union[Checked, Sequence[Dict[str, Any]]]) -> Any:
    """The games of a ``Checked`` as a ``pyarrow.RecordBatch``, or ``explore``'s records as a ``pyarrow.Table``."""

def to_pandas(checked: Union[Checked, Any]) -> Any:
    """The games (or ``explore``'s records) as a ``pandas.DataFrame``."""
