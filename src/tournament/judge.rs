//! An event judged as an arbiter does: names, rounds, meetings and points,
//! the system, colours, dates, and the crosstable with its ranking.

use crate::diag::{Code, Severity};
use crate::pdn::Outcome;
use crate::tournament::crosstable::Meetings;
use crate::tournament::crosstable::{meetings_by_player, score, tiebreak, Opponents, PairGames};
use crate::tournament::games::Table;
use crate::tournament::model::{Event, Finding, Meeting, Player, Scoring, Settings, System};
use crate::tournament::names::Names;
use crate::tournament::names::{fits, one_apart_pairs, wild_pattern, Pat};
use crate::tournament::tags::{game_number, round_of};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The work of judging one event.
pub(super) struct Judge<'a> {
    pub(super) games: Table<'a>,
    pub(super) ix: &'a [usize],
    pub(super) s: &'a Settings,
    pub(super) names: Names,
    pub(super) findings: Vec<Finding>,
    /// The round of each game of `ix` (0: none).
    pub(super) round: Vec<u32>,
    pub(super) meetings: Meetings,
    /// Its micro-matches and their ballots.
    pub(super) micro: Micro,
    /// Per player: points, games, wins, draws, losses, games with White.
    pub(super) per_player: Vec<(u32, u32, u32, u32, u32, u32)>,
    /// Rounds whose Round value does not tell the games of a pairing apart
    /// (`round-unknown`): no `double-booked` or date range rests on them.
    pub(super) untold: BTreeSet<u32>,
}

