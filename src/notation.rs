//! The shortest unambiguous way to write a move ([`Style::write`]), and a written move
//! resolved against a position (docs/rules.md section 3, "Reading a written move"): the
//! replay's and the diagrams' reading, whose refusals reach users as replay findings.

use crate::board::{Geometry, Square, SquareError, NE, NW, SE, SW};
use crate::pdn::{Sep, SquareText};
use crate::piece::{Color, Kind};
use crate::position::Position;
use crate::rules::{
    capture_paths, landing_path, legal_moves, max_capture, partial_capture_paths, plain_move,
    precedence_refusal, Move, MoveList, Refusal,
};
use crate::variant::CaptureRule;

/// What a written move means in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Reading {
    /// One legal move; `notation` is set when it was accepted with a wrong separator.
    Move {
        /// The move.
        mv: Move,
        /// How the text was read, when not as PDN writes it.
        notation: Option<String>,
    },
    /// Several legal captures with different captured sets fit (docs/rules.md section 3, "Move identity").
    Ambiguous(Vec<Move>),
}

/// Why a written move is not legal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum Illegal {
    /// A square outside the board.
    #[error("{0}")]
    NoSuchSquare(SquareError),
    /// No piece of the side to move on the from square.
    #[error("square {square} holds no piece of the side to move")]
    EmptySource {
        /// The square number.
        square: u32,
        /// What was found there.
        found: Option<Color>,
    },
    /// A plain move while a capture was compulsory.
    #[error("a plain move while capturing is compulsory (the maximum takes {max})")]
    MissedCapture {
        /// Pieces the maximal capture takes.
        max: u32,
        /// A capture the rules require instead.
        example: Move,
    },
    /// A capture taking fewer pieces than the maximum.
    #[error("the capture takes {taken}, but the maximum capture takes {max}")]
    NonMaximalCapture {
        /// Pieces the written capture takes.
        taken: u32,
        /// Pieces the maximal capture takes.
        max: u32,
        /// A capture the rules require instead.
        example: Move,
    },
    /// Under free capture, a capture written as stopping where it can go on.
    #[error("the capture can go on")]
    CaptureGoesOn {
        /// A capture the rules require instead.
        example: Move,
    },
    /// A complete capture of less value than the greatest (Frisian: a man
    /// 100, a king 199).
    #[error("the capture takes {value}, but the greatest value is {best}")]
    LowerValue {
        /// The value it takes.
        value: u32,
        /// The greatest value a capture takes.
        best: u32,
        /// A capture the rules require instead.
        example: Move,
    },
    /// Anything else, with the reason.
    #[error("{0}")]
    Other(Reason),
}

/// Why a written move fits no legal move, when no more precise code applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum Reason {
    #[error("a move needs two squares")]
    /// Fewer than two squares.
    TooFewSquares,
    /// The from and to squares are the same.
    #[error("{from}-{to} does not move")]
    DoesNotMove {
        /// The from square.
        from: Square,
        /// The to square.
        to: Square,
    },
    /// The to square is not on a diagonal from the from square.
    #[error("{to} is not on a diagonal from {from}")]
    NotDiagonal {
        /// The from square.
        from: Square,
        /// The to square.
        to: Square,
    },
    #[error("square {0} is occupied")]
    /// The landing square is taken.
    Occupied(Square),
    /// A capture over no piece of the other side.
    #[error("there is no piece to capture between {from} and {to}")]
    NothingToCapture {
        /// The from square.
        from: Square,
        /// The to square.
        to: Square,
    },
    /// A capture over a piece of the mover's side.
    #[error("{from}x{to} would jump over a piece of its own side")]
    JumpsOwnPiece {
        /// The from square.
        from: Square,
        /// The to square.
        to: Square,
    },
    #[error("a man captures forward only in this variant")]
    /// An English man captures forward only.
    ManCapturesForwardOnly,
    /// A man's capture while a king can capture (Czech), or can take as
    /// many (Italian).
    #[error("a king must capture")]
    KingMustCapture,
    /// A capture taking the most pieces that the Italian precedence rules
    /// out (more kings taken, or kings met earlier, by another).
    #[error("the capture precedence rules require another capture")]
    Precedence,
    /// An Italian man jumping a king.
    #[error("a man cannot capture a king in this variant")]
    ManCannotCaptureKing,
    /// No legal capture goes from the from square to the to square.
    #[error("no capture goes from {from} to {to}")]
    NoCapture {
        /// The from square.
        from: Square,
        /// The to square.
        to: Square,
    },
    #[error("a man cannot move backwards")]
    /// A man moves forward only.
    ManBackwards,
    #[error("a man moves one square at a time")]
    /// A man moves one square.
    ManOneStep,
    /// A fourth plain move in a row of one king while its side has a man (Frisian).
    #[error("this king has moved three times in a row")]
    KingMoveLimit,
    #[error("a king moves one square at a time in this variant")]
    /// A short king moves one square.
    KingOneStep,
    #[error("the king's path is blocked at {0}")]
    /// A piece stands in the king's way.
    KingBlocked(Square),
    /// No legal move of this position fits.
    #[error("{from}-{to} is not a legal move here")]
    NotLegalHere {
        /// The from square.
        from: Square,
        /// The to square.
        to: Square,
    },
}

