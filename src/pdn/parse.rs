//! The game parser and the streaming [`Reader`] around it.

use super::decode::{self, BOM};
use super::grammar;
use super::visit::{RawGame, Visitor};
use super::{
    tag_name, tag_name_bytes, CompactRange, Game, Node, Outcome, Sep, SquareText, Tag,
    TextEncoding, WrittenMove,
};
use crate::diag::{Code, Diagnostic, Span};
use std::io::{self, Read};

/// Bytes read at a time.
const CHUNK: usize = 1 << 16;
/// Unless at the end of the input, the parser wants this many bytes ahead of
/// any token that is not searched for explicitly (moves, results, numbers).
const LOOKAHEAD: usize = 256;

/// Reads until `buf` is full or the input ends: the bytes read, and whether it ended.
fn read_full<R: Read>(src: &mut R, buf: &mut [u8]) -> io::Result<(usize, bool)> {
    let mut got = 0;
    while got < buf.len() {
        match src.read(&mut buf[got..]) {
            Ok(0) => return Ok((got, true)),
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok((got, false))
}

/// The default longest game (bytes of text): 16 MiB, hundreds of times the
/// longest real game; reading one takes at most about 10 bytes of memory per
/// byte of text (docs/limits.md).
pub const DEFAULT_MAX_GAME_BYTES: usize = 16 << 20;

/// Bytes of a skipped game kept to show where it starts.
const SKIPPED_HEAD: usize = 4096;

/// Line, column and a pending line break at a point of the input.
#[derive(Clone, Copy, Debug)]
struct TextPos {
    line: u32,
    column0: u32,
    /// An unpaired line-break byte just before the point (see `count_breaks`).
    open: Option<u8>,
}

impl TextPos {
    /// Moves over `bytes`.
    fn over(&mut self, bytes: &[u8], enc: TextEncoding) {
        let (breaks, last_break, open) = super::count_breaks(bytes, self.open);
        self.line += breaks;
        self.open = open;
        self.column0 = match last_break {
            Some(b) => enc.char_count(&bytes[b..]) as u32,
            None => self.column0 + enc.char_count(bytes) as u32,
        };
    }
}

/// A game longer than this (in bytes) is moved out of the reader's buffers
/// rather than copied, so that it is held once.
const BIG_GAME: usize = 1 << 20;

/// The items of `v` in a vector of their own: a copy of exact size for a
/// small vector (which keeps its capacity for the next game), the vector
/// itself for a large one.
fn take_exact<T>(v: &mut Vec<T>) -> Vec<T> {
    if v.len() > (BIG_GAME / 16) {
        let mut out = std::mem::take(v);
        out.shrink_to_fit();
        out
    } else {
        let mut out = Vec::with_capacity(v.len());
        out.append(v);
        out
    }
}

/// Reads games one by one from a byte stream.
pub struct Reader<R> {
    src: R,
    buf: Vec<u8>,
    pos: usize,
    eof: bool,
    offset: u64,
    /// Line, column and pending line break at `pos`.
    at: TextPos,
    /// Longest game read; longer ones are skipped ([`Reader::max_game_bytes`]).
    max_game: usize,
    index: usize,
    /// The encoding of the last game read (columns are counted with it).
    encoding: Option<TextEncoding>,
    /// The file's choice at its first game that was not valid UTF-8.
    file_encoding: Option<TextEncoding>,
    /// A UTF-16/32 file being turned into UTF-8 as it is read.
    wide: Option<decode::WideDecoder>,
    /// A note for the next game (the byte order mark found).
    pending_note: Option<String>,
    /// An I/O error ended the iteration.
    failed: bool,
    escape_warned: bool,
    started: bool,
    scratch_nodes: Vec<Node>,
    scratch_tags: Vec<Tag>,
    scratch_squares: Vec<SquareText>,
}

/// The games of the input, in order; an I/O error ends the iteration
/// (problems in the text are findings of the games, never errors here).
impl<R: Read> Iterator for Reader<R> {
    type Item = io::Result<Game>;
    fn next(&mut self) -> Option<io::Result<Game>> {
        if self.failed {
            return None;
        }
        let next = self.next_game();
        self.failed = next.is_err();
        next.transpose()
    }
}

impl<R: Read> Reader<R> {
    /// A reader over `src`.
    pub fn new(src: R) -> Reader<R> {
        Reader {
            src,
            buf: Vec::with_capacity(CHUNK),
            pos: 0,
            eof: false,
            offset: 0,
            at: TextPos {
                line: 1,
                column0: 0,
                open: None,
            },
            max_game: DEFAULT_MAX_GAME_BYTES,
            index: 0,
            encoding: None,
            file_encoding: None,
            wide: None,
            pending_note: None,
            failed: false,
            escape_warned: false,
            started: false,
            scratch_nodes: Vec::new(),
            scratch_tags: Vec::new(),
            scratch_squares: Vec::new(),
        }
    }

    /// The encoding chosen for the file so far (`None` until a non-UTF-8 game is met).
    pub fn encoding(&self) -> TextEncoding {
        self.encoding.unwrap_or(TextEncoding::Utf8)
    }

    fn fill(&mut self) -> io::Result<()> {
        if self.pos > 0 {
            self.buf.drain(..self.pos);
            self.pos = 0;
        }
        // Grow by half the buffer at most: a long game is read again from its
        // start after each fill, and its buffer stays within 1.5x its size.
        let want = CHUNK.max(self.buf.len() / 2);
        if let Some(dec) = &mut self.wide {
            let mut raw = vec![0u8; want];
            let (got, eof) = read_full(&mut self.src, &mut raw)?;
            dec.decode(&raw[..got], &mut self.buf, eof);
            self.eof = eof;
            return Ok(());
        }
        let old = self.buf.len();
        self.buf.resize(old + want, 0);
        let result = read_full(&mut self.src, &mut self.buf[old..]);
        let got = *result.as_ref().map(|(g, _)| g).unwrap_or(&0);
        match result {
            Ok((got, eof)) => {
                self.buf.truncate(old + got);
                self.eof = eof;
                Ok(())
            }
            Err(e) => {
                self.buf.truncate(old + got);
                Err(e)
            }
        }
    }

    /// [`Reader::advance`] over `n` bytes that were moved out of the buffer into `bytes`.
    fn advance_moved(&mut self, n: usize, bytes: &[u8]) {
        self.at.over(bytes, self.encoding());
        self.offset += n as u64;
    }

    fn advance(&mut self, n: usize) {
        let enc = self.encoding();
        self.at.over(&self.buf[self.pos..self.pos + n], enc);
        self.pos += n;
        self.offset += n as u64;
    }

    /// Sets the longest game read (bytes of text); a longer game is reported
    /// as `game-too-large` and skipped without being held in memory.
    pub fn max_game_bytes(mut self, n: usize) -> Self {
        self.max_game = n.max(1);
        self
    }

    /// Skips a game longer than the limit, streaming, and returns a game
    /// holding the start of its text and the finding. `known_end`: where the
    /// parser found the game to end (from `self.pos`); otherwise the game ends
    /// before the first line that starts with `[` after a line of movetext
    /// (its own tag lines belong to it), or at the end of the input.
    fn skip_large_game(&mut self, known_end: Option<usize>) -> io::Result<Game> {
        // The game starts at its first non-blank byte.
        let blank = self.buf[self.pos..]
            .iter()
            .take_while(|b| grammar::is_space(**b))
            .count();
        self.advance(blank);
        let (line, column0, open_break) = (self.at.line, self.at.column0, self.at.open);
        let offset = self.offset;
        let head_len = (self.buf.len() - self.pos).min(SKIPPED_HEAD);
        let mut text = self.buf[self.pos..self.pos + head_len].to_vec();
        // Keep whole characters only.
        while text.last().is_some_and(|b| *b >= 0x80) {
            text.pop();
        }
        let skipped = match known_end {
            Some(end) => {
                let n = end.saturating_sub(blank).min(self.buf.len() - self.pos);
                self.advance(n);
                n as u64
            }
            None => self.skip_to_next_game()?,
        };
        let shown = text.len();
        let mut game = self.new_game((offset, line, column0, open_break), text, self.encoding());
        game.diagnostics.push(Diagnostic::new(
            Code::GameTooLarge,
            0..shown.min(1),
            format!(
                "a game of {skipped} bytes, more than the limit of {} (--max-game-bytes): skipped",
                self.max_game
            ),
        ));
        Ok(game)
    }

    /// Skips from a game's first byte to the first line that starts with `[`
    /// after a line that is not a tag line (so the game's own tags stay with
    /// it), or to the end of the input; line by line, with nothing held but
    /// the line's first and last non-blank bytes. Returns the bytes skipped.
    fn skip_to_next_game(&mut self) -> io::Result<u64> {
        let mut skipped = 0u64;
        let mut seen_movetext = false;
        let (mut first, mut last): (Option<u8>, Option<u8>) = (None, None);
        // The game's first line is never the next game's.
        let mut line_start = false;
        loop {
            if self.pos == self.buf.len() {
                if self.eof {
                    break;
                }
                self.fill()?;
                continue;
            }
            if line_start {
                if seen_movetext && self.buf[self.pos] == b'[' {
                    break;
                }
                line_start = false;
            }
            let hay = &self.buf[self.pos..];
            let (len, brk) = match memchr::memchr2(b'\n', b'\r', hay) {
                Some(i) => (i, true),
                None => (hay.len(), false),
            };
            let seg = &hay[..len];
            if first.is_none() {
                first = seg.iter().copied().find(|b| !grammar::is_space(*b));
            }
            if let Some(l) = seg.iter().copied().rfind(|b| !grammar::is_space(*b)) {
                last = Some(l);
            }
            let n = len + usize::from(brk);
            skipped += n as u64;
            self.advance(n);
            if brk {
                match (first, last) {
                    (Some(b'['), Some(b']')) | (None, _) => {}
                    _ => seen_movetext = true,
                }
                (first, last) = (None, None);
                line_start = true;
            }
        }
        Ok(skipped)
    }

    /// The next game, at `(offset, line, column0, open_break)`, with its text
    /// and nothing read in it yet.
    fn new_game(
        &mut self,
        (offset, line, column0, open_break): (u64, u32, u32, Option<u8>),
        text: Vec<u8>,
        encoding: TextEncoding,
    ) -> Game {
        self.index += 1;
        Game {
            index: self.index,
            offset,
            line,
            column0,
            open_break,
            text,
            encoding,
            tags: Vec::new(),
            nodes: Vec::new(),
            square_text: Vec::new(),
            result: None,
            diagnostics: Vec::new(),
        }
    }

    /// Reads past a byte order mark at the start of the input.
    fn start(&mut self) -> io::Result<()> {
        while self.buf.len() - self.pos < 4 && !self.eof {
            self.fill()?;
        }
        self.started = true;
        if self.buf[self.pos..].starts_with(BOM) {
            self.pos += BOM.len();
            self.offset += BOM.len() as u64;
        } else if let Some((wide, len)) = decode::wide_bom(&self.buf[self.pos..]) {
            // From here on the reader sees UTF-8 (offsets count its bytes).
            let raw = self.buf.split_off(self.pos + len);
            self.buf.clear();
            self.pos = 0;
            self.offset += len as u64;
            let mut dec = decode::WideDecoder::new(wide);
            dec.decode(&raw, &mut self.buf, self.eof);
            self.wide = Some(dec);
            self.pending_note = Some(format!(
                "the file is {} (byte order mark): read as such; byte offsets count the UTF-8 text",
                wide.name()
            ));
        }
        Ok(())
    }

    /// Parses the next game that is not empty, at `self.pos`: its tags, nodes
    /// and squares are left in the scratch vectors and the reader is not
    /// advanced past it. `None` at the end of the input.
    fn parse_next(&mut self) -> io::Result<Option<Parsed>> {
        if !self.started {
            self.start()?;
        }
        loop {
            if self.pos == self.buf.len() {
                if self.eof {
                    return Ok(None);
                }
                self.fill()?;
                continue;
            }
            // A game is never parsed beyond the limit (and the lookahead the
            // parser needs to see its end): what it would allocate stays bounded.
            let limit = self.max_game.saturating_add(LOOKAHEAD);
            let capped = self.buf.len() - self.pos > limit;
            let data = &self.buf[self.pos..if capped {
                self.pos + limit
            } else {
                self.buf.len()
            }];
            let mut p = Parser::new(data, self.eof && !capped, self.escape_warned);
            // Scratch vectors reused from game to game.
            // For a long text, room for about one move per 6 bytes is made at
            // once, so that growing never holds two copies of a large vector.
            if data.len() > BIG_GAME && self.scratch_nodes.capacity() < data.len() / 6 {
                self.scratch_nodes = Vec::with_capacity(data.len() / 6);
                self.scratch_squares = Vec::with_capacity(data.len() / 3);
            }
            p.nodes = std::mem::take(&mut self.scratch_nodes);
            p.tags = std::mem::take(&mut self.scratch_tags);
            p.squares = std::mem::take(&mut self.scratch_squares);
            let end = p.game();
            let data_len = data.len();
            let Parser {
                tags,
                nodes,
                squares,
                result,
                diags,
                escape_warned,
                movetext,
                ..
            } = p;
            self.scratch_tags = tags;
            self.scratch_nodes = nodes;
            self.scratch_squares = squares;
            let Some(end) = end else {
                self.clear_scratch();
                if capped || self.buf.len() - self.pos >= self.max_game {
                    return self
                        .skip_large_game(None)
                        .map(|g| Some(Parsed::TooLarge(g)));
                }
                if self.eof {
                    // Cannot happen: at the end of input the parser always finishes.
                    return Ok(None);
                }
                self.fill()?;
                continue;
            };
            let end = end.max(1).min(data_len);
            // The game's own size, blank lines around it left out: one byte
            // over the limit is too large, whatever the lookahead let through.
            let text = &self.buf[self.pos..self.pos + end];
            let first = text.iter().position(|b| !grammar::is_space(*b));
            let last = text.iter().rposition(|b| !grammar::is_space(*b));
            if let (Some(f), Some(l)) = (first, last) {
                if l + 1 - f > self.max_game {
                    self.clear_scratch();
                    return self
                        .skip_large_game(Some(end))
                        .map(|g| Some(Parsed::TooLarge(g)));
                }
            }
            self.escape_warned = escape_warned;
            let empty = self.scratch_tags.is_empty()
                && self.scratch_nodes.is_empty()
                && result.is_none()
                && !movetext;
            let keep = !empty
                || diags
                    .iter()
                    .any(|d| d.severity == crate::diag::Severity::Error);
            if keep {
                return Ok(Some(Parsed::Game { end, result, diags }));
            }
            self.clear_scratch();
            self.advance(end);
        }
    }

    fn clear_scratch(&mut self) {
        self.scratch_nodes.clear();
        self.scratch_tags.clear();
        self.scratch_squares.clear();
    }

    /// The next game, `None` at the end of the input. I/O errors are returned;
    /// problems in the text are diagnostics of the game.
    pub fn next_game(&mut self) -> io::Result<Option<Game>> {
        let (end, result, mut diags) = match self.parse_next()? {
            None => return Ok(None),
            Some(Parsed::TooLarge(g)) => return Ok(Some(g)),
            Some(Parsed::Game { end, result, diags }) => (end, result, diags),
        };
        // Moved out (exact-size allocations); the scratch vectors keep their
        // capacity. A large game takes the scratch vectors themselves (a copy
        // would double its memory), and the next game starts with new ones.
        let tags = take_exact(&mut self.scratch_tags);
        let nodes = take_exact(&mut self.scratch_nodes);
        let square_text = take_exact(&mut self.scratch_squares);
        let (offset, line, column0, open_break) =
            (self.offset, self.at.line, self.at.column0, self.at.open);
        let text = if end > BIG_GAME {
            // The game's bytes move out of the buffer instead of being copied.
            let mut text = std::mem::take(&mut self.buf);
            let tail = text.split_off(self.pos + end);
            text.drain(..self.pos);
            text.shrink_to_fit();
            self.buf = tail;
            self.buf.reserve(CHUNK);
            self.pos = 0;
            self.advance_moved(end, &text);
            text
        } else {
            self.buf[self.pos..self.pos + end].to_vec()
        };
        let buf = std::mem::take(&mut self.buf);
        let encoding = self.choose_encoding(&text, &buf[self.pos..], &mut diags);
        self.buf = buf;
        if end <= BIG_GAME {
            self.advance(end);
        }
        let mut game = self.new_game((offset, line, column0, open_break), text, encoding);
        game.tags = tags;
        game.nodes = nodes;
        game.square_text = square_text;
        game.result = result;
        game.diagnostics = diags;
        Ok(Some(game))
    }

    /// Reads the next game through `v` (see [`visit`](super::visit)): no
    /// [`Game`] is built; `None` at the end of the input.
    pub fn read_game<V: Visitor + ?Sized>(&mut self, v: &mut V) -> io::Result<Option<V::Output>> {
        let (end, result, mut diags) = match self.parse_next()? {
            None => return Ok(None),
            Some(Parsed::TooLarge(g)) => return Ok(Some(RawGame::of(&g).visit(v))),
            Some(Parsed::Game { end, result, diags }) => (end, result, diags),
        };
        let buf = std::mem::take(&mut self.buf);
        let encoding =
            self.choose_encoding(&buf[self.pos..self.pos + end], &buf[self.pos..], &mut diags);
        self.buf = buf;
        self.index += 1;
        let raw = RawGame {
            index: self.index,
            offset: self.offset,
            line: self.at.line,
            column0: self.at.column0,
            open_break: self.at.open,
            text: &self.buf[self.pos..self.pos + end],
            encoding,
            tags: &self.scratch_tags,
            nodes: &self.scratch_nodes,
            squares: &self.scratch_squares,
            result: &result,
            diagnostics: &diags,
        };
        let out = raw.visit(v);
        self.clear_scratch();
        self.advance(end);
        Ok(Some(out))
    }

    /// The games read through `v`, one output each, as an iterator (an I/O
    /// error ends it).
    pub fn games_with<'r, V: Visitor + ?Sized>(
        &'r mut self,
        v: &'r mut V,
    ) -> impl Iterator<Item = io::Result<V::Output>> + 'r {
        let mut failed = false;
        std::iter::from_fn(move || {
            if failed {
                return None;
            }
            let next = self.read_game(v);
            failed = next.is_err();
            next.transpose()
        })
    }

    /// Decides the encoding of a game's `text` (and of the file, at its first
    /// game that is not UTF-8, from `sample`: the input from the game on),
    /// adding a finding to `diags` where it says something.
    fn choose_encoding(
        &mut self,
        text: &[u8],
        sample: &[u8],
        diags: &mut Vec<Diagnostic>,
    ) -> TextEncoding {
        if let Some(note) = self.pending_note.take() {
            diags.push(Diagnostic::new(Code::Encoding, 0..0, note));
        }
        let previous = self.encoding();
        let bad = decode::first_invalid_utf8(text);
        let (chosen, note) = match (bad, self.file_encoding) {
            (None, _) => {
                let note = match previous {
                    TextEncoding::Legacy(e) if !text.is_ascii() => Some(format!(
                        "this game is valid UTF-8 and is read as such (the games before it: {})",
                        e.name()
                    )),
                    _ => None,
                };
                (TextEncoding::Utf8, note)
            }
            (Some(bad), None) => {
                // The file's first game that is not UTF-8: decide from here on.
                let at = self.offset + bad as u64;
                let sample = if sample.is_empty() { text } else { sample };
                let enc = decode::detect(sample);
                self.file_encoding = Some(enc);
                let msg = match enc {
                    TextEncoding::Utf8 => format!(
                        "invalid UTF-8 bytes replaced with U+FFFD (first at byte offset {at})"
                    ),
                    TextEncoding::Legacy(e) => format!(
                        "the file is not UTF-8 (first non-UTF-8 byte at offset {at}); decoded as {}",
                        e.name()
                    ),
                };
                diags.push(Diagnostic::new(Code::Encoding, bad..bad + 1, msg));
                (enc, None)
            }
            (Some(bad), Some(TextEncoding::Utf8)) => {
                let at = self.offset + bad as u64;
                let msg =
                    format!("invalid UTF-8 bytes replaced with U+FFFD (first at byte offset {at})");
                diags.push(Diagnostic::new(Code::Encoding, bad..bad + 1, msg));
                (TextEncoding::Utf8, None)
            }
            (Some(_), Some(file @ TextEncoding::Legacy(fe))) => {
                // Another game not in UTF-8: the file's encoding, unless this
                // game is plainly in another one.
                let bad_words = decode::implausible_words(&file.decode(text));
                if bad_words == 0 {
                    // The file's encoding reads this game well: no detector runs.
                    (file, None)
                } else {
                    let (guess, _) = decode::guess_one(text);
                    let other = match guess {
                        TextEncoding::Legacy(g) if g != fe => Some(guess),
                        _ if fe != encoding_rs::WINDOWS_1252 => {
                            Some(TextEncoding::Legacy(encoding_rs::WINDOWS_1252))
                        }
                        _ => None,
                    };
                    match other {
                        // Another encoding only when it reads better than the file's.
                        Some(o) if decode::implausible_words(&o.decode(text)) < bad_words => {
                            (o, None)
                        }
                        _ => (file, None),
                    }
                }
            }
        };
        let note = note.or_else(|| match (previous, chosen) {
            (TextEncoding::Legacy(p), TextEncoding::Legacy(c)) if p != c => Some(format!(
                "this game is not in {} like the games before it: decoded as {}",
                p.name(),
                c.name()
            )),
            (TextEncoding::Utf8, TextEncoding::Legacy(c))
                if self.index > 0
                    && bad.is_some()
                    && !diags.iter().any(|d| d.code == Code::Encoding) =>
            {
                Some(format!(
                    "this game is not valid UTF-8 like the games before it: decoded as {}",
                    c.name()
                ))
            }
            _ => None,
        });
        if let Some(n) = note {
            diags.push(Diagnostic::new(Code::Encoding, 0..0, n));
        }
        // An ASCII game reads the same in every encoding: it changes nothing.
        if !text.is_ascii() {
            self.encoding = Some(chosen);
        }
        chosen
    }
}

