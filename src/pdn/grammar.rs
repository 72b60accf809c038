//! The PDN grammar as [nom] parsers, one per production; the [`Reader`]
//! is built from them.
//!
//! Every production takes the bytes at a token's first byte and returns the
//! bytes after it with what it read; spans are lengths from that first byte.
//! They describe the PDN the reader accepts without a finding (the standard,
//! plus the spellings docs/dialect.md lists as ordinary). Everything else is
//! recovery in the reader, which reports what it tolerated.
//!
//! The FEN setup's own grammar (the FEN tag's value, and the text between the
//! slashes of [`setup`]) is in [`crate::position::fen`].
//!
//! Some productions also have a hand-written fast path in the reader, kept
//! because the benchmark shows they pay (docs/benchmarks.md): moves without
//! spaces (`32-28`, `c3-d4`), move numbers, and tag lines with one space and
//! no escape. Each has an exhaustive differential test against the production
//! it stands for.
//!
//! (The module is internal: its productions return nom's own types, which
//! are not part of the crate's API. The test `productions_read_their_tokens`
//! shows each at work.)
//!
//! [`Reader`]: super::reader::Reader
// Internal to the crate. A few productions are reached through a fast path or
// the reader's recovery instead, and stay as the grammar's statement: the tests
// (`pdn/parse/tests.rs`) check the fast paths against them.
#![cfg_attr(not(test), allow(dead_code))]

use super::vocab::{Outcome, Sep, SquareText};
use nom::branch::alt;
use nom::bytes::complete::{tag, take, take_till, take_while, take_while1, take_while_m_n};
use nom::character::complete::{char, one_of, satisfy, space0};
use nom::combinator::{map, not, peek, recognize, value, verify};
use nom::error::{Error, ErrorKind};
use nom::multi::{fold_many0, many0_count};
use nom::sequence::{delimited, pair, preceded, terminated, tuple};
use nom::IResult;
use smallvec::SmallVec;
use std::ops::Range;

/// Bytes between tokens: ASCII white space, a Latin-1 no-break space, and
/// UTF-8's (`C2 A0`). (The literal `\r`/`\n` text some exports leave is
/// recovery: the reader skips it with a finding.)
pub fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c | 0xa0)
}

pub(crate) use crate::board::decimal;

fn digits(i: &[u8]) -> IResult<&[u8], &[u8]> {
    take_while1(|b: u8| b.is_ascii_digit())(i)
}

/// A game's result: `2-0`, `0-2`, `1-1`, `1/2-1/2`, `0-0`, or the
/// chess-style `1-0`, `0-1`; not when a digit or `/` follows (`1-10` is a
/// move). `*` is its own token ([`unknown_result`]).
pub fn result(i: &[u8]) -> IResult<&[u8], Outcome> {
    terminated(
        alt((
            value(Outcome::Draw, tag("1/2-1/2")),
            value(Outcome::WhiteWins, tag("2-0")),
            value(Outcome::BlackWins, tag("0-2")),
            value(Outcome::WhiteWins, tag("1-0")),
            value(Outcome::BlackWins, tag("0-1")),
            value(Outcome::Draw, tag("1-1")),
            value(Outcome::BothLose, tag("0-0")),
        )),
        not(peek(satisfy(|c| c.is_ascii_digit() || c == '/'))),
    )(i)
}

/// `*`: the game goes on or its result is unknown.
pub fn unknown_result(i: &[u8]) -> IResult<&[u8], Outcome> {
    value(Outcome::Unknown, char('*'))(i)
}

/// A move number: digits and dots. `12.` is White's move, `12...` Black's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveNumber {
    /// Its value (from the first nine digits).
    pub value: u32,
    /// How many digits.
    pub digits: usize,
    /// How many dots.
    pub dots: usize,
}

impl MoveNumber {
    /// Three dots or more: the move that follows is Black's.
    pub fn black(&self) -> bool {
        self.dots >= 3
    }
    /// Its length in bytes.
    pub fn len(&self) -> usize {
        self.digits + self.dots
    }
}

/// `12.` or `12...`.
pub fn move_number(i: &[u8]) -> IResult<&[u8], MoveNumber> {
    map(
        pair(digits, take_while1(|b| b == b'.')),
        |(d, dots): (&[u8], &[u8])| MoveNumber {
            value: decimal(d),
            digits: d.len(),
            dots: dots.len(),
        },
    )(i)
}

/// `...` on its own (`1. ... 35-40`): the next move is Black's.
pub fn ellipsis(i: &[u8]) -> IResult<&[u8], usize> {
    map(
        verify(take_while1(|b| b == b'.'), |d: &[u8]| d.len() >= 3),
        <[u8]>::len,
    )(i)
}

