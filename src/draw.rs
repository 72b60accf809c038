//! Draw rules as data (docs/rules.md and 4): the counters each rule set
//! keeps, updated once per ply, and the order in which draws are reported.

use crate::board::{Bitboard, Square, MAX_SQUARES};
use crate::piece::{Color, Kind};
use crate::position::{splitmix, Position};
use crate::rules::Move;
use crate::variant::Variant;

pub use crate::variant::DrawRules;

impl DrawRules {
    /// `cbjd` or `fmjd`.
    pub const fn name(self) -> &'static str {
        match self {
            DrawRules::Cbjd => "cbjd",
            DrawRules::Fmjd => "fmjd",
            DrawRules::None => "none",
            DrawRules::Frisian => "frisian",
        }
    }
    /// The rules that apply to a game of `v` when `asked` were asked for:
    /// the variant's own where it has only those (english, czech and italian
    /// none, frisian its own), otherwise the request, or the default.
    pub const fn for_variant(v: Variant, asked: Option<DrawRules>) -> DrawRules {
        match (v.row().draws_fixed, asked) {
            (false, Some(r)) => r,
            _ => v.row().draws,
        }
    }
    /// The default for a variant (its row of the table): cbjd for
    /// brazilian, none for english, czech and italian, frisian's own for
    /// frisian and frysk, fmjd otherwise.
    pub const fn default_for(v: Variant) -> DrawRules {
        v.row().draws
    }
}

impl std::str::FromStr for DrawRules {
    type Err = crate::diag::UnknownName;
    fn from_str(s: &str) -> Result<DrawRules, crate::diag::UnknownName> {
        match s {
            "cbjd" => Ok(DrawRules::Cbjd),
            "fmjd" => Ok(DrawRules::Fmjd),
            "none" => Ok(DrawRules::None),
            "frisian" => Ok(DrawRules::Frisian),
            _ => Err(crate::diag::UnknownName::new(
                "draw rules",
                s,
                " (cbjd, fmjd, none, frisian)".into(),
            )),
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Termination {
    /// The side to move had no legal move.
    NoMoves,
    /// Draw by repetition.
    Repetition,
    /// Draw by an ending rule.
    Ending,
    /// Draw by kings only moving.
    KingMoves,
    /// Breakthrough: a king on the board won the game for its owner (RULES.md 13).
    Breakthrough,
    /// The record stops before the game ends.
    Unfinished,
}

impl Termination {
    /// Every termination, in the order of their indices in `stats`' records.
    pub(crate) const ALL: [Termination; 6] = [
        Termination::NoMoves,
        Termination::Repetition,
        Termination::Ending,
        Termination::KingMoves,
        Termination::Breakthrough,
        Termination::Unfinished,
    ];
    /// As in docs/json.md.
    pub const fn name(self) -> &'static str {
        match self {
            Termination::NoMoves => "no-moves",
            Termination::Repetition => "repetition",
            Termination::Ending => "ending",
            Termination::KingMoves => "king-moves",
            Termination::Breakthrough => "breakthrough",
            Termination::Unfinished => "unfinished",
        }
    }
}

/// The rule that ended a game (docs/rules.md): its name in the JSON
/// records is [`Clause::as_str`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Clause {
    /// The side to move has no legal move (it loses).
    NoMoves,
    /// The same position a third time with the same side to move.
    Repetition,
    /// Only kings moved, without capture, for the rule set's limit.
    KingMoves,
    /// CBJD: the endings of three kings or fewer against one.
    EndingCbjd,
    /// FMJD article 6: 16 moves in the endings listed there.
    Ending16,
    /// FMJD article 6: 5 moves in the endings listed there.
    Ending5,
    /// FMJD-64 7.2.4: a lone king against three or more kings.
    Fmjd64_7_2_4,
    /// FMJD-64 7.2.5: kings only moved, 15 moves each.
    Fmjd64_7_2_5,
    /// FMJD-64 7.2.6: both sides with kings, 4 to 7 pieces.
    Fmjd64_7_2_6,
    /// FMJD-64 7.2.7: a lone king on the long diagonal against three pieces.
    Fmjd64_7_2_7,
    /// FMJD-64 7.2.8: a lone king against a king, two kings, or a king and a man.
    Fmjd64_7_2_8,
    /// Frisian: two kings against one king, 14 plies (DFS 15).
    Kings2v1,
    /// Frisian: one king against one king, 4 plies (DFS 16).
    Kings1v1,
    /// Breakthrough: the first king wins (RULES.md 13).
    Breakthrough,
}

impl Clause {
    /// Its name: `no-moves`, `repetition`, `king-moves`, `ending-cbjd`,
    /// `ending-16`, `ending-5`, `7.2.4` ... `7.2.8`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Clause::NoMoves => "no-moves",
            Clause::Repetition => "repetition",
            Clause::KingMoves => "king-moves",
            Clause::EndingCbjd => "ending-cbjd",
            Clause::Ending16 => "ending-16",
            Clause::Ending5 => "ending-5",
            Clause::Fmjd64_7_2_4 => "7.2.4",
            Clause::Fmjd64_7_2_5 => "7.2.5",
            Clause::Fmjd64_7_2_6 => "7.2.6",
            Clause::Fmjd64_7_2_7 => "7.2.7",
            Clause::Fmjd64_7_2_8 => "7.2.8",
            Clause::Kings2v1 => "kings-2v1",
            Clause::Kings1v1 => "kings-1v1",
            Clause::Breakthrough => "breakthrough",
        }
    }
}