impl Reason {
    /// The reason as a sentence, its squares written by `name` (the
    /// 64-square board's names, where square numbers mean nothing).
    pub(crate) fn text(&self, name: impl Fn(Square) -> String) -> String {
        match *self {
            Reason::DoesNotMove { from, to } => {
                format!("{}-{} does not move", name(from), name(to))
            }
            Reason::NotDiagonal { from, to } => {
                format!("{} is not on a line from {}", name(to), name(from))
            }
            Reason::Occupied(q) => format!("square {} is occupied", name(q)),
            Reason::NothingToCapture { from, to } => format!(
                "there is no piece to capture between {} and {}",
                name(from),
                name(to)
            ),
            Reason::JumpsOwnPiece { from, to } => format!(
                "{}x{} would jump over a piece of its own side",
                name(from),
                name(to)
            ),
            Reason::NoCapture { from, to } => {
                format!("no capture goes from {} to {}", name(from), name(to))
            }
            Reason::KingBlocked(q) => format!("the king's path is blocked at {}", name(q)),
            Reason::NotLegalHere { from, to } => {
                format!("{}-{} is not a legal move here", name(from), name(to))
            }
            _ => self.to_string(),
        }
    }
}

/// How squares and captures are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// Algebraic squares (`c3`) rather than numbers.
    pub algebraic: bool,
    /// `:` for captures rather than `x`.
    pub colon: bool,
}

impl Style {
    /// The style a written move uses.
    pub fn of(squares: &[SquareText], sep: Sep) -> Style {
        Style {
            algebraic: matches!(squares.first(), Some(SquareText::Alg { .. })),
            colon: sep == Sep::Colon,
        }
    }

    /// `m`, legal in `pos`, written in this style: `from-to`, `fromxto` when
    /// that is unambiguous among the legal moves, else the full landing path.
    ///
    /// ```
    /// use pdnkit::notation::Style;
    /// use pdnkit::Variant;
    /// let start = Variant::International.start();
    /// let m = start.legal_moves()[0];
    /// let numbers = Style { algebraic: false, colon: false };
    /// assert_eq!(numbers.write(&start, &m), "31-26");
    /// ```
    pub fn write(self, pos: &Position, m: &Move) -> String {
        write_move(pos, m, self)
    }
}

/// The square a [`SquareText`] names on the board `g` (a variant's
/// [`Variant::geometry`](crate::Variant::geometry): Italian names are mirrored).
pub(crate) fn square_of(g: &Geometry, s: SquareText) -> Result<Square, SquareError> {
    match s {
        SquareText::Num(n) => g.square(u32::from(n)),
        SquareText::Alg { file, rank } => {
            let n = g.n();
            match (rank >= 1 && rank <= n && file < n).then(|| g.at(n - rank, file)) {
                Some(Some(sq)) => Ok(sq),
                // Off the board or a light square: let the parser word the error.
                _ => g.parse_algebraic(&s.to_string()),
            }
        }
    }
}

/// Resolves a written move against `pos`.
pub(crate) fn resolve(
    pos: &Position,
    written: &[SquareText],
    sep: Sep,
) -> Result<Reading, Illegal> {
    resolve_in(pos, &legal_moves(pos), written, sep)
}

