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
        let alias = alias_keys(s);
        let mut key = |name: &str| {
            let k = memo.of(name);
            alias.get(&k).cloned().unwrap_or(k)
        };
        // Copies: the same White, Black and whole Round value (a game with
        // no Round is compared only with its own moves: never merged by
        // pairing alone).
        let mut by_pairing: HashMap<(String, String, String), Vec<usize>> = HashMap::new();
        let mut order: Vec<(String, String, String)> = Vec::new();
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
            let list = by_pairing.entry(k.clone()).or_default();
            if list.is_empty() {
                order.push(k);
            }
            list.push(i);
        }
        let mut dropped: BTreeSet<usize> = BTreeSet::new();
        for k in &order {
            let list = &by_pairing[k];
            if list.len() < 2 {
                continue;
            }
            // The copies, each the same game as the first of its cluster.
            let mut clusters: Vec<Vec<usize>> = Vec::new();
            for &i in list {
                match clusters.iter_mut().find(|c| {
                    same_game(games, &games[c[0]], &games[i])
                        && c.iter().all(|&j| same_game(games, &games[j], &games[i]))
                }) {
                    Some(c) => c.push(i),
                    None => clusters.push(vec![i]),
                }
            }
            let preferred: Vec<usize> = match &s.prefer {
                Some(set) if clusters.len() > 1 => clusters
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| c.iter().any(|&i| set.is_match(games.text(games[i].file))))
                    .map(|(n, _)| n)
                    .collect(),
                _ => Vec::new(),
            };
            let winner = match (clusters.len(), preferred.as_slice()) {
                (1, _) => Some(0),
                (_, [one]) => Some(*one),
                _ => None,
            };
            let Some(w) = winner else {
                // Copies that disagree: none counts.
                out.conflicts.push(list[0]);
                dropped.extend(list.iter().copied());
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
                out.findings.push((list[0], Finding {
                    code: Code::ConflictingCopies,
                    severity: Severity::Error,
                    message: format!(
                        "{}: its copies differ in {what}: {}; none is counted (the game is missing) until one is preferred (--prefer FILE|GLOB) or removed",
                        pairing_text(games, list[0]),
                        described.join("; ")
                    ),
                    games: list.iter().map(|&i| games.place(i)).collect(),
                }));
                continue;
            };
            // The copies of the winner merged into its most complete copy;
            // the other clusters (settled by --prefer) set aside.
            let cluster = &clusters[w];
            let keep = cluster
                .iter()
                .copied()
                .max_by_key(|&i| (games[i].plies, std::cmp::Reverse(i)))
                .unwrap_or(cluster[0]);
            for (n, c) in clusters.iter().enumerate() {
                for &i in c {
                    if i == keep {
                        continue;
                    }
                    dropped.insert(i);
                    if n == w {
                        out.merged.push(keep);
                        out.findings.push((
                            keep,
                            Finding {
                                code: Code::DuplicateGame,
                                severity: Severity::Note,
                                message: format!(
                                    "{}: in {} and {}, counted once",
                                    pairing_text(games, keep),
                                    place_text(games, keep),
                                    place_text(games, i)
                                ),
                                games: vec![games.place(keep), games.place(i)],
                            },
                        ));
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
                out.findings.push((
                    keep,
                    Finding {
                        code: Code::DuplicateGame,
                        severity: Severity::Note,
                        message: format!(
                            "{}: copies that differ, settled by --prefer: {} is counted, not {}",
                            pairing_text(games, keep),
                            place_text(games, keep),
                            others.join(", ")
                        ),
                        games: list.iter().map(|&i| games.place(i)).collect(),
                    },
                ));
            }
        }
        out.kept.retain(|i| !dropped.contains(i));
        out
    }
}
