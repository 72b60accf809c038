//! The lexer: one game's bytes read token by token into tags, movetext nodes
//! and findings. Each token handler dispatches to the grammar's production
//! ([`super::grammar`]) or to its measured fast path ([`super::fast`]); what
//! the grammar does not cover is recovery here, each case with its finding.

use super::fast::{plain_move, plain_move_number, plain_numeric_token, plain_tag, PlainToken};
use super::grammar;
use super::grammar::{is_ident, is_ident_start};

/// Unless at the end of the input, the parser wants this many bytes ahead of
/// any token that is not searched for explicitly (moves, results, numbers):
/// the reader keeps that much ahead of it.
pub(super) const LOOKAHEAD: usize = 256;
use super::game::{tag_name, tag_name_bytes, Game};
use super::vocab::{CompactRange, Node, Outcome, Sep, SquareText, Tag, WrittenMove};
use crate::diag::{Code, Diagnostic, Span};

/// A game parsed by [`Reader::parse_next`].
/// The finding made once per file, at the first literal `\r` or `\n` text
/// outside a tag value.
pub(super) const ESCAPE_WARNING: &str =
    "literal `\\r` text outside a tag value (export bug); ignored";

pub(super) enum Parsed {
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
pub(super) struct Parser<'a> {
    d: &'a [u8],
    pub(super) i: usize,
    eof: bool,
    pub(super) tags: Vec<Tag>,
    pub(super) nodes: Vec<Node>,
    /// The squares of the moves read ([`Game::square_text`]).
    pub(super) squares: Vec<SquareText>,
    pub(super) result: Option<(Outcome, Span)>,
    pub(super) diags: Vec<Diagnostic>,
    pub(super) escape_warned: bool,
    /// A move, variation, NAG, setup or placeholder was read.
    pub(super) movetext: bool,
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
    /// One bit per tag name read ([`name_bit`]): a name whose bit is clear
    /// was not read before, without comparing it with every tag (issue 65).
    name_bits: u64,
}

/// The bit of a tag name in [`Parser::name_bits`], from its length and its
/// first and last bytes: the names of one game rarely share it.
fn name_bit(name: &[u8]) -> u64 {
    let (first, last) = (name.first().copied(), name.last().copied());
    let h = usize::from(first.unwrap_or(0)) * 7 + usize::from(last.unwrap_or(0)) * 3 + name.len();
    1 << (h & 63)
}

/// Tags a game may have before repeated names are looked up in a set.
const TAG_SCAN: usize = 64;

impl<'a> Parser<'a> {
    pub(super) fn new(d: &'a [u8], eof: bool, escape_warned: bool) -> Parser<'a> {
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
            name_bits: 0,
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
    pub(super) fn game(&mut self) -> Option<usize> {
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
            let flow = if self.d[self.i].is_ascii_digit() {
                self.numeric_run()?
            } else {
                self.token(self.i)?
            };
            match flow {
                Flow::Go => {}
                Flow::End(end) => return Some(end),
            }
        }
    }

    /// Numeric tokens one after another with a single space or line break
    /// between them (`12. 32-28 19-23 13. ...`, the bulk of most movetext),
    /// each read as [`Parser::numeric_token`] reads it, without going back
    /// through the loop of [`Parser::game_body`]. Returns to that loop at
    /// anything else: more space, another token, a token that may be a
    /// result, the look-ahead limit.
    fn numeric_run(&mut self) -> Option<Flow> {
        loop {
            let start = self.i;
            let first = self.squares.len();
            match plain_numeric_token(&self.d[start..], &mut self.squares) {
                Some(PlainToken::Number { value, black, len }) => {
                    self.pending_number = (!black).then_some(start..start + len);
                    self.number = Some((value, black));
                    self.i = start + len;
                }
                Some(PlainToken::Move { len, sep }) => self.plain_move_node(start, len, first, sep),
                None => match self.numeric_token(start)? {
                    Flow::Go => {}
                    end => return Some(end),
                },
            }
            let len = self.d.len();
            let next = self.i + 1;
            let more = matches!(self.d.get(self.i), Some(b' ' | b'\n'))
                && self.d.get(next).is_some_and(u8::is_ascii_digit)
                && (self.eof || len - next >= LOOKAHEAD);
            if !more {
                return Some(Flow::Go);
            }
            self.i = next;
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
                    self.warn(s..s + 2, ESCAPE_WARNING);
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
            // The setup stops at a line break: its line ended before a `/`.
            // Only that line is looked at (what the reader has read beyond it
            // depends on where reading started).
            Err(_) => match memchr::memchr(b'\n', &self.d[start + 1..]) {
                Some(_) => self.syntax(start, "setup `/` with no closing `/` on its line"),
                None if !self.eof => None,
                None => self.syntax(start, "setup `/` with no closing `/`"),
            },
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

    /// The node of a move read by [`plain_numeric_token`]: `len` bytes at
    /// `start`, its squares from `first`, nothing glued to it.
    #[inline]
    fn plain_move_node(&mut self, start: usize, len: usize, first: usize, sep: Sep) {
        let e = start + len;
        self.pending_number = None;
        self.nodes.push(Node::Move(WrittenMove {
            number: self.number.take(),
            span: start..e,
            squares: CompactRange::new(first..self.squares.len()),
            sep,
            suffix: CompactRange::new(e..e),
        }));
        self.movetext = true;
        self.i = e;
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
        // Text glued to the move: split it off as a comment. kish's crowning
        // mark `=K` (`d7-d8=K`, RULES.md 12) is such text too.
        let glued = match self.d.get(k) {
            Some(b) if b.is_ascii_alphabetic() => true,
            Some(b'=') => self.d.get(k + 1).is_some_and(u8::is_ascii_alphabetic),
            _ => false,
        };
        if glued {
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

    pub(super) fn tag_pair(&mut self, start: usize) -> Option<TagStep> {
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

    /// Reads `Name "value"]` from `name_at`; `start` is the tag's first byte.
    /// The fast path first, then the grammar's production, then the lenient
    /// reading of any other tag line (with its findings).
    pub(super) fn tag_body(&mut self, start: usize, name_at: usize) -> Option<TagStep> {
        if let Some((end, value)) = plain_tag(self.d, name_at) {
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
    pub(super) fn any_tag(&mut self, start: usize, name_at: usize) -> Option<TagStep> {
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
        let bit = name_bit(this);
        let seen = if this.is_empty() {
            false
        } else if let Some(names) = &mut self.tag_names {
            !names.insert(this.to_vec())
        } else {
            // Lengths first: most names differ in length from most others.
            // A name whose bit no tag read has is new without a look.
            let seen = self.name_bits & bit != 0
                && self.tags.iter().any(|t| {
                    let len = t.owned_name.as_ref().map_or(t.name.len(), String::len);
                    len == this.len() && tag_name_bytes(self.d, t) == this
                });
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
        self.name_bits |= bit;
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
pub(super) enum TagStep {
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
