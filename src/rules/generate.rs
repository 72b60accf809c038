//! The legal moves of a position: captures (when one is compulsory) or
//! plain moves, and the quick tests of which pieces can capture or move.

use crate::board::{
    Bitboard, BoardSize, Direction, Geometry, Square, DIRECTIONS, E, N, NE, NW, ORTHOGONAL, S, SE,
    SW, W,
};
use crate::piece::{Color, Kind};
use crate::position::Position;
use crate::rules::moves::{rule_class, MoveList, FAMILY, FRISIAN, ITALIAN, OTHER, TURKISH};
use crate::rules::search::{
    crown_row, forward, kind_on, rank, search_from_checked, Board, MoveSink, Sink,
};
use crate::rules::Move;
use crate::variant::{CaptureRule, KingRange, Rules};

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
        TURKISH => captures_with::<TURKISH>(pos, out),
        _ => captures_with::<OTHER>(pos, out),
    }
}

#[inline(always)]
pub(super) fn captures_with<const R: u8>(pos: &Position, out: &mut MoveList) {
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
        TURKISH => capturers_with::<TURKISH>(pos),
        _ => capturers_with::<OTHER>(pos),
    }
}

#[inline(always)]
pub(super) fn capturers_with<const R: u8>(pos: &Position) -> Bitboard {
    if R == FRISIAN || R == TURKISH {
        // Eight directions, or the 64-square board: every piece is searched
        // for a first jump.
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
        TURKISH => captures_between_with::<TURKISH>(pos, capturers, from, to, out),
        _ => captures_between_with::<OTHER>(pos, capturers, from, to, out),
    }
}

