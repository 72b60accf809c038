//! Copies of one game in an event: merged when they are one game, set aside
//! when they disagree (`duplicate-game`, `conflicting-copies`).

use super::*;

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
}

/// Whether two copies of one pairing and round are the same game: the same
/// result, and the same moves from the same start, or one with no moves, or
/// the moves of one the start of the other's ([`Table::same_moves`]).
pub(super) fn same_game(games: Table<'_>, a: &TGame, b: &TGame) -> bool {
    if a.result != b.result {
        return false;
    }
    if a.plies == 0 || b.plies == 0 {
        return true;
    }
    games.same_moves(a, b)
}

/// `round R White – Black` for messages.
pub(super) fn pairing_text(games: Table<'_>, i: usize) -> String {
    let g = &games[i];
    let (w, b) = (games.text(g.white), games.text(g.black));
    match games.opt(g.round).map(str::trim).filter(|r| !r.is_empty()) {
        Some(r) => format!("round {r} {w} – {b}"),
        None => format!("{w} – {b}"),
    }
}

pub(super) fn place_text(games: Table<'_>, i: usize) -> String {
    format!("{} game {}", games.text(games[i].file), games[i].game)
}

impl Copies {
    pub(super) fn of(games: Table<'_>, ix: &[usize], s: &Settings, memo: &mut Keys) -> Copies {
        let mut out = Copies {
            kept: ix.to_vec(),
            findings: Vec::new(),
            merged: Vec::new(),
            conflicts: Vec::new(),
        };
        if s.keep_duplicates {
            return out;
        }
        let mut dropped: BTreeSet<usize> = BTreeSet::new();
        for list in by_pairing(games, ix, s, memo) {
            if list.len() < 2 {
                continue;
            }
            let clusters = clusters(games, &list);
            let preferred: Vec<usize> = match &s.prefer {
                Some(set) if clusters.len() > 1 => clusters
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| c.iter().any(|&i| set.is_match(games.text(games[i].file))))
                    .map(|(n, _)| n)
                    .collect(),
                _ => Vec::new(),
            };
            match (clusters.len(), preferred.as_slice()) {
                (1, _) => out.merge(games, &list, &clusters, 0, &mut dropped),
                (_, [one]) => out.merge(games, &list, &clusters, *one, &mut dropped),
                // Copies that disagree: none counts.
                _ => {
                    dropped.extend(list.iter().copied());
                    out.conflict(games, &list, &clusters);
                }
            }
        }
        out.kept.retain(|i| !dropped.contains(i));
        out
    }

    /// `conflicting-copies`: the copies of one pairing and round (`list`)
    /// are more than one game (`clusters`), and none is preferred.
    fn conflict(&mut self, games: Table<'_>, list: &[usize], clusters: &[Vec<usize>]) {
        self.conflicts.push(list[0]);
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
            .max_by_key(|&i| (games[i].plies, std::cmp::Reverse(i)))
            .unwrap_or(cluster[0]);
        for (n, c) in clusters.iter().enumerate() {
            for &i in c.iter().filter(|&&i| i != keep) {
                dropped.insert(i);
                if n == w {
                    self.merged.push(keep);
                    let finding = Finding {
                        code: Code::DuplicateGame,
                        severity: Severity::Note,
                        message: format!(
                            "{}: in {} and {}, counted once",
                            pairing_text(games, keep),
                            place_text(games, keep),
                            place_text(games, i)
                        ),
                        games: vec![games.place(keep), games.place(i)],
                    };
                    self.findings.push((keep, finding));
                }
            }
        }
        if clusters.len() > 1 {
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
/// the first cluster whose every member is the same game ([`same_game`]).
/// Linear in the copies: a cluster's members with moves are the starts of
/// its longest one (its representative), so a game is the same game as all
/// of them when it has no moves, or the cluster none with moves, or its moves
/// and the representative's are one the start of the other; and the result
/// is the cluster's.
fn clusters(games: Table<'_>, list: &[usize]) -> Vec<Vec<usize>> {
    // Each cluster and its representative: its member with moves and the most plies.
    let mut clusters: Vec<(Vec<usize>, Option<usize>)> = Vec::new();
    for &i in list {
        let g = &games[i];
        let joins = |(c, rep): &(Vec<usize>, Option<usize>)| {
            games[c[0]].result == g.result
                && (g.plies == 0 || rep.is_none_or(|r| same_game(games, &games[r], g)))
        };
        let n = match clusters.iter().position(joins) {
            Some(n) => n,
            None => {
                clusters.push((Vec::new(), None));
                clusters.len() - 1
            }
        };
        let (c, rep) = &mut clusters[n];
        c.push(i);
        if g.plies > 0 && rep.is_none_or(|r| g.moves.plies > games[r].moves.plies) {
            *rep = Some(i);
        }
    }
    clusters.into_iter().map(|(c, _)| c).collect()
}