/// A game parsed by [`Reader::parse_next`].
enum Parsed {
    /// A game of `end` bytes at the reader's position (tags, nodes and squares
    /// in the scratch vectors).
    Game {
        end: usize,
        result: Option<(Outcome, Span)>,
        diags: Vec<Diagnostic>,
    },
    /// A game longer than the limit, skipped: its start and the finding.
    TooLarge(Game),
}

/// Result of the parse of one game over a slice.
struct Parser<'a> {
    d: &'a [u8],
    i: usize,
    eof: bool,
    tags: Vec<Tag>,
    nodes: Vec<Node>,
    /// The squares of the moves read ([`Game::square_text`]).
    squares: Vec<SquareText>,
    result: Option<(Outcome, Span)>,
    diags: Vec<Diagnostic>,
    escape_warned: bool,
    /// A move, variation, NAG, setup or placeholder was read.
    movetext: bool,
    /// Start of each open variation.
    open: Vec<usize>,
    /// A move number waiting for its move.
    pending_number: Option<Span>,
    /// The last move number read, with whether it was Black's (`12...`), for the next move.
    number: Option<(u32, bool)>,
    placeholder_warned: bool,
    /// The tag names read, once a game has more than [`TAG_SCAN`] tags (a
    /// linear scan serves ordinary games; a set keeps hostile ones linear).
    tag_names: Option<std::collections::HashSet<Vec<u8>>>,
}

