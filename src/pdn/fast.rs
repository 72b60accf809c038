//! The reader's fast paths: hand-written readings of the most common tokens
//! (plain numeric and algebraic moves, move numbers, tag lines with one space
//! and no escape), where the benchmark shows they pay. Each stands for a
//! grammar production and is tested against it exhaustively below: a fast
//! path answers exactly as its production does, or declines (`None`) and
//! leaves the token to the production.

use super::grammar;
use super::vocab::{Sep, SquareText};
use crate::diag::Span;

/// The common case of [`grammar::written_move`] without the combinators: numeric
/// squares joined by separators with no spaces (`32-28`, `19x30x39`). `None`
/// for anything else, which `written_move` then reads (with the same result).
/// The squares are pushed onto `squares`; after `None`, the caller drops what
/// was pushed.
#[inline]
fn plain_numeric_move(d: &[u8], squares: &mut Vec<SquareText>) -> Option<(usize, Sep)> {
    let mut i = 0;
    let first = squares.len();
    let mut sep: Option<Sep> = None;
    loop {
        let s = i;
        let mut v = 0u32;
        while i - s < 4 {
            match d.get(i) {
                Some(&b) if b.is_ascii_digit() => {
                    v = v * 10 + u32::from(b - b'0');
                    i += 1;
                }
                _ => break,
            }
        }
        if i == s || i - s > 3 || d.get(i) == Some(&b'.') {
            return None;
        }
        if matches!(d.get(i), Some(b' ' | b'\t')) {
            // A separator may follow after spaces (`32 - 28`): leave that to the combinators.
            let after = d[i..].iter().find(|&&b| b != b' ' && b != b'\t');
            if matches!(after, Some(b'-' | b'x' | b'X' | b':')) {
                return None;
            }
        }
        // At most three digits: below 1000.
        squares.push(SquareText::Num(v as u16));
        let next = match d.get(i) {
            Some(b'-') => Sep::Move,
            Some(b'x' | b'X') => Sep::Capture,
            Some(b':') => Sep::Colon,
            _ => break,
        };
        if !d.get(i + 1).is_some_and(u8::is_ascii_digit) {
            return None;
        }
        sep = Some(match sep {
            None => next,
            Some(old) if old == next => next,
            Some(_) => Sep::Mixed,
        });
        i += 1;
    }
    (squares.len() - first >= 2).then(|| (i, sep.unwrap_or(Sep::None)))
}

/// [`plain_numeric_move`] for algebraic squares: `c3-d4`, `d4xf6xh8`, no
/// spaces, nothing glued. `None` for anything else.
fn plain_algebraic_move(d: &[u8], squares: &mut Vec<SquareText>) -> Option<(usize, Sep)> {
    let first = squares.len();
    let mut i = 0;
    let mut sep: Option<Sep> = None;
    loop {
        let file = match d.get(i) {
            Some(&f @ (b'a'..=b'l' | b'A'..=b'L')) => f.to_ascii_lowercase() - b'a',
            _ => return None,
        };
        let rank = match (d.get(i + 1), d.get(i + 2)) {
            (Some(&a), Some(&b)) if a.is_ascii_digit() && b.is_ascii_digit() => {
                i += 3;
                (a - b'0') * 10 + (b - b'0')
            }
            (Some(&a), _) if a.is_ascii_digit() => {
                i += 2;
                a - b'0'
            }
            _ => return None,
        };
        if d.get(i).is_some_and(|b| b.is_ascii_digit()) {
            return None;
        }
        squares.push(SquareText::Alg { file, rank });
        let next = match d.get(i) {
            Some(b'-') => Sep::Move,
            Some(b'x' | b'X') => Sep::Capture,
            Some(b':') => Sep::Colon,
            // A glued square (`a3b4`): the combinators.
            Some(b'a'..=b'l' | b'A'..=b'L') => return None,
            // Spaces before a separator (`c3 - d4`): the combinators.
            Some(b' ' | b'\t') => {
                let after = d[i..].iter().find(|&&b| b != b' ' && b != b'\t');
                if matches!(after, Some(b'-' | b'x' | b'X' | b':')) {
                    return None;
                }
                break;
            }
            _ => break,
        };
        sep = Some(grammar::join_sep(sep, next));
        i += 1;
    }
    (squares.len() - first >= 2).then(|| (i, sep.unwrap_or(Sep::None)))
}

