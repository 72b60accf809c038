//! The reader's vocabulary: what a game is made of as written (squares,
//! separators, moves, movetext nodes, results, tags and their values, the
//! text's encoding), shared by every file of `pdn` (issue 52: `pdn/mod.rs`
//! only declares and re-exports).

use crate::diag::Span;
use crate::variant::Variant;
use encoding_rs::Encoding;
use std::borrow::Cow;

/// The tag pdnkit writes in a merged output for a game whose variant its
/// file decided (`crate::infer::Marker` reads its value; docs/dialect.md).
pub(crate) const MARKER_TAG: &str = "VariantSource";

/// A square as written: a number or an algebraic name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SquareText {
    /// `32` (leading zeros allowed; at most three digits).
    Num(u16),
    /// `c3`: file index (0 = a) and rank (1-based).
    Alg {
        /// File index (0 = a).
        file: u8,
        /// Rank (1-based).
        rank: u8,
    },
}

/// As written: the number without leading zeros, or the algebraic name (`c3`).
impl std::fmt::Display for SquareText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            SquareText::Num(n) => write!(f, "{n}"),
            SquareText::Alg { file, rank } => {
                write!(f, "{}{rank}", char::from(b'a'.wrapping_add(file)))
            }
        }
    }
}

/// How the squares of a written move are joined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sep {
    /// `-`
    Move,
    /// `x` or `X`
    Capture,
    /// `:`
    Colon,
    /// No separator (`a3b4`).
    None,
    /// Different separators in one move.
    Mixed,
}

/// A range in 8 bytes: a move's squares among its game's squares ([`Game::squares`]), or a span of
/// the game text. Keeping moves' squares out of the move and its spans compact
/// keeps a [`Node`] small and free of heap data (no drop work, less memory to
/// write and to read).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct CompactRange {
    start: u32,
    len: u32,
}

impl CompactRange {
    /// `r`, saturated beyond `u32::MAX` (a game held in memory never gets there;
    /// a saturated range reads as empty rather than wrong).
    pub(crate) fn new(r: std::ops::Range<usize>) -> CompactRange {
        CompactRange {
            start: u32::try_from(r.start).unwrap_or(u32::MAX),
            len: u32::try_from(r.len()).unwrap_or(0),
        }
    }
    /// The range.
    pub fn range(self) -> std::ops::Range<usize> {
        let s = self.start as usize;
        s..s + self.len()
    }
    /// Number of items.
    pub fn len(self) -> usize {
        self.len as usize
    }
    /// No items.
    pub fn is_empty(self) -> bool {
        self.len == 0
    }
}

/// A move as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrittenMove {
    /// The move's text (squares and separators, not the strength suffix).
    pub(crate) span: Span,
    /// The squares as written, in the game's squares ([`Game::squares`]).
    pub(crate) squares: CompactRange,
    pub(crate) sep: Sep,
    /// `!`, `?!`, `(?)` ... after the move (a span of the game text); empty if none.
    pub(crate) suffix: CompactRange,
    /// The move number written before it, and whether it was Black's (`12...`).
    pub(crate) number: Option<(u32, bool)>,
}

impl WrittenMove {
    /// The move's text (squares and separators, not the strength suffix), as a
    /// span of the game text.
    #[inline]
    pub fn span(&self) -> Span {
        self.span.clone()
    }
    /// How its squares are joined.
    #[inline]
    pub fn sep(&self) -> Sep {
        self.sep
    }
    /// Its strength suffix (`!`, `?!`, `(?)` ...), a span of the game text; empty if none.
    #[inline]
    pub fn suffix(&self) -> Span {
        self.suffix.range()
    }
    /// The move number written before it, and whether it was Black's (`12...`).
    #[inline]
    pub fn number(&self) -> Option<(u32, bool)> {
        self.number
    }
    /// The ply a move number designates: `1.` is 0, `1...` is 1, `2.` is 2.
    pub fn numbered_ply(&self) -> Option<u32> {
        self.number
            .map(|(n, black)| 2 * n.saturating_sub(1) + u32::from(black))
    }
}

/// One element of the movetext.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Node {
    /// A move.
    Move(WrittenMove),
    /// A `{...}` or `;` comment; the span is the text inside.
    Comment(Span),
    /// `$n`.
    Nag(u32, Span),
    /// `(` opening a variation.
    Open(Span),
    /// `)` closing it.
    Close(Span),
    /// `/FEN/` setup; the span is the FEN inside the slashes.
    Setup(Span),
    /// A placeholder for an unknown move (`-`).
    Unknown(Span),
    /// A `%` escape line; the span is the whole line, `%` included.
    Escape(Span),
}

/// A result token (`Unknown`, `*`, by default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `2-0` (`1-0`).
    WhiteWins,
    /// `0-2` (`0-1`).
    BlackWins,
    /// `1-1` (`1/2-1/2`).
    Draw,
    /// `0-0`: both lost.
    BothLose,
    /// `*`: unknown or unfinished.
    #[default]
    Unknown,
}

impl std::fmt::Display for Outcome {
    /// Normalised: `2-0`, `0-2`, `1-1`, `0-0`, `*`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.normalised())
    }
}

