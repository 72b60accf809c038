//! [`Stats`]: a summary with lengths, captures, results and the score
//! after each opening line, merged across files and threads.

use crate::diag::{Code, Severity};
use crate::draw::Termination;
use crate::notation::{write_move, Style};
use crate::pdn::{Game, Outcome};
use crate::replay::GameReport;
use crate::stats::summary::{Counts, Summary};
use std::collections::BTreeMap;

/// Games and White's score after one opening line (the first plies, as
/// written): a value of [`Stats::openings2`] and [`Stats::openings4`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct LineScore {
    /// Games after the opening.
    pub games: u64,
    /// Games with a decisive or drawn declared result.
    pub scored: u64,
    /// White's points counted in half points (win 2, draw 1).
    pub white_half_points: u64,
}

impl LineScore {
    /// White's score in [0, 1] over scored games.
    pub fn white_score(&self) -> Option<f64> {
        (self.scored > 0).then(|| self.white_half_points as f64 / (2.0 * self.scored as f64))
    }
}

/// The first `n` plies of a replayed game (fewer if it is shorter), in the
/// notation its variant's records use (algebraic for Brazilian, Russian and
/// Czech, numbers otherwise): its opening. Empty for a game that does not
/// start from its variant's start position (a problem, a ballot).
pub(crate) fn opening(r: &GameReport, n: usize) -> Vec<String> {
    let Some(v) = r.variant.filter(|v| r.start == Some(v.start())) else {
        return Vec::new();
    };
    let style = Style {
        algebraic: v.algebraic(),
        colon: false,
    };
    r.played
        .iter()
        .take(n)
        .map(|p| write_move(&p.before, &p.mv, style))
        .collect()
}

/// A replayed game's opening lines of 2 and 4 plies, as `variant: moves`
/// ([`opening`]), each where the game is that long.
pub(crate) fn opening_lines(r: &GameReport) -> [Option<String>; 2] {
    let opening = opening(r, 4);
    let v = r.variant.map_or("", |v| v.name());
    [2, 4].map(|n| {
        (opening.len() >= n && r.checked).then(|| format!("{v}: {}", opening[..n].join(" ")))
    })
}

/// What one game adds to a [`Stats`] besides its findings and opening
/// lines: a small record, kept for a game waiting for its copies (issue 62
/// item 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct GameFigures {
    counts: Counts,
    /// Index of its termination in [`Termination::ALL`].
    termination: u8,
    plies: u32,
    captures: u32,
    longest: u32,
    crownings: u32,
    /// White's points of its declared result, in half points.
    points: Option<u8>,
}

impl GameFigures {
    /// Bytes of a record ([`GameFigures::write`]).
    pub(crate) const BYTES: usize = Counts::BYTES + 1 + 4 * 4 + 1;
    /// What `r` adds.
    pub(crate) fn of(r: &GameReport) -> GameFigures {
        GameFigures {
            counts: Counts::of(r),
            termination: Termination::ALL
                .iter()
                .position(|&t| t == r.termination)
                .unwrap_or(Termination::ALL.len() - 1) as u8,
            plies: r.plies,
            captures: r.captures().count() as u32,
            longest: r.longest_capture(),
            crownings: r.crownings(),
            points: match r.declared {
                Some(Outcome::WhiteWins) => Some(2),
                Some(Outcome::Draw) => Some(1),
                Some(Outcome::BlackWins) => Some(0),
                _ => None,
            },
        }
    }
    /// Appends the record to `out`.
    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        self.counts.write(out);
        out.push(self.termination);
        for n in [self.plies, self.captures, self.longest, self.crownings] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        out.push(self.points.unwrap_or(u8::MAX));
    }
    /// The record [`GameFigures::write`] wrote at the start of `b`.
    pub(crate) fn read(b: &[u8]) -> Option<GameFigures> {
        let counts = Counts::read(b)?;
        let b = b.get(Counts::BYTES..Self::BYTES)?;
        let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        Some(GameFigures {
            counts,
            termination: b[0],
            plies: u32_at(1),
            captures: u32_at(5),
            longest: u32_at(9),
            crownings: u32_at(13),
            points: (b[17] != u8::MAX).then(|| b[17].min(2)),
        })
    }
}