#[inline(always)]
pub(super) fn captures_between_with<const R: u8>(
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
pub(super) fn outranked<const R: u8>(pos: &Position, others: Bitboard, bound: u64) -> bool {
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
pub(super) fn king_must_capture(out: &mut MoveList) {
    if out.iter().any(|m| m.kind == Kind::King) {
        out.retain(|m| m.kind == Kind::King);
    }
}

/// Men of the side to move with an enemy piece next to them and an empty
/// square behind it, in the directions men capture in.
#[inline(always)]
pub(super) fn men_that_can_jump<const R: u8>(pos: &Position) -> Bitboard {
    match pos.size() {
        BoardSize::Eight => jumpers::<4, R>(pos),
        BoardSize::Ten => jumpers::<5, R>(pos),
        BoardSize::Twelve => jumpers::<6, R>(pos),
        BoardSize::Full => men_that_can_jump_full::<R>(pos),
    }
}

/// [`men_that_can_jump`] on the 64-square board, which has no whole-set
/// steps: each man is searched (out of the dark-square boards' way).
#[cold]
#[inline(never)]
fn men_that_can_jump_full<const R: u8>(pos: &Position) -> Bitboard {
    (pos.pieces(pos.side()) & !pos.kings())
        .squares()
        .filter(|&sq| Board::new(pos, sq).can_capture::<R>(sq, false, Bitboard::EMPTY))
        .fold(Bitboard::EMPTY, Bitboard::with)
}

#[inline(always)]
pub(super) fn jumpers<const H: i8, const R: u8>(pos: &Position) -> Bitboard {
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
pub(super) fn jumps_back<const H: i8, const B: usize>(
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
        BoardSize::Full => has_plain_full(pos),
    }
}

/// [`has_plain_move`] on the 64-square board: each piece's neighbours.
#[cold]
#[inline(never)]
fn has_plain_full(pos: &Position) -> bool {
    let side = pos.side();
    let (g, occ) = (pos.geometry(), pos.occupied());
    let (men, kings) = (step_dirs(pos, side, false), step_dirs(pos, side, true));
    pos.pieces(side).squares().any(|sq| {
        let dirs = if pos.kings().has(sq) { kings } else { men };
        dirs.iter()
            .any(|&d| g.step(sq, d).is_some_and(|t| !occ.has(t)))
    })
}

/// The directions a piece of `side` moves in without capturing: a man's
/// forward ones (and sideways on the 64-square board), a king's all.
#[inline]
fn step_dirs(pos: &Position, side: Color, king: bool) -> &'static [Direction] {
    match (pos.size() == BoardSize::Full, king) {
        (false, false) => forward(side),
        (false, true) => &DIRECTIONS,
        (true, false) => crate::rules::search::ortho_man_dirs(side),
        (true, true) => &ORTHOGONAL,
    }
}

#[inline(always)]
pub(super) fn has_plain<const H: i8>(pos: &Position) -> bool {
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
#[inline]
pub(crate) fn plain_move(pos: &Position, from: Square, to: Square) -> Option<Move> {
    let side = pos.side();
    if !pos.pieces(side).has(from) {
        return None;
    }
    let g = pos.geometry();
    let occ = pos.occupied();
    if !pos.kings().has(from) {
        // A man: one step forward, onto an empty square (on the dark-square
        // boards, one of two neighbours: no walk of a list, issue 65).
        let steps = match (pos.size(), side) {
            (BoardSize::Full, _) => step_dirs(pos, side, false)
                .iter()
                .any(|&d| g.step(from, d) == Some(to)),
            (_, Color::White) => g.steps_to(from, NW, to) || g.steps_to(from, NE, to),
            (_, Color::Black) => g.steps_to(from, SW, to) || g.steps_to(from, SE, to),
        };
        return (steps && !occ.has(to)).then(|| Move {
            captured: Bitboard::EMPTY,
            from,
            to,
            kind: Kind::Man,
            crowns: crown_row(pos, side).has(to),
        });
    }
    king_plain_move(pos, from, to)
}

/// [`plain_move`] of a king (out of the men's way: most plies are men's).
#[inline(never)]
fn king_plain_move(pos: &Position, from: Square, to: Square) -> Option<Move> {
    let (side, g, occ) = (pos.side(), pos.geometry(), pos.occupied());
    if pos.king_held() == Some(from) {
        return None;
    }
    let steps_one = pos.variant().rules().kings == KingRange::Short;
    let reaches = step_dirs(pos, side, true).iter().any(|&d| {
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

/// How many legal moves the side to move has: [`generate`]'s count,
/// without listing the plain moves of men on the dark-square boards (their
/// number is the number of men that can step each way: perft's leaves).
pub(crate) fn count_moves(pos: &Position) -> u64 {
    let mut out = MoveList::new();
    captures(pos, &mut out);
    if !out.is_empty() {
        return out.len() as u64;
    }
    match (pos.size(), pos.side()) {
        (BoardSize::Eight, Color::White) => count_quiet::<4, NW, NE, SE, SW>(pos, &mut out),
        (BoardSize::Eight, Color::Black) => count_quiet::<4, SW, SE, NE, NW>(pos, &mut out),
        (BoardSize::Ten, Color::White) => count_quiet::<5, NW, NE, SE, SW>(pos, &mut out),
        (BoardSize::Ten, Color::Black) => count_quiet::<5, SW, SE, NE, NW>(pos, &mut out),
        (BoardSize::Twelve, Color::White) => count_quiet::<6, NW, NE, SE, SW>(pos, &mut out),
        (BoardSize::Twelve, Color::Black) => count_quiet::<6, SW, SE, NE, NW>(pos, &mut out),
        (BoardSize::Full, _) => {
            quiet_moves(pos, &mut out);
            out.len() as u64
        }
    }
}

/// The number of moves [`quiet_diagonal`] lists: the men's by their sets,
/// the kings' listed (into `scratch`, left empty) and counted.
#[inline(always)]
fn count_quiet<
    const H: i8,
    const A: Direction,
    const B: Direction,
    const RA: Direction,
    const RB: Direction,
>(
    pos: &Position,
    scratch: &mut MoveList,
) -> u64 {
    let (step_a, step_b, my_kings) = movers::<H, A, B, RA, RB>(pos);
    for from in my_kings.squares() {
        king_quiet_moves(pos, pos.geometry(), from, DIRECTIONS, scratch);
    }
    let kings = scratch.len() as u64;
    scratch.clear();
    u64::from(step_a.count() + step_b.count()) + kings
}

/// The men of the side to move that can step `A`, those that can step `B`
/// (every man stepped at once onto the empty squares, and back: `RA`, `RB`
/// are the opposite ways), and its kings.
#[inline(always)]
fn movers<
    const H: i8,
    const A: Direction,
    const B: Direction,
    const RA: Direction,
    const RB: Direction,
>(
    pos: &Position,
) -> (Bitboard, Bitboard, Bitboard) {
    let g = pos.geometry();
    let kings = pos.kings();
    let mine = pos.pieces(pos.side());
    let men = mine & !kings;
    let empty = g.all & !pos.occupied();
    (
        g.shift_const::<H, RA>(g.shift_const::<H, A>(men) & empty),
        g.shift_const::<H, RB>(g.shift_const::<H, B>(men) & empty),
        mine & kings,
    )
}

#[inline(never)]
pub(super) fn quiet_moves(pos: &Position, out: &mut MoveList) {
    // The dark-square boards step whole sets of men at once; the 64-square
    // board walks each piece's neighbours.
    match (pos.size(), pos.side()) {
        (BoardSize::Eight, Color::White) => quiet_diagonal::<4, NW, NE, SE, SW>(pos, out),
        (BoardSize::Eight, Color::Black) => quiet_diagonal::<4, SW, SE, NE, NW>(pos, out),
        (BoardSize::Ten, Color::White) => quiet_diagonal::<5, NW, NE, SE, SW>(pos, out),
        (BoardSize::Ten, Color::Black) => quiet_diagonal::<5, SW, SE, NE, NW>(pos, out),
        (BoardSize::Twelve, Color::White) => quiet_diagonal::<6, NW, NE, SE, SW>(pos, out),
        (BoardSize::Twelve, Color::Black) => quiet_diagonal::<6, SW, SE, NE, NW>(pos, out),
        (BoardSize::Full, Color::White) => quiet_with(pos, out, [N, W, E], ORTHOGONAL),
        (BoardSize::Full, Color::Black) => quiet_with(pos, out, [S, W, E], ORTHOGONAL),
    }
}

/// [`quiet_moves`] on a dark-square board of `H` squares a row, for men
/// stepping `A` and `B` (`RA`, `RB` the opposite ways): the men that can
/// step each way are found as sets (every man stepped at once, onto the
/// empty squares, and back), so a man that cannot move costs nothing.
/// The moves come in [`quiet_with`]'s order: by square, each man's `A`
/// before its `B` (a test holds the two to the same lists).
#[inline(always)]
fn quiet_diagonal<
    const H: i8,
    const A: Direction,
    const B: Direction,
    const RA: Direction,
    const RB: Direction,
>(
    pos: &Position,
    out: &mut MoveList,
) {
    let side = pos.side();
    let g = pos.geometry();
    let (step_a, step_b, my_kings) = movers::<H, A, B, RA, RB>(pos);
    let movers = step_a | step_b | my_kings;
    if movers.is_empty() {
        return;
    }
    let row = crown_row(pos, side);
    let man = |from: Square, d: Direction, out: &mut MoveList| {
        if let Some(to) = g.step(from, d) {
            out.push(Move {
                captured: Bitboard::EMPTY,
                from,
                to,
                kind: Kind::Man,
                crowns: row.has(to),
            });
        }
    };
    if H <= 5 {
        // At most 50 squares: the sets are one machine word.
        let (a, b, k) = (
            step_a.bits() as u64,
            step_b.bits() as u64,
            my_kings.bits() as u64,
        );
        let mut rest = a | b | k;
        while rest != 0 {
            let i = rest.trailing_zeros();
            rest &= rest - 1;
            let (bit, from) = (1u64 << i, Square::from_index(i as u8));
            if k & bit != 0 {
                king_quiet_moves(pos, g, from, DIRECTIONS, out);
                continue;
            }
            if a & bit != 0 {
                man(from, A, out);
            }
            if b & bit != 0 {
                man(from, B, out);
            }
        }
        return;
    }
    for from in movers.squares() {
        if my_kings.has(from) {
            king_quiet_moves(pos, g, from, DIRECTIONS, out);
            continue;
        }
        if step_a.has(from) {
            man(from, A, out);
        }
        if step_b.has(from) {
            man(from, B, out);
        }
    }
}

/// The plain moves of the king on `from` in `dirs`, each way in turn: one
/// step, or every empty square of the line for a flying king. A Frisian
/// king at its limit of plain moves has none.
#[inline(always)]
fn king_quiet_moves<const K: usize>(
    pos: &Position,
    g: &Geometry,
    from: Square,
    dirs: [Direction; K],
    out: &mut MoveList,
) {
    if pos.king_held() == Some(from) {
        return;
    }
    let occ = pos.occupied();
    let flying = pos.variant().is_family() || pos.variant().rules().kings == KingRange::Flying;
    for d in dirs {
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
}

/// [`quiet_moves`] with the directions of the side's men and of kings.
#[inline(always)]
fn quiet_with<const M: usize, const K: usize>(
    pos: &Position,
    out: &mut MoveList,
    man_dirs: [Direction; M],
    king_dirs: [Direction; K],
) {
    let side = pos.side();
    let g = pos.geometry();
    let occ = pos.occupied();
    let kings = pos.kings();
    let row = crown_row(pos, side);
    for from in pos.pieces(side).squares() {
        if kings.has(from) {
            king_quiet_moves(pos, g, from, king_dirs, out);
        } else {
            for d in man_dirs {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::random_positions;

    /// The whole-set plain moves of the dark-square boards are the moves a
    /// walk over each piece's neighbours lists, in the same order.
    #[test]
    fn plain_moves_by_sets_are_those_of_each_piece_in_order() {
        let mut seen = 0;
        random_positions(300, |pos| {
            let mut fast = MoveList::new();
            quiet_moves(pos, &mut fast);
            let mut walked = MoveList::new();
            match (pos.size(), pos.side()) {
                (BoardSize::Full, _) => return,
                (_, Color::White) => quiet_with(pos, &mut walked, [NW, NE], DIRECTIONS),
                (_, Color::Black) => quiet_with(pos, &mut walked, [SW, SE], DIRECTIONS),
            }
            seen += walked.len();
            assert_eq!(fast, walked, "{}", pos.to_fen());
        });
        assert!(seen > 10_000, "{seen} moves compared");
    }

    /// Perft's count of the moves is the number of moves listed, on every
    /// variant (the 64-square board's counted from its list).
    #[test]
    fn moves_counted_are_the_moves_listed() {
        let mut quiet = 0;
        random_positions(300, |pos| {
            let listed = legal_moves(pos);
            quiet += usize::from(listed.iter().all(|m| !m.is_capture()));
            assert_eq!(count_moves(pos), listed.len() as u64, "{}", pos.to_fen());
        });
        assert!(quiet > 1_000, "{quiet} positions without a capture");
    }
}
