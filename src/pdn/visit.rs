//! Reading games through a [`Visitor`]: callbacks over the reader's own
//! buffer, with no [`Game`] built, and [`Skip`] for what a caller does not
//! need (whole games, variations; comments are handed over as slices and cost
//! nothing when ignored).
//!
//! A game is read to its end before any callback (the reader must find where
//! it ends, and a game that turns out empty gets none); skipping it saves
//! everything after that: no copy of its text, no vectors, no callbacks for
//! its movetext. [`GameBuilder`] is a visitor that builds [`Game`]s, keeping
//! only what it is asked to keep.
//!
//! ```
//! use pdnkit::pdn::visit::{Skip, Visitor};
//! use pdnkit::pdn::{Reader, Outcome, TagValue};
//!
//! /// Counts the main-line moves of games played at one event.
//! struct EventMoves { event: &'static str, this_game: bool, moves: usize }
//!
//! impl Visitor for EventMoves {
//!     type Output = Option<usize>;
//!     fn begin_game(&mut self) { self.this_game = false; self.moves = 0; }
//!     fn tag(&mut self, name: &str, value: TagValue<'_>) {
//!         if name == "Event" { self.this_game = value.text() == self.event; }
//!     }
//!     fn end_tags(&mut self) -> Skip { Skip(!self.this_game) }
//!     fn begin_variation(&mut self) -> Skip { Skip(true) }
//!     fn written_move(&mut self, _: pdnkit::pdn::visit::MoveView<'_>) { self.moves += 1; }
//!     fn end_game(&mut self) -> Option<usize> { self.this_game.then_some(self.moves) }
//! }
//!
//! let text = b"[Event \"Open\"]\n1. 32-28 (1. 33-28) 19-23 *\n\n[Event \"Cup\"]\n1. 31-27 *\n";
//! let mut reader = Reader::new(&text[..]);
//! let mut v = EventMoves { event: "Open", this_game: false, moves: 0 };
//! assert_eq!(reader.read_game(&mut v).unwrap(), Some(Some(2)));
//! assert_eq!(reader.read_game(&mut v).unwrap(), Some(None));
//! assert_eq!(reader.read_game(&mut v).unwrap(), None);
//! ```

use super::{Game, Node, Outcome, Sep, SquareText, Tag, TagValue, TextEncoding, WrittenMove};
use crate::diag::{Diagnostic, Span};

/// Whether to skip what follows: `Skip(true)` skips it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Skip(pub bool);

/// A written move handed to [`Visitor::written_move`].
#[derive(Clone, Copy, Debug)]
pub struct MoveView<'a> {
    /// The move as read (spans into the game text).
    pub mv: &'a WrittenMove,
    /// Its squares.
    pub squares: &'a [SquareText],
    /// Its text (squares and separators).
    pub text: &'a [u8],
    /// Its strength suffix (`!?`), empty if none.
    pub strength: &'a [u8],
}

impl MoveView<'_> {
    /// How its squares are joined.
    pub fn sep(&self) -> Sep {
        self.mv.sep
    }
}

/// Callbacks for the parts of a game, in the order they are written. Every
/// method but [`Visitor::end_game`] does nothing by default.
pub trait Visitor {
    /// What [`Reader::read_game`](super::Reader::read_game) returns for a game.
    type Output;
    /// A game starts.
    fn begin_game(&mut self) {}
    /// A tag pair, in the order written.
    fn tag(&mut self, _name: &str, _value: TagValue<'_>) {}
    /// After the tags: `Skip(true)` skips the rest (no [`Visitor::raw_game`],
    /// no movetext callbacks; [`Visitor::outcome`], the findings and
    /// [`Visitor::end_game`] still come).
    fn end_tags(&mut self) -> Skip {
        Skip(false)
    }
    /// The whole game as the reader holds it (text, place in the file, tags,
    /// movetext), unless [`Visitor::end_tags`] skipped it: for visitors that
    /// want more than the callbacks, such as [`GameBuilder`].
    fn raw_game(&mut self, _game: &RawGame<'_>) {}
    /// A move of the current line.
    fn written_move(&mut self, _m: MoveView<'_>) {}
    /// `-`: a move not known.
    fn unknown_move(&mut self) {}
    /// `$n`.
    fn nag(&mut self, _nag: u32) {}
    /// A `{...}` or `;` comment's text (raw bytes; decode with the game's encoding).
    fn comment(&mut self, _text: &[u8]) {}
    /// A `/FEN/` setup in the movetext.
    fn setup(&mut self, _fen: &[u8]) {}
    /// A `%` escape line, `%` included.
    fn escape(&mut self, _line: &[u8]) {}
    /// A variation opens: `Skip(true)` skips it, up to its close (no
    /// [`Visitor::end_variation`] for it).
    fn begin_variation(&mut self) -> Skip {
        Skip(false)
    }
    /// A variation closes.
    fn end_variation(&mut self) {}
    /// The result token that ends the game, if any.
    fn outcome(&mut self, _outcome: Option<Outcome>) {}
    /// A finding of the reader (syntax level).
    fn diagnostic(&mut self, _d: &Diagnostic) {}
    /// The game ends.
    fn end_game(&mut self) -> Self::Output;
}

/// One game as the reader holds it, borrowed from its buffers (see
/// [`Visitor::raw_game`]); [`RawGame::to_game`] copies it out.
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
    /// The first tag named `name` (ASCII case-insensitive).
    #[inline]
    pub fn find_tag(&self, name: &str) -> Option<&'a Tag> {
        let text = self.text;
        self.tags
            .iter()
            .find(|t| super::tag_name_bytes(text, t).eq_ignore_ascii_case(name.as_bytes()))
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
                    m.squares = super::CompactRange::new(first..squares.len());
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
        }
    }

