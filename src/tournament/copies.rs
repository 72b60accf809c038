//! Copies of one game in an event: merged when they are one game, set aside
//! when they disagree (`duplicate-game`, `conflicting-copies`).

use crate::diag::{Code, Severity};
use crate::pdn::Outcome;
use crate::tournament::games::{TGame, Table};
use crate::tournament::model::{Finding, Settings};
use crate::tournament::names::{alias_keys, Keys};
use crate::tournament::sets::{by_root, root};
use hashbrown::HashMap;
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// The games of an event counted once: copies of one game (the same
/// pairing, the same whole Round value, the same moves or the start of them,
/// the same result) merged, and copies that disagree set aside.
pub(super) struct Copies {
    /// The games that count, in input order.
    pub(super) kept: Vec<usize>,
    /// Each finding with a game of its pairing.
    pub(super) findings: Vec<(usize, Finding)>,
    /// Per extra copy merged: the game counted.
    pub(super) merged: Vec<usize>,
    /// Per pairing whose copies disagree: its first copy.
    pub(super) conflicts: Vec<usize>,
    /// The games whose Round value holds several different games of their
    /// pairing (`round-unknown`): that Round does not tell rounds apart.
    pub(super) untold: Vec<usize>,
    /// Only what is counted is wanted, not the findings' messages
    /// ([`Copies::counted`]).
    quiet: bool,
}

/// Whether two copies of one pairing and round are the same game: the same
/// result, and the same moves from the same start, or one with no moves, or
/// the moves of one the start of the other's ([`Table::same_moves`]). An
/// unfinished copy (`*`) whose moves are the start of a finished one is an
/// incomplete copy of it (issue 62): the finished game counts.
pub(super) fn same_game(games: Table<'_>, a: &TGame, b: &TGame) -> bool {
    if a.result != b.result {
        let (open, done) = match (a.result, b.result) {
            (Outcome::Unknown, _) => (a, b),
            (_, Outcome::Unknown) => (b, a),
            _ => return false,
        };
        return open.plies > 0 && open.plies <= done.plies && games.same_moves(open, done);
    }
    if a.plies == 0 || b.plies == 0 {
        return true;
    }
    games.same_moves(a, b)
}

/// `round R White – Black` for messages.
pub(super) fn pairing_text(games: Table<'_>, i: usize) -> String {
    Pairing(games, i).to_string()
}

pub(super) fn place_text(games: Table<'_>, i: usize) -> String {
    Place(games, i).to_string()
}

/// [`pairing_text`], written where it is wanted (no string of its own).
struct Pairing<'a>(Table<'a>, usize);

impl std::fmt::Display for Pairing<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (games, g) = (self.0, &self.0[self.1]);
        let (w, b) = (games.text(g.white), games.text(g.black));
        match games.opt(g.round).map(str::trim).filter(|r| !r.is_empty()) {
            Some(r) => write!(f, "round {r} {w} – {b}"),
            None => write!(f, "{w} – {b}"),
        }
    }
}

/// [`place_text`], written where it is wanted.
struct Place<'a>(Table<'a>, usize);

impl std::fmt::Display for Place<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (games, i) = (self.0, self.1);
        write!(f, "{} game {}", games.text(games[i].file), games[i].game)
    }
}

impl Copies {
    pub(super) fn of(games: Table<'_>, ix: &[usize], s: &Settings, memo: &mut Keys) -> Copies {
        Copies::telling(games, ix, s, memo, false)
    }

    /// [`Copies::of`] without the findings: what counts, and the copies
    /// merged (`stats`, which counts each game once: issue 65, the
    /// messages were 2 % of `stats --by player`).
    pub(super) fn counted(games: Table<'_>, ix: &[usize], s: &Settings, memo: &mut Keys) -> Copies {
        Copies::telling(games, ix, s, memo, true)
    }

