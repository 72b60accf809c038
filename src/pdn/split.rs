//! Reading one file in pieces, on as many threads as there are pieces, with
//! exactly the games one [`Reader`] of the whole file makes.
//!
//! # How
//! 1. The file is cut into pieces at likely game boundaries (`cut`): a line
//!    that starts with `[` after a blank line. Finding them is a scan for
//!    `\n[`, far cheaper than reading.
//! 2. Each piece is read on its own (`read_piece`), as though a game began
//!    at its first byte (line 1, no game before it, nothing decided about the
//!    encoding). The reading goes on past the piece's end into the bytes after
//!    it, to finish the game that crosses the end, and records the reader's
//!    state at every point between two games.
//! 3. A `Stitcher` takes the pieces in file order. The reading of the file so
//!    far ended at some point; where the next piece's reading passed the same
//!    point in the same state, its games from there on are the whole-file
//!    reader's games: the stitcher numbers them, moves their lines, and drops
//!    a once-per-file warning already given. Where it did not (the cut was not
//!    a game boundary after all, the piece ran out of bytes, or the file is not
//!    UTF-8 and its encoding is being decided), the stitcher reads on from the
//!    point itself, in step by construction, until it meets a piece's reading
//!    again.
//!
//! Cutting is only a guess: a wrong guess costs time, never a different game.
//! A UTF-16/32 file (its offsets count the UTF-8 text) is not read in pieces:
//! the stitcher gathers its pieces and reads it whole at its end (the command
//! line reads such files whole on its reading thread instead).
//! The unit tests below read every corpus file cut at random points and
//! compare every game with the whole-file reader's, and so does the `split`
//! fuzz target (`fuzz_split`, built only under `cfg(fuzzing)`).

use super::game::Game;
use super::lexer::ESCAPE_WARNING;
use super::reader::Reader;
use super::reader::{choose_encoding, EncodingState, GameAt, Resume, TextPos};
use super::text::count_breaks;
use super::vocab::TextEncoding;
use crate::diag::Code;
use std::io::{self, Read};

/// The last point of `block` (never 0) where a piece may end: the start of a
/// line that begins with `[` after a blank line, failing that of a line that
/// begins with `[` after a line that is not a tag alone (movetext, a result:
/// the end of a game). `None` when there is none: read on and try again, or
/// `cut_anywhere`. A line after a tag line is never a cut: the tags of one
/// game are never shared between pieces, whose reading would then start
/// again from the game's start at each piece (a game of 200,000 tags read
/// in quadratic time, issue 40). Lines end in LF, CRLF, LF-CR or a lone CR
/// (classic Mac): a file of any of them is cut into pieces alike (issue 51).
pub(crate) fn cut(block: &[u8]) -> Option<usize> {
    let mut any = None;
    for at in memchr::memrchr_iter(b'[', block) {
        if at == 0 || !matches!(block[at - 1], b'\n' | b'\r') {
            continue;
        }
        // The line before this one, without the break that ends it (one
        // byte, or a pair CR LF or LF CR).
        let mut end = at - 1;
        if end > 0 && is_pair(block[end - 1], block[end]) {
            end -= 1;
        }
        let before = &block[..end];
        let line_start = memchr::memrchr2(b'\n', b'\r', before).map_or(0, |i| i + 1);
        let line = &before[line_start..];
        if line_start > 0 && line.iter().all(|b| matches!(b, b' ' | b'\t')) {
            return Some(at);
        }
        let trimmed = line.trim_ascii();
        let tag_alone = trimmed.first() == Some(&b'[') && trimmed.last() == Some(&b']');
        if !tag_alone {
            any.get_or_insert(at);
        }
    }
    any
}

/// `a` then `b` make one line break (CR LF, or LF CR).
fn is_pair(a: u8, b: u8) -> bool {
    matches!((a, b), (b'\r', b'\n') | (b'\n', b'\r'))
}

/// The start of the last line of `block` whose first byte is not a line
/// break (never 0), for a block with no `cut` at all. A line ends in LF, CR
/// or a pair of them.
pub(crate) fn cut_anywhere(block: &[u8]) -> Option<usize> {
    memchr::memrchr2_iter(b'\n', b'\r', block)
        .map(|i| i + 1)
        .find(|&at| at < block.len() && !matches!(block[at], b'\n' | b'\r'))
}

/// A piece of a file to read: its bytes, the bytes after it that are at
/// hand, and where it starts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Piece<'a> {
    text: &'a [u8],
    after: &'a [&'a [u8]],
    eof: bool,
    start: u64,
    /// The line break byte just before `text` that a break at its start
    /// would pair with (see `count_breaks`).
    open: Option<u8>,
    /// What is taken as decided about the encoding at `start`.
    decided: Option<Decided>,
}

