//! Archive statistics as counters that merge across files and threads:
//! [`Summary`], what `check` counts (findings per code and severity, results
//! declared against computed), and [`Stats`], a summary with lengths,
//! captures, results and openings. Both have records for JSON and CSV.

use crate::diag::{Code, Severity};
use crate::notation::{write_move, Style};
use crate::pdn::{Game, Outcome};
use crate::replay::GameReport;
use std::collections::{BTreeMap, HashMap};

/// Severities in the order they are shown.
const SEVERITIES: [Severity; 3] = [Severity::Error, Severity::Warning, Severity::Note];

/// The results a game can declare (`None`: no Result) or compute, in index order.
const RESULTS: [Option<Outcome>; 6] = [
    None,
    Some(Outcome::WhiteWins),
    Some(Outcome::BlackWins),
    Some(Outcome::Draw),
    Some(Outcome::BothLose),
    Some(Outcome::Unknown),
];

/// Index of a result in [`RESULTS`].
fn result_index(o: Option<Outcome>) -> usize {
    match o {
        None => 0,
        Some(Outcome::WhiteWins) => 1,
        Some(Outcome::BlackWins) => 2,
        Some(Outcome::Draw) => 3,
        Some(Outcome::BothLose) => 4,
        Some(Outcome::Unknown) => 5,
    }
}

/// What `check` counts: games, findings per code and severity, and games per
/// (declared, computed) result. Fixed-size counters: adding a game allocates nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Files read to their end.
    pub files: u64,
    /// Files that could not be read.
    pub unreadable: u64,
    /// Games read.
    pub games: u64,
    /// Games checked without an error finding.
    pub valid: u64,
    /// Games not replayed: of an unsupported variant, of a file no variant
    /// explains, or read only (`--syntax-only`).
    pub unchecked: u64,
    /// Plies of main lines after the move that stopped a game's replay, not replayed.
    pub plies_unchecked: u64,
    /// Whether the games were replayed under `--irregularities stand` (the
    /// record then says how many moves stood).
    pub stand: bool,
    /// Moves that stood (`--irregularities stand`).
    pub irregularities: u64,
    /// Games in which at least one move stood.
    pub irregular_games: u64,
    /// Findings per code and severity, indexed by `Code as usize` and `Severity as usize`.
    code_counts: [[u64; 3]; Code::ALL.len()],
    /// Checked games per (declared, computed) result, indexed by `result_index`.
    result_counts: [[u64; 6]; 6],
}

impl Default for Summary {
    fn default() -> Summary {
        Summary {
            files: 0,
            unreadable: 0,
            games: 0,
            valid: 0,
            unchecked: 0,
            plies_unchecked: 0,
            stand: false,
            irregularities: 0,
            irregular_games: 0,
            code_counts: [[0; 3]; Code::ALL.len()],
            result_counts: [[0; 6]; 6],
        }
    }
}

