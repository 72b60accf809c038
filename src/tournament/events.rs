//! Events made of the games and judged: the grouping by Event, year and
//! town, the sections of players who never meet, and the judging driver.

use crate::diag::{Code, Severity};
use crate::tournament::copies::Copies;
use crate::tournament::games::{Games, Sym, Table};
use crate::tournament::judge::{Judge, Micro};
use crate::tournament::model::{plural, Event, Finding, Scoring, Settings, System};
use crate::tournament::names::alias_keys;
use crate::tournament::names::{Keys, Names};
use crate::tournament::sets::{by_root, root};
use crate::tournament::tags::{split_event_name, year_of};
use hashbrown::HashMap;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::ControlFlow;
/// The groups of games that may be one event: Event values equal once a
/// trailing parenthesised part is removed (folded), the same Site (folded)
/// and the same year; in input order.
pub(super) fn event_groups(games: Table<'_>, keys: &mut Keys) -> Vec<(Option<u32>, Vec<usize>)> {
    let mut groups: HashMap<(String, String, Option<u32>), usize> = HashMap::new();
    let mut out: Vec<(Option<u32>, Vec<usize>)> = Vec::new();
    // The group of each Event, Site and Date as interned: their keys are
    // worked out once, not for every game (issue 65).
    let mut seen: HashMap<(Sym, Sym, Sym), usize> = HashMap::new();
    for i in 0..games.len() {
        let g = &games[i];
        let n = *seen.entry((g.event, g.site, g.date)).or_insert_with(|| {
            let year = games.opt(g.date).and_then(year_of);
            let key = (
                keys.of(split_event_name(games.text(g.event)).0),
                keys.of(games.text(g.site)),
                year,
            );
            *groups.entry(key).or_insert_with(|| {
                out.push((year, Vec::new()));
                out.len() - 1
            })
        });
        out[n].1.push(i);
    }
    one_match_many_sites(games, keys, undated_into_their_event(&groups, out))
}

/// Games with no year (no Date, or one that cannot be read) stay in their
/// event: a group of an Event name (not empty) and Site with no year joins
/// the group of the same Event and Site with a year, when there is exactly
/// one (issue 62: `[Round "ronde2"]` games without a Date were an event of
/// their own, and round 2 was missing from the crosstable).
fn undated_into_their_event(
    groups: &HashMap<(String, String, Option<u32>), usize>,
    mut out: Vec<(Option<u32>, Vec<usize>)>,
) -> Vec<(Option<u32>, Vec<usize>)> {
    let mut dated: HashMap<(&str, &str), Vec<usize>> = HashMap::new();
    for ((event, site, year), &n) in groups {
        if year.is_some() && !event.is_empty() {
            dated.entry((event, site)).or_default().push(n);
        }
    }
    let mut into: Vec<Option<usize>> = vec![None; out.len()];
    for ((event, site, year), &n) in groups {
        if year.is_none() {
            if let Some([one]) = dated
                .get(&(event.as_str(), site.as_str()))
                .map(Vec::as_slice)
            {
                into[n] = Some(*one);
            }
        }
    }
    if into.iter().all(Option::is_none) {
        return out;
    }
    for n in 0..out.len() {
        if let Some(m) = into[n] {
            let moved = std::mem::take(&mut out[n].1);
            out[m].1.extend(moved);
            out[m].1.sort_unstable();
        }
    }
    out.into_iter()
        .enumerate()
        .filter(|(n, _)| into[*n].is_none())
        .map(|(_, g)| g)
        .collect()
}

