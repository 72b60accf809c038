//! The Date tag as archives write it (issue 41): one reading for every part
//! of pdnkit (selection, statistics, tournaments, Parquet).
//!
//! - `YYYY.MM.DD` (also with `-` or `/`, one-digit months and days), with
//!   `??` for an unknown part: the standard form, read without a word.
//! - A four-digit field is the year wherever it stands: `25.11.2000`,
//!   `1-1-1965`, `17 april 2009` are read (day first where the fields before
//!   the year are two numbers), each with a `bad-tag` warning that the Date
//!   is not `YYYY.MM.DD`.
//! - `????.??.??`, `0000.00.00`, an empty value or `?`: PDN's own unknown
//!   date, no warning.
//! - A Date with no four-digit field (`03.07.20`) has no year: a warning
//!   says so; the year is unknown everywhere, never year 3.

/// How a Date tag is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DateLayout {
    /// `YYYY.MM.DD`, parts possibly unknown.
    Standard,
    /// The year after the other fields (day first), or among words.
    YearElsewhere,
    /// No four-digit field: no year.
    NoYear,
    /// PDN's unknown date (`????.??.??`, `0000.00.00`, empty).
    Unknown,
}

/// A Date tag, read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PdnDate {
    /// The year, when a four-digit field gives one.
    pub year: Option<u32>,
    /// The month (1-12), when known.
    pub month: Option<u32>,
    /// The day (1-31), when known.
    pub day: Option<u32>,
    /// How the tag is laid out.
    pub(crate) layout: DateLayout,
    /// A field that is a number out of range (`1998.13.01`): only the year is read.
    pub out_of_range: bool,
}

/// A number field within `1..=max`; `Err` when it is a number out of range,
/// `Ok(None)` when it is unknown (`??`, `00`) or a word.
/// The runs of letters, digits and `?` of a Date value.
fn fields_of(text: &str) -> smallvec::SmallVec<[&str; 6]> {
    text.split(|c: char| !c.is_alphanumeric() && c != '?')
        .filter(|f| !f.is_empty())
        .collect()
}

fn part(field: Option<&str>, max: u32) -> Result<Option<u32>, ()> {
    let Some(f) = field else { return Ok(None) };
    if !f.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(None);
    }
    match f.parse::<u32>() {
        Ok(0) => Ok(None),
        Ok(n) if n <= max => Ok(Some(n)),
        _ => Err(()),
    }
}

impl PdnDate {
    /// Reads a Date tag's value.
    pub fn parse(text: &str) -> PdnDate {
        // `yyyy.mm.dd` in digits, as most records write it, is split without
        // a search for separators (issue 65); the fields are the same.
        let b = text.as_bytes();
        let standard = b.len() == 10
            && b[4] == b'.'
            && b[7] == b'.'
            && b.iter()
                .enumerate()
                .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
        if standard {
            return PdnDate::of_fields(&[&text[..4], &text[5..7], &text[8..]]);
        }
        PdnDate::of_fields(&fields_of(text))
    }

    /// The date its fields (the runs of letters, digits and `?`) give.
    fn of_fields(fields: &[&str]) -> PdnDate {
        let unknown = PdnDate {
            year: None,
            month: None,
            day: None,
            layout: DateLayout::Unknown,
            out_of_range: false,
        };
        let is_year = |f: &str| f.len() == 4 && f.bytes().all(|b| b.is_ascii_digit());
        let Some(at) = fields.iter().position(|f| is_year(f)) else {
            // No four-digit field: unknown when nothing but `?`, else no year.
            if fields.iter().all(|f| f.chars().all(|c| c == '?')) {
                return unknown;
            }
            return PdnDate {
                layout: DateLayout::NoYear,
                ..unknown
            };
        };
        let year: u32 = fields[at].parse().unwrap_or(0);
        if at == 0 && year == 0 {
            // `0000.00.00`: PDN's unknown date.
            return unknown;
        }
        let (month, day, layout) = if at == 0 {
            (
                part(fields.get(1).copied(), 12),
                part(fields.get(2).copied(), 31),
                DateLayout::Standard,
            )
        } else if at == 2 {
            // Day first: `25.11.2000`.
            (
                part(fields.get(1).copied(), 12),
                part(fields.first().copied(), 31),
                DateLayout::YearElsewhere,
            )
        } else {
            (Ok(None), Ok(None), DateLayout::YearElsewhere)
        };
        let out_of_range = month.is_err() || day.is_err();
        let month = month.ok().flatten();
        PdnDate {
            year: (year > 0).then_some(year),
            month,
            day: day.ok().flatten().filter(|_| month.is_some()),
            layout,
            out_of_range,
        }
    }

