//! The PDN reader: bytes in, games out, with byte spans; never checks legality.
//!
//! # Design
//! [`Reader`] pulls bytes from any `Read` into one reused buffer and cuts it
//! into games. A game is parsed from the front of the buffer; when the parser
//! runs out of bytes before it can tell where the game ends, the reader reads
//! more (the buffer grows geometrically only for a game larger than the
//! buffer) and parses that game again from its start. Consumed games are
//! dropped from the front of the buffer, so memory is bounded by the largest
//! game plus one read chunk, not by the file, and every byte is scanned a
//! bounded number of times: reading is linear in the file size.
//!
//! Each [`Game`] owns a copy of its own bytes (one allocation) and flat
//! vectors of tags and movetext [`Node`]s holding byte spans into those bytes:
//! no allocation per token. Variations are `Open`/`Close` nodes, so nesting
//! depth never turns into recursion.
//!
//! Structure characters of PDN are ASCII, and every encoding met in real
//! archives (UTF-8, Windows-1252, Windows-1251, CP866) is an ASCII superset,
//! so the parser works on raw bytes; tag values and comments are decoded
//! lazily with the file's encoding ([`Game::decode`]). The encoding is decided
//! once per file at the first game that is not valid UTF-8 (see `src/pdn/decode.rs`).

mod date;
pub(crate) mod decode;
mod fast;
mod game;
pub(crate) mod grammar;
mod lexer;
mod reader;
pub use date::PdnDate;
pub(crate) mod sniff;
#[cfg(any(feature = "batch", test, fuzzing))]
pub(crate) mod split;
pub mod visit;
pub mod write;

pub(crate) use decode::wide_bom;
/// The `split` fuzz target: any bytes, cut at points their first bytes
/// choose, read in pieces and stitched, must give the whole-file reader's
/// games (built only under `cargo fuzz`, which sets `cfg(fuzzing)`).
#[cfg(fuzzing)]
pub use split::fuzz_split;

/// The tag pdnkit writes in a merged output for a game whose variant its
/// file decided (`crate::infer::Marker` reads its value; docs/dialect.md).
pub(crate) const MARKER_TAG: &str = "VariantSource";
pub use game::Game;
pub(crate) use game::{tag_name, tag_name_bytes};
pub use reader::Reader;
pub(crate) use reader::DEFAULT_MAX_GAME_BYTES;

use crate::diag::Span;
use crate::variant::{GameKind, Unsupported, Variant};
use encoding_rs::Encoding;
use std::borrow::Cow;

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

/// A tag pair. The name is read with [`Game::tag_name`].
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
            TextEncoding::Utf8 => String::from_utf8_lossy(bytes),
            TextEncoding::Legacy(e) => e.decode_without_bom_handling(bytes).0,
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

/// A piece of a source line to show under a finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snippet {
    /// The text, control characters escaped (`\u{1b}`), tabs as spaces.
    pub text: String,
    /// Characters of `text` to underline (never empty).
    pub caret: std::ops::Range<usize>,
    /// Whether the line goes on before or after the text shown.
    pub cut_left: bool,
    /// Whether the line goes on after the text shown.
    pub cut_right: bool,
}

/// Appends `c` as it can be shown on a terminal: control characters escaped.
pub(crate) fn push_visible(out: &mut String, c: char) {
    match c {
        '\t' => out.push(' '),
        c if c.is_control() => {
            use std::fmt::Write as _;
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        }
        c => out.push(c),
    }
}

/// `text` with control characters escaped (for echoing input on a terminal).
pub fn visible(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push_visible(&mut out, c);
    }
    Cow::Owned(out)
}

fn is_char_start(b: u8, enc: TextEncoding) -> bool {
    matches!(enc, TextEncoding::Legacy(_)) || (b & 0xC0) != 0x80
}

/// The offset `n` characters before `at` (not before 0).
fn back_chars(text: &[u8], mut at: usize, n: usize, enc: TextEncoding) -> usize {
    let mut left = n;
    while at > 0 && left > 0 {
        at -= 1;
        if is_char_start(text[at], enc) {
            left -= 1;
        }
    }
    while at > 0 && at < text.len() && !is_char_start(text[at], enc) {
        at -= 1;
    }
    at
}

/// The offset `n` characters after `at` (not past the end).
fn forward_chars(text: &[u8], mut at: usize, n: usize, enc: TextEncoding) -> usize {
    let mut left = n;
    while at < text.len() && left > 0 {
        at += 1;
        while at < text.len() && !is_char_start(text[at], enc) {
            at += 1;
        }
        left -= 1;
    }
    at
}

