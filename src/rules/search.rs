//! The capture search: a depth-first walk of the board's neighbour tables,
//! each capture found handed to a sink that ranks it by the variant's
//! precedence (maximum, Italian, Frisian value) and keeps the best.

use crate::board::{
    opposite, Bitboard, Direction, Geometry, Square, DIRECTIONS, E, EIGHT_DIRECTIONS, N, NE, NW,
    ORTHOGONAL, S, SE, SW, W,
};
use crate::piece::{Color, Kind};
use crate::position::Position;
use crate::rules::moves::{rule_class, MoveList, FAMILY, FRISIAN, ITALIAN, OTHER, TURKISH};
use crate::rules::Move;
use crate::variant::{CaptureRule, Crowning, KingRange, Rules};

/// The board as one capture search sees it, with the rules that shape it.
pub(super) struct Board<'a> {
    pub(super) g: &'a Geometry,
    /// Occupied squares with the moving piece's start square removed.
    pub(super) occ: Bitboard,
    pub(super) enemy: Bitboard,
    /// The position searched (its kings are read for Italian men).
    pub(super) pos: &'a Position,
    /// The variant's rules (read only where they differ from the family's).
    pub(super) rules: &'static Rules,
    pub(super) side: Color,
}

/// The two forward directions of `side`'s men.
pub(super) const fn forward(side: Color) -> &'static [Direction] {
    match side {
        Color::White => &[NW, NE],
        Color::Black => &[SW, SE],
    }
}

/// The directions `side`'s men step and capture in on the 64-square board
/// (Turkish): forward and sideways.
pub(super) const fn ortho_man_dirs(side: Color) -> &'static [Direction] {
    match side {
        Color::White => &[N, W, E],
        Color::Black => &[S, W, E],
    }
}

/// The directions a piece of `side` captures in on the 64-square board: a
/// king's four, or a man's three.
pub(super) const fn ortho_capture_dirs(side: Color, king: bool) -> &'static [Direction] {
    if king {
        &ORTHOGONAL
    } else {
        ortho_man_dirs(side)
    }
}

/// The directions `side`'s men capture in under `rules`.
/// (Frisian men capture in eight directions: the FRISIAN class asks for no
/// table.)
pub(super) const fn man_capture_dirs(rules: &Rules, side: Color) -> &'static [Direction] {
    if rules.men_capture_backward {
        &DIRECTIONS
    } else {
        forward(side)
    }
}

impl<'a> Board<'a> {
    pub(super) fn new(pos: &'a Position, from: Square) -> Board<'a> {
        let side = pos.side();
        let rules = pos.variant().rules();
        let enemy = pos.pieces(side.other());
        Board {
            g: pos.geometry(),
            occ: pos.occupied().without(from),
            enemy,
            pos,
            rules,
            side,
        }
    }

    /// The enemy pieces a man may take (Italian men never take kings).
    #[inline]
    pub(super) fn man_prey(&self) -> Bitboard {
        if self.rules.men_capture_kings {
            self.enemy
        } else {
            self.enemy & !self.pos.kings()
        }
    }
    #[inline]
    pub(super) fn flying(&self) -> bool {
        self.rules.kings == KingRange::Flying
    }
    #[inline]
    pub(super) fn free(&self) -> bool {
        !self.rules.capture.takes_most()
    }
    /// Directions a man captures in (all four, or forward only).
    #[inline]
    pub(super) fn man_dirs(&self) -> &'static [Direction] {
        man_capture_dirs(self.rules, self.side)
    }
    /// The moving side's crowning row.
    #[inline]
    pub(super) fn crown(&self) -> Bitboard {
        match self.side {
            Color::White => self.g.top_row,
            Color::Black => self.g.bottom_row,
        }
    }

    /// The enemy piece a piece on `from` would jump in direction `d` (not one
    /// already in `captured`), if the square right behind it is empty.
    /// `R`: the class of the rules ([`rule_class`]), known at compile time
    /// so that the international family pays for no rule tests, and only
    /// Italian for men that spare kings.
    #[inline(always)]
    pub(super) fn jump<const R: u8>(
        &self,
        from: Square,
        d: Direction,
        king: bool,
        captured: Bitboard,
    ) -> Option<Square> {
        let mut t = self.g.step(from, d);
        if king && (R == FAMILY || self.flying()) {
            while let Some(s) = t {
                if self.occ.has(s) {
                    break;
                }
                t = self.g.step(s, d);
            }
        }
        let over = t?;
        let prey = if R == ITALIAN && !king {
            self.man_prey()
        } else {
            self.enemy
        };
        if !prey.has(over) || captured.has(over) {
            return None;
        }
        self.g
            .step(over, d)
            .filter(|l| !self.occ.has(*l))
            .map(|_| over)
    }

