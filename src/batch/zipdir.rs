//! A zip archive's central directory read entry by entry, every entry kept
//! (issue 54): the `zip` crate keeps one member of a name, and its reader of
//! local headers cannot read a member whose sizes follow its data (a data
//! descriptor, as streaming writers make: Java's `ZipOutputStream`, Python's
//! `zipfile` on a pipe, `zip -`). Here the sizes and offsets come from the
//! directory, Zip64 included, so every entry is read; and entries whose data
//! overlap (the overlapping-entry zip bomb: thousands of entries pointing at
//! one member) are found before anything is decompressed.

use std::io::{self, Read, Seek, SeekFrom};

/// One entry of the central directory.
pub(crate) struct Entry {
    /// The name's bytes, as stored.
    pub name: Vec<u8>,
    /// General purpose flags (bit 0: encrypted, bit 11: the name is UTF-8).
    pub flags: u16,
    /// 0: stored, 8: deflated.
    pub method: u16,
    pub crc: u32,
    pub compressed: u64,
    pub size: u64,
    /// Where its local header is.
    pub offset: u64,
    /// Unix mode bits when the archive was made on Unix (a link is not a file).
    pub unix_mode: Option<u32>,
}

impl Entry {
    /// Its name as text: UTF-8 when its bytes are (whatever the flag says:
    /// Info-ZIP's `zip` stores UTF-8 without it), else CP437.
    pub fn name(&self) -> String {
        match std::str::from_utf8(&self.name) {
            Ok(s) => s.to_string(),
            Err(_) => self.name.iter().map(|&b| cp437(b)).collect(),
        }
    }
    /// A folder (its name ends in `/`) or a symbolic link is not a file.
    pub fn is_file(&self) -> bool {
        !self.name.ends_with(b"/")
            && self
                .unix_mode
                .is_none_or(|m| m & 0o170000 == 0 || m & 0o170000 == 0o100000)
    }
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}
fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut x = [0u8; 8];
    x.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(x)
}

fn broken(why: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, why.into())
}