    /// Hands the game to `v`, callback by callback.
    pub fn visit<V: Visitor + ?Sized>(&self, v: &mut V) -> V::Output {
        v.begin_game();
        for t in self.tags {
            let name = super::tag_name(self.text, t);
            v.tag(
                name,
                TagValue::new(self.text.get(t.value.clone()).unwrap_or(&[]), self.encoding),
            );
        }
        let bytes = |s: &Span| self.text.get(s.clone()).unwrap_or(&[]);
        if !v.end_tags().0 {
            v.raw_game(self);
            // Open variations being skipped (nested ones counted).
            let mut skipping = 0usize;
            for n in self.nodes {
                if skipping > 0 {
                    match n {
                        Node::Open(_) => skipping += 1,
                        Node::Close(_) => skipping -= 1,
                        _ => {}
                    }
                    continue;
                }
                match n {
                    Node::Move(m) => v.written_move(MoveView {
                        mv: m,
                        squares: self.squares.get(m.squares.range()).unwrap_or(&[]),
                        text: bytes(&m.span),
                        strength: bytes(&m.suffix.range()),
                    }),
                    Node::Comment(s) => v.comment(bytes(s)),
                    Node::Nag(n, _) => v.nag(*n),
                    Node::Open(_) => {
                        if v.begin_variation().0 {
                            skipping = 1;
                        }
                    }
                    Node::Close(_) => v.end_variation(),
                    Node::Setup(s) => v.setup(bytes(s)),
                    Node::Unknown(_) => v.unknown_move(),
                    Node::Escape(s) => v.escape(bytes(s)),
                }
            }
        }
        v.outcome(self.result.as_ref().map(|r| r.0));
        for d in self.diagnostics {
            v.diagnostic(d);
        }
        v.end_game()
    }
}

/// Decides from a game's tags (name, value) whether to build it.
type TagFilter<'f> = Box<dyn FnMut(&[(String, String)]) -> bool + 'f>;

/// A [`Visitor`] that builds [`Game`]s: every game, or those `filter` keeps
/// (by their tags), with the parts of the movetext [`Keep`] says.
///
/// ```
/// use pdnkit::pdn::visit::{GameBuilder, Keep};
/// use pdnkit::pdn::Reader;
/// let text = b"[Round \"1\"]\n1. 32-28 {good} (1. 33-28 18-23) 19-23 *\n\n[Round \"2\"]\n1. 31-27 *\n";
/// let mut b = GameBuilder::new(Keep { comments: false, variations: false })
///     .filter(|tags| tags.iter().any(|(n, v)| n == "Round" && v == "1"));
/// let games: Vec<_> = Reader::new(&text[..]).games_with(&mut b).collect::<Result<_, _>>().unwrap();
/// let g = games[0].as_ref().unwrap();
/// assert_eq!(g.nodes().len(), 2); // the two main-line moves
/// assert!(games[1].is_none()); // round 2 left out
/// ```
pub struct GameBuilder<'f> {
    keep: Keep,
    filter: Option<TagFilter<'f>>,
    tags: Vec<(String, String)>,
    built: Option<Game>,
}

impl<'f> GameBuilder<'f> {
    /// Builds every game, keeping what `keep` says.
    pub fn new(keep: Keep) -> GameBuilder<'f> {
        GameBuilder {
            keep,
            filter: None,
            tags: Vec::new(),
            built: None,
        }
    }
    /// Builds only the games whose tags (name, value) `f` accepts; the others
    /// give `None` and are not built.
    pub fn filter(mut self, f: impl FnMut(&[(String, String)]) -> bool + 'f) -> GameBuilder<'f> {
        self.filter = Some(Box::new(f));
        self
    }
}

impl Visitor for GameBuilder<'_> {
    type Output = Option<Game>;
    fn begin_game(&mut self) {
        self.tags.clear();
        self.built = None;
    }
    fn tag(&mut self, name: &str, value: TagValue<'_>) {
        if self.filter.is_some() {
            self.tags
                .push((name.to_string(), value.text().into_owned()));
        }
    }
    fn end_tags(&mut self) -> Skip {
        Skip(self.filter.as_mut().is_some_and(|f| !f(&self.tags)))
    }
    fn raw_game(&mut self, game: &RawGame<'_>) {
        self.built = Some(game.to_game(self.keep));
    }
    fn end_game(&mut self) -> Option<Game> {
        self.built.take()
    }
}