impl<'a> Piece<'a> {
    /// `text`, at byte `start` of its file, followed by the bytes in `after`;
    /// `eof`: the file ends after them. `text` starts at a point `cut` or
    /// `cut_anywhere` found, or at the start of the file.
    pub(crate) fn new(text: &'a [u8], after: &'a [&'a [u8]], eof: bool, start: u64) -> Piece<'a> {
        Piece {
            text,
            after,
            eof,
            start,
            open: None,
            decided: None,
        }
    }
    /// The same piece, whose first byte follows `before` (the bytes of the
    /// file just before it, as many as are at hand): see [`open_before`].
    #[cfg(any(test, fuzzing))]
    pub(crate) fn after_bytes(self, before: &[u8]) -> Piece<'a> {
        self.open(open_before(before))
    }
    /// The same piece, read as though the file's reading had decided
    /// `decided` about the encoding by its start ([`Stitcher::decided`]): a
    /// guess, which spares the stitcher reading its games that are not ASCII
    /// again when it is right.
    pub(crate) fn decided(mut self, decided: Decided) -> Piece<'a> {
        self.decided = Some(decided);
        self
    }
    /// The same piece, after a line break byte `open` a break at its start
    /// would pair with ([`open_before`]).
    pub(crate) fn open(mut self, open: Option<u8>) -> Piece<'a> {
        self.open = open;
        self
    }
}

/// The line break byte at the end of `before` that a break right after it
/// would pair with (`\r` then `\n`, or `\n` then `\r`), if any.
pub(crate) fn open_before(before: &[u8]) -> Option<u8> {
    let run = before
        .iter()
        .rev()
        .take_while(|b| matches!(b, b'\n' | b'\r'))
        .count();
    count_breaks(&before[before.len() - run..], None).2
}

/// The bytes of a piece and those after it, as a `Read` whose end is an
/// error unless the file ends there.
struct Bytes<'a> {
    parts: Vec<&'a [u8]>,
    eof: bool,
}

impl Read for Bytes<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while let Some(first) = self.parts.first_mut() {
            if first.is_empty() {
                self.parts.remove(0);
                continue;
            }
            let n = first.len().min(buf.len());
            buf[..n].copy_from_slice(&first[..n]);
            *first = &first[n..];
            return Ok(n);
        }
        if self.eof {
            Ok(0)
        } else {
            Err(io::Error::other("the bytes at hand end here"))
        }
    }
}

/// A piece as read: its games, and the reader's state before each of them
/// and after the last.
#[derive(Debug)]
pub(crate) struct PieceRead {
    games: Vec<Game>,
    points: Vec<Resume>,
    /// Line breaks in the piece's own bytes.
    breaks: u32,
}

/// Reads at most `limit` games that start in `piece` from the state `at`
/// (the point where `piece` starts), reading on into the bytes after it to
/// finish the last one: the games, the state before each and after the
/// last, and whether the reading met the end of the file. The reading stops
/// early, with the games before, when it needs more bytes than are at hand.
fn read_from(
    piece: &Piece,
    at: Resume,
    limit: usize,
    max_game_bytes: usize,
) -> (Vec<Game>, Vec<Resume>, bool) {
    let stop = at.offset() + piece.text.len() as u64;
    let held: usize = piece.after.iter().map(|p| p.len()).sum();
    let src = Bytes {
        parts: piece.after.to_vec(),
        eof: piece.eof,
    };
    // The piece's own bytes are handed to the reader as they are (a read
    // would zero its room first: issue 65, 2.6 % of the reader); the bytes
    // after it are read as it needs them.
    let mut reader = Reader::resume(src, &at)
        .max_game_bytes(max_game_bytes)
        .fill_size(held.saturating_add(1))
        .holding(piece.text);
    let mut games = Vec::new();
    let mut points = vec![at];
    while games.len() < limit && points.last().is_some_and(|p| p.offset() < stop) {
        match reader.next_game() {
            // Decided from fewer bytes than the whole-file reader would have
            // looked at (the encoding, the head of a skipped game): not this game.
            Ok(Some(_)) if reader.short_read => break,
            Ok(Some(g)) => {
                games.push(g);
                points.push(reader.resume_state());
            }
            Ok(None) => return (games, points, true),
            Err(_) => break,
        }
    }
    (games, points, false)
}

