//! Compressed and archived input, told by content, not by name (issue 24).
//!
//! A file's first bytes say what it is: a gzip, zstd, bzip2 or xz stream is
//! decompressed on the fly (memory bounded as for plain files: the reader
//! never holds more than a game); a zip archive is walked member by member; a
//! tar archive, plain or compressed, the same. A member is named
//! `archive.zip!path/inside.pdn`. A stream that breaks is an error at the
//! compressed byte where it broke, after the games before it; a stream that
//! expands past [`BOMB_FLOOR`] bytes and more than [`BOMB_RATIO`] times the
//! compressed bytes read is refused as a decompression bomb, never read
//! further. Folders take the compressed forms of the files they read and
//! the archives ([`wanted`]).

use crate::pdn::sniff::{is_tar, is_zip, Compression};
use std::io::{self, Read};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Past this many decompressed bytes, a stream may expand at most
/// [`BOMB_RATIO`] times its compressed size.
pub(crate) const BOMB_FLOOR: u64 = 256 << 20;
/// The most a stream may expand past [`BOMB_FLOOR`]: PDN compresses about
/// 4 to 20 times; 1,000 is far past any real archive.
pub(crate) const BOMB_RATIO: u64 = 1000;

/// Counts the bytes read through it, for the messages and the bomb check.
struct Counted<R> {
    inner: R,
    read: Arc<AtomicU64>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// A decoder's output, checked: its errors say where the compressed stream
/// broke, and it refuses to expand past the bomb limits.
pub(crate) struct Guarded<R> {
    inner: R,
    what: String,
    compressed: Arc<AtomicU64>,
    out: u64,
}

impl<R: Read> Read for Guarded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!(
                    "{} broken at compressed byte {} (after {} bytes of text): {e}",
                    // Its control characters escaped, as every name printed is (issue 54).
                    crate::pdn::visible(&self.what),
                    self.compressed.load(Ordering::Relaxed),
                    self.out
                ),
            )
        })?;
        self.out += n as u64;
        let compressed = self.compressed.load(Ordering::Relaxed).max(1);
        if self.out > BOMB_FLOOR && self.out / compressed > BOMB_RATIO {
            return Err(io::Error::other(format!(
                "{} refused as a decompression bomb: {} bytes of text from {compressed} compressed bytes \
                 (more than {BOMB_RATIO} times, past {} MiB)",
                self.what,
                self.out,
                BOMB_FLOOR >> 20
            )));
        }
        Ok(n)
    }
}

/// `src` (whose compressed size so far `compressed` counts) decoded as
/// `c`, guarded.
fn decoder<'a, R: Read + 'a>(
    c: Compression,
    src: R,
    what: String,
    padding: Padding,
) -> io::Result<Guarded<Box<dyn Read + 'a>>> {
    let compressed = Arc::new(AtomicU64::new(0));
    let counted = Counted {
        inner: src,
        read: Arc::clone(&compressed),
    };
    let inner: Box<dyn Read + 'a> = match c {
        Compression::Gzip => Box::new(GzMembers {
            dec: Some(flate2::bufread::GzDecoder::new(io::BufReader::new(counted))),
            padding,
        }),
        Compression::Zstd => Box::new(zstd::stream::read::Decoder::new(counted)?),
        Compression::Bzip2 => Box::new(bzip2::read::MultiBzDecoder::new(counted)),
        Compression::Xz => Box::new(liblzma::read::XzDecoder::new_multi_decoder(counted)),
    };
    Ok(Guarded {
        inner,
        what,
        compressed,
        out: 0,
    })
}

/// NUL bytes found after the last complete gzip member, counted (read as
/// `zcat` reads them: padding, ignored, said in a note).
pub(crate) type Padding = Arc<AtomicU64>;

/// A gzip file's members, one after another (as `zcat` reads them), then
/// its end; NUL bytes after a complete member (the padding some tools and
/// tapes add) end the stream too, counted in `padding`; anything else after
/// a member is an error (trailing garbage).
struct GzMembers<R: io::BufRead> {
    dec: Option<flate2::bufread::GzDecoder<R>>,
    padding: Padding,
}

