//! The streaming [`Reader`]: buffer refills, games too large to hold, and
//! the choice of encoding. A game's bytes are read by the lexer
//! ([`super::lexer`]).

use super::decode::{self, BOM};
use super::game::Game;
use super::grammar;
use super::lexer::{Parsed, Parser};
use super::visit::{RawGame, Visitor};
use super::vocab::{Node, SquareText, Tag, TextEncoding};
use crate::diag::{Code, Diagnostic};
use std::io::{self, Read};

/// Bytes read at a time.
const CHUNK: usize = 1 << 16;
use super::lexer::LOOKAHEAD;

/// Reads until `buf` is full or the input ends: the bytes read, whether it
/// ended, and the error that stopped it early (the bytes before an error are
/// kept: the games in them are read before the error is reported).
fn read_full<R: Read>(src: &mut R, buf: &mut [u8]) -> (usize, bool, Option<io::Error>) {
    let mut got = 0;
    while got < buf.len() {
        match src.read(&mut buf[got..]) {
            Ok(0) => return (got, true, None),
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return (got, false, Some(e)),
        }
    }
    (got, false, None)
}

/// The default longest game (bytes of text): 16 MiB, hundreds of times the
/// longest real game; reading one takes at most about 10 bytes of memory per
/// byte of text (docs/limits.md).
pub(crate) const DEFAULT_MAX_GAME_BYTES: usize = 16 << 20;

/// Bytes of a skipped game kept to show where it starts.
const SKIPPED_HEAD: usize = 4096;

/// Line, column and a pending line break at a point of the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TextPos {
    pub(crate) line: u32,
    pub(crate) column0: u32,
    /// An unpaired line-break byte just before the point (see `count_breaks`).
    pub(crate) open: Option<u8>,
}

impl TextPos {
    /// Moves over `bytes`.
    pub(crate) fn over(&mut self, bytes: &[u8], enc: TextEncoding) {
        let (breaks, last_break, open) = super::text::count_breaks(bytes, self.open);
        self.line += breaks;
        self.open = open;
        self.column0 = match last_break {
            Some(b) => enc.char_count(&bytes[b..]) as u32,
            None => self.column0 + enc.char_count(bytes) as u32,
        };
    }
}

/// What a reader carries from one game to the next, at a point between two
/// games: where it stands and what it has decided for the file so far. A
/// reader resumed there ([`Reader::resume`]) reads the rest of the file as
/// the reader that stopped there would have (see [`super::split`]).
#[cfg(any(feature = "batch", test, fuzzing))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Resume {
    pub(crate) offset: u64,
    pub(crate) at: TextPos,
    /// Games read before the point.
    pub(crate) index: usize,
    pub(crate) escape_warned: bool,
    pub(crate) encoding: TextEncoding,
    pub(crate) file_encoding: Option<TextEncoding>,
    /// Past the start of the input (a byte order mark is looked for only there).
    pub(crate) started: bool,
    /// The input is UTF-16/32, read as UTF-8 (offsets count the UTF-8 text):
    /// a reader cannot be resumed there.
    pub(crate) wide: bool,
}

