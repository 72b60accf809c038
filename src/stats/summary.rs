//! [`Summary`]: what `check` counts (findings per code and severity,
//! results declared against computed), merged across files and threads.

use crate::diag::{Code, Severity};
use crate::pdn::Outcome;
use crate::replay::GameReport;
use std::collections::BTreeMap;

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
