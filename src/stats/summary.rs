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

/// What one game adds to a [`Summary`] besides its findings: a small
/// record that `stats` keeps for a game waiting for its copies (issue 62
/// item 7), so that a game counts once however it is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Counts {
    /// 0 valid, 1 with errors, 2 not checked.
    class: u8,
    plies_unchecked: u32,
    irregularities: u32,
    /// Index of the declared result in [`RESULTS`].
    declared: u8,
    /// Index of the computed result, for a replayed game.
    computed: Option<u8>,
}

impl Counts {
    /// Bytes of a record ([`Counts::write`]).
    pub(crate) const BYTES: usize = 1 + 4 + 4 + 1 + 1;
    /// What `r` adds.
    pub(crate) fn of(r: &GameReport) -> Counts {
        let class = match r.verdict() {
            Some(true) => 0,
            Some(false) => 1,
            // Not replayed, and nothing wrong with the game itself: read only,
            // an unsupported variant, a refused file.
            // An undecided file's games are not checked even when a FEN of
            // theirs is bad (issue 37).
            None if r.read_only
                || r.valid()
                || r.source == crate::infer::VariantSource::Undecided =>
            {
                2
            }
            // Not replayed because of an error of its own (too large, a GameType
            // that names nothing): a game with errors.
            None => 1,
        };
        Counts {
            class,
            plies_unchecked: r.plies_unchecked,
            irregularities: r.irregularities,
            declared: result_index(r.declared) as u8,
            computed: r.checked.then(|| result_index(Some(r.computed)) as u8),
        }
    }
    /// The declared result's normalised text (`none`: no Result).
    pub(crate) fn declared(&self) -> &'static str {
        result_name(self.declared)
    }
    /// The computed result's normalised text, for a replayed game.
    pub(crate) fn computed(&self) -> Option<&'static str> {
        self.computed.map(result_name)
    }
    /// Appends the record to `out`.
    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        out.push(self.class);
        out.extend_from_slice(&self.plies_unchecked.to_le_bytes());
        out.extend_from_slice(&self.irregularities.to_le_bytes());
        out.push(self.declared);
        out.push(self.computed.unwrap_or(u8::MAX));
    }
    /// The record [`Counts::write`] wrote at the start of `b`.
    pub(crate) fn read(b: &[u8]) -> Option<Counts> {
        let b = b.get(..Self::BYTES)?;
        let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let index = |x: u8| x.min(RESULTS.len() as u8 - 1);
        Some(Counts {
            class: b[0].min(2),
            plies_unchecked: u32_at(1),
            irregularities: u32_at(5),
            declared: index(b[9]),
            computed: (b[10] != u8::MAX).then(|| index(b[10])),
        })
    }
}

/// The normalised text of the result of index `i` in [`RESULTS`].
fn result_name(i: u8) -> &'static str {
    RESULTS
        .get(usize::from(i))
        .copied()
        .flatten()
        .map_or("none", |o| o.normalised())
}

impl Summary {
    /// Counts a game and its findings.
    pub fn add_game(&mut self, r: &GameReport) {
        self.add_counts(&Counts::of(r));
        for d in &r.diagnostics {
            self.add_finding(d.code, d.severity);
        }
    }
    /// Counts what a game adds besides its findings.
    pub(crate) fn add_counts(&mut self, c: &Counts) {
        self.games += 1;
        match c.class {
            0 => self.valid += 1,
            2 => self.unchecked += 1,
            _ => {}
        }
        self.plies_unchecked += u64::from(c.plies_unchecked);
        self.irregularities += u64::from(c.irregularities);
        self.irregular_games += u64::from(c.irregularities > 0);
        if let Some(computed) = c.computed {
            self.result_counts[usize::from(c.declared)][usize::from(computed)] += 1;
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
