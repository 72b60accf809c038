//! pdnkit: read, replay, check and convert draughts game records (PDN).
//!
//! The rules are those of `docs/rules.md` in the repository: Brazilian,
//! international, Canadian, Russian, Czech, Italian, Frisian and Frysk! draughts, English
//! checkers, Turkish draughts (on all 64 squares), and lidraughts' antidraughts
//! and breakthrough (the rows of
//! [`Variant::ALL`]); every other variant is named and not checked. The library knows nothing of terminals; the
//! `pdnkit` command (feature `cli`, on by default) is built on it. With
//! `default-features = false` the library needs only nom, memchr, smallvec,
//! thiserror, regex, encoding_rs and chardetng (`serde` adds `Serialize` to its records).
//!
//! # Modules
//!
//! | module | what it owns |
//! |---|---|
//! | [`variant`] | the variants as rows of one table of rules; GameType numbers; refused variants |
//! | [`board`] | board sizes, square numbering, algebraic names, bitboards |
//! | [`position`] | pieces, side to move, FEN ([`position::Setup`] unchecked, [`position::Position`] validated) |
//! | [`rules`] | the moves of a [`Position`]: [`Position::legal_moves`], [`Position::play`] (checked) and [`Position::play_unchecked`], perft |
//! | [`notation`] | a written move resolved against a position; the shortest way to write a move |
//! | [`pdn`] | the streaming reader (an `Iterator` of games, or a [`pdn::visit::Visitor`]), the grammar in nom, encodings, the PDN writer |
//! | [`replay`] | a game replayed ply by ply: findings, draws, the true result |
//! | [`infer`] | the evidence for the variant of a file's games without GameType |
//! | [`check`] | a file checked as `pdnkit check` does: one decision per file for its untagged games, refused when no variant explains them, and the findings about the file |
//! | [`draw`] | the draw rules (CBJD, FMJD article 6, FMJD-64) as counters |
//! | [`diag`] | findings: stable codes, severities, levels (`-A`/`-W`/`-D`) |
//! | [`diagram`] | positions as SVG pictures |
//! | [`select`] | choosing games by player, event, tag, date, result, verdict, finding, length, position |
//! | [`export`], [`stats`], [`dupes`] | rows for CSV and JSON; statistics that merge; duplicate games |
//! | [`tournament`] | events, players matched by name, rounds, the crosstable and its tie-breaks, an arbiter's findings |
//!
//! # From a file to a verdict
//!
//! ```
//! use pdnkit::{check_file, Options};
//! // Any `std::io::Read`: a `File`, standard input, bytes in memory.
//! let file = "[Event \"club\"]\n[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n\
//!             [Event \"club\"]\n[GameType \"20\"]\n1. 32-28 19-23 2. 28-22 *\n";
//! let checked = check_file(file.as_bytes(), &Options::default());
//! assert!(checked.error.is_none() && checked.findings.is_empty());
//! let games = checked.games;
//! // The first game is legal; the second misses a compulsory capture.
//! assert!(games[0].report.valid());
//! let error = games[1].report.first_error().unwrap();
//! assert_eq!(error.code.as_str(), "missed-capture");
//! let (line, column) = games[1].game.location(error.span.start);
//! assert_eq!((error.ply, line, column), (Some(3), 7, 19));
//! println!("game {}: {} at {line}:{column}: {}", games[1].game.index(), error.code.as_str(), error.message);
//! ```
//!
//! # Read the games of a file
//!
//! ```
//! use pdnkit::pdn::Reader;
//! let text = "[Event \"a\"]\n[GameType \"20\"]\n1. 32-28 19-23 *\n\n[Event \"b\"]\n1. 11-15 *\n";
//! let games: Vec<_> = Reader::new(text.as_bytes()).collect::<Result<_, _>>().unwrap();
//! assert_eq!(games.len(), 2);
//! assert_eq!(games[1].tag("Event").as_deref(), Some("b"));
//! ```
//!
//! # Skip what you do not need: a visitor
//!
//! [`pdn::visit::Visitor`] hands a game over callback by callback from the
//! reader's own buffer, building no [`pdn::Game`]; a visitor can skip whole
//! games after their tags and variations as they open.
//!
//! ```
//! use pdnkit::pdn::visit::{MoveView, Skip, Visitor};
//! use pdnkit::pdn::{Reader, TagValue};
//! /// Main-line moves of the games White won.
//! #[derive(Default)]
//! struct WhiteWins { won: bool, moves: usize }
//! impl Visitor for WhiteWins {
//!     type Output = Option<usize>;
//!     fn begin_game(&mut self) { *self = WhiteWins::default(); }
//!     fn tag(&mut self, name: &str, value: TagValue<'_>) {
//!         if name == "Result" { self.won = value.text() == "2-0"; }
//!     }
//!     fn end_tags(&mut self) -> Skip { Skip(!self.won) }
//!     fn begin_variation(&mut self) -> Skip { Skip(true) }
//!     fn written_move(&mut self, _: MoveView<'_>) { self.moves += 1; }
//!     fn end_game(&mut self) -> Option<usize> { self.won.then_some(self.moves) }
//! }
//! let text = b"[Result \"2-0\"]\n1. 32-28 (1. 33-28) 19-23 2-0\n\n[Result \"0-2\"]\n1. 32-28 0-2\n";
//! let mut reader = Reader::new(&text[..]);
//! let found: Vec<_> = reader.games_with(&mut WhiteWins::default()).collect::<Result<_, _>>().unwrap();
//! assert_eq!(found, [Some(2), None]);
//! ```
//!
//! The reader is built from the PDN grammar written as nom parsers, one per
//! production (`src/pdn/grammar.rs`, internal: its parsers return nom's own
//! types, which are not part of this API).
//!
//! # Check a game
//!
//! ```
//! use pdnkit::pdn::read_all;
//! use pdnkit::check::check_game;
//! use pdnkit::replay::Options;
//! use pdnkit::variant::Variant;
//! let g = &read_all(b"[GameType \"25\"]\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 *\n")[0];
//! let report = check_game(g, &Options::default());
//! assert_eq!(report.variant, Some(Variant::Russian));
//! assert!(report.valid());
//! assert_eq!(report.plies, 4);
//! // A move the rules do not allow is a finding with a stable code.
//! let g = &read_all(b"[GameType \"25\"]\n1. c3-d4 f6-e5 2. d4-c5 *\n")[0];
//! let report = check_game(g, &Options::default());
//! assert_eq!(report.diagnostics[0].code.as_str(), "missed-capture");
//! assert_eq!(report.diagnostics[0].ply, Some(3));
//! ```
//!
//! # Replay a game ply by ply
//!
//! ```
//! use pdnkit::pdn::read_all;
//! use pdnkit::replay::{Options, Replay};
//! let g = &read_all(b"[GameType \"21\"] 1. 11-15 23-18 2. 15x22 *")[0];
//! for ply in Replay::new(g, &Options::default()) {
//!     println!("{}{} {} -> {}", ply.number.0, if ply.number.1 { "..." } else { "." }, ply.mv, ply.after.to_fen());
//! }
//! ```
//!
//! # Legal moves, and playing them
//!
//! ```
//! use pdnkit::variant::Variant;
//! let start = Variant::English.start();
//! let moves = start.legal_moves();
//! assert_eq!(moves.len(), 7); // Black moves first in English checkers
//! let after = start.play(&moves[0]).unwrap();
//! assert_eq!(after.side(), pdnkit::Color::White);
//! ```
//!
//! # Write PDN
//!
//! ```
//! use pdnkit::pdn::{read_all, write::write_game};
//! let g = &read_all(b"[White \"A\"][GameType \"20\"] 1.32-28 19-23 2-0")[0];
//! let text = write_game(g, Default::default());
//! assert_eq!(text, "[White \"A\"]\n[GameType \"20\"]\n1. 32-28 19-23 2-0\n\n");
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