/// Counters for a set of games. `merge` adds two of them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Games, verdicts and findings, as `check` counts them.
    pub summary: Summary,
    /// Games per declared result (`none`: no Result).
    pub declared: BTreeMap<String, u64>,
    /// Games per computed result.
    pub computed: BTreeMap<String, u64>,
    /// Games per termination.
    pub terminations: BTreeMap<String, u64>,
    /// Games whose declared result the replay contradicts.
    pub result_mismatches: u64,
    /// Plies per game: value -> games (for the median).
    pub plies: BTreeMap<u32, u64>,
    /// Plies that captured.
    pub captures: u64,
    /// Most pieces taken by one move.
    pub longest_capture: u32,
    /// Plies that crowned a man.
    pub crownings: u64,
    /// Openings by their first 2 and first 4 plies, as `variant: moves` (in
    /// the notation of the variant's records; games from the start position only).
    pub openings2: BTreeMap<String, LineScore>,
    /// Games per opening of four plies.
    pub openings4: BTreeMap<String, LineScore>,
}

impl Stats {
    /// The statistics of one game of `file`, replayed with `keep_moves`.
    pub fn of_game(file: &str, g: &Game, r: &GameReport) -> Stats {
        let mut s = Stats::default();
        s.add_game(file, g, r);
        s
    }

    /// Counts one game, replayed with `keep_moves` (`file` and `g` are not
    /// read: the report holds all it counts). A game that was not replayed
    /// is counted with its declared result only.
    pub fn add_game(&mut self, _file: &str, _g: &Game, r: &GameReport) {
        let [two, four] = opening_lines(r);
        self.add_figures(
            &GameFigures::of(r),
            r.diagnostics.iter().map(|d| (d.code, d.severity)),
            [two.as_deref(), four.as_deref()],
        );
    }

    /// Counts one game from what [`GameFigures`] kept of it, its findings
    /// and its opening lines ([`opening_lines`]).
    pub(crate) fn add_figures(
        &mut self,
        f: &GameFigures,
        findings: impl IntoIterator<Item = (Code, Severity)>,
        lines: [Option<&str>; 2],
    ) {
        self.summary.add_counts(&f.counts);
        for (code, severity) in findings {
            self.summary.add_finding(code, severity);
            if code == Code::ResultMismatch && severity == Severity::Error {
                self.result_mismatches += 1;
            }
        }
        *self
            .declared
            .entry(f.counts.declared().to_string())
            .or_default() += 1;
        // A game never replayed (an unsupported variant, a refused or
        // undecided file, read only) has no length, result or ending of
        // its own: it counts as not checked, and nowhere else.
        let Some(computed) = f.counts.computed() else {
            return;
        };
        *self.computed.entry(computed.to_string()).or_default() += 1;
        let termination = Termination::ALL
            .get(usize::from(f.termination))
            .map_or("unfinished", |t| t.name());
        *self
            .terminations
            .entry(termination.to_string())
            .or_default() += 1;
        *self.plies.entry(f.plies).or_default() += 1;
        self.captures += u64::from(f.captures);
        self.longest_capture = self.longest_capture.max(f.longest);
        self.crownings += u64::from(f.crownings);
        for (line, table) in lines
            .into_iter()
            .zip([&mut self.openings2, &mut self.openings4])
        {
            if let Some(line) = line {
                let o = table.entry(line.to_string()).or_default();
                o.games += 1;
                if let Some(p) = f.points {
                    o.scored += 1;
                    o.white_half_points += u64::from(p);
                }
            }
        }
    }

    /// Counts one finding about a file.
    pub fn add_finding(&mut self, code: Code, severity: Severity) {
        self.summary.add_finding(code, severity);
    }

    /// Adds `other` into `self`.
    pub fn merge(&mut self, other: &Stats) {
        self.summary.merge(&other.summary);
        for (mine, theirs) in [
            (&mut self.declared, &other.declared),
            (&mut self.computed, &other.computed),
            (&mut self.terminations, &other.terminations),
        ] {
            for (k, v) in theirs {
                *mine.entry(k.clone()).or_default() += v;
            }
        }
        self.result_mismatches += other.result_mismatches;
        for (k, v) in &other.plies {
            *self.plies.entry(*k).or_default() += v;
        }
        self.captures += other.captures;
        self.longest_capture = self.longest_capture.max(other.longest_capture);
        self.crownings += other.crownings;
        for (mine, theirs) in [
            (&mut self.openings2, &other.openings2),
            (&mut self.openings4, &other.openings4),
        ] {
            for (k, v) in theirs {
                let o = mine.entry(k.clone()).or_default();
                o.games += v.games;
                o.scored += v.scored;
                o.white_half_points += v.white_half_points;
            }
        }
    }

