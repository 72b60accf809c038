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

use super::vocab::TextEncoding;
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
    let enc = guess_assess(sample).0;
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

/// chardetng's guess for `bytes`, and whether it is sure, from the lines that
/// can change it ([`telling_lines`]).
fn guess_assess(bytes: &[u8]) -> (&'static encoding_rs::Encoding, bool) {
    let mut det = EncodingDetector::new();
    let mut lines = telling_lines(bytes).peekable();
    while let Some(range) = lines.next() {
        det.feed(&bytes[range], lines.peek().is_none());
    }
    det.guess_assess(None, true)
}

/// A line of printable ASCII, tabs and carriage returns only.
#[inline]
fn plain_line(line: &[u8]) -> bool {
    line.iter()
        .all(|&b| (0x20..0x7f).contains(&b) || b == b'\t' || b == b'\r')
}

/// The parts of `bytes` that chardetng (0.1.17, pinned) is fed, in order: all
/// of it but the lines of plain ASCII ([`plain_line`], with their `\n`) after
/// the first line holding a byte above 0x7F, except the last line, always
/// fed. Such a line changes none of its candidates' scores or states: each
/// single-byte candidate scores only pairs with a non-ASCII byte, its case,
/// word and punctuation states are the same after every `\n`, and ASCII
/// bytes never disqualify it (class 0, 1, 100 or a Latin letter's); the
/// multi-byte decoders (UTF-8, ISO-2022-JP, Shift_JIS, EUC-JP, EUC-KR, Big5,
/// GBK) are back in their ASCII state after every `\n` that did not
/// disqualify them, and stay there over plain ASCII; the detector itself only
/// counts non-ASCII bytes once one is seen. So the guess is the one of the
/// whole text (`tests`: on every corpus and on mixed code pages), from far
/// fewer bytes: tags with a name, not movetext. The first line with a byte
/// above 0x7F and all before it are fed as they are (the detector keeps the
/// two bytes before the first such byte as context).
fn telling_lines(bytes: &[u8]) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
    let head = match bytes.iter().position(|&b| b >= 0x80) {
        Some(p) => memchr::memchr(b'\n', &bytes[p..]).map_or(bytes.len(), |n| p + n + 1),
        None => bytes.len(),
    };
    let mut at = head;
    let mut run: Option<std::ops::Range<usize>> = Some(0..head);
    std::iter::from_fn(move || loop {
        if at >= bytes.len() {
            return run.take();
        }
        let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |n| at + n + 1);
        let line = at..end;
        at = end;
        let keep = end == bytes.len() || !plain_line(&bytes[line.clone()][..line.len() - 1]);
        match (&mut run, keep) {
            (Some(r), true) if r.end == line.start => r.end = line.end,
            // Runs are never empty: the head holds a line, and so does each line.
            (_, true) => {
                if let Some(done) = run.replace(line) {
                    return Some(done);
                }
            }
            (_, false) => {}
        }
    })
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
pub(crate) fn wide_bom(b: &[u8]) -> Option<(Wide, usize)> {
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

/// [`implausible_words`] of `bytes` decoded as `enc`, from the lines that
/// hold a byte above 0x7F only (issue 65: the whole game was decoded and
/// read, 2.6 % of `check` on the real tree). In an encoding whose bytes
/// 0x00-0x7F are always ASCII (all but UTF-16 and ISO-2022-JP) a line of
/// such bytes is ASCII words, which are plausible; no word crosses a line
/// (`\n` is no letter, and never the second byte of a character); and a line
/// decodes alone as it does within the text (a character cut by `\n` is
/// U+FFFD either way).
pub fn implausible_words_in(enc: TextEncoding, bytes: &[u8]) -> usize {
    let ascii_compatible = match enc {
        TextEncoding::Utf8 => true,
        TextEncoding::Legacy(e) => e.is_ascii_compatible(),
    };
    if !ascii_compatible {
        return implausible_words(&enc.decode(bytes));
    }
    bytes
        .split(|&b| b == b'\n')
        .filter(|line| !line.is_ascii())
        .map(|line| implausible_words(&enc.decode(line)))
        .sum()
}

/// The legacy encoding chardetng finds for `bytes` alone, and whether it is sure.
pub fn guess_one(bytes: &[u8]) -> (TextEncoding, bool) {
    let (enc, sure) = guess_assess(bytes);
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

    /// Reading only the lines with a byte above 0x7F counts the words of
    /// the whole text, in single-byte, multi-byte and stateful encodings,
    /// on texts of ASCII lines, lines of any bytes and characters cut by a
    /// line's end.
    #[test]
    fn implausible_words_of_the_non_ascii_lines_are_those_of_the_text() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed = crate::position::splitmix(seed);
            seed
        };
        let pieces: [&[u8]; 11] = [
            b"[White \"Kaspar\"]\n",
            b"1. 32-28 19-23 {a comment}\n",
            b"\xc0\xe1\xe0\xe9 ",
            b"Caf\xe9 \xd0\xf3\xf1",
            b"\x82\xa0\x82",
            b"\n",
            b"\xe4\xbd\xa0\xe5",
            b"\x1b$B",
            // Cyrillic in ISO-2022-JP's JIS X 0208 (from ASCII bytes), then ASCII.
            b"'!'\"'#",
            b"\x1b(Bab",
            b"ab\xff\xfe",
        ];
        let encodings = [
            TextEncoding::Utf8,
            TextEncoding::Legacy(encoding_rs::WINDOWS_1252),
            TextEncoding::Legacy(encoding_rs::WINDOWS_1251),
            TextEncoding::Legacy(encoding_rs::KOI8_R),
            TextEncoding::Legacy(encoding_rs::SHIFT_JIS),
            TextEncoding::Legacy(encoding_rs::GBK),
            TextEncoding::Legacy(encoding_rs::EUC_KR),
            TextEncoding::Legacy(encoding_rs::ISO_2022_JP),
        ];
        let mut some = 0;
        for _ in 0..400 {
            let mut text = Vec::new();
            for _ in 0..next() % 24 {
                let p = pieces[(next() % pieces.len() as u64) as usize];
                text.extend_from_slice(p);
                if next() % 5 == 0 {
                    text.push((next() % 256) as u8);
                }
            }
            for enc in encodings {
                let whole = implausible_words(&enc.decode(&text));
                assert_eq!(implausible_words_in(enc, &text), whole, "{enc:?} {text:?}");
                some += usize::from(whole > 0);
            }
        }
        assert!(some > 100, "{some}");
    }

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

    /// chardetng's guess from every byte, as before [`telling_lines`].
    fn guess_from_all(bytes: &[u8]) -> (&'static encoding_rs::Encoding, bool) {
        let mut det = EncodingDetector::new();
        det.feed(bytes, true);
        det.guess_assess(None, true)
    }

    /// The guess from the telling lines is the guess from all the bytes.
    fn same_guess(bytes: &[u8], what: &str) {
        assert_eq!(guess_assess(bytes), guess_from_all(bytes), "{what}");
        // The parts fed are in order, apart, and end at the end.
        let parts: Vec<_> = telling_lines(bytes).collect();
        assert!(parts.windows(2).all(|w| w[0].end < w[1].start), "{what}");
        assert_eq!(parts.last().map(|r| r.end), Some(bytes.len()), "{what}");
    }

    /// Text in `enc` with plain ASCII lines (movetext, tags) between lines
    /// with names, in the ways lines start and end in real files.
    fn mixed(enc: &'static encoding_rs::Encoding, names: &[&str], seed: usize) -> Vec<u8> {
        let plain = [
            "1. 32-28 19-23 2. 28x19 14x23 3. 37-32 10-14",
            "[Event \"Open\"]",
            "",
            "\t{ a comment } 2-0",
            "[Result \"1-1\"]\r",
            "C",
        ];
        let mut text = Vec::new();
        for (i, name) in names.iter().cycle().take(40).enumerate() {
            let k = (i * 7 + seed) % 5;
            let (bytes, _, _) = enc.encode(name);
            match k {
                0 => text.extend_from_slice(&bytes),
                1 => {
                    text.extend_from_slice(b"[White \"");
                    text.extend_from_slice(&bytes);
                    text.extend_from_slice(b"\"]");
                }
                2 => {
                    text.extend_from_slice(b"C ");
                    text.extend_from_slice(&bytes);
                    text.push(b'\r');
                }
                3 => {
                    text.extend_from_slice(&bytes);
                    text.extend_from_slice(b" I.");
                }
                _ => {
                    text.extend_from_slice(b"{");
                    text.extend_from_slice(&bytes);
                    text.extend_from_slice(b"} 12. 32x23");
                }
            }
            text.push(b'\n');
            for line in plain.iter().skip((i + seed) % 3).take(1 + (i + seed) % 4) {
                text.extend_from_slice(line.as_bytes());
                text.push(b'\n');
            }
        }
        text
    }

    #[test]
    fn the_telling_lines_give_the_guess_of_every_byte() {
        let names = [
            "Сергей Фадеев",
            "Михальченко",
            "ВАСИЛЬЕВ",
            "Gérard Müller",
            "40° Campionato",
            "Nº 3ª",
            "Œuvre ©",
            "Łódź Šťastný",
            "Ελληνικά",
            "שלום עולם",
            "مرحبا بالعالم",
            "ทดสอบ",
            "日本語のテキスト",
            "ｶﾀｶﾅ",
            "中文文本",
            "한국어 텍스트",
            "繁體中文",
            "Türkçe İğ",
            "Tiếng Việt",
        ];
        let encodings = [
            encoding_rs::UTF_8,
            encoding_rs::WINDOWS_1250,
            encoding_rs::WINDOWS_1251,
            encoding_rs::WINDOWS_1252,
            encoding_rs::WINDOWS_1253,
            encoding_rs::WINDOWS_1254,
            encoding_rs::WINDOWS_1255,
            encoding_rs::WINDOWS_1256,
            encoding_rs::WINDOWS_1257,
            encoding_rs::WINDOWS_1258,
            encoding_rs::WINDOWS_874,
            encoding_rs::IBM866,
            encoding_rs::KOI8_R,
            encoding_rs::KOI8_U,
            encoding_rs::ISO_8859_2,
            encoding_rs::ISO_8859_5,
            encoding_rs::ISO_8859_7,
            encoding_rs::ISO_8859_8,
            encoding_rs::SHIFT_JIS,
            encoding_rs::EUC_JP,
            encoding_rs::ISO_2022_JP,
            encoding_rs::EUC_KR,
            encoding_rs::BIG5,
            encoding_rs::GBK,
        ];
        let mut cases = 0;
        for enc in encodings {
            for (i, name) in names.iter().enumerate() {
                for seed in 0..3 {
                    // One script at a time, and every script at once.
                    let one = mixed(enc, &[name], seed + i);
                    same_guess(&one, &format!("{} {name} {seed}", enc.name()));
                    let all = mixed(enc, &names[i..], seed);
                    same_guess(&all, &format!("{} from {name} {seed}", enc.name()));
                    // Cut anywhere (the last line partial, a character split).
                    for cut in [one.len() / 3, one.len() / 2 + 1, one.len() - 2] {
                        same_guess(&one[..cut], &format!("{} {name} cut {cut}", enc.name()));
                    }
                    cases += 5;
                }
            }
        }
        // Bytes that are not text, and the edges.
        for bytes in [
            &b""[..],
            b"\n",
            b"plain\n",
            b"\xe9",
            b"\xe9\n",
            b"\n\xe9\nabc\n",
            b"a\x1b$B\n\xe9\nabc\n\x1b(B",
            b"\x0c\nabc\n\xe9\nabc",
            b"\xff\xfe\x00\nabc\n\x80\x81\n",
        ] {
            same_guess(bytes, &String::from_utf8_lossy(bytes));
            cases += 1;
        }
        assert!(cases > 6000, "{cases}");
    }

    #[test]
    fn the_telling_lines_give_the_guess_of_every_byte_on_the_corpora() {
        let files = super::super::test_files(&["corpus"], &["corpus", "conformance"]);
        let (mut samples, mut games, mut legacy) = (0, 0, 0);
        for path in &files {
            let Ok(bytes) = std::fs::read(path) else {
                continue;
            };
            let what = path.display().to_string();
            // The sample `detect` looks at, from the first byte that is not UTF-8.
            let from = first_invalid_utf8(&bytes).unwrap_or(0);
            let sample = &bytes[from..bytes.len().min(from + SAMPLE)];
            same_guess(sample, &what);
            samples += 1;
            // What `guess_one` looks at: a game's bytes.
            let starts: Vec<usize> = std::iter::once(0)
                .chain(memchr::memmem::find_iter(&bytes, b"\n[Event").map(|p| p + 1))
                .collect();
            for (k, w) in starts
                .iter()
                .zip(starts.iter().skip(1).chain([&bytes.len()]))
                .enumerate()
            {
                let game = &bytes[*w.0..*w.1];
                if first_invalid_utf8(game).is_some() {
                    legacy += 1;
                    same_guess(game, &format!("{what} game {k}"));
                }
                games += 1;
            }
        }
        assert!(samples > 0 && games > 0, "{samples} {games}");
        let shared = crate::pdn::shared_root();
        if shared.exists() {
            assert!(
                samples > 100 && legacy > 10,
                "{samples} files, {legacy} legacy games"
            );
        }
    }
}