/// Just past the first space in `from..limit`, or `from` if there is none.
fn next_space(text: &[u8], from: usize, limit: usize) -> usize {
    text[from..limit]
        .iter()
        .position(|b| *b == b' ')
        .map_or(from, |p| from + p + 1)
}

/// The last space in `limit..to` (exclusive end), or `to` if there is none.
fn prev_space(text: &[u8], limit: usize, to: usize) -> usize {
    text[limit..to]
        .iter()
        .rposition(|b| *b == b' ')
        .map_or(to, |p| limit + p)
}

/// Counts line breaks in `bytes`: `\r\n` and `\n\r` are one break each, as
/// are a lone `\r` or `\n`. `open` is the break byte that ended the text just
/// before `bytes` when it was not yet paired. Returns the breaks, the offset
/// just past the last break byte, and the unpaired break byte `bytes` ends with.
pub(crate) fn count_breaks(bytes: &[u8], mut open: Option<u8>) -> (u32, Option<usize>, Option<u8>) {
    let mut n = 0u32;
    let mut last: Option<usize> = None;
    for i in memchr::memchr2_iter(b'\n', b'\r', bytes) {
        let c = bytes[i];
        let adjacent = match last {
            Some(l) => l == i,
            None => i == 0,
        };
        if adjacent && open.is_some_and(|o| o != c) {
            open = None;
        } else {
            n += 1;
            open = Some(c);
        }
        last = Some(i + 1);
    }
    let ends_open = if last == Some(bytes.len()) {
        open
    } else {
        None
    };
    (n, last, ends_open)
}

/// Finds lines and columns of offsets of one game, going forward from the
/// last offset asked for: linear in the game for offsets asked in order.
pub struct Locator<'g> {
    game: &'g Game,
    at: usize,
    line: u32,
    /// Characters before `at` on its line.
    col: u32,
    open: Option<u8>,
}

impl<'g> Locator<'g> {
    /// A locator at the start of `game`.
    pub fn new(game: &'g Game) -> Locator<'g> {
        Locator {
            game,
            at: 0,
            line: game.line,
            col: game.column0,
            open: game.open_break,
        }
    }
    /// 1-based line and column (in characters) of byte `offset`.
    pub fn locate(&mut self, offset: usize) -> (u32, u32) {
        let offset = offset.min(self.game.text.len());
        if offset < self.at {
            *self = Locator::new(self.game);
        }
        let text = &self.game.text;
        // The state is kept at a character's start: an offset inside a UTF-8
        // sequence is counted from there without moving it, so that its
        // bytes are never counted as two broken characters (the same count
        // as a fresh locator's, whatever offsets came before).
        let mut keep = offset;
        if self.game.encoding == TextEncoding::Utf8 {
            while keep > self.at && keep < text.len() && text[keep] & 0xC0 == 0x80 {
                keep -= 1;
            }
        }
        let bytes = &text[self.at..keep];
        let (n, last, open) = count_breaks(bytes, self.open);
        self.line += n;
        let enc = self.game.encoding;
        self.col = match last {
            Some(l) => enc.char_count(&bytes[l..]) as u32,
            None => self.col + enc.char_count(bytes) as u32,
        };
        self.open = open;
        self.at = keep;
        let rest = enc.char_count(&text[keep..offset]) as u32;
        (self.line, self.col + rest + 1)
    }
}

/// What a GameType tag says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameType {
    /// A variant this tool implements.
    Known(Variant),
    /// A GameType number it names but does not implement (40 Frisian, 99, ...).
    Unsupported(Unsupported),
    /// Not a game type at all (or a long form whose board contradicts the number).
    Invalid(String),
}

impl GameType {
    /// The game's kind, when the value names one.
    pub fn kind(&self) -> Option<GameKind> {
        match self {
            GameType::Known(v) => Some(GameKind::Known(*v)),
            GameType::Unsupported(u) => Some(GameKind::Unsupported(*u)),
            GameType::Invalid(_) => None,
        }
    }
}

/// Reads a GameType value in its short (`26`) or long (`26,W,8,8,A0,0`,
/// `21,B,8,8,N1,0`) form.
pub(crate) fn game_type(value: &str) -> GameType {
    read_game_type(value).0
}

