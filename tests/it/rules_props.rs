//! Property tests: `is_legal` agrees with `legal_moves` on random positions.
use pdnkit::board::{Bitboard, Square};
use pdnkit::piece::{Color, Kind, Piece};
use pdnkit::position::{Position, Setup};
use pdnkit::rules::Move;
use pdnkit::variant::Variant;
use proptest::prelude::*;

fn arb_position() -> impl Strategy<Value = Position> {
    (
        0usize..5,
        any::<bool>(),
        proptest::collection::vec((0u8..72, 0u8..4), 0..40),
    )
        .prop_map(|(s, white, pieces)| {
            let variant = Variant::ALL[s];
            let size = variant.board();
            let mut p = Setup::new(if white { Color::White } else { Color::Black });
            let mut used = Bitboard::EMPTY;
            for (i, k) in pieces {
                let sq = Square::from_index(i % size.squares());
                if used.has(sq) {
                    continue;
                }
                used = used.with(sq);
                let color = if k & 1 == 0 {
                    Color::White
                } else {
                    Color::Black
                };
                let row = variant.crown_row(color);
                let kind = if k & 2 != 0 || row.has(sq) {
                    Kind::King
                } else {
                    Kind::Man
                };
                p.put(sq, Piece { color, kind });
            }
            p.into_position(variant)
                .expect("a square once, no man on its crowning row")
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn is_legal_agrees_with_legal_moves(p in arb_position(), seeds in proptest::collection::vec(any::<u64>(), 8)) {
        let moves = p.legal_moves();
        for m in &moves {
            prop_assert!(p.is_legal(m), "legal move rejected: {:?} in {}", m, p.to_fen());
            // Playing it keeps the piece counts consistent.
            let after = p.play_unchecked(m);
            let (we, be) = (p.pieces(p.side()).count(), p.pieces(p.side().other()).count());
            prop_assert_eq!(after.pieces(p.side()).count(), we);
            prop_assert_eq!(after.pieces(p.side().other()).count(), be - m.capture_count());
        }
        if let Some(mx) = moves.iter().map(Move::capture_count).max() {
            prop_assert_eq!(mx, p.max_capture());
        }
        // Candidate moves made up from the seeds and from mutations of legal moves.
        let n = u64::from(p.size().squares());
        let enemy = p.pieces(p.side().other());
        let mut candidates: Vec<Move> = Vec::new();
        for (i, s) in seeds.iter().enumerate() {
            let from = Square::from_index((s % n) as u8);
            let to = Square::from_index(((s >> 8) % n) as u8);
            let captured = Bitboard::from_bits(enemy.bits() & u128::from(s >> 16).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let kind = if p.kings().has(from) { Kind::King } else { Kind::Man };
            let crows = p.variant().crown_row(p.side());
            let crowns = kind == Kind::Man && crows.has(to);
            candidates.push(Move::new(from, to, if i % 2 == 0 { Bitboard::EMPTY } else { captured }, kind, crowns));
            if let Some(m) = moves.get(i) {
                let crowns = m.kind() == Kind::Man && crows.has(to);
                candidates.push(Move::new(m.from(), to, m.captured(), m.kind(), crowns));
                if let Some(c) = m.captured().squares().next() {
                    candidates.push(Move::new(m.from(), m.to(), m.captured().without(c), m.kind(), m.crowns()));
                }
            }
        }
        for c in candidates {
            prop_assert_eq!(p.is_legal(&c), moves.contains(&c), "move {:?} in {}", c, p.to_fen());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// `play` says why it refuses a move made from a legal one.
    #[test]
    fn refusals_say_why(p in arb_position()) {
        use pdnkit::rules::Refusal;
        let moves = p.legal_moves();
        let max = moves.iter().map(Move::capture_count).max().unwrap_or(0);
        let maximum_rule = !matches!(p.variant(), Variant::Russian | Variant::English);
        for m in &moves {
            prop_assert_eq!(p.why_illegal(m), None);
            // Moved by the other side: no piece of the side to move there.
            let other = Move::new(m.from(), m.to(), m.captured(), m.kind(), m.crowns());
            let mut flipped = p.to_setup();
            flipped.set_side(p.side().other());
            if let Ok(q) = flipped.into_position(p.variant()) {
                prop_assert_eq!(q.why_illegal(&other), Some(Refusal::NoPieceToMove));
            }
            if m.is_capture() {
                // The same steps without the capture: a capture is compulsory.
                let plain = Move::new(m.from(), m.to(), Bitboard::EMPTY, m.kind(), m.crowns());
                prop_assert_eq!(p.why_illegal(&plain), Some(Refusal::MissedCapture { max }));
                // One piece fewer taken, where the rules want the most.
                if maximum_rule && m.capture_count() >= 2 {
                    let c = m.captured().squares().next().expect("a capture takes a piece");
                    let fewer = Move::new(m.from(), m.to(), m.captured().without(c), m.kind(), m.crowns());
                    let err = p.play(&fewer).expect_err("a shorter capture is refused");
                    prop_assert_eq!(err.why, Refusal::NonMaximalCapture { taken: max - 1, max });
                }
            }
        }
    }
}