/// Tags a game may have before repeated names are looked up in a set.
const TAG_SCAN: usize = 64;

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic()
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The common case of [`grammar::written_move`] without the combinators: numeric
/// squares joined by separators with no spaces (`32-28`, `19x30x39`). `None`
/// for anything else, which `written_move` then reads (with the same result).
/// The squares are pushed onto `squares`; after `None`, the caller drops what
/// was pushed.
fn plain_numeric_move(d: &[u8], squares: &mut Vec<SquareText>) -> Option<(usize, Sep)> {
    let mut i = 0;
    let first = squares.len();
    let mut sep: Option<Sep> = None;
    loop {
        let s = i;
        let mut v = 0u32;
        while i - s < 4 {
            match d.get(i) {
                Some(&b) if b.is_ascii_digit() => {
                    v = v * 10 + u32::from(b - b'0');
                    i += 1;
                }
                _ => break,
            }
        }
        if i == s || i - s > 3 || d.get(i) == Some(&b'.') {
            return None;
        }
        if matches!(d.get(i), Some(b' ' | b'\t')) {
            // A separator may follow after spaces (`32 - 28`): leave that to the combinators.
            let after = d[i..].iter().find(|&&b| b != b' ' && b != b'\t');
            if matches!(after, Some(b'-' | b'x' | b'X' | b':')) {
                return None;
            }
        }
        // At most three digits: below 1000.
        squares.push(SquareText::Num(v as u16));
        let next = match d.get(i) {
            Some(b'-') => Sep::Move,
            Some(b'x' | b'X') => Sep::Capture,
            Some(b':') => Sep::Colon,
            _ => break,
        };
        if !d.get(i + 1).is_some_and(u8::is_ascii_digit) {
            return None;
        }
        sep = Some(match sep {
            None => next,
            Some(old) if old == next => next,
            Some(_) => Sep::Mixed,
        });
        i += 1;
    }
    (squares.len() - first >= 2).then(|| (i, sep.unwrap_or(Sep::None)))
}

