//! The rules at the front door: [`Position`]'s legal moves, play and perft.

use crate::board::Square;
use crate::position::Position;

use crate::rules::generate::{count_moves, generate, legal_moves};
use crate::rules::legality::{
    is_legal, landing_path, max_capture, partial_capture_paths, play, why_illegal, IllegalMove,
    Refusal,
};
use crate::rules::moves::{play_unchecked, Move, MoveList, Path};

/// Number of leaves of the legal move tree `depth` plies deep.
pub(crate) fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return count_moves(pos);
    }
    let mut moves = MoveList::new();
    generate(pos, &mut moves);
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