/// [`resolve`] with the legal moves of `pos` already generated.
pub(crate) fn resolve_in(
    pos: &Position,
    legal: &MoveList,
    written: &[SquareText],
    sep: Sep,
) -> Result<Reading, Illegal> {
    let g = pos.geometry();
    let mut squares: smallvec::SmallVec<[Square; 8]> = smallvec::SmallVec::new();
    for &s in written {
        squares.push(square_of(g, s).map_err(Illegal::NoSuchSquare)?);
    }
    let (Some(&from), Some(&to)) = (squares.first(), squares.last()) else {
        return Err(Illegal::Other(Reason::TooFewSquares));
    };
    match pos.piece_at(from) {
        Some(p) if p.color == pos.side() => {}
        found => {
            return Err(Illegal::EmptySource {
                square: from.number(),
                found: found.map(|p| p.color),
            })
        }
    }
    let captures_compulsory = legal.first().is_some_and(Move::is_capture);
    let written_capture =
        matches!(sep, Sep::Capture | Sep::Colon | Sep::Mixed) || squares.len() > 2;
    let plain_written = sep == Sep::Move && squares.len() == 2;

    if !written_capture {
        if let Some(m) = legal
            .iter()
            .find(|m| !m.is_capture() && m.from == from && m.to == to)
        {
            return Ok(Reading::Move {
                mv: *m,
                notation: None,
            });
        }
    }
    // Captures fitting the written squares.
    let fitting = fitting_captures(pos, legal, &squares);
    if !fitting.is_empty() {
        let notation = plain_written.then(|| "a capture written with `-`".to_string());
        return Ok(match fitting.len() {
            1 => Reading::Move {
                mv: fitting[0],
                notation,
            },
            _ => Reading::Ambiguous(fitting),
        });
    }
    if written_capture && squares.len() == 2 && !captures_compulsory {
        if let Some(m) = legal.iter().find(|m| m.from == from && m.to == to) {
            return Ok(Reading::Move {
                mv: *m,
                notation: Some("a plain move written as a capture".into()),
            });
        }
    }
    // Not legal: say why as precisely as possible.
    Err(why_illegal(
        pos,
        legal,
        &squares,
        written_capture,
        captures_compulsory,
    ))
}

/// Why the written move `squares` is not legal, as precisely as possible.
#[cold]
fn why_illegal(
    pos: &Position,
    legal: &MoveList,
    squares: &[Square],
    written_capture: bool,
    captures_compulsory: bool,
) -> Illegal {
    let (Some(&from), Some(&to)) = (squares.first(), squares.last()) else {
        return Illegal::Other(Reason::TooFewSquares);
    };
    let max = max_capture(pos);
    let example = || {
        legal
            .iter()
            .find(|m| m.from == from)
            .or(legal.first())
            .copied()
    };
    if captures_compulsory {
        let rule = pos.variant().rules().capture;
        if rule == CaptureRule::Value {
            if let Some(why) = value_refusal(pos, legal, squares, written_capture) {
                return why;
            }
        }
        // Czech: a man's capture while a king can capture (a man's plain
        // move is a missed capture, as in every variant).
        let plain = !written_capture && plain_move(pos, from, to).is_some();
        if rule == CaptureRule::Czech
            && !plain
            && pos.piece_at(from).is_some_and(|p| p.kind == Kind::Man)
            && legal.iter().all(|m| m.kind == Kind::King)
        {
            return Illegal::Other(Reason::KingMustCapture);
        }
        // Italian: a capture taking the most pieces that the precedence
        // rules out.
        if rule == CaptureRule::Italian {
            let ruled_out = capture_paths(pos, from, max)
                .into_iter()
                .filter(|(m, p)| m.to == to && m.capture_count() == max && path_fits(p, squares))
                .find_map(|(m, _)| precedence_refusal(legal, &m));
            match ruled_out {
                Some(Refusal::KingMustCapture) => return Illegal::Other(Reason::KingMustCapture),
                Some(_) => return Illegal::Other(Reason::Precedence),
                None => {}
            }
        }
        // A capture that fits but takes fewer pieces than the maximum, or
        // (under free capture) stops where it can go on?
        let shorter = partial_capture_paths(pos, from)
            .into_iter()
            .find(|(m, p)| m.to == to && path_fits(p, squares));
        if let (Some((m, _)), Some(example)) = (shorter, example()) {
            if free_capture(pos) || rule == CaptureRule::Value {
                let example = legal
                    .iter()
                    .find(|l| l.from == from && (l.captured.0 & m.captured.0) == m.captured.0)
                    .copied()
                    .unwrap_or(example);
                return Illegal::CaptureGoesOn { example };
            }
            return Illegal::NonMaximalCapture {
                taken: m.capture_count(),
                max,
                example,
            };
        }
        if !written_capture && plain_move(pos, from, to).is_some() {
            if let Some(example) = example() {
                return Illegal::MissedCapture { max, example };
            }
        }
    }
    Illegal::Other(explain(pos, from, to, written_capture))
}