impl Summary {
    /// Counts a game and its findings.
    pub fn add_game(&mut self, r: &GameReport) {
        self.games += 1;
        match r.verdict() {
            Some(true) => self.valid += 1,
            Some(false) => {}
            // Not replayed, and nothing wrong with the game itself: read only,
            // an unsupported variant, a refused file.
            // An undecided file's games are not checked even when a FEN of
            // theirs is bad (issue 37).
            None if r.read_only
                || r.valid()
                || r.source == crate::infer::VariantSource::Undecided =>
            {
                self.unchecked += 1
            }
            // Not replayed because of an error of its own (too large, a GameType
            // that names nothing): a game with errors.
            None => {}
        }
        self.plies_unchecked += u64::from(r.plies_unchecked);
        self.irregularities += u64::from(r.irregularities);
        self.irregular_games += u64::from(r.irregularities > 0);
        for d in &r.diagnostics {
            self.add_finding(d.code, d.severity);
        }
        if r.checked {
            self.result_counts[result_index(r.declared)][result_index(Some(r.computed))] += 1;
        }
    }
    /// Counts one finding (of a game, or about a file).
    pub fn add_finding(&mut self, code: Code, severity: Severity) {
        self.code_counts[code as usize][severity as usize] += 1;
    }
    /// Games checked with an error finding, and games that could not be checked
    /// for another reason than their variant (too large, say).
    pub fn invalid(&self) -> u64 {
        self.games - self.valid - self.unchecked
    }
    /// Findings of `code` with `severity`.
    pub fn count(&self, code: Code, severity: Severity) -> u64 {
        self.code_counts[code as usize][severity as usize]
    }
    /// Findings of `severity`.
    pub fn of_severity(&self, severity: Severity) -> u64 {
        self.code_counts.iter().map(|c| c[severity as usize]).sum()
    }
    /// All findings.
    pub fn findings(&self) -> u64 {
        self.code_counts.iter().flatten().sum()
    }
    /// Findings per code (by name), codes never seen left out.
    pub fn by_code(&self) -> BTreeMap<&'static str, u64> {
        Code::ALL
            .iter()
            .map(|&c| (c.as_str(), self.code_counts[c as usize].iter().sum()))
            .filter(|&(_, n)| n > 0)
            .collect()
    }
    /// Findings per severity, then per code (by name), empty ones left out.
    pub fn by_severity(&self) -> BTreeMap<&'static str, BTreeMap<&'static str, u64>> {
        SEVERITIES
            .iter()
            .map(|&sev| {
                let m: BTreeMap<&str, u64> = Code::ALL
                    .iter()
                    .map(|&c| (c.as_str(), self.count(c, sev)))
                    .filter(|&(_, n)| n > 0)
                    .collect();
                (sev.as_str(), m)
            })
            .filter(|(_, m)| !m.is_empty())
            .collect()
    }
    /// Checked games per (declared, computed) result, in the order of the
    /// normalised texts (`none`: no Result tag).
    pub fn results(&self) -> BTreeMap<(&'static str, &'static str), u64> {
        let name = |o: Option<Outcome>| o.map_or("none", |o| o.normalised());
        let mut m = BTreeMap::new();
        for d in RESULTS {
            for c in RESULTS {
                let n = self.result_counts[result_index(d)][result_index(c)];
                if n > 0 {
                    m.insert((name(d), name(c)), n);
                }
            }
        }
        m
    }
    /// Adds `other` into `self`.
    pub fn merge(&mut self, other: &Summary) {
        self.files += other.files;
        self.unreadable += other.unreadable;
        self.games += other.games;
        self.valid += other.valid;
        self.unchecked += other.unchecked;
        self.plies_unchecked += other.plies_unchecked;
        self.stand |= other.stand;
        self.irregularities += other.irregularities;
        self.irregular_games += other.irregular_games;
        for (mine, theirs) in self.code_counts.iter_mut().zip(&other.code_counts) {
            for (m, t) in mine.iter_mut().zip(theirs) {
                *m += t;
            }
        }
        for (mine, theirs) in self.result_counts.iter_mut().zip(&other.result_counts) {
            for (m, t) in mine.iter_mut().zip(theirs) {
                *m += t;
            }
        }
    }
    /// The summary record `check --format json` ends with (docs/json.md);
    /// `with_results`: include the results table (not with `--syntax-only`).
    #[cfg(feature = "serde")]
    pub fn record(&self, with_results: bool) -> impl serde::Serialize {
        SummaryRecord {
            by_code: self.by_code(),
            by_severity: self.by_severity(),
            errors: self.of_severity(Severity::Error),
            files: self.files,
            games: self.games,
            games_with_irregularities: self.stand.then_some(self.irregular_games),
            irregularities: self.stand.then_some(self.irregularities),
            notes: self.of_severity(Severity::Note),
            plies_unchecked: self.plies_unchecked,
            results: with_results.then(|| {
                self.results()
                    .into_iter()
                    .map(|((declared, computed), games)| ResultRecord {
                        computed,
                        declared,
                        games,
                    })
                    .collect()
            }),
            kind: "summary",
            unchecked_games: self.unchecked,
            unreadable_files: self.unreadable,
            valid_games: self.valid,
            warnings: self.of_severity(Severity::Warning),
        }
    }
}

/// The summary record of `check --format json` (fields in alphabetical order,
/// the order it has always been written in).
#[cfg(feature = "serde")]
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
struct SummaryRecord {
    /// Findings per code.
    pub by_code: BTreeMap<&'static str, u64>,
    /// Findings per severity, then per code.
    pub by_severity: BTreeMap<&'static str, BTreeMap<&'static str, u64>>,
    /// Error findings.
    pub errors: u64,
    /// Files read to their end.
    pub files: u64,
    /// Games.
    pub games: u64,
    /// Games in which a move stood (under `--irregularities stand` only).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub games_with_irregularities: Option<u64>,
    /// Moves that stood (under `--irregularities stand` only).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub irregularities: Option<u64>,
    /// Further lines: positions, maximal captures.
    pub notes: u64,
    /// Plies of main lines after a game's first move error, not replayed.
    pub plies_unchecked: u64,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    /// The result family to write.
    pub results: Option<Vec<ResultRecord>>,
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    /// `"summary"`.
    pub kind: &'static str,
    /// Games not replayed (refused variant, or variant not told).
    pub unchecked_games: u64,
    /// Files that could not be read.
    pub unreadable_files: u64,
    /// Games checked without an error finding.
    pub valid_games: u64,
    /// Warning findings.
    pub warnings: u64,
}

