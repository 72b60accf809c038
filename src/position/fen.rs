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