    /// The days it stands for, as `yyyymmdd` numbers: one day, a month, or
    /// the year; `None` when the year is unknown.
    pub fn span(&self) -> Option<(u32, u32)> {
        let y = self.year? * 10000;
        Some(match (self.month, self.day) {
            (Some(m), Some(d)) => (y + m * 100 + d, y + m * 100 + d),
            (Some(m), None) => (y + m * 100 + 1, y + m * 100 + 31),
            (None, _) => (y + 101, y + 1231),
        })
    }

    /// A whole date (year, month and day known, and a real day) as days since
    /// 1970-01-01.
    pub fn days_since_epoch(&self) -> Option<i32> {
        let (y, m, d) = (
            i64::from(self.year?),
            i64::from(self.month?),
            i64::from(self.day?),
        );
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        let len = [
            31,
            if leap { 29 } else { 28 },
            31,
            30,
            31,
            30,
            31,
            31,
            30,
            31,
            30,
            31,
        ];
        if d > len[(m - 1) as usize] {
            return None;
        }
        // Days from the civil date (Howard Hinnant's algorithm).
        let y = if m <= 2 { y - 1 } else { y };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let mp = (m + 9) % 12;
        let doy = (153 * mp + 2) / 5 + d - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        i32::try_from(era * 146_097 + doe - 719_468).ok()
    }

    /// Whether `text` is `YYYY.MM.DD` as it should be, digits or `?` in
    /// place (a quick test: most Dates are, and need no warning).
    pub(crate) fn is_plain(text: &str) -> bool {
        let b = text.as_bytes();
        b.len() == 10
            && b[4] == b'.'
            && b[7] == b'.'
            && b[..4].iter().all(u8::is_ascii_digit)
            && b[..4] != *b"0000"
            && [5, 6, 8, 9].iter().all(|&i| b[i].is_ascii_digit())
            && matches!((b[5], b[6]), (b'0', b'1'..=b'9') | (b'1', b'0'..=b'2'))
            && matches!(
                (b[8], b[9]),
                (b'0', b'1'..=b'9') | (b'1'..=b'2', _) | (b'3', b'0'..=b'1')
            )
    }