/// Reads `piece` on its own, as though a game began at its first byte: the
/// work done in parallel, one piece per thread.
pub(crate) fn read_piece(piece: &Piece, max_game_bytes: usize) -> PieceRead {
    let mut at = Resume::file_start();
    if piece.start > 0 {
        at.offset = piece.start;
        at.at.open = piece.open;
        at.started = true;
    }
    if let Some(Decided(encoding, file_encoding)) = piece.decided {
        at.encoding = encoding;
        at.file_encoding = file_encoding;
    }
    let (games, points, _) = read_from(piece, at, usize::MAX, max_game_bytes);
    // The line breaks in the piece: the reader counted those up to its last
    // point inside the piece; the rest are counted here.
    let stop = piece.start + piece.text.len() as u64;
    let breaks = match points.iter().rev().find(|p| p.offset <= stop) {
        Some(p) => {
            let rest = &piece.text[(p.offset - piece.start) as usize..];
            (p.at.line - 1) + count_breaks(rest, p.at.open).0
        }
        None => count_breaks(piece.text, None).0,
    };
    PieceRead {
        games,
        points,
        breaks,
    }
}

/// What a file's reading has decided about its encoding at some point: the
/// encoding of its last game that was not ASCII, and the file's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Decided(TextEncoding, Option<TextEncoding>);

impl Decided {
    /// Whether the file's encoding is decided (a game that is not UTF-8 was read).
    pub(crate) fn is_made(&self) -> bool {
        self.1.is_some()
    }
    /// A guess, from the bytes of one piece of a file, of what the file's
    /// reading has decided about its encoding by the piece's end, when the
    /// piece is not valid UTF-8: the encoding its first game that is not
    /// UTF-8 decides, from a quarter of the bytes the reader looks at. `None`
    /// when the piece is UTF-8 (the reading decides nothing there). For the
    /// pieces after it ([`Piece::decided`]) before the stitcher knows.
    pub(crate) fn guess(piece: &[u8]) -> Option<Decided> {
        let bad = super::decode::first_invalid_utf8(piece)?;
        // The game holding the byte most likely starts at the last tag line
        // after a blank line before it.
        let start = memchr::memmem::rfind(&piece[..bad], b"\n\n[").map_or(0, |i| i + 2);
        // A quarter of the reader's sample: a guess need not be sure.
        let sample = &piece[start..piece.len().min(start + super::reader::ENCODING_SAMPLE / 4)];
        let enc = super::decode::detect(sample);
        Some(Decided(enc, Some(enc)))
    }
}

/// A piece's reading being stitched: its games not taken yet, the reader's
/// state before each, and the lines to add to them.
#[derive(Debug, Default)]
struct Pending {
    games: Vec<Option<Game>>,
    points: Vec<Resume>,
    shift: u32,
    /// The first point not looked at yet.
    next: usize,
}

/// Takes the pieces of one file in order and hands out the games one reader
/// of the whole file would have read (see the [module](self)).
#[derive(Debug)]
pub(crate) struct Stitcher {
    /// The whole-file reader's state after the games handed out so far.
    at: Resume,
    /// The line of the next piece's first byte.
    next_line: u32,
    pending: Pending,
    /// A UTF-16/32 file (its offsets count the UTF-8 text, not the pieces'
    /// bytes): its bytes from the start, gathered to be read whole at its end.
    wide: Option<Vec<u8>>,
}

impl Default for Stitcher {
    fn default() -> Self {
        Stitcher::new()
    }
}

impl Stitcher {
    /// For a file read from its start.
    pub(crate) fn new() -> Stitcher {
        Stitcher {
            at: Resume::file_start(),
            next_line: 1,
            pending: Pending::default(),
            wide: None,
        }
    }

    /// Where the games handed out so far end.
    pub(crate) fn offset(&self) -> u64 {
        self.at.offset()
    }

    /// What the file's reading has decided about its encoding so far: the
    /// pieces after it most likely read with the same ([`Piece::decided`]).
    pub(crate) fn decided(&self) -> Decided {
        Decided(self.at.encoding, self.at.file_encoding)
    }

    /// The next piece of the file (`text`, at byte `start`), and `read`, its
    /// reading by [`read_piece`]: the games of the file that start in it, in
    /// order, and whether they are all there. `after` holds the bytes after
    /// the piece that are at hand (`eof`: the file ends after them). Where
    /// the piece's reading is out of step, the stitcher reads the piece
    /// itself, and may need more of the bytes after it than `after` holds:
    /// it returns `false` then, and [`Stitcher::resume`] goes on with more.
    pub(crate) fn take(
        &mut self,
        read: PieceRead,
        text: &[u8],
        start: u64,
        after: &[&[u8]],
        eof: bool,
        max_game_bytes: usize,
    ) -> (Vec<Game>, bool) {
        if let Some(games) = self.gather_wide(text, start, after, eof, max_game_bytes) {
            return (games, true);
        }
        self.pending = Pending {
            games: read.games.into_iter().map(Some).collect(),
            points: read.points,
            shift: self.next_line - 1,
            next: 0,
        };
        self.next_line = self.next_line.saturating_add(read.breaks);
        let mut games = Vec::new();
        let done = self.resume(&mut games, text, start, after, eof, max_game_bytes);
        (games, done)
    }