    /// (min, median, mean, max) plies per game.
    pub fn plies_summary(&self) -> Option<(u32, f64, f64, u32)> {
        let n: u64 = self.plies.values().sum();
        if n == 0 {
            return None;
        }
        let min = *self.plies.keys().next()?;
        let max = *self.plies.keys().next_back()?;
        let sum: u64 = self.plies.iter().map(|(k, v)| u64::from(*k) * v).sum();
        // The median: the middle value, or the mean of the two middle ones.
        let nth = |i: u64| {
            let mut seen = 0;
            for (k, v) in &self.plies {
                seen += v;
                if seen > i {
                    return f64::from(*k);
                }
            }
            f64::from(max)
        };
        let median = if n % 2 == 1 {
            nth(n / 2)
        } else {
            (nth(n / 2 - 1) + nth(n / 2)) / 2.0
        };
        Some((min, median, sum as f64 / n as f64, max))
    }

    /// Games by length, in the classes the report draws: `0`, `1-20`,
    /// `21-40`, ..., `101-150`, `151+` plies.
    pub fn length_histogram(&self) -> Vec<(&'static str, u64)> {
        const CLASSES: [(&str, u32); 8] = [
            ("0", 0),
            ("1-20", 20),
            ("21-40", 40),
            ("41-60", 60),
            ("61-80", 80),
            ("81-100", 100),
            ("101-150", 150),
            ("151+", u32::MAX),
        ];
        let mut out: Vec<(&'static str, u64)> = CLASSES.iter().map(|(n, _)| (*n, 0)).collect();
        for (&plies, &games) in &self.plies {
            if let Some(i) = CLASSES.iter().position(|(_, top)| plies <= *top) {
                out[i].1 += games;
            }
        }
        out
    }

    /// The `n` most played openings of a table, most games first.
    pub fn top(table: &BTreeMap<String, LineScore>, n: usize) -> Vec<(&String, &LineScore)> {
        let mut v: Vec<_> = table.iter().collect();
        v.sort_by(|a, b| b.1.games.cmp(&a.1.games).then(a.0.cmp(b.0)));
        v.truncate(n);
        v
    }

    /// The record `stats --format json` writes for one scope, with the `n`
    /// most played openings.
    #[cfg(feature = "serde")]
    pub fn record(&self, n: usize) -> impl serde::Serialize + '_ {
        let top = |t| {
            Stats::top(t, n)
                .into_iter()
                .map(|(k, o)| OpeningRecord {
                    games: o.games,
                    moves: k,
                    scored: o.scored,
                    white_score: o.white_score(),
                })
                .collect()
        };
        let by_code = self.summary.by_code();
        StatsRecord {
            captures: self.captures,
            computed_results: &self.computed,
            crownings: self.crownings,
            declared_results: &self.declared,
            findings: by_code,
            findings_by_severity: self.summary.by_severity(),
            games: self.summary.games,
            invalid: self.summary.invalid(),
            longest_capture: self.longest_capture,
            openings_2: top(&self.openings2),
            openings_4: top(&self.openings4),
            plies: self
                .plies_summary()
                .map(|(min, median, mean, max)| PliesRecord {
                    max,
                    mean,
                    median,
                    min,
                }),
            result_mismatches: self.result_mismatches,
            terminations: &self.terminations,
            unchecked: self.summary.unchecked,
            valid: self.summary.valid,
        }
    }

    /// The rows `stats --format csv` writes for one scope (every opening):
    /// scope, metric, key (empty when the metric has one value) and value.
    pub fn rows<'a>(&'a self, scope: &'a str) -> Vec<(&'a str, &'static str, String, String)> {
        let mut rows = Vec::new();
        let mut row = |metric: &'static str, key: &str, value: String| {
            rows.push((scope, metric, key.to_string(), value))
        };
        let s = &self.summary;
        row("games", "", s.games.to_string());
        row("valid", "", s.valid.to_string());
        row("invalid", "", s.invalid().to_string());
        for (k, v) in s.by_code() {
            row("finding", k, v.to_string());
        }
        for (m, t) in [
            ("declared", &self.declared),
            ("computed", &self.computed),
            ("termination", &self.terminations),
        ] {
            for (k, v) in t {
                row(m, k, v.to_string());
            }
        }
        row("result_mismatches", "", self.result_mismatches.to_string());
        if let Some((min, med, mean, max)) = self.plies_summary() {
            row("plies", "min", min.to_string());
            row("plies", "median", med.to_string());
            row("plies", "mean", format!("{mean:.3}"));
            row("plies", "max", max.to_string());
        }
        row("captures", "", self.captures.to_string());
        row("longest_capture", "", self.longest_capture.to_string());
        row("crownings", "", self.crownings.to_string());
        for (m, t) in [("opening2", &self.openings2), ("opening4", &self.openings4)] {
            for (k, o) in Stats::top(t, usize::MAX) {
                row(m, k, o.games.to_string());
            }
        }
        rows
    }
}

