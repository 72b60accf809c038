//! A game as read: [`Game`], which owns its text, and [`RawGame`], the same
//! game borrowed from the reader's buffers (what a [`Visitor`](super::visit::Visitor) is shown);
//! `Game`'s accessors are `RawGame`'s.

use super::text::{
    back_chars, count_breaks, forward_chars, next_space, prev_space, push_visible, Snippet,
};
use super::vocab::{Node, Outcome, SquareText, Tag, TagValue, TextEncoding, WrittenMove};
use crate::diag::{Code, Diagnostic, Span};
use std::borrow::Cow;

/// One game as read: its text and where it is, its tags, its movetext, the
/// result token, and the reader's findings. Read with its methods; spans
/// index [`Game::text`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// 1-based index in the file.
    pub(crate) index: usize,
    /// Byte offset of `text[0]` in the file.
    pub(crate) offset: u64,
    /// 1-based line of `text[0]`.
    pub(crate) line: u32,
    /// Characters before `text[0]` on its line.
    pub(crate) column0: u32,
    /// A line-break byte just before `text[0]` that a break at `text[0]` would pair with.
    pub(crate) open_break: Option<u8>,
    /// The game's bytes (from the end of the previous game to the end of this one).
    pub(crate) text: Vec<u8>,
    pub(crate) encoding: TextEncoding,
    pub(crate) tags: Vec<Tag>,
    pub(crate) nodes: Vec<Node>,
    /// The squares of every written move, in order ([`Game::squares`]).
    pub(crate) square_text: Vec<SquareText>,
    /// The token that ends the movetext, if any.
    pub(crate) result: Option<(Outcome, Span)>,
    /// Findings of the reader (syntax level), in order.
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// The input broke off in this game, before its result.
    pub(crate) cut: bool,
}

impl Game {
    /// The game with every square its moves write named from the other
    /// side of a board of side `n` with `squares` dark squares
    /// (PDN-REAL-WORLD.md 8.2: number `s` is `squares + 1 - s`, file `i` is
    /// `n + 1 - i`, rank `r` is `n + 1 - r`); a square off the board is
    /// left as written.
    pub(crate) fn turned(&self, n: u8, squares: u8) -> Game {
        let mut g = self.clone();
        let (n16, top) = (u16::from(n), u16::from(squares));
        for s in &mut g.square_text {
            *s = match *s {
                SquareText::Num(k) if (1..=top).contains(&k) => SquareText::Num(top + 1 - k),
                SquareText::Alg { file, rank }
                    if u16::from(file) < n16 && (1..=n16).contains(&u16::from(rank)) =>
                {
                    SquareText::Alg {
                        file: n - 1 - file,
                        rank: n + 1 - rank,
                    }
                }
                other => other,
            };
        }
        g
    }
    /// Marks a game that ran into the end of an input that broke off (a read
    /// error, a broken compressed stream) before its result: a `syntax`
    /// error at its end says it is incomplete, so it is never valid (issue
    /// 55). A game whose result was read is whole: the break came after it.
    pub(crate) fn cut_by_break(&mut self) {
        if self.result.is_some() {
            return;
        }
        let end = self.text.len();
        self.cut = true;
        self.diagnostics.push(Diagnostic::new(
            Code::Syntax,
            end..end,
            "the input broke off in this game, before its result (a read error): the game is incomplete",
        ));
    }
}

/// The name of `t` in `text` (the game text it was read from).
/// A tag's name as bytes (identifier names are ASCII; odd names are kept decoded).
#[inline]
pub(crate) fn tag_name_bytes<'a>(text: &'a [u8], t: &'a Tag) -> &'a [u8] {
    match &t.owned_name {
        Some(n) => n.as_bytes(),
        None => text.get(t.name.clone()).unwrap_or(&[]),
    }
}

#[inline]
pub(crate) fn tag_name<'a>(text: &'a [u8], t: &'a Tag) -> &'a str {
    match &t.owned_name {
        Some(n) => n,
        None => text
            .get(t.name.clone())
            .and_then(|b| std::str::from_utf8(b).ok())
            .unwrap_or(""),
    }
}

