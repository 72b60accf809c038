//! Reading one file in pieces, on as many threads as there are pieces, with
//! exactly the games one [`Reader`] of the whole file makes.
//!
//! # How
//! 1. The file is cut into pieces at likely game boundaries ([`cut`]): a line
//!    that starts with `[` after a blank line. Finding them is a scan for
//!    `\n[`, far cheaper than reading.
//! 2. Each piece is read on its own ([`read_piece`]), as though a game began
//!    at its first byte (line 1, no game before it, nothing decided about the
//!    encoding). The reading goes on past the piece's end into the bytes after
//!    it, to finish the game that crosses the end, and records the reader's
//!    state at every point between two games.
//! 3. A [`Stitcher`] takes the pieces in file order. The reading of the file so
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
//! `tests/pieces.rs` reads every corpus file cut at random points and compares
//! every game with the whole-file reader's, and so does a fuzz target.
//!
//! ```
//! use pdnkit::pdn::split::{self, Piece, Stitcher};
//! use pdnkit::pdn::Reader;
//!
//! let file = b"[Event \"a\"]\n1. 32-28 1-0\n\n[Event \"b\"]\n1. 33-29 0-1\n";
//! let at = split::cut(file).unwrap(); // the second game's `[`
//! let (first, second) = file.split_at(at);
//! // Each piece may be read on its own thread.
//! let a = split::read_piece(&Piece::new(first, &[second], true, 0), 1 << 20);
//! let b = split::read_piece(&Piece::new(second, &[], true, at as u64), 1 << 20);
//! let mut st = Stitcher::new();
//! let mut games = st.take(a, first, 0, &[second], true, 1 << 20).0;
//! games.extend(st.take(b, second, at as u64, &[], true, 1 << 20).0);
//! let whole: Vec<_> = Reader::new(&file[..]).map(Result::unwrap).collect();
//! assert_eq!(games, whole);
//! ```

use super::lexer::ESCAPE_WARNING;
use super::reader::{Resume, TextPos};
use super::{count_breaks, Game, Reader};
use crate::diag::Code;
use std::io::{self, Read};

/// The last point of `block` (never 0) where a piece may end: the start of a
/// line that begins with `[` after a blank line, failing that of any line that
/// begins with `[`. `None` when there is none: read on and try again, or
/// [`cut_anywhere`].
pub fn cut(block: &[u8]) -> Option<usize> {
    let mut any = None;
    for nl in memchr::memmem::rfind_iter(block, b"\n[") {
        let at = nl + 1;
        any.get_or_insert(at);
        // The line before this one: blank?
        let before = &block[..nl];
        let line_start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
        if line_start > 0 && before[line_start..].iter().all(|b| matches!(b, b' ' | b'\t' | b'\r')) {
            return Some(at);
        }
    }
    any
}

/// The start of the last line of `block` whose first byte is not a line
/// break (never 0), for a block with no [`cut`] at all.
pub fn cut_anywhere(block: &[u8]) -> Option<usize> {
    memchr::memrchr_iter(b'\n', block)
        .map(|i| i + 1)
        .find(|&at| at < block.len() && !matches!(block[at], b'\n' | b'\r'))
}

/// A piece of a file to read: its bytes, the bytes after it that are at
/// hand, and where it starts.
#[derive(Clone, Copy, Debug)]
pub struct Piece<'a> {
    text: &'a [u8],
    after: &'a [&'a [u8]],
    eof: bool,
    start: u64,
    /// The line break byte just before `text` that a break at its start
    /// would pair with (see `count_breaks`).
    open: Option<u8>,
}