impl<R: io::BufRead> Read for GzMembers<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let Some(d) = self.dec.as_mut() else {
                return Ok(0);
            };
            if buf.is_empty() {
                return Ok(0);
            }
            let n = d.read(buf)?;
            if n > 0 {
                return Ok(n);
            }
            // A member ended: what follows it?
            let Some(d) = self.dec.take() else {
                return Ok(0);
            };
            let mut src = d.into_inner();
            let first = match src.fill_buf()?.first() {
                None => return Ok(0),
                Some(b) => *b,
            };
            if first != 0 {
                // Another member (its header is checked as it is read).
                self.dec = Some(flate2::bufread::GzDecoder::new(src));
                continue;
            }
            loop {
                let rest = src.fill_buf()?;
                if rest.is_empty() {
                    return Ok(0);
                }
                let zeros = rest.iter().take_while(|&&b| b == 0).count();
                let whole = zeros == rest.len();
                self.padding.fetch_add(zeros as u64, Ordering::Relaxed);
                src.consume(zeros);
                if !whole {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        "bytes after the end of the gzip stream that are neither a gzip member nor NUL padding",
                    ));
                }
            }
        }
    }
}

/// A member's bytes, guarded against a bomb: at most [`BOMB_RATIO`] times
/// its compressed size past [`BOMB_FLOOR`].
pub(crate) fn member<R: Read>(src: R, compressed: u64, what: String) -> Guarded<R> {
    Guarded {
        inner: src,
        what,
        compressed: Arc::new(AtomicU64::new(compressed)),
        out: 0,
    }
}

/// What an input is, once its first bytes are read.
pub(crate) enum Opened<'a> {
    /// Text (decompressed if it was compressed), its first bytes read again
    /// first, and the NUL padding found after a gzip stream (once read).
    Text(Box<dyn Read + 'a>, Vec<u8>, Padding),
    /// A tar archive (decompressed if it was compressed).
    Tar(Box<dyn Read + 'a>),
    /// A zip archive.
    Zip,
}

/// Bytes looked at to tell what an input is.
pub(crate) const PROBE: usize = 8 << 10;

/// A stream that already broke: its error, once, then nothing.
struct Broken(Option<io::Error>);

impl Read for Broken {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        match self.0.take() {
            Some(e) => Err(e),
            None => Ok(0),
        }
    }
}

/// Tells what `src` is by its first bytes and opens it so. `name`: what the
/// messages call it. `archives`: whether an archive is walked here (members
/// are never archives of their own).
pub(crate) fn open<'a>(
    mut src: Box<dyn Read + 'a>,
    name: &str,
    archives: bool,
) -> io::Result<Opened<'a>> {
    // A source that breaks within its first bytes (a small zip member
    // whose CRC-32 does not match) keeps what it gave before the break, as
    // a decoder's first bytes do below: the games there are read, then the
    // error is reported.
    let mut head = Vec::with_capacity(PROBE);
    if let Err(e) = (&mut src).take(PROBE as u64).read_to_end(&mut head) {
        if head.is_empty() {
            return Err(e);
        }
        src = Box::new(Broken(Some(e)));
    }
    let padding = Padding::default();
    if archives && is_zip(&head) {
        return Ok(Opened::Zip);
    }
    let (text, head): (Box<dyn Read + 'a>, Vec<u8>) = match Compression::of(&head) {
        Some(c) => {
            let mut d: Box<dyn Read + 'a> = Box::new(decoder(
                c,
                io::Cursor::new(head).chain(src),
                format!("{name}: the {} stream", c.name()),
                Arc::clone(&padding),
            )?);
            // A stream that breaks within its first bytes keeps what it gave
            // before the break: the games there are read, then the error is
            // reported (issue 40: a .pdn.gz with its trailer cut lost them all).
            let mut inner = Vec::with_capacity(PROBE);
            match (&mut d).take(PROBE as u64).read_to_end(&mut inner) {
                Ok(_) => (d, inner),
                Err(e) if inner.is_empty() => return Err(e),
                Err(e) => (Box::new(Broken(Some(e))) as Box<dyn Read + 'a>, inner),
            }
        }
        None => (src, head),
    };
    if archives && is_tar(&head) {
        return Ok(Opened::Tar(Box::new(io::Cursor::new(head).chain(text))));
    }
    Ok(Opened::Text(text, head, padding))
}

