//! Legal moves of every implemented variant, read from the variant's
//! [`Rules`] (docs/rules.md): which way men capture,
//! flying or short kings, maximum or free capture, and what a man reaching the
//! far row during a capture does. Captured pieces stay on the board until the
//! move ends in every variant.
//!
//! Move generation walks precomputed neighbour tables (see [`crate::board`]);
//! captures are found by a depth-first search whose depth is bounded by the
//! number of enemy pieces, never by input. Moves are collected in a
//! list that keeps up to 64 moves inline (no heap allocation for
//! ordinary positions). A [`Move`] is the triple (from, to, captured set) of
//! docs/rules.md "Move identity"; its landing path is kept by `capture_paths`
//! when a caller needs one (notation, writing), not in every generated move,
//! which keeps `Move` small and `Copy`.

use crate::board::{
    opposite, Bitboard, BoardSize, Direction, Geometry, Square, DIRECTIONS, EIGHT_DIRECTIONS, NE,
    NW, SE, SW,
};
use crate::piece::{Color, Kind};
use crate::position::Position;
use crate::variant::{CaptureRule, Crowning, KingRange, Rules};
use smallvec::SmallVec;

use crate::variant::Variant;

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
const FAMILY: u8 = 0;
/// Rules read from the table, men taking kings as any piece.
const OTHER: u8 = 1;
/// Rules read from the table, including men that may not take kings and the
/// Italian precedence (the only variant that needs them).
const ITALIAN: u8 = 2;
/// Rules read from the table, with captures along rows and columns and
/// ranked by value (Frisian, Frysk!).
const FRISIAN: u8 = 3;

/// The class of a variant's rules, which picks the compiled search
/// ([`FAMILY`], [`OTHER`], [`ITALIAN`]); one arm per variant, agreeing with
/// the table (tested).
#[inline(always)]
const fn rule_class(v: Variant) -> u8 {
    match v {
        Variant::Brazilian | Variant::International | Variant::Canadian => FAMILY,
        Variant::Russian | Variant::English | Variant::Czech => OTHER,
        Variant::Italian => ITALIAN,
        Variant::Frisian | Variant::Frysk => FRISIAN,
    }
}

/// The class the table's row calls for ([`rule_class`] is its shortcut).
#[cfg(test)]
fn class_of(r: &Rules) -> u8 {
    if r.is_family() {
        FAMILY
    } else if r.orthogonal_captures || r.capture == CaptureRule::Value {
        FRISIAN
    } else if !r.men_capture_kings || r.capture == CaptureRule::Italian {
        ITALIAN
    } else {
        OTHER
    }
}

/// The board as one capture search sees it, with the rules that shape it.
struct Board<'a> {
    g: &'a Geometry,
    /// Occupied squares with the moving piece's start square removed.
    occ: Bitboard,
    enemy: Bitboard,
    /// The position searched (its kings are read for Italian men).
    pos: &'a Position,
    /// The variant's rules (read only where they differ from the family's).
    rules: &'static Rules,
    side: Color,
}

/// The two forward directions of `side`'s men.
const fn forward(side: Color) -> &'static [Direction] {
    match side {
        Color::White => &[NW, NE],
        Color::Black => &[SW, SE],
    }
}

/// The directions `side`'s men capture in under `rules`.
/// (Frisian men capture in eight directions: the FRISIAN class asks for no
/// table.)
const fn man_capture_dirs(rules: &Rules, side: Color) -> &'static [Direction] {
    if rules.men_capture_backward {
        &DIRECTIONS
    } else {
        forward(side)
    }
}