impl Game {
    /// 1-based index of the game in its file.
    #[inline]
    pub fn index(&self) -> usize {
        self.index
    }
    /// Whether the input broke off in this game, before its result (a read
    /// error, a broken compressed stream): its text is a fragment, with a
    /// `syntax` error that says so. Writers of PDN leave it out.
    #[inline]
    pub fn is_cut(&self) -> bool {
        self.cut
    }
    /// Byte offset of the game's text in the file.
    #[inline]
    pub fn offset(&self) -> u64 {
        self.offset
    }
    /// 1-based line where the game's text (with the blank lines before it)
    /// begins; [`Game::start_line`] is where the game itself starts.
    #[inline]
    pub fn line(&self) -> u32 {
        self.line
    }
    /// Offset in [`Game::text`] of the game's first byte that is not blank
    /// (its first tag, or its first move).
    pub fn start(&self) -> usize {
        self.text
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(0)
    }
    /// 1-based line where the game itself starts (its first tag, or its
    /// first move): the line findings, tables and reports give for a game.
    pub fn start_line(&self) -> u32 {
        self.location(self.start()).0
    }
    /// The game's bytes, from the end of the previous game to the end of this one.
    #[inline]
    pub fn text(&self) -> &[u8] {
        &self.text
    }
    /// The encoding its text is decoded with.
    #[inline]
    pub fn encoding(&self) -> TextEncoding {
        self.encoding
    }
    /// Its tag pairs, in order.
    #[inline]
    pub fn tags(&self) -> &[Tag] {
        &self.tags
    }
    /// Its movetext, in order.
    #[inline]
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }
    /// The token that ends the movetext, if any: what it says, and its span.
    #[inline]
    pub fn result(&self) -> Option<&(Outcome, Span)> {
        self.result.as_ref()
    }
    /// The reader's findings (syntax level), in order.
    #[inline]
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }
    /// A tag's name.
    #[inline]
    pub fn tag_name<'a>(&'a self, t: &'a Tag) -> &'a str {
        self.raw().tag_name(t)
    }
    /// The result exactly as the record writes it: the Result tag's value,
    /// else the token that ends the movetext (borrowed where it can be).
    pub fn result_text(&self) -> Option<std::borrow::Cow<'_, str>> {
        match self.find_tag("Result") {
            Some(t) => Some(self.tag_text(t)),
            None => self
                .result()
                .map(|(_, span)| String::from_utf8_lossy(self.bytes(span))),
        }
    }
    /// The first tag named `name` (ASCII case-insensitive).
    #[inline]
    pub fn find_tag(&self, name: &str) -> Option<&Tag> {
        self.raw().find_tag(name)
    }
    /// The squares of a move of this game, as written.
    #[inline]
    pub fn squares(&self, m: &WrittenMove) -> &[SquareText] {
        self.raw().squares(m)
    }
    /// The bytes of `span`.
    #[inline]
    pub fn bytes(&self, span: &Span) -> &[u8] {
        self.raw().bytes(span)
    }
    /// `span` decoded with the file's encoding.
    pub fn decode(&self, span: &Span) -> Cow<'_, str> {
        self.encoding.decode(self.bytes(span))
    }
    /// The value of the first tag named `name` (ASCII case-insensitive), unescaped and decoded.
    pub fn tag(&self, name: &str) -> Option<String> {
        self.find_tag(name).map(|t| self.tag_value(t))
    }
    /// A tag's value with `\"` and `\\` undone, decoded.
    pub fn tag_value(&self, t: &Tag) -> String {
        self.tag_text(t).into_owned()
    }
    /// Like [`Game::tag_value`], but borrowed from the game text when nothing
    /// needs changing (valid UTF-8, no escapes): no allocation in the common case.
    #[inline]
    pub fn tag_text(&self, t: &Tag) -> Cow<'_, str> {
        self.raw().tag_text(t)
    }
    /// 1-based line and column (in characters) of byte `offset` of the game text.
    /// Each call scans from the start of the game: for many offsets, use a
    /// [`Locator`], which goes forward from the last one.
    pub fn location(&self, offset: usize) -> (u32, u32) {
        Locator::new(self).locate(offset)
    }
    /// A window of the source line holding `span`, for showing it: at most
    /// about `width` characters, cut at spaces where it can be, control
    /// characters escaped. Time and memory are bounded by `width`, not by the
    /// line's length.
    pub fn snippet(&self, span: &Span, width: usize) -> Snippet {
        let text = &self.text;
        let start = span.start.min(text.len());
        let end = span.end.clamp(start, text.len());
        // Bytes to look at on each side (a character is at most 4 bytes).
        let reach = width.saturating_mul(4);
        let lo = start.saturating_sub(reach);
        let hi = end.saturating_add(reach).min(text.len());
        let line_start = memchr::memrchr2(b'\n', b'\r', &text[lo..start]).map(|p| lo + p + 1);
        let line_end = memchr::memchr2(b'\n', b'\r', &text[start..hi]).map(|p| start + p);
        let (mut a, cut_left) = match line_start {
            Some(p) => (p, false),
            None => (lo, lo > 0),
        };
        let (mut b, cut_right) = match line_end {
            Some(p) => (p, false),
            None => (hi, hi < text.len()),
        };
        // A span running past its line is shown up to the line's end.
        let end = end.min(b);
        // Keep the window around the span within `width` characters, cutting at a space.
        let budget = width.max(1);
        let before = self.encoding.char_count(&text[a..start]);
        if before > budget * 2 / 3 || cut_left {
            let keep = budget * 2 / 3;
            a = back_chars(text, start, keep, self.encoding).max(a);
            a = next_space(text, a, start);
        }
        let after = self.encoding.char_count(&text[end..b]);
        if after > budget / 3 || cut_right {
            let keep = budget / 3;
            b = forward_chars(text, end, keep, self.encoding).min(b);
            b = prev_space(text, end, b);
        }
        let cut_left = cut_left || line_start.is_some_and(|p| a > p);
        let cut_right = cut_right || line_end.is_some_and(|p| b < p);
        let mut shown = String::new();
        let mut caret = (0, 0);
        for (part, bounds) in [(a..start, 0), (start..end, 1), (end..b, 2)] {
            if bounds == 1 {
                caret.0 = shown.chars().count();
            }
            for c in self.encoding.decode(&text[part]).chars() {
                push_visible(&mut shown, c);
            }
            if bounds == 1 {
                caret.1 = shown.chars().count();
            }
        }
        // The caret stands under text: a finding at the end of a line (an
        // empty span) points at the line's last character.
        let len = shown.chars().count();
        let (mut a, mut b) = (caret.0, caret.1.max(caret.0 + 1));
        if a >= len && len > 0 {
            a = len - 1;
            b = len;
        }
        Snippet {
            text: shown,
            caret: a..b.min(len.max(1)),
            cut_left,
            cut_right,
        }
    }
    /// The moves of the main line, in order.
    #[inline]
    pub fn main_line(&self) -> impl Iterator<Item = &WrittenMove> + '_ {
        self.raw().main_line()
    }
    /// The reader's view of this game ([`RawGame`]).
    pub fn raw(&self) -> RawGame<'_> {
        RawGame::of(self)
    }
}

