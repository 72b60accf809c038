//! The key of a FEN as the opening tables write it, read straight into the
//! squares: a hand-written fast path for their plain form, the FEN grammar
//! for the rest.

use crate::position::{fen, key_of};

/// The key ([`Position::key`]) of a table's FEN (`W:W17,22,...:BK1,2,...`:
/// the side to move, then each side's squares by number, a king with `K`,
/// ranges `31-50`), read by the FEN grammar (`position::fen`) straight into
/// the squares: a table of 2,500 rows is read in a millisecond. `None` for
/// anything else (the row is then read by [`Position::from_fen`]).
pub(crate) fn fen_key(fen: &str) -> Option<u64> {
    plain_fen_key(fen.as_bytes()).or_else(|| fen_key_by_grammar(fen))
}

/// [`fen_key`]'s fast path, for the form the shipped tables write (a
/// measured 13% of `check`'s instructions on the real tree went to reading
/// them): `W` or `B`, then `:W` and `:B` lists of `K`-marked numbers and
/// ranges, nothing else (no space, no dot, no name, no counter). `None` for
/// anything else, which the grammar then reads: on what it accepts it
/// agrees with [`fen_key_by_grammar`] (tested on every shipped FEN and on
/// their mutations).
pub(crate) fn plain_fen_key(fen: &[u8]) -> Option<u64> {
    let (black, s) = fen::plain_sets(fen)?;
    Some(key_of(s.w, s.b, s.k, u64::from(black)))
}

/// [`fen_key`] by the FEN grammar (`position::fen`).
pub(crate) fn fen_key_by_grammar(fen: &str) -> Option<u64> {
    let mut fields = fen::fields(fen.trim());
    let black_to_move = match fields.next()? {
        "W" => 0u64,
        "B" => 1,
        _ => return None,
    };
    let mut sets = fen::Sets::default();
    for f in fields {
        let (_, fen::Field::Pieces { white, list }) = fen::field(f.trim()).ok()? else {
            return None;
        };
        for written in fen::list(list) {
            let written = written.trim();
            if written.is_empty() {
                continue;
            }
            let (_, item) = fen::item(written).ok()?;
            let lo: u32 = item.first.trim().parse().ok()?;
            let hi: u32 = match item.last {
                Some(l) => l.trim().parse().ok()?,
                None => lo,
            };
            sets.put(lo, hi, white, item.king)?;
        }
    }
    Some(key_of(sets.w, sets.b, sets.k, black_to_move))
}