/// [`plain_numeric_move`] or [`plain_algebraic_move`], by the first byte.
#[inline]
pub(super) fn plain_move(d: &[u8], squares: &mut Vec<SquareText>) -> Option<(usize, Sep)> {
    if d.first()?.is_ascii_digit() {
        plain_numeric_move(d, squares)
    } else {
        plain_algebraic_move(d, squares)
    }
}

/// [`grammar::move_number`] without the combinators (one scan of the digits
/// and dots): every move and move number goes through here, and most tokens
/// starting with a digit are moves.
#[inline]
pub(super) fn plain_move_number(d: &[u8]) -> Option<grammar::MoveNumber> {
    let digits = d.iter().take_while(|b| b.is_ascii_digit()).count();
    let dots = d[digits..].iter().take_while(|&&b| b == b'.').count();
    (digits > 0 && dots > 0).then(|| grammar::MoveNumber {
        value: grammar::decimal(&d[..digits]),
        digits,
        dots,
    })
}

/// A numeric token read by [`plain_numeric_token`].
#[derive(Debug, PartialEq, Eq)]
pub(super) enum PlainToken {
    /// A move number of `len` bytes: its value, and whether it was Black's (`12...`).
    Number { value: u32, black: bool, len: usize },
    /// A move of `len` bytes, its squares pushed.
    Move { len: usize, sep: Sep },
}

/// One or two digits at `d[i..]`, not followed by a third: their value and end.
#[inline(always)]
fn one_or_two_digits(d: &[u8], i: usize) -> Option<(u16, usize)> {
    let a = d.get(i)?.wrapping_sub(b'0');
    if a > 9 {
        return None;
    }
    match d.get(i + 1).map(|b| b.wrapping_sub(b'0')) {
        Some(b) if b <= 9 => {
            if d.get(i + 2).is_some_and(u8::is_ascii_digit) {
                return None;
            }
            Some((u16::from(a) * 10 + u16::from(b), i + 2))
        }
        _ => Some((u16::from(a), i + 1)),
    }
}

/// The bulk of movetext, read in one pass: a move number of one or two digits
/// (`12.`, `12...`), or a move of squares of one or two digits joined by one
/// separator, `-` or `x` (`32-28`, `19x30x39`), ended by a line break, a `{`
/// or one space not followed by more space or a separator. Answers as
/// [`plain_move_number`] and [`plain_move`] would, in the lexer's order (a
/// token that may be a result is first tried as one); `None` for anything
/// else, with nothing pushed.
#[inline]
pub(super) fn plain_numeric_token(d: &[u8], squares: &mut Vec<SquareText>) -> Option<PlainToken> {
    let (value, mut i) = one_or_two_digits(d, 0)?;
    match d.get(i) {
        Some(b'.') => {
            let dots = d[i..].iter().take_while(|&&b| b == b'.').count();
            return Some(PlainToken::Number {
                value: u32::from(value),
                black: dots >= 3,
                len: i + dots,
            });
        }
        // A result (`1-0`, `2-0`, `0-2`, `1/2-1/2`) starts so: left to the lexer.
        Some(b'-') if i == 1 && value <= 2 => return None,
        Some(b'-' | b'x') => {}
        _ => return None,
    }
    let sep = d[i];
    let first = squares.len();
    squares.push(SquareText::Num(value));
    loop {
        // `d[i]` is the separator `sep`.
        let Some((v, e)) = one_or_two_digits(d, i + 1) else {
            squares.truncate(first);
            return None;
        };
        squares.push(SquareText::Num(v));
        i = e;
        let ends = match d.get(i) {
            Some(&b) if b == sep => false,
            None | Some(b'\n' | b'\r' | b'{') => true,
            Some(b' ') => !matches!(d.get(i + 1), Some(b' ' | b'\t' | b'-' | b'x' | b'X' | b':')),
            Some(_) => {
                squares.truncate(first);
                return None;
            }
        };
        if ends {
            let sep = if sep == b'-' { Sep::Move } else { Sep::Capture };
            return Some(PlainToken::Move { len: i, sep });
        }
    }
}