    fn telling(
        games: Table<'_>,
        ix: &[usize],
        s: &Settings,
        memo: &mut Keys,
        quiet: bool,
    ) -> Copies {
        let mut out = Copies {
            kept: ix.to_vec(),
            findings: Vec::new(),
            merged: Vec::new(),
            conflicts: Vec::new(),
            untold: Vec::new(),
            quiet,
        };
        if s.keep_duplicates {
            return out;
        }
        let mut dropped: BTreeSet<usize> = BTreeSet::new();
        for (keep, copy) in sub_round_copies(games, ix, s, memo) {
            dropped.insert(copy);
            let how = if out.quiet {
                String::new()
            } else {
                let round = games.opt(games[copy].round).unwrap_or("").trim();
                format!("as round {round}, in ")
            };
            out.merged_copy(games, keep, copy, how);
        }
        let rest: Vec<usize> = ix
            .iter()
            .copied()
            .filter(|i| !dropped.contains(i))
            .collect();
        for list in by_pairing(games, &rest, s, memo) {
            if list.len() < 2 {
                continue;
            }
            let clusters = clusters(games, &list);
            let mut counted = 0;
            for part in disagreeing(games, &clusters) {
                let part: Vec<Vec<usize>> =
                    part.into_iter().map(|n| clusters[n].0.clone()).collect();
                let copies: Vec<usize> = part.iter().flatten().copied().collect();
                let preferred: Vec<usize> = match &s.prefer {
                    Some(set) if part.len() > 1 => part
                        .iter()
                        .enumerate()
                        .filter(|(_, c)| c.iter().any(|&i| set.is_match(games.text(games[i].file))))
                        .map(|(n, _)| n)
                        .collect(),
                    _ => Vec::new(),
                };
                match (part.len(), preferred.as_slice()) {
                    (1, _) => out.merge(games, &copies, &part, 0, &mut dropped),
                    (_, [one]) => out.merge(games, &copies, &part, *one, &mut dropped),
                    // Copies that disagree: none counts.
                    _ => {
                        dropped.extend(copies.iter().copied());
                        out.conflict(games, &copies, &part);
                        continue;
                    }
                }
                counted += 1;
            }
            if counted > 1 {
                out.several(games, &list, counted);
            }
        }
        out.kept.retain(|i| !dropped.contains(i));
        out
    }

    /// `round-unknown`: one pairing's Round value (`list`) holds `counted`
    /// different games (other moves, or other dates): each counts, and the
    /// rounds are not told apart.
    fn several(&mut self, games: Table<'_>, list: &[usize], counted: usize) {
        self.untold.extend_from_slice(list);
        if self.quiet {
            return;
        }
        self.findings.push((list[0], Finding {
            code: Code::RoundUnknown,
            severity: Severity::Warning,
            message: format!(
                "{}: {counted} different games (other moves or another date) have this Round value: each is counted, and their rounds are not told apart",
                pairing_text(games, list[0]),
            ),
            games: list.iter().map(|&i| games.place(i)).collect(),
        }));
    }

    /// `conflicting-copies`: the copies of one pairing and round (`list`)
    /// are more than one game (`clusters`), and none is preferred.
    fn conflict(&mut self, games: Table<'_>, list: &[usize], clusters: &[Vec<usize>]) {
        self.conflicts.push(list[0]);
        if self.quiet {
            return;
        }
        let described: Vec<String> = clusters
            .iter()
            .map(|c| {
                let g = &games[c[0]];
                let places: Vec<String> = c.iter().map(|&i| place_text(games, i)).collect();
                format!(
                    "{} in {} plies ({})",
                    g.result.normalised(),
                    g.plies,
                    places.join(", ")
                )
            })
            .collect();
        let results: BTreeSet<&str> = clusters
            .iter()
            .map(|c| games[c[0]].result.normalised())
            .collect();
        let what = if results.len() > 1 {
            "results"
        } else {
            "moves"
        };
        self.findings.push((list[0], Finding {
            code: Code::ConflictingCopies,
            severity: Severity::Error,
            message: format!(
                "{}: its copies differ in {what}: {}; none is counted (the game is missing) until one is preferred (--prefer FILE|GLOB) or removed",
                pairing_text(games, list[0]),
                described.join("; ")
            ),
            games: list.iter().map(|&i| games.place(i)).collect(),
        }));
    }

    /// `copy` merged into `keep`: its `duplicate-game` note names both
    /// places (`how` before the copy's: `as round 3, in `).
    fn merged_copy(&mut self, games: Table<'_>, keep: usize, copy: usize, how: String) {
        self.merged.push(keep);
        if self.quiet {
            return;
        }
        // Room made at once: `format!` grows its string a piece at a time
        // (issue 65: a note for each copy of a game, 2 % of `tournament` on
        // an archive stored four times).
        let mut message = String::with_capacity(192);
        let _ = write!(
            message,
            "{}: in {} and {how}{}, counted once",
            Pairing(games, keep),
            Place(games, keep),
            Place(games, copy)
        );
        let finding = Finding {
            code: Code::DuplicateGame,
            severity: Severity::Note,
            message,
            games: vec![games.place(keep), games.place(copy)],
        };
        self.findings.push((keep, finding));
    }