/// Groups of one Event name and year that differ only by Site, each of the
/// same two players, are one match played in several towns (issue 55: the
/// Van der Wal – Wiersma match of 1983 in four towns): merged, in input order.
pub(super) fn one_match_many_sites(
    games: Table<'_>,
    keys: &mut Keys,
    groups: Vec<(Option<u32>, Vec<usize>)>,
) -> Vec<(Option<u32>, Vec<usize>)> {
    // Per group: (event key, year) and its players' keys.
    let mut of_event: HashMap<(String, Option<u32>), Vec<usize>> = HashMap::new();
    let mut players: Vec<BTreeSet<String>> = Vec::new();
    for (n, (year, ix)) in groups.iter().enumerate() {
        let event = keys.of(split_event_name(games.text(games[ix[0]].event)).0);
        let mut set = BTreeSet::new();
        for &i in ix {
            for name in [games.text(games[i].white), games.text(games[i].black)] {
                if !keys.placeholder(name) {
                    set.insert(keys.of(name));
                }
            }
        }
        players.push(set);
        if !event.is_empty() {
            of_event.entry((event, *year)).or_default().push(n);
        }
    }
    let mut into: Vec<Option<usize>> = vec![None; groups.len()];
    for list in of_event.values() {
        let sets: Vec<&BTreeSet<String>> = list.iter().map(|&n| &players[n]).collect();
        if one_match(&sets) {
            for &n in &list[1..] {
                into[n] = Some(list[0]);
            }
        }
    }
    let mut out: Vec<(Option<u32>, Vec<usize>)> = Vec::new();
    let mut at: HashMap<usize, usize> = HashMap::new();
    for (n, (year, ix)) in groups.into_iter().enumerate() {
        match into[n].and_then(|m| at.get(&m)) {
            Some(&k) => out[k].1.extend(ix),
            None => {
                at.insert(n, out.len());
                out.push((year, ix));
            }
        }
    }
    for (_, ix) in &mut out {
        ix.sort_unstable();
    }
    out
}

/// Whether the players of the towns of one Event name and year (`sets`, a
/// set per town) make one match played in several towns: more than one
/// town, each with the same two players.
pub(super) fn one_match(sets: &[&BTreeSet<String>]) -> bool {
    sets.len() > 1 && sets[0].len() == 2 && sets.iter().all(|s| s == &sets[0])
}

impl Games {
    /// The games' events, each judged: one [`Event`] per event, or per section
    /// of an event whose players form groups that never meet.
    ///
    /// With the `batch` feature, events are judged in parallel on the current
    /// rayon pool (run it in a pool of one thread for one thread); the order is
    /// the same.
    pub fn events(&self, settings: &Settings) -> Vec<Event> {
        let mut all = Vec::new();
        let _ = self.each_event(settings, |e| {
            all.push(e);
            ControlFlow::<()>::Continue(())
        });
        all
    }

    /// The events of [`Games::events`], in the same order, given to `f` a
    /// few at a time as they are judged: what an event holds (its findings,
    /// a note per copy counted once) is freed once `f` has it, so an archive
    /// with many copies is judged in memory of the order of its largest
    /// event. Stops when `f` breaks, and gives back its value.
    pub fn each_event<B>(
        &self,
        settings: &Settings,
        f: impl FnMut(Event) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        each_event_of(self.table(), settings, f)
    }
}

/// Events judged at a time per thread (in parallel, with `batch`) before
/// they are given: enough to keep the threads busy, few enough that what
/// they hold stays small.
#[cfg(feature = "batch")]
pub(super) const JUDGED_PER_THREAD: usize = 4;

/// [`Games::each_event`] of the games of a table.
pub(super) fn each_event_of<B>(
    games: Table<'_>,
    settings: &Settings,
    mut f: impl FnMut(Event) -> ControlFlow<B>,
) -> ControlFlow<B> {
    let mut keys = Keys::default();
    let groups = event_groups(games, &mut keys);
    #[cfg(feature = "batch")]
    if rayon::current_num_threads() > 1 && groups.len() > 1 {
        use rayon::prelude::*;
        for chunk in groups.chunks(JUDGED_PER_THREAD * rayon::current_num_threads()) {
            let judged: Vec<Vec<Event>> = chunk
                .par_iter()
                .map_init(Keys::default, |memo, (year, ix)| {
                    judge(games, ix, *year, settings, memo)
                })
                .collect();
            for e in judged.into_iter().flatten() {
                f(e)?;
            }
        }
        return ControlFlow::Continue(());
    }
    for (year, ix) in &groups {
        for e in judge(games, ix, *year, settings, &mut keys) {
            f(e)?;
        }
    }
    ControlFlow::Continue(())
}

