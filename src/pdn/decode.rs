//! Text encoding of a file: UTF-8 (with or without BOM), or a legacy code page.
//!
//! The decision is made once per file, at the first game whose bytes are not
//! valid UTF-8, from up to [`SAMPLE`] bytes starting there:
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