    /// Goes on with the piece given to [`Stitcher::take`] (`text` at byte
    /// `start`) with more bytes after it; adds the games to `games`. True
    /// when the piece's games are all there.
    pub(crate) fn resume(
        &mut self,
        games: &mut Vec<Game>,
        text: &[u8],
        start: u64,
        after: &[&[u8]],
        eof: bool,
        max_game_bytes: usize,
    ) -> bool {
        let end = start + text.len() as u64;
        loop {
            self.take_in_step(games);
            if self.at.wide {
                // The file turned out to be UTF-16/32 (at its first game):
                // its bytes so far are these, and it is read whole at its end.
                games.clear();
                let mut all = text.to_vec();
                after.iter().for_each(|a| all.extend_from_slice(a));
                self.wide = Some(all);
                self.at = Resume::file_start();
                let last = self.gather_wide(&[], end, &[], eof && after.is_empty(), max_game_bytes);
                games.extend(last.unwrap_or_default());
                return true;
            }
            if self.at.offset() >= end {
                return true;
            }
            // Out of step: one game read here, then the piece's reading may
            // be in step again after it.
            let Some(from) = self.at.offset().checked_sub(start) else {
                return true; // Cannot happen: pieces come in order, each read to its end.
            };
            let rest = Piece::new(&text[from as usize..], after, eof, self.at.offset());
            let (read, points, ended) = read_from(&rest, self.at.clone(), 1, max_game_bytes);
            let Some(last) = points.into_iter().nth(1) else {
                return ended;
            };
            self.at = last;
            games.extend(read);
        }
    }

    /// Reads the one game that starts at the stitcher's point from `src`,
    /// the file's bytes from that point on, pulled as the reading needs them
    /// (a game past the size limit is streamed past, never held whole), and
    /// moves the point after it. `None` when the bytes end first (a read
    /// error in the game).
    #[cfg(feature = "batch")]
    pub(crate) fn read_across(&mut self, src: impl Read, max_game_bytes: usize) -> Option<Game> {
        let mut reader = Reader::resume(src, &self.at).max_game_bytes(max_game_bytes);
        match reader.next_game() {
            Ok(Some(g)) if !reader.short_read => {
                self.at = reader.resume_state();
                Some(g)
            }
            _ => None,
        }
    }

    /// Pieces whose bytes were all read by [`Stitcher::read_across`], with
    /// `breaks` line breaks (`count_breaks` of each, after its `open`): they
    /// are counted as though the pieces had been taken.
    #[cfg(feature = "batch")]
    pub(crate) fn pass(&mut self, breaks: u32) {
        self.next_line = self.next_line.saturating_add(breaks);
    }

    /// For a UTF-16/32 file: gathers the bytes of the piece (`text` at
    /// `start`) not gathered yet, and reads the whole file at its end (`eof`
    /// and nothing after). `None` for any other file.
    fn gather_wide(
        &mut self,
        text: &[u8],
        start: u64,
        after: &[&[u8]],
        eof: bool,
        max_game_bytes: usize,
    ) -> Option<Vec<Game>> {
        let all = self.wide.as_mut()?;
        let have = all.len() as u64;
        let end = start + text.len() as u64;
        if end > have {
            let from = have.saturating_sub(start) as usize;
            all.extend_from_slice(&text[from.min(text.len())..]);
        }
        if !(eof && after.is_empty()) {
            return Some(Vec::new());
        }
        let mut reader = Reader::new(&all[..]).max_game_bytes(max_game_bytes);
        Some(std::iter::from_fn(|| reader.next_game().ok().flatten()).collect())
    }