/// Which games count, as the crosstables of [`Games::events`] count them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Counted {
    /// Per game, in the order given: whether it counts.
    pub each: Vec<bool>,
    /// Extra copies of a game counted once (`duplicate-game`).
    pub merged: usize,
    /// Games left out because their copies disagree (`conflicting-copies`).
    pub conflicting: usize,
}

/// Which games of `groups` (events, as [`event_groups`] makes them) count:
/// each game stored more than once in an event counted once, and the copies
/// that disagree (`conflicting-copies`) left out, as the crosstables of
/// [`Games::events`] count them. Games with a placeholder for a player all count
/// (`stats --by player` lists them as "unknown player"). `stats` gives the
/// games a few pairings at a time ([`Once`]).
pub(super) fn counted(
    games: Table<'_>,
    groups: &[Vec<usize>],
    settings: &Settings,
    keys: &mut Keys,
) -> Counted {
    let mut out = Counted {
        each: vec![true; games.len()],
        ..Counted::default()
    };
    for ix in groups {
        let real: Vec<usize> = ix
            .iter()
            .copied()
            .filter(|&i| {
                !keys.placeholder(games.text(games[i].white))
                    && !keys.placeholder(games.text(games[i].black))
            })
            .collect();
        let copies = Copies::counted(games, &real, settings, keys);
        let kept: BTreeSet<usize> = copies.kept.iter().copied().collect();
        out.merged += copies.merged.len();
        for i in real {
            out.each[i] = kept.contains(&i);
        }
    }
    // The games not counted are the extra copies and the copies that
    // disagree (and, with `prefer`, the copies it set aside).
    out.conflicting = out
        .each
        .iter()
        .filter(|c| !**c)
        .count()
        .saturating_sub(out.merged);
    out
}

/// The games of `ix` split into sets of players with no game between them
/// (connected components of the graph of games), each in input order, the
/// sets in the order of their first game.
pub(super) fn components(
    games: Table<'_>,
    ix: &[usize],
    s: &Settings,
    memo: &mut Keys,
) -> Vec<Vec<usize>> {
    let alias = alias_keys(s);
    let mut id: HashMap<String, usize> = HashMap::new();
    let mut parent: Vec<usize> = Vec::new();
    let mut ends: Vec<(usize, usize)> = Vec::with_capacity(ix.len());
    for &i in ix {
        let mut node = |name: &str| {
            let k = memo.of(name);
            let k = alias.get(&k).cloned().unwrap_or(k);
            let next = parent.len();
            let n = *id.entry(k).or_insert(next);
            if n == next {
                parent.push(next);
            }
            n
        };
        let (w, b) = (
            node(games.text(games[i].white)),
            node(games.text(games[i].black)),
        );
        let (rw, rb) = (root(&mut parent, w), root(&mut parent, b));
        if rw != rb {
            parent[rw.max(rb)] = rw.min(rb);
        }
        ends.push((w, i));
    }
    by_root(&mut parent, ends)
}

/// The Event value of a group: the one its games write, or, when they write
/// it in several ways, the value without its parenthesised part.
pub(super) fn event_name(games: Table<'_>, ix: &[usize]) -> String {
    let first = games.text(games[ix[0]].event);
    if ix.iter().all(|&i| games.text(games[i].event) == first) {
        first.to_string()
    } else {
        split_event_name(first).0.to_string()
    }
}