/// One scope of `stats --format json` (fields in alphabetical order, the
/// order it has always been written in).
#[cfg(feature = "serde")]
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
struct StatsRecord<'a> {
    /// Plies that captured.
    pub captures: u64,
    /// Games per computed result.
    pub computed_results: &'a BTreeMap<String, u64>,
    /// Plies that crowned a man.
    pub crownings: u64,
    /// Games per declared result (`none`: no Result).
    pub declared_results: &'a BTreeMap<String, u64>,
    /// Findings per code.
    pub findings: BTreeMap<&'static str, u64>,
    /// Findings per severity, then per code.
    pub findings_by_severity: BTreeMap<&'static str, BTreeMap<&'static str, u64>>,
    /// Games.
    pub games: u64,
    /// Games checked with an error finding, or not readable.
    pub invalid: u64,
    /// Most pieces taken by one move.
    pub longest_capture: u32,
    /// The most played openings of two plies.
    pub openings_2: Vec<OpeningRecord<'a>>,
    /// The most played openings of four plies.
    pub openings_4: Vec<OpeningRecord<'a>>,
    /// Plies of the main line that were read.
    pub plies: Option<PliesRecord>,
    /// Games whose declared result the replay contradicts.
    pub result_mismatches: u64,
    /// Games per termination.
    pub terminations: &'a BTreeMap<String, u64>,
    /// Games not replayed (refused variant, or variant not told).
    pub unchecked: u64,
    /// No error finding (empty or null when not checked).
    pub valid: u64,
}

/// Plies per game.
#[cfg(feature = "serde")]
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
struct PliesRecord {
    /// Longest.
    pub max: u32,
    /// Mean.
    pub mean: f64,
    /// Median.
    pub median: f64,
    /// Shortest.
    pub min: u32,
}

/// One opening of [`StatsRecord`].
#[cfg(feature = "serde")]
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
struct OpeningRecord<'a> {
    /// Games.
    pub games: u64,
    /// The opening's moves, space-separated.
    pub moves: &'a str,
    /// Games with a decisive or drawn declared result.
    pub scored: u64,
    /// White's score in [0, 1] over the scored games.
    pub white_score: Option<f64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_even_and_odd_counts() {
        let mut s = Stats::default();
        for p in [10, 20, 30] {
            *s.plies.entry(p).or_default() += 1;
        }
        assert_eq!(s.plies_summary(), Some((10, 20.0, 20.0, 30)));
        *s.plies.entry(40).or_default() += 1;
        assert_eq!(s.plies_summary(), Some((10, 25.0, 25.0, 40)));
    }

    #[test]
    fn merge_adds_up() {
        let mut a = Stats {
            longest_capture: 3,
            ..Stats::default()
        };
        a.summary.games = 2;
        a.summary.valid = 1;
        a.add_finding(Code::Syntax, Severity::Error);
        a.openings2.insert(
            "32-28 19-23".into(),
            LineScore {
                games: 2,
                scored: 1,
                white_half_points: 2,
            },
        );
        let mut b = Stats {
            longest_capture: 5,
            ..Stats::default()
        };
        b.summary.games = 1;
        b.summary.valid = 1;
        b.add_finding(Code::Syntax, Severity::Error);
        b.add_finding(Code::Syntax, Severity::Warning);
        b.openings2.insert(
            "32-28 19-23".into(),
            LineScore {
                games: 1,
                scored: 1,
                white_half_points: 1,
            },
        );
        a.merge(&b);
        let s = &a.summary;
        assert_eq!(
            (s.games, s.valid, s.invalid(), a.longest_capture),
            (3, 2, 1, 5)
        );
        assert_eq!(s.by_code()["syntax"], 3);
        assert_eq!(
            (
                s.count(Code::Syntax, Severity::Error),
                s.of_severity(Severity::Warning)
            ),
            (2, 1)
        );
        let o = &a.openings2["32-28 19-23"];
        assert_eq!((o.games, o.scored, o.white_half_points), (3, 2, 3));
        assert_eq!(o.white_score(), Some(0.75));
    }
}
