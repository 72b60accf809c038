//! The FEN setup's grammar as nom parsers (the FEN tag's value, and `/FEN/`
//! in the movetext): `W:W31-50:B1-20`, `B:WK4,K7:B2.`, `W:Wc3,e3:B..`.
//! [`Setup::parse`](super::Setup::parse) is built from them; what a square
//! means is the board's business ([`BoardSize::parse_square`](crate::board::BoardSize::parse_square)).

use nom::bytes::complete::{take_till, take_while};
use nom::character::complete::{char, satisfy};
use nom::combinator::{eof, map, opt, rest, verify};
use nom::sequence::{pair, preceded, terminated};
use nom::IResult;

/// The `:`-separated fields of a FEN (the first is the side to move).
pub fn fields(text: &str) -> impl Iterator<Item = &str> + '_ {
    split_on(text, b':')
}

/// The `,`-separated items of a piece list.
pub fn list(text: &str) -> impl Iterator<Item = &str> + '_ {
    split_on(text, b',')
}

/// `text.split(sep)` for an ASCII `sep`, a byte at a time: the items of a
/// FEN are a few bytes long, and `str::split`'s searcher cost 108
/// instructions an item, 2.5 % of `check` on the real tree (issue 65).
fn split_on(text: &str, sep: u8) -> impl Iterator<Item = &str> + '_ {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let t = rest?;
        match t.bytes().position(|b| b == sep) {
            Some(i) => {
                // `sep` is ASCII: both sides of it are whole characters.
                rest = t.get(i + 1..);
                t.get(..i)
            }
            None => {
                rest = None;
                Some(t)
            }
        }
    })
}

/// One field after the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field<'a> {
    /// `W` or `B` and a piece list (trailing dots dropped).
    Pieces {
        /// White's pieces (`W`), else Black's.
        white: bool,
        /// The list, as written.
        list: &'a str,
    },
    /// A counter such as lidraughts' `H0` or `F1`, kept as written.
    Counter(&'a str),
}

/// A field (trimmed): a piece list or a counter. Fails on anything else.
pub fn field(i: &str) -> IResult<&str, Field<'_>> {
    let counter = map(
        verify(
            terminated(take_while(|c: char| c.is_ascii_alphanumeric()), eof),
            |t: &str| {
                !t.is_empty()
                    && matches!(t.as_bytes()[0], b'H' | b'F' | b'h' | b'f')
                    && t[1..].bytes().all(|b| b.is_ascii_digit())
            },
        ),
        Field::Counter,
    );
    let pieces = map(
        pair(satisfy(|c| matches!(c, 'W' | 'w' | 'B' | 'b')), rest),
        |(c, list): (char, &str)| Field::Pieces {
            white: c.eq_ignore_ascii_case(&'w'),
            list: list.trim_end_matches('.'),
        },
    );
    nom::branch::alt((pieces, counter))(i)
}

/// One item of a piece list (trimmed): `K` for a king, a square, and the
/// last square of a range (`1-12`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Item<'a> {
    /// Written with `K`.
    pub king: bool,
    /// The (first) square, as written.
    pub first: &'a str,
    /// The last square of a range, as written.
    pub last: Option<&'a str>,
}

/// A piece-list item (trimmed): `12`, `K12`, `a3`, `1-12`, `K 12`.
pub fn item(i: &str) -> IResult<&str, Item<'_>> {
    let (i, king) = map(opt(satisfy(|c| c == 'K' || c == 'k')), |k| k.is_some())(i)?;
    let (i, _) = take_while(char::is_whitespace)(i)?;
    let (i, first) = take_till(|c| c == '-')(i)?;
    let (i, last) = opt(preceded(char('-'), rest))(i)?;
    Ok((i, Item { king, first, last }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parts_of_a_fen() {
        assert_eq!(
            fields("W:W31,32:BK1").collect::<Vec<_>>(),
            ["W", "W31,32", "BK1"]
        );
        assert_eq!(
            field("W31,32").unwrap().1,
            Field::Pieces {
                white: true,
                list: "31,32"
            }
        );
        assert_eq!(field("H0").unwrap().1, Field::Counter("H0"));
        assert_eq!(list("1, 2,K3").collect::<Vec<_>>(), ["1", " 2", "K3"]);
        assert_eq!(
            item("K12-15").unwrap().1,
            Item {
                king: true,
                first: "12",
                last: Some("15")
            }
        );
    }
}

/// The side to move (Black: `true`) and the squares of a FEN in the plain
/// form the opening tables write (`W:W17,22,...:BK1,2,...`): `W` or `B`, then
/// `:W` and `:B` lists of `K`-marked numbers and ranges, nothing else (no
/// space, no dot, no name, no counter, no square twice, no square above
/// 128). `None` for anything else, which the grammar then reads: the
/// tables' keys (`openings::fen_key`) and [`Position::from_fen`](super::Position::from_fen)
/// stand on it, each tested against the grammar's reading.
pub(crate) fn plain_sets(fen: &[u8]) -> Option<(bool, Sets)> {
    let black_to_move = match fen.first()? {
        b'W' => false,
        b'B' => true,
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
    Some((black_to_move, sets))
}

/// The squares a FEN gives each side and the kings (bit `n - 1` for the
/// square numbered `n`), as [`plain_sets`] and the tables' reading by the
/// grammar fill them.
#[derive(Default)]
pub(crate) struct Sets {
    pub(crate) w: u128,
    pub(crate) b: u128,
    pub(crate) k: u128,
}

impl Sets {
    /// Squares `lo..=hi` (numbers) to White or Black, kings if `king`;
    /// `None` for a square off every board or given twice.
    #[inline]
    pub(crate) fn put(&mut self, lo: u32, hi: u32, white: bool, king: bool) -> Option<()> {
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
