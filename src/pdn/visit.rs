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

use super::game::Game;
pub use super::game::{Keep, RawGame};
use super::vocab::{Node, Outcome, Sep, SquareText, TagValue, WrittenMove};
use crate::diag::Diagnostic;
use crate::diag::Span;

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
    /// What [`Reader::read_game`](super::reader::Reader::read_game) returns for a game.
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

/// The visit lives with the visitor: `game` defines the view, `visit` walks
/// it (so the two files import in one direction, issue 52).
impl RawGame<'_> {
    /// Hands the game to `v`, callback by callback.
    pub fn visit<V: Visitor + ?Sized>(&self, v: &mut V) -> V::Output {
        v.begin_game();
        for t in self.tags {
            let name = super::game::tag_name(self.text, t);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdn::Reader;

    /// Writes down every callback, as one line each.
    #[derive(Default)]
    struct Log {
        lines: Vec<String>,
        skip_game: Option<&'static str>,
        skip_variations: bool,
    }

    impl Visitor for Log {
        type Output = Vec<String>;
        fn begin_game(&mut self) {
            self.lines.push("begin".into());
        }
        fn tag(&mut self, name: &str, value: TagValue<'_>) {
            self.lines.push(format!("tag {name}={}", value.text()));
        }
        fn end_tags(&mut self) -> Skip {
            let skip = self
                .skip_game
                .is_some_and(|w| self.lines.iter().any(|l| l == &format!("tag White={w}")));
            self.lines.push(format!("end_tags skip={skip}"));
            Skip(skip)
        }
        fn raw_game(&mut self, g: &RawGame<'_>) {
            self.lines.push(format!("raw {} tags", g.tags.len()));
        }
        fn written_move(&mut self, m: MoveView<'_>) {
            let strength = String::from_utf8_lossy(m.strength);
            self.lines.push(format!(
                "move {}{strength} {:?} {}",
                String::from_utf8_lossy(m.text),
                m.sep(),
                m.squares.len()
            ));
        }
        fn unknown_move(&mut self) {
            self.lines.push("unknown".into());
        }
        fn nag(&mut self, nag: u32) {
            self.lines.push(format!("nag {nag}"));
        }
        fn comment(&mut self, text: &[u8]) {
            self.lines
                .push(format!("comment {}", String::from_utf8_lossy(text)));
        }
        fn setup(&mut self, fen: &[u8]) {
            self.lines
                .push(format!("setup {}", String::from_utf8_lossy(fen)));
        }
        fn escape(&mut self, line: &[u8]) {
            self.lines
                .push(format!("escape {}", String::from_utf8_lossy(line)));
        }
        fn begin_variation(&mut self) -> Skip {
            self.lines.push("(".into());
            Skip(self.skip_variations)
        }
        fn end_variation(&mut self) {
            self.lines.push(")".into());
        }
        fn outcome(&mut self, outcome: Option<Outcome>) {
            self.lines.push(format!("outcome {outcome:?}"));
        }
        fn diagnostic(&mut self, d: &Diagnostic) {
            self.lines.push(format!("finding {}", d.code.as_str()));
        }
        fn end_game(&mut self) -> Vec<String> {
            self.lines.push("end".into());
            std::mem::take(&mut self.lines)
        }
    }

    const TEXT: &str = "[White \"A\"]\n[Black \"B\"]\n1. 32-28! {good} $3 (1. 33-28 (1. 31-27) 18-23) 19-23 2. - 14-19\n% an escape line\n2-0\n\n[White \"C\"]\n/W:W31:B19/ 1. 31x13 0-2\n";

    fn log(mut v: Log) -> Vec<Vec<String>> {
        Reader::new(TEXT.as_bytes())
            .games_with(&mut v)
            .collect::<Result<_, _>>()
            .expect("read from memory")
    }

    #[test]
    fn every_callback_comes_in_the_order_written() {
        let games = log(Log::default());
        assert_eq!(
            games[0],
            [
                "begin",
                "tag White=A",
                "tag Black=B",
                "end_tags skip=false",
                "raw 2 tags",
                "move 32-28! Move 2",
                "comment good",
                "nag 3",
                "(",
                "move 33-28 Move 2",
                "(",
                "move 31-27 Move 2",
                ")",
                "move 18-23 Move 2",
                ")",
                "move 19-23 Move 2",
                "unknown",
                "move 14-19 Move 2",
                "escape % an escape line",
                "outcome Some(WhiteWins)",
                // The reader's findings come last (here: the `-` placeholder
                // is not standard PDN).
                "finding nonstandard",
                "end",
            ]
        );
        assert_eq!(
            games[1],
            [
                "begin",
                "tag White=C",
                "end_tags skip=false",
                "raw 1 tags",
                "setup W:W31:B19",
                "move 31x13 Capture 2",
                "outcome Some(BlackWins)",
                "end",
            ]
        );
    }

    #[test]
    fn a_skipped_game_gets_no_movetext_callbacks_but_its_outcome() {
        let games = log(Log {
            skip_game: Some("A"),
            ..Log::default()
        });
        assert_eq!(
            games[0],
            [
                "begin",
                "tag White=A",
                "tag Black=B",
                "end_tags skip=true",
                "outcome Some(WhiteWins)",
                "finding nonstandard",
                "end",
            ]
        );
        // The next game is read in full.
        assert!(games[1].iter().any(|l| l == "move 31x13 Capture 2"));
    }

    #[test]
    fn a_skipped_variation_hides_everything_up_to_its_close() {
        let games = log(Log {
            skip_variations: true,
            ..Log::default()
        });
        let moves: Vec<&str> = games[0]
            .iter()
            .filter(|l| l.starts_with("move") || *l == "(" || *l == ")")
            .map(String::as_str)
            .collect();
        // The nested variation inside the skipped one never opens, and no
        // `)` comes for the skipped one.
        assert_eq!(
            moves,
            [
                "move 32-28! Move 2",
                "(",
                "move 19-23 Move 2",
                "move 14-19 Move 2"
            ]
        );
    }

    #[test]
    fn reader_findings_are_handed_over() {
        let mut v = Log::default();
        let games: Vec<_> = Reader::new(&b"[White \"A\"]\n1. 32-28 {open\n"[..])
            .games_with(&mut v)
            .collect::<Result<_, _>>()
            .expect("read from memory");
        assert!(
            games[0].iter().any(|l| l.starts_with("finding ")),
            "{:?}",
            games[0]
        );
    }

    #[test]
    fn the_builder_keeps_what_it_is_asked_to() {
        let read = |keep: Keep| {
            let mut b = GameBuilder::new(keep);
            Reader::new(TEXT.as_bytes())
                .games_with(&mut b)
                .collect::<Result<Vec<_>, _>>()
                .expect("read from memory")
        };
        let all = read(Keep::default());
        let bare = read(Keep {
            comments: false,
            variations: false,
        });
        let direct = crate::pdn::read_all(TEXT.as_bytes());
        assert_eq!(all[0].as_ref(), Some(&direct[0]));
        let g = bare[0].as_ref().expect("built");
        assert!(g.nodes().len() < direct[0].nodes().len());
        assert!(!g
            .nodes()
            .iter()
            .any(|n| matches!(n, crate::pdn::Node::Open(_) | crate::pdn::Node::Comment(_))));
        assert_eq!(g.tags().len(), 2);
    }
}