    /// The games of the pending reading from the point where the games so
    /// far end, while it reads them as the file's reading would: numbered,
    /// lined (`shift` lines down) and with the once-per-file warning given once.
    fn take_in_step(&mut self, out: &mut Vec<Game>) {
        let p = &mut self.pending;
        while p.next < p.points.len() && p.points[p.next].offset < self.at.offset {
            p.next += 1;
        }
        while p.next < p.games.len() {
            let (before, after) = (&p.points[p.next], &p.points[p.next + 1]);
            let Some(g) = p.games[p.next].as_mut() else {
                return;
            };
            if !in_step(before, &self.at, p.shift) {
                return;
            }
            // Every byte read for the game (its text, and nothing skipped) is ASCII.
            let whole = g.text.len() as u64 == after.offset - before.offset;
            let ascii = whole && g.text.is_ascii();
            let same = before.encoding == self.at.encoding
                && before.file_encoding == self.at.file_encoding
                && (before.index == 0) == (self.at.index == 0);
            // A game skipped as too large decides nothing about the encoding
            // (the file's reading skips it without looking), whatever bytes
            // the piece kept of its head.
            let skipped = g.diagnostics.iter().any(|d| d.code == Code::GameTooLarge);
            if skipped {
                g.encoding = self.at.encoding;
            }
            let (encoding, file_encoding, pos) = if ascii || skipped {
                // Reads the same whatever was decided, and decides nothing.
                let pos = TextPos {
                    line: after.at.line.saturating_add(p.shift),
                    ..after.at
                };
                (self.at.encoding, self.at.file_encoding, pos)
            } else if same {
                let pos = TextPos {
                    line: after.at.line.saturating_add(p.shift),
                    ..after.at
                };
                (after.encoding, after.file_encoding, pos)
            } else {
                match redecide(g, before, after, &self.at, whole) {
                    Some(state) => state,
                    // Read again by the stitcher itself.
                    None => return,
                }
            };
            let Some(mut g) = p.games[p.next].take() else {
                return;
            };
            g.index = self.at.index + 1;
            g.line = g.line.saturating_add(p.shift);
            let warned = self.at.escape_warned;
            if warned {
                drop_escape_warning(&mut g);
            }
            self.at = Resume {
                offset: after.offset,
                at: pos,
                index: g.index,
                escape_warned: warned || after.escape_warned,
                encoding,
                file_encoding,
                started: after.started,
                wide: after.wide,
            };
            out.push(g);
            p.next += 1;
        }
    }
}

/// A game read by a piece in another state of the encoding than the file's
/// reading is in at `at`: its encoding decided again as that reading would
/// (the parse itself does not depend on it), and where the reading then
/// stands. `None` when that needs what the piece did not look at: the
/// file's encoding decided from the bytes after the game, which the piece
/// did not do (it took a guess), or a game with skipped bytes.
fn redecide(
    g: &mut Game,
    before: &Resume,
    after: &Resume,
    at: &Resume,
    whole: bool,
) -> Option<(TextEncoding, Option<TextEncoding>, TextPos)> {
    let bad = super::decode::first_invalid_utf8(&g.text);
    if !whole || (at.file_encoding.is_none() && bad.is_some() && before.file_encoding.is_some()) {
        return None;
    }
    // The piece's findings about the encoding are the last of the game's.
    while g
        .diagnostics
        .last()
        .is_some_and(|d| d.code == Code::Encoding)
    {
        g.diagnostics.pop();
    }
    let mut state = EncodingState {
        encoding: at.encoding,
        file_encoding: at.file_encoding,
    };
    let game = GameAt {
        offset: at.offset,
        index: at.index,
    };
    // The detection, when it runs, is the one the piece ran from the same bytes.
    let detected = after.file_encoding.unwrap_or(TextEncoding::Utf8);
    g.encoding = choose_encoding(
        &mut state,
        game,
        &g.text,
        bad,
        || detected,
        &mut g.diagnostics,
    );
    let mut pos = at.at;
    pos.over(&g.text, state.encoding);
    Some((state.encoding, state.file_encoding, pos))
}

/// Whether a piece's reading, at `p` before a game, was where the file's
/// reading is at `at` (the encoding aside: see `redecide`): then it read
/// the game as the file's reading would.
fn in_step(p: &Resume, at: &Resume, shift: u32) -> bool {
    p.offset == at.offset
        && p.at.line.saturating_add(shift) == at.at.line
        && p.at.column0 == at.at.column0
        && p.at.open == at.at.open
        && p.started == at.started
        // A warning the piece gave before the point is one the file's
        // reading gave too; one given after it is dropped if need be.
        && (!p.escape_warned || at.escape_warned)
}

/// Drops the once-per-file warning about literal `\r` text, given again by a
/// piece read on its own.
fn drop_escape_warning(g: &mut Game) {
    if let Some(i) = g
        .diagnostics
        .iter()
        .position(|d| d.code == Code::Nonstandard && d.message == ESCAPE_WARNING)
    {
        g.diagnostics.remove(i);
    }
}

