//! The JSON line of a game written straight into a reused buffer: the same
//! bytes as `serde_json` gives for a [`GameRecord`](super::GameRecord), without
//! building the record (its map of tags, its copied strings) first.
//!
//! `check --format json` writes one such line per game, so this is the hot
//! path of that output; `tests/it/json_writer.rs` holds it to the record's
//! serialization on every corpus.

use crate::diag::Diagnostic;
use crate::pdn::{Game, Locator};
use crate::replay::GameReport;

use crate::export::value::Value;

/// Appends the JSON line (with its line break) of game `g` of `file`, replayed
/// as `r`: byte for byte what serializing [`GameRecord::new`](super::GameRecord::new)
/// with `serde_json` gives, followed by `\n`.
pub(super) fn write_game_json(out: &mut String, file: &str, g: &Game, r: &GameReport) {
    out.push_str("{\"type\":\"game\",\"file\":");
    string(out, file);
    out.push_str(",\"game\":");
    number(out, g.index() as u64);
    out.push_str(",\"line\":");
    number(out, u64::from(g.start_line()));
    out.push_str(",\"variant\":");
    opt_str(out, r.kind.map(|k| k.name()));
    out.push_str(",\"variant_source\":");
    string(out, r.source.as_str());
    out.push_str(",\"draw_rules\":");
    opt_str(out, r.draw_rules.map(|d| d.name()));
    out.push_str(",\"checked\":");
    out.push_str(if r.checked { "true" } else { "false" });
    out.push_str(",\"tags\":");
    tags(out, g);
    out.push_str(",\"plies\":");
    number(out, u64::from(r.plies));
    out.push_str(",\"plies_unchecked\":");
    number(out, u64::from(r.plies_unchecked));
    out.push_str(",\"irregularities\":");
    number(out, u64::from(r.irregularities));
    out.push_str(",\"valid\":");
    out.push_str(match r.verdict() {
        Some(true) => "true",
        Some(false) => "false",
        None => "null",
    });
    out.push_str(",\"declared_result\":");
    opt_str(out, r.declared.map(|o| o.normalised()));
    out.push_str(",\"declared_result_text\":");
    opt_str(out, g.result_text().as_deref());
    out.push_str(",\"computed_result\":");
    string(out, r.computed.normalised());
    out.push_str(",\"termination\":");
    string(out, r.termination.name());
    out.push_str(",\"termination_ply\":");
    match r.termination_ply {
        Some(p) => number(out, u64::from(p)),
        None => out.push_str("null"),
    }
    out.push_str(",\"clause\":");
    opt_str(out, r.clause.map(|c| c.as_str()));
    out.push_str(",\"opening\":");
    match &r.opening {
        None => out.push_str("null"),
        Some(o) => opening(out, o),
    }
    out.push_str(",\"diagnostics\":[");
    let mut loc = Locator::new(g);
    for (i, d) in r.diagnostics.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        diagnostic(out, &mut loc, d);
    }
    out.push_str("]}\n");
}

/// An opening's object, its fields in declaration order (`also` and
/// `name_table` only when there are some).
fn opening(out: &mut String, o: &crate::openings::Opening) {
    out.push_str("{\"table\":");
    string(out, o.table());
    out.push_str(",\"code\":");
    string(out, o.code());
    out.push_str(",\"name\":");
    opt_str(out, o.name());
    out.push_str(",\"plies\":");
    number(out, u64::from(o.plies));
    out.push_str(",\"via\":");
    string(out, o.via);
    out.push_str(",\"transposed\":");
    out.push_str(if o.transposed { "true" } else { "false" });
    if o.also().next().is_some() {
        out.push_str(",\"also\":[");
        for (i, a) in o.also().enumerate() {
            if i > 0 {
                out.push(',');
            }
            string(out, a);
        }
        out.push(']');
    }
    if let Some(t) = o.name_table() {
        out.push_str(",\"name_table\":");
        string(out, t);
    }
    out.push('}');
}

/// `fields` with `tags` added (replacing a field of the same name), in
/// alphabetical order of the names, as one JSON line.
pub(super) fn object<'a>(
    out: &mut String,
    fields: &mut smallvec::SmallVec<[(&'a str, Value<'a>); 64]>,
    tags: &[(&'a str, Option<&'a str>)],
) {
    for &(name, value) in tags {
        match fields.iter_mut().find(|(k, _)| *k == name) {
            Some(f) => f.1 = Value::Text(value),
            None => fields.push((name, Value::Text(value))),
        }
    }
    fields.sort_unstable_by(|a, b| a.0.cmp(b.0));
    out.push('{');
    for (i, (name, value)) in fields.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        if name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            // A column's name (or a tag's like it): nothing to escape.
            out.push('"');
            out.push_str(name);
            out.push('"');
        } else {
            string(out, name);
        }
        out.push(':');
        match *value {
            Value::Text(Some(s)) => string(out, s),
            Value::Int(Some(v)) => out.push_str(itoa::Buffer::new().format(v)),
            Value::Date(Some(v)) => out.push_str(itoa::Buffer::new().format(v)),
            Value::Bool(Some(b)) => out.push_str(if b { "true" } else { "false" }),
            Value::Text(None) | Value::Int(None) | Value::Bool(None) | Value::Date(None) => {
                out.push_str("null")
            }
        }
    }
    out.push_str("}\n");
}

