//! A game replayed ply by ply ([`Replay`]): the iterator over its main line.

use crate::diag::Diagnostic;
use crate::pdn::Game;
use crate::piece::Color;
use crate::position::Position;
use crate::replay::game::check_game_alone;
use crate::replay::options::Options;
use crate::replay::report::{move_number, GameReport};
use crate::rules::play_unchecked;
use crate::rules::Move;

/// One ply of a game's main line, as [`Replay`] gives it.
#[derive(Clone, Debug)]
pub struct Ply {
    /// 1-based in the main line.
    pub ply: u32,
    /// The move's number as the record counts it, and whether it is the second of that number (`4...`).
    pub number: (u32, bool),
    /// The position before the move.
    pub before: Position,
    /// The move played.
    pub mv: Move,
    /// The position after it.
    pub after: Position,
    /// The findings about this ply (notation warnings, a resolved ambiguity, ...).
    pub findings: Vec<Diagnostic>,
}

/// A game replayed ply by ply: an iterator of [`Ply`] over the main line up
/// to its first error, with the whole [`GameReport`] at hand.
///
/// ```
/// use pdnkit::pdn::read_all;
/// use pdnkit::replay::{Options, Replay};
/// let g = &read_all(b"[GameType \"20\"] 1. 32-28 19-23 2. 28x19 14x23 3. 31-26 *")[0];
/// let plies: Vec<_> = Replay::new(g, &Options::default()).collect();
/// assert_eq!(plies.len(), 5);
/// assert_eq!(plies[2].mv.captured().count(), 1);
/// assert_eq!(plies[4].number, (3, false));
/// ```
pub struct Replay {
    pub(super) report: GameReport,
    pub(super) next: usize,
}

impl Replay {
    /// Replays `g` under the variant its own evidence gives (its GameType, or
    /// what its text shows; see [`crate::check::check_game`]).
    pub fn new(g: &Game, opts: &Options) -> Replay {
        let opts = Options {
            keep_moves: true,
            ..opts.clone()
        };
        Replay {
            report: check_game_alone(g, &opts),
            next: 0,
        }
    }
    /// Everything `check` says about the game.
    pub fn report(&self) -> &GameReport {
        &self.report
    }
}

impl Iterator for Replay {
    type Item = Ply;
    fn next(&mut self) -> Option<Ply> {
        let p = self.report.played.get(self.next)?;
        self.next += 1;
        let ply = self.next as u32;
        let first = self.report.start.map_or(Color::White, |s| s.side());
        Some(Ply {
            ply,
            number: move_number(ply, first, self.report.variant),
            before: p.before,
            mv: p.mv,
            after: play_unchecked(&p.before, &p.mv),
            findings: self
                .report
                .diagnostics
                .iter()
                .filter(|d| d.ply == Some(ply))
                .cloned()
                .collect(),
        })
    }
}