/// What a written move means among the relaxed moves of a position
/// ([`crate::rules::relaxed_moves`], docs/rules.md "Irregularities that stood").
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Relaxed {
    /// Exactly one relaxed move fits; `notation` as in [`Reading::Move`].
    One {
        /// The move.
        mv: Move,
        /// How the text was read, when not as PDN writes it.
        notation: Option<String>,
    },
    /// Several relaxed moves with different captured sets fit, each with a
    /// landing path that fits.
    Several(Vec<(Move, crate::rules::Path)>),
    /// No relaxed move fits.
    Nothing,
}

/// Reads a written move against the relaxed moves of `pos`, as
/// [`resolve_in`] reads it against the legal ones: the first and last
/// squares, the middle squares in order along a landing path, the capture
/// form (a wrong separator accepted with a `notation` reason when exactly
/// one move fits).
pub(crate) fn resolve_relaxed(pos: &Position, written: &[SquareText], sep: Sep) -> Relaxed {
    let g = pos.geometry();
    let Ok(squares) = written
        .iter()
        .map(|&s| square_of(g, s))
        .collect::<Result<smallvec::SmallVec<[Square; 8]>, _>>()
    else {
        return Relaxed::Nothing;
    };
    let (Some(&from), Some(&to)) = (squares.first(), squares.last()) else {
        return Relaxed::Nothing;
    };
    if !pos.pieces(pos.side()).has(from) {
        return Relaxed::Nothing;
    }
    let relaxed: Vec<(Move, crate::rules::Path)> = crate::rules::relaxed_moves(pos)
        .into_iter()
        .filter(|(m, _)| m.from == from && m.to == to)
        .collect();
    let written_capture =
        matches!(sep, Sep::Capture | Sep::Colon | Sep::Mixed) || squares.len() > 2;
    let plain_written = sep == Sep::Move && squares.len() == 2;
    let plain = relaxed
        .iter()
        .find(|(m, _)| !m.is_capture())
        .map(|(m, _)| *m);
    if let (false, Some(mv)) = (written_capture, plain) {
        return Relaxed::One { mv, notation: None };
    }
    let mut fitting: Vec<(Move, crate::rules::Path)> = Vec::new();
    let mut exact: Vec<(Move, crate::rules::Path)> = Vec::new();
    for (m, path) in relaxed.iter().filter(|(m, _)| m.is_capture()) {
        if !path_fits(path, &squares) {
            continue;
        }
        if !fitting.iter().any(|(f, _)| f == m) {
            fitting.push((*m, path.clone()));
        }
        // A written list that is a whole landing path selects it, as among
        // the legal captures under free capture.
        if squares.len() > 2
            && path.as_slice() == squares.as_slice()
            && !exact.iter().any(|(f, _)| f == m)
        {
            exact.push((*m, path.clone()));
        }
    }
    if !exact.is_empty() {
        fitting = exact;
    }
    match (fitting.len(), plain) {
        (1, _) => Relaxed::One {
            mv: fitting[0].0,
            notation: plain_written.then(|| "a capture written with `-`".to_string()),
        },
        (0, Some(mv)) if squares.len() == 2 => Relaxed::One {
            mv,
            notation: Some("a plain move written as a capture".into()),
        },
        (0, _) => Relaxed::Nothing,
        _ => Relaxed::Several(fitting),
    }
}