impl Outcome {
    /// Normalised as docs/json.md: `2-0`, `0-2`, `1-1`, `0-0`, `*`.
    pub const fn normalised(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "2-0",
            Outcome::BlackWins => "0-2",
            Outcome::Draw => "1-1",
            Outcome::BothLose => "0-0",
            Outcome::Unknown => "*",
        }
    }
    /// In the `1-0` family.
    pub const fn classic(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::BothLose => "0-0",
            Outcome::Unknown => "*",
        }
    }
    /// Reads a result written in a game of `variant`: as [`Outcome::parse`],
    /// except that in English checkers `1-0` is Black's win and `0-1` White's
    /// (the first player's score comes first; `2-0` and `0-2` keep their meaning).
    pub fn parse_for(text: &str, variant: Option<Variant>) -> Option<Outcome> {
        match (text.trim(), variant) {
            ("1-0", Some(v)) if v.first_player_scores_first() => Some(Outcome::BlackWins),
            ("0-1", Some(v)) if v.first_player_scores_first() => Some(Outcome::WhiteWins),
            _ => Outcome::parse(text),
        }
    }
    /// Written for a game of `variant` in the `1-0` family: the checkers
    /// order for English games (`1-0`: Black won), else [`Outcome::classic`].
    pub const fn classic_for(self, variant: Option<Variant>) -> &'static str {
        match (self, variant) {
            (Outcome::WhiteWins, Some(Variant::English)) => "0-1",
            (Outcome::BlackWins, Some(Variant::English)) => "1-0",
            _ => self.classic(),
        }
    }
    /// Reads a result as written in a tag or token (`2-0`, `1-0`, `1/2-1/2`, ` 0-1`, `*`).
    pub fn parse(text: &str) -> Option<Outcome> {
        match text.trim() {
            "2-0" | "1-0" => Some(Outcome::WhiteWins),
            "0-2" | "0-1" => Some(Outcome::BlackWins),
            "1-1" | "1/2-1/2" => Some(Outcome::Draw),
            "0-0" => Some(Outcome::BothLose),
            "*" => Some(Outcome::Unknown),
            _ => None,
        }
    }
}

/// A tag pair. The name is read with [`Game::tag_name`](super::Game::tag_name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    /// The name as written.
    pub(crate) name: Span,
    /// The decoded name, only for a name that is not a PDN identifier (`&#x00c9;v&#x00e9;nement`).
    pub(crate) owned_name: Option<String>,
    /// The raw value between the quotes (escapes not yet undone).
    pub(crate) value: Span,
    /// The whole tag.
    pub(crate) span: Span,
}

impl Tag {
    /// The whole tag pair, as a span of the game text.
    #[inline]
    pub fn span(&self) -> Span {
        self.span.clone()
    }
    /// The raw value between the quotes, as a span of the game text.
    #[inline]
    pub fn value_span(&self) -> Span {
        self.value.clone()
    }
}

/// A tag's value as written: raw bytes between the quotes, and the encoding
/// to read them with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TagValue<'a> {
    raw: &'a [u8],
    encoding: TextEncoding,
}

impl<'a> TagValue<'a> {
    /// The value `raw` (escapes as written) in `encoding`.
    pub fn new(raw: &'a [u8], encoding: TextEncoding) -> TagValue<'a> {
        TagValue { raw, encoding }
    }
    /// The bytes between the quotes, escapes as written.
    #[inline]
    pub fn raw(&self) -> &'a [u8] {
        self.raw
    }
    /// The value decoded, with `\"` and `\\` undone; borrowed when nothing
    /// needs changing (valid UTF-8, no escapes): no allocation in the common case.
    pub fn text(&self) -> Cow<'a, str> {
        let raw = self.encoding.decode(self.raw);
        if !raw.contains('\\') {
            return raw;
        }
        let mut out = String::with_capacity(raw.len());
        let mut chars = raw.chars();
        while let Some(c) = chars.next() {
            if c == '\\' {
                match chars.next() {
                    Some(n @ ('"' | '\\')) => out.push(n),
                    Some(n) => {
                        out.push('\\');
                        out.push(n);
                    }
                    None => out.push('\\'),
                }
            } else {
                out.push(c);
            }
        }
        Cow::Owned(out)
    }
}

/// The text encoding of a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextEncoding {
    /// UTF-8 (bad sequences, if any, replaced when decoding).
    Utf8,
    /// A legacy encoding detected for this file.
    Legacy(&'static Encoding),
}

impl TextEncoding {
    /// Encoding name (`UTF-8`, `windows-1251`, `IBM866`, ...).
    pub fn name(self) -> &'static str {
        match self {
            TextEncoding::Utf8 => "UTF-8",
            TextEncoding::Legacy(e) => e.name(),
        }
    }
    /// Decodes bytes to text.
    pub fn decode(self, bytes: &[u8]) -> Cow<'_, str> {
        match self {
            // The check first: `from_utf8` reads ASCII a word at a time,
            // `from_utf8_lossy` a chunk at a time (issue 65).
            TextEncoding::Utf8 => match std::str::from_utf8(bytes) {
                Ok(text) => Cow::Borrowed(text),
                Err(_) => String::from_utf8_lossy(bytes),
            },
            TextEncoding::Legacy(e) => e.decode_without_bom_handling(bytes).0,
        }
    }
    /// Encodes text in this encoding; `None` when a character of it has no
    /// form there (or the encoding is read only, as UTF-16).
    pub fn encode(self, text: &str) -> Option<Cow<'_, [u8]>> {
        match self {
            TextEncoding::Utf8 => Some(Cow::Borrowed(text.as_bytes())),
            TextEncoding::Legacy(e) => {
                let (bytes, used, errors) = e.encode(text);
                (used == e && !errors).then_some(bytes)
            }
        }
    }
    /// Number of characters in `bytes`.
    pub fn char_count(self, bytes: &[u8]) -> usize {
        if bytes.is_ascii() {
            return bytes.len();
        }
        match self {
            TextEncoding::Utf8 => match std::str::from_utf8(bytes) {
                Ok(s) => s.chars().count(),
                Err(_) => String::from_utf8_lossy(bytes).chars().count(),
            },
            TextEncoding::Legacy(_) => bytes.len(),
        }
    }
}