/// A numeric square: digits not followed by a `.`. However many digits it
/// has, it is a square: one outside the board is `no-such-square` where it
/// stands (a number too large for 16 bits is read as `u16::MAX`, never a
/// square of any board).
pub fn num_square(i: &[u8]) -> IResult<&[u8], SquareText> {
    map(
        terminated(
            take_while1(|b: u8| b.is_ascii_digit()),
            not(peek(satisfy(|c| c == '.'))),
        ),
        |d: &[u8]| {
            let n = if d.len() > 5 { u32::MAX } else { decimal(d) };
            SquareText::Num(u16::try_from(n).unwrap_or(u16::MAX))
        },
    )(i)
}

/// An algebraic square: a file `a`-`l` (either case) and a rank of one or two digits.
#[inline]
pub fn alg_square(i: &[u8]) -> IResult<&[u8], SquareText> {
    map(
        pair(
            satisfy(|c| matches!(c, 'a'..='l' | 'A'..='L')),
            terminated(
                take_while_m_n(1, 2, |b: u8| b.is_ascii_digit()),
                not(peek(satisfy(|c| c.is_ascii_digit()))),
            ),
        ),
        |(f, rank): (char, &[u8])| SquareText::Alg {
            file: (f.to_ascii_lowercase() as u8).wrapping_sub(b'a'),
            rank: decimal(rank) as u8,
        },
    )(i)
}

/// A separator, with spaces or tabs allowed around it: `-`, `x`/`X`, `:`.
pub fn separator(i: &[u8]) -> IResult<&[u8], Sep> {
    delimited(
        space0,
        alt((
            value(Sep::Move, char('-')),
            value(Sep::Capture, one_of("xX")),
            value(Sep::Colon, char(':')),
        )),
        space0,
    )(i)
}

/// The separator of a move so far, after one more joint `next`.
pub fn join_sep(so_far: Option<Sep>, next: Sep) -> Sep {
    match so_far {
        None => next,
        Some(old) if old == next => next,
        Some(_) => Sep::Mixed,
    }
}

/// A written move's squares and how they are joined.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText {
    /// Two or more squares.
    pub squares: SmallVec<[SquareText; 6]>,
    /// The separator ([`Sep::Mixed`] when they differ, [`Sep::None`] when glued).
    pub sep: Sep,
}

/// A move: two or more squares of one kind joined by separators
/// (`32-28`, `19x30x39`, `c3-d4`); algebraic squares may also be glued (`a3b4`).
pub fn written_move(i: &[u8]) -> IResult<&[u8], MoveText> {
    let numeric = i.first().is_some_and(u8::is_ascii_digit);
    let square = if numeric { num_square } else { alg_square };
    let glued = move |i| {
        if numeric {
            Err(nom::Err::Error(Error::new(i, ErrorKind::Alpha)))
        } else {
            map(alg_square, |q| (Sep::None, q))(i)
        }
    };
    let (rest, first) = square(i)?;
    let (rest, (squares, sep)) = fold_many0(
        alt((pair(separator, square), glued)),
        move || {
            let mut v: SmallVec<[SquareText; 6]> = SmallVec::new();
            v.push(first);
            (v, None)
        },
        |(mut v, sep): (SmallVec<[SquareText; 6]>, Option<Sep>), (s, q)| {
            v.push(q);
            (v, Some(join_sep(sep, s)))
        },
    )(rest)?;
    if squares.len() < 2 {
        return Err(nom::Err::Error(Error::new(i, ErrorKind::Many1)));
    }
    Ok((
        rest,
        MoveText {
            squares,
            sep: sep.unwrap_or(Sep::None),
        },
    ))
}

fn is_strength(b: u8) -> bool {
    b == b'!' || b == b'?'
}

/// A move strength: `!`, `?!`, `!!` ..., or in brackets `(?)`. Returns its length.
pub fn strength(i: &[u8]) -> IResult<&[u8], usize> {
    map(
        alt((
            take_while1(is_strength),
            recognize(delimited(char('('), take_while1(is_strength), char(')'))),
        )),
        <[u8]>::len,
    )(i)
}

/// A numeric annotation glyph, `$12`: its value.
pub fn nag(i: &[u8]) -> IResult<&[u8], u32> {
    map(preceded(char('$'), digits), decimal)(i)
}

/// `(`: a variation opens.
pub fn variation_open(i: &[u8]) -> IResult<&[u8], char> {
    char('(')(i)
}

/// `)`: a variation closes.
pub fn variation_close(i: &[u8]) -> IResult<&[u8], char> {
    char(')')(i)
}