#[cfg(any(feature = "batch", test, fuzzing))]
impl Resume {
    /// The start of a file.
    pub fn file_start() -> Resume {
        Resume {
            offset: 0,
            at: TextPos {
                line: 1,
                column0: 0,
                open: None,
            },
            index: 0,
            escape_warned: false,
            encoding: TextEncoding::Utf8,
            file_encoding: None,
            started: false,
            wide: false,
        }
    }
    /// Byte offset of the point in the file.
    pub fn offset(&self) -> u64 {
        self.offset
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
    /// An error met after some bytes were read, reported at the next fill.
    read_error: Option<io::Error>,
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
    /// Bytes asked of the source by a fill (more for a long game).
    chunk: usize,
    /// The last look-ahead of a fixed size (an encoding sample, the head of
    /// a skipped game) was cut short by a read error, not by the end.
    pub(crate) short_read: bool,
    /// A read error ends the input as its end would, and is returned after
    /// the last game ([`Reader::error_ends_input`]).
    end_at_error: bool,
    /// That error, once met.
    broken: Option<io::Error>,
}

/// Bytes of the input, from a game's start, that decide the file's encoding
/// at its first game that is not UTF-8 (fewer only at the end of the input):
/// the same bytes wherever the reading of the file started. 32 KiB decide
/// every file of the corpora as before, when the sample was whatever was left
/// in the buffer (up to 64 KiB); 64 KiB cost 25 % more instructions to read
/// the real international games (the detector's time grows with its sample).
pub(crate) const ENCODING_SAMPLE: usize = 32 << 10;

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
            read_error: None,
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
            chunk: CHUNK,
            short_read: false,
            end_at_error: false,
            broken: None,
        }
    }

    /// A reader over `src`, which holds a file's bytes from the point `at`
    /// on: it reads on as the reader that stopped there would have.
    #[cfg(any(feature = "batch", test, fuzzing))]
    pub(crate) fn resume(src: R, at: &Resume) -> Reader<R> {
        let mut r = Reader::new(src);
        r.offset = at.offset;
        r.at = at.at;
        r.index = at.index;
        r.escape_warned = at.escape_warned;
        r.encoding = Some(at.encoding);
        r.file_encoding = at.file_encoding;
        r.started = at.started;
        r
    }

    /// Where the reader stands, between two games.
    #[cfg(any(feature = "batch", test, fuzzing))]
    pub(crate) fn resume_state(&self) -> Resume {
        Resume {
            offset: self.offset,
            at: self.at,
            index: self.index,
            escape_warned: self.escape_warned,
            encoding: self.encoding(),
            file_encoding: self.file_encoding,
            started: self.started,
            wide: self.wide.is_some(),
        }
    }

    /// Reads until `n` bytes from `self.pos` are in the buffer or the input
    /// ends: what is looked at then is the same wherever the reading of the
    /// file started. An error is kept for the next fill.
    fn fill_ahead(&mut self, n: usize) {
        self.short_read = false;
        while self.buf.len() - self.pos < n && !self.eof {
            if self.read_error.is_some() {
                self.short_read = true;
                return;
            }
            if let Err(e) = self.fill() {
                self.read_error = Some(e);
                self.short_read = true;
                return;
            }
        }
    }

    /// Whether the input broke off (a read error) and every byte before the
    /// break has been read: the game just read, if it has no result, is cut.
    pub(crate) fn at_break(&self) -> bool {
        (self.read_error.is_some() || self.broken.is_some())
            && self.buf[self.pos.min(self.buf.len())..]
                .iter()
                .all(|b| grammar::is_space(*b))
    }

    /// A read error ends the input as its end would: the games before it are
    /// read (the last one as far as it goes), then the error is returned
    /// (issue 55: the pipeline's reading thread and `check_file`). Without
    /// it, the error is returned when the reading needs the bytes after it
    /// (what the reading of a file's pieces relies on).
    pub(crate) fn error_ends_input(mut self) -> Reader<R> {
        self.end_at_error = true;
        self
    }

    /// No game left: the end, or the read error that ended the input.
    fn none_left(&mut self) -> io::Result<Option<Game>> {
        match self.broken.take() {
            Some(e) => Err(e),
            None => Ok(None),
        }
    }

    /// The input ends at the read error `e` (kept for after the last game),
    /// or the error is returned now.
    fn ended_by(&mut self, e: io::Error) -> io::Result<()> {
        if self.end_at_error {
            self.eof = true;
            self.broken = Some(e);
            Ok(())
        } else {
            Err(e)
        }
    }

    /// The encoding chosen for the file so far (`None` until a non-UTF-8 game is met).
    pub fn encoding(&self) -> TextEncoding {
        self.encoding.unwrap_or(TextEncoding::Utf8)
    }

    fn fill(&mut self) -> io::Result<()> {
        if let Some(e) = self.read_error.take() {
            return self.ended_by(e);
        }
        if self.pos > 0 {
            self.buf.drain(..self.pos);
            self.pos = 0;
        }
        // Grow by half the buffer at most: a long game is read again from its
        // start after each fill, and its buffer stays within 1.5x its size.
        let want = self.chunk.max(self.buf.len() / 2);
        if let Some(dec) = &mut self.wide {
            let mut raw = vec![0u8; want];
            let (got, eof, err) = read_full(&mut self.src, &mut raw);
            dec.decode(&raw[..got], &mut self.buf, eof);
            self.eof = eof;
            return self.after_read(got, err);
        }
        // Read into the buffer's spare room, not a zeroed copy of it (a
        // file reads into it directly: issue 65, 2.6% of `check` on the real
        // tree was zeroing 64 KB chunks before filling them). Up to `want`
        // bytes; fewer, with no error, is the end of the input.
        let old = self.buf.len();
        self.buf.reserve(want);
        let read = (&mut self.src).take(want as u64).read_to_end(&mut self.buf);
        let got = self.buf.len() - old;
        let (eof, err) = match read {
            Ok(_) => (got < want, None),
            Err(e) => (false, Some(e)),
        };
        self.eof = eof;
        self.after_read(got, err)
    }

    /// An error with bytes read before it is kept for the next fill: the
    /// games in those bytes are read first.
    fn after_read(&mut self, got: usize, err: Option<io::Error>) -> io::Result<()> {
        match err {
            Some(e) if got == 0 => self.ended_by(e),
            Some(e) => {
                self.read_error = Some(e);
                Ok(())
            }
            None => Ok(()),
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

    /// Asks the source for at most `n` bytes a fill (at least 4 KiB), for
    /// a source that holds fewer than a whole chunk: a read zeroes the room
    /// it reads into, and 64 KiB zeroed for a file of 24 KiB cost 1.5 % of
    /// `check` on the real international games (issue 65).
    #[cfg(any(feature = "batch", test, fuzzing))]
    pub(crate) fn fill_size(mut self, n: usize) -> Self {
        self.chunk = n.clamp(4 << 10, CHUNK);
        self
    }

    /// The reader with `bytes` in its buffer, as though a fill had read
    /// them from the source: what it reads next comes after them. The same
    /// games as a reader whose source gives `bytes` first (the reader's
    /// answers do not depend on how its fills fall: [`super::split`]'s
    /// tests cut files at random places), without a read's zeroing of
    /// its room.
    #[cfg(any(feature = "batch", test, fuzzing))]
    pub(crate) fn holding(mut self, bytes: &[u8]) -> Self {
        self.buf.extend_from_slice(bytes);
        self
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
        self.fill_ahead(SKIPPED_HEAD);
        let blank = self.buf[self.pos..]
            .iter()
            .take_while(|b| grammar::is_space(**b))
            .count();
        self.advance(blank);
        self.fill_ahead(SKIPPED_HEAD);
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
            cut: false,
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
            self.pass_blank_lines();
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
                // Too large only once the parser had the limit and its
                // look-ahead and still could not end the game: never because
                // of how much happened to be read yet (the same decision
                // wherever the reading of the file started).
                if capped {
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
            if self.over_the_limit(end) {
                self.clear_scratch();
                return self
                    .skip_large_game(Some(end))
                    .map(|g| Some(Parsed::TooLarge(g)));
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

    /// Blank lines and space between games belong to no game: they are
    /// passed over as they come, never counted toward the next game's size
    /// nor held (issue 40: 17 MiB of padding made the game after it too
    /// large, and trailing blank lines a game of 0 bytes). Whole lines only
    /// (to the last line feed of the run): a game still starts at a line's
    /// start, and a lone CR stays with it.
    fn pass_blank_lines(&mut self) {
        let run = self.buf[self.pos..]
            .iter()
            .take_while(|b| grammar::is_space(**b))
            .count();
        // Only a run longer than half the parser's look-ahead is passed
        // over here (what is left before the game is shorter, so a game
        // under the limit always fits the window the parser gets); the
        // one or two blank lines of ordinary files are read as before.
        if run >= LOOKAHEAD / 2 {
            let blank =
                memchr::memrchr(b'\n', &self.buf[self.pos..self.pos + run]).map_or(0, |i| i + 1);
            if blank > 0 {
                self.advance(blank);
            }
        }
    }

    /// Whether the game of `end` bytes at `self.pos`, blank lines around it
    /// left out, is over the size limit (one byte over is too large,
    /// whatever the lookahead let through).
    fn over_the_limit(&self, end: usize) -> bool {
        let text = &self.buf[self.pos..self.pos + end];
        let first = text.iter().position(|b| !grammar::is_space(*b));
        let last = text.iter().rposition(|b| !grammar::is_space(*b));
        matches!((first, last), (Some(f), Some(l)) if l + 1 - f > self.max_game)
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
            None => return self.none_left(),
            Some(Parsed::TooLarge(g)) => return Ok(Some(g)),
            Some(Parsed::Game { end, result, diags }) => (end, result, diags),
        };
        // The file's first game that is not UTF-8 decides its encoding from
        // the bytes from the game on: a fixed amount of them.
        let bad = decode::first_invalid_utf8(&self.buf[self.pos..self.pos + end]);
        if self.file_encoding.is_none() && bad.is_some() {
            self.fill_ahead(ENCODING_SAMPLE);
        }
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
        let sample = &buf[self.pos..buf.len().min(self.pos + ENCODING_SAMPLE)];
        let encoding = self.choose_encoding(&text, bad, sample, &mut diags);
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
            None => return self.none_left().map(|_| None),
            Some(Parsed::TooLarge(g)) => return Ok(Some(RawGame::of(&g).visit(v))),
            Some(Parsed::Game { end, result, diags }) => (end, result, diags),
        };
        let bad = decode::first_invalid_utf8(&self.buf[self.pos..self.pos + end]);
        if self.file_encoding.is_none() && bad.is_some() {
            self.fill_ahead(ENCODING_SAMPLE);
        }
        let buf = std::mem::take(&mut self.buf);
        let sample = &buf[self.pos..buf.len().min(self.pos + ENCODING_SAMPLE)];
        let encoding =
            self.choose_encoding(&buf[self.pos..self.pos + end], bad, sample, &mut diags);
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
        bad: Option<usize>,
        sample: &[u8],
        diags: &mut Vec<Diagnostic>,
    ) -> TextEncoding {
        if let Some(note) = self.pending_note.take() {
            diags.push(Diagnostic::new(Code::Encoding, 0..0, note));
        }
        let mut state = EncodingState {
            encoding: self.encoding(),
            file_encoding: self.file_encoding,
        };
        let at = GameAt {
            offset: self.offset,
            index: self.index,
        };
        let sample = if sample.is_empty() { text } else { sample };
        let chosen = choose_encoding(&mut state, at, text, bad, || decode::detect(sample), diags);
        if !text.is_ascii() {
            self.encoding = Some(state.encoding);
        }
        self.file_encoding = state.file_encoding;
        chosen
    }
}

/// What a reader has decided about the encoding: the encoding of its last
/// game that was not ASCII, and the file's (at its first game not in UTF-8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct EncodingState {
    pub(crate) encoding: TextEncoding,
    pub(crate) file_encoding: Option<TextEncoding>,
}

/// Where a game is, for the findings about its encoding: its offset and the
/// games before it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GameAt {
    pub(crate) offset: u64,
    pub(crate) index: usize,
}