/// [`plain_numeric_move`] for algebraic squares: `c3-d4`, `d4xf6xh8`, no
/// spaces, nothing glued. `None` for anything else.
fn plain_algebraic_move(d: &[u8], squares: &mut Vec<SquareText>) -> Option<(usize, Sep)> {
    let first = squares.len();
    let mut i = 0;
    let mut sep: Option<Sep> = None;
    loop {
        let file = match d.get(i) {
            Some(&f @ (b'a'..=b'l' | b'A'..=b'L')) => f.to_ascii_lowercase() - b'a',
            _ => return None,
        };
        let rank = match (d.get(i + 1), d.get(i + 2)) {
            (Some(&a), Some(&b)) if a.is_ascii_digit() && b.is_ascii_digit() => {
                i += 3;
                (a - b'0') * 10 + (b - b'0')
            }
            (Some(&a), _) if a.is_ascii_digit() => {
                i += 2;
                a - b'0'
            }
            _ => return None,
        };
        if d.get(i).is_some_and(|b| b.is_ascii_digit()) {
            return None;
        }
        squares.push(SquareText::Alg { file, rank });
        let next = match d.get(i) {
            Some(b'-') => Sep::Move,
            Some(b'x' | b'X') => Sep::Capture,
            Some(b':') => Sep::Colon,
            // A glued square (`a3b4`): the combinators.
            Some(b'a'..=b'l' | b'A'..=b'L') => return None,
            // Spaces before a separator (`c3 - d4`): the combinators.
            Some(b' ' | b'\t') => {
                let after = d[i..].iter().find(|&&b| b != b' ' && b != b'\t');
                if matches!(after, Some(b'-' | b'x' | b'X' | b':')) {
                    return None;
                }
                break;
            }
            _ => break,
        };
        sep = Some(grammar::join_sep(sep, next));
        i += 1;
    }
    (squares.len() - first >= 2).then(|| (i, sep.unwrap_or(Sep::None)))
}