impl<'a> Board<'a> {
    fn new(pos: &'a Position, from: Square) -> Board<'a> {
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
    fn man_prey(&self) -> Bitboard {
        if self.rules.men_capture_kings {
            self.enemy
        } else {
            self.enemy & !self.pos.kings()
        }
    }
    #[inline]
    fn flying(&self) -> bool {
        self.rules.kings == KingRange::Flying
    }
    #[inline]
    fn free(&self) -> bool {
        !self.rules.capture.takes_most()
    }
    /// Directions a man captures in (all four, or forward only).
    #[inline]
    fn man_dirs(&self) -> &'static [Direction] {
        man_capture_dirs(self.rules, self.side)
    }
    /// The moving side's crowning row.
    #[inline]
    fn crown(&self) -> Bitboard {
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
    fn jump<const R: u8>(
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
    fn can_capture<const R: u8>(&self, from: Square, king: bool, captured: Bitboard) -> bool {
        let dirs: &[Direction] = if R == FRISIAN {
            &EIGHT_DIRECTIONS
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
trait Sink {
    /// `path[0]` is the start square; the last entry is the end square.
    fn record(&mut self, captured: Bitboard, count: u32, path: &[Square]);
    /// Also record every unfinished capture (each landing square), not only complete ones.
    fn partial(&self) -> bool {
        false
    }
}

const MAX_PATH: usize = 48;

/// A capture search under rules of the class `R` ([`rule_class`]): the
/// tests that do not apply to the class fold away at compile time.
struct Search<'a, S: Sink, const R: u8> {
    b: Board<'a>,
    sink: &'a mut S,
    path: [Square; MAX_PATH],
}

impl<S: Sink, const R: u8> Search<'_, S, R> {
    fn man(&mut self, sq: Square, captured: Bitboard, depth: usize) {
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

    fn king(&mut self, sq: Square, captured: Bitboard, depth: usize, came: Option<usize>) {
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
    fn landings(&self, over: Square, d: Direction) -> impl Iterator<Item = Square> + '_ {
        let mut l = self.b.g.step(over, d);
        std::iter::from_fn(move || {
            let s = l.filter(|s| !self.b.occ.has(*s))?;
            l = self.b.g.step(s, d);
            Some(s)
        })
    }
}

fn search_from<S: Sink>(pos: &Position, from: Square, sink: &mut S) {
    match rule_class(pos.variant()) {
        FAMILY => search_from_checked::<S, FAMILY>(pos, from, sink, false),
        ITALIAN => search_from_checked::<S, ITALIAN>(pos, from, sink, false),
        FRISIAN => search_from_checked::<S, FRISIAN>(pos, from, sink, false),
        _ => search_from_checked::<S, OTHER>(pos, from, sink, false),
    }
}

/// [`search_from`] for rules of the class `R` ([`rule_class`]);
/// `jumps_known`: the caller knows the piece on `from` has a jump (it is one
/// of [`capturers`]), so the pre-check would only repeat that.
#[inline(always)]
fn search_from_checked<S: Sink, const R: u8>(
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
fn run_search<S: Sink, const R: u8>(
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
    if king {
        s.king(from, Bitboard::EMPTY, 0, None);
    } else {
        s.man(from, Bitboard::EMPTY, 0);
    }
}

/// Whether a move of a piece of `kind` along `path` crowns it.
#[inline]
fn crowns_on(rules: &Rules, kind: Kind, crown: Bitboard, path: &[Square]) -> bool {
    kind == Kind::Man
        && match rules.crowning {
            Crowning::GoesOnAsMan => path.last().is_some_and(|s| crown.has(*s)),
            Crowning::GoesOnAsKing | Crowning::Stops => path[1..].iter().any(|s| crown.has(*s)),
        }
}

/// Collects the legal captures as moves, deduplicated by (from, to,
/// captured): the best ranked under maximum capture and the Italian
/// precedence, all under free capture.
struct MoveSink<'a, const R: u8> {
    out: &'a mut MoveList,
    best: u64,
    kind: Kind,
    crown_row: Bitboard,
    rules: &'static Rules,
    maximum: bool,
    /// The position searched (read for the Italian precedence only).
    pos: &'a Position,
}

/// A capture's rank under the Italian precedence (art. 6.6-6.9), higher
/// first: the pieces it takes, whether a king makes it, the kings it takes,
/// then where the kings come in the order of capture (earlier ranks higher:
/// bit 31 - i is set when the i-th piece taken is a king, so with equally
/// many kings the larger mask has the earlier list of positions).
fn italian_rank(
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
fn rank<const R: u8>(
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
    fn new(pos: &'a Position, out: &'a mut MoveList) -> Self {
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
    fn search(&mut self, from: Square) {
        self.kind = kind_on(self.pos, from);
        search_from_checked::<_, R>(self.pos, from, self, true);
    }
}

/// The kind of the piece on `sq` (a man where there is none).
#[inline(always)]
fn kind_on(pos: &Position, sq: Square) -> Kind {
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

fn crown_row(pos: &Position, side: Color) -> Bitboard {
    let g = pos.geometry();
    match side {
        Color::White => g.top_row,
        Color::Black => g.bottom_row,
    }
}

/// Every legal move of the side to move, in generation order.
pub(crate) fn legal_moves(pos: &Position) -> MoveList {
    let mut out = MoveList::new();
    generate(pos, &mut out);
    out
}

/// Fills `out` (cleared first) with the legal captures of the side to move:
/// every legal move when a capture is compulsory, nothing otherwise.
pub(crate) fn captures(pos: &Position, out: &mut MoveList) {
    match rule_class(pos.variant()) {
        FAMILY => captures_with::<FAMILY>(pos, out),
        ITALIAN => captures_with::<ITALIAN>(pos, out),
        FRISIAN => captures_with::<FRISIAN>(pos, out),
        _ => captures_with::<OTHER>(pos, out),
    }
}

#[inline(always)]
fn captures_with<const R: u8>(pos: &Position, out: &mut MoveList) {
    let from = capturers_with::<R>(pos);
    if from.is_empty() {
        out.clear();
        return;
    }
    let mut sink = MoveSink::<R>::new(pos, out);
    for from in from.squares() {
        sink.search(from);
    }
    // A king must capture when a king can (Czech).
    if R != FAMILY && sink.rules.capture == CaptureRule::Czech {
        king_must_capture(out);
    }
}

/// The pieces of the side to move that can capture: the men with a first
/// jump and the kings with a jump. Empty exactly when [`captures`] lists
/// nothing: every piece with a jump has at least one complete capture.
pub(crate) fn capturers(pos: &Position) -> Bitboard {
    match rule_class(pos.variant()) {
        FAMILY => capturers_with::<FAMILY>(pos),
        ITALIAN => capturers_with::<ITALIAN>(pos),
        FRISIAN => capturers_with::<FRISIAN>(pos),
        _ => capturers_with::<OTHER>(pos),
    }
}

#[inline(always)]
fn capturers_with<const R: u8>(pos: &Position) -> Bitboard {
    if R == FRISIAN {
        // Eight directions: every piece is searched for a first jump.
        let own = pos.pieces(pos.side());
        return own
            .squares()
            .filter(|&sq| {
                Board::new(pos, sq).can_capture::<R>(sq, pos.kings().has(sq), Bitboard::EMPTY)
            })
            .fold(Bitboard::EMPTY, Bitboard::with);
    }
    let mut from = men_that_can_jump::<R>(pos);
    for king in (pos.pieces(pos.side()) & pos.kings()).squares() {
        if Board::new(pos, king).can_capture::<R>(king, true, Bitboard::EMPTY) {
            from = from.with(king);
        }
    }
    from
}

/// Fills `out` (cleared first) with the legal captures of `pos` that go from
/// `from` to `to`: what [`captures`] lists with those ends, in its order.
/// `capturers` is [`capturers`]`(pos)`.
///
/// A written capture is checked from its own piece: only `from` is searched
/// for the captures themselves. Another piece is searched only under a rule
/// that ranks captures (maximum capture, the Italian precedence), and then
/// only for the best rank it reaches, to see whether it outranks `from`'s
/// best (which makes `from`'s captures illegal). A Czech man's captures are
/// illegal when a king can capture.
#[inline(always)]
pub(crate) fn captures_between(
    pos: &Position,
    capturers: Bitboard,
    from: Square,
    to: Square,
    out: &mut MoveList,
) {
    match rule_class(pos.variant()) {
        FAMILY => captures_between_with::<FAMILY>(pos, capturers, from, to, out),
        ITALIAN => captures_between_with::<ITALIAN>(pos, capturers, from, to, out),
        FRISIAN => captures_between_with::<FRISIAN>(pos, capturers, from, to, out),
        _ => captures_between_with::<OTHER>(pos, capturers, from, to, out),
    }
}

#[inline(always)]
fn captures_between_with<const R: u8>(
    pos: &Position,
    capturers: Bitboard,
    from: Square,
    to: Square,
    out: &mut MoveList,
) {
    out.clear();
    if !capturers.has(from) {
        return;
    }
    let kings = pos.kings();
    let rules = pos.variant().rules();
    if R != FAMILY
        && rules.capture == CaptureRule::Czech
        && !kings.has(from)
        && !(capturers & kings).is_empty()
    {
        return;
    }
    let mut sink = MoveSink::<R>::new(pos, out);
    sink.search(from);
    let (maximum, best) = (sink.maximum, sink.best);
    if maximum && outranked::<R>(pos, capturers.without(from), best) {
        out.clear();
        return;
    }
    out.retain(|m| m.to == to);
}

/// Whether a capture by one of the pieces `others` (each able to capture)
/// ranks above `bound` ([`rank`]); stops at the first piece that shows it.
#[inline(always)]
fn outranked<const R: u8>(pos: &Position, others: Bitboard, bound: u64) -> bool {
    struct Best<'a, const R: u8> {
        pos: &'a Position,
        rules: &'static Rules,
        kind: Kind,
        best: u64,
    }
    impl<const R: u8> Sink for Best<'_, R> {
        fn record(&mut self, captured: Bitboard, count: u32, path: &[Square]) {
            let r = rank::<R>(self.pos, self.rules, self.kind, captured, count, path);
            self.best = self.best.max(r);
        }
    }
    let mut sink = Best::<R> {
        pos,
        rules: pos.variant().rules(),
        kind: Kind::Man,
        best: 0,
    };
    for from in others.squares() {
        sink.kind = kind_on(pos, from);
        search_from_checked::<_, R>(pos, from, &mut sink, true);
        if sink.best > bound {
            return true;
        }
    }
    false
}

/// Keeps only the kings' captures when a king can capture (Czech).
#[cold]
#[inline(never)]
fn king_must_capture(out: &mut MoveList) {
    if out.iter().any(|m| m.kind == Kind::King) {
        out.retain(|m| m.kind == Kind::King);
    }
}

/// Men of the side to move with an enemy piece next to them and an empty
/// square behind it, in the directions men capture in.
fn men_that_can_jump<const R: u8>(pos: &Position) -> Bitboard {
    match pos.size() {
        BoardSize::Eight => jumpers::<4, R>(pos),
        BoardSize::Ten => jumpers::<5, R>(pos),
        BoardSize::Twelve => jumpers::<6, R>(pos),
    }
}

#[inline(always)]
fn jumpers<const H: i8, const R: u8>(pos: &Position) -> Bitboard {
    let side = pos.side();
    let g = pos.geometry();
    let men = pos.pieces(side) & !pos.kings();
    // The family's rules are known; the others are read from the table.
    let (backward, spare_kings) = if R == FAMILY {
        (true, false)
    } else {
        let rules = pos.variant().rules();
        (
            rules.men_capture_backward,
            R == ITALIAN && !rules.men_capture_kings,
        )
    };
    let enemy = if !spare_kings {
        pos.pieces(side.other())
    } else {
        pos.pieces(side.other()) & !pos.kings()
    };
    let empty = g.all & !pos.occupied();
    let (up, down) = (
        backward || side == Color::White,
        backward || side == Color::Black,
    );
    let mut from = Bitboard::EMPTY;
    if up {
        from |= jumps_back::<H, SE>(g, enemy, empty) | jumps_back::<H, SW>(g, enemy, empty);
    }
    if down {
        from |= jumps_back::<H, NE>(g, enemy, empty) | jumps_back::<H, NW>(g, enemy, empty);
    }
    men & from
}

/// The squares from which a man jumps in the direction opposite to `B`: one
/// step towards `B` from an enemy and two steps towards `B` from an empty
/// square (the enemy one step ahead of the man, the empty square two).
#[inline(always)]
fn jumps_back<const H: i8, const B: usize>(
    g: &Geometry,
    enemy: Bitboard,
    empty: Bitboard,
) -> Bitboard {
    g.shift_const::<H, B>(enemy) & g.shift2_const::<H, B>(empty)
}

/// Whether the side to move has a plain (non-capturing) move.
pub(crate) fn has_plain_move(pos: &Position) -> bool {
    if pos.king_held().is_some() {
        // A Frisian king at its limit of plain moves: listed without it.
        let mut out = MoveList::new();
        quiet_moves(pos, &mut out);
        return !out.is_empty();
    }
    match pos.size() {
        BoardSize::Eight => has_plain::<4>(pos),
        BoardSize::Ten => has_plain::<5>(pos),
        BoardSize::Twelve => has_plain::<6>(pos),
    }
}

#[inline(always)]
fn has_plain<const H: i8>(pos: &Position) -> bool {
    let side = pos.side();
    let g = pos.geometry();
    let own = pos.pieces(side);
    let kings = own & pos.kings();
    let men = own & !pos.kings();
    let empty = g.all & !pos.occupied();
    // A king, flying or not, has a plain move when a neighbour square is empty.
    let (fwd, back) = match side {
        Color::White => (
            g.shift_const::<H, NW>(men | kings) | g.shift_const::<H, NE>(men | kings),
            g.shift_const::<H, SW>(kings) | g.shift_const::<H, SE>(kings),
        ),
        Color::Black => (
            g.shift_const::<H, SW>(men | kings) | g.shift_const::<H, SE>(men | kings),
            g.shift_const::<H, NW>(kings) | g.shift_const::<H, NE>(kings),
        ),
    };
    !((fwd | back) & empty).is_empty()
}

/// The plain move `from`-`to` if it is legal when no capture is compulsory
/// (a man one step forward, a king along an open diagonal, or one step for a
/// short king); the caller checks compulsion.
pub(crate) fn plain_move(pos: &Position, from: Square, to: Square) -> Option<Move> {
    let side = pos.side();
    if !pos.pieces(side).has(from) {
        return None;
    }
    let g = pos.geometry();
    let occ = pos.occupied();
    if !pos.kings().has(from) {
        // A man: one step forward, onto an empty square.
        let steps = forward(side).iter().any(|&d| g.step(from, d) == Some(to));
        return (steps && !occ.has(to)).then(|| Move {
            captured: Bitboard::EMPTY,
            from,
            to,
            kind: Kind::Man,
            crowns: crown_row(pos, side).has(to),
        });
    }
    if pos.king_held() == Some(from) {
        return None;
    }
    let steps_one = pos.variant().rules().kings == KingRange::Short;
    let reaches = DIRECTIONS.iter().any(|&d| {
        let mut t = g.step(from, d);
        while let Some(s) = t {
            if occ.has(s) {
                return false;
            }
            if s == to {
                return true;
            }
            if steps_one {
                return false;
            }
            t = g.step(s, d);
        }
        false
    });
    reaches.then_some(Move {
        captured: Bitboard::EMPTY,
        from,
        to,
        kind: Kind::King,
        crowns: false,
    })
}

/// Fills `out` (cleared first) with every legal move of the side to move.
pub(crate) fn generate(pos: &Position, out: &mut MoveList) {
    captures(pos, out);
    if out.is_empty() {
        quiet_moves(pos, out);
    }
}

#[inline(never)]
fn quiet_moves(pos: &Position, out: &mut MoveList) {
    let side = pos.side();
    let g = pos.geometry();
    let occ = pos.occupied();
    let kings = pos.kings();
    let row = crown_row(pos, side);
    let flying = pos.variant().is_family() || pos.variant().rules().kings == KingRange::Flying;
    let fwd = match side {
        Color::White => [NW, NE],
        Color::Black => [SW, SE],
    };
    // A Frisian king at its limit of plain moves has none.
    let held = pos.king_held();
    for from in pos.pieces(side).squares() {
        if kings.has(from) {
            if held == Some(from) {
                continue;
            }
            for d in DIRECTIONS {
                let mut t = g.step(from, d);
                while let Some(to) = t {
                    if occ.has(to) {
                        break;
                    }
                    out.push(Move {
                        captured: Bitboard::EMPTY,
                        from,
                        to,
                        kind: Kind::King,
                        crowns: false,
                    });
                    if !flying {
                        break;
                    }
                    t = g.step(to, d);
                }
            }
        } else {
            for d in fwd {
                if let Some(to) = g.step(from, d) {
                    if !occ.has(to) {
                        out.push(Move {
                            captured: Bitboard::EMPTY,
                            from,
                            to,
                            kind: Kind::Man,
                            crowns: row.has(to),
                        });
                    }
                }
            }
        }
    }
}

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

fn collect_paths(pos: &Position, from: Square, min: u32, partial: bool) -> Vec<(Move, Path)> {
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

/// Number of leaves of the legal move tree `depth` plies deep.
pub(crate) fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    generate(pos, &mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| perft(&play_unchecked(pos, m), depth - 1))
        .sum()
}

/// `perft` split by first move: each legal move with its leaf count.
pub(crate) fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let depth = depth.max(1);
    legal_moves(pos)
        .into_iter()
        .map(|m| (m, perft(&play_unchecked(pos, &m), depth - 1)))
        .collect()
}

/// The rules, asked of a position: its legal moves, a move played (checked
/// or trusted), why a move is refused, and perft.
impl Position {
    /// Every legal move of the side to move, in generation order.
    ///
    /// ```
    /// use pdnkit::Variant;
    /// let start = Variant::International.start();
    /// let after = start.play(&start.legal_moves()[0]).unwrap();
    /// assert_eq!(after.legal_moves().len(), 9);
    /// ```
    pub fn legal_moves(&self) -> MoveList {
        legal_moves(self)
    }
    /// The position after `m`, if `m` is legal here (checked as
    /// [`Position::is_legal`] does). Engines that generate their own legal
    /// moves use [`Position::play_unchecked`].
    ///
    /// ```
    /// use pdnkit::rules::Refusal;
    /// use pdnkit::Variant;
    /// let start = Variant::Russian.start();
    /// let m = start.legal_moves()[0];
    /// let after = start.play(&m).expect("a generated move is legal");
    /// // The same man cannot move again: it is the other side's turn.
    /// let refused = after.play(&m).unwrap_err();
    /// assert_eq!(refused.why, Refusal::NoPieceToMove);
    /// ```
    pub fn play(&self, m: &Move) -> Result<Position, IllegalMove> {
        play(self, m)
    }
    /// The position after `m`, which must be legal here (nothing is checked).
    #[inline]
    pub fn play_unchecked(&self, m: &Move) -> Position {
        play_unchecked(self, m)
    }
    /// Whether `m` is legal here, decided without generating every move: the
    /// piece, the compulsory capture, then a search from `m`'s square only.
    pub fn is_legal(&self, m: &Move) -> bool {
        is_legal(self, m)
    }
    /// Why `m` is not legal here (`None`: it is), decided as
    /// [`Position::is_legal`] decides.
    pub fn why_illegal(&self, m: &Move) -> Option<Refusal> {
        why_illegal(self, m)
    }
    /// The greatest number of pieces any capture of the side to move takes
    /// (0: none).
    pub fn max_capture(&self) -> u32 {
        max_capture(self)
    }
    /// One landing path of a legal move: `[from, to]` for a plain move, else
    /// every square the piece lands on, from `from` to `to`.
    pub fn landing_path(&self, m: &Move) -> Path {
        landing_path(self, m)
    }
    /// Every capture from `from`, finished or not: each with the piece
    /// stopping on any landing square of a sequence, and its landing path
    /// (for telling a capture that stops early from a wrong one).
    pub fn partial_capture_paths(&self, from: Square) -> Vec<(Move, Path)> {
        partial_capture_paths(self, from)
    }
    /// The number of leaves of the legal move tree `depth` plies deep.
    ///
    /// ```
    /// use pdnkit::Variant;
    /// assert_eq!(Variant::English.start().perft(3), 302);
    /// ```
    pub fn perft(&self, depth: u32) -> u64 {
        perft(self, depth)
    }
    /// [`Position::perft`] split by first move: each legal move with its leaf
    /// count.
    pub fn perft_divide(&self, depth: u32) -> Vec<(Move, u64)> {
        perft_divide(self, depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardSize;

    fn pos(fen: &str, size: BoardSize) -> Position {
        Position::from_fen(fen, Variant::for_board(size)).unwrap()
    }
    fn sq(size: BoardSize, n: u32) -> Square {
        size.square(n).unwrap()
    }
    /// The moves as sorted (from, to, captured) number triples.
    pub(super) fn triples(p: &Position) -> Vec<(u32, u32, Vec<u32>)> {
        let mut v: Vec<_> = legal_moves(p)
            .iter()
            .map(|m| {
                (
                    m.from.number(),
                    m.to.number(),
                    m.captured.squares().map(Square::number).collect(),
                )
            })
            .collect();
        v.sort();
        v
    }

    #[test]
    fn move_is_small_and_copy() {
        fn copy<T: Copy>() {}
        copy::<Move>();
        assert!(
            std::mem::size_of::<Move>() <= 32,
            "Move is {} bytes",
            std::mem::size_of::<Move>()
        );
    }

    #[test]
    fn men_step_forward_only() {
        let e = BoardSize::Eight;
        // A lone white man on 22 (c3): 17 and 18, never back.
        assert_eq!(
            triples(&pos("W:W22:B4", e)),
            vec![(22, 17, vec![]), (22, 18, vec![])]
        );
        // Black men move down.
        assert_eq!(
            triples(&pos("B:W29:B11", e)),
            vec![(11, 15, vec![]), (11, 16, vec![])]
        );
    }

    #[test]
    fn men_capture_backwards() {
        let e = BoardSize::Eight;
        // White man 18, black man on 22 behind it, 25 empty: captures backwards.
        assert_eq!(triples(&pos("W:W18:B22", e)), vec![(18, 25, vec![22])]);
    }

    #[test]
    fn flying_king_moves_and_lands_anywhere_behind() {
        let t = BoardSize::Ten;
        // King 46, black man on 37 (two squares up the long diagonal): lands on 32 .. 5.
        let got = triples(&pos("W:WK46:B37", t));
        let lands: Vec<u32> = got.iter().map(|m| m.1).collect();
        assert_eq!(lands, vec![5, 10, 14, 19, 23, 28, 32]);
        assert!(got.iter().all(|m| m.2 == vec![37]));
        // Plain king moves along open diagonals.
        assert_eq!(triples(&pos("W:WK46:B5", t)).len(), 8);
    }

    #[test]
    fn greatest_number_is_compulsory_and_king_counts_one() {
        let t = BoardSize::Ten;
        // Man 32 can take 27 alone (32x21), or 28 and then 18 (32x23x12); man 40
        // can take the king on 35 alone. Only the capture of two is legal.
        let p = pos("W:W32,40:B27,28,18,K35", t);
        assert_eq!(triples(&p), vec![(32, 12, vec![18, 28])]);
        assert_eq!(max_capture(&p), 2);
    }

    #[test]
    fn captured_pieces_stay_until_the_end() {
        let t = BoardSize::Ten;
        // Black king on 28 between white men 22 and 33 on one diagonal: it takes
        // either, landing anywhere behind it, but not both (the other lies
        // behind the square it came from).
        let p = pos("B:W22,33:BK28", t);
        assert_eq!(
            triples(&p),
            vec![
                (28, 6, vec![22]),
                (28, 11, vec![22]),
                (28, 17, vec![22]),
                (28, 39, vec![33]),
                (28, 44, vec![33]),
                (28, 50, vec![33]),
            ]
        );
        // King 47 takes 42, lands on 33 and turns to take 22 (31 is on no line it reaches).
        let p = pos("W:WK47:B42,31,22", t);
        assert_eq!(
            triples(&p),
            vec![
                (47, 6, vec![22, 42]),
                (47, 11, vec![22, 42]),
                (47, 17, vec![22, 42]),
            ]
        );
    }

    #[test]
    fn start_square_is_empty_during_its_capture() {
        let e = BoardSize::Eight;
        // White king on 3 takes five pieces and may end on its own start square (3x3),
        // passing over it on the way (landing path 3-12-30-21-14-3).
        let p = pos("W:WK2,K3,K6,9,24,27,K29:B1,8,10,11,16,K17,18,25", e);
        let got = triples(&p);
        assert!(got.contains(&(3, 3, vec![8, 10, 16, 17, 25])), "{got:?}");
        assert!(got.iter().all(|m| m.2.len() == 5));
    }

    #[test]
    fn no_crowning_in_passing() {
        let e = BoardSize::Eight;
        // White man 10 takes 6 landing on 1 (far row), then must carry on as a man: takes 5? No: 1 has
        // neighbours 5 and 6; 6 is taken. Build: man 11, black 7, 6, 14: 11x2? 11->(7)->2 far row, then
        // from 2 a man can take 6 landing on 9, and it ends there uncrowned.
        let p = pos("W:W11:B6,7", e);
        let got = legal_moves(&p);
        assert_eq!(got.len(), 1);
        let m = got[0];
        assert_eq!(
            (m.from.number(), m.to.number(), m.captured.count()),
            (11, 9, 2)
        );
        assert!(!m.crowns);
        let after = play_unchecked(&p, &m);
        assert_eq!(after.piece_at(sq(e, 9)).map(|p| p.kind), Some(Kind::Man));
        // Ending on the far row crowns.
        let p = pos("W:W11:B7", e);
        let m = legal_moves(&p)[0];
        assert!(m.crowns);
        assert_eq!(
            play_unchecked(&p, &m).piece_at(sq(e, 2)).map(|p| p.kind),
            Some(Kind::King)
        );
    }

    #[test]
    fn same_triple_by_two_paths_is_one_move() {
        let e = BoardSize::Eight;
        // From the conformance tricky positions: four moves, two of them sharing from/to.
        let p = pos("B:WK4,K7,9,K10,K15,17,19:BK2,K5,20,24,25", e);
        assert_eq!(legal_moves(&p).len(), 4);
        let paths = capture_paths(&p, sq(e, 2), 4);
        // Every path is one of the four moves, and some move has two different paths.
        let moves = legal_moves(&p);
        assert!(paths.iter().all(|(m, _)| moves.contains(m)));
        let two_paths = moves.iter().any(|m| {
            let mine: Vec<&Path> = paths
                .iter()
                .filter(|(x, _)| x == m)
                .map(|(_, p)| p)
                .collect();
            mine.len() >= 2 && mine.windows(2).any(|w| w[0] != w[1])
        });
        assert!(two_paths, "no move with two paths among {paths:?}");
    }

    #[test]
    fn no_moves_means_empty_list() {
        let e = BoardSize::Eight;
        assert!(legal_moves(&pos("W:W:B1", e)).is_empty());
        // Blocked white man on 29 by 25 and an occupied 22? 29 goes to 25 only: block it with a black man backed up.
        assert!(legal_moves(&pos("W:W29:B25,22", e)).is_empty());
    }

    #[test]
    fn landing_path_is_a_real_path() {
        let e = BoardSize::Eight;
        let p = pos("W:WK2,K3,K6,9,24,27,K29:B1,8,10,11,16,K17,18,25", e);
        for m in legal_moves(&p) {
            let path = landing_path(&p, &m);
            assert_eq!(path[0], m.from);
            assert_eq!(*path.last().unwrap(), m.to);
            assert_eq!(path.len() as u32, m.capture_count() + 1);
        }
    }
}

#[cfg(test)]
mod czech_tests {
    use super::*;
    use crate::board::{Bitboard, BoardSize};
    use crate::position::Position;
    use crate::variant::Variant;

    fn sq(n: u32) -> Square {
        BoardSize::Eight.square(n).unwrap()
    }

    #[test]
    fn a_king_must_capture_when_a_king_can() {
        // White man c3 (22) can take d4 (18) to e5 (15); the white king g1
        // (32) can take f2 (27): the king must capture (and goes on over 18).
        let p = Position::from_fen("W:W22,K32:B18,27", Variant::Czech).unwrap();
        let moves = legal_moves(&p);
        assert!(!moves.is_empty());
        assert!(moves
            .iter()
            .all(|m| m.from().number() == 32 && m.kind() == Kind::King));
        let man = Move::new(
            sq(22),
            sq(15),
            Bitboard::default().with(sq(18)),
            Kind::Man,
            false,
        );
        assert_eq!(why_illegal(&p, &man), Some(Refusal::KingMustCapture));
        // The same move read from the record says why.
        let g =
            &crate::pdn::read_all(b"[GameType \"29\"]\n[FEN \"W:W22,K32:B18,27\"]\n1. 22x15 *\n")
                [0];
        let r = crate::check::check_game(g, &Default::default());
        let d = &r.diagnostics[0];
        assert_eq!(d.code.as_str(), "illegal-move");
        assert!(d.message.contains("a king must capture"), "{}", d.message);
    }

    #[test]
    fn otherwise_any_capture_and_men_capture_forward_only() {
        // No king: the man may choose the short capture (no maximum rule).
        // White man 22 can take 18 (to 15) or 17 (to 13, then on over 10? no).
        let p = Position::from_fen("W:W22:B17,18,10", Variant::Czech).unwrap();
        let takes: Vec<u32> = legal_moves(&p).iter().map(Move::capture_count).collect();
        assert!(takes.contains(&1), "{takes:?}");
        // A black man behind a white man is not taken backwards.
        let p = Position::from_fen("W:W18:B22", Variant::Czech).unwrap();
        assert!(legal_moves(&p).iter().all(|m| !m.is_capture()));
        // The start position and its perft are the usual 8x8 ones for one ply.
        assert_eq!(legal_moves(&Variant::Czech.start()).len(), 7);
    }
}

/// Positions for tests across the crate.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;
    use crate::position::Position;
    use crate::variant::Variant;

    /// `per_variant` random positions of every variant, with each side to
    /// move, handed to `f`: sparse and dense boards (a third to two thirds of
    /// the squares occupied), about a quarter of the pieces kings.
    pub(crate) fn random_positions(per_variant: usize, mut f: impl FnMut(&Position)) {
        let mut x = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            u128::from(x) << 64 | u128::from(x.rotate_left(29))
        };
        for variant in Variant::ALL {
            let g = variant.geometry();
            for k in 0..per_variant {
                let (a, b, c) = (next(), next(), next());
                let occupied = if k % 2 == 0 { a | b } else { a & b } & g.all.0;
                let white = Bitboard(occupied & c);
                let black = Bitboard(occupied & !c);
                let kings = Bitboard(occupied & next() & next());
                for side in [Color::White, Color::Black] {
                    let mut pos = Position::empty(variant, side);
                    pos.set_raw(white, black, kings, side);
                    f(&pos);
                }
            }
        }
    }
}

/// The replay's shortcuts (the men that can jump, a plain move checked on its
/// own, a capture read from its piece) against the full listing, on random
/// positions of every variant.
#[cfg(test)]
mod jumper_tests {
    use super::testing::random_positions;
    use super::*;
    use crate::position::Position;
    use crate::variant::Variant;

    /// The men of the side to move with a first jump, square by square from the
    /// neighbour table: the definition [`men_that_can_jump`] computes by shifts.
    fn by_squares(pos: &Position) -> Bitboard {
        let g = pos.geometry();
        let side = pos.side();
        let rules = pos.variant().rules();
        let mut enemy = pos.pieces(side.other());
        if !rules.men_capture_kings {
            enemy = enemy & !pos.kings();
        }
        let empty = g.all & !pos.occupied();
        let forward: [Direction; 2] = match side {
            Color::White => [NW, NE],
            Color::Black => [SW, SE],
        };
        let mut out = Bitboard::EMPTY;
        for man in (pos.pieces(side) & !pos.kings()).squares() {
            for d in [NW, NE, SW, SE] {
                if !rules.men_capture_backward && !forward.contains(&d) {
                    continue;
                }
                let over = g.step(man, d);
                let land = over.and_then(|o| g.step(o, d));
                if let (Some(o), Some(l)) = (over, land) {
                    if enemy.has(o) && empty.has(l) {
                        out = out.with(man);
                    }
                }
            }
        }
        out
    }

    #[test]
    fn the_men_that_can_jump_are_found_by_shifts_as_square_by_square() {
        let mut found = 0;
        random_positions(2000, |pos| {
            let fast = match rule_class(pos.variant()) {
                FAMILY => men_that_can_jump::<FAMILY>(pos),
                ITALIAN => men_that_can_jump::<ITALIAN>(pos),
                _ => men_that_can_jump::<OTHER>(pos),
            };
            assert_eq!(fast, by_squares(pos), "{}", pos.to_fen());
            found += usize::from(!fast.is_empty());
        });
        assert!(found > 5000, "{found}");
    }

    /// `plain_move` answers, for every pair of squares, exactly what the list
    /// of legal moves holds when no capture is compulsory.
    #[test]
    fn a_plain_move_is_legal_exactly_when_the_list_holds_it() {
        let (mut legal, mut found) = (MoveList::new(), 0usize);
        random_positions(300, |pos| {
            generate(pos, &mut legal);
            if legal.first().is_some_and(Move::is_capture) {
                return;
            }
            let g = pos.geometry();
            for from in g.all.squares() {
                for to in g.all.squares() {
                    let want = legal.iter().find(|m| m.from == from && m.to == to);
                    let got = plain_move(pos, from, to);
                    assert_eq!(got.as_ref(), want, "{} {from}-{to}", pos.to_fen());
                    found += usize::from(got.is_some());
                }
            }
        });
        assert!(found > 3000, "{found}");
    }

    /// A written capture checked from its own piece gives exactly the legal
    /// captures with its ends, in the listing's order: for every pair of
    /// squares, on random positions of every variant (many with kings, several
    /// capturing pieces, and captures that outrank others).
    #[test]
    fn a_capture_read_from_its_piece_is_the_listed_captures_with_its_ends() {
        let (mut listed, mut outranked, mut czech_men) = (0usize, 0usize, 0usize);
        let (mut all, mut between) = (MoveList::new(), MoveList::new());
        random_positions(300, |pos| {
            captures(pos, &mut all);
            let capturers = capturers(pos);
            assert_eq!(capturers.is_empty(), all.is_empty(), "{}", pos.to_fen());
            for from in pos.pieces(pos.side()).squares() {
                for to in pos.geometry().all.squares() {
                    let want: Vec<Move> = all
                        .iter()
                        .filter(|m| m.from == from && m.to == to)
                        .copied()
                        .collect();
                    captures_between(pos, capturers, from, to, &mut between);
                    assert_eq!(between.as_slice(), want, "{} {from}x{to}", pos.to_fen());
                    listed += want.len();
                }
                // Pieces that can capture but whose captures are not legal.
                if capturers.has(from) && !all.iter().any(|m| m.from == from) {
                    if pos.variant() == Variant::Czech {
                        czech_men += 1;
                    } else {
                        outranked += 1;
                    }
                }
            }
        });
        assert!(listed > 3000, "{listed}");
        assert!(outranked > 100, "{outranked}");
        assert!(czech_men > 10, "{czech_men}");
    }
}

/// Italian (docs/rules.md section 7): the hand-made positions of each step of
/// the precedence, and men that cannot take kings. Squares are Italian
/// numbers (mirrored board: 1 = a8, 32 = h1).
#[cfg(test)]
mod italian_tests {
    use super::*;
    use crate::position::Position;
    use crate::variant::Variant;

    /// The legal moves as (from, to, captured squares), sorted.
    fn moves(fen: &str) -> Vec<(u32, u32, Vec<u32>)> {
        let p = Position::from_fen(fen, Variant::Italian).unwrap();
        let mut v: Vec<_> = legal_moves(&p)
            .iter()
            .map(|m| {
                (
                    m.from().number(),
                    m.to().number(),
                    m.captured().squares().map(Square::number).collect(),
                )
            })
            .collect();
        v.sort();
        v
    }

    /// The move `from`x`to` taking `taken`, by a piece of `kind`.
    fn capture(from: u32, to: u32, taken: &[u32], kind: Kind) -> Move {
        let g = Variant::Italian.geometry();
        let sq = |n| g.square(n).unwrap();
        let captured = taken.iter().fold(Bitboard::EMPTY, |b, &n| b.with(sq(n)));
        Move::new(sq(from), sq(to), captured, kind, false)
    }

    fn refusal(fen: &str, m: &Move) -> Option<Refusal> {
        why_illegal(&Position::from_fen(fen, Variant::Italian).unwrap(), m)
    }

    #[test]
    fn the_most_pieces() {
        // Man d3 (22) takes c4 (18) alone, or e4 (19) then e6 (11): two.
        let fen = "W:W22:B11,18,19";
        assert_eq!(moves(fen), [(22, 6, vec![11, 19])]);
        let one = capture(22, 13, &[18], Kind::Man);
        assert_eq!(
            refusal(fen, &one),
            Some(Refusal::NonMaximalCapture { taken: 1, max: 2 })
        );
    }

    #[test]
    fn with_the_king() {
        // Man 22 takes 18, king 27 takes 23: one each, so the king must.
        let fen = "W:W22,K27:B18,23";
        assert_eq!(moves(fen), [(27, 20, vec![23])]);
        let man = capture(22, 13, &[18], Kind::Man);
        assert_eq!(refusal(fen, &man), Some(Refusal::KingMustCapture));
    }

    #[test]
    fn the_most_kings() {
        // King 27 takes the man 23 or the king 22: the king.
        let fen = "W:WK27:B23,K22";
        assert_eq!(moves(fen), [(27, 18, vec![22])]);
        let man = capture(27, 20, &[23], Kind::King);
        assert_eq!(refusal(fen, &man), Some(Refusal::Precedence));
    }

    #[test]
    fn the_kings_first() {
        // King 12 takes two either way, one king each: K15 then 22, or 7
        // then K6. The one meeting the king first.
        let fen = "W:WK12:B7,20,22,K6,K15";
        assert_eq!(moves(fen), [(12, 26, vec![15, 22])]);
        let later = capture(12, 10, &[6, 7], Kind::King);
        assert_eq!(refusal(fen, &later), Some(Refusal::Precedence));
    }

    #[test]
    fn when_the_first_king_is_met_as_early_the_second_decides() {
        // King 26 takes three either way, two kings each, the first king
        // first in both: K22, K14, 5 (kings 1st and 2nd) or K22, 15, K7
        // (1st and 3rd). Compared as lists: the first. (A rule that looks
        // at the first king only would allow both.)
        let fen = "W:WK26:B5,15,K22,K14,K7";
        assert_eq!(moves(fen), [(26, 1, vec![5, 14, 22])]);
        let other = capture(26, 3, &[7, 15, 22], Kind::King);
        assert_eq!(refusal(fen, &other), Some(Refusal::Precedence));
    }

    #[test]
    fn a_man_cannot_take_a_king() {
        // Man d3 (22) next to a black king on c4 (18), b5 (13) empty: no
        // capture, so the plain moves are legal; a man is taken as usual.
        assert_eq!(moves("W:W22:BK18"), [(22, 19, vec![])]);
        assert_eq!(moves("W:W22:B18"), [(22, 13, vec![18])]);
        // The king takes the king.
        assert_eq!(moves("W:WK22:BK18"), [(22, 13, vec![18])]);
        // Read from a record, the man's capture says why.
        let g = &crate::pdn::read_all(b"[GameType \"22\"]\n[FEN \"W:W22:BK18\"]\n1. 22x13 *\n")[0];
        let r = crate::check::check_game(g, &Default::default());
        let d = &r.diagnostics[0];
        assert_eq!(d.code.as_str(), "illegal-move");
        assert!(d.message.contains("cannot capture a king"), "{}", d.message);
    }

    #[test]
    fn precedence_read_from_a_record() {
        let g = &crate::pdn::read_all(
            b"[GameType \"22\"]\n[FEN \"W:WK12:B7,20,22,K6,K15\"]\n1. 12x10 *\n",
        )[0];
        let r = crate::check::check_game(g, &Default::default());
        let d = &r.diagnostics[0];
        assert_eq!(d.code.as_str(), "illegal-move");
        assert!(
            d.message
                .contains("the capture precedence rules require another capture"),
            "{}",
            d.message
        );
    }

    #[test]
    fn the_compiled_class_of_each_variant_agrees_with_its_row() {
        for v in Variant::ALL {
            assert_eq!(rule_class(v), class_of(v.rules()), "{v}");
        }
    }

    #[test]
    fn short_kings_and_the_start() {
        // A king steps one square (h1 = 32 on the long diagonal: 28 only).
        assert_eq!(moves("W:WK32:B1"), [(32, 28, vec![])]);
        // Seven first moves, as every 8x8 variant.
        assert_eq!(legal_moves(&Variant::Italian.start()).len(), 7);
        assert_eq!(perft(&Variant::Italian.start(), 6), 36_473);
    }
}

/// Frisian (RULES.md 10): hand-made positions for each rule.
#[cfg(test)]
mod frisian_tests {
    use super::*;
    use crate::board::BoardSize;

    fn sq(n: u32) -> Square {
        BoardSize::Ten.square(n).unwrap()
    }
    use super::tests::triples;

    fn frisian(fen: &str) -> Position {
        Position::from_fen(fen, Variant::Frisian).unwrap()
    }

    #[test]
    fn frisian_pieces_capture_along_rows_and_columns() {
        assert_eq!(triples(&frisian("W:W33:B34")), vec![(33, 35, vec![34])]);
        assert_eq!(triples(&frisian("B:W15:B5")), vec![(5, 25, vec![15])]);
        // Not in international: the same pieces just move.
        let intl = Position::from_fen("W:W33:B34", Variant::International).unwrap();
        assert!(legal_moves(&intl).iter().all(|m| !m.is_capture()));
        // A king captures along a column at any distance and lands anywhere behind.
        assert_eq!(
            triples(&frisian("W:WK46:B26")),
            vec![(46, 6, vec![26]), (46, 16, vec![26])]
        );
        // But moves only along diagonals.
        let king = frisian("W:WK46:B5");
        assert!(legal_moves(&king).iter().all(|m| {
            let (r0, f0) = king.geometry().coords(m.from);
            let (r1, f1) = king.geometry().coords(m.to);
            (i32::from(r1) - i32::from(r0)).abs() == (i32::from(f1) - i32::from(f0)).abs()
        }));
    }

    #[test]
    fn frisian_captures_are_ranked_by_value_then_king_first() {
        // A king taken (199) beats a man taken (100).
        assert_eq!(
            triples(&frisian("W:W33,46:BK28,41")),
            vec![(33, 22, vec![28])]
        );
        // A man and a king (299) beat a king alone (199), by the same man.
        assert_eq!(
            triples(&frisian("W:W33,46:BK28,41,27")),
            vec![(33, 31, vec![27, 28])]
        );
        // Equal value: the king's capture, not the man's.
        assert_eq!(
            triples(&frisian("W:W33,K50:B28,44")),
            vec![(50, 39, vec![44])]
        );
        let p = frisian("W:W33,K50:B28,44");
        let man = Move::new(sq(33), sq(22), sq(28).bit(), Kind::Man, false);
        assert_eq!(why_illegal(&p, &man), Some(Refusal::KingMustCapture));
        let p = frisian("W:W33,46:BK28,41");
        let low = Move::new(sq(46), sq(37), sq(41).bit(), Kind::Man, false);
        assert_eq!(
            why_illegal(&p, &low),
            Some(Refusal::LowerValue {
                value: 100,
                best: 199
            })
        );
    }

    #[test]
    fn a_frisian_man_crossing_the_far_row_stays_a_man() {
        // 12x1 over 7, then down the column over 11 to 21.
        let p = frisian("W:W12:B7,11");
        let moves = legal_moves(&p);
        assert_eq!(triples(&p), vec![(12, 21, vec![7, 11])]);
        assert!(!moves[0].crowns(), "the move does not end on the far row");
        let after = play(&p, &moves[0]).unwrap();
        assert!(!after.kings().has(sq(21)));
    }

    #[test]
    fn a_frisian_king_makes_three_plain_moves_in_a_row_at_most() {
        let mut p = frisian("W:WK50,46:B1");
        let moves = |p: &Position| {
            triples(p)
                .into_iter()
                .map(|(f, t, _)| (f, t))
                .collect::<Vec<_>>()
        };
        // Three plain moves of the king, Black's man answering.
        for (king, man) in [
            ((50, 44), (1, 6)),
            ((44, 49), (6, 11)),
            ((49, 44), (11, 16)),
        ] {
            assert!(moves(&p).contains(&king));
            let m = legal_moves(&p)
                .into_iter()
                .find(|m| (m.from.number(), m.to.number()) == king)
                .unwrap();
            p = play(&p, &m).unwrap();
            let m = legal_moves(&p)
                .into_iter()
                .find(|m| (m.from.number(), m.to.number()) == man)
                .unwrap();
            p = play(&p, &m).unwrap();
        }
        // A fourth is refused: only the man moves.
        assert_eq!(moves(&p), vec![(46, 41)]);
        let fourth = Move::new(sq(44), sq(50), Bitboard::EMPTY, Kind::King, false);
        assert_eq!(why_illegal(&p, &fourth), Some(Refusal::KingMoveLimit));
        // The man's move frees the king; a FEN starts the counters at 0.
        let m = legal_moves(&p)
            .into_iter()
            .find(|m| m.from.number() == 46)
            .unwrap();
        p = play(&p, &m).unwrap();
        let m = legal_moves(&p)[0];
        p = play(&p, &m).unwrap();
        assert!(moves(&p).iter().any(|&(f, _)| f == 44));
        let again = Position::from_fen(&p.to_fen(), Variant::Frisian).unwrap();
        assert_eq!(again.king_held(), None);
        // Without men the limit does not apply: White's king goes back and
        // forth between 50 and 44, Black's between 1 and 6, four times each.
        let mut k = frisian("W:WK50:BK1");
        for (w, b) in [((50, 44), (1, 6)), ((44, 50), (6, 1))]
            .iter()
            .cycle()
            .take(4)
        {
            for (from, to) in [w, b] {
                let m = legal_moves(&k)
                    .into_iter()
                    .find(|m| (m.from.number(), m.to.number()) == (*from, *to))
                    .expect("a plain king move");
                k = play(&k, &m).unwrap();
            }
        }
        assert_eq!(k.king_run(Color::White).count, 4);
        assert!(moves(&k).contains(&(50, 44)));
    }

    /// Every complete capture of the side to move, legal or not (any
    /// maximum set aside), one per (from, to, captured set).
    fn all_captures(p: &Position) -> Vec<Move> {
        let mut out: Vec<Move> = Vec::new();
        for from in p.pieces(p.side()).squares() {
            for (m, _) in capture_paths(p, from, 1) {
                if !out.contains(&m) {
                    out.push(m);
                }
            }
        }
        out
    }

    #[test]
    fn a_frisian_king_captures_along_a_row_at_a_distance() {
        assert_eq!(
            triples(&frisian("W:WK46:BK48")),
            vec![(46, 49, vec![48]), (46, 50, vec![48])]
        );
    }

    #[test]
    fn a_square_is_crossed_twice_and_a_loop_is_one_move() {
        // The king on 37 lands on 19, 49, 35 and 2 (or 8): it crosses squares
        // it passed before.
        let p = frisian("B:W13,23,K39,K44:B27,K37,41,K46");
        assert_eq!(
            triples(&p),
            vec![(37, 2, vec![13, 23, 39, 44]), (37, 8, vec![13, 23, 39, 44])]
        );
        // The man on 23 goes round and back to 23 by two routes: one move.
        let p = frisian("W:W6,21,23,25,27,38,39:B5,14,26,28,29,30,33,35,37,41");
        let loops: Vec<_> = triples(&p).into_iter().filter(|(f, t, _)| f == t).collect();
        assert_eq!(loops, vec![(23, 23, vec![28, 29, 33])]);
        let routes = capture_paths(&p, sq(23), 3)
            .into_iter()
            .filter(|(m, _)| m.to == sq(23))
            .count();
        assert!(routes >= 2, "{routes} landing paths");
    }

    #[test]
    fn frisian_value_beats_count_both_ways() {
        // Two men (200) beat a king (199): 46x39 over 41 and 38, not 33x22.
        let p = frisian("W:W33,46:BK28,41,38");
        assert_eq!(triples(&p), vec![(46, 39, vec![38, 41])]);
        assert!(all_captures(&p)
            .iter()
            .any(|m| m.from == sq(33) && capture_value(&p, m.captured) == 199));
        // Two kings (398) beat three men (300): fewer pieces, greater value.
        let p = frisian("W:WK22,23,35,50:B1,K3,4,K15,K24,28,37,38");
        let legal = legal_moves(&p);
        assert_eq!(triples(&p), vec![(23, 5, vec![15, 24])]);
        assert_eq!(capture_value(&p, legal[0].captured), 398);
        let most = all_captures(&p)
            .iter()
            .map(Move::capture_count)
            .max()
            .unwrap_or(0);
        assert!(most >= 3, "a capture of {most} pieces is passed over");
    }

    #[test]
    fn a_capture_frees_a_frisian_king_from_its_limit() {
        let mut p = frisian("W:WK50,46:B26,1");
        let play_pair = |p: &mut Position, w: (u32, u32), b: (u32, u32)| {
            for (from, to) in [w, b] {
                let m = legal_moves(p)
                    .into_iter()
                    .find(|m| (m.from.number(), m.to.number()) == (from, to))
                    .expect("a legal move");
                *p = play(p, &m).unwrap();
            }
        };
        play_pair(&mut p, (50, 44), (26, 31));
        play_pair(&mut p, (44, 49), (31, 37));
        play_pair(&mut p, (49, 44), (37, 41));
        assert_eq!(p.king_held(), Some(sq(44)));
        // The man must take 41; that frees the king.
        assert_eq!(triples(&p), vec![(46, 37, vec![41])]);
        play_pair(&mut p, (46, 37), (1, 6));
        assert_eq!((p.king_held(), p.king_run(Color::White).count), (None, 0));
        assert!(legal_moves(&p).iter().any(|m| m.from == sq(44)));
    }
}