/// Games with one (declared, computed) pair of results.
#[cfg(feature = "serde")]
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
struct ResultRecord {
    /// The result the replay computes.
    pub computed: &'static str,
    /// The result the record declares, if any.
    pub declared: &'static str,
    /// Games.
    pub games: u64,
}

/// Games and White's score after one opening.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Opening {
    /// Games after the opening.
    pub games: u64,
    /// Games with a decisive or drawn declared result.
    pub scored: u64,
    /// White's points counted in half points (win 2, draw 1).
    pub white_half_points: u64,
}

impl Opening {
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

/// Counters for a set of games. `merge` adds two of them.
#[derive(Clone, Debug, Default, PartialEq)]
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
    pub openings2: BTreeMap<String, Opening>,
    /// Games per opening of four plies.
    pub openings4: BTreeMap<String, Opening>,
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
        self.summary.add_game(r);
        self.result_mismatches += r
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::ResultMismatch && d.severity == Severity::Error)
            .count() as u64;
        *self
            .declared
            .entry(r.declared.map_or("none", |o| o.normalised()).to_string())
            .or_default() += 1;
        // A game never replayed (an unsupported variant, a refused or
        // undecided file, read only) has no length, result or ending of
        // its own: it counts as not checked, and nowhere else.
        if !r.checked {
            return;
        }
        *self
            .computed
            .entry(r.computed.normalised().to_string())
            .or_default() += 1;
        *self
            .terminations
            .entry(r.termination.name().to_string())
            .or_default() += 1;
        *self.plies.entry(r.plies).or_default() += 1;
        self.captures += r.captures().count() as u64;
        self.longest_capture = self.longest_capture.max(r.longest_capture());
        self.crownings += u64::from(r.crownings());
        let points = match r.declared {
            Some(Outcome::WhiteWins) => Some(2),
            Some(Outcome::Draw) => Some(1),
            Some(Outcome::BlackWins) => Some(0),
            _ => None,
        };
        let opening = opening(r, 4);
        for (n, table) in [(2usize, &mut self.openings2), (4, &mut self.openings4)] {
            if opening.len() >= n {
                let v = r.variant.map_or("", |v| v.name());
                let o = table
                    .entry(format!("{v}: {}", opening[..n].join(" ")))
                    .or_default();
                o.games += 1;
                if let Some(p) = points {
                    o.scored += 1;
                    o.white_half_points += p;
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
    pub fn top(table: &BTreeMap<String, Opening>, n: usize) -> Vec<(&String, &Opening)> {
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
            Opening {
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
            Opening {
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

/// What `stats --by` groups games by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupBy {
    /// Each player (a game counts for both, from each one's side).
    Player,
    /// The Event tag.
    Event,
    /// The year of the Date tag.
    Year,
    /// The variant.
    Variant,
    /// The opening (`TABLE CODE`, docs/openings.md), `(none)` for a game
    /// with none.
    Opening,
}

impl GroupBy {
    /// `player`, `event`, `year`, `variant` or `opening`.
    pub fn name(self) -> &'static str {
        match self {
            GroupBy::Player => "player",
            GroupBy::Event => "event",
            GroupBy::Year => "year",
            GroupBy::Variant => "variant",
            GroupBy::Opening => "opening",
        }
    }
}

/// Counts of one group of `stats --by`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Group {
    /// The group's name (the player as first written, the event, the year,
    /// the variant, the opening's table and code).
    pub name: String,
    /// By opening: the opening's name, when its row or the names table has one.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub opening_name: Option<String>,
    /// Games.
    pub games: u64,
    /// Won, drawn, lost: the player's for a player, White's otherwise.
    pub wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Lost.
    pub losses: u64,
    /// Games with no result that counts.
    pub unscored: u64,
    /// A player's won, drawn, lost games with White.
    pub as_white: [u64; 3],
    /// With Black.
    pub as_black: [u64; 3],
    /// Plies of all its games that were replayed.
    pub plies: u64,
    /// Its games that were replayed (a game of a refused or undecided file,
    /// or of a variant not checked, has no length: issue 55).
    pub replayed: u64,
    /// Findings per code.
    pub findings: BTreeMap<&'static str, u64>,
}

impl Group {
    /// The score in [0, 1]: a win 1, a draw ½, over the scored games.
    pub fn score(&self) -> Option<f64> {
        let scored = self.wins + self.draws + self.losses;
        (scored > 0).then(|| (self.wins as f64 + self.draws as f64 / 2.0) / scored as f64)
    }
    /// The mean length in plies of its replayed games (`None` when none was
    /// replayed: a length that is not known is not 0).
    pub fn mean_plies(&self) -> Option<f64> {
        (self.replayed > 0).then(|| self.plies as f64 / self.replayed as f64)
    }
}

/// Games grouped by player, event, year or variant, in key order.
///
/// By player and by event, a game stored more than once in an event is
/// counted once, as `pdnkit tournament` counts it
/// ([`crate::tournament::Games::events`] counts it): the groups are made when all games are
/// in ([`Groups::sorted`]). [`Groups::keep_duplicates`] counts every copy.
#[derive(Debug)]
pub struct Groups {
    by: GroupBy,
    groups: BTreeMap<String, Group>,
    /// Counting each game once: the games waiting for their copies
    /// (`None`: every copy counts).
    once: Option<crate::tournament::Once>,
    /// Games added.
    seq: u64,
    /// Per group: the place of the game counted first in it, which names it.
    first: HashMap<String, u64>,
    /// The keys and names of the games waiting, each text once.
    strings: crate::tournament::Strings,
    /// The codes of the findings of the games waiting, each list once.
    code_lists: Vec<Vec<&'static str>>,
    code_ids: HashMap<Vec<&'static str>, u32>,
    /// Extra copies not counted, and games left out because their copies
    /// disagree.
    copies: (u64, u64),
    /// Why games set aside could not be read back ([`Groups::failed`]).
    failed: Option<String>,
}

/// A game to be counted: its place in the input and what it adds to its
/// groups (one or two entries, their texts interned). [`Pending::BYTES`]
/// bytes while it waits for its copies on disk (issue 51).
#[derive(Clone, Copy, Debug)]
struct Pending {
    seq: u64,
    entries: [Waiting; 2],
    n: u8,
    /// Its plies, when it was replayed.
    plies: Option<u32>,
    /// Index of its list of codes.
    codes: u32,
}

/// An [`Entry`] waiting, its key and name interned.
#[derive(Clone, Copy, Debug)]
struct Waiting {
    key: crate::tournament::Sym,
    name: crate::tournament::Sym,
    side: Option<u8>,
    white: Option<bool>,
}

impl Waiting {
    const NONE: Waiting = Waiting {
        key: crate::tournament::Sym::NONE,
        name: crate::tournament::Sym::NONE,
        side: None,
        white: None,
    };
}

impl Pending {
    /// Bytes of a record.
    const BYTES: usize = 8 + 2 * 10 + 1 + 5 + 4;
    /// Appends its record to `out`.
    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.seq.to_le_bytes());
        for w in &self.entries {
            out.extend_from_slice(&w.key.raw().to_le_bytes());
            out.extend_from_slice(&w.name.raw().to_le_bytes());
            out.push(w.side.unwrap_or(u8::MAX));
            out.push(match w.white {
                None => 0,
                Some(false) => 1,
                Some(true) => 2,
            });
        }
        out.push(self.n);
        out.push(u8::from(self.plies.is_some()));
        out.extend_from_slice(&self.plies.unwrap_or(0).to_le_bytes());
        out.extend_from_slice(&self.codes.to_le_bytes());
    }
    /// The record [`Pending::write`] wrote at the start of `b`.
    fn read(b: &[u8]) -> Option<Pending> {
        let b = b.get(..Self::BYTES)?;
        let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let seq = u64::from(u32_at(0)) | (u64::from(u32_at(4)) << 32);
        let mut at = 8;
        let mut entries = [Waiting::NONE; 2];
        for w in &mut entries {
            *w = Waiting {
                key: crate::tournament::Sym::from_raw(u32_at(at)),
                name: crate::tournament::Sym::from_raw(u32_at(at + 4)),
                side: Some(b[at + 8]).filter(|&s| s != u8::MAX),
                white: match b[at + 9] {
                    0 => None,
                    1 => Some(false),
                    _ => Some(true),
                },
            };
            at += 10;
        }
        Some(Pending {
            seq,
            entries,
            n: b[at].min(2),
            plies: (b[at + 1] != 0).then(|| u32_at(at + 2)),
            codes: u32_at(at + 6),
        })
    }
}

/// What a game adds to one group: its key, the group's name, the result
/// from the group's side (0 won, 1 drawn, 2 lost), and the colour.
type Entry = (String, String, Option<usize>, Option<bool>);

impl Groups {
    /// No group yet.
    pub fn new(by: GroupBy) -> Groups {
        Groups {
            by,
            groups: BTreeMap::new(),
            once: matches!(by, GroupBy::Player | GroupBy::Event).then(crate::tournament::Once::new),
            seq: 0,
            first: HashMap::new(),
            strings: crate::tournament::Strings::default(),
            code_lists: Vec::new(),
            code_ids: HashMap::new(),
            copies: (0, 0),
            failed: None,
        }
    }
    /// Every copy of a game counts (`--keep-duplicates`), when `keep`.
    pub fn keep_duplicates(mut self, keep: bool) -> Groups {
        self.once = (!keep && matches!(self.by, GroupBy::Player | GroupBy::Event))
            .then(crate::tournament::Once::new);
        self
    }
    /// Counts one game of `file`. Its result is the computed one where the
    /// rules decided the game, else the declared one.
    pub fn add(&mut self, file: &str, g: &Game, r: &GameReport) {
        let entries = self.entries(g, r);
        let codes: Vec<&'static str> = r.diagnostics.iter().map(|d| d.code.as_str()).collect();
        let plies = r.checked.then_some(r.plies);
        if self.once.is_none() {
            for (key, name, side, white) in entries {
                count(&mut self.groups, &key, &name, side, white, plies, &codes);
                if let (GroupBy::Opening, Some(o)) = (self.by, &r.opening) {
                    if let Some(g) = self.groups.get_mut(&key) {
                        g.opening_name = o.name().map(str::to_string);
                    }
                }
            }
            return;
        }
        let codes = match self.code_ids.get(&codes) {
            Some(&id) => id,
            None => {
                let id = self.code_lists.len() as u32;
                self.code_ids.insert(codes.clone(), id);
                self.code_lists.push(codes);
                id
            }
        };
        let mut p = Pending {
            seq: self.seq,
            entries: [Waiting::NONE; 2],
            n: 0,
            plies,
            codes,
        };
        self.seq += 1;
        for (key, name, side, white) in entries.into_iter().take(2) {
            p.entries[p.n as usize] = Waiting {
                key: self.strings.intern(&key),
                name: self.strings.intern(&name),
                side: side.map(|s| s as u8),
                white,
            };
            p.n += 1;
        }
        let mut bytes = Vec::with_capacity(Pending::BYTES);
        p.write(&mut bytes);
        let waits = self
            .once
            .as_mut()
            .is_some_and(|once| once.add(file, g, r, &bytes));
        if !waits {
            self.count_pending(&p);
        }
    }
    /// The groups a game adds to.
    fn entries(&self, g: &Game, r: &GameReport) -> Vec<Entry> {
        let result = match r.computed {
            Outcome::Unknown => r.declared.unwrap_or(Outcome::Unknown),
            c => c,
        };
        // 0 won, 1 drawn, 2 lost, from White's side.
        let white_side = match result {
            Outcome::WhiteWins => Some(0),
            Outcome::Draw => Some(1),
            Outcome::BlackWins | Outcome::BothLose => Some(2),
            Outcome::Unknown => None,
        };
        let tag = |names: &[&str]| names.iter().find_map(|n| g.tag(n)).unwrap_or_default();
        let mut entries: Vec<Entry> = Vec::new();
        match self.by {
            GroupBy::Player => {
                for (name, white) in [
                    (tag(&crate::players::WHITE_TAGS), true),
                    (tag(&crate::players::BLACK_TAGS), false),
                ] {
                    let side = white_side.map(|o| match (white, o, result) {
                        (true, o, _) => o,
                        (false, _, Outcome::BothLose) => 2,
                        (false, o, _) => 2 - o,
                    });
                    // Placeholders (`White`, `?`, `NN`, ...) are no player.
                    let (key, name) = if crate::players::is_placeholder(&name) {
                        (String::from("\u{0}unknown"), String::from("unknown player"))
                    } else {
                        (crate::players::name_key(&name), name)
                    };
                    entries.push((key, name, side, Some(white)));
                }
            }
            GroupBy::Event => {
                let e = g.tag("Event").unwrap_or_default();
                entries.push((crate::players::name_key(&e), e, white_side, None));
            }
            GroupBy::Year => {
                let y = g
                    .tag("Date")
                    .and_then(|d| crate::select::date_span(&d))
                    .map_or("unknown".to_string(), |(a, _)| (a / 10000).to_string());
                entries.push((y.clone(), y, white_side, None));
            }
            GroupBy::Variant => {
                let v = r.kind.map_or("unknown", |k| k.name()).to_string();
                entries.push((v.clone(), v, white_side, None));
            }
            GroupBy::Opening => {
                let o = r.opening.as_ref().map_or("(none)".to_string(), |o| {
                    format!("{} {}", o.table(), o.code())
                });
                entries.push((o.clone(), o, white_side, None));
            }
        }
        entries
    }
    /// Counts the games waiting for their copies, each once (a bucket of
    /// pairings at a time). A group is named as the first game counted in
    /// it names it (in input order).
    fn settle(&mut self) {
        let Some(mut once) = self.once.take() else {
            return;
        };
        let mut waiting: Vec<Pending> = Vec::new();
        once.settle(|bytes, keep| {
            if let Some(p) = Pending::read(bytes).filter(|_| keep) {
                waiting.push(p);
                if waiting.len() >= 4096 {
                    for p in waiting.drain(..) {
                        self.count_pending(&p);
                    }
                }
            }
        });
        for p in std::mem::take(&mut waiting) {
            self.count_pending(&p);
        }
        self.copies.0 += once.merged;
        self.copies.1 += once.conflicting;
        if let Some(why) = once.failed.take() {
            self.failed.get_or_insert(why);
        }
        self.once = Some(crate::tournament::Once::new());
        self.strings = crate::tournament::Strings::default();
        self.code_lists = Vec::new();
        self.code_ids = HashMap::new();
    }
    /// Counts a game in its groups.
    fn count_pending(&mut self, p: &Pending) {
        for w in &p.entries[..p.n as usize] {
            let text = |s| self.strings.get(s).unwrap_or("");
            let (key, name) = (text(w.key), text(w.name));
            count(
                &mut self.groups,
                key,
                name,
                w.side.map(usize::from),
                w.white,
                p.plies,
                &self.code_lists[p.codes as usize],
            );
            match self.first.get_mut(key) {
                Some(seq) if *seq > p.seq => {
                    *seq = p.seq;
                    if let Some(g) = self.groups.get_mut(key) {
                        g.name = name.to_string();
                    }
                }
                Some(_) => {}
                None => {
                    self.first.insert(key.to_string(), p.seq);
                }
            }
        }
    }
    /// The groups, most games first (then by name).
    pub fn sorted(&mut self) -> Vec<&Group> {
        self.settle();
        let mut v: Vec<&Group> = self.groups.values().collect();
        v.sort_by(|a, b| b.games.cmp(&a.games).then(a.name.cmp(&b.name)));
        v
    }
    /// What the games are grouped by.
    pub fn by(&self) -> GroupBy {
        self.by
    }
    /// The record `stats --by --format json` writes: the groups, most
    /// games first.
    #[cfg(feature = "serde")]
    pub fn record(&mut self) -> impl serde::Serialize + '_ {
        let by = self.by.name();
        GroupsRecord {
            by,
            groups: self
                .sorted()
                .into_iter()
                .map(|g| GroupRecord {
                    group: g,
                    score: g.score(),
                    mean_plies: g.mean_plies(),
                })
                .collect(),
        }
    }
    /// Games not counted: extra copies of a game counted once, and games
    /// whose copies disagree (`conflicting-copies`), left out as
    /// `tournament` leaves them out. Known after [`Groups::sorted`].
    pub fn set_aside(&self) -> (u64, u64) {
        self.copies
    }
    /// Why games set aside in the temporary file (`--by player|event`)
    /// could not be read back: they are not counted, and the counts are
    /// not to be trusted (the command line exits 2). Known after
    /// [`Groups::sorted`].
    pub fn failed(&self) -> Option<&str> {
        self.failed.as_deref()
    }
}