    /// The `bad-tag` warning for the Date `text`, if it is not read as it
    /// stands: day first or among words, no year, a part out of range.
    pub fn warning(&self, text: &str) -> Option<String> {
        let shown = crate::pdn::visible(text.trim());
        match self.layout {
            DateLayout::NoYear => Some(format!(
                "Date {shown} has no four-digit year: the year is unknown"
            )),
            DateLayout::YearElsewhere => Some(match (self.year, self.month, self.day) {
                (Some(y), Some(m), Some(d)) => {
                    format!("Date {shown} is not YYYY.MM.DD: read as {y:04}.{m:02}.{d:02}")
                }
                (Some(y), Some(m), None) => {
                    format!("Date {shown} is not YYYY.MM.DD: read as {y:04}.{m:02}.??")
                }
                (Some(y), _, _) => {
                    format!("Date {shown} is not YYYY.MM.DD: read as the year {y:04}")
                }
                _ => format!("Date {shown} is not YYYY.MM.DD"),
            }),
            DateLayout::Standard if self.out_of_range => Some(format!(
                "Date {shown} has a month or day out of range: only the year is read"
            )),
            DateLayout::Standard | DateLayout::Unknown => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 65: a date in the standard layout, read without a search for
    /// separators, is the date its fields give: every `yyyy.mm.dd` with
    /// some years, all months and days from 00 to 99, and near misses.
    #[test]
    fn a_standard_date_reads_as_its_fields() {
        let mut texts = Vec::new();
        for y in ["0000", "0001", "1999", "2024", "9999"] {
            for m in 0..100 {
                for d in (0..100).step_by(7).chain([29, 30, 31, 32]) {
                    texts.push(format!("{y}.{m:02}.{d:02}"));
                }
            }
        }
        texts.extend(
            [
                "2024.1.011",
                "2024-01-01",
                "2024.01.0a",
                "２０２４.01.01",
                "2024.01.01 ",
            ]
            .map(String::from),
        );
        for t in &texts {
            assert_eq!(PdnDate::parse(t), PdnDate::of_fields(&fields_of(t)), "{t}");
        }
    }

    fn span(t: &str) -> Option<(u32, u32)> {
        PdnDate::parse(t).span()
    }

    #[test]
    fn dates_as_archives_write_them() {
        assert_eq!(span("1998.05.17"), Some((19980517, 19980517)));
        assert_eq!(span("2016.5.9"), Some((20160509, 20160509)));
        assert_eq!(span("1998.05.??"), Some((19980501, 19980531)));
        assert_eq!(span("1998.??.??"), Some((19980101, 19981231)));
        assert_eq!(span("1998"), Some((19980101, 19981231)));
        for unknown in ["????.??.??", "0000.00.00", "", "?", "0000"] {
            let d = PdnDate::parse(unknown);
            assert_eq!(
                (d.span(), d.layout, d.warning(unknown)),
                (None, DateLayout::Unknown, None),
                "{unknown:?}"
            );
        }
        // Day first, with `.`, `-` or `/`.
        for t in ["25.11.2000", "25-11-2000", "25/11/2000"] {
            let d = PdnDate::parse(t);
            assert_eq!(d.span(), Some((20001125, 20001125)));
            assert_eq!(
                d.warning(t).unwrap(),
                format!("Date {t} is not YYYY.MM.DD: read as 2000.11.25")
            );
        }
        assert_eq!(span("1.1.1965"), Some((19650101, 19650101)));
        let words = PdnDate::parse("17 april 2009");
        assert_eq!(words.span(), Some((20090101, 20091231)));
        assert!(words
            .warning("17 april 2009")
            .unwrap()
            .ends_with("read as the year 2009"));
        // No four-digit field: no year (never year 3).
        let short = PdnDate::parse("03.07.20");
        assert_eq!((short.span(), short.layout), (None, DateLayout::NoYear));
        assert_eq!(
            short.warning("03.07.20").unwrap(),
            "Date 03.07.20 has no four-digit year: the year is unknown"
        );
        // Out of range: the year alone.
        let bad = PdnDate::parse("1998.13.01");
        assert_eq!(bad.span(), Some((19980101, 19981231)));
        assert!(bad.warning("1998.13.01").is_some());
        assert_eq!(PdnDate::parse("1970.01.02").days_since_epoch(), Some(1));
        // The quick test says yes only where the reading warns of nothing.
        for t in [
            "2016.05.29",
            "1999.12.31",
            "2016.5.29",
            "2016.00.00",
            "0000.00.00",
            "25.11.2000",
            "2016.13.01",
            "2016.01.32",
        ] {
            let quiet = PdnDate::parse(t).warning(t).is_none();
            assert!(!PdnDate::is_plain(t) || quiet, "{t}");
        }
        assert!(PdnDate::is_plain("2016.05.29") && !PdnDate::is_plain("2016.5.29"));
        assert_eq!(PdnDate::parse("2016.02.30").days_since_epoch(), None);
        assert_eq!(PdnDate::parse("2016.02.??").days_since_epoch(), None);
    }
}