/// The names of the sections: the parenthesised part of the Event value
/// most of a section's games carry, when the group's games write the Event
/// in more than one way; else (or when taken) `section N`.
pub(super) fn section_names(games: Table<'_>, sets: &[Vec<usize>]) -> Vec<String> {
    let all_one = {
        let mut values = sets
            .iter()
            .flatten()
            .map(|&i| games.text(games[i].event).trim());
        let first = values.next();
        values.all(|v| Some(v) == first)
    };
    let mut names: Vec<String> = Vec::new();
    for (n, set) in sets.iter().enumerate() {
        let mut count: BTreeMap<&str, usize> = BTreeMap::new();
        if !all_one {
            for &i in set {
                if let (_, Some(part)) = split_event_name(games.text(games[i].event)) {
                    *count.entry(part).or_default() += 1;
                }
            }
        }
        let best = count
            .iter()
            .max_by_key(|(p, c)| (**c, std::cmp::Reverse(**p)))
            .map(|(p, _)| p.to_string())
            .filter(|p| !names.contains(p));
        names.push(best.unwrap_or_else(|| format!("section {}", n + 1)));
    }
    names
}

pub(super) fn judge(
    games: Table<'_>,
    ix: &[usize],
    year: Option<u32>,
    s: &Settings,
    memo: &mut Keys,
) -> Vec<Event> {
    // Games with a placeholder for a player stay out of the crosstable,
    // said once for the event.
    let (real, unknown): (Vec<usize>, Vec<usize>) = ix.iter().partition(|&&i| {
        !memo.placeholder(games.text(games[i].white))
            && !memo.placeholder(games.text(games[i].black))
    });
    let unknown_note = unknown_players(games, &unknown, memo);
    let copies = Copies::of(games, &real, s, memo);
    let name = event_name(games, ix);
    let site = games.text(games[ix[0]].site).to_string();
    let sets = components(games, &copies.kept, s, memo);
    if sets.len() <= 1 {
        let mut findings: Vec<Finding> = copies.findings.into_iter().map(|(_, f)| f).collect();
        findings.extend(unknown_note);
        let part = Part {
            event: name,
            section: None,
            site,
            year,
            findings,
            merged: copies.merged.len(),
            conflicts: copies.conflicts.len(),
            untold: copies.untold,
        };
        let judged = judge_part(games, &copies.kept, part, s, memo);
        return vec![conclude(judged, None)];
    }
    let mut parts = sections(
        games,
        &sets,
        copies,
        Part {
            event: name,
            section: None,
            site,
            year,
            findings: Vec::new(),
            merged: 0,
            conflicts: 0,
            untold: Vec::new(),
        },
        s,
        memo,
    );
    parts[0].findings.extend(unknown_note);
    let judged: Vec<Judged<'_>> = sets
        .iter()
        .zip(parts)
        .map(|(set, part)| judge_part(games, set, part, s, memo))
        .collect();
    // Sections of one event play one format: the event's meetings tell
    // whether they play micro-matches (a round's file holds sections of one
    // meeting each).
    let (pairs, meetings) = judged
        .iter()
        .filter_map(|j| match j {
            Judged::Judge(j, ..) => Some(j.pair_counts()),
            Judged::Done(_) => None,
        })
        .fold((0, 0), |(p, m), (q, n)| (p + q, m + n));
    let plays = pairs > 0 && 2 * pairs >= meetings;
    judged
        .into_iter()
        .map(|j| conclude(j, Some(plays)))
        .collect()
}

/// `unknown-player`: the games of `unknown`, with a placeholder for a
/// player, kept out of the crosstable (none when there are none).
pub(super) fn unknown_players(
    games: Table<'_>,
    unknown: &[usize],
    memo: &mut Keys,
) -> Option<Finding> {
    if unknown.is_empty() {
        return None;
    }
    let mut names: Vec<String> = unknown
        .iter()
        .flat_map(|&i| [games.text(games[i].white), games.text(games[i].black)])
        .filter(|n| memo.placeholder(n))
        .map(|n| format!("\"{}\"", n.trim()))
        .collect();
    names.sort();
    names.dedup();
    Some(Finding {
        code: Code::UnknownPlayer,
        severity: Severity::Note,
        message: format!(
            "{} with no player's name ({}) kept out of the crosstable",
            plural(unknown.len(), "game", "games"),
            names.join(", ")
        ),
        games: unknown.iter().map(|&i| games.place(i)).collect(),
    })
}

