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
/// (a report), XML or SVG (a diagram), a Parquet file, a CSV table. PDN
/// starts with a tag, a comment, a `%` line or a move, never with these.
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