/// The README's Rust examples are compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;

// The modules in layers, from the bottom: each imports only from the layers
// below it (docs/architecture.md; `tests/it/layers.rs` checks it).

// 0: squares, findings, and bytes kept on disk.
pub mod board;
pub mod diag;
pub(crate) mod store;

// 1: players and pieces.
pub mod piece;

// 2: the variants table.
pub mod variant;

// 3: positions and FEN.
pub mod position;

// 4: PDN read and written; the players a game's tags name.
pub mod pdn;
pub(crate) mod players;

// 5: legal moves.
pub mod rules;

// 6: written moves, draw rules.
pub mod draw;
pub mod notation;
pub mod openings;

// 7: the evidence for a file's variant.
pub mod infer;

// 8: a game replayed.
pub mod replay;

// 9: a file checked.
pub mod check;

// 10: what is made of the reports.
pub mod diagram;
pub mod export;
pub mod select;
// The pipeline every door uses (feature `batch`): it hands out the reports.
#[cfg(feature = "batch")]
pub mod batch;

// 11: copies of games, by their moves.
pub mod dupes;

// 12: events judged.
pub mod tournament;

// 13: groups and summaries (built on the tournament's counting of copies).
pub mod stats;

pub use check::{check_file, check_game, CheckedFile, CheckedGame, FileCheck};
pub use diag::{Code, Diagnostic, Severity};
pub use pdn::visit::{Skip, Visitor};
pub use pdn::{Game, Reader};
pub use piece::{Color, Kind, Piece};
pub use position::{Position, Setup};
pub use replay::{GameReport, Options};
pub use rules::Move;
pub use variant::Variant;