/// The games of `file` cut at `cuts` (increasing, inside the file), each
/// piece read on its own and stitched, as the pipeline does it. Pieces are
/// read before any stitching (no guess about the encoding), or just before
/// their own stitching, with the stitcher's guess (`guess`).
#[cfg(any(test, fuzzing))]
fn stitched(file: &[u8], cuts: &[usize], max: usize, guess: bool) -> Vec<Game> {
    let mut bounds = vec![0];
    bounds.extend_from_slice(cuts);
    bounds.push(file.len());
    let pieces: Vec<&[u8]> = bounds.windows(2).map(|w| &file[w[0]..w[1]]).collect();
    let n = pieces.len();
    let piece = |k: usize| {
        let after = &pieces[(k + 1).min(n)..(k + 2).min(n)];
        Piece::new(pieces[k], after, k + 2 >= n, bounds[k] as u64).after_bytes(&file[..bounds[k]])
    };
    let mut early: Vec<_> = (0..n)
        .map(|k| (!guess).then(|| read_piece(&piece(k), max)))
        .collect();
    let mut st = Stitcher::new();
    let mut games = Vec::new();
    for k in 0..n {
        let read = match early[k].take() {
            Some(r) => r,
            None => read_piece(&piece(k).decided(st.decided()), max),
        };
        let start = bounds[k] as u64;
        let mut m = 1;
        let after = |m: usize| &pieces[(k + 1).min(n)..(k + 1 + m).min(n)];
        let (g, mut done) = st.take(read, pieces[k], start, after(m), k + 1 + m >= n, max);
        games.extend(g);
        while !done && k + 1 + m < n {
            m += 1;
            done = st.resume(&mut games, pieces[k], start, after(m), k + 1 + m >= n, max);
        }
    }
    games
}

/// A small xorshift generator: the same cuts for the same seed.
#[cfg(any(test, fuzzing))]
struct Rng(u64);

