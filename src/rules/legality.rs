//! Whether a move is legal, and why not: the refusal a finding names, the
//! paths of a capture, and the relaxed reading of a record's moves.

use crate::board::{Bitboard, Square};
use crate::piece::Kind;
use crate::position::Position;
use crate::rules::generate::quiet_moves;
use crate::rules::search::{capture_value, crown_row, crowns_on, search_from, Sink};
use crate::rules::Move;
use crate::rules::{legal_moves, plain_move, play_unchecked, MoveList, Path};
use crate::variant::{CaptureRule, Rules};

/// Counts the greatest number of pieces any capture of the side to move takes (0: none).
pub(crate) fn max_capture(pos: &Position) -> u32 {
    struct Max(u32);
    impl Sink for Max {
        fn record(&mut self, _: Bitboard, count: u32, _: &[Square]) {
            self.0 = self.0.max(count);
        }
    }
    let mut m = Max(0);
    for from in pos.pieces(pos.side()).squares() {
        search_from(pos, from, &mut m);
    }
    m.0
}

/// Every capture sequence from `from` taking at least `min` pieces, with its
/// landing path (`path[0]` = `from`), including different paths of one move.
pub(crate) fn capture_paths(pos: &Position, from: Square, min: u32) -> Vec<(Move, Path)> {
    collect_paths(pos, from, min, false)
}

/// Like `capture_paths`, but also every unfinished capture: the piece
/// stopping on any landing square of a sequence (for telling a capture that
/// stops early from a wrong one).
pub(crate) fn partial_capture_paths(pos: &Position, from: Square) -> Vec<(Move, Path)> {
    collect_paths(pos, from, 1, true)
}

pub(super) fn collect_paths(
    pos: &Position,
    from: Square,
    min: u32,
    partial: bool,
) -> Vec<(Move, Path)> {
    struct All {
        partial: bool,
        min: u32,
        kind: Kind,
        crown_row: Bitboard,
        rules: &'static Rules,
        out: Vec<(Move, Path)>,
    }
    impl Sink for All {
        fn record(&mut self, captured: Bitboard, count: u32, path: &[Square]) {
            if count < self.min {
                return;
            }
            let (from, to) = (path[0], path[path.len() - 1]);
            let crowns = crowns_on(self.rules, self.kind, self.crown_row, path);
            self.out.push((
                Move {
                    captured,
                    from,
                    to,
                    kind: self.kind,
                    crowns,
                },
                Path::from_slice(path),
            ));
        }
        fn partial(&self) -> bool {
            self.partial
        }
    }
    let kind = if pos.kings().has(from) {
        Kind::King
    } else {
        Kind::Man
    };
    let mut all = All {
        partial,
        min,
        kind,
        crown_row: crown_row(pos, pos.side()),
        rules: pos.variant().rules(),
        out: Vec::new(),
    };
    search_from(pos, from, &mut all);
    all.out
}

/// The relaxed moves of `pos` (docs/rules.md, "Irregularities that stood"):
/// every plain move of the side to move, whatever the capture obligation,
/// and every capture path that is the start or the whole of a complete
/// capture sequence under the variant's own movement, landing and crowning
/// rules, with no maximum, precedence or obligation to go on. Each comes with
/// its landing path (`[from, to]` for a plain move); one move may come with
/// several paths.
pub(crate) fn relaxed_moves(pos: &Position) -> Vec<(Move, Path)> {
    let mut plain = MoveList::new();
    quiet_moves(pos, &mut plain);
    let mut out: Vec<(Move, Path)> = plain
        .iter()
        .map(|m| (*m, Path::from_slice(&[m.from, m.to])))
        .collect();
    for from in pos.pieces(pos.side()).squares() {
        for (m, path) in collect_paths(pos, from, 1, true) {
            if !out.iter().any(|(o, p)| *o == m && *p == path) {
                out.push((m, path));
            }
        }
    }
    out
}

/// One landing path of a legal move: `[from, to]` for a plain move, else
/// every square the piece lands on, from `from` to `to`.
pub(crate) fn landing_path(pos: &Position, m: &Move) -> Path {
    if !m.is_capture() {
        return Path::from_slice(&[m.from, m.to]);
    }
    capture_paths(pos, m.from, m.capture_count())
        .into_iter()
        .find(|(c, _)| c.to == m.to && c.captured == m.captured)
        .map(|(_, p)| p)
        .unwrap_or_else(|| Path::from_slice(&[m.from, m.to]))
}

/// Whether `m` is legal in `pos`, decided without generating every move:
/// the piece, the compulsory capture, then a search from `m.from` only.
pub(crate) fn is_legal(pos: &Position, m: &Move) -> bool {
    why_illegal(pos, m).is_none()
}