fn line_rest(i: &[u8]) -> IResult<&[u8], &[u8]> {
    take_till(|b| b == b'\n' || b == b'\r')(i)
}

/// A `%` escape line, up to (not including) its line break: the whole line.
pub fn escape_line(i: &[u8]) -> IResult<&[u8], &[u8]> {
    recognize(preceded(char('%'), line_rest))(i)
}

/// A `;` comment to the end of its line: its text.
pub fn line_comment(i: &[u8]) -> IResult<&[u8], &[u8]> {
    preceded(char(';'), line_rest)(i)
}

/// A setup in the movetext, `/FEN/`, on one line: the text between the slashes.
pub fn setup(i: &[u8]) -> IResult<&[u8], &[u8]> {
    delimited(char('/'), take_till(|b| b == b'/' || b == b'\n'), char('/'))(i)
}

/// A byte that may start a tag name.
#[inline]
pub(crate) fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic()
}

/// A byte of a tag name.
#[inline]
pub(crate) fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Whether a tag line starts at `i` without its `[`: a name, spaces, a
/// quote, and a line ending in `]`.
pub fn looks_like_tag(i: &[u8]) -> bool {
    let n = i.iter().take_while(|&&b| is_ident(b)).count();
    let rest = &i[n..];
    let sp = rest
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    rest.get(sp) == Some(&b'"') && {
        let line_end = memchr::memchr2(b'\n', b'\r', rest).unwrap_or(rest.len());
        rest[..line_end].trim_ascii_end().ends_with(b"]")
    }
}

/// A `{...}` comment read: the text between the braces, and whether braces
/// nested inside it (`{a {b} c}`, read as one comment).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    /// The text, as a range of the input.
    pub text: Range<usize>,
    /// Braces nested inside.
    pub nested: bool,
}

/// A `{...}` comment, braces nested inside counted (never recursion).
///
/// It fails with [`ErrorKind::Eof`] when the input ends inside it, and with
/// [`ErrorKind::Tag`] at a line break followed by a tag line (`[Event "..."]`):
/// a comment never runs into the next game's tags. The error's input starts
/// where the comment was found not to close.
pub fn comment(i: &[u8]) -> IResult<&[u8], Comment> {
    let (mut rest, _) = char('{')(i)?;
    let mut depth = 1usize;
    let mut nested = false;
    loop {
        let (r, _) = take_till(|b| matches!(b, b'{' | b'}' | b'\n' | b'\r'))(rest)?;
        let (r2, c) = match take::<usize, &[u8], Error<&[u8]>>(1)(r) {
            Ok((r2, c)) => (r2, c[0]),
            Err(_) => return Err(nom::Err::Error(Error::new(r, ErrorKind::Eof))),
        };
        match c {
            b'{' => {
                depth += 1;
                nested = true;
            }
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    let end = i.len() - r.len();
                    return Ok((
                        r2,
                        Comment {
                            text: 1..end,
                            nested,
                        },
                    ));
                }
            }
            _ if r2.first() == Some(&b'[') && looks_like_tag(&r2[1..]) => {
                return Err(nom::Err::Error(Error::new(r, ErrorKind::Tag)));
            }
            _ => {}
        }
        rest = r2;
    }
}

/// A tag pair read: ranges of the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagPair {
    /// The name.
    pub name: Range<usize>,
    /// The value between the quotes, escapes (`\"`, `\\`) as written.
    pub value: Range<usize>,
}

/// A tag name: an identifier starting with a capital letter.
pub fn tag_name(i: &[u8]) -> IResult<&[u8], &[u8]> {
    recognize(pair(
        satisfy(|c| c.is_ascii_uppercase()),
        take_while(|b: u8| b.is_ascii_alphanumeric() || b == b'_'),
    ))(i)
}

/// A quoted tag value on one line, with `\"` and `\\` escapes: the text
/// between the quotes.
pub fn tag_value(i: &[u8]) -> IResult<&[u8], &[u8]> {
    delimited(
        char('"'),
        recognize(many0_count(alt((
            take_while1(|b| !matches!(b, b'"' | b'\\' | b'\n' | b'\r')),
            recognize(pair(
                char('\\'),
                verify(take(1usize), |c: &[u8]| c[0] != b'\n' && c[0] != b'\r'),
            )),
        )))),
        char('"'),
    )(i)
}