impl std::fmt::Display for Clause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Clause {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// A draw by rule: its termination and the clause that fired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Draw {
    /// How the game ends.
    pub termination: Termination,
    /// The rule that fired.
    pub clause: Clause,
}

/// An ending class of CBJD or FMJD article 6 with its count limit in plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Class {
    clause: Clause,
    limit: u32,
}

const CBJD_ENDING: Class = Class {
    clause: Clause::EndingCbjd,
    limit: 10,
};
const FMJD_16: Class = Class {
    clause: Clause::Ending16,
    limit: 32,
};
const FMJD_5: Class = Class {
    clause: Clause::Ending5,
    limit: 10,
};
const FRISIAN_2V1: Class = Class {
    clause: Clause::Kings2v1,
    limit: 14,
};
const FRISIAN_1V1: Class = Class {
    clause: Clause::Kings1v1,
    limit: 4,
};

/// The rule set in force: limits and which ending rules apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Set {
    Cbjd,
    Fmjd6,
    Fmjd64,
    /// Frisian's endings, no repetition, no king-move count.
    Frisian,
    /// No draw by rule.
    None,
}

impl Set {
    fn king_move_limit(self) -> u32 {
        match self {
            Set::Cbjd => 40,
            Set::Fmjd6 => 50,
            Set::Fmjd64 => 30,
            Set::Frisian | Set::None => u32::MAX,
        }
    }
}

/// (men, kings) of each side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Material {
    white: (u32, u32),
    black: (u32, u32),
}