/// The parts of an event whose players form `sets` that never meet: each
/// section named, with the `split-event` note, and the copies' findings and
/// counts of its games.
pub(super) fn sections(
    games: Table<'_>,
    sets: &[Vec<usize>],
    copies: Copies,
    event: Part,
    s: &Settings,
    memo: &mut Keys,
) -> Vec<Part> {
    let names = section_names(games, sets);
    let alias = alias_keys(s);
    let mut key = |n: &str| {
        let k = memo.of(n);
        alias.get(&k).cloned().unwrap_or(k)
    };
    let mut section_of: HashMap<String, usize> = HashMap::new();
    let mut sizes: Vec<usize> = Vec::new();
    for (n, set) in sets.iter().enumerate() {
        let before = section_of.len();
        for &i in set {
            section_of
                .entry(key(games.text(games[i].white)))
                .or_insert(n);
            section_of
                .entry(key(games.text(games[i].black)))
                .or_insert(n);
        }
        sizes.push(section_of.len() - before);
    }
    // The note is said once per event (on its first section), and lists at
    // most SPLIT_LISTED sections, each name cut short: output and memory
    // stay linear in the games, whatever the number of sections.
    let mut described: Vec<String> = names
        .iter()
        .zip(sets)
        .zip(&sizes)
        .take(SPLIT_LISTED)
        .map(|((nm, set), &p)| {
            format!(
                "{} ({}, {})",
                cut(nm, SPLIT_NAME_CHARS),
                plural(p, "player", "players"),
                plural(set.len(), "game", "games")
            )
        })
        .collect();
    if sets.len() > SPLIT_LISTED {
        described.push(format!("and {} more", sets.len() - SPLIT_LISTED));
    }
    let name = cut(event.event.trim(), SPLIT_NAME_CHARS);
    let note = Finding {
        code: Code::SplitEvent,
        severity: Severity::Note,
        message: format!(
            "{}: its games form {} sets of players with no game between them, each with its own crosstable: {}",
            if name.is_empty() { "(no Event)" } else { &name },
            sets.len(),
            described.join("; ")
        ),
        games: Vec::new(),
    };
    let mut note = Some(note);
    let mut parts: Vec<Part> = names
        .into_iter()
        .map(|nm| Part {
            event: event.event.clone(),
            section: Some(nm),
            site: event.site.clone(),
            year: event.year,
            findings: note.take().into_iter().collect(),
            merged: 0,
            conflicts: 0,
            untold: Vec::new(),
        })
        .collect();
    let mut section_of_game = |i: usize| {
        section_of
            .get(&key(games.text(games[i].white)))
            .or_else(|| section_of.get(&key(games.text(games[i].black))))
            .copied()
            .unwrap_or(0)
    };
    for (i, f) in copies.findings {
        parts[section_of_game(i)].findings.push(f);
    }
    for i in copies.merged {
        parts[section_of_game(i)].merged += 1;
    }
    for i in copies.conflicts {
        parts[section_of_game(i)].conflicts += 1;
    }
    for i in copies.untold {
        parts[section_of_game(i)].untold.push(i);
    }
    parts
}

/// The most sections a `split-event` note lists by name.
pub(super) const SPLIT_LISTED: usize = 20;
/// The most characters of a name a `split-event` note quotes.
pub(super) const SPLIT_NAME_CHARS: usize = 80;

/// `text` cut to at most `n` characters (`…` where it is cut).
pub(super) fn cut(text: &str, n: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(n) {
        None => std::borrow::Cow::Borrowed(text),
        Some((at, _)) => std::borrow::Cow::Owned(format!("{}…", &text[..at])),
    }
}