/// One finding, as [`DiagnosticRecord`](super::DiagnosticRecord) serializes.
fn diagnostic(out: &mut String, loc: &mut Locator<'_>, d: &Diagnostic) {
    let (line, column) = loc.locate(d.span.start);
    out.push_str("{\"severity\":");
    string(out, d.severity.as_str());
    out.push_str(",\"code\":");
    string(out, d.code.as_str());
    out.push_str(",\"message\":");
    string(out, &d.message);
    out.push_str(",\"line\":");
    number(out, u64::from(line));
    out.push_str(",\"column\":");
    number(out, u64::from(column));
    if let Some(p) = d.ply {
        out.push_str(",\"ply\":");
        number(out, u64::from(p));
    }
    if let Some(w) = &d.written {
        out.push_str(",\"move\":");
        string(out, w);
    }
    if let Some((n, second)) = d.number {
        out.push_str(",\"move_number\":\"");
        number(out, u64::from(n));
        out.push_str(if second { "...\"" } else { ".\"" });
    }
    if !d.notes.is_empty() {
        out.push_str(",\"notes\":[");
        for (i, n) in d.notes.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            string(out, n);
        }
        out.push(']');
    }
    out.push('}');
}

/// The tags as a map ordered by name, the first of a repeated name kept (as
/// the record's `BTreeMap` does).
fn tags(out: &mut String, g: &Game) {
    let tags = g.tags();
    // Names sorted; a stable sort keeps a repeated name's first occurrence
    // first, and only that one is written.
    let mut order: smallvec::SmallVec<[(&str, usize); 16]> = tags
        .iter()
        .enumerate()
        .map(|(i, t)| (g.tag_name(t), i))
        .collect();
    order.sort_by(|a, b| a.0.cmp(b.0));
    out.push('{');
    let mut last: Option<&str> = None;
    for (name, i) in order {
        if last == Some(name) {
            continue;
        }
        if last.is_some() {
            out.push(',');
        }
        last = Some(name);
        string(out, name);
        out.push(':');
        string(out, &g.tag_text(&tags[i]));
    }
    out.push('}');
}

#[inline]
fn number(out: &mut String, n: u64) {
    out.push_str(itoa::Buffer::new().format(n));
}

#[inline]
fn opt_str(out: &mut String, s: Option<&str>) {
    match s {
        Some(s) => string(out, s),
        None => out.push_str("null"),
    }
}

/// `s` as a JSON string, escaped as `serde_json` escapes: `"` and `\` with a
/// backslash, the control characters below U+0020 as `\b \t \n \f \r` or
/// `\u00XX` (lowercase hex); everything else as it is. Runs of bytes that need
/// nothing are copied whole.
fn string(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    let mut start = 0;
    while let Some(k) = first_escape(&s.as_bytes()[start..]) {
        let at = start + k;
        // `at` is at an ASCII byte, so both slices end on character boundaries.
        out.push_str(&s[start..at]);
        match s.as_bytes()[at] {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            0x08 => out.push_str("\\b"),
            0x09 => out.push_str("\\t"),
            0x0a => out.push_str("\\n"),
            0x0c => out.push_str("\\f"),
            0x0d => out.push_str("\\r"),
            b => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.push_str("\\u00");
                out.push(char::from(HEX[usize::from(b >> 4)]));
                out.push(char::from(HEX[usize::from(b & 0xf)]));
            }
        }
        start = at + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// Where the first byte of `bytes` that needs an escape is: eight bytes at a
/// time, then one by one.
#[inline]
fn first_escape(bytes: &[u8]) -> Option<usize> {
    let words = bytes.chunks_exact(8);
    let tail = words.remainder();
    for (n, word) in words.enumerate() {
        let mut w = [0u8; 8];
        w.copy_from_slice(word);
        if needs_escape(u64::from_le_bytes(w)) {
            return word.iter().position(|&b| escaped(b)).map(|k| n * 8 + k);
        }
    }
    let done = bytes.len() - tail.len();
    tail.iter().position(|&b| escaped(b)).map(|k| done + k)
}

#[inline(always)]
fn escaped(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// Whether any of the eight bytes of `w` is below 0x20, `"` or `\`: the
/// exact tests for a zero byte and for a byte below a bound, on all eight
/// bytes at once.
#[inline(always)]
fn needs_escape(w: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    let below_space = w.wrapping_sub(ONES * 0x20) & !w & HIGH;
    (below_space | zero(w ^ (ONES * u64::from(b'"'))) | zero(w ^ (ONES * u64::from(b'\\')))) != 0
}

#[cfg(test)]
mod tests {
    use super::{needs_escape, string};

    #[test]
    fn the_word_test_agrees_with_each_byte() {
        let bytewise = |w: [u8; 8]| w.iter().any(|&b| b < 0x20 || b == b'"' || b == b'\\');
        for b in 0..=255u8 {
            for at in 0..8 {
                for fill in [b'a', 0xc3, 0x7f, b'!', b'#', b'[', b']'] {
                    let mut w = [fill; 8];
                    w[at] = b;
                    assert_eq!(needs_escape(u64::from_le_bytes(w)), bytewise(w), "{w:?}");
                }
            }
        }
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let w = x.to_le_bytes();
            assert_eq!(needs_escape(x), bytewise(w), "{w:?}");
        }
    }

    fn escaped(s: &str) -> String {
        let mut out = String::new();
        string(&mut out, s);
        out
    }

    #[test]
    fn escapes_as_serde_json_does() {
        let every_ascii: String = (0..128u8).map(char::from).collect();
        for s in [
            "",
            "plain",
            "quote \" and \\ backslash",
            "\u{0}\u{1}\u{8}\t\n\u{b}\u{c}\r\u{1f} \u{7f}",
            "Zé 💡 \"end\"",
            "\\",
            "a long run of text before \"it\" and after\n",
            &every_ascii,
            &every_ascii[3..],
        ] {
            let want = serde_json::to_string(s).expect("a string serializes");
            assert_eq!(escaped(s), want, "{s:?}");
        }
    }
}