/// Counts one game in the group `key` (named `name` when it is new): the
/// result from the group's side (0 won, 1 drawn, 2 lost), the colour, the
/// game's plies and the codes of its findings.
fn count(
    groups: &mut BTreeMap<String, Group>,
    key: &str,
    name: &str,
    side: Option<usize>,
    white: Option<bool>,
    plies: Option<u32>,
    codes: &[&'static str],
) {
    if !groups.contains_key(key) {
        let group = Group {
            name: name.to_string(),
            ..Group::default()
        };
        groups.insert(key.to_string(), group);
    }
    let Some(grp) = groups.get_mut(key) else {
        return;
    };
    grp.games += 1;
    if let Some(p) = plies {
        grp.plies += u64::from(p);
        grp.replayed += 1;
    }
    match side {
        Some(0) => grp.wins += 1,
        Some(1) => grp.draws += 1,
        Some(_) => grp.losses += 1,
        None => grp.unscored += 1,
    }
    if let (Some(o), Some(w)) = (side, white) {
        let by_colour = if w {
            &mut grp.as_white
        } else {
            &mut grp.as_black
        };
        by_colour[o] += 1;
    }
    for c in codes {
        *grp.findings.entry(c).or_default() += 1;
    }
}

/// `stats --by` as JSON: what the games are grouped by, and the groups.
#[cfg(feature = "serde")]
#[derive(Clone, Debug, serde::Serialize)]
struct GroupsRecord<'a> {
    /// `player`, `event`, `year` or `variant`.
    pub by: &'static str,
    /// The groups, most games first.
    pub groups: Vec<GroupRecord<'a>>,
}

