//! Micro-matches and their ballots (shared/spec/OPENINGS.md 3.4): a section
//! whose meetings are mostly two games with colours swapped plays
//! micro-matches; each pair's two games should start from one ballot.

use crate::diag::{Code, Severity};
use crate::openings::Table as OpeningTable;
use crate::tournament::games::{Early, Table};
use crate::tournament::judge::{Judge, Micro, Verdict};
use crate::tournament::model::Finding;
use std::sync::Arc;

/// A game's start, for a verdict: its variant, its first positions' keys
/// and whether it is set up.
struct Start {
    v: Option<crate::variant::Variant>,
    keys: Vec<u64>,
    set_up: bool,
}

impl Start {
    fn of(games: Table<'_>, i: usize) -> Start {
        let e = games[i].early;
        Start {
            v: e.variant(),
            keys: games.early_keys(i),
            set_up: e.set_up(),
        }
    }
}

/// The ballot of two games (OPENINGS.md 3.4), the section's table the first
/// of `list` or of their variant's; `None` when a game's first positions
/// are not known.
fn verdict(a: &Start, b: &Start, list: Option<&[Arc<OpeningTable>]>) -> Option<Verdict> {
    let (ka, kb) = (a.keys.as_slice(), b.keys.as_slice());
    let (v, w) = (a.v?, b.v?);
    if ka.is_empty() || kb.is_empty() {
        return None;
    }
    let how = match (a.set_up, b.set_up) {
        (true, true) => "setup/setup",
        (true, false) => "setup/moves",
        (false, true) => "moves/setup",
        (false, false) => "moves/moves",
    };
    let same = |code| Verdict {
        ballot: "same",
        how,
        code,
    };
    let set_up_same = match (a.set_up, b.set_up) {
        (true, true) => ka[0] == kb[0],
        (true, false) => kb.contains(&ka[0]),
        (false, true) => ka.contains(&kb[0]),
        (false, false) => false,
    };
    if set_up_same {
        return Some(same(None));
    }
    if v != w {
        return Some(Verdict {
            ballot: "differs",
            how,
            code: None,
        });
    }
    let Some(t) = crate::openings::section_table(v, list) else {
        // No table: the first ply shared is the ballot shared.
        let shared = ka.len() > 1 && ka.get(..2) == kb.get(..2);
        return Some(Verdict {
            ballot: if shared { "shared" } else { "differs" },
            how,
            code: None,
        });
    };
    let (ra, rb) = (t.reached(v, ka, a.set_up), t.reached(v, kb, b.set_up));
    if ra.is_empty() && rb.is_empty() {
        // Neither game reaches a row of the table: their ballots are not
        // known from it (never `differs`).
        return None;
    }
    let code = |r: u32| Some(t.code(r).to_string());
    match (ra.last(), rb.last()) {
        (Some(x), Some(y)) if !a.set_up && !b.set_up && x.1 == y.1 => return Some(same(code(x.1))),
        _ => {}
    }
    let common = ra
        .iter()
        .rev()
        .find(|(_, r)| rb.iter().any(|(_, s)| s == r));
    Some(match common {
        Some(&(_, r)) => Verdict {
            ballot: "shared",
            how,
            code: code(r),
        },
        None => Verdict {
            ballot: "differs",
            how,
            code: None,
        },
    })
}

/// A game's start in words, for a `ballot-mismatch` message: its set-up
/// FEN, or the deepest row of the section's table it reaches.
fn described(games: Table<'_>, i: usize, s: &Start, list: Option<&[Arc<OpeningTable>]>) -> String {
    let (file, game) = games.place(i);
    let place = format!("{} game {game}", file);
    let table = s.v.and_then(|v| crate::openings::section_table(v, list));
    let row = table.as_ref().and_then(|t| {
        let (ply, r) = *t.reached(s.v?, &s.keys, s.set_up).last()?;
        Some(format!("{} {} after {ply} plies", t.name(), t.code(r)))
    });
    match (s.set_up, games.setup_fen(i), row) {
        (true, Some(fen), Some(row)) => format!("{place} set up from {fen} ({row})"),
        (true, Some(fen), None) => format!("{place} set up from {fen}"),
        (_, _, Some(row)) => format!("{place} reaches {row}"),
        (_, _, None) => match table {
            Some(t) => format!("{place} reaches no row of {}", t.name()),
            None => place,
        },
    }
}

