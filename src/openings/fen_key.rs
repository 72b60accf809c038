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
    let black_to_move = match fen.first()? {
        b'W' => 0u64,
        b'B' => 1,
        _ => return None,
    };
    let mut sets = Sets::default();
    let mut i = 1;
    // One number of 1 to 3 digits at `i`.
    let number = |i: &mut usize| -> Option<u32> {
        let start = *i;
        let mut n = 0u32;
        while let Some(d @ b'0'..=b'9') = fen.get(*i) {
            // Saturating: a run of digits of any length is declined below.
            n = n.saturating_mul(10).saturating_add(u32::from(d - b'0'));
            *i += 1;
        }
        (1..=3).contains(&(*i - start)).then_some(n)
    };
    while i < fen.len() {
        if fen[i] != b':' {
            return None;
        }
        let white = match fen.get(i + 1)? {
            b'W' => true,
            b'B' => false,
            _ => return None,
        };
        i += 2;
        while i < fen.len() && fen[i] != b':' {
            let king = fen[i] == b'K';
            i += usize::from(king);
            let lo = number(&mut i)?;
            let hi = if fen.get(i) == Some(&b'-') {
                i += 1;
                number(&mut i)?
            } else {
                lo
            };
            sets.put(lo, hi, white, king)?;
            match fen.get(i) {
                Some(b',') if fen.get(i + 1).is_some_and(|c| *c != b':') => i += 1,
                Some(b':') | None => {}
                _ => return None,
            }
        }
    }
    Some(key_of(sets.w, sets.b, sets.k, black_to_move))
}

/// [`fen_key`] by the FEN grammar (`position::fen`).
pub(crate) fn fen_key_by_grammar(fen: &str) -> Option<u64> {
    let mut fields = fen::fields(fen.trim());
    let black_to_move = match fields.next()? {
        "W" => 0u64,
        "B" => 1,
        _ => return None,
    };
    let mut sets = Sets::default();
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

/// The squares a FEN gives each side and the kings, as the two readers
/// above fill them.
#[derive(Default)]
struct Sets {
    w: u128,
    b: u128,
    k: u128,
}

impl Sets {
    /// Squares `lo..=hi` (numbers) to White or Black, kings if `king`;
    /// `None` for a square off every board or given twice.
    #[inline]
    fn put(&mut self, lo: u32, hi: u32, white: bool, king: bool) -> Option<()> {
        if lo == 0 || hi > 128 || lo > hi {
            return None;
        }
        for sq in lo..=hi {
            let bit = 1u128 << (sq - 1);
            if (self.w | self.b) & bit != 0 {
                return None;
            }
            if white {
                self.w |= bit;
            } else {
                self.b |= bit;
            }
            if king {
                self.k |= bit;
            }
        }
        Some(())
    }
}