/// A tag pair without its `[`: `Name "value"]`, spaces or tabs allowed
/// between the parts. Ranges count from the input's first byte.
pub fn tag_body(i: &[u8]) -> IResult<&[u8], TagPair> {
    let (rest, (name, _, value, _, _)) =
        tuple((tag_name, space0, tag_value, space0, char(']')))(i)?;
    let at = |s: &[u8]| s.as_ptr() as usize - i.as_ptr() as usize;
    Ok((
        rest,
        TagPair {
            name: at(name)..at(name) + name.len(),
            value: at(value)..at(value) + value.len(),
        },
    ))
}

/// A tag pair, `[Name "value"]`, white space (even a line break) allowed
/// after the `[`. Ranges count from the `[`.
pub fn tag_pair(i: &[u8]) -> IResult<&[u8], TagPair> {
    let (body, _) = pair(char('['), take_while(is_space))(i)?;
    let skip = i.len() - body.len();
    map(tag_body, move |t| TagPair {
        name: t.name.start + skip..t.name.end + skip,
        value: t.value.start + skip..t.value.end + skip,
    })(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn productions_read_their_tokens() {
        assert_eq!(result(b"1/2-1/2").unwrap().1, Outcome::Draw);
        assert!(result(b"1-10").is_err());
        assert!(result(b"2-0/").is_err());
        assert_eq!(
            move_number(b"12... 5").unwrap().1,
            MoveNumber {
                value: 12,
                digits: 2,
                dots: 3
            }
        );
        assert!(move_number(b"12 ").is_err());
        assert_eq!(ellipsis(b"... x").unwrap().1, 3);
        assert!(ellipsis(b".. x").is_err());
        assert_eq!(num_square(b"007-").unwrap().1, SquareText::Num(7));
        // Any number of digits is a square; off the board is the replay's finding.
        assert_eq!(num_square(b"1234 ").unwrap().1, SquareText::Num(1234));
        assert_eq!(
            num_square(b"4294967296 ").unwrap().1,
            SquareText::Num(u16::MAX)
        );
        assert!(num_square(b"12.").is_err());
        assert_eq!(
            alg_square(b"C12").unwrap().1,
            SquareText::Alg { file: 2, rank: 12 }
        );
        assert!(alg_square(b"m3").is_err());
        assert!(alg_square(b"a123").is_err());
        assert_eq!(separator(b" x\t7").unwrap(), (&b"7"[..], Sep::Capture));
        let (rest, m) = written_move(b"a3b4 x").unwrap();
        assert_eq!((m.squares.len(), m.sep, rest), (2, Sep::None, &b" x"[..]));
        assert_eq!(written_move(b"32-28x23").unwrap().1.sep, Sep::Mixed);
        assert!(written_move(b"32 ").is_err());
        assert_eq!(strength(b"?!x").unwrap().1, 2);
        assert_eq!(strength(b"(!?) ").unwrap().1, 4);
        assert!(strength(b"(x)").is_err());
        assert_eq!(nag(b"$123 ").unwrap().1, 123);
        assert!(nag(b"$ 1").is_err());
        assert_eq!(escape_line(b"%x y\nz").unwrap().1, b"%x y");
        assert_eq!(line_comment(b";x y\rz").unwrap().1, b"x y");
        assert_eq!(setup(b"/W:W1/ 2").unwrap().1, b"W:W1");
        assert!(setup(b"/W:W1\n/").is_err());
        assert!(variation_open(b"(").is_ok() && variation_close(b")").is_ok());
        assert_eq!(unknown_result(b"*").unwrap().1, Outcome::Unknown);
    }

    #[test]
    fn comments_nest_and_stop_at_tag_lines() {
        let (rest, c) = comment(b"{a {b} c} 1.").unwrap();
        assert_eq!((c.text, c.nested, rest), (1..8, true, &b" 1."[..]));
        let (_, c) = comment(b"{a\n[b] c}").unwrap();
        assert_eq!((c.text, c.nested), (1..8, false));
        match comment(b"{a\n[Event \"x\"]\n}") {
            Err(nom::Err::Error(e)) => assert_eq!((e.code, e.input.len()), (ErrorKind::Tag, 14)),
            other => panic!("{other:?}"),
        }
        match comment(b"{a {b}") {
            Err(nom::Err::Error(e)) => assert_eq!((e.code, e.input.len()), (ErrorKind::Eof, 0)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn tags_with_spaces_and_escapes() {
        let (rest, t) = tag_pair(b"[ Event\t\"a\\\"b\" ]x").unwrap();
        assert_eq!((t.name, t.value, rest), (2..7, 9..13, &b"x"[..]));
        assert!(tag_pair(b"[event \"x\"]").is_err());
        assert!(tag_pair(b"[Event \"x\n\"]").is_err());
        assert!(tag_pair(b"[Event \"x\\").is_err());
        assert!(tag_pair(b"[Event x]").is_err());
    }
}