impl Judge<'_> {
    /// Whether the section plays micro-matches, how its ballots are known,
    /// each pair's ballot; `ballot-mismatch`, `colours-not-swapped`,
    /// `micro-match-incomplete`.
    /// (meetings of two games with colours swapped, meetings): a section
    /// plays micro-matches when the first is at least half the second.
    pub(super) fn pair_counts(&self) -> (usize, usize) {
        let swapped = |m: &[usize]| {
            m.len() == 2 && self.white(m[0]) != self.white(m[1]) && {
                let black = self.names.player(self.games.text(self.games[m[1]].black));
                self.white(m[0]) == black
            }
        };
        let pairs = self.meetings.values().filter(|m| swapped(&m.5)).count();
        (pairs, self.meetings.len())
    }
    /// The player with White in game `i`.
    fn white(&self, i: usize) -> usize {
        self.names.player(self.games.text(self.games[i].white))
    }
    /// The micro-matches of a section that plays them.
    pub(super) fn micro_matches(&mut self) {
        let white = |j: &Judge<'_>, i: usize| j.white(i);
        let any = |f: fn(Early) -> bool| self.ix.iter().any(|&i| f(self.games[i].early));
        let ballots = match self.s.ballots {
            Some(false) => None,
            Some(true) => Some("flag"),
            None if any(Early::set_up) => Some("setup"),
            None if any(Early::tag) => Some("tag"),
            None => None,
        };
        let mut micro = Micro {
            section: true,
            ballots,
            ..Micro::default()
        };
        let list = self.s.opening_tables.as_deref();
        let mut found = Vec::new();
        for (&key, m) in &self.meetings {
            let (a, b) = (self.shown(m.0).to_string(), self.shown(m.1).to_string());
            let round = if key.0 > 0 {
                format!("round {}: ", key.0)
            } else {
                String::new()
            };
            match *m.5.as_slice() {
                [g] => found.push(Finding {
                    code: Code::MicroMatchIncomplete,
                    severity: Severity::Warning,
                    message: format!("{round}{a} – {b}: one game of a micro-match of two"),
                    games: vec![self.place(g)],
                }),
                [g, h] => {
                    micro.count += 1;
                    if white(self, g) == white(self, h) {
                        found.push(Finding {
                            code: Code::ColoursNotSwapped,
                            severity: Severity::Warning,
                            message: format!(
                                "{round}{} has White in both games of the micro-match with {}",
                                self.shown(white(self, g)),
                                if white(self, g) == m.0 { &b } else { &a }
                            ),
                            games: vec![self.place(g), self.place(h)],
                        });
                    }
                    let (sg, sh) = (Start::of(self.games, g), Start::of(self.games, h));
                    let v = verdict(&sg, &sh, list);
                    if ballots.is_some() && v.as_ref().is_some_and(|v| v.ballot == "differs") {
                        found.push(Finding {
                            code: Code::BallotMismatch,
                            severity: Severity::Warning,
                            message: format!(
                                "{round}{a} – {b}: the two games start from different ballots: {}; {}",
                                described(self.games, g, &sg, list),
                                described(self.games, h, &sh, list)
                            ),
                            games: vec![self.place(g), self.place(h)],
                        });
                    }
                    micro.pairs.insert(key, v);
                }
                _ => {}
            }
        }
        self.findings.extend(found);
        self.micro = micro;
    }
}
