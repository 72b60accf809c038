//! Text encoding: UTF-8 (with or without BOM), UTF-16 or UTF-32 announced by
//! a byte order mark (turned into UTF-8 as the file is read), or a legacy
//! code page.
//!
//! The encoding is decided per game: a game whose bytes are valid UTF-8 is
//! UTF-8. At the first game that is not, the file's legacy encoding is chosen
//! from up to [`SAMPLE`] bytes starting there; a later game that is not valid
//! UTF-8 keeps it, unless chardetng is sure the game is in another one or the
//! file's encoding would give it mixed-script words (`Cafй`). Every change is
//! named in an `encoding` note. The first choice:
//! - text that is valid UTF-8 apart from a few broken sequences (at most one
//!   bad sequence per 64 valid multi-byte characters) stays UTF-8, the bad
//!   bytes replaced, with a note giving the first bad byte's offset;
//! - anything else goes to `chardetng`, which names a legacy encoding
//!   (Windows-1252, Windows-1251, IBM866, ...), and the file is decoded with it;
//!   an East Asian multi-byte guess falls back to Windows-1252.

use super::TextEncoding;
use chardetng::EncodingDetector;

/// Bytes looked at to choose an encoding.
pub const SAMPLE: usize = 1 << 20;

/// The byte order mark of UTF-8.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Chooses the encoding for `sample` (bytes from the first non-UTF-8 game on).
pub fn detect(sample: &[u8]) -> TextEncoding {
    let sample = &sample[..sample.len().min(SAMPLE)];
    let (good_multibyte, bad) = utf8_census(sample);
    if bad > 0 && good_multibyte >= 64 * bad {
        return TextEncoding::Utf8;
    }
    let mut det = EncodingDetector::new();
    det.feed(sample, true);
    let enc = det.guess(None, true);
    if enc == encoding_rs::UTF_8 {
        TextEncoding::Utf8
    } else if is_cjk(enc) {
        // Draughts archives come from European and ex-Soviet sources; a
        // multi-byte East Asian guess on a few accented letters (a lone `°`
        // reads as Shift_JIS) is a misfire: fall back to Windows-1252.
        TextEncoding::Legacy(encoding_rs::WINDOWS_1252)
    } else {
        TextEncoding::Legacy(enc)
    }
}

fn is_cjk(e: &'static encoding_rs::Encoding) -> bool {
    [
        encoding_rs::SHIFT_JIS,
        encoding_rs::EUC_JP,
        encoding_rs::ISO_2022_JP,
        encoding_rs::EUC_KR,
        encoding_rs::GBK,
        encoding_rs::GB18030,
        encoding_rs::BIG5,
    ]
    .contains(&e)
}

/// Counts valid multi-byte UTF-8 characters and invalid sequences.
fn utf8_census(mut bytes: &[u8]) -> (usize, usize) {
    let mut good = 0;
    let mut bad = 0;
    loop {
        match std::str::from_utf8(bytes) {
            Ok(s) => {
                good += s.chars().filter(|c| !c.is_ascii()).count();
                return (good, bad);
            }
            Err(e) => {
                let (ok, rest) = bytes.split_at(e.valid_up_to());
                good += std::str::from_utf8(ok)
                    .map_or(0, |s| s.chars().filter(|c| !c.is_ascii()).count());
                bad += 1;
                let skip = e.error_len().unwrap_or(rest.len()).max(1);
                bytes = &rest[skip.min(rest.len())..];
            }
        }
    }
}

/// A byte order mark of UTF-16 or UTF-32 at the start of `b`: the encoding
/// and the mark's length.
pub fn wide_bom(b: &[u8]) -> Option<(Wide, usize)> {
    if b.starts_with(&[0xFF, 0xFE, 0, 0]) {
        Some((Wide::Utf32 { big_endian: false }, 4))
    } else if b.starts_with(&[0, 0, 0xFE, 0xFF]) {
        Some((Wide::Utf32 { big_endian: true }, 4))
    } else if b.starts_with(&[0xFF, 0xFE]) {
        Some((Wide::Utf16 { big_endian: false }, 2))
    } else if b.starts_with(&[0xFE, 0xFF]) {
        Some((Wide::Utf16 { big_endian: true }, 2))
    } else {
        None
    }
}

/// A wide encoding announced by a byte order mark; the reader turns it into UTF-8.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wide {
    /// UTF-16.
    Utf16 {
        /// Big-endian byte order.
        big_endian: bool,
    },
    /// UTF-32.
    Utf32 {
        /// Big-endian byte order.
        big_endian: bool,
    },
}

impl Wide {
    /// `UTF-16LE`, `UTF-32BE`, ...
    pub fn name(self) -> &'static str {
        match self {
            Wide::Utf16 { big_endian: false } => "UTF-16LE",
            Wide::Utf16 { big_endian: true } => "UTF-16BE",
            Wide::Utf32 { big_endian: false } => "UTF-32LE",
            Wide::Utf32 { big_endian: true } => "UTF-32BE",
        }
    }
    fn unit(self) -> usize {
        match self {
            Wide::Utf16 { .. } => 2,
            Wide::Utf32 { .. } => 4,
        }
    }
}

/// Turns a wide-encoded byte stream into UTF-8, piece by piece.
#[derive(Debug)]
pub struct WideDecoder {
    wide: Wide,
    /// Bytes of an incomplete unit (or an unpaired high surrogate) carried over.
    carry: Vec<u8>,
}