impl<'a> Piece<'a> {
    /// `text`, at byte `start` of its file, followed by the bytes in `after`;
    /// `eof`: the file ends after them. `text` starts at a point [`cut`] or
    /// [`cut_anywhere`] found, or at the start of the file.
    pub fn new(text: &'a [u8], after: &'a [&'a [u8]], eof: bool, start: u64) -> Piece<'a> {
        Piece {
            text,
            after,
            eof,
            start,
            open: None,
        }
    }
    /// The same piece, whose first byte follows `before` (the bytes of the
    /// file just before it, as many as are at hand): a line break there
    /// pairs with one at its end (`\r\n`).
    pub fn after_bytes(mut self, before: &[u8]) -> Piece<'a> {
        let run = before
            .iter()
            .rev()
            .take_while(|b| matches!(b, b'\n' | b'\r'))
            .count();
        self.open = count_breaks(&before[before.len() - run..], None).2;
        self
    }
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
pub struct PieceRead {
    games: Vec<Game>,
    points: Vec<Resume>,
    /// Line breaks in the piece's own bytes.
    breaks: u32,
}

impl PieceRead {
    /// The games read, in order (before they are stitched: numbered from 1
    /// and lined from 1 at the piece's start).
    pub fn games(&self) -> &[Game] {
        &self.games
    }
}

/// Reads the games that start in `piece` from the state `at` (the point
/// where `piece` starts), reading on into the bytes after it to finish the
/// last one: the games, the state before each and after the last, and
/// whether the reading met the end of the file. The reading stops early,
/// with the games before, when it needs more bytes than are at hand.
fn read_from(piece: &Piece, at: Resume, max_game_bytes: usize) -> (Vec<Game>, Vec<Resume>, bool) {
    let stop = at.offset() + piece.text.len() as u64;
    let mut parts = Vec::with_capacity(piece.after.len() + 1);
    parts.push(piece.text);
    parts.extend_from_slice(piece.after);
    let src = Bytes {
        parts,
        eof: piece.eof,
    };
    let mut reader = Reader::resume(src, &at).max_game_bytes(max_game_bytes);
    let mut games = Vec::new();
    let mut points = vec![at];
    while points.last().is_some_and(|p| p.offset() < stop) {
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
pub fn read_piece(piece: &Piece, max_game_bytes: usize) -> PieceRead {
    let at = if piece.start == 0 {
        Resume::file_start()
    } else {
        let mut at = Resume::file_start();
        at.offset = piece.start;
        at.at.open = piece.open;
        at.started = true;
        at
    };
    let (games, points, _) = read_from(piece, at, max_game_bytes);
    PieceRead {
        games,
        points,
        breaks: count_breaks(piece.text, None).0,
    }
}

/// Takes the pieces of one file in order and hands out the games one reader
/// of the whole file would have read (see the [module](self)).
#[derive(Debug)]
pub struct Stitcher {
    /// The whole-file reader's state after the games handed out so far.
    at: Resume,
    /// The line of the next piece's first byte.
    next_line: u32,
}

impl Default for Stitcher {
    fn default() -> Self {
        Stitcher::new()
    }
}

impl Stitcher {
    /// For a file read from its start.
    pub fn new() -> Stitcher {
        Stitcher {
            at: Resume::file_start(),
            next_line: 1,
        }
    }

    /// Where the games handed out so far end.
    pub fn offset(&self) -> u64 {
        self.at.offset()
    }

    /// Games handed out so far.
    pub fn games(&self) -> usize {
        self.at.games()
    }

    /// The next piece of the file (`text`, at byte `start`), and `read`, its
    /// reading by [`read_piece`]: the games of the file that start in it, in
    /// order, and whether they are all there. `after` holds the bytes after
    /// the piece that are at hand (`eof`: the file ends after them). When the
    /// piece's reading is out of step, the stitcher reads the piece itself,
    /// and may need more of the bytes after it than `after` holds: it returns
    /// `false` then, and [`Stitcher::resume`] goes on with more.
    pub fn take(
        &mut self,
        read: PieceRead,
        text: &[u8],
        start: u64,
        after: &[&[u8]],
        eof: bool,
        max_game_bytes: usize,
    ) -> (Vec<Game>, bool) {
        let shift = self.next_line - 1;
        self.next_line = self.next_line.saturating_add(read.breaks);
        let mut games = self.take_in_step(read, shift);
        let done = self.resume(&mut games, text, start, after, eof, max_game_bytes);
        (games, done)
    }

    /// Reads on from where the games so far end to the end of the piece
    /// (`text` at byte `start`) with more bytes after it; adds the games to
    /// `games`. True when the piece's games are all there.
    pub fn resume(
        &mut self,
        games: &mut Vec<Game>,
        text: &[u8],
        start: u64,
        after: &[&[u8]],
        eof: bool,
        max_game_bytes: usize,
    ) -> bool {
        let end = start + text.len() as u64;
        if self.at.offset() >= end {
            return true;
        }
        let Some(from) = self.at.offset().checked_sub(start) else {
            // Cannot happen: the pieces come in order, each read to its end.
            return true;
        };
        let rest = Piece::new(&text[from as usize..], after, eof, self.at.offset());
        let (read, points, ended) = read_from(&rest, self.at.clone(), max_game_bytes);
        if let Some(last) = points.last() {
            self.at = last.clone();
        }
        games.extend(read);
        ended || self.at.offset() >= end
    }

    /// The games of `read` after the point where the games so far end, if
    /// `read` passed that point in the same state; numbered, lined (`shift`
    /// lines down) and with the once-per-file warning given once.
    fn take_in_step(&mut self, read: PieceRead, shift: u32) -> Vec<Game> {
        let PieceRead { games, points, .. } = read;
        let Some(first) = points.iter().position(|p| self.in_step(p, shift)) else {
            return Vec::new();
        };
        let mut out = Vec::with_capacity(games.len() - first);
        for (mut g, after) in games.into_iter().zip(points.into_iter().skip(1)).skip(first) {
            // A game that decided the file's encoding: decided again by the
            // stitcher's own reading, from the whole file's point of view.
            if !after.utf8_so_far() {
                break;
            }
            g.index = self.at.index + 1;
            g.line = g.line.saturating_add(shift);
            let warned = self.at.escape_warned;
            if warned {
                drop_escape_warning(&mut g);
            }
            self.at = Resume {
                offset: after.offset,
                at: TextPos {
                    line: after.at.line.saturating_add(shift),
                    ..after.at
                },
                index: g.index,
                escape_warned: warned || after.escape_warned,
                ..after
            };
            out.push(g);
        }
        out
    }

    /// Whether a piece's reading was at `p` in the state the file's reading
    /// is in now: from there on, both read the same games.
    fn in_step(&self, p: &Resume, shift: u32) -> bool {
        let at = &self.at;
        p.offset == at.offset
            && p.at.line.saturating_add(shift) == at.at.line
            && p.at.column0 == at.at.column0
            && p.at.open == at.at.open
            && p.started == at.started
            && p.utf8_so_far()
            && at.utf8_so_far()
            // A warning the piece gave before the point is one the file's
            // reading gave too; one given after it is dropped if need be.
            && (!p.escape_warned || at.escape_warned)
    }
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