/// Decides the encoding of a game's `text` in the reader's `state` (and of
/// the file, at its first game that is not UTF-8, by `detect`), adding a
/// finding to `diags` where it says something.
pub(crate) fn choose_encoding(
    state: &mut EncodingState,
    game: GameAt,
    text: &[u8],
    bad: Option<usize>,
    detect: impl FnOnce() -> TextEncoding,
    diags: &mut Vec<Diagnostic>,
) -> TextEncoding {
    let previous = state.encoding;
    let (chosen, note) = match (bad, state.file_encoding) {
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
            let at = game.offset + bad as u64;
            let enc = detect();
            state.file_encoding = Some(enc);
            let msg = match enc {
                TextEncoding::Utf8 => {
                    format!("invalid UTF-8 bytes replaced with U+FFFD (first at byte offset {at})")
                }
                TextEncoding::Legacy(e) => format!(
                    "the file is not UTF-8 (first non-UTF-8 byte at offset {at}); decoded as {}",
                    e.name()
                ),
            };
            diags.push(Diagnostic::new(Code::Encoding, bad..bad + 1, msg));
            (enc, None)
        }
        (Some(bad), Some(TextEncoding::Utf8)) => {
            let at = game.offset + bad as u64;
            let msg =
                format!("invalid UTF-8 bytes replaced with U+FFFD (first at byte offset {at})");
            diags.push(Diagnostic::new(Code::Encoding, bad..bad + 1, msg));
            (TextEncoding::Utf8, None)
        }
        (Some(_), Some(file @ TextEncoding::Legacy(fe))) => {
            // Another game not in UTF-8: the file's encoding, unless this
            // game is plainly in another one.
            let bad_words = decode::implausible_words_in(file, text);
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
                    Some(o) if decode::implausible_words_in(o, text) < bad_words => (o, None),
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
            if game.index > 0
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
        state.encoding = chosen;
    }
    chosen
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

#[cfg(test)]
mod tests;
