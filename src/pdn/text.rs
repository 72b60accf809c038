//! Source text shown under a finding: snippets, visible characters, line
//! breaks counted.

use super::vocab::TextEncoding;
use std::borrow::Cow;

/// A piece of a source line to show under a finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snippet {
    /// The text, control characters escaped (`\u{1b}`), tabs as spaces.
    pub text: String,
    /// Characters of `text` to underline (never empty).
    pub caret: std::ops::Range<usize>,
    /// Whether the line goes on before or after the text shown.
    pub cut_left: bool,
    /// Whether the line goes on after the text shown.
    pub cut_right: bool,
}

impl Snippet {
    /// `text` with control characters escaped (`\n`, `\u{1b}`, ...), as
    /// every finding and message shows text read from input or a path: what
    /// a terminal would otherwise act on is written out.
    pub fn visible(text: &str) -> Cow<'_, str> {
        visible(text)
    }
}

/// Appends `c` as it can be shown on a terminal: control characters escaped.
pub(crate) fn push_visible(out: &mut String, c: char) {
    match c {
        '\t' => out.push(' '),
        c if c.is_control() => {
            use std::fmt::Write as _;
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        }
        c => out.push(c),
    }
}

/// `text` with control characters escaped (for echoing input on a terminal).
pub(crate) fn visible(text: &str) -> Cow<'_, str> {
    // The control characters are U+0000-U+001F and U+007F-U+009F: in UTF-8,
    // a byte below 0x20, 0x7F, or 0xC2 before 0x80-0x9F. A text with none of
    // those bytes is shown as it is, without decoding it (issue 65).
    let suspect = text
        .bytes()
        .fold(false, |s, b| s | (b < 0x20) | (b == 0x7f) | (b == 0xc2));
    if !suspect || !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push_visible(&mut out, c);
    }
    Cow::Owned(out)
}

pub(super) fn is_char_start(b: u8, enc: TextEncoding) -> bool {
    matches!(enc, TextEncoding::Legacy(_)) || (b & 0xC0) != 0x80
}

/// The offset `n` characters before `at` (not before 0).
pub(super) fn back_chars(text: &[u8], mut at: usize, n: usize, enc: TextEncoding) -> usize {
    let mut left = n;
    while at > 0 && left > 0 {
        at -= 1;
        if is_char_start(text[at], enc) {
            left -= 1;
        }
    }
    while at > 0 && at < text.len() && !is_char_start(text[at], enc) {
        at -= 1;
    }
    at
}

/// The offset `n` characters after `at` (not past the end).
pub(super) fn forward_chars(text: &[u8], mut at: usize, n: usize, enc: TextEncoding) -> usize {
    let mut left = n;
    while at < text.len() && left > 0 {
        at += 1;
        while at < text.len() && !is_char_start(text[at], enc) {
            at += 1;
        }
        left -= 1;
    }
    at
}

/// Just past the first space in `from..limit`, or `from` if there is none.
pub(super) fn next_space(text: &[u8], from: usize, limit: usize) -> usize {
    text[from..limit]
        .iter()
        .position(|b| *b == b' ')
        .map_or(from, |p| from + p + 1)
}

/// The last space in `limit..to` (exclusive end), or `to` if there is none.
pub(super) fn prev_space(text: &[u8], limit: usize, to: usize) -> usize {
    text[limit..to]
        .iter()
        .rposition(|b| *b == b' ')
        .map_or(to, |p| limit + p)
}

/// Counts line breaks in `bytes`: `\r\n` and `\n\r` are one break each, as
/// are a lone `\r` or `\n`. `open` is the break byte that ended the text just
/// before `bytes` when it was not yet paired. Returns the breaks, the offset
/// just past the last break byte, and the unpaired break byte `bytes` ends with.
pub(crate) fn count_breaks(bytes: &[u8], open: Option<u8>) -> (u32, Option<usize>, Option<u8>) {
    if memchr::memchr(b'\r', bytes).is_none() {
        return lf_breaks(bytes, open);
    }
    breaks_one_by_one(bytes, open)
}

