//! What a source's first bytes say it is, before it is read as PDN: a
//! compressed stream, an archive, a binary file, another format. The
//! pipeline (`batch`, feature `batch`) decodes the first two and skips the
//! rest; the lean [`check_file`](crate::check_file) refuses them all with
//! the reason, rather than reading their bytes as PDN.

/// A compression format, by its magic number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Compression {
    Gzip,
    Zstd,
    Bzip2,
    Xz,
}

impl Compression {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Compression::Gzip => "gzip",
            Compression::Zstd => "zstd",
            Compression::Bzip2 => "bzip2",
            Compression::Xz => "xz",
        }
    }

    /// The format whose magic number `head` starts with.
    pub(crate) fn of(head: &[u8]) -> Option<Compression> {
        if head.starts_with(&[0x1f, 0x8b]) {
            Some(Compression::Gzip)
        } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
            Some(Compression::Zstd)
        } else if head.starts_with(b"BZh") && head.get(3).is_some_and(|b| (b'1'..=b'9').contains(b))
        {
            Some(Compression::Bzip2)
        } else if head.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0]) {
            Some(Compression::Xz)
        } else {
            None
        }
    }
}

/// What a file is when its first bytes (`head`, 512 or more) show it is
/// compressed or an archive: "gzip compressed", "a zip archive", ...; the
/// command line's `--in-place` leaves such files alone.
pub fn packed(head: &[u8]) -> Option<String> {
    match Compression::of(head) {
        Some(c) => Some(format!("{} compressed", c.name())),
        None if is_zip(head) => Some("a zip archive".into()),
        None if is_tar(head) => Some("a tar archive".into()),
        None => None,
    }
}

/// Whether `head` starts a zip archive (a local file header, or the end
/// record of an empty archive).
pub(crate) fn is_zip(head: &[u8]) -> bool {
    head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06")
}

/// Whether `head` (at least 263 bytes) is the first header of a tar archive.
pub(crate) fn is_tar(head: &[u8]) -> bool {
    head.get(257..262) == Some(b"ustar")
}

/// Bytes looked at to tell a binary file.
pub(crate) const BINARY_PROBE: usize = 8 << 10;

/// Why a text's first bytes (`head`) show it is not to be read: NUL bytes in
/// its first 8 KB (and no UTF-16/32 byte order mark) make it binary; other
/// kinds of files are told by [`not_pdn`].
pub(crate) fn not_text(head: &[u8]) -> Option<String> {
    let head = &head[..head.len().min(BINARY_PROBE)];
    if memchr::memchr(0, head).is_some() && crate::pdn::wide_bom(head).is_none() {
        return Some("binary file (NUL bytes in its first 8 KB), not PDN".to_string());
    }
    not_pdn(head).map(|what| format!("{what}, not PDN (told by its first bytes)"))
}

/// What a file is when its first bytes show it is not PDN: an HTML page
/// (a report), XML or SVG (a diagram), a Parquet file, a CSV table, JSON
/// (an array, or an object whose first key has a value: PDN texts kept in
/// JSON strings are not PDN). PDN starts with a tag, a comment, a `%` line
/// or a move, never with these.
pub(crate) fn not_pdn(head: &[u8]) -> Option<&'static str> {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    if head.starts_with(b"PAR1") {
        return Some("a Parquet file");
    }
    let start = head.iter().position(|b| !b.is_ascii_whitespace())?;
    let text = &head[start..head.len().min(start + 64)];
    let lower = text.to_ascii_lowercase();
    if lower.starts_with(b"<!doctype html") || lower.starts_with(b"<html") {
        return Some("an HTML page");
    }
    if lower.starts_with(b"<?xml") || lower.starts_with(b"<svg") {
        return Some("an XML or SVG document");
    }
    if json_start(&head[start..]) {
        return Some("a JSON document");
    }
    let line = head[start..]
        .split(|&b| b == b'\n')
        .next()
        .unwrap_or_default();
    let commas = line.iter().filter(|&&b| b == b',').count();
    if commas >= 3
        && !line
            .iter()
            .any(|b| matches!(b, b'[' | b'{' | b'.' | b'%' | b';'))
    {
        return Some("a CSV table");
    }
    None
}

/// Whether `text` (from its first non-blank byte) opens a JSON document: `[`
/// then a value (`{`, `[`, `"`, a number), or `{` then a quoted key, `:` and
/// a value. A PDN tag is `[` and a name; a PDN comment that opens with a
/// quoted word and a colon goes on with text, not a JSON value.
fn json_start(text: &[u8]) -> bool {
    let skip = |t: &[u8]| -> usize { t.iter().take_while(|b| b.is_ascii_whitespace()).count() };
    let value = |t: &[u8]| -> bool {
        match t.first() {
            Some(b'{' | b'[' | b'"' | b'-' | b'0'..=b'9') => true,
            _ => t.starts_with(b"true") || t.starts_with(b"false") || t.starts_with(b"null"),
        }
    };
    match text.first() {
        Some(b'[') => {
            let rest = &text[1..];
            value(&rest[skip(rest)..])
        }
        Some(b'{') => {
            let rest = &text[1..];
            let rest = &rest[skip(rest)..];
            let Some(key) = rest.strip_prefix(b"\"") else {
                return false;
            };
            let Some(close) = key.iter().position(|&b| b == b'"' || b == b'\n') else {
                return false;
            };
            if key[close] != b'"' {
                return false;
            }
            let after = &key[close + 1..];
            let after = &after[skip(after)..];
            let Some(after) = after.strip_prefix(b":") else {
                return false;
            };
            value(&after[skip(after)..])
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::not_pdn;

    /// Issue 62 item 9: JSON is told by its first bytes, PDN that opens with
    /// a tag, a comment (even a quoted word and a colon) or a move is not.
    #[test]
    fn json_is_not_pdn_and_pdn_is_not_json() {
        for json in [
            &b"{\"games\": [\"[Event \\\"x\\\"]\\n1. c3-d4 *\"]}"[..],
            b"  [\"[Event \\\"x\\\"]\"]",
            b"[{\"file\": \"a.pdn\"}]",
            b"{\"algebraic\":null,\"captured\":0}\n{\"algebraic\":null}\n",
            b"\xEF\xBB\xBF{ \"n\" : 12 }",
        ] {
            assert_eq!(
                not_pdn(json),
                Some("a JSON document"),
                "{}",
                String::from_utf8_lossy(json)
            );
        }
        for pdn in [
            &b"[Event \"x\"]\n1. 32-28 *"[..],
            b"[ Event \"x\"]",
            b"{\"Kelso\": the opening of the day} [Event \"x\"]",
            b"{a comment} 1. 32-28 *",
            b"{\"quoted\"} 1. c3-d4 *",
            b"1. 32-28 19-23 *",
        ] {
            assert_eq!(not_pdn(pdn), None, "{}", String::from_utf8_lossy(pdn));
        }
    }
}