/// Why `m` is not legal in `pos` (`None`: it is). Decided as `is_legal` is:
/// the piece, the compulsory capture, then a search from `m.from` only.
pub(crate) fn why_illegal(pos: &Position, m: &Move) -> Option<Refusal> {
    let side = pos.side();
    let piece = pos.piece_at(m.from);
    match piece {
        Some(p) if p.color == side && p.kind == m.kind => {}
        Some(p) if p.color == side => return Some(Refusal::NotThatPiece),
        _ => return Some(Refusal::NoPieceToMove),
    }
    let max = max_capture(pos);
    if max == 0 {
        return if !m.is_capture() && plain_move(pos, m.from, m.to).as_ref() == Some(m) {
            None
        } else if pos.king_held() == Some(m.from) && !m.is_capture() {
            Some(Refusal::KingMoveLimit)
        } else {
            Some(Refusal::NoSuchMove)
        };
    }
    if !m.is_capture() {
        return Some(Refusal::MissedCapture { max });
    }
    let rule = pos.variant().rules().capture;
    if rule == CaptureRule::Value {
        if !capture_paths(pos, m.from, 1).iter().any(|(c, _)| c == m) {
            return Some(Refusal::NoSuchMove);
        }
        let legal = legal_moves(pos);
        if legal.contains(m) {
            return None;
        }
        let best = legal.first().map_or(0, |l| capture_value(pos, l.captured));
        let value = capture_value(pos, m.captured);
        return Some(if value == best {
            Refusal::KingMustCapture
        } else {
            Refusal::LowerValue { value, best }
        });
    }
    let free = !rule.takes_most();
    if rule == CaptureRule::Czech
        && m.kind == Kind::Man
        && legal_moves(pos).iter().any(|l| l.kind == Kind::King)
    {
        return Some(Refusal::KingMustCapture);
    }
    if !free && m.capture_count() < max {
        return Some(Refusal::NonMaximalCapture {
            taken: m.capture_count(),
            max,
        });
    }
    let found = (free || m.capture_count() == max)
        && capture_paths(pos, m.from, m.capture_count())
            .iter()
            .any(|(c, _)| c == m);
    if !found {
        return Some(Refusal::NoSuchMove);
    }
    if rule == CaptureRule::Italian {
        return precedence_refusal(&legal_moves(pos), m);
    }
    None
}

/// Why a capture taking the most pieces is still not legal under the Italian
/// precedence (`legal`: the legal moves), or `None` when it is among them.
pub(crate) fn precedence_refusal(legal: &[Move], m: &Move) -> Option<Refusal> {
    if legal.contains(m) {
        None
    } else if m.kind == Kind::Man && legal.iter().any(|l| l.kind == Kind::King) {
        Some(Refusal::KingMustCapture)
    } else {
        Some(Refusal::Precedence)
    }
}

/// Why a move is not legal in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Refusal {
    /// No piece of the side to move on the from square.
    #[error("no piece of the side to move on its from square")]
    NoPieceToMove,
    /// The piece there is not of the kind the move says (a man for a king's move).
    #[error("the piece on its from square is not of the kind it says")]
    NotThatPiece,
    /// A man's capture while a king can capture (Czech), or can take as
    /// many (Italian).
    #[error("a king must capture")]
    KingMustCapture,
    /// A capture taking the most pieces that the Italian precedence rules
    /// out: another takes more kings, or meets them earlier.
    #[error("the capture precedence rules require another capture")]
    Precedence,
    /// A plain move while a capture is compulsory.
    #[error("a capture is compulsory (the maximum takes {max})")]
    MissedCapture {
        /// Pieces the maximal capture takes.
        max: u32,
    },
    /// A capture taking fewer pieces than the rules require.
    #[error("the capture takes {taken}, but the maximum capture takes {max}")]
    NonMaximalCapture {
        /// Pieces it takes.
        taken: u32,
        /// Pieces the maximal capture takes.
        max: u32,
    },
    /// No legal move goes from its from square to its to square taking those
    /// pieces, crowning as it says.
    #[error("no legal move goes that way, taking those pieces")]
    NoSuchMove,
    /// A capture of less value than the greatest (Frisian: a man 100, a king 199).
    #[error("the capture takes {value}, but the greatest value is {best}")]
    LowerValue {
        /// The value it takes.
        value: u32,
        /// The greatest value a capture takes.
        best: u32,
    },
    /// A fourth plain move in a row of one king while its side has a man (Frisian).
    #[error("this king has moved three times in a row")]
    KingMoveLimit,
}

/// Why [`Position::play`] refused a move: the move, the position, and the reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{mv} is not a legal move in {fen}: {why}", fen = .position.to_fen())]
pub struct IllegalMove {
    /// The move refused.
    pub mv: Move,
    /// The position it was played in.
    pub position: Position,
    /// Why.
    pub why: Refusal,
}

/// The position after `m`, if `m` is legal in `pos` ([`Position::play`]).
pub(crate) fn play(pos: &Position, m: &Move) -> Result<Position, IllegalMove> {
    match why_illegal(pos, m) {
        None => Ok(play_unchecked(pos, m)),
        Some(why) => Err(IllegalMove {
            mv: *m,
            position: *pos,
            why,
        }),
    }
}