/// [`count_breaks`] for text without `\r` (nearly every file): every `\n` is
/// a break, but one at the start that pairs with an `open` `\r`. Counted a
/// block at a time, not a hit at a time (issue 65: a search a line was about
/// 100 instructions a line, 2 % of `check`).
fn lf_breaks(bytes: &[u8], open: Option<u8>) -> (u32, Option<usize>, Option<u8>) {
    let Some(last) = memchr::memrchr(b'\n', bytes) else {
        return (0, None, None);
    };
    // At most 255 a block, so that a byte counts them (which compilers turn
    // into vector adds).
    let mut n: u32 = bytes[..=last]
        .chunks(255)
        .map(|c| u32::from(c.iter().fold(0u8, |a, &b| a + u8::from(b == b'\n'))))
        .sum();
    let paired = open == Some(b'\r') && bytes[0] == b'\n';
    n -= u32::from(paired);
    let ends_open = (last + 1 == bytes.len() && !(paired && last == 0)).then_some(b'\n');
    (n, Some(last + 1), ends_open)
}

/// [`count_breaks`], a break byte at a time.
fn breaks_one_by_one(bytes: &[u8], mut open: Option<u8>) -> (u32, Option<usize>, Option<u8>) {
    let mut n = 0u32;
    let mut last: Option<usize> = None;
    for i in memchr::memchr2_iter(b'\n', b'\r', bytes) {
        let c = bytes[i];
        let adjacent = match last {
            Some(l) => l == i,
            None => i == 0,
        };
        if adjacent && open.is_some_and(|o| o != c) {
            open = None;
        } else {
            n += 1;
            open = Some(c);
        }
        last = Some(i + 1);
    }
    let ends_open = if last == Some(bytes.len()) {
        open
    } else {
        None
    };
    (n, last, ends_open)
}

#[cfg(test)]
mod tests {
    use super::visible;
    use super::{breaks_one_by_one, count_breaks};

    /// Breaks counted a block at a time (text without `\r`) are those counted
    /// a break byte at a time: every text of up to 8 bytes over `\n`, `\r`
    /// and a letter, and long random texts, after each open state.
    #[test]
    fn breaks_are_counted_as_one_by_one() {
        let mut texts: Vec<Vec<u8>> = vec![Vec::new()];
        let mut last = vec![Vec::new()];
        for _ in 0..8 {
            last = last
                .iter()
                .flat_map(|t: &Vec<u8>| {
                    [b'\n', b'\r', b'a'].map(|b| {
                        let mut t = t.clone();
                        t.push(b);
                        t
                    })
                })
                .collect();
            texts.extend(last.iter().cloned());
        }
        let mut seed = 7u64;
        for _ in 0..3000 {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let len = (seed >> 52) as usize;
            let t: Vec<u8> = (0..len)
                .map(
                    |k| match (seed.rotate_left(k as u32) ^ (k as u64 * 0x9e37)) % 41 {
                        // Half the texts have no `\r`.
                        0 if seed & 1 == 0 => b'\r',
                        1..=3 => b'\n',
                        _ => b'x',
                    },
                )
                .collect();
            texts.push(t);
        }
        let mut lf_only = 0;
        for t in &texts {
            lf_only += usize::from(!t.contains(&b'\r'));
            for open in [None, Some(b'\n'), Some(b'\r')] {
                assert_eq!(
                    count_breaks(t, open),
                    breaks_one_by_one(t, open),
                    "{t:?} {open:?}"
                );
            }
        }
        assert!(lf_only > 1000, "{lf_only}");
    }

    use std::borrow::Cow;

    /// Issue 65: the byte test lets a text through unread only when no
    /// character of it is a control character: every character up to
    /// U+1000, alone and between others, and some beyond.
    #[test]
    fn a_text_is_shown_as_it_is_exactly_when_it_has_no_control_character() {
        let chars = (0..0x1000u32)
            .chain([0x2028, 0xfeff, 0xfffd, 0x1f600])
            .filter_map(char::from_u32);
        for c in chars {
            for text in [c.to_string(), format!("a{c}é"), format!("¢{c}")] {
                let shown = visible(&text);
                assert_eq!(
                    matches!(shown, Cow::Borrowed(_)),
                    !text.chars().any(char::is_control),
                    "U+{:04X}",
                    u32::from(c)
                );
                let want: String = text
                    .chars()
                    .map(|c| match c {
                        '\t' => " ".to_string(),
                        c if c.is_control() => format!("\\u{{{:x}}}", u32::from(c)),
                        c => c.to_string(),
                    })
                    .collect();
                assert_eq!(shown, want);
            }
        }
    }
}