/// An event, or a section of one, before its games are judged: its names
/// and the findings about it made so far.
pub(super) struct Part {
    event: String,
    section: Option<String>,
    site: String,
    year: Option<u32>,
    findings: Vec<Finding>,
    merged: usize,
    conflicts: usize,
    /// Games whose Round value does not tell rounds apart (`round-unknown`).
    untold: Vec<usize>,
}

/// An event or section judged up to its micro-matches, or done (no game).
pub(super) enum Judged<'a> {
    Judge(Box<Judge<'a>>, Part, System, BTreeSet<u32>),
    Done(Event),
}

/// The event of a [`Judged`]: its micro-matches (played when `plays` says
/// so, else when its own meetings tell), dates and crosstable.
pub(super) fn conclude(j: Judged<'_>, plays: Option<bool>) -> Event {
    let (mut j, part, system, rounds) = match j {
        Judged::Judge(j, part, system, rounds) => (j, part, system, rounds),
        Judged::Done(ev) => return ev,
    };
    let plays = plays.unwrap_or_else(|| {
        let (pairs, meetings) = j.pair_counts();
        pairs > 0 && 2 * pairs >= meetings
    });
    if plays {
        j.micro_matches();
    }
    j.dates();
    let mut ev = j.finish(part.year, system, rounds);
    ev.event = part.event;
    ev.section = part.section;
    ev.site = part.site;
    ev.duplicates_merged = part.merged;
    ev.conflicting_copies = part.conflicts;
    ev
}

/// The games `ix` (counted once) of an event or section, judged up to
/// their micro-matches ([`conclude`] ends it).
pub(super) fn judge_part<'a>(
    games: Table<'a>,
    ix: &'a [usize],
    part: Part,
    s: &'a Settings,
    memo: &mut Keys,
) -> Judged<'a> {
    let Part {
        event,
        section,
        site,
        year,
        findings,
        merged,
        conflicts,
        untold,
    } = part;
    if ix.is_empty() {
        // No game counts (placeholders, copies set aside): the event and
        // what was found, with no crosstable.
        let mut findings = findings;
        findings.sort_by_key(|f| (f.severity != Severity::Error, f.code.as_str()));
        return Judged::Done(Event {
            event,
            section,
            site,
            year,
            players: Vec::new(),
            rounds: Vec::new(),
            meetings: Vec::new(),
            system: System::Swiss,
            win_points: match s.scoring {
                Scoring::OneHalfZero => 1,
                _ => 2,
            },
            findings,
            duplicates_merged: merged,
            conflicting_copies: conflicts,
            ballots: None,
            micro_matches: 0,
        });
    }
    let names = Names::of(games, ix, s, memo);
    let mut j = Judge {
        games,
        ix,
        s,
        per_player: vec![(0, 0, 0, 0, 0, 0); names.len()],
        names,
        findings,
        round: Vec::new(),
        meetings: BTreeMap::new(),
        micro: Micro::default(),
        untold: BTreeSet::new(),
    };
    j.name_findings();
    j.read_rounds();
    // The rounds whose Round value holds several games of one pairing: no
    // double booking and no date range rests on them.
    let untold: std::collections::HashSet<usize> = untold.into_iter().collect();
    j.untold = ix
        .iter()
        .zip(&j.round)
        .filter(|(i, &r)| r > 0 && untold.contains(i))
        .map(|(_, &r)| r)
        .collect();
    j.tally();
    let rounds: BTreeSet<u32> = j.round.iter().copied().filter(|&r| r > 0).collect();
    let system = j.pairings(&rounds);
    j.colours();
    let part = Part {
        event,
        section,
        site,
        year,
        findings: Vec::new(),
        merged,
        conflicts,
        untold: Vec::new(),
    };
    Judged::Judge(Box::new(j), part, system, rounds)
}