/// One group of a `GroupsRecord`: its counts, its score and mean length.
#[cfg(feature = "serde")]
#[derive(Clone, Debug, serde::Serialize)]
struct GroupRecord<'a> {
    /// The counts.
    #[serde(flatten)]
    pub group: &'a Group,
    /// [`Group::score`].
    pub score: Option<f64>,
    /// [`Group::mean_plies`].
    pub mean_plies: Option<f64>,
}

#[cfg(test)]
mod histogram_tests {
    use super::*;

    #[test]
    fn lengths_fall_in_their_classes() {
        let mut s = Stats::default();
        for (plies, games) in [
            (0, 2),
            (1, 1),
            (20, 1),
            (21, 3),
            (150, 1),
            (151, 4),
            (900, 1),
        ] {
            s.plies.insert(plies, games);
        }
        let h = s.length_histogram();
        assert_eq!(h[0], ("0", 2));
        assert_eq!(h[1], ("1-20", 2));
        assert_eq!(h[2], ("21-40", 3));
        assert_eq!(h[6], ("101-150", 1));
        assert_eq!(h[7], ("151+", 5));
        assert_eq!(h.iter().map(|(_, n)| n).sum::<u64>(), 13);
    }
}

#[cfg(test)]
mod group_tests {
    use super::*;
    use crate::{check_game, Options};