    /// Whether the piece on `from` has at least one jump, not counting the
    /// pieces in `captured`.
    #[inline]
    pub(super) fn can_capture<const R: u8>(
        &self,
        from: Square,
        king: bool,
        captured: Bitboard,
    ) -> bool {
        let dirs: &[Direction] = if R == FRISIAN {
            &EIGHT_DIRECTIONS
        } else if R == TURKISH {
            ortho_capture_dirs(self.side, king)
        } else if R == FAMILY || king {
            &DIRECTIONS
        } else {
            self.man_dirs()
        };
        dirs.iter()
            .any(|&d| self.jump::<R>(from, d, king, captured).is_some())
    }
}

/// Receives every complete capture sequence found by the search.
pub(super) trait Sink {
    /// `path[0]` is the start square; the last entry is the end square.
    fn record(&mut self, captured: Bitboard, count: u32, path: &[Square]);
    /// Also record every unfinished capture (each landing square), not only complete ones.
    fn partial(&self) -> bool {
        false
    }
}

pub(super) const MAX_PATH: usize = 48;

/// A capture search under rules of the class `R` ([`rule_class`]): the
/// tests that do not apply to the class fold away at compile time.
pub(super) struct Search<'a, S: Sink, const R: u8> {
    pub(super) b: Board<'a>,
    pub(super) sink: &'a mut S,
    pub(super) path: [Square; MAX_PATH],
}

impl<S: Sink, const R: u8> Search<'_, S, R> {
    pub(super) fn man(&mut self, sq: Square, captured: Bitboard, depth: usize) {
        let partial = self.sink.partial();
        if partial && depth > 0 {
            self.sink
                .record(captured, depth as u32, &self.path[..=depth]);
        }
        let mut extended = false;
        if depth + 1 < MAX_PATH {
            let dirs: &[Direction] = if R == FAMILY {
                &DIRECTIONS
            } else if R == FRISIAN {
                &EIGHT_DIRECTIONS
            } else {
                self.b.man_dirs()
            };
            for &d in dirs {
                let Some(over) = self.b.g.step(sq, d) else {
                    continue;
                };
                let prey = if R == ITALIAN {
                    self.b.man_prey()
                } else {
                    self.b.enemy
                };
                if !prey.has(over) || captured.has(over) {
                    continue;
                }
                let Some(land) = self.b.g.step(over, d) else {
                    continue;
                };
                if self.b.occ.has(land) {
                    continue;
                }
                extended = true;
                self.path[depth + 1] = land;
                let taken = captured.with(over);
                if R == FAMILY {
                    self.man(land, taken, depth + 1);
                    continue;
                }
                match self.b.rules.crowning {
                    Crowning::GoesOnAsMan => self.man(land, taken, depth + 1),
                    _ if !self.b.crown().has(land) => self.man(land, taken, depth + 1),
                    Crowning::GoesOnAsKing => self.king(land, taken, depth + 1, Some(d)),
                    Crowning::Stops => {
                        self.sink
                            .record(taken, depth as u32 + 1, &self.path[..=depth + 1])
                    }
                }
            }
        }
        if !extended && depth > 0 {
            self.sink
                .record(captured, depth as u32, &self.path[..=depth]);
        }
    }

    pub(super) fn king(
        &mut self,
        sq: Square,
        captured: Bitboard,
        depth: usize,
        came: Option<usize>,
    ) {
        let partial = self.sink.partial();
        if partial && depth > 0 {
            self.sink
                .record(captured, depth as u32, &self.path[..=depth]);
        }
        let mut extended = false;
        let dirs: &[Direction] = if R == FRISIAN {
            &EIGHT_DIRECTIONS
        } else {
            &DIRECTIONS
        };
        if depth + 1 < MAX_PATH {
            for &d in dirs {
                // Going back the way it came meets the piece just taken.
                if came == Some(opposite(d)) {
                    continue;
                }
                let Some(over) = self.b.jump::<R>(sq, d, true, captured) else {
                    continue;
                };
                let taken = captured.with(over);
                // Under free capture a king must land where it can go on
                // capturing, if any landing square behind the piece allows it.
                let must_go_on = R != FAMILY
                    && self.b.free()
                    && self.b.flying()
                    && self
                        .landings(over, d)
                        .any(|l| self.b.can_capture::<R>(l, true, taken));
                let mut l = self.b.g.step(over, d);
                while let Some(land) = l {
                    if self.b.occ.has(land) {
                        break;
                    }
                    if !must_go_on || self.b.can_capture::<R>(land, true, taken) {
                        extended = true;
                        self.path[depth + 1] = land;
                        self.king(land, taken, depth + 1, Some(d));
                    }
                    if R != FAMILY && !self.b.flying() {
                        break;
                    }
                    l = self.b.g.step(land, d);
                }
            }
        }
        if !extended && depth > 0 {
            self.sink
                .record(captured, depth as u32, &self.path[..=depth]);
        }
    }

    /// The empty squares right behind `over` in direction `d`, up to the next occupied one.
    pub(super) fn landings(&self, over: Square, d: Direction) -> impl Iterator<Item = Square> + '_ {
        let mut l = self.b.g.step(over, d);
        std::iter::from_fn(move || {
            let s = l.filter(|s| !self.b.occ.has(*s))?;
            l = self.b.g.step(s, d);
            Some(s)
        })
    }
}