/// Every entry of the central directory, in its order. The end record is
/// looked for from the file's end back: a candidate whose directory does
/// not read (a second end record hidden in the archive's comment, a Zip64
/// locator pointing past the end) gives way to the one before it, so the
/// directory this reader checks is the one any reader can find; the first
/// error is said when none reads.
pub(crate) fn entries<R: Read + Seek>(f: &mut R) -> io::Result<Vec<Entry>> {
    let len = f.seek(SeekFrom::End(0))?;
    let tail = len.min(22 + 65_535);
    f.seek(SeekFrom::Start(len - tail))?;
    let mut buf = Vec::with_capacity(tail as usize);
    f.take(tail).read_to_end(&mut buf)?;
    let mut first_error = None;
    let mut end = buf.len();
    while let Some(at) = buf[..end].windows(4).rposition(|w| w == b"PK\x05\x06") {
        end = at + 3;
        if at + 22 > buf.len() {
            continue;
        }
        match directory(f, &buf, at, len) {
            Ok(entries) => return Ok(entries),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    Err(first_error.unwrap_or_else(|| broken("no end of central directory")))
}

/// The entries of the directory that the end record at `buf[at..]` (the
/// last bytes of a file of `len` bytes) describes.
fn directory<R: Read + Seek>(f: &mut R, buf: &[u8], at: usize, len: u64) -> io::Result<Vec<Entry>> {
    let eocd = &buf[at..at + 22];
    let mut total = u64::from(u16_at(eocd, 10));
    let mut cd_size = u64::from(u32_at(eocd, 12));
    let mut cd_offset = u64::from(u32_at(eocd, 16));
    // Zip64: the locator just before the record gives the Zip64 record.
    if at >= 20 && &buf[at - 20..at - 16] == b"PK\x06\x07" {
        let rec = u64_at(buf, at - 20 + 8);
        if rec.saturating_add(56) > len {
            return Err(broken(
                "Zip64 end of central directory past the end of the file",
            ));
        }
        f.seek(SeekFrom::Start(rec))?;
        let mut z = [0u8; 56];
        f.read_exact(&mut z)?;
        if &z[..4] != b"PK\x06\x06" {
            return Err(broken(
                "Zip64 end of central directory not where its locator says",
            ));
        }
        total = u64_at(&z, 32);
        cd_size = u64_at(&z, 40);
        cd_offset = u64_at(&z, 48);
    }
    if cd_offset.saturating_add(cd_size) > len {
        return Err(broken("central directory past the end of the file"));
    }
    f.seek(SeekFrom::Start(cd_offset))?;
    let mut cd = Vec::new();
    f.take(cd_size).read_to_end(&mut cd)?;
    // An entry takes at least 46 bytes: a count beyond that is a lie.
    let mut out = Vec::with_capacity(total.min(cd.len() as u64 / 46) as usize);
    let mut p = 0usize;
    while p + 46 <= cd.len() && &cd[p..p + 4] == b"PK\x01\x02" {
        let h = &cd[p..p + 46];
        let (n, e, c) = (
            usize::from(u16_at(h, 28)),
            usize::from(u16_at(h, 30)),
            usize::from(u16_at(h, 32)),
        );
        let end = p + 46 + n + e + c;
        if end > cd.len() {
            return Err(broken(format!(
                "central directory entry {} cut short",
                out.len() + 1
            )));
        }
        let made_on_unix = h[5] == 3;
        let mut entry = Entry {
            name: cd[p + 46..p + 46 + n].to_vec(),
            flags: u16_at(h, 8),
            method: u16_at(h, 10),
            crc: u32_at(h, 16),
            compressed: u64::from(u32_at(h, 20)),
            size: u64::from(u32_at(h, 24)),
            offset: u64::from(u32_at(h, 42)),
            unix_mode: made_on_unix.then(|| u32_at(h, 38) >> 16),
        };
        zip64_extra(&mut entry, &cd[p + 46 + n..p + 46 + n + e]);
        out.push(entry);
        p = end;
    }
    if (out.len() as u64) < total.min(u64::from(u32::MAX)) && total != 0xFFFF {
        return Err(broken(format!(
            "central directory holds {} of its {total} entries",
            out.len()
        )));
    }
    Ok(out)
}

/// The Zip64 extra field (id 1): the sizes and offset that did not fit in
/// 32 bits, in that order, each present only when its field is all ones.
fn zip64_extra(entry: &mut Entry, mut extra: &[u8]) {
    while extra.len() >= 4 {
        let (id, n) = (u16_at(extra, 0), usize::from(u16_at(extra, 2)));
        let Some(data) = extra.get(4..4 + n) else {
            return;
        };
        if id == 1 {
            let mut at = 0;
            let mut next = |field: &mut u64| {
                if *field == u64::from(u32::MAX) && at + 8 <= data.len() {
                    *field = u64_at(data, at);
                    at += 8;
                }
            };
            next(&mut entry.size);
            next(&mut entry.compressed);
            next(&mut entry.offset);
            return;
        }
        extra = &extra[4 + n..];
    }
}

impl Entry {
    /// Where its bytes lie in the archive: its local header (30 bytes and
    /// its name), then its data.
    pub fn span(&self) -> (u64, u64) {
        let end = self
            .offset
            .saturating_add(30 + self.name.len() as u64)
            .saturating_add(self.compressed);
        (self.offset, end)
    }
}

/// Why the entries whose bytes lie at `spans` (in directory order) cannot
/// be read as separate members: two whose bytes overlap (the
/// overlapping-entry zip bomb: thousands of entries pointing at one
/// member). An entry that runs past the end of the file overlaps nothing
/// by that alone: it is refused on its own when it is read ([`past_end`]).
pub(crate) fn overlapping(spans: &[(u64, u64)]) -> Option<String> {
    let mut spans: Vec<(u64, u64, usize)> = spans
        .iter()
        .enumerate()
        .map(|(i, &(start, end))| (start, end, i))
        .collect();
    spans.sort_unstable();
    for (a, b) in spans.iter().zip(spans.iter().skip(1)) {
        if b.0 < a.1 {
            return Some(format!(
                "entries {} and {} overlap (possible zip bomb): not read",
                a.2 + 1,
                b.2 + 1
            ));
        }
    }
    None
}

/// The span an entry takes for the overlap check: its own, or none
/// (`(start, start)`) when it runs past the end of a file of `len` bytes
/// (it is refused on its own, never read).
pub(crate) fn readable(span: (u64, u64), len: u64) -> (u64, u64) {
    if past_end(span, len).is_some() {
        (span.0, span.0)
    } else {
        span
    }
}

/// Why the entry whose bytes lie at `span` cannot be read from a file of
/// `len` bytes: it runs past its end.
pub(crate) fn past_end(span: (u64, u64), len: u64) -> Option<String> {
    (span.1 > len).then(|| {
        format!(
            "its data runs past the end of the archive (to byte {} of {len}): not read",
            span.1
        )
    })
}

/// The bytes of one entry, decompressed: its local header is passed over
/// (its sizes may be zero: they are the directory's), the data read as
/// stored or deflated, and its CRC-32 checked at the end.
pub(crate) fn open_entry<'a, R: Read + Seek + 'a>(
    mut f: R,
    e: &Entry,
) -> io::Result<Box<dyn Read + 'a>> {
    if e.flags & 1 != 0 {
        return Err(broken("encrypted: not read"));
    }
    f.seek(SeekFrom::Start(e.offset))?;
    let mut h = [0u8; 30];
    f.read_exact(&mut h)?;
    if &h[..4] != b"PK\x03\x04" {
        return Err(broken("no local header where the directory says"));
    }
    let skip = u64::from(u16_at(&h, 26)) + u64::from(u16_at(&h, 28));
    f.seek(SeekFrom::Current(skip as i64))?;
    let data = f.take(e.compressed);
    let inner: Box<dyn Read + 'a> = match e.method {
        0 => Box::new(data),
        8 => Box::new(flate2::read::DeflateDecoder::new(data)),
        m => return Err(broken(format!("compression method {m} is not supported"))),
    };
    Ok(Box::new(Checked {
        inner: flate2::CrcReader::new(inner),
        crc: e.crc,
        size: e.size,
    }))
}

/// An entry's bytes, checked against its CRC-32 and size when they end.
struct Checked<R: Read> {
    inner: flate2::CrcReader<R>,
    crc: u32,
    size: u64,
}

impl<R: Read> Read for Checked<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n == 0 && !buf.is_empty() {
            let got = self.inner.crc();
            if u64::from(got.amount()) != self.size & 0xFFFF_FFFF || got.sum() != self.crc {
                return Err(broken("its CRC-32 or size does not match the directory"));
            }
        }
        Ok(n)
    }
}

/// A byte of a name in code page 437, as DOS wrote zip names.
fn cp437(b: u8) -> char {
    const HIGH: &str = "ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u{a0}";
    if b < 0x80 {
        char::from(b)
    } else {
        HIGH.chars()
            .nth(usize::from(b - 0x80))
            .unwrap_or('\u{fffd}')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_page_437_has_128_high_letters() {
        assert_eq!(cp437(0x80), 'Ç');
        assert_eq!(cp437(0xE1), 'ß');
        assert_eq!(cp437(0xFF), '\u{a0}');
        assert_eq!(cp437(b'a'), 'a');
    }
}