    #[test]
    fn players_count_from_their_own_side_and_names_merge() {
        let text = "[White \"Sijbrands, Ton\"]\n[Black \"Baba\"]\n[Date \"1998.05.17\"]\n[Result \"2-0\"]\n[GameType \"20\"]\n1. 32-28 *\n\n\
                    [White \"Baba\"]\n[Black \"Sijbrands  Ton\"]\n[Date \"1999.01.02\"]\n[Result \"1-1\"]\n[GameType \"20\"]\n1. 32-28 *\n\n\
                    [White \"Baba\"]\n[Black \"Sijbrands Ton\"]\n[Date \"1999\"]\n[Result \"2-0\"]\n[GameType \"20\"]\n1. 32-28 *\n";
        let games = crate::pdn::read_all(text.as_bytes());
        let mut players = Groups::new(GroupBy::Player);
        let mut years = Groups::new(GroupBy::Year);
        for g in &games {
            let r = check_game(g, &Options::default());
            players.add("f", g, &r);
            years.add("f", g, &r);
        }
        let ton = players
            .sorted()
            .into_iter()
            .find(|g| g.name.starts_with("Sijbrands"))
            .cloned()
            .unwrap();
        assert_eq!((ton.games, ton.wins, ton.draws, ton.losses), (3, 1, 1, 1));
        assert_eq!((ton.as_white, ton.as_black), ([1, 0, 0], [0, 1, 1]));
        assert_eq!(ton.score(), Some(0.5));
        let y: Vec<(String, u64)> = years
            .sorted()
            .iter()
            .map(|g| (g.name.clone(), g.games))
            .collect();
        assert_eq!(y, [("1999".to_string(), 2), ("1998".to_string(), 1)]);
    }
}