    /// The copies of cluster `w` merged into its most complete copy; the
    /// other clusters (settled by --prefer) set aside.
    fn merge(
        &mut self,
        games: Table<'_>,
        list: &[usize],
        clusters: &[Vec<usize>],
        w: usize,
        dropped: &mut BTreeSet<usize>,
    ) {
        let cluster = &clusters[w];
        let keep = cluster
            .iter()
            .copied()
            .max_by_key(|&i| {
                (
                    games[i].plies,
                    games[i].result != Outcome::Unknown,
                    std::cmp::Reverse(i),
                )
            })
            .unwrap_or(cluster[0]);
        for (n, c) in clusters.iter().enumerate() {
            for &i in c.iter().filter(|&&i| i != keep) {
                dropped.insert(i);
                if n == w {
                    self.merged_copy(games, keep, i, String::new());
                }
            }
        }
        if clusters.len() > 1 && !self.quiet {
            let others: Vec<String> = clusters
                .iter()
                .enumerate()
                .filter(|&(n, _)| n != w)
                .flat_map(|(_, c)| c.iter().map(|&i| place_text(games, i)))
                .collect();
            let finding = Finding {
                code: Code::DuplicateGame,
                severity: Severity::Note,
                message: format!(
                    "{}: copies that differ, settled by --prefer: {} is counted, not {}",
                    pairing_text(games, keep),
                    place_text(games, keep),
                    others.join(", ")
                ),
                games: list.iter().map(|&i| games.place(i)).collect(),
            };
            self.findings.push((keep, finding));
        }
    }
}

/// Games of Round `N` that are copies of a game of Round `N.M` (a game of a
/// round's match, OPENINGS.md 3.4): the same White and Black (by key, after
/// the aliases), moves from the same start (both with moves) and result.
/// Each pair is (the `N.M` game, kept; the `N` game, a copy). Archives store
/// a round's games as `3` in a round file and as `3.1`, `3.2` in the whole
/// event's file.
fn sub_round_copies(
    games: Table<'_>,
    ix: &[usize],
    s: &Settings,
    memo: &mut Keys,
) -> Vec<(usize, usize)> {
    let alias = alias_keys(s);
    let mut key = |name: &str| {
        let k = memo.of(name);
        alias.get(&k).cloned().unwrap_or(k)
    };
    let round = |i: usize| games.opt(games[i].round).map(str::trim).unwrap_or("");
    // The games of a round's match, by pairing and round.
    let mut matches: HashMap<(String, String, &str), Vec<usize>> = HashMap::new();
    for &i in ix {
        if let Some((head, sub)) = round(i).split_once('.') {
            if !head.is_empty() && !sub.is_empty() && games[i].plies > 0 {
                let k = (
                    key(games.text(games[i].white)),
                    key(games.text(games[i].black)),
                    head,
                );
                matches.entry(k).or_default().push(i);
            }
        }
    }
    if matches.is_empty() {
        return Vec::new();
    }
    let mut pairs = Vec::new();
    for &i in ix {
        let r = round(i);
        if r.is_empty() || r.contains('.') || games[i].plies == 0 {
            continue;
        }
        let k = (
            key(games.text(games[i].white)),
            key(games.text(games[i].black)),
            r,
        );
        let same = matches.get(&k).and_then(|list| {
            list.iter().copied().find(|&m| {
                games[m].plies == games[i].plies && same_game(games, &games[m], &games[i])
            })
        });
        if let Some(m) = same {
            pairs.push((m, i));
        }
    }
    pairs
}

/// The games of `ix` by pairing: the same White, Black (by key, after the
/// aliases) and whole Round value, in the order of each pairing's first
/// game. A game with no Round is in none (never merged by pairing alone).
fn by_pairing(games: Table<'_>, ix: &[usize], s: &Settings, memo: &mut Keys) -> Vec<Vec<usize>> {
    let alias = alias_keys(s);
    let mut key = |name: &str| {
        let k = memo.of(name);
        alias.get(&k).cloned().unwrap_or(k)
    };
    let mut at: HashMap<(String, String, String), usize> = HashMap::new();
    let mut lists: Vec<Vec<usize>> = Vec::new();
    for &i in ix {
        let g = &games[i];
        let Some(round) = games.opt(g.round).map(str::trim).filter(|r| !r.is_empty()) else {
            continue;
        };
        let k = (
            key(games.text(g.white)),
            key(games.text(g.black)),
            round.to_string(),
        );
        let n = *at.entry(k).or_insert_with(|| {
            lists.push(Vec::new());
            lists.len() - 1
        });
        lists[n].push(i);
    }
    lists
}