/// Why a written capture is refused under the value rule (Frisian, RULES.md
/// 10 rule 4), when it is a complete capture: of less value than the
/// greatest (`non-maximal-capture`, naming the values), or a man's of the
/// greatest value while a king's exists (`illegal-move`, "a king must
/// capture"). A capture that stops where it can go on is left to the
/// general reading ("the capture can go on").
fn value_refusal(
    pos: &Position,
    legal: &MoveList,
    squares: &[Square],
    written_capture: bool,
) -> Option<Illegal> {
    let (from, to) = (squares[0], squares[squares.len() - 1]);
    let best = legal
        .first()
        .map_or(0, |l| crate::rules::capture_value(pos, l.captured));
    let value = |m: &Move| crate::rules::capture_value(pos, m.captured);
    let complete = capture_paths(pos, from, 1)
        .into_iter()
        .filter(|(m, p)| m.to == to && path_fits(p, squares))
        .map(|(m, _)| m)
        .max_by_key(|m| value(m))?;
    if !written_capture && squares.len() == 2 && plain_move(pos, from, to).is_some() {
        return None;
    }
    let example = legal
        .iter()
        .find(|l| l.from == from)
        .or(legal.first())
        .copied()?;
    if value(&complete) < best {
        return Some(Illegal::LowerValue {
            value: value(&complete),
            best,
            example,
        });
    }
    (complete.kind == Kind::Man && legal.iter().all(|l| l.kind == Kind::King))
        .then_some(Illegal::Other(Reason::KingMustCapture))
}

/// Legal captures from the first to the last written square whose landing
/// path contains the written middle squares in order; one per captured set.
pub(crate) fn fitting_captures(pos: &Position, legal: &MoveList, squares: &[Square]) -> Vec<Move> {
    let (from, to) = (squares[0], squares[squares.len() - 1]);
    let any = legal
        .iter()
        .any(|m| m.is_capture() && m.from == from && m.to == to);
    if !any {
        return Vec::new();
    }
    let mut out: Vec<Move> = Vec::new();
    if squares.len() == 2 {
        out.extend(
            legal
                .iter()
                .filter(|m| m.is_capture() && m.from == from && m.to == to),
        );
    } else if free_capture(pos) {
        // Any complete capture is legal. A written list that is exactly the
        // complete landing path of a capture selects it, even where it also
        // fits a longer capture between the same squares as a partial path.
        let mut exact: Vec<Move> = Vec::new();
        for (m, path) in capture_paths(pos, from, 1) {
            if m.to != to || !path_fits(&path, squares) {
                continue;
            }
            if path.as_slice() == squares && !exact.contains(&m) {
                exact.push(m);
            }
            if !out.contains(&m) {
                out.push(m);
            }
        }
        if !exact.is_empty() {
            return exact;
        }
    } else {
        let max = legal[0].capture_count();
        for (m, path) in capture_paths(pos, from, max) {
            // Under the Italian precedence not every capture taking the
            // most pieces is legal: only those the generator kept.
            if m.to == to
                && m.capture_count() == max
                && path_fits(&path, squares)
                && !out.contains(&m)
                && legal.contains(&m)
            {
                out.push(m);
            }
        }
    }
    out
}

/// Whether the position's variant lets the player choose a capture that
/// takes fewer pieces than another.
fn free_capture(pos: &Position) -> bool {
    !pos.variant().rules().capture.takes_most()
}

/// Whether the written middle squares appear in order among the path's landing squares.
fn path_fits(path: &[Square], written: &[Square]) -> bool {
    if written.len() <= 2 {
        return true;
    }
    let middle = &written[1..written.len() - 1];
    let landings = &path[1..path.len().saturating_sub(1)];
    let mut it = landings.iter();
    middle.iter().all(|w| it.any(|l| l == w))
}