pub(super) fn search_from<S: Sink>(pos: &Position, from: Square, sink: &mut S) {
    match rule_class(pos.variant()) {
        FAMILY => search_from_checked::<S, FAMILY>(pos, from, sink, false),
        ITALIAN => search_from_checked::<S, ITALIAN>(pos, from, sink, false),
        FRISIAN => search_from_checked::<S, FRISIAN>(pos, from, sink, false),
        TURKISH => search_from_checked::<S, TURKISH>(pos, from, sink, false),
        _ => search_from_checked::<S, OTHER>(pos, from, sink, false),
    }
}

/// [`search_from`] for rules of the class `R` ([`rule_class`]);
/// `jumps_known`: the caller knows the piece on `from` has a jump (it is one
/// of [`capturers`]), so the pre-check would only repeat that.
#[inline(always)]
pub(super) fn search_from_checked<S: Sink, const R: u8>(
    pos: &Position,
    from: Square,
    sink: &mut S,
    jumps_known: bool,
) {
    let side = pos.side();
    let own = pos.pieces(side);
    if !own.has(from) {
        return;
    }
    let b = Board::new(pos, from);
    let king = pos.kings().has(from);
    run_search::<S, R>(b, from, king, jumps_known, sink);
}

#[inline(always)]
pub(super) fn run_search<S: Sink, const R: u8>(
    b: Board<'_>,
    from: Square,
    king: bool,
    jumps_known: bool,
    sink: &mut S,
) {
    // Most pieces cannot capture at all: rule that out before the search.
    if !jumps_known && !b.can_capture::<R>(from, king, Bitboard::EMPTY) {
        return;
    }
    let mut s = Search::<S, R> {
        b,
        sink,
        path: [from; MAX_PATH],
    };
    if R == TURKISH {
        if king {
            s.ortho_king(from, Bitboard::EMPTY, 0, None);
        } else {
            s.ortho_man(from, Bitboard::EMPTY, 0, None);
        }
    } else if king {
        s.king(from, Bitboard::EMPTY, 0, None);
    } else {
        s.man(from, Bitboard::EMPTY, 0);
    }
}

/// Whether a move of a piece of `kind` along `path` crowns it.
#[inline]
pub(super) fn crowns_on(rules: &Rules, kind: Kind, crown: Bitboard, path: &[Square]) -> bool {
    kind == Kind::Man
        && match rules.crowning {
            Crowning::GoesOnAsMan => path.last().is_some_and(|s| crown.has(*s)),
            Crowning::GoesOnAsKing | Crowning::Stops => path[1..].iter().any(|s| crown.has(*s)),
        }
}

/// Collects the legal captures as moves, deduplicated by (from, to,
/// captured): the best ranked under maximum capture and the Italian
/// precedence, all under free capture.
pub(super) struct MoveSink<'a, const R: u8> {
    pub(super) out: &'a mut MoveList,
    pub(super) best: u64,
    pub(super) kind: Kind,
    pub(super) crown_row: Bitboard,
    pub(super) rules: &'static Rules,
    pub(super) maximum: bool,
    /// The position searched (read for the Italian precedence only).
    pub(super) pos: &'a Position,
}

