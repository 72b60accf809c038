//! Legal moves of every implemented variant, read from the variant's
//! [`Rules`](crate::variant::Rules) (docs/rules.md): which way men capture,
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

mod generate;
mod legality;
mod methods;
mod moves;
mod orthogonal;
mod search;

pub(crate) use generate::{
    capturers, captures_between, generate, has_plain_move, legal_moves, plain_move,
};
pub(crate) use legality::{
    capture_paths, landing_path, max_capture, partial_capture_paths, precedence_refusal,
    relaxed_moves,
};
pub use legality::{IllegalMove, Refusal};
pub use moves::Move;
pub(crate) use moves::{play_unchecked, MoveList, Path};
pub(crate) use search::capture_value;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardSize;
    use crate::board::Square;
    use crate::Kind;
    use crate::Position;
    use crate::Variant;

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
    use crate::board::Square;
    use crate::board::{Bitboard, BoardSize};
    use crate::position::Position;
    use crate::rules::legality::why_illegal;
    use crate::variant::Variant;
    use crate::Kind;

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

    use crate::board::Bitboard;
    use crate::position::Position;
    use crate::variant::Variant;
    use crate::Color;

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
    use crate::board::Bitboard;
    use crate::board::{Direction, NE, NW, SE, SW};
    use crate::position::Position;
    use crate::rules::generate::{captures, men_that_can_jump};
    use crate::rules::moves::{rule_class, FAMILY, ITALIAN, OTHER};
    use crate::variant::Variant;
    use crate::Color;

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
    use crate::board::{Bitboard, Square};
    use crate::position::Position;
    use crate::rules::legality::why_illegal;
    use crate::rules::methods::perft;
    use crate::rules::moves::{class_of, rule_class};
    use crate::variant::Variant;
    use crate::Kind;

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
    use crate::board::{Bitboard, Square};
    use crate::rules::legality::{play, why_illegal};
    use crate::Color;
    use crate::Kind;
    use crate::Position;
    use crate::Variant;

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