/// A GameType value read field by field (the PDN standard's
/// `doc/gametype.rst`): number, first colour (`W`/`B`), board width and
/// height, notation (`A`, `N` or `S` and the corner of square 1, `0`-`3`),
/// inverted board (`0`/`1`). A colour, board or orientation that contradicts
/// the variant, or a width or height that cannot be read, makes the value
/// invalid (the reason is returned); a notation field that cannot be read is
/// a warning.
pub(crate) fn read_game_type(value: &str) -> (GameType, Option<String>, Vec<String>) {
    let mut parts = value.split(',').map(str::trim);
    let first = parts.next().unwrap_or("");
    let Ok(n) = first.parse::<u32>() else {
        return (GameType::Invalid(value.to_string()), None, Vec::new());
    };
    let Some(v) = Variant::from_game_type(n) else {
        return (GameType::Unsupported(Unsupported(n)), None, Vec::new());
    };
    let invalid = |why: String| (GameType::Invalid(value.to_string()), Some(why), Vec::new());
    let mut warnings = Vec::new();
    let first_player = v.rules().first;
    if let Some(c) = parts.next() {
        let expected = match first_player {
            crate::piece::Color::White => "W",
            crate::piece::Color::Black => "B",
        };
        match c {
            "W" | "w" | "B" | "b" if c.eq_ignore_ascii_case(expected) => {}
            "W" | "w" | "B" | "b" => {
                return invalid(format!(
                    "the first-colour field says {c}, but in {v} {first_player} moves first"
                ))
            }
            _ => warnings.push(format!(
                "the first-colour field `{c}` of GameType cannot be read (W or B)"
            )),
        }
    }
    let size = u32::from(v.board().n());
    for what in ["width", "height"] {
        let Some(f) = parts.next() else { break };
        match f.parse::<u32>() {
            Ok(x) if x == size => {}
            Ok(x) => {
                return invalid(format!(
                    "the board {what} field says {x}, but {v} is played on {size}x{size}"
                ))
            }
            Err(_) => {
                return invalid(format!(
                    "the board {what} field `{f}` cannot be read as a number, so the board is not known"
                ))
            }
        }
    }
    if let Some(f) = parts.next() {
        let b = f.as_bytes();
        let ok = b.len() == 2
            && matches!(b[0].to_ascii_uppercase(), b'A' | b'N' | b'S')
            && (b'0'..=b'3').contains(&b[1]);
        if !ok {
            warnings.push(format!(
                "the notation field `{f}` of GameType cannot be read (A, N or S, then the corner of square 1, 0-3)"
            ));
        }
    }
    if let Some(f) = parts.next() {
        // 0: the near-left corner is dark; 1: it is not (Italian's mirrored board).
        let mirrored = v.rules().orientation == crate::board::Orientation::Mirrored;
        match f {
            "0" | "1" if (f == "1") == mirrored => {}
            "0" => {
                return invalid(format!(
                    "the orientation field says 0 (dark square at the near left), but {v} is played on the mirrored board, with the dark square at the near right"
                ))
            }
            "1" => {
                return invalid(format!(
                    "the orientation field says 1 (inverted board), but {v} is played with a dark square at the near left"
                ))
            }
            _ => warnings.push(format!(
                "the orientation field `{f}` of GameType cannot be read (0 or 1)"
            )),
        }
    }
    if let Some(extra) = parts.next() {
        warnings.push(format!(
            "GameType has more than six fields (`{extra}` and after are not read)"
        ));
    }
    (GameType::Known(v), None, warnings)
}

/// Reads every game of a byte slice (convenience for tests and small inputs).
pub fn read_all(bytes: &[u8]) -> Vec<Game> {
    let mut r = Reader::new(bytes);
    let mut v = Vec::new();
    while let Ok(Some(g)) = r.next_game() {
        v.push(g);
    }
    v
}

/// The PDN files the unit tests read: under the repository's `own` folders,
/// and under `shared` folders of `../shared`, which CI must have (`CI=true`)
/// and a user's clone may lack (a `SKIP:` line says so).
#[cfg(test)]
pub(crate) fn test_files(own: &[&str], shared: &[&str]) -> Vec<std::path::PathBuf> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut dirs: Vec<_> = own.iter().map(|d| root.join(d)).collect();
    let there = root.join("../shared");
    if there.exists() {
        dirs.extend(shared.iter().map(|d| there.join(d)));
    } else if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{} is absent, and CI=true", there.display());
    } else if !shared.is_empty() {
        let msg = format!(
            "SKIP: {} is absent: the repository's files only\n",
            there.display()
        );
        let _ = std::io::Write::write_all(&mut std::io::stderr(), msg.as_bytes());
    }
    let mut files = Vec::new();
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "pdn") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}