/// The copies of one pairing and round grouped into games: each game joins
/// the first cluster whose every member is the same game ([`same_game`]) of
/// the same day. Linear in the copies: a cluster's members with moves are
/// the starts of its longest one (its representative), so a game is the same
/// game as all of them when it has no moves, or the cluster none with moves,
/// or its moves and the representative's are one the start of the other;
/// the result is the cluster's, and so is the day where one is written.
/// Each cluster with its representative and its day.
fn clusters(games: Table<'_>, list: &[usize]) -> Vec<(Vec<usize>, Option<usize>, Option<u32>)> {
    let mut clusters: Vec<(Vec<usize>, Option<usize>, Option<u32>)> = Vec::new();
    for &i in list {
        let g = &games[i];
        let day = day_of(games, i);
        let joins = |(c, rep, d): &(Vec<usize>, Option<usize>, Option<u32>)| {
            // The cluster's result, or an unfinished copy and the finished
            // game it starts (whichever comes first).
            let result = games[c[0]].result == g.result
                || rep.is_some_and(|r| g.plies > 0 && same_game(games, &games[r], g));
            result
                && same_day(*d, day)
                && (g.plies == 0 || rep.is_none_or(|r| same_game(games, &games[r], g)))
        };
        let n = match clusters.iter().position(joins) {
            Some(n) => n,
            None => {
                clusters.push((Vec::new(), None, None));
                clusters.len() - 1
            }
        };
        let (c, rep, d) = &mut clusters[n];
        c.push(i);
        // The representative: the longest; of two as long, the finished one.
        let finished = |i: usize| games[i].result != Outcome::Unknown;
        if g.plies > 0
            && rep
                .is_none_or(|r| (g.moves.plies, finished(i)) > (games[r].moves.plies, finished(r)))
        {
            *rep = Some(i);
        }
        if d.is_none() {
            *d = day;
        }
    }
    clusters
}

/// The day a game's Date gives, when it gives one.
fn day_of(games: Table<'_>, i: usize) -> Option<u32> {
    games
        .opt(games[i].date)
        .and_then(crate::select::date_span)
        .filter(|(a, b)| a == b)
        .map(|(a, _)| a)
}

/// Two games can be one: their days are one, or one is not written.
fn same_day(a: Option<u32>, b: Option<u32>) -> bool {
    a.is_none() || b.is_none() || a == b
}

/// The clusters grouped into what must be settled together: copies whose
/// moves agree (one the start of the other, or one with none) and days
/// agree, but whose results differ, are one group (`conflicting-copies`
/// unless `--prefer` settles it); a cluster whose moves or day differ from
/// every other's is another game, a group of its own. In the order of each
/// group's first cluster.
fn disagreeing(
    games: Table<'_>,
    clusters: &[(Vec<usize>, Option<usize>, Option<u32>)],
) -> Vec<Vec<usize>> {
    let n = clusters.len();
    let mut group: Vec<usize> = (0..n).collect();
    let result = |c: usize| games[clusters[c].0[0]].result;
    let join = |group: &mut Vec<usize>, a: usize, b: usize| {
        if a != b && result(a) != result(b) && same_day(clusters[a].2, clusters[b].2) {
            let (x, y) = (root(group, a), root(group, b));
            group[x.max(y)] = x.min(y);
        }
    };
    // A cluster with no moves agrees with every other in moves.
    for a in (0..n).filter(|&a| clusters[a].1.is_none()) {
        for b in 0..n {
            join(&mut group, a, b);
        }
    }
    // Moves that agree: the shorter one's last hash is the longer one's
    // after as many plies (each representative's hashes read once, looked
    // up among the last hashes: linear in the plies, never pairwise).
    let mut by_last: HashMap<(u32, u64), Vec<usize>> = HashMap::new();
    for (c, (_, rep, _)) in clusters.iter().enumerate() {
        if let Some(r) = rep {
            let m = games[*r].moves;
            by_last.entry((m.plies, m.full)).or_default().push(c);
        }
    }
    for (b, (_, rep, _)) in clusters.iter().enumerate() {
        let Some(r) = rep else { continue };
        let m = games[*r].moves;
        let mut after = games.hashes_before_last(*r);
        after.push(m.full);
        for (k, h) in after.into_iter().enumerate() {
            for &a in by_last.get(&(k as u32 + 1, h)).into_iter().flatten() {
                join(&mut group, a, b);
            }
        }
    }
    by_root(&mut group, (0..n).map(|c| (c, c)))
}
