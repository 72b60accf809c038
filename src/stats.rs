//! Archive statistics as counters that merge across files and threads.

use crate::diag::Severity;
use crate::export::GameRow;
use crate::pdn::Outcome;
use crate::replay::Report;
use std::collections::BTreeMap;

/// Games and White's score after one opening.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Opening {
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

/// Counters for a set of games. `merge` adds two of them.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Stats {
    pub games: u64,
    pub valid: u64,
    pub invalid: u64,
    /// Games of a variant pdnkit does not check (never valid or invalid).
    pub unchecked: u64,
    pub findings: BTreeMap<String, u64>,
    /// Findings per severity, then per code (what `check` prints).
    pub findings_by_severity: BTreeMap<String, BTreeMap<String, u64>>,
    pub declared: BTreeMap<String, u64>,
    pub computed: BTreeMap<String, u64>,
    pub terminations: BTreeMap<String, u64>,
    pub result_mismatches: u64,
    /// Plies per game: value -> games (for the median).
    pub plies: BTreeMap<u32, u64>,
    pub captures: u64,
    pub longest_capture: u32,
    pub crownings: u64,
    /// Openings by their first 2 and first 4 plies (canonical numeric moves).
    pub openings2: BTreeMap<String, Opening>,
    pub openings4: BTreeMap<String, Opening>,
}

impl Stats {
    /// Counts one game. `opening` holds its first plies (canonical numeric), as
    /// many as were played, up to 4.
    pub fn add(&mut self, r: &Report, row: &GameRow, opening: &[String]) {
        self.games += 1;
        match r.verdict() {
            Some(true) => self.valid += 1,
            Some(false) => self.invalid += 1,
            None if r.kind.is_some() || r.inferred => self.unchecked += 1,
            None => self.invalid += 1,
        }
        for d in &r.diagnostics {
            self.add_finding(d.code, d.severity);
            if d.code == crate::diag::Code::ResultMismatch && d.severity == Severity::Error {
                self.result_mismatches += 1;
            }
        }
        *self
            .declared
            .entry(r.declared.map_or("none", |o| o.normalised()).to_string())
            .or_default() += 1;
        *self
            .computed
            .entry(r.computed.normalised().to_string())
            .or_default() += 1;
        *self
            .terminations
            .entry(r.termination.name().to_string())
            .or_default() += 1;
        *self.plies.entry(r.plies).or_default() += 1;
        self.captures += u64::from(row.captures);
        self.longest_capture = self.longest_capture.max(row.longest_capture);
        self.crownings += u64::from(row.crownings);
        let points = match r.declared {
            Some(Outcome::WhiteWins) => Some(2),
            Some(Outcome::Draw) => Some(1),
            Some(Outcome::BlackWins) => Some(0),
            _ => None,
        };
        for (n, table) in [(2usize, &mut self.openings2), (4, &mut self.openings4)] {
            if opening.len() >= n {
                let o = table.entry(opening[..n].join(" ")).or_default();
                o.games += 1;
                if let Some(p) = points {
                    o.scored += 1;
                    o.white_half_points += p;
                }
            }
        }
    }

    /// Counts one finding (of a game, or about a file).
    pub fn add_finding(&mut self, code: crate::diag::Code, severity: Severity) {
        *self.findings.entry(code.as_str().to_string()).or_default() += 1;
        *self
            .findings_by_severity
            .entry(severity.as_str().to_string())
            .or_default()
            .entry(code.as_str().to_string())
            .or_default() += 1;
    }

    /// Adds `other` into `self`.
    pub fn merge(&mut self, other: &Stats) {
        self.games += other.games;
        self.valid += other.valid;
        self.invalid += other.invalid;
        self.unchecked += other.unchecked;
        for (sev, m) in &other.findings_by_severity {
            let mine = self.findings_by_severity.entry(sev.clone()).or_default();
            for (k, v) in m {
                *mine.entry(k.clone()).or_default() += v;
            }
        }
        for (mine, theirs) in [
            (&mut self.findings, &other.findings),
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

    /// The `n` most played openings of a table, most games first.
    pub fn top(table: &BTreeMap<String, Opening>, n: usize) -> Vec<(&String, &Opening)> {
        let mut v: Vec<_> = table.iter().collect();
        v.sort_by(|a, b| b.1.games.cmp(&a.1.games).then(a.0.cmp(b.0)));
        v.truncate(n);
        v
    }
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
            games: 2,
            valid: 1,
            invalid: 1,
            longest_capture: 3,
            ..Stats::default()
        };
        a.findings.insert("syntax".into(), 1);
        a.openings2.insert(
            "32-28 19-23".into(),
            Opening {
                games: 2,
                scored: 1,
                white_half_points: 2,
            },
        );
        let mut b = Stats {
            games: 1,
            valid: 1,
            longest_capture: 5,
            ..Stats::default()
        };
        b.findings.insert("syntax".into(), 2);
        b.openings2.insert(
            "32-28 19-23".into(),
            Opening {
                games: 1,
                scored: 1,
                white_half_points: 1,
            },
        );
        a.merge(&b);
        assert_eq!(
            (a.games, a.valid, a.invalid, a.longest_capture),
            (3, 2, 1, 5)
        );
        assert_eq!(a.findings["syntax"], 3);
        let o = &a.openings2["32-28 19-23"];
        assert_eq!((o.games, o.scored, o.white_half_points), (3, 2, 3));
        assert_eq!(o.white_score(), Some(0.75));
    }
}
