//! A move, a list of moves, and a move played on a position: the vocabulary
//! of the rules' files.

use crate::board::{Bitboard, Square};
use crate::piece::{Color, Kind};
use crate::position::Position;
use smallvec::SmallVec;

use crate::variant::Variant;
#[cfg(test)]
use crate::variant::{CaptureRule, Rules};

/// A legal move: from, to, the set of captured squares, and what it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
///
/// Moves come from the generator ([`Position::legal_moves`]); [`Move::new`]
/// makes any move, legal or not, for [`Position::play`] to check.
pub struct Move {
    /// Captured squares (empty for a plain move).
    pub(crate) captured: Bitboard,
    pub(crate) from: Square,
    pub(crate) to: Square,
    /// Kind of the moving piece before the move.
    pub(crate) kind: Kind,
    /// Whether the move crowns a man.
    pub(crate) crowns: bool,
}

impl std::fmt::Display for Move {
    /// `32-28`, or `26x17` with the squares taken in brackets: `26x17 [22]`
    /// (numeric squares; see [`crate::notation::Style::write`] for a record's own style).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_capture() {
            write!(f, "{}x{} [", self.from, self.to)?;
            for (i, s) in self.captured.squares().enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{s}")?;
            }
            f.write_str("]")
        } else {
            write!(f, "{}-{}", self.from, self.to)
        }
    }
}

impl Move {
    /// A move from `from` to `to` taking the pieces on `captured`, by a piece
    /// of `kind`, crowning or not: what it claims, unchecked ([`Position::play`] checks it).
    pub fn new(from: Square, to: Square, captured: Bitboard, kind: Kind, crowns: bool) -> Move {
        Move {
            captured,
            from,
            to,
            kind,
            crowns,
        }
    }
    /// The square it starts from.
    #[inline]
    pub fn from(&self) -> Square {
        self.from
    }
    /// The square it ends on.
    #[inline]
    pub fn to(&self) -> Square {
        self.to
    }
    /// The squares of the pieces it takes (empty for a plain move).
    #[inline]
    pub fn captured(&self) -> Bitboard {
        self.captured
    }
    /// The kind of the moving piece before the move.
    #[inline]
    pub fn kind(&self) -> Kind {
        self.kind
    }
    /// Whether it crowns a man.
    #[inline]
    pub fn crowns(&self) -> bool {
        self.crowns
    }
    /// Whether the move captures.
    #[inline]
    pub fn is_capture(&self) -> bool {
        !self.captured.is_empty()
    }
    /// Number of pieces captured.
    #[inline]
    pub fn capture_count(&self) -> u32 {
        self.captured.count()
    }
}

/// A list of moves, inline up to 64.
pub(crate) type MoveList = SmallVec<[Move; 64]>;

/// Landing path of a capture: up to one square per captured piece, plus the start.
pub(crate) type Path = SmallVec<[Square; 16]>;

/// The international family's rules (men capture backward, flying kings,
/// maximum capture, a man goes on as a man): no rule is tested at run time.
pub(crate) const FAMILY: u8 = 0;
/// Rules read from the table, men taking kings as any piece.
pub(crate) const OTHER: u8 = 1;
/// Rules read from the table, including men that may not take kings and the
/// Italian precedence (the only variant that needs them).
pub(crate) const ITALIAN: u8 = 2;
/// Rules read from the table, with captures along rows and columns and
/// ranked by value (Frisian, Frysk!).
pub(crate) const FRISIAN: u8 = 3;
/// Rules read from the table on the 64-square board: pieces move and capture
/// along ranks and files only, captured pieces leave as they are jumped, no
/// 180-degree turn (Turkish, RULES.md 12).
pub(crate) const TURKISH: u8 = 4;

/// The class of a variant's rules, which picks the compiled search
/// ([`FAMILY`], [`OTHER`], [`ITALIAN`]); one arm per variant, agreeing with
/// the table (tested).
#[inline(always)]
pub(crate) const fn rule_class(v: Variant) -> u8 {
    match v {
        Variant::Brazilian
        | Variant::International
        | Variant::Canadian
        | Variant::Antidraughts
        | Variant::Breakthrough => FAMILY,
        Variant::Russian | Variant::English | Variant::Czech => OTHER,
        Variant::Italian => ITALIAN,
        Variant::Frisian | Variant::Frysk => FRISIAN,
        Variant::Turkish => TURKISH,
    }
}

/// The class the table's row calls for ([`rule_class`] is its shortcut).
#[cfg(test)]
pub(crate) fn class_of(r: &Rules) -> u8 {
    if r.is_family() {
        FAMILY
    } else if r.orthogonal_moves {
        TURKISH
    } else if r.orthogonal_captures || r.capture == CaptureRule::Value {
        FRISIAN
    } else if !r.men_capture_kings || r.capture == CaptureRule::Italian {
        ITALIAN
    } else {
        OTHER
    }
}

/// The position after `m`, which must be legal in `pos` (nothing is checked).
#[inline]
pub(crate) fn play_unchecked(pos: &Position, m: &Move) -> Position {
    let (mut white, mut black, mut kings) = pos.raw();
    let side = pos.side();
    let (own, enemy) = match side {
        Color::White => (&mut white, &mut black),
        Color::Black => (&mut black, &mut white),
    };
    let was_king = kings.has(m.from);
    *own = own.without(m.from).with(m.to);
    *enemy = Bitboard(enemy.0 & !m.captured.0);
    kings = Bitboard(kings.0 & !m.captured.0).without(m.from);
    if was_king || m.crowns {
        kings = kings.with(m.to);
    }
    let mut next = *pos;
    next.set_raw(white, black, kings, side.other());
    if pos.variant().limits_king_moves() {
        next.set_king_run(side, king_run_after(pos, m));
    }
    next
}

/// The mover's run of plain moves with one king after `m` (Frisian, RULES.md
/// 10 rule 6): one more for the king that made the last ones, one for
/// another king, none after a man's move or any capture.
#[inline(never)]
fn king_run_after(pos: &Position, m: &Move) -> crate::position::KingRun {
    let run = pos.king_run(pos.side());
    let count = match (m.kind, m.is_capture()) {
        (Kind::King, false) if run.count > 0 && usize::from(run.square) == m.from.index() => {
            run.count.saturating_add(1)
        }
        (Kind::King, false) => 1,
        _ => 0,
    };
    // No run: the square is 0 too, so that positions compare as their FEN does.
    crate::position::KingRun {
        square: if count == 0 { 0 } else { m.to.index() as u8 },
        count,
    }
}