/// One game as the reader holds it, borrowed from its buffers (see
/// [`Visitor::raw_game`](super::visit::Visitor::raw_game)); [`RawGame::to_game`]
/// copies it out, and `RawGame::visit` (in `visit`) hands it to a visitor.
#[derive(Clone, Copy, Debug)]
pub struct RawGame<'a> {
    pub(crate) index: usize,
    pub(crate) offset: u64,
    pub(crate) line: u32,
    pub(crate) column0: u32,
    pub(crate) open_break: Option<u8>,
    pub(crate) text: &'a [u8],
    pub(crate) encoding: TextEncoding,
    pub(crate) tags: &'a [Tag],
    pub(crate) nodes: &'a [Node],
    pub(crate) squares: &'a [SquareText],
    pub(crate) result: &'a Option<(Outcome, Span)>,
    pub(crate) diagnostics: &'a [Diagnostic],
}

/// What [`RawGame::to_game`] keeps of the movetext.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keep {
    /// Comments (`{...}`, `;`).
    pub comments: bool,
    /// Variations, with what is inside them.
    pub variations: bool,
}

impl Default for Keep {
    fn default() -> Keep {
        Keep {
            comments: true,
            variations: true,
        }
    }
}

impl<'a> RawGame<'a> {
    /// The view of a game already built.
    pub fn of(g: &'a Game) -> RawGame<'a> {
        RawGame {
            index: g.index,
            offset: g.offset,
            line: g.line,
            column0: g.column0,
            open_break: g.open_break,
            text: &g.text,
            encoding: g.encoding,
            tags: &g.tags,
            nodes: &g.nodes,
            squares: &g.square_text,
            result: &g.result,
            diagnostics: &g.diagnostics,
        }
    }

    /// 1-based index of the game in its file.
    pub fn index(&self) -> usize {
        self.index
    }
    /// Byte offset of the game's text in the file.
    pub fn offset(&self) -> u64 {
        self.offset
    }
    /// The game's bytes.
    pub fn text(&self) -> &'a [u8] {
        self.text
    }
    /// The encoding its text is decoded with.
    pub fn encoding(&self) -> TextEncoding {
        self.encoding
    }
    /// Its tags, in order.
    #[inline]
    pub fn tags(&self) -> &'a [Tag] {
        self.tags
    }
    /// Its movetext.
    #[inline]
    pub fn nodes(&self) -> &'a [Node] {
        self.nodes
    }
    /// A tag's name.
    #[inline]
    pub fn tag_name(&self, t: &'a Tag) -> &'a str {
        super::tag_name(self.text, t)
    }
    /// A tag's name as bytes, not checked as UTF-8 (to compare it with a
    /// name in ASCII).
    #[inline]
    pub(crate) fn tag_name_bytes(&self, t: &'a Tag) -> &'a [u8] {
        super::tag_name_bytes(self.text, t)
    }
    /// The first tag named `name` (ASCII case-insensitive).
    #[inline]
    pub fn find_tag(&self, name: &str) -> Option<&'a Tag> {
        let (text, name) = (self.text, name.as_bytes());
        let first = name.first().map(u8::to_ascii_lowercase);
        // Length and first letter before the whole name: most tags differ
        // there (issue 65: `Event`, `White`, `Black` and `Round` are all 5).
        self.tags.iter().find(|t| {
            let this = super::tag_name_bytes(text, t);
            this.len() == name.len()
                && this.first().map(u8::to_ascii_lowercase) == first
                && this.eq_ignore_ascii_case(name)
        })
    }
    /// A tag's value, decoded, escapes undone.
    #[inline]
    pub fn tag_text(&self, t: &Tag) -> std::borrow::Cow<'a, str> {
        TagValue::new(self.bytes(&t.value), self.encoding).text()
    }
    /// The bytes of `span` of its text.
    #[inline]
    pub fn bytes(&self, span: &Span) -> &'a [u8] {
        self.text.get(span.clone()).unwrap_or(&[])
    }
    /// The squares of one of its moves, as written.
    #[inline]
    pub fn squares(&self, m: &WrittenMove) -> &'a [SquareText] {
        self.squares.get(m.squares.range()).unwrap_or(&[])
    }
    /// The moves of the main line, in order.
    #[inline]
    pub fn main_line(&self) -> impl Iterator<Item = &'a WrittenMove> + 'a {
        let mut depth = 0usize;
        self.nodes.iter().filter_map(move |n| match n {
            Node::Open(_) => {
                depth += 1;
                None
            }
            Node::Close(_) => {
                depth = depth.saturating_sub(1);
                None
            }
            Node::Move(m) if depth == 0 => Some(m),
            _ => None,
        })
    }

    /// The game as a [`Game`], with what `keep` says of the movetext. A
    /// variation left out takes its moves, comments and inner variations with it.
    pub fn to_game(&self, keep: Keep) -> Game {
        let mut nodes = Vec::with_capacity(self.nodes.len());
        let mut squares = Vec::with_capacity(self.squares.len());
        let mut depth = 0usize;
        for n in self.nodes {
            if !keep.variations {
                let inside = depth > 0;
                match n {
                    Node::Open(_) => depth += 1,
                    Node::Close(_) => depth = depth.saturating_sub(1),
                    _ => {}
                }
                if inside || depth > 0 {
                    continue;
                }
            }
            match n {
                Node::Comment(_) if !keep.comments => {}
                Node::Move(m) => {
                    let first = squares.len();
                    squares.extend_from_slice(self.squares.get(m.squares.range()).unwrap_or(&[]));
                    let mut m = m.clone();
                    m.squares = super::vocab::CompactRange::new(first..squares.len());
                    nodes.push(Node::Move(m));
                }
                other => nodes.push(other.clone()),
            }
        }
        Game {
            index: self.index,
            offset: self.offset,
            line: self.line,
            column0: self.column0,
            open_break: self.open_break,
            text: self.text.to_vec(),
            encoding: self.encoding,
            tags: self.tags.to_vec(),
            nodes,
            square_text: squares,
            result: self.result.clone(),
            diagnostics: self.diagnostics.to_vec(),
            cut: false,
        }
    }
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