/// The extensions of text files read in folders.
const TEXT: [&str; 3] = ["pdn", "pgn", "txt"];
/// The extensions of compressed files.
const COMPRESSED: [&str; 4] = ["gz", "zst", "bz2", "xz"];

/// Whether a file of this name is read in a folder or an archive: a `.pdn`,
/// `.pgn` or `.txt` file, plain or compressed (`.pdn.gz`, `.pgn.zst`,
/// `.txt.xz`, `.pdn.bz2`), and in folders (`archives`) also `.zip`, `.tar`,
/// `.tgz`, `.tar.gz`, `.tar.zst`, `.tar.bz2`, `.tar.xz`.
pub(crate) fn wanted(name: &str, archives: bool) -> bool {
    let lower = name.to_ascii_lowercase();
    if !lower.contains('.') {
        return false;
    }
    let mut parts = lower.rsplit('.');
    let Some(last) = parts.next() else {
        return false;
    };
    if TEXT.contains(&last) {
        return true;
    }
    let before = parts.next();
    if COMPRESSED.contains(&last) && before.is_some_and(|b| TEXT.contains(&b)) {
        return true;
    }
    archives
        && (matches!(last, "zip" | "tar" | "tgz" | "tbz2" | "txz")
            || (COMPRESSED.contains(&last) && before == Some("tar")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_in_folders_and_archives() {
        for n in [
            "a.pdn",
            "a.PGN",
            "a.txt",
            "a.pdn.gz",
            "a.pgn.zst",
            "a.txt.xz",
            "a.pdn.bz2",
        ] {
            assert!(wanted(n, false) && wanted(n, true), "{n}");
        }
        for n in [
            "a.zip",
            "a.tar",
            "a.tgz",
            "a.tar.gz",
            "a.tar.zst",
            "a.tar.xz",
            "a.TAR.BZ2",
        ] {
            assert!(!wanted(n, false) && wanted(n, true), "{n}");
        }
        for n in ["a.gz", "a.csv.gz", "a.html", "pdn", "a.pdn.bak"] {
            assert!(!wanted(n, true), "{n}");
        }
    }

    #[test]
    fn magic_numbers() {
        assert_eq!(Compression::of(&[0x1f, 0x8b, 8]), Some(Compression::Gzip));
        assert_eq!(
            Compression::of(&[0x28, 0xb5, 0x2f, 0xfd]),
            Some(Compression::Zstd)
        );
        assert_eq!(Compression::of(b"BZh9"), Some(Compression::Bzip2));
        assert_eq!(Compression::of(b"BZhx"), None);
        assert_eq!(
            Compression::of(&[0xfd, b'7', b'z', b'X', b'Z', 0]),
            Some(Compression::Xz)
        );
        assert_eq!(Compression::of(b"[Event"), None);
        assert!(is_zip(b"PK\x03\x04rest") && !is_zip(b"PK"));
    }

    #[test]
    fn a_bomb_is_refused_before_it_is_read_whole() {
        // 300 MiB of zeros from a tiny stream: refused once past the floor.
        let zeros = io::repeat(0).take(300 << 20);
        let mut g = member(zeros, 1000, "bomb".into());
        let mut buf = vec![0u8; 1 << 20];
        let mut total = 0u64;
        let err = loop {
            match g.read(&mut buf) {
                Ok(0) => panic!("read to the end"),
                Ok(n) => total += n as u64,
                Err(e) => break e,
            }
        };
        assert!(err.to_string().contains("decompression bomb"), "{err}");
        assert!(total <= BOMB_FLOOR + (1 << 20));
    }
}
