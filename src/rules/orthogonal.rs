//! Turkish draughts' moves on the 64-square board (RULES.md 12): men step
//! and capture forward or sideways, kings fly along ranks and files, and a
//! captured piece leaves the board as it is jumped, so a freed square may be
//! crossed or landed on again and a removal may open a further capture. No
//! piece turns 180 degrees between two captures. The capture search is the
//! one of [`Search`], with these walks in place of the diagonal ones; what
//! ranks the captures (their number) and dedups them by (from, to, captured)
//! is shared.

use crate::board::{opposite, Bitboard, Direction, Square, ORTHOGONAL};
use crate::rules::search::{ortho_man_dirs as man_dirs, Search, Sink, MAX_PATH};

impl<S: Sink, const R: u8> Search<'_, S, R> {
    /// A man's captures from `sq`, the pieces `captured` gone from the
    /// board, `came` the direction of its last jump. A man that reaches the
    /// last rank goes on as a man (crowned only where the move ends).
    pub(super) fn ortho_man(
        &mut self,
        sq: Square,
        captured: Bitboard,
        depth: usize,
        came: Option<Direction>,
    ) {
        if self.sink.partial() && depth > 0 {
            self.sink
                .record(captured, depth as u32, &self.path[..=depth]);
        }
        let occ = self.b.occ & !captured;
        let prey = self.b.enemy & !captured;
        let mut extended = false;
        if depth + 1 < MAX_PATH {
            for &d in man_dirs(self.b.side) {
                if came == Some(opposite(d)) {
                    continue;
                }
                let Some(over) = self.b.g.step(sq, d).filter(|o| prey.has(*o)) else {
                    continue;
                };
                let Some(land) = self.b.g.step(over, d).filter(|l| !occ.has(*l)) else {
                    continue;
                };
                extended = true;
                self.path[depth + 1] = land;
                self.ortho_man(land, captured.with(over), depth + 1, Some(d));
            }
        }
        if !extended && depth > 0 {
            self.sink
                .record(captured, depth as u32, &self.path[..=depth]);
        }
    }

    /// A king's captures from `sq`: the first piece along a rank or file,
    /// if an enemy with empty squares behind it, then every landing square.
    pub(super) fn ortho_king(
        &mut self,
        sq: Square,
        captured: Bitboard,
        depth: usize,
        came: Option<Direction>,
    ) {
        if self.sink.partial() && depth > 0 {
            self.sink
                .record(captured, depth as u32, &self.path[..=depth]);
        }
        let occ = self.b.occ & !captured;
        let mut extended = false;
        if depth + 1 < MAX_PATH {
            for d in ORTHOGONAL {
                if came == Some(opposite(d)) {
                    continue;
                }
                let mut t = self.b.g.step(sq, d);
                while let Some(s) = t.filter(|s| !occ.has(*s)) {
                    t = self.b.g.step(s, d);
                }
                let Some(over) = t.filter(|o| self.b.enemy.has(*o)) else {
                    continue;
                };
                let taken = captured.with(over);
                let mut l = self.b.g.step(over, d);
                while let Some(land) = l.filter(|l| !occ.has(*l)) {
                    extended = true;
                    self.path[depth + 1] = land;
                    self.ortho_king(land, taken, depth + 1, Some(d));
                    l = self.b.g.step(land, d);
                }
            }
        }
        if !extended && depth > 0 {
            self.sink
                .record(captured, depth as u32, &self.path[..=depth]);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::board::BoardSize;
    use crate::position::Position;
    use crate::rules::legal_moves;
    use crate::Variant;

    /// The legal moves as (from, to, captured) by square name, sorted.
    fn moves(fen: &str) -> Vec<(String, String, Vec<String>)> {
        let p = Position::from_fen(fen, Variant::Turkish).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let b = BoardSize::Full;
        let mut v: Vec<_> = legal_moves(&p)
            .iter()
            .map(|m| {
                let mut c: Vec<String> = m.captured.squares().map(|s| b.algebraic(s)).collect();
                c.sort();
                (b.algebraic(m.from), b.algebraic(m.to), c)
            })
            .collect();
        v.sort();
        v
    }
    fn ends(fen: &str) -> Vec<String> {
        moves(fen)
            .into_iter()
            .map(|(f, t, _)| format!("{f}-{t}"))
            .collect()
    }

    #[test]
    fn men_step_and_capture_forward_and_sideways_only() {
        // Forward and sideways, never backward or diagonally.
        assert_eq!(ends("W:Wd4:Bh8"), ["d4-c4", "d4-d5", "d4-e4"]);
        assert_eq!(ends("B:Wh1:Bd5"), ["d5-c5", "d5-d4", "d5-e5"]);
        // A sideways capture; the piece behind is not taken (no backward capture).
        assert_eq!(
            moves("W:Wd4:Be4,d3,h8"),
            [("d4".into(), "f4".into(), vec!["e4".into()])]
        );
        // A diagonal neighbour is not taken.
        assert_eq!(ends("W:Wd4:Be5,h8"), ["d4-c4", "d4-d5", "d4-e4"]);
    }

    #[test]
    fn kings_fly_along_ranks_and_files_and_never_turn_back() {
        // A capture at a distance along a rank, landing anywhere behind.
        assert_eq!(
            moves("W:WKa4:Bf4,h8"),
            [
                ("a4".into(), "g4".into(), vec!["f4".into()]),
                ("a4".into(), "h4".into(), vec!["f4".into()])
            ]
        );
        // A plain move never passes over a piece.
        let plain = ends("W:WKa1,a3:Bh8");
        assert!(plain.contains(&"a1-a2".to_string()) && !plain.contains(&"a1-a4".to_string()));
        // After taking d4 going up (landing d5 or d6), a king may turn 90
        // degrees to take f6 from d6, but never come back down to take d2.
        let m = moves("W:WKd3:Bd4,f6,h8");
        assert!(m.iter().all(|(_, _, c)| !c.contains(&"d2".to_string())));
        assert_eq!(m.iter().map(|x| x.2.len()).max(), Some(2), "{m:?}");
        assert!(m
            .iter()
            .any(|(_, _, c)| c == &["d4".to_string(), "f6".to_string()]));
        // The 180-degree turn: from e1 up over e3 to e4, then back down over
        // e2 would be a turn back; d2 stays, the capture takes one.
        assert_eq!(
            moves("W:WKe4:Be6,e2,a8").iter().map(|x| x.2.len()).max(),
            Some(1)
        );
    }

    #[test]
    fn captured_pieces_leave_one_at_a_time() {
        // Taking c4 frees it: the man then takes b5 ... and a square freed
        // earlier is crossed again by the king: a1 up over a3 to a4, right
        // over c4 to d4, down over d2 to d1, left along rank 1 crosses
        // nothing taken twice; with removal the king may land on a freed square.
        let m = moves("W:WKa1:Ba3,c4,d2,h8");
        assert_eq!(m.iter().map(|x| x.2.len()).max(), Some(3), "{m:?}");
        // A removal opens a capture: after d4xd6 takes d5, c6 is taken from
        // d6 sideways, landing on b6, and b7 from b6 up to b8.
        assert_eq!(
            moves("W:Wd4,Ke1:Bd5,c6,b7"),
            [(
                "d4".into(),
                "b8".into(),
                vec!["b7".into(), "c6".into(), "d5".into()]
            )]
        );
        // A king returning over a square it freed: a loop taken either way is
        // one move (from, to, captured).
        let loop_moves = moves("W:WKb2:Bb4,d6,f4,d2,h8");
        let mut seen = loop_moves.clone();
        seen.dedup();
        assert_eq!(seen.len(), loop_moves.len());
    }

    #[test]
    fn the_greatest_number_and_crowning_where_the_move_ends() {
        // A king counts one: two men outnumber one king.
        assert_eq!(
            moves("W:Wa4,h3:BKb4,h4,h6,Ka8"),
            [("h3".into(), "h7".into(), vec!["h4".into(), "h6".into()])]
        );
        // A man reaching rank 8 mid-capture goes on sideways as a man and is
        // crowned where the move ends.
        let p = Position::from_fen("W:Wc6:Bc7,d8,Ka1", Variant::Turkish).unwrap();
        let ms = legal_moves(&p);
        assert_eq!(ms.len(), 1);
        assert_eq!(
            (BoardSize::Full.algebraic(ms[0].to), ms[0].crowns),
            ("e8".to_string(), true)
        );
    }
}