impl Material {
    fn of(p: &Position) -> Material {
        Material {
            white: p.material(Color::White),
            black: p.material(Color::Black),
        }
    }
    fn side(&self, c: Color) -> (u32, u32) {
        match c {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }
    fn total(&self) -> u32 {
        self.white.0 + self.white.1 + self.black.0 + self.black.1
    }
    /// The side whose only piece is one king, if exactly one side is like that
    /// (both: `Some` of White with `both` set).
    fn lone_king(&self) -> Option<(Color, bool)> {
        let w = self.white == (0, 1);
        let b = self.black == (0, 1);
        match (w, b) {
            (true, true) => Some((Color::White, true)),
            (true, false) => Some((Color::White, false)),
            (false, true) => Some((Color::Black, false)),
            _ => None,
        }
    }
}

fn class_of(set: Set, m: &Material) -> Option<Class> {
    match set {
        Set::Cbjd => {
            // Kings only, except at most one man on the side with fewer kings.
            let pairs = [(m.white, m.black), (m.black, m.white)];
            let hit = pairs.iter().any(|&(a, b)| {
                matches!(
                    (a, b),
                    ((0, 2), (0, 2))
                        | ((0, 2), (0, 1))
                        | ((0, 2), (1, 1))
                        | ((0, 1), (0, 1))
                        | ((0, 1), (1, 1))
                )
            });
            hit.then_some(CBJD_ENDING)
        }
        Set::Fmjd6 => {
            let (lone, _) = m.lone_king()?;
            let strong = m.side(lone.other());
            match strong {
                (0, 3) | (1, 2) | (2, 1) => Some(FMJD_16),
                (0, 2) | (1, 1) | (0, 1) => Some(FMJD_5),
                _ => None,
            }
        }
        Set::Frisian => match (m.white, m.black) {
            ((0, 2), (0, 1)) | ((0, 1), (0, 2)) => Some(FRISIAN_2V1),
            ((0, 1), (0, 1)) => Some(FRISIAN_1V1),
            _ => None,
        },
        Set::Fmjd64 | Set::None => None,
    }
}

/// Zobrist keys: one per (square, piece) and one for Black to move (from the
/// one SplitMix): the repetition list is updated by the move alone, without
/// the position after it.
const fn zobrist_table() -> [[u64; 4]; MAX_SQUARES] {
    let mut t = [[0u64; 4]; MAX_SQUARES];
    let mut i = 0;
    while i < MAX_SQUARES {
        let mut k = 0;
        while k < 4 {
            t[i][k] = splitmix((i * 4 + k) as u64 + 1);
            k += 1;
        }
        i += 1;
    }
    t
}

static ZOBRIST: [[u64; 4]; MAX_SQUARES] = zobrist_table();
const BLACK_TO_MOVE: u64 = splitmix(0xD1CE);

fn piece_index(c: Color, k: Kind) -> usize {
    match (c, k) {
        (Color::White, Kind::Man) => 0,
        (Color::White, Kind::King) => 1,
        (Color::Black, Kind::Man) => 2,
        (Color::Black, Kind::King) => 3,
    }
}

/// The Zobrist hash of a position, from scratch.
pub(crate) fn hash(p: &Position) -> u64 {
    let mut h = if p.side() == Color::Black {
        BLACK_TO_MOVE
    } else {
        0
    };
    for c in [Color::White, Color::Black] {
        for sq in p.pieces(c).squares() {
            let k = if p.kings().has(sq) {
                Kind::King
            } else {
                Kind::Man
            };
            h ^= ZOBRIST[sq.index()][piece_index(c, k)];
        }
    }
    h
}

/// The hash after `m` is played in `before`, updated incrementally.
pub(crate) fn hash_after(h: u64, before: &Position, m: &Move) -> u64 {
    let side = before.side();
    let mut h = h ^ BLACK_TO_MOVE;
    h ^= ZOBRIST[m.from.index()][piece_index(side, m.kind)];
    let kind_after = if m.crowns { Kind::King } else { m.kind };
    h ^= ZOBRIST[m.to.index()][piece_index(side, kind_after)];
    let enemy = side.other();
    let kings: Bitboard = before.kings();
    for sq in m.captured.squares() {
        let k = if kings.has(sq) { Kind::King } else { Kind::Man };
        h ^= ZOBRIST[sq.index()][piece_index(enemy, k)];
    }
    h
}

/// The state of every draw rule along a game.
#[derive(Clone, Debug)]
pub struct DrawState {
    set: Set,
    /// Hashes of the positions since the last irreversible ply (a man move or a
    /// capture), the only ones that can recur; at most the king-move limit long.
    /// Empty until a reversible ply is played after the start or after the last
    /// irreversible ply; then its last entry is the hash of the position now.
    seen: Vec<u64>,
    king_moves: u32,
    ending: Option<(Class, u32)>,
    /// Plies since the last material change (capture or crowning), per side and in all.
    since_change: [u32; 2],
    since_change_total: u32,
    /// FMJD-64 7.2.7: strong side's plies in the current stretch.
    stretch_727: Option<u32>,
    /// FMJD-64 7.2.8: (plies by each side, plies in all) since the material arose.
    since_728: Option<([u32; 2], u32)>,
    /// Pieces on the board, counted again only after a capture (no other ply
    /// changes it).
    pieces: u32,
}

fn ci(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// The long diagonal a1-h8 on 8x8 (29, 25, 22, 18, 15, 11, 8, 4).
fn long_diagonal() -> Bitboard {
    [29u8, 25, 22, 18, 15, 11, 8, 4]
        .iter()
        .fold(Bitboard::EMPTY, |b, &n| b.with(Square::from_index(n - 1)))
}

impl DrawState {
    /// The state at the start position `start`.
    pub fn new(variant: Variant, rules: DrawRules, start: &Position) -> DrawState {
        let set = match (rules, variant) {
            (_, Variant::Frisian | Variant::Frysk) | (DrawRules::Frisian, _) => Set::Frisian,
            (DrawRules::None, _) => Set::None,
            (DrawRules::Cbjd, _) => Set::Cbjd,
            (DrawRules::Fmjd, v) if v.board().n() == 8 => Set::Fmjd64,
            (DrawRules::Fmjd, _) => Set::Fmjd6,
        };
        let material = Material::of(start);
        let mut s = DrawState {
            set,
            seen: Vec::new(),
            king_moves: 0,
            ending: class_of(set, &material).map(|c| (c, 0)),
            since_change: [0, 0],
            since_change_total: 0,
            stretch_727: None,
            since_728: None,
            pieces: start.occupied().count(),
        };
        if set == Set::Fmjd64 {
            s.update_64(start, &material, None);
        }
        s
    }

    /// Records the ply `m` played in `before` giving `after`; returns a draw if one holds now.
    #[inline]
    pub fn play(&mut self, before: &Position, m: &Move, after: &Position) -> Option<Draw> {
        if self.set == Set::None {
            return None;
        }
        // Most plies: a man's plain move with more than four pieces on the
        // board, outside FMJD-64. It ends the repetition list and the king
        // moves, and no ending applies: what the general steps below give.
        // Inlined into the replay, without the rest's frame (issue 65).
        if m.kind == Kind::Man && !m.is_capture() && self.pieces > 4 && self.set != Set::Fmjd64 {
            self.seen.clear();
            self.king_moves = 0;
            self.ending = None;
            return None;
        }
        self.play_other(before, m, after)
    }

    /// [`DrawState::play`] for the plies that can change a count: a
    /// capture, a king's move, few pieces, FMJD-64.
    #[inline(never)]
    fn play_other(&mut self, before: &Position, m: &Move, after: &Position) -> Option<Draw> {
        let irreversible = m.is_capture() || m.kind == Kind::Man;
        let repetition = if irreversible || self.set == Set::Frisian {
            // No position before an irreversible ply can recur: the list
            // starts again, from the position after it, hashed only when a
            // reversible ply follows (most plies are men's moves).
            self.seen.clear();
            false
        } else {
            let h = match self.seen.last() {
                Some(&h) => h,
                None => {
                    let h = hash(before);
                    self.seen.push(h);
                    h
                }
            };
            let h = hash_after(h, before, m);
            self.seen.push(h);
            self.seen.iter().filter(|&&x| x == h).count() >= 3
        };
        if m.kind == Kind::King && !m.is_capture() {
            self.king_moves += 1;
        } else {
            self.king_moves = 0;
        }
        let king_moves = self.king_moves >= self.set.king_move_limit();
        let mover = before.side();
        let rep = Draw {
            termination: Termination::Repetition,
            clause: Clause::Repetition,
        };
        let km = Draw {
            termination: Termination::KingMoves,
            clause: Clause::KingMoves,
        };
        if m.is_capture() {
            self.pieces = after.occupied().count();
        }
        if self.set == Set::Fmjd64 {
            let material = Material::of(after);
            let ending =
                self.update_64(after, &material, Some((mover, m.is_capture() || m.crowns)));
            return if repetition {
                Some(rep)
            } else if king_moves {
                Some(Draw {
                    termination: Termination::KingMoves,
                    clause: Clause::Fmjd64_7_2_5,
                })
            } else {
                ending.map(|clause| Draw {
                    termination: Termination::Ending,
                    clause,
                })
            };
        }
        // Every CBJD and FMJD article-6 ending has at most 4 pieces on the board.
        let class = if self.pieces > 4 {
            None
        } else {
            class_of(self.set, &Material::of(after))
        };
        self.ending = match (class, self.ending) {
            (None, _) => None,
            (Some(c), Some((old, n))) if old == c => Some((c, n + 1)),
            (Some(c), _) => Some((c, 0)),
        };
        let ending = self
            .ending
            .filter(|(c, n)| *n >= c.limit)
            .map(|(c, _)| c.clause);
        if repetition {
            Some(rep)
        } else if let Some(clause) = ending {
            Some(Draw {
                termination: Termination::Ending,
                clause,
            })
        } else if king_moves {
            Some(km)
        } else {
            None
        }
    }

    /// FMJD-64 endings (7.2.4, 7.2.6, 7.2.7, 7.2.8, in that order). `ply` is
    /// (mover, material changed) for a ply, `None` at the start position.
    /// FMJD-64: counts the ply (its mover, and whether material changed) and
    /// returns the first of 7.2.4, 7.2.6, 7.2.7, 7.2.8 that now holds.
    fn update_64(
        &mut self,
        p: &Position,
        m: &Material,
        ply: Option<(Color, bool)>,
    ) -> Option<Clause> {
        if let Some((mover, changed)) = ply {
            if changed {
                self.since_change = [0, 0];
                self.since_change_total = 0;
            } else {
                self.since_change[ci(mover)] += 1;
                self.since_change_total += 1;
            }
        }
        let lone = m.lone_king();
        // Every counter is brought up to date before the first that holds is taken.
        let r724 = self.rule_724(m, lone);
        let r726 = self.rule_726(m);
        let r727 = self.rule_727(p, m, lone, ply);
        let r728 = self.rule_728(m, lone, ply);
        r724.or(r726).or(r727).or(r728)
    }

    /// 7.2.4: a lone king against 3 or more pieces, all kings, 15 moves of the strong side.
    fn rule_724(&self, m: &Material, lone: Option<(Color, bool)>) -> Option<Clause> {
        let (l, false) = lone? else {
            return None;
        };
        let s = m.side(l.other());
        (s.0 == 0 && s.1 >= 3 && self.since_change[ci(l.other())] >= 15)
            .then_some(Clause::Fmjd64_7_2_4)
    }

    /// 7.2.6: both sides have a king; 4-5 pieces: 60 plies, 6-7: 120 plies.
    fn rule_726(&self, m: &Material) -> Option<Clause> {
        if m.white.1 == 0 || m.black.1 == 0 {
            return None;
        }
        let limit = match m.total() {
            4 | 5 => 60,
            6 | 7 => 120,
            _ => return None,
        };
        (self.since_change_total >= limit).then_some(Clause::Fmjd64_7_2_6)
    }

    /// 7.2.7: a lone king alone on the long diagonal against exactly 3 pieces,
    /// one a king at least: 5 moves of the strong side in the stretch.
    fn rule_727(
        &mut self,
        p: &Position,
        m: &Material,
        lone: Option<(Color, bool)>,
        ply: Option<(Color, bool)>,
    ) -> Option<Clause> {
        let holds = match lone {
            Some((l, false)) => {
                let s = m.side(l.other());
                let diag = long_diagonal();
                let king_sq = p.pieces(l);
                s.0 + s.1 == 3
                    && s.1 >= 1
                    && (king_sq & diag) == king_sq
                    && (p.occupied() & diag).count() == 1
            }
            _ => false,
        };
        self.stretch_727 = match (holds, self.stretch_727, ply) {
            (false, _, _) => None,
            (true, None, _) => Some(0),
            (true, Some(n), Some((mover, _))) => {
                let strong = lone.map(|(l, _)| l.other());
                Some(if Some(mover) == strong { n + 1 } else { n })
            }
            (true, Some(n), None) => Some(n),
        };
        self.stretch_727
            .is_some_and(|n| n >= 5)
            .then_some(Clause::Fmjd64_7_2_7)
    }

    /// 7.2.8: a lone king against K, 2K or K+M (or king against king): 5
    /// moves of the strong side (10 plies for king against king).
    fn rule_728(
        &mut self,
        m: &Material,
        lone: Option<(Color, bool)>,
        ply: Option<(Color, bool)>,
    ) -> Option<Clause> {
        let holds = match lone {
            Some((_, true)) => true,
            Some((l, false)) => matches!(m.side(l.other()), (0, 2) | (1, 1)),
            None => false,
        };
        self.since_728 = match (holds, self.since_728, ply) {
            (false, _, _) => None,
            (true, None, _) => Some(([0, 0], 0)),
            (true, Some((mut by, total)), Some((mover, _))) => {
                by[ci(mover)] += 1;
                Some((by, total + 1))
            }
            (true, s, None) => s,
        };
        let ((by, total), (l, both)) = (self.since_728?, lone?);
        let done = if both {
            total >= 10
        } else {
            by[ci(l.other())] >= 5
        };
        done.then_some(Clause::Fmjd64_7_2_8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{legal_moves, play_unchecked};

    #[test]
    fn endings_of_cbjd_and_article_6_have_at_most_four_pieces() {
        // `play` skips the class lookup above four pieces; no class may hold there.
        for wm in 0..=12 {
            for wk in 0..=12 {
                for bm in 0..=12 {
                    for bk in 0..=12 {
                        let m = Material {
                            white: (wm, wk),
                            black: (bm, bk),
                        };
                        for set in [Set::Cbjd, Set::Fmjd6] {
                            if class_of(set, &m).is_some() {
                                assert!(m.total() <= 4, "{set:?} {m:?}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn incremental_hash_matches_scratch() {
        let mut p =
            Position::from_fen("W:W18,K30,22:B11,K3,14", crate::variant::Variant::Brazilian)
                .unwrap();
        let mut h = hash(&p);
        for _ in 0..20 {
            let Some(m) = legal_moves(&p).first().copied() else {
                break;
            };
            h = hash_after(h, &p, &m);
            p = play_unchecked(&p, &m);
            assert_eq!(h, hash(&p));
        }
    }

    #[test]
    fn kings_shuffling_repeat_three_times() {
        let e = crate::variant::Variant::Brazilian;
        let start = Position::from_fen("W:WK29:BK3", e).unwrap();
        let mut s = DrawState::new(Variant::Brazilian, DrawRules::Cbjd, &start);
        let mut p = start;
        let seq = [
            (29, 25),
            (3, 7),
            (25, 29),
            (7, 3),
            (29, 25),
            (3, 7),
            (25, 29),
            (7, 3),
        ];
        let mut draws = Vec::new();
        for (i, (f, t)) in seq.iter().enumerate() {
            let m = legal_moves(&p)
                .into_iter()
                .find(|m| m.from.number() == *f && m.to.number() == *t)
                .unwrap();
            let after = play_unchecked(&p, &m);
            if let Some(d) = s.play(&p, &m, &after) {
                draws.push((i + 1, d.termination));
            }
            p = after;
        }
        assert_eq!(draws.first(), Some(&(8, Termination::Repetition)));
    }

    #[test]
    fn ending_classes() {
        let e = crate::variant::Variant::International;
        let m = |f: &str| Material::of(&Position::from_fen(f, e).unwrap());
        assert_eq!(
            class_of(Set::Fmjd6, &m("W:WK1:BK10,K20,K30")),
            Some(FMJD_16)
        );
        assert_eq!(class_of(Set::Fmjd6, &m("W:WK1:BK10,25")), Some(FMJD_5));
        assert_eq!(class_of(Set::Fmjd6, &m("W:WK1:BK10,K20,K30,K40")), None);
        assert_eq!(
            class_of(Set::Cbjd, &m("W:WK1,K2:B25,K30")),
            Some(CBJD_ENDING)
        );
        assert_eq!(class_of(Set::Cbjd, &m("W:WK1,12:B25,K30")), None);
    }
}