/// The common tag `Name "value"]`: an identifier, one space, a value with
/// no escape, and `]` right after the closing quote, all on one line.
/// `name_at` is where the name starts in `text`. Returns the tag's end and the value's span; `None` for anything else,
/// which the general reading below then reads (to the same result).
#[inline]
pub(super) fn plain_tag(text: &[u8], name_at: usize) -> Option<(usize, Span)> {
    let d = &text[name_at..];
    if !d.first().is_some_and(u8::is_ascii_uppercase) {
        return None;
    }
    let n = d.iter().take_while(|&&b| IDENT[usize::from(b)]).count();
    if d.get(n) != Some(&b' ') || d.get(n + 1) != Some(&b'"') {
        return None;
    }
    let vs = n + 2;
    let ve = vs + value_stop(&d[vs..])?;
    (d[ve] == b'"' && d.get(ve + 1) == Some(&b']'))
        .then(|| (name_at + ve + 2, name_at + vs..name_at + ve))
}

/// [`grammar::is_ident`] as a table: a tag's name is read a byte a lookup.
const IDENT: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = (b as u8).is_ascii_alphanumeric() || b == b'_' as usize;
        b += 1;
    }
    t
};

/// Each byte of a word whose byte is `b`.
const fn bytes_of(b: u8) -> u64 {
    0x0101_0101_0101_0101 * b as u64
}

/// The high bit of each byte of `x` that is zero, and maybe of bytes above
/// one that is (a borrow): the lowest bit set is always a zero byte.
#[inline(always)]
fn zero_bytes(x: u64) -> u64 {
    x.wrapping_sub(bytes_of(1)) & !x & bytes_of(0x80)
}