/// A capture's rank under the Italian precedence (art. 6.6-6.9), higher
/// first: the pieces it takes, whether a king makes it, the kings it takes,
/// then where the kings come in the order of capture (earlier ranks higher:
/// bit 31 - i is set when the i-th piece taken is a king, so with equally
/// many kings the larger mask has the earlier list of positions).
pub(super) fn italian_rank(
    g: &Geometry,
    enemy_kings: Bitboard,
    king: bool,
    count: u32,
    path: &[Square],
) -> u64 {
    let mut kings = 0u64;
    let mut order = 0u64;
    for (i, w) in path.windows(2).enumerate().take(32) {
        // Italian pieces jump an adjacent piece: the one taken is midway.
        let taken = DIRECTIONS.iter().find_map(|&d| {
            g.step(w[0], d)
                .filter(|&over| g.step(over, d) == Some(w[1]))
        });
        if taken.is_some_and(|t| enemy_kings.has(t)) {
            kings += 1;
            order |= 1 << (31 - i);
        }
    }
    (u64::from(count) << 48) | (u64::from(king) << 40) | (kings << 32) | order
}

/// A capture's value under the Frisian rule (RULES.md 10 rule 4, DFS 10):
/// a man taken counts 100, a king 199.
#[inline]
pub(crate) fn capture_value(pos: &Position, captured: Bitboard) -> u32 {
    let kings = (captured & pos.kings()).count();
    100 * (captured.count() - kings) + 199 * kings
}

/// A capture's rank under the rules that rank captures: its count, its
/// Italian rank ([`italian_rank`]) under the Italian precedence, or under
/// the value rule its value, then a king's before a man's (DFS 11).
#[inline(always)]
pub(super) fn rank<const R: u8>(
    pos: &Position,
    rules: &Rules,
    kind: Kind,
    captured: Bitboard,
    count: u32,
    path: &[Square],
) -> u64 {
    if R == ITALIAN && rules.capture == CaptureRule::Italian {
        let kings = pos.pieces(pos.side().other()) & pos.kings();
        italian_rank(pos.geometry(), kings, kind == Kind::King, count, path)
    } else if R == FRISIAN {
        (u64::from(capture_value(pos, captured)) << 1) | u64::from(kind == Kind::King)
    } else {
        u64::from(count)
    }
}

impl<'a, const R: u8> MoveSink<'a, R> {
    pub(super) fn new(pos: &'a Position, out: &'a mut MoveList) -> Self {
        out.clear();
        let rules = pos.variant().rules();
        MoveSink {
            out,
            best: 0,
            kind: Kind::Man,
            crown_row: crown_row(pos, pos.side()),
            rules,
            maximum: R == FAMILY || rules.capture.takes_most(),
            pos,
        }
    }

    /// Records the captures of the piece on `from`, which can capture.
    #[inline(always)]
    pub(super) fn search(&mut self, from: Square) {
        self.kind = kind_on(self.pos, from);
        search_from_checked::<_, R>(self.pos, from, self, true);
    }
}

/// The kind of the piece on `sq` (a man where there is none).
#[inline(always)]
pub(super) fn kind_on(pos: &Position, sq: Square) -> Kind {
    if pos.kings().has(sq) {
        Kind::King
    } else {
        Kind::Man
    }
}

impl<const R: u8> Sink for MoveSink<'_, R> {
    fn record(&mut self, captured: Bitboard, count: u32, path: &[Square]) {
        if self.maximum {
            let rank = rank::<R>(self.pos, self.rules, self.kind, captured, count, path);
            if rank < self.best {
                return;
            }
            if rank > self.best {
                self.best = rank;
                self.out.clear();
            }
        }
        let (from, to) = (path[0], path[path.len() - 1]);
        // One piece taken: the path is the straight line from `from` over it to
        // `to`, so no other path gives the same move. Longer ones may repeat.
        if count > 1
            && self
                .out
                .iter()
                .any(|m| m.from == from && m.to == to && m.captured == captured)
        {
            return;
        }
        let crowns = crowns_on(self.rules, self.kind, self.crown_row, path);
        self.out.push(Move {
            captured,
            from,
            to,
            kind: self.kind,
            crowns,
        });
    }
}

pub(super) fn crown_row(pos: &Position, side: Color) -> Bitboard {
    let g = pos.geometry();
    match side {
        Color::White => g.top_row,
        Color::Black => g.bottom_row,
    }
}