#[cfg(test)]
mod pending_tests {
    use super::*;

    #[test]
    fn a_waiting_game_reads_back() {
        let p = Pending {
            seq: 1 << 33,
            entries: [
                Waiting {
                    key: crate::tournament::Sym::from_raw(3),
                    name: crate::tournament::Sym::from_raw(4),
                    side: Some(2),
                    white: Some(false),
                },
                Waiting::NONE,
            ],
            n: 1,
            plies: Some(0),
            codes: 9,
        };
        let mut b = Vec::new();
        p.write(&mut b);
        assert_eq!(b.len(), Pending::BYTES);
        let q = Pending::read(&b).expect("read back");
        assert_eq!(format!("{p:?}"), format!("{q:?}"));
        assert!(Pending::read(&b[1..]).is_none());
    }

    /// Games counted once as the tournament counts them, whatever bucket
    /// their copies fall in: a match of two players in three towns (one
    /// event, so the copy of round 2 stored under another town is one game),
    /// an event of many players in two towns (two events: its copies across
    /// towns both count), copies that disagree (none counts), games with no
    /// Round and with a placeholder (each counts), and the group named by
    /// the first game counted.
    #[test]
    fn each_game_counted_once_as_the_tournament_counts_it() {
        let game = |event: &str, site: &str, round: &str, w: &str, b: &str, res: &str| {
            let round = if round.is_empty() {
                String::new()
            } else {
                format!("[Round \"{round}\"]")
            };
            format!(
                "[Event \"{event}\"][Site \"{site}\"][Date \"1983.05.01\"]{round}[White \"{w}\"][Black \"{b}\"][Result \"{res}\"]\n{res}\n\n"
            )
        };
        // Named "ANN" (its first game), though the game of "Ann" with no
        // Round counts before the games that wait for their copies.
        let mut pdn = game("Open", "Ede", "2", "ANN", "Dan", "2-0");
        for (site, round) in [("Ede", "1"), ("Baarn", "2"), ("Zeist", "3"), ("Ede", "2")] {
            pdn += &game("Match", site, round, "Van der Wal, Anton", "Wiersma", "1-1");
        }
        for (site, round, w, b) in [
            ("Ede", "1", "Ann", "Bob"),
            ("Baarn", "1", "Cid", "Dan"),
            ("Ede", "1", "Ann", "Bob"),
            ("Baarn", "1", "Ann", "Bob"),
        ] {
            pdn += &game("Open", site, round, w, b, "2-0");
        }
        pdn += &game("Cup", "", "4", "Eve", "Fay", "2-0");
        pdn += &game("Cup", "", "4", "Eve", "Fay", "0-2");
        pdn += &game("Cup", "", "", "Eve", "Fay", "2-0");
        pdn += &game("Cup", "", "", "Eve", "Fay", "2-0");
        pdn += &game("Cup", "", "5", "?", "Fay", "1-1");
        pdn += &game("Cup", "", "5", "?", "Fay", "1-1");
        pdn += &game("Cup", "", "6", "Wal, Anton van der", "Fay", "1-1");
        pdn += &game("Open", "Ede", "", "Ann", "Cid", "1-1");
        let mut groups = Groups::new(GroupBy::Player);
        let opts = crate::Options::default().keep_moves(true);
        for g in crate::pdn::read_all(pdn.as_bytes()) {
            groups.add("f.pdn", &g, &crate::check_game(&g, &opts));
        }
        let got: Vec<(String, u64)> = groups
            .sorted()
            .into_iter()
            .map(|g| (g.name.clone(), g.games))
            .collect();
        // As pdnkit 4afa858 counted them, holding every game in memory.
        let want: Vec<(String, u64)> = [
            ("Fay", 5),
            ("ANN", 4),
            ("Van der Wal, Anton", 3),
            ("Wiersma", 3),
            ("Bob", 2),
            ("Cid", 2),
            ("Dan", 2),
            ("Eve", 2),
            ("unknown player", 2),
            ("Wal, Anton van der", 1),
        ]
        .iter()
        .map(|(n, c)| (n.to_string(), *c))
        .collect();
        assert_eq!(got, want);
        // One copy of the match (one event in three towns), one of the Open
        // at Ede (the Open at Baarn is another event); the Cup's pair
        // disagrees.
        assert_eq!(groups.set_aside(), (2, 2));
    }
}