#[cfg(any(test, fuzzing))]
impl Rng {
    /// A number below `n` (0 when `n` is 0).
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// The `split` fuzz target: any bytes cut into pieces at points the input's
/// first bytes choose, each piece read on its own and stitched (as `-j N`
/// reads a file), give exactly the games of one reader of the whole input,
/// with a small game limit or none. Panics when they do not.
#[cfg(any(test, fuzzing))]
pub fn fuzz_split(data: &[u8]) {
    let (head, file) = data.split_at(data.len().min(3));
    let seed = head.iter().fold(0x9e37_79b9u64, |s, &b| {
        s.rotate_left(8) ^ u64::from(b) ^ 0x5bd1
    });
    let max = match head.first() {
        Some(b) if b % 2 == 0 => 16 + usize::from(*b),
        _ => super::reader::DEFAULT_MAX_GAME_BYTES,
    };
    if file.len() < 2 {
        return;
    }
    let mut rng = Rng(seed | 1);
    let mut cuts: Vec<usize> = (0..1 + file.len() / 16)
        .filter_map(|_| {
            let at = 1 + rng.below(file.len() - 1);
            let pair = matches!((file[at - 1], file[at]), (b'\r', b'\n') | (b'\n', b'\r'));
            (!pair).then_some(at)
        })
        .collect();
    cuts.sort_unstable();
    cuts.dedup();
    let whole: Vec<Game> = Reader::new(file)
        .max_game_bytes(max)
        .collect::<Result<_, _>>()
        .unwrap_or_default();
    for guess in [false, true] {
        assert_eq!(stitched(file, &cuts, max, guess), whole, "cuts {cuts:?}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_piece_never_ends_inside_a_games_tags() {
        // 10,000 tag lines of one game: no cut, so the game is read once
        // (issue 40: cut between its tags, it was read again from its start
        // at every piece, in quadratic time).
        let tags: String = (0..10_000).map(|i| format!("[T{i} \"v\"]\n")).collect();
        assert_eq!(cut(tags.as_bytes()), None);
        // After a blank line, or after movetext or a result: a cut.
        let two = format!("{tags}1. 32-28 *\n[Event \"b\"]\n1. 32-28 *\n");
        assert_eq!(cut(two.as_bytes()), two.find("[Event"));
        let blank = "[A \"1\"]\n\n[B \"2\"]\n[C \"3\"]\n";
        assert_eq!(cut(blank.as_bytes()), blank.find("[B"));
        // A FEN and its result on one line ends a game.
        let ballots = "[FEN \"W:W21:B1\"] *\n[FEN \"W:W22:B1\"] *\n";
        assert_eq!(cut(ballots.as_bytes()), ballots.find("[FEN \"W:W22"));
    }

    /// The pieces of the doc's two-game file, read on their own and stitched.
    #[test]
    fn two_pieces_stitched_are_the_whole_file() {
        let file = b"[Event \"a\"]\n1. 32-28 1-0\n\n[Event \"b\"]\n1. 33-29 0-1\n";
        let at = cut(file).expect("the second game's `[`");
        assert_eq!(&file[at..at + 7], b"[Event ");
        let (first, second) = file.split_at(at);
        let a = read_piece(&Piece::new(first, &[second], true, 0), 1 << 20);
        let b = read_piece(&Piece::new(second, &[], true, at as u64), 1 << 20);
        let mut st = Stitcher::new();
        let mut games = st.take(a, first, 0, &[second], true, 1 << 20).0;
        games.extend(st.take(b, second, at as u64, &[], true, 1 << 20).0);
        let whole: Vec<_> = Reader::new(&file[..]).map(Result::unwrap).collect();
        assert_eq!(whole.len(), 2);
        assert_eq!(games, whole);
    }

    const MAX: usize = super::super::DEFAULT_MAX_GAME_BYTES;

    fn whole(file: &[u8], max: usize) -> Vec<Game> {
        Reader::new(file)
            .max_game_bytes(max)
            .collect::<Result<_, _>>()
            .expect("memory reads")
    }

    /// The splitter's cuts for blocks of `block` bytes (as the pipeline cuts).
    fn splitter_cuts(file: &[u8], block: usize) -> Vec<usize> {
        let mut cuts = Vec::new();
        let mut from = 0;
        while file.len() - from > block {
            let window = &file[from..from + block];
            match cut(window).or_else(|| cut_anywhere(window)) {
                Some(at) => {
                    from += at;
                    cuts.push(from);
                }
                None => from += block,
            }
        }
        cuts
    }

    /// Random cuts: at line starts (`lines`) or anywhere but inside a line
    /// break pair.
    fn random_cuts(file: &[u8], rng: &mut Rng, count: usize, lines: bool) -> Vec<usize> {
        let mut cuts: Vec<usize> = (0..count)
            .filter_map(|_| {
                let at = 1 + rng.below(file.len().saturating_sub(1));
                if lines {
                    cut_anywhere(&file[..at])
                } else {
                    let pair = |a: u8, b: u8| matches!((a, b), (b'\r', b'\n') | (b'\n', b'\r'));
                    (at < file.len() && !pair(file[at - 1], file[at])).then_some(at)
                }
            })
            .collect();
        cuts.sort_unstable();
        cuts.dedup();
        cuts
    }

    /// One file cut where the splitter cuts it for several block sizes, and
    /// at random line starts and random bytes: the whole file's games.
    fn pieces_of(path: &std::path::Path, rng: &mut Rng) {
        let file = std::fs::read(path).expect("readable");
        let expected = whole(&file, MAX);
        for block in [64, 512, 4096, 65536] {
            let cuts = splitter_cuts(&file, block);
            for guess in [false, true] {
                let got = stitched(&file, &cuts, MAX, guess);
                assert_eq!(got, expected, "{} in blocks of {block}", path.display());
            }
        }
        for lines in [true, false] {
            for _ in 0..3 {
                let cuts = random_cuts(&file, rng, 1 + file.len() / 2000, lines);
                let got = stitched(&file, &cuts, MAX, lines);
                assert_eq!(got, expected, "{} cut at {cuts:?}", path.display());
            }
        }
    }

    #[test]
    fn pieces_of_this_repository_files_read_as_the_whole_file() {
        let files = crate::pdn::test_files(&["corpus", "tests/data", "fuzz/corpus"], &[]);
        assert!(files.len() > 20, "the repository's own files are found");
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for f in &files {
            pieces_of(f, &mut rng);
        }
    }

    #[test]
    fn pieces_of_the_real_corpus_read_as_the_whole_file() {
        let files = crate::pdn::test_files(&[], &["corpus/real"]);
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for f in &files {
            pieces_of(f, &mut rng);
        }
    }

    /// `file` with every line break (LF, CRLF) written as `eol`.
    fn with_line_ends(file: &[u8], eol: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(file.len() + file.len() / 16);
        let mut i = 0;
        while i < file.len() {
            match file[i] {
                b'\r' if file.get(i + 1) == Some(&b'\n') => {
                    out.extend_from_slice(eol);
                    i += 2;
                }
                b'\n' => {
                    out.extend_from_slice(eol);
                    i += 1;
                }
                b => {
                    out.push(b);
                    i += 1;
                }
            }
        }
        out
    }

    #[test]
    fn files_of_every_line_end_are_cut_into_pieces_at_their_games() {
        // Issue 51: a lone-CR (classic Mac) or LF-CR file was one piece, held
        // whole. Every line end is cut at game starts where LF is, and the
        // pieces read as the whole file.
        let files = crate::pdn::test_files(&["corpus"], &[]);
        assert!(files.len() > 5, "the repository's corpus is found");
        let mut rng = Rng(0x51);
        for path in &files {
            let lf = with_line_ends(&std::fs::read(path).expect("readable"), b"\n");
            let games = |f: &[u8]| whole(f, MAX).len();
            let lf_cuts = splitter_cuts(&lf, 512).len();
            for eol in [&b"\r"[..], b"\n\r", b"\r\n"] {
                let file = with_line_ends(&lf, eol);
                let cuts = splitter_cuts(&file, 512);
                assert_eq!(
                    cuts.is_empty(),
                    lf_cuts == 0,
                    "{} with {eol:?}",
                    path.display()
                );
                let expected = whole(&file, MAX);
                assert_eq!(
                    expected.len(),
                    games(&lf),
                    "{} with {eol:?}",
                    path.display()
                );
                for guess in [false, true] {
                    let got = stitched(&file, &cuts, MAX, guess);
                    assert_eq!(got, expected, "{} with {eol:?}", path.display());
                }
                let cuts = random_cuts(&file, &mut rng, 1 + file.len() / 500, true);
                assert_eq!(stitched(&file, &cuts, MAX, false), expected);
            }
        }
        // A blank line is a blank line whatever the breaks: the cut after it
        // is preferred to the one after movetext.
        for eol in ["\n", "\r", "\r\n", "\n\r"] {
            let text = format!("[A \"1\"]{eol}{eol}[B \"2\"]{eol}1. 32-28 *{eol}[C \"3\"]{eol}");
            assert_eq!(cut(text.as_bytes()), text.find("[B"), "{eol:?}");
            let moves = format!("[A \"1\"]{eol}1. 32-28 *{eol}[C \"3\"]{eol}");
            assert_eq!(cut(moves.as_bytes()), moves.find("[C"), "{eol:?}");
            let blank = format!("[A \"1\"]{eol}{eol}[B \"2\"]{eol}[C \"3\"]{eol}");
            assert_eq!(cut(blank.as_bytes()), blank.find("[B"), "{eol:?}");
            let tags = format!("[A \"1\"]{eol}[B \"2\"]{eol}[C \"3\"]{eol}");
            assert_eq!(cut(tags.as_bytes()), None, "{eol:?}");
        }
    }

    #[test]
    fn a_small_game_limit_and_odd_files_read_as_the_whole_file() {
        let cases: Vec<Vec<u8>> = vec![
            b"\xEF\xBB\xBF[Event \"a\"]\r\n1. 32-28 *\r\n\r\n[Event \"b\"]\r\n1. 33-29 *\r\n".to_vec(),
            b"[Event \"a\"]\n1. 32-28 {a comment\n\n[Event \"b\"]\n} 1-0\n\n[Event \"c\"]\n1. 31-27 *\n".to_vec(),
            b"1. 32-28 \\r\\n 1-0\n\n[Event \"b\"]\n1. 33-29 \\r\\n *\n\n[E \"c\"]\n1. 34-30 \\r\\n *\n".to_vec(),
            b"[Event \"caf\xe9\"]\n1. 32-28 *\n\n[Event \"b\"]\n1. 33-29 *\n\n[Event \"\xe0\"]\n1. 31-27 *\n".to_vec(),
            b"[Event \"a\"]\n1. 32-28\n[Event \"b\"]\n1. 33-29\n\n\n[Event \"c\"]\n(1. 34-30\n\n[Event \"d\"]\n*".to_vec(),
            b"\n\n\r\n\r[Event \"a\"]\n\r1. 32-28 *\n\r\n\r[Event \"b\"]\n\r*\n\r".to_vec(),
        ];
        let mut rng = Rng(7);
        for (i, file) in cases.iter().enumerate() {
            for max in [8, 40, MAX] {
                let expected = whole(file, max);
                for _ in 0..200 {
                    let n = 1 + rng.below(6);
                    for lines in [true, false] {
                        let cuts = random_cuts(file, &mut rng, n, lines);
                        for guess in [false, true] {
                            let got = stitched(file, &cuts, max, guess);
                            assert_eq!(got, expected, "case {i}, max {max}, cuts {cuts:?}");
                        }
                    }
                }
            }
        }
    }

    /// The `split` fuzz target's corpus (`fuzz/corpus/split/`), replayed: every
    /// input that once found a defect stays tested without a fuzzer.
    #[test]
    fn the_split_fuzz_corpus_holds() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/split");
        let mut n = 0;
        for entry in std::fs::read_dir(&dir)
            .expect("fuzz/corpus/split")
            .flatten()
        {
            let data = std::fs::read(entry.path()).expect("readable");
            fuzz_split(&data);
            n += 1;
        }
        assert!(n >= 20, "{n} inputs in {}", dir.display());
    }
}