/// [`plain_numeric_move`] or [`plain_algebraic_move`], by the first byte.
#[inline]
fn plain_move(d: &[u8], squares: &mut Vec<SquareText>) -> Option<(usize, Sep)> {
    if d.first()?.is_ascii_digit() {
        plain_numeric_move(d, squares)
    } else {
        plain_algebraic_move(d, squares)
    }
}

/// [`grammar::move_number`] without the combinators (one scan of the digits
/// and dots): every move and move number goes through here, and most tokens
/// starting with a digit are moves.
#[inline]
fn plain_move_number(d: &[u8]) -> Option<grammar::MoveNumber> {
    let digits = d.iter().take_while(|b| b.is_ascii_digit()).count();
    let dots = d[digits..].iter().take_while(|&&b| b == b'.').count();
    (digits > 0 && dots > 0).then(|| grammar::MoveNumber {
        value: grammar::decimal(&d[..digits]),
        digits,
        dots,
    })
}

impl<'a> Parser<'a> {
    fn new(d: &'a [u8], eof: bool, escape_warned: bool) -> Parser<'a> {
        Parser {
            d,
            i: 0,
            eof,
            tags: Vec::new(),
            nodes: Vec::new(),
            squares: Vec::new(),
            result: None,
            diags: Vec::new(),
            escape_warned,
            movetext: false,
            open: Vec::new(),
            pending_number: None,
            number: None,
            placeholder_warned: false,
            tag_names: None,
        }
    }

    fn warn(&mut self, span: Span, msg: impl Into<std::borrow::Cow<'static, str>>) {
        self.diags
            .push(Diagnostic::new(Code::Nonstandard, span, msg));
    }

    fn at_line_start(&self, i: usize) -> bool {
        self.d[..i]
            .iter()
            .rev()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count()
            == i
            || matches!(
                self.d[..i].iter().rev().find(|&&b| b != b' ' && b != b'\t'),
                Some(b'\n' | b'\r')
            )
    }

    /// Start of the next line beginning with a tag (`[` then a letter), from `from`.
    fn next_tag_line(&self, from: usize) -> Option<usize> {
        let mut j = from;
        while let Some(p) = memchr::memchr2(b'\n', b'\r', &self.d[j..]) {
            let s = j + p + 1;
            let k = s + self.d[s..]
                .iter()
                .take_while(|&&b| b == b' ' || b == b'\t')
                .count();
            if self.d.get(k) == Some(&b'[') && self.d.get(k + 1).is_some_and(|&b| is_ident_start(b))
            {
                return Some(k);
            }
            j = s;
        }
        None
    }

    /// Skips to the next game after a syntax error; `None` if more input is needed.
    fn resync(&mut self, from: usize) -> Option<usize> {
        match self.next_tag_line(from) {
            Some(k) => Some(k),
            None if self.eof => Some(self.d.len()),
            None => None,
        }
    }

    /// Parses one game; returns the end offset, or `None` if more input is needed.
    fn game(&mut self) -> Option<usize> {
        let end = self.game_body()?;
        self.finish();
        Some(end)
    }

    fn finish(&mut self) {
        for &o in &self.open {
            self.diags.push(Diagnostic::new(
                Code::UnterminatedVariation,
                o..o + 1,
                "variation opened here is not closed before the end of the game",
            ));
        }
        if let Some(n) = self.pending_number.take() {
            self.warn(n, "move number with no move after it (dropped)");
        }
        if self.result.is_none() {
            self.score_as_result();
        }
        if self.result.is_none() {
            // A trailing placeholder `-` used as the result.
            if let Some(Node::Unknown(s)) = self.nodes.last() {
                let s = s.clone();
                self.nodes.pop();
                self.warn(s.clone(), "`-` used as the result (read as `*`)");
                self.result = Some((Outcome::Unknown, s));
            }
        }
    }

    /// Reads tokens until the game ends: its end offset, or `None` if more
    /// input is needed.
    fn game_body(&mut self) -> Option<usize> {
        loop {
            self.skip_space();
            let len = self.d.len();
            if self.i >= len {
                return if self.eof { Some(len) } else { None };
            }
            if !self.eof && len - self.i < LOOKAHEAD {
                return None;
            }
            match self.token(self.i)? {
                Flow::Go => {}
                Flow::End(end) => return Some(end),
            }
        }
    }

    /// White space, and the literal `\r` / `\n` text some exports leave.
    fn skip_space(&mut self) {
        let len = self.d.len();
        while self.i < len {
            let b = self.d[self.i];
            if grammar::is_space(b) {
                self.i += 1;
            } else if b == 0xc2 && self.d.get(self.i + 1) == Some(&0xa0) {
                self.i += 2;
            } else if b == b'\\' && matches!(self.d.get(self.i + 1), Some(b'r' | b'n')) {
                if !self.escape_warned {
                    self.escape_warned = true;
                    let s = self.i;
                    self.warn(
                        s..s + 2,
                        "literal `\\r` text outside a tag value (export bug); ignored",
                    );
                }
                self.i += 2;
            } else {
                break;
            }
        }
    }

    /// Reads the token at `start`, chosen by its first byte.
    fn token(&mut self, start: usize) -> Option<Flow> {
        let d = &self.d[start..];
        let b = d[0];
        match b {
            b'[' => self.tag_token(start),
            b'{' => self.comment(start),
            b';' | b'%' => self.line_token(start),
            b'(' | b'!' | b'?' => {
                // A strength (`!?`, `(?)`), read once; otherwise `(` opens a variation.
                if let Ok((_, n)) = grammar::strength(d) {
                    self.strength_after_move(start, n);
                    return Some(Flow::Go);
                }
                self.open.push(start);
                self.nodes.push(Node::Open(start..start + 1));
                self.movetext = true;
                self.i += 1;
                Some(Flow::Go)
            }
            b')' => {
                if self.open.pop().is_some() {
                    self.nodes.push(Node::Close(start..start + 1));
                } else {
                    self.warn(start..start + 1, "`)` with no open variation (ignored)");
                }
                self.i += 1;
                Some(Flow::Go)
            }
            b'$' => match grammar::nag(d) {
                Ok((rest, v)) => {
                    let e = self.d.len() - rest.len();
                    self.nodes.push(Node::Nag(v, start..e));
                    self.movetext = true;
                    self.i = e;
                    Some(Flow::Go)
                }
                Err(_) => self.syntax(start, "`$` without a number"),
            },
            b'/' => self.setup(start),
            b'*' => {
                self.end_with_result(Outcome::Unknown, start..start + 1);
                Some(Flow::End(start + 1))
            }
            b'.' => {
                match grammar::ellipsis(d) {
                    Ok((_, n)) => {
                        // `1. ... 35-40`: Black to move.
                        self.pending_number = None;
                        if let Some(n) = &mut self.number {
                            n.1 = true;
                        }
                        self.i += n;
                    }
                    Err(_) => {
                        let n = d.iter().take_while(|&&b| b == b'.').count();
                        self.warn(start..start + n, "stray `.` (ignored)");
                        self.i += n;
                    }
                }
                Some(Flow::Go)
            }
            b'-' if matches!(d.get(1), Some(b' ' | b'\t' | b'\n' | b'\r' | b'-') | None) => {
                self.placeholder(start);
                Some(Flow::Go)
            }
            b'0'..=b'9' => self.numeric_token(start),
            b'a'..=b'l' | b'A'..=b'L' if grammar::alg_square(d).is_ok() => self.a_move(start),
            _ if is_ident_start(b) && self.at_line_start(start) && grammar::looks_like_tag(d) => {
                if self.movetext || self.result.is_some() {
                    return Some(Flow::End(start));
                }
                self.warn(start..start + 1, "tag line without its opening `[`");
                match self.tag_body(start, start)? {
                    TagStep::Continue => Some(Flow::Go),
                    TagStep::NewGame => Some(Flow::End(start)),
                }
            }
            _ => self.syntax(start, "unexpected text"),
        }
    }

    /// A `[`: the game's next tag, or the end of the game when its movetext
    /// or result has been read.
    fn tag_token(&mut self, start: usize) -> Option<Flow> {
        if self.result.is_none() && self.score_as_result() {
            self.warn(
                start..start + 1,
                "next game's tags follow a match score, not a PDN result token",
            );
            return Some(Flow::End(start));
        }
        if self.movetext || self.result.is_some() {
            // At the game's last token, not at the next game's tags.
            let last = self.d[..start]
                .iter()
                .rposition(|b| !grammar::is_space(*b))
                .unwrap_or(start);
            self.warn(
                last..last + 1,
                "no result or `*` after the last move: the next game's tags follow (game ended here)",
            );
            return Some(Flow::End(start));
        }
        match self.tag_pair(start)? {
            TagStep::Continue => Some(Flow::Go),
            TagStep::NewGame => {
                self.warn(
                    start..start + 1,
                    "tag repeated before any move: a new game starts here (no terminator)",
                );
                Some(Flow::End(start))
            }
        }
    }

    /// A `;` comment or a `%` escape line, which end with their line.
    fn line_token(&mut self, start: usize) -> Option<Flow> {
        let d = &self.d[start..];
        let (rest, node) = if d[0] == b';' {
            let (rest, text) = grammar::line_comment(d).ok()?;
            (rest, Node::Comment(start + 1..start + 1 + text.len()))
        } else {
            let (rest, line) = grammar::escape_line(d).ok()?;
            (rest, Node::Escape(start..start + line.len()))
        };
        if rest.is_empty() && !self.eof {
            return None;
        }
        self.i = self.d.len() - rest.len();
        self.nodes.push(node);
        Some(Flow::Go)
    }

    /// A move strength (`!?`, `(?)`) of `n` bytes at `start`: kept with the
    /// move before it, unless that move has one already.
    fn strength_after_move(&mut self, start: usize, n: usize) {
        if let Some(Node::Move(m)) = self.nodes.last_mut() {
            if m.suffix.is_empty() {
                m.suffix = CompactRange::new(start..start + n);
            }
        }
        self.i += n;
    }

    /// `/FEN/` in the movetext.
    fn setup(&mut self, start: usize) -> Option<Flow> {
        match grammar::setup(&self.d[start..]) {
            Ok((rest, text)) => {
                self.nodes
                    .push(Node::Setup(start + 1..start + 1 + text.len()));
                self.movetext = true;
                self.i = self.d.len() - rest.len();
                Some(Flow::Go)
            }
            Err(_) if memchr::memchr(b'/', &self.d[start + 1..]).is_none() => {
                self.syntax(start, "setup `/` with no closing `/`")
            }
            Err(_) => self.syntax(start, "setup `/` with no closing `/` on its line"),
        }
    }

    /// `-` standing for a move not known.
    fn placeholder(&mut self, start: usize) {
        if !self.placeholder_warned {
            self.placeholder_warned = true;
            self.warn(
                start..start + 1,
                "`-` placeholder for an unknown move (moves unknown from here)",
            );
        }
        self.pending_number = None;
        self.nodes.push(Node::Unknown(start..start + 1));
        self.movetext = true;
        self.i += 1;
    }

    /// A token starting with a digit: a result, a move number or a move.
    fn numeric_token(&mut self, start: usize) -> Option<Flow> {
        let d = &self.d[start..];
        // Every result token starts with 0, 1 or 2 and has `-` or `/` second:
        // the parser is skipped for squares and numbers.
        if matches!(d, [b'0'..=b'2', b'-' | b'/', ..]) {
            if let Ok((rest, outcome)) = grammar::result(d) {
                let e = self.d.len() - rest.len();
                if let Some(n) = self.pending_number.take() {
                    self.warn(
                        n,
                        "move number followed directly by a result (number dropped)",
                    );
                }
                self.end_with_result(outcome, start..e);
                return Some(Flow::End(e));
            }
        }
        match plain_move_number(d) {
            Some(n) => {
                self.pending_number = (!n.black()).then_some(start..start + n.len());
                self.number = Some((n.value, n.black()));
                self.i = start + n.len();
                Some(Flow::Go)
            }
            None => self.a_move(start),
        }
    }

    /// A last "move" equal to a Result tag that is no PDN result (a match
    /// score such as `4-6`) is read as a result of unknown meaning.
    fn score_as_result(&mut self) -> bool {
        let Some(Node::Move(m)) = self.nodes.last() else {
            return false;
        };
        let Some(t) = self.tags.iter().find(|t| tag_name(self.d, t) == "Result") else {
            return false;
        };
        let value = self.d[t.value.clone()].trim_ascii();
        if Outcome::parse(&String::from_utf8_lossy(value)).is_some()
            || value != &self.d[m.span.clone()]
        {
            return false;
        }
        let span = m.span.clone();
        // Its squares go with it: every square of `squares` belongs to a move.
        self.squares.truncate(m.squares.range().start);
        self.nodes.pop();
        let text = String::from_utf8_lossy(value).into_owned();
        self.warn(span.clone(), format!("match score `{text}` (the Result tag) read as a result of unknown meaning, not a move"));
        self.result = Some((Outcome::Unknown, span));
        true
    }

    fn end_with_result(&mut self, outcome: Outcome, span: Span) {
        if !self.open.is_empty() {
            self.diags.push(Diagnostic::new(
                Code::Syntax,
                span.clone(),
                "result token inside a variation",
            ));
        }
        self.result = Some((outcome, span));
    }

    /// A syntax error at `start`: the game ends, and reading goes on at the
    /// next tag line.
    fn syntax(&mut self, start: usize, what: &str) -> Option<Flow> {
        let e = start
            + self.d[start..]
                .iter()
                .take_while(|&&b| !grammar::is_space(b))
                .count()
                .max(1);
        let e = e.min(self.d.len());
        let text = String::from_utf8_lossy(&self.d[start..e.min(start + 40)]).into_owned();
        self.diags.push(Diagnostic::new(
            Code::Syntax,
            start..e,
            format!("{what}: `{text}` (skipped to the next game)"),
        ));
        self.resync(e).map(Flow::End)
    }

    /// Reads a move at `start` (a syntax error ends the game).
    fn a_move(&mut self, start: usize) -> Option<Flow> {
        let first = self.squares.len();
        let (e, sep) = match plain_move(&self.d[start..], &mut self.squares) {
            Some((n, sep)) => (start + n, sep),
            None => {
                self.squares.truncate(first);
                let Ok((rest, m)) = grammar::written_move(&self.d[start..]) else {
                    return self.syntax(start, "not a move");
                };
                let sep = m.sep;
                self.squares.extend_from_slice(&m.squares);
                (self.d.len() - rest.len(), sep)
            }
        };
        let squares = CompactRange::new(first..self.squares.len());
        self.pending_number = None;
        let number = self.number.take();
        // Strength suffix: `!`, `?!`, or in brackets `(?)`.
        let k = match self.d.get(e) {
            Some(b'!' | b'?' | b'(') => e + grammar::strength(&self.d[e..]).map_or(0, |(_, n)| n),
            _ => e,
        };
        self.nodes.push(Node::Move(WrittenMove {
            number,
            span: start..e,
            squares,
            sep,
            suffix: CompactRange::new(e..k),
        }));
        self.movetext = true;
        self.i = k;
        // Text glued to the move: split it off as a comment.
        if self.d.get(k).is_some_and(u8::is_ascii_alphabetic) {
            let g = k + self.d[k..]
                .iter()
                .take_while(|&&b| !grammar::is_space(b) && b != b'{' && b != b'[')
                .count();
            self.warn(k..g, "text glued to a move (kept as a comment)");
            self.nodes.push(Node::Comment(k..g));
            self.i = g;
        }
        Some(Flow::Go)
    }

    /// Reads a `{...}` comment; one never closed ends the game (at the next
    /// tag line, or at the end of the input).
    fn comment(&mut self, start: usize) -> Option<Flow> {
        match grammar::comment(&self.d[start..]) {
            Ok((rest, c)) => {
                let end = self.d.len() - rest.len();
                if c.nested {
                    self.warn(
                        start..end,
                        "nested `{` `}` inside a comment (read as one comment)",
                    );
                }
                self.nodes
                    .push(Node::Comment(start + c.text.start..start + c.text.end));
                self.i = end;
                Some(Flow::Go)
            }
            Err(nom::Err::Error(e)) if e.code == nom::error::ErrorKind::Tag => {
                // A tag line inside a comment: the comment was never closed.
                self.diags.push(Diagnostic::new(
                    Code::UnterminatedComment,
                    start..start + 1,
                    "comment opened here is not closed before the next game",
                ));
                Some(Flow::End(self.d.len() - e.input.len() + 1))
            }
            Err(_) if !self.eof => None,
            Err(_) => {
                self.diags.push(Diagnostic::new(
                    Code::UnterminatedComment,
                    start..start + 1,
                    "comment opened here is not closed before the end of the file",
                ));
                Some(Flow::End(self.d.len()))
            }
        }
    }

    fn tag_pair(&mut self, start: usize) -> Option<TagStep> {
        let len = self.d.len();
        // Whitespace, even a line break, may follow `[` (`[` then `Event "x"]` on the next line).
        let j = start
            + 1
            + self.d[start + 1..]
                .iter()
                .take_while(|&&b| grammar::is_space(b))
                .count();
        if j == len && !self.eof {
            return None;
        }
        match self.d.get(j) {
            Some(&b) if is_ident_start(b) || b == b'&' || b >= 0x80 => self.tag_body(start, j),
            _ => {
                self.warn(start..start + 1, "stray `[` (ignored)");
                self.i = start + 1;
                Some(TagStep::Continue)
            }
        }
    }

    /// The common tag `Name "value"]`: an identifier, one space, a value with
    /// no escape, and `]` right after the closing quote, all on one line.
    /// Returns the tag's end and the value's span; `None` for anything else,
    /// which the general reading below then reads (to the same result).
    fn plain_tag(&self, name_at: usize) -> Option<(usize, Span)> {
        let d = &self.d[name_at..];
        if !d.first().is_some_and(u8::is_ascii_uppercase) {
            return None;
        }
        let n = d.iter().take_while(|&&b| is_ident(b)).count();
        if d.get(n) != Some(&b' ') || d.get(n + 1) != Some(&b'"') {
            return None;
        }
        let vs = n + 2;
        let p = d[vs..]
            .iter()
            .position(|&b| matches!(b, b'"' | b'\\' | b'\n' | b'\r'))?;
        let ve = vs + p;
        (d[ve] == b'"' && d.get(ve + 1) == Some(&b']'))
            .then(|| (name_at + ve + 2, name_at + vs..name_at + ve))
    }

    /// Reads `Name "value"]` from `name_at`; `start` is the tag's first byte.
    /// The fast path first, then the grammar's production, then the lenient
    /// reading of any other tag line (with its findings).
    fn tag_body(&mut self, start: usize, name_at: usize) -> Option<TagStep> {
        if let Some((end, value)) = self.plain_tag(name_at) {
            return Some(self.add_tag(Tag {
                name: name_at..value.start - 2,
                owned_name: None,
                value,
                span: start..end,
            }));
        }
        match grammar::tag_body(&self.d[name_at..]) {
            Ok((rest, t)) => {
                let end = self.d.len() - rest.len();
                Some(self.add_tag(Tag {
                    name: name_at + t.name.start..name_at + t.name.end,
                    owned_name: None,
                    value: name_at + t.value.start..name_at + t.value.end,
                    span: start..end,
                }))
            }
            Err(_) => self.any_tag(start, name_at),
        }
    }

    /// [`Parser::tag_body`] for any tag line: odd names, escapes, spaces,
    /// missing quotes or brackets (each with its finding).
    fn any_tag(&mut self, start: usize, name_at: usize) -> Option<TagStep> {
        let len = self.d.len();
        let line_end =
            memchr::memchr2(b'\n', b'\r', &self.d[name_at..]).map_or(len, |p| name_at + p);
        if line_end == len && !self.eof {
            return None;
        }
        let line = &self.d[name_at..line_end];
        let quote = memchr::memchr(b'"', line);
        let close = memchr::memchr(b']', line);
        // `[Empty]`: a name and no value.
        if let (Some(c), None) | (Some(c), Some(_)) = (close, quote) {
            if quote.is_none_or(|q| c < q) {
                let name = String::from_utf8_lossy(line[..c].trim_ascii()).into_owned();
                self.warn(
                    start..name_at + c + 1,
                    format!("tag `[{name}]` without a value (skipped)"),
                );
                self.i = name_at + c + 1;
                return Some(TagStep::Continue);
            }
        }
        let Some(q) = quote else {
            self.diags.push(Diagnostic::new(
                Code::BadTag,
                start..line_end,
                "tag line without a quoted value (skipped)",
            ));
            self.i = line_end;
            return Some(TagStep::Continue);
        };
        let raw_name = line[..q].trim_ascii();
        let ident = !raw_name.is_empty()
            && raw_name[0].is_ascii_uppercase()
            && raw_name.iter().all(|&b| is_ident(b));
        let name_start = name_at + (line[..q].len() - line[..q].trim_ascii_start().len());
        let name_span = name_start..name_start + raw_name.len();
        // Identifiers stay a span into the game text; only odd names are decoded and kept.
        let owned = if ident {
            None
        } else {
            let n = decode_entities(&String::from_utf8_lossy(raw_name));
            self.warn(
                name_at..name_at + q,
                format!("tag name `{n}` is not a PDN identifier (read anyway)"),
            );
            Some(n)
        };
        // The value, with `\"` and `\\` escapes.
        let vs = name_at + q + 1;
        let mut k = vs;
        while k < line_end {
            match memchr::memchr2(b'"', b'\\', &self.d[k..line_end]) {
                Some(p) if self.d[k + p] == b'\\' => k += p + 2,
                Some(p) => {
                    k += p;
                    break;
                }
                None => k = line_end,
            }
        }
        if k >= line_end {
            self.diags.push(Diagnostic::new(
                Code::BadTag,
                start..line_end,
                "tag value is not closed by `\"` on its line (skipped)",
            ));
            self.i = line_end;
            return Some(TagStep::Continue);
        }
        let ve = k;
        k += 1;
        while k < line_end && (self.d[k] == b' ' || self.d[k] == b'\t') {
            k += 1;
        }
        if self.d.get(k) == Some(&b']') {
            k += 1;
        } else {
            self.diags.push(Diagnostic::new(
                Code::BadTag,
                start..k,
                "tag is not closed by `]` (read anyway)",
            ));
        }
        Some(self.add_tag(Tag {
            name: name_span,
            owned_name: owned,
            value: vs..ve,
            span: start..k,
        }))
    }

    /// Keeps a tag read, unless its name was already read in this game: then
    /// a new game starts at the tag.
    fn add_tag(&mut self, tag: Tag) -> TagStep {
        let this = tag_name_bytes(self.d, &tag);
        let seen = if this.is_empty() {
            false
        } else if let Some(names) = &mut self.tag_names {
            !names.insert(this.to_vec())
        } else {
            let seen = self.tags.iter().any(|t| tag_name_bytes(self.d, t) == this);
            if !seen && self.tags.len() >= TAG_SCAN {
                let mut names: std::collections::HashSet<Vec<u8>> = self
                    .tags
                    .iter()
                    .map(|t| tag_name_bytes(self.d, t).to_vec())
                    .collect();
                names.insert(this.to_vec());
                self.tag_names = Some(names);
            }
            seen
        };
        if seen {
            self.i = tag.span.start;
            return TagStep::NewGame;
        }
        self.i = tag.span.end;
        self.tags.push(tag);
        TagStep::Continue
    }
}

/// What reading a token did to the game.
#[derive(Debug, PartialEq, Eq)]
enum Flow {
    /// The game goes on.
    Go,
    /// The game ends at this offset.
    End(usize),
}

#[derive(Debug, PartialEq, Eq)]
enum TagStep {
    Continue,
    NewGame,
}

/// Decodes `&#x00c9;` / `&#201;` entities in a tag name.
fn decode_entities(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(p) = rest.find("&#") {
        out.push_str(&rest[..p]);
        let after = &rest[p + 2..];
        let (hex, body) = match after.strip_prefix(['x', 'X']) {
            Some(b) => (true, b),
            None => (false, after),
        };
        let end = body.find(';');
        let decoded = end.and_then(|e| {
            let v = if hex {
                u32::from_str_radix(&body[..e], 16).ok()
            } else {
                body[..e].parse().ok()
            };
            v.and_then(char::from_u32).map(|c| (c, e))
        });
        match decoded {
            Some((c, e)) => {
                out.push(c);
                rest = &body[e + 1..];
            }
            None => {
                out.push_str("&#");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests;