impl Judge<'_> {
    pub(super) fn place(&self, i: usize) -> (String, usize) {
        self.games.place(i)
    }
    /// How player `p` is written most.
    pub(super) fn shown(&self, p: usize) -> &str {
        self.names.spellings[&self.names.keys[p]][0].0.as_str()
    }

    /// `name-variant` and `name-similar`.
    pub(super) fn name_findings(&mut self) {
        let keys = self.names.keys.clone();
        let spellings = self.names.spellings.clone();
        for k in &keys {
            let list = &spellings[k];
            if list.len() > 1 {
                let described: Vec<String> = list
                    .iter()
                    .map(|(sp, gs)| {
                        format!(
                            "\"{sp}\" ({} {})",
                            gs.len(),
                            if gs.len() == 1 { "game" } else { "games" }
                        )
                    })
                    .collect();
                let mut gs: Vec<(String, usize)> = list[1..]
                    .iter()
                    .flat_map(|(_, g)| g.iter().map(|&i| self.place(i)))
                    .collect();
                gs.dedup();
                self.findings.push(Finding {
                    code: Code::NameVariant,
                    severity: Severity::Warning,
                    message: format!(
                        "{} is written {} ways, merged: {}",
                        list[0].0,
                        list.len(),
                        described.join(", ")
                    ),
                    games: gs,
                });
            }
        }
        let lens: Vec<usize> = keys.iter().map(|k| k.chars().count()).collect();
        // Per player: a spelling with letters lost to broken bytes (`?`,
        // U+FFFD) and its pattern, worked out once.
        let lost: Vec<Option<(&String, Vec<Pat>)>> = keys
            .iter()
            .map(|k| {
                spellings[k]
                    .iter()
                    .find_map(|(sp, _)| wild_pattern(sp).map(|p| (sp, p)))
            })
            .collect();
        // Names of a few letters are all one letter apart: not compared; a
        // name with lost letters is compared by them (below).
        let compared = |a: usize| lens[a] >= 6 && lost[a].is_none();
        for (a, b) in one_apart_pairs(&keys, compared) {
            // The spelling of fewer games is the one to merge into the other
            // (the first met on a tie).
            let count = |k: &String| spellings[k].iter().map(|(_, g)| g.len()).sum::<usize>();
            let (ka, kb) = if count(&keys[b]) > count(&keys[a]) {
                (&keys[b], &keys[a])
            } else {
                (&keys[a], &keys[b])
            };
            let (na, nb) = (&spellings[ka][0].0, &spellings[kb][0].0);
            let gs: Vec<(String, usize)> =
                spellings[kb][0].1.iter().map(|&i| self.place(i)).collect();
            self.findings.push(Finding {
                code: Code::NameSimilar,
                severity: Severity::Warning,
                message: format!("\"{na}\" and \"{nb}\" are one letter apart: not merged (--alias '{nb}={na}' merges them)"),
                games: gs,
            });
        }
        // Names with letters lost to broken bytes (`?`, U+FFFD): those
        // letters fit any, letter by letter.
        for (a, ka) in keys.iter().enumerate() {
            let Some((spelling, pattern)) = &lost[a] else {
                continue;
            };
            for (b, kb) in keys.iter().enumerate() {
                if b == a || lost[b].is_some() {
                    continue;
                }
                let key: Vec<char> = kb.chars().collect();
                if fits(pattern, &key) {
                    let nb = &spellings[kb][0].0;
                    let gs: Vec<(String, usize)> = spellings[ka]
                        .iter()
                        .flat_map(|(_, g)| g.iter().map(|&i| self.place(i)))
                        .collect();
                    self.findings.push(Finding {
                        code: Code::NameSimilar,
                        severity: Severity::Warning,
                        message: format!("\"{spelling}\" has letters lost to broken bytes and fits \"{nb}\": not merged (--alias '{spelling}={nb}' merges them)"),
                        games: gs,
                    });
                }
            }
        }
    }

    /// The round of each game; `round-unknown`. A `game N` Round
    /// (CheckerBoard's `EVENT, game N`) is round N when no two games of the
    /// event have the same N (a match's games), else unknown (the games of
    /// each pairing of a tournament numbered apart).
    pub(super) fn read_rounds(&mut self) {
        let mut unknown_round: Vec<usize> = Vec::new();
        let numbers: Vec<Option<u32>> = self
            .ix
            .iter()
            .map(|&i| self.games.opt(self.games[i].round).and_then(game_number))
            .collect();
        let mut seen = BTreeSet::new();
        let numbered = numbers.iter().flatten().all(|&n| seen.insert(n));
        let round: Vec<u32> = self
            .ix
            .iter()
            .zip(&numbers)
            .map(|(&i, number)| {
                let read = self.games.opt(self.games[i].round).and_then(round_of);
                match read.or(number.filter(|_| numbered)) {
                    Some(r) => r,
                    None => {
                        unknown_round.push(i);
                        0
                    }
                }
            })
            .collect();
        if !unknown_round.is_empty() && unknown_round.len() < self.ix.len() {
            self.findings.push(Finding {
                code: Code::RoundUnknown,
                severity: Severity::Warning,
                message: format!(
                    "{} {} no round that can be read (Round is N or N.M)",
                    unknown_round.len(),
                    if unknown_round.len() == 1 {
                        "game has"
                    } else {
                        "games have"
                    }
                ),
                games: unknown_round.iter().map(|&i| self.place(i)).collect(),
            });
        }
        self.round = round;
    }

    /// Meetings, points and results; `forfeit` and `result-mismatch`.
    pub(super) fn tally(&mut self) {
        // Meetings: the games of one round between the same two players.
        for (j, &i) in self.ix.iter().enumerate() {
            let g = &self.games[i];
            let (white, black) = (self.games.text(g.white), self.games.text(g.black));
            let (w, b) = (self.names.player(white), self.names.player(black));
            if g.plies == 0 && matches!(g.result, Outcome::WhiteWins | Outcome::BlackWins) {
                self.findings.push(Finding {
                    code: Code::Forfeit,
                    severity: Severity::Warning,
                    message: format!(
                        "{white} – {black}: no moves, scored as declared ({})",
                        g.result.normalised()
                    ),
                    games: vec![self.place(i)],
                });
            }
            if let Some(m) = self.games.mismatch(i) {
                self.findings.push(Finding {
                    code: Code::ResultMismatch,
                    severity: Severity::Error,
                    message: format!("{white} – {black}: {m}"),
                    games: vec![self.place(i)],
                });
            }
            let Some((pw, pb)) = score(g.result, self.s.scoring) else {
                continue;
            };
            let key = (self.round[j], w.min(b), w.max(b));
            let e = self
                .meetings
                .entry(key)
                .or_insert((w, b, 0, 0, 0, Vec::new(), 0));
            let (mine, theirs) = if e.0 == w { (pw, pb) } else { (pb, pw) };
            e.2 += mine;
            e.3 += theirs;
            e.4 += 1;
            e.5.push(i);
            e.6 += u32::from(e.0 == w);
            for (p, got, other, white) in [(w, pw, pb, true), (b, pb, pw, false)] {
                let row = &mut self.per_player[p];
                row.1 += 1;
                row.5 += u32::from(white);
                match got.cmp(&other) {
                    std::cmp::Ordering::Greater => row.2 += 1,
                    std::cmp::Ordering::Equal if got > 0 => row.3 += 1,
                    std::cmp::Ordering::Equal => row.4 += 1,
                    std::cmp::Ordering::Less => row.4 += 1,
                }
                if self.s.scoring != Scoring::MatchPoints {
                    row.0 += got;
                }
            }
        }
        if self.s.scoring == Scoring::MatchPoints {
            for m in self.meetings.values() {
                let (a, b, pa, pb) = (m.0, m.1, m.2, m.3);
                let (ma, mb) = match pa.cmp(&pb) {
                    std::cmp::Ordering::Greater => (4, 0),
                    std::cmp::Ordering::Less => (0, 4),
                    std::cmp::Ordering::Equal => (2, 2),
                };
                self.per_player[a].0 += ma;
                self.per_player[b].0 += mb;
            }
        }
    }

    /// `double-booked`, the system, `repeated-pairing`, `missing-game`.
    pub(super) fn pairings(&mut self, rounds: &BTreeSet<u32>) -> System {
        // Double-booked: two opponents in one round.
        let mut opponents: BTreeMap<(u32, usize), BTreeMap<usize, Vec<usize>>> = BTreeMap::new();
        for (&(r, a, b), m) in &self.meetings {
            if r == 0 || self.untold.contains(&r) {
                continue;
            }
            opponents.entry((r, a)).or_default().insert(b, m.5.clone());
            opponents.entry((r, b)).or_default().insert(a, m.5.clone());
        }
        for (&(r, p), opp) in &opponents {
            if opp.len() > 1 {
                let names: Vec<&str> = opp.keys().map(|&o| self.shown(o)).collect();
                self.findings.push(Finding {
                    code: Code::DoubleBooked,
                    severity: Severity::Error,
                    message: format!("round {r}: {} plays {}", self.shown(p), names.join(" and ")),
                    games: opp.values().flatten().map(|&i| self.place(i)).collect(),
                });
            }
        }
        self.system(rounds, &opponents)
    }

    /// Whether the event's name says it is a match (`World title match`,
    /// `Tweekamp`, `Матч`).
    fn event_says_match(&self) -> bool {
        let Some(&i) = self.ix.first() else {
            return false;
        };
        let name = self.games.text(self.games[i].event).to_lowercase();
        name.split(|c: char| !c.is_alphanumeric())
            .any(|w| ["match", "matches", "tweekamp", "матч", "duel", "wedstrijd"].contains(&w))
    }

    /// The system the games show (a round robin when most pairs of the
    /// event's own players met), and `repeated-pairing`, `missing-game`.
    pub(super) fn system(&mut self, rounds: &BTreeSet<u32>, opponents: &Opponents) -> System {
        // The system: a round robin when most pairs met.
        let mut met: BTreeMap<(usize, usize), PairGames> = BTreeMap::new();
        for (&(r, a, b), m) in &self.meetings {
            met.entry((a, b)).or_default().push((r, m.5.clone()));
        }
        // The event's own players: those in at least half of the rounds (or of
        // the games of the busiest player): a spelling met once is not one more
        // player to be paired with everyone.
        let n = self.names.len();
        let mut rounds_of = vec![BTreeSet::new(); n];
        for &(r, p) in opponents.keys() {
            rounds_of[p].insert(r);
        }
        let busiest = self.per_player.iter().map(|r| r.1).max().unwrap_or(0);
        let core: Vec<bool> = (0..n)
            .map(|p| {
                if rounds.is_empty() {
                    self.per_player[p].1 * 2 >= busiest
                } else {
                    rounds_of[p].len() * 2 >= rounds.len()
                }
            })
            .collect();
        let core_n = core.iter().filter(|c| **c).count();
        let pairs = core_n * core_n.saturating_sub(1) / 2;
        let core_met = met.keys().filter(|(a, b)| core[*a] && core[*b]).count();
        let system = if n == 2 || (core_n == 2 && n > 2) {
            // A match is two players who meet more than once, or an Event
            // that says so; one game is no match (issue 62 item 8). A
            // spelling met in a few games (`MF Tinsley` beside `M Tinsley`)
            // is no third player of a match.
            if self.ix.len() > 1 || self.event_says_match() {
                System::Match
            } else {
                System::Game
            }
        } else if core_n >= 3 && core_met * 4 >= pairs * 3 {
            // Cycles: how many times most pairs met.
            let mut counts: BTreeMap<usize, usize> = BTreeMap::new();
            for v in met.values() {
                *counts.entry(v.len()).or_default() += 1;
            }
            let cycles = counts
                .iter()
                .max_by_key(|(c, k)| (**k, std::cmp::Reverse(**c)))
                .map_or(1, |(c, _)| *c) as u32;
            System::RoundRobin { cycles }
        } else {
            System::Swiss
        };
        let allowed = match system {
            System::RoundRobin { cycles } => cycles as usize,
            System::Swiss => 1,
            System::Match | System::Game => usize::MAX,
        };
        for (&(a, b), v) in &met {
            if v.len() > allowed {
                let rs: Vec<String> = v.iter().map(|(r, _)| r.to_string()).collect();
                self.findings.push(Finding {
                    code: Code::RepeatedPairing,
                    severity: Severity::Error,
                    message: format!(
                        "{} – {} meet {} times (rounds {}), the event's system allows {allowed}",
                        self.shown(a),
                        self.shown(b),
                        v.len(),
                        rs.join(", ")
                    ),
                    games: v
                        .iter()
                        .flat_map(|(_, g)| g.iter().map(|&i| self.place(i)))
                        .collect(),
                });
            }
        }
        if let System::RoundRobin { cycles } = system {
            self.missing_games(cycles, rounds, opponents, &met, &core);
        }
        system
    }

    /// `missing-game`: pairs of the event's own players that met fewer times
    /// than the cycles, named by a round where both had no game.
    pub(super) fn missing_games(
        &mut self,
        cycles: u32,
        rounds: &BTreeSet<u32>,
        opponents: &Opponents,
        met: &BTreeMap<(usize, usize), PairGames>,
        core: &[bool],
    ) {
        let n = self.names.len();
        // Missing games: pairs that met fewer times than the cycles, named
        // by a round where both had no game, when rounds are given.
        let playing: BTreeMap<u32, BTreeSet<usize>> =
            opponents.keys().fold(BTreeMap::new(), |mut m, &(r, p)| {
                m.entry(r).or_insert_with(BTreeSet::new).insert(p);
                m
            });
        let mut used: BTreeSet<(u32, usize)> = BTreeSet::new();
        for a in (0..n).filter(|&a| core[a]) {
            for b in (a + 1..n).filter(|&b| core[b]) {
                let have = met.get(&(a, b)).map_or(0, Vec::len) as u32;
                for _ in have..cycles {
                    let free = rounds.iter().copied().find(|r| {
                        let p = playing.get(r);
                        !p.is_some_and(|p| p.contains(&a) || p.contains(&b))
                            && !used.contains(&(*r, a))
                            && !used.contains(&(*r, b))
                    });
                    let (na, nb) = (&self.shown(a), &self.shown(b));
                    let message = match free {
                        Some(r) => {
                            used.insert((r, a));
                            used.insert((r, b));
                            format!("round {r}: no games of {na} – {nb}")
                        }
                        None => format!("no games of {na} – {nb}"),
                    };
                    self.findings.push(Finding {
                        code: Code::MissingGame,
                        severity: Severity::Error,
                        message,
                        games: Vec::new(),
                    });
                }
            }
        }
    }

    /// `colour-imbalance`.
    pub(super) fn colours(&mut self) {
        // Colours.
        for (p, row) in self.per_player.iter().enumerate() {
            let (white, black) = (row.5, row.1 - row.5);
            if white.abs_diff(black) > 1 {
                self.findings.push(Finding {
                    code: Code::ColourImbalance,
                    severity: Severity::Warning,
                    message: format!(
                        "{} has White {white} times and Black {black} times",
                        self.shown(p)
                    ),
                    games: Vec::new(),
                });
            }
        }
    }

    /// `date-outside-event`: a round dated before the round before it, or
    /// a game dated outside the span of its event's rounds (issue 55: the
    /// whole range).
    pub(super) fn dates(&mut self) {
        let round_dates = self.round_dates();
        let day_of: BTreeMap<u32, u32> = round_dates
            .iter()
            .filter_map(|(r, ds)| {
                ds.iter()
                    .max_by_key(|(d, c)| (**c, std::cmp::Reverse(**d)))
                    .map(|(d, _)| (*r, *d))
            })
            .collect();
        self.dates_backwards(&day_of);
        // The event's whole range: each round from its first to its last day
        // where those are a week apart or less (a round played as a match over
        // several days: Samb – Buggy 2003, round 2 on 13, 14 and 15 March),
        // else its usual day (a date a year off is a fault, not the range).
        let ordinal = |d: u32| d / 10000 * 372 + d / 100 % 100 * 31 + d % 100;
        let spans: Vec<(u32, u32)> = round_dates
            .iter()
            .filter_map(|(r, ds)| {
                let (lo, hi) = (*ds.keys().next()?, *ds.keys().next_back()?);
                if ordinal(hi) - ordinal(lo) <= 7 {
                    Some((lo, hi))
                } else {
                    day_of.get(r).map(|&d| (d, d))
                }
            })
            .collect();
        if let (Some(first), Some(end)) = (
            spans.iter().map(|s| s.0).min(),
            spans.iter().map(|s| s.1).max(),
        ) {
            self.dated_outside(first, end);
        }
    }

    /// Per round that tells its games apart, the days its games are dated
    /// (one day each), with how many games each.
    fn round_dates(&self) -> BTreeMap<u32, BTreeMap<u32, usize>> {
        let mut round_dates: BTreeMap<u32, BTreeMap<u32, usize>> = BTreeMap::new();
        for (j, &i) in self.ix.iter().enumerate() {
            if let (r, Some(d)) = (
                self.round[j],
                self.games
                    .opt(self.games[i].date)
                    .and_then(crate::select::date_span),
            ) {
                if r > 0 && d.0 == d.1 && !self.untold.contains(&r) {
                    *round_dates.entry(r).or_default().entry(d.0).or_default() += 1;
                }
            }
        }
        round_dates
    }

    /// A round whose usual day (`day_of`) is before the round before it.
    fn dates_backwards(&mut self, day_of: &BTreeMap<u32, u32>) {
        let mut last: Option<(u32, u32)> = None;
        for (&r, &d) in day_of {
            if let Some((pr, pd)) = last {
                if d < pd {
                    let gs: Vec<(String, usize)> = self
                        .ix
                        .iter()
                        .enumerate()
                        .filter(|(j, _)| self.round[*j] == r)
                        .map(|(_, &i)| self.place(i))
                        .collect();
                    self.findings.push(Finding {
                        code: Code::DateOutsideEvent,
                        severity: Severity::Warning,
                        message: format!(
                            "round {r} is dated {} but round {pr} {}: the dates go backwards",
                            show_day(d),
                            show_day(pd)
                        ),
                        games: gs,
                    });
                }
            }
            last = Some((r, d));
        }
    }

    /// A game dated outside the event's rounds, `first` to `end`.
    fn dated_outside(&mut self, first: u32, end: u32) {
        for (j, &i) in self.ix.iter().enumerate() {
            if self.untold.contains(&self.round[j]) {
                continue;
            }
            let Some((a, b)) = self
                .games
                .opt(self.games[i].date)
                .and_then(crate::select::date_span)
            else {
                continue;
            };
            if b < first || a > end {
                self.findings.push(Finding {
                    code: Code::DateOutsideEvent,
                    severity: Severity::Warning,
                    message: format!(
                        "{} – {} (round {}) is dated {}, outside the event's rounds ({} to {})",
                        self.games.text(self.games[i].white),
                        self.games.text(self.games[i].black),
                        self.round[j],
                        self.games.opt(self.games[i].date).unwrap_or(""),
                        show_day(first),
                        show_day(end)
                    ),
                    games: vec![self.place(i)],
                });
            }
        }
    }

    /// Tie-breaks, the ranking, and the event.
    pub(super) fn finish(
        mut self,
        year: Option<u32>,
        system: System,
        rounds: BTreeSet<u32>,
    ) -> Event {
        let (players, new_index) = self.ranking();
        let meetings = self.meetings_out(&new_index);
        self.findings
            .sort_by_key(|f| (f.severity != Severity::Error, f.code.as_str()));
        let first = &self.games[self.ix[0]];
        Event {
            event: self.games.text(first.event).to_string(),
            section: None,
            site: self.games.text(first.site).to_string(),
            year,
            players,
            rounds: rounds.into_iter().collect(),
            meetings,
            system,
            win_points: match self.s.scoring {
                Scoring::OneHalfZero => 1,
                _ => 2,
            },
            findings: self.findings,
            duplicates_merged: 0,
            conflicting_copies: 0,
            ballots: self.micro.ballots,
            micro_matches: self.micro.count,
        }
    }

    /// The players in ranking order (points, then the tie-breaks; equal
    /// players share a rank), and each player's place in it.
    fn ranking(&self) -> (Vec<Player>, Vec<usize>) {
        let points: Vec<u32> = self.per_player.iter().map(|r| r.0).collect();
        let n = self.names.len();
        let by_player = meetings_by_player(n, &self.meetings);
        let mut rows: Vec<Player> = (0..n)
            .map(|p| {
                let r = self.per_player[p];
                Player {
                    name: self.shown(p).to_string(),
                    spellings: self.names.spellings[&self.names.keys[p]]
                        .iter()
                        .map(|(s, _)| s.clone())
                        .collect(),
                    points: r.0,
                    games: r.1,
                    wins: r.2,
                    draws: r.3,
                    losses: r.4,
                    colours: (r.5, r.1 - r.5),
                    rank: 0,
                    tiebreaks: self
                        .s
                        .tiebreaks
                        .iter()
                        // `+ 0.0`: never a negative zero (JSON would write `-0.0`).
                        .map(|&t| (t, tiebreak(t, p, &by_player[p], &points) + 0.0))
                        .collect(),
                }
            })
            .collect();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| {
            let key = |p: usize| -> Vec<f64> {
                let mut k = vec![f64::from(points[p])];
                k.extend(rows[p].tiebreaks.iter().map(|t| t.1));
                k
            };
            key(b)
                .partial_cmp(&key(a))
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(a.cmp(&b))
        });
        let mut new_index = vec![0; n];
        for (pos, &p) in order.iter().enumerate() {
            new_index[p] = pos;
        }
        for pos in 0..n {
            let p = order[pos];
            let same = pos > 0 && {
                let q = order[pos - 1];
                rows[q].points == rows[p].points && rows[q].tiebreaks == rows[p].tiebreaks
            };
            rows[p].rank = if same {
                rows[order[pos - 1]].rank
            } else {
                pos + 1
            };
        }
        let players = order.iter().map(|&p| rows[p].clone()).collect();
        (players, new_index)
    }

    /// The meetings, with the players' places in the ranking.
    fn meetings_out(&self, new_index: &[usize]) -> Vec<Meeting> {
        self.meetings
            .iter()
            // A meeting's round is its key's: the round of its games.
            .map(|(&key, m)| {
                let v = self.micro.pairs.get(&key).cloned().flatten();
                Meeting {
                    round: if m.5.is_empty() { 0 } else { key.0 },
                    white: new_index[m.0],
                    black: new_index[m.1],
                    points: (m.2, m.3),
                    games: m.4,
                    white_games: m.6,
                    places: if self.micro.section {
                        m.5.iter().map(|&i| self.place(i)).collect()
                    } else {
                        Vec::new()
                    },
                    rounds_written: if self.micro.section {
                        m.5.iter()
                            .map(|&i| self.games.opt(self.games[i].round).map(str::to_string))
                            .collect()
                    } else {
                        Vec::new()
                    },
                    ballot: v.as_ref().map(|v| v.ballot),
                    ballot_how: v.as_ref().map(|v| v.how),
                    ballot_code: v.and_then(|v| v.code),
                }
            })
            .collect()
    }
}

pub(super) fn show_day(d: u32) -> String {
    format!("{:04}.{:02}.{:02}", d / 10000, d / 100 % 100, d % 100)
}

/// The ballot of a micro-match's two games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Verdict {
    /// `same`, `shared` or `differs`.
    pub ballot: &'static str,
    /// How each game starts: `setup/setup`, `setup/moves`, `moves/setup`,
    /// `moves/moves`.
    pub how: &'static str,
    /// The deepest row of the section's table both reach (games that start
    /// from the initial position).
    pub code: Option<String>,
}

/// The micro-matches of a section.
#[derive(Debug, Default)]
pub(super) struct Micro {
    /// Whether the section plays micro-matches.
    pub section: bool,
    /// How its ballots are known: `flag`, `setup`, `tag`; `None`: not checked.
    pub ballots: Option<&'static str>,
    /// Its meetings of two games.
    pub count: usize,
    /// The verdict on each meeting of two games, by its key (`None`: a
    /// game's first positions are not known).
    pub pairs: HashMap<(u32, usize, usize), Option<Verdict>>,
}