/// A reason why `from`-`to` is not legal (for `illegal-move`).
fn explain(pos: &Position, from: Square, to: Square, capture: bool) -> Reason {
    let g = pos.geometry();
    let rules = pos.variant().rules();
    let (fr, ff) = g.coords(from);
    let (tr, tf) = g.coords(to);
    let (dr, df) = (i32::from(tr) - i32::from(fr), i32::from(tf) - i32::from(ff));
    let kind = pos.piece_at(from).map_or(Kind::Man, |p| p.kind);
    if from == to {
        return Reason::DoesNotMove { from, to };
    }
    if dr.abs() != df.abs() {
        return Reason::NotDiagonal { from, to };
    }
    if pos.occupied().has(to) {
        return Reason::Occupied(to);
    }
    let forward = if pos.side() == Color::White {
        dr < 0
    } else {
        dr > 0
    };
    let dist = dr.abs();
    // Squares between.
    let d = match (dr < 0, df < 0) {
        (true, true) => NW,
        (true, false) => NE,
        (false, true) => SW,
        (false, false) => SE,
    };
    let between: Vec<Square> = g.ray(from, d).take((dist - 1).max(0) as usize).collect();
    let blockers: Vec<Square> = between
        .iter()
        .copied()
        .filter(|s| pos.occupied().has(*s))
        .collect();
    let short_king = rules.kings == crate::variant::KingRange::Short;
    if capture {
        if blockers.is_empty() {
            return Reason::NothingToCapture { from, to };
        }
        if blockers.iter().any(|s| pos.pieces(pos.side()).has(*s)) {
            return Reason::JumpsOwnPiece { from, to };
        }
        if kind == Kind::Man && !forward && !rules.men_capture_backward {
            return Reason::ManCapturesForwardOnly;
        }
        if kind == Kind::Man
            && !rules.men_capture_kings
            && blockers.iter().any(|s| pos.kings().has(*s))
        {
            return Reason::ManCannotCaptureKing;
        }
        if kind == Kind::Man
            && rules.capture == CaptureRule::Czech
            && legal_moves(pos)
                .iter()
                .any(|m| m.kind == Kind::King && m.is_capture())
        {
            return Reason::KingMustCapture;
        }
        return Reason::NoCapture { from, to };
    }
    match kind {
        Kind::Man if !forward => Reason::ManBackwards,
        Kind::Man if dist > 1 => Reason::ManOneStep,
        Kind::King if pos.king_held() == Some(from) && blockers.is_empty() => Reason::KingMoveLimit,
        Kind::King if short_king && dist > 1 => Reason::KingOneStep,
        Kind::King if !blockers.is_empty() => Reason::KingBlocked(blockers[0]),
        _ => Reason::NotLegalHere { from, to },
    }
}

/// [`Style::write`].
pub(crate) fn write_move(pos: &Position, m: &Move, style: Style) -> String {
    let mut out = String::new();
    write_move_into(&mut out, pos, m, style);
    out
}