impl WideDecoder {
    /// A decoder of `wide` text, with nothing carried over yet.
    pub fn new(wide: Wide) -> WideDecoder {
        WideDecoder {
            wide,
            carry: Vec::new(),
        }
    }
    /// Decodes `raw` (after what came before), appending UTF-8 to `out`; at
    /// the end (`last`), an incomplete unit becomes U+FFFD.
    pub fn decode(&mut self, raw: &[u8], out: &mut Vec<u8>, last: bool) {
        self.carry.extend_from_slice(raw);
        let unit = self.wide.unit();
        let whole = self.carry.len() / unit * unit;
        let mut units = self.carry[..whole].chunks_exact(unit).peekable();
        let mut used = 0;
        let mut buf = [0u8; 4];
        while let Some(u) = units.next() {
            let c = match self.wide {
                Wide::Utf32 { big_endian } => {
                    let v = if big_endian {
                        u32::from_be_bytes([u[0], u[1], u[2], u[3]])
                    } else {
                        u32::from_le_bytes([u[0], u[1], u[2], u[3]])
                    };
                    used += 4;
                    char::from_u32(v).unwrap_or('\u{FFFD}')
                }
                Wide::Utf16 { big_endian } => {
                    let v = |u: &[u8]| {
                        if big_endian {
                            u16::from_be_bytes([u[0], u[1]])
                        } else {
                            u16::from_le_bytes([u[0], u[1]])
                        }
                    };
                    let hi = v(u);
                    if (0xD800..0xDC00).contains(&hi) {
                        match units.peek() {
                            None if !last => break, // wait for the low surrogate
                            Some(n) if (0xDC00..0xE000).contains(&v(n)) => {
                                let lo = v(n);
                                units.next();
                                used += 4;
                                let c = 0x10000
                                    + ((u32::from(hi) - 0xD800) << 10)
                                    + (u32::from(lo) - 0xDC00);
                                char::from_u32(c).unwrap_or('\u{FFFD}')
                            }
                            _ => {
                                used += 2;
                                '\u{FFFD}'
                            }
                        }
                    } else {
                        used += 2;
                        char::from_u32(u32::from(hi)).unwrap_or('\u{FFFD}')
                    }
                }
            };
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
        self.carry.drain(..used);
        if last && !self.carry.is_empty() {
            out.extend_from_slice("\u{FFFD}".as_bytes());
            self.carry.clear();
        }
    }
}

/// How much `text` looks like mojibake: the words that no real name has,
/// either mixing ASCII letters with Cyrillic ones (`Cafй`), or made mostly of
/// accented Latin letters (`Ìèõàëü÷åíêî`, Cyrillic read as Windows-1252).
pub fn implausible_words(text: &str) -> usize {
    text.split(|c: char| !c.is_alphabetic())
        .filter(|w| {
            let (mut ascii, mut cyrillic, mut accented, mut all) = (0, 0, 0, 0);
            for c in w.chars() {
                all += 1;
                if c.is_ascii_alphabetic() {
                    ascii += 1;
                } else if ('\u{0400}'..='\u{04FF}').contains(&c) {
                    cyrillic += 1;
                } else if ('\u{00C0}'..='\u{024F}').contains(&c) {
                    accented += 1;
                }
            }
            (ascii > 0 && cyrillic > 0) || (all >= 3 && accented * 2 > all)
        })
        .count()
}

/// The legacy encoding chardetng finds for `bytes` alone, and whether it is sure.
pub fn guess_one(bytes: &[u8]) -> (TextEncoding, bool) {
    let mut det = EncodingDetector::new();
    det.feed(bytes, true);
    let (enc, sure) = det.guess_assess(None, true);
    if enc == encoding_rs::UTF_8 {
        (TextEncoding::Utf8, sure)
    } else if is_cjk(enc) {
        (TextEncoding::Legacy(encoding_rs::WINDOWS_1252), false)
    } else {
        (TextEncoding::Legacy(enc), sure)
    }
}

/// Offset of the first byte that is not valid UTF-8, if any.
pub fn first_invalid_utf8(bytes: &[u8]) -> Option<usize> {
    std::str::from_utf8(bytes).err().map(|e| e.valid_up_to())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cyrillic_code_pages_are_told_apart() {
        let text = "[White \"Сергей Фадеев\"]\n[Black \"Михальченко Иван\"]\n[Event \"Первенство СССР по шашкам\"]\n";
        let (cp1251, _, _) = encoding_rs::WINDOWS_1251.encode(text);
        assert_eq!(
            detect(&cp1251),
            TextEncoding::Legacy(encoding_rs::WINDOWS_1251)
        );
        let (cp866, _, _) = encoding_rs::IBM866.encode(text);
        assert_eq!(detect(&cp866), TextEncoding::Legacy(encoding_rs::IBM866));
        let latin = "[White \"Gérard Müller\"]\n[Event \"40° Campionato Italiano\"]\n";
        let (cp1252, _, _) = encoding_rs::WINDOWS_1252.encode(latin);
        assert_eq!(
            detect(&cp1252),
            TextEncoding::Legacy(encoding_rs::WINDOWS_1252)
        );
    }

    #[test]
    fn utf8_with_a_few_broken_bytes_stays_utf8() {
        let mut bytes = "Михальченко Иван Сергеевич ".repeat(10).into_bytes();
        bytes.extend_from_slice(b"\xd0?.");
        assert_eq!(detect(&bytes), TextEncoding::Utf8);
        assert_eq!(first_invalid_utf8(&bytes), Some(bytes.len() - 3));
    }
}