/// Where the first `"`, `\\`, `\n` or `\r` of a tag's value is, eight bytes
/// a step (issue 65: the byte-by-byte search was 190 instructions a tag of
/// `check`'s reader): the same answer as a search byte by byte, which the
/// test below holds it to.
#[inline]
fn value_stop(d: &[u8]) -> Option<usize> {
    let mut i = 0;
    while let Some(w) = d.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(w);
        let x = u64::from_le_bytes(word);
        let hits = zero_bytes(x ^ bytes_of(b'"'))
            | zero_bytes(x ^ bytes_of(b'\\'))
            | zero_bytes(x ^ bytes_of(b'\n'))
            | zero_bytes(x ^ bytes_of(b'\r'));
        if hits != 0 {
            return Some(i + (hits.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    let rest = d.get(i..).unwrap_or_default();
    rest.iter()
        .position(|&b| matches!(b, b'"' | b'\\' | b'\n' | b'\r'))
        .map(|p| i + p)
}

#[cfg(test)]
mod tests {
    //! Each fast path against the production it stands for, on every
    //! string up to 6 or 7 bytes over the alphabet that matters.
    use super::super::lexer::{Parser, TagStep};
    use super::*;

    /// Every string of 1 to `max_len` bytes over `alphabet`, shortest first.
    fn all_strings(alphabet: &'static [u8], max_len: u32) -> impl Iterator<Item = Vec<u8>> {
        (1..=max_len).flat_map(move |len| {
            (0..alphabet.len().pow(len)).map(move |mut code| {
                let mut text = Vec::with_capacity(len as usize);
                for _ in 0..len {
                    text.push(alphabet[code % alphabet.len()]);
                    code /= alphabet.len();
                }
                text
            })
        })
    }

    #[test]
    fn plain_move_fast_path_agrees_with_the_combinators() {
        // Every string of up to 6 bytes over digits, file letters, separators,
        // spaces and dots: where the fast path answers, `written_move` gives the
        // same answer.
        let alphabet = b"109-x: .XcCm";
        let (mut answered, mut algebraic) = (0, 0);
        for mut text in all_strings(alphabet, 6) {
            text.extend_from_slice(b" {");
            let mut squares = Vec::new();
            if let Some((n, sep)) = plain_move(&text, &mut squares) {
                answered += 1;
                algebraic += usize::from(text[0].is_ascii_alphabetic());
                let (rest, m) = grammar::written_move(&text).expect("combinators read it");
                assert_eq!(
                    (text.len() - rest.len(), &squares[..], sep),
                    (n, &m.squares[..], m.sep),
                    "{}",
                    String::from_utf8_lossy(&text)
                );
            }
        }
        assert!(answered > 1000 && algebraic > 100, "{answered} {algebraic}");
    }

    #[test]
    fn plain_tag_fast_path_agrees_with_the_grammar_and_the_general_reading() {
        // Every tag line of up to 7 bytes over name letters, spaces, quotes,
        // backslashes, brackets and line breaks, after a tag already read: where
        // the fast path answers, the grammar's production reads the same tag; where
        // the production answers, the general (lenient) reading gives the same
        // tags, position and findings.
        let alphabet = b"Ea_ \"\\]\n";
        let (mut answered, mut new_games) = (0, 0);
        for line in all_strings(alphabet, 7) {
            // The first tag is `E`: a second `E` starts a new game.
            let mut text = b"[E \"x\"]\n[".to_vec();
            text.extend_from_slice(&line);
            text.extend_from_slice(b"\n1. 32-28 *");
            let start = 8;
            let read = |fast: bool| {
                let mut p = Parser::new(&text, true, false);
                p.i = start;
                assert_eq!(p.tag_pair(0), Some(TagStep::Continue));
                let step = if fast {
                    p.tag_body(start, start + 1)
                } else {
                    p.any_tag(start, start + 1)
                };
                (step, p.i, p.tags, p.diags)
            };
            let fast = plain_tag(&text, start + 1);
            let production = grammar::tag_body(&text[start + 1..]);
            if let Some((end, value)) = fast {
                let Ok((rest, t)) = &production else {
                    panic!("the production reads {}", String::from_utf8_lossy(&text))
                };
                assert_eq!(
                    (end, value),
                    (
                        text.len() - rest.len(),
                        start + 1 + t.value.start..start + 1 + t.value.end
                    ),
                    "{}",
                    String::from_utf8_lossy(&text)
                );
            }
            if production.is_ok() {
                answered += 1;
                let fast = read(true);
                new_games += usize::from(fast.0 == Some(TagStep::NewGame));
                assert_eq!(fast, read(false), "{}", String::from_utf8_lossy(&text));
            }
        }
        assert!(answered > 100, "{answered}");
        assert!(new_games > 0);
    }

    /// The word-at-a-time search of a tag's value finds what the byte search
    /// finds: every byte at every place of texts up to 24 bytes, and random
    /// texts over the bytes that matter and their neighbours (and the same
    /// bytes with the high bit set).
    #[test]
    fn a_value_stop_is_found_as_a_byte_search_finds_it() {
        let byte_search = |d: &[u8]| {
            d.iter()
                .position(|&b| matches!(b, b'"' | b'\\' | b'\n' | b'\r'))
        };
        let mut checked = 0;
        for len in 0..24 {
            for at in 0..len {
                for b in 0..=255u8 {
                    let mut d = vec![b'a'; len];
                    d[at] = b;
                    assert_eq!(value_stop(&d), byte_search(&d), "{d:?}");
                    checked += 1;
                }
            }
        }
        let alphabet = [
            b'"', b'\\', b'\n', b'\r', b'!', b'#', b'[', b']', 0x0b, 0x0c, b'a', 0xa2, 0xdc, 0x8a,
            0x8d, 0x00, 0x01, 0xff,
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let len = (seed >> 58) as usize;
            let d: Vec<u8> = (0..len)
                .map(|k| {
                    let r = seed.rotate_left(k as u32 * 7) ^ (k as u64).wrapping_mul(0x2545_f491);
                    // Mostly plain bytes, so that a stop comes late.
                    if r.is_multiple_of(9) {
                        alphabet[(r >> 8) as usize % alphabet.len()]
                    } else {
                        b'a' + (r >> 16) as u8 % 26
                    }
                })
                .collect();
            assert_eq!(value_stop(&d), byte_search(&d), "{d:?}");
            checked += 1;
        }
        assert!(checked > 70_000, "{checked}");
    }

    #[test]
    fn the_name_table_is_is_ident() {
        for b in 0..=255u8 {
            assert_eq!(IDENT[usize::from(b)], grammar::is_ident(b), "{b}");
        }
    }

    #[test]
    fn plain_numeric_token_answers_as_the_lexer_would() {
        // Every string of up to 6 bytes over digits, separators, dots, spaces and
        // what may follow a move, alone and followed by ` {`: where the one-pass
        // reading answers, the lexer's general reading of a numeric token (a
        // result first, then a move number, then a move and what is glued to it)
        // reads the same token to the same end, and adds nothing after it.
        let alphabet = b"0129.-x \n{!a";
        let (mut numbers, mut moves) = (0, 0);
        for body in all_strings(alphabet, 6) {
            for tail in [&b""[..], b" {"] {
                let mut text = body.clone();
                text.extend_from_slice(tail);
                let mut squares = vec![SquareText::Num(7)];
                let fast = plain_numeric_token(&text, &mut squares);
                let shown = String::from_utf8_lossy(&text);
                let Some(fast) = fast else {
                    assert_eq!(squares, [SquareText::Num(7)], "{shown}");
                    continue;
                };
                if matches!(text[..], [b'0'..=b'2', b'-' | b'/', ..]) {
                    assert!(grammar::result(&text).is_err(), "{shown}");
                }
                match fast {
                    PlainToken::Number { value, black, len } => {
                        numbers += 1;
                        let n = plain_move_number(&text).expect("a move number");
                        assert_eq!(
                            (value, black, len),
                            (n.value, n.black(), n.len()),
                            "{shown}"
                        );
                    }
                    PlainToken::Move { len, sep } => {
                        moves += 1;
                        assert!(plain_move_number(&text).is_none(), "{shown}");
                        let (rest, m) = grammar::written_move(&text).expect("a move");
                        assert_eq!(
                            (text.len() - rest.len(), sep, &squares[1..]),
                            (len, m.sep, &m.squares[..]),
                            "{shown}"
                        );
                        // Nothing the lexer reads with the move (a strength, glued text) follows.
                        let next = text.get(len).copied();
                        assert!(
                            !matches!(next, Some(b'!' | b'?' | b'('))
                                && !next.is_some_and(|b| b.is_ascii_alphabetic()),
                            "{shown}"
                        );
                    }
                }
            }
        }
        assert!(numbers > 1000 && moves > 1000, "{numbers} {moves}");
    }

    #[test]
    fn move_number_fast_path_agrees_with_the_grammar() {
        // Every string of up to 7 bytes over digits, dots and other token bytes.
        let alphabet = b"09.- x";
        let mut numbers = 0;
        for text in all_strings(alphabet, 7) {
            let fast = plain_move_number(&text);
            let production = grammar::move_number(&text).ok().map(|(_, n)| n);
            assert_eq!(fast, production, "{}", String::from_utf8_lossy(&text));
            numbers += usize::from(fast.is_some());
        }
        assert!(numbers > 1000, "{numbers}");
    }
}