/// [`write_move`] appended to `out` (no allocation for numeric squares).
pub(crate) fn write_move_into(out: &mut String, pos: &Position, m: &Move, style: Style) {
    let name = |out: &mut String, s: Square| {
        if style.algebraic {
            out.push_str(&pos.geometry().algebraic(s));
        } else {
            out.push_str(itoa::Buffer::new().format(s.number()));
        }
    };
    if !m.is_capture() {
        name(out, m.from);
        out.push('-');
        name(out, m.to);
        return;
    }
    let sep = if style.colon { ':' } else { 'x' };
    let legal = legal_moves(pos);
    let same_ends = legal
        .iter()
        .filter(|o| o.from == m.from && o.to == m.to)
        .count();
    if same_ends <= 1 {
        name(out, m.from);
        out.push(sep);
        name(out, m.to);
        return;
    }
    for (i, &s) in landing_path(pos, m).iter().enumerate() {
        if i > 0 {
            out.push(sep);
        }
        name(out, s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(v: &[u16]) -> Vec<SquareText> {
        v.iter().map(|&n| SquareText::Num(n)).collect()
    }

    #[test]
    fn a_czech_plain_move_while_a_king_must_capture_is_a_missed_capture() {
        // Issue 37: the capture due is a king's (7x16); 18-14 is a man's
        // plain move, a missed capture as in every variant.
        let p = Position::from_fen(
            "W:WK7,13,18,20,21,22,23,25,26,27,31:B1,5,6,8,9,11,12,K28",
            crate::variant::Variant::Czech,
        )
        .unwrap();
        assert!(
            matches!(
                resolve(&p, &num(&[18, 14]), Sep::Move),
                Err(Illegal::MissedCapture { .. })
            ),
            "{:?}",
            resolve(&p, &num(&[18, 14]), Sep::Move)
        );
    }

    #[test]
    fn plain_capture_and_errors() {
        let t = crate::variant::Variant::International;
        let start = Position::start(t);
        assert!(matches!(
            resolve(&start, &num(&[32, 28]), Sep::Move),
            Ok(Reading::Move { notation: None, .. })
        ));
        assert!(matches!(
            resolve(&start, &num(&[32, 51]), Sep::Move),
            Err(Illegal::NoSuchSquare(_))
        ));
        assert!(matches!(
            resolve(&start, &num(&[28, 23]), Sep::Move),
            Err(Illegal::EmptySource { .. })
        ));
        assert!(matches!(
            resolve(&start, &num(&[19, 23]), Sep::Move),
            Err(Illegal::EmptySource {
                found: Some(Color::Black),
                ..
            })
        ));
        match resolve(&start, &num(&[32, 23]), Sep::Move) {
            Err(Illegal::Other(r)) => assert_eq!(r, Reason::ManOneStep),
            other => panic!("{other:?}"),
        }
        // Missed capture: white 32 can take 27 (black on 27, 21 empty).
        let p = Position::from_fen("W:W32,33:B27", t).unwrap();
        assert!(matches!(
            resolve(&p, &num(&[33, 29]), Sep::Move),
            Err(Illegal::MissedCapture { max: 1, .. })
        ));
        // Capture written with `-`: accepted with a notation warning.
        assert!(matches!(
            resolve(&p, &num(&[32, 21]), Sep::Move),
            Ok(Reading::Move {
                notation: Some(_),
                ..
            })
        ));
        // `:` reads like `x`.
        assert!(matches!(
            resolve(&p, &num(&[32, 21]), Sep::Colon),
            Ok(Reading::Move { notation: None, .. })
        ));
    }

    #[test]
    fn non_maximal_capture_says_how_many() {
        let t = crate::variant::Variant::International;
        // 32x21 takes one; 33x22x11? build: white 32 and 33; black 27 and 28,18: 33x22 (over 28) then x13 (over 18).
        let p = Position::from_fen("W:W32,33:B27,28,18", t).unwrap();
        let max = max_capture(&p);
        assert_eq!(max, 2);
        match resolve(&p, &num(&[32, 21]), Sep::Capture) {
            Err(Illegal::NonMaximalCapture {
                taken: 1,
                max: 2,
                example,
            }) => assert_eq!(example.capture_count(), 2),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn ambiguous_short_form_and_paths_that_select() {
        let e = crate::variant::Variant::Brazilian;
        let p = Position::from_fen("B:WK4,K7,9,K10,K15,17,19:BK2,K5,20,24,25", e).unwrap();
        match resolve(&p, &num(&[2, 6]), Sep::Capture) {
            Ok(Reading::Ambiguous(c)) => assert_eq!(c.len(), 2),
            other => panic!("{other:?}"),
        }
        // A full path tells them apart (from the conformance data: 2-11-22-13-6 takes 7,9,15,17).
        match resolve(&p, &num(&[2, 11, 22, 13, 6]), Sep::Capture) {
            Ok(Reading::Move { mv, .. }) => {
                assert_eq!(
                    mv.captured
                        .squares()
                        .map(|s| s.number())
                        .collect::<Vec<_>>(),
                    vec![7, 9, 15, 17]
                )
            }
            other => panic!("{other:?}"),
        }
        // A partial path (only a turning point) also selects.
        assert!(matches!(
            resolve(&p, &num(&[2, 22, 6]), Sep::Capture),
            Ok(Reading::Move { .. })
        ));
        // The writer gives the full path for an ambiguous move and the short form otherwise.
        let moves = legal_moves(&p);
        let w = write_move(
            &p,
            &moves[0],
            Style {
                algebraic: false,
                colon: false,
            },
        );
        assert!(w.matches('x').count() >= 2, "{w}");
    }

    #[test]
    fn algebraic_squares() {
        let e = crate::variant::Variant::Brazilian;
        let start = Position::start(e);
        let alg = |f: u8, r: u8| SquareText::Alg { file: f, rank: r };
        match resolve(&start, &[alg(2, 3), alg(3, 4)], Sep::Move) {
            Ok(Reading::Move { mv, .. }) => {
                assert_eq!((mv.from.number(), mv.to.number()), (22, 18))
            }
            other => panic!("{other:?}"),
        }
        let m = legal_moves(&start)[0];
        assert_eq!(
            write_move(
                &start,
                &m,
                Style {
                    algebraic: true,
                    colon: false
                }
            ),
            "a3-b4"
        );
    }
}
