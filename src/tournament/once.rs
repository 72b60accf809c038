//! Counting each game of an archive once, as the crosstables count it,
//! without keeping the games in memory (issue 51: `stats --by player` and
//! `--by event` on millions of games).
//!
//! Two copies of a game are two games of one event with the same White,
//! Black and Round, or Rounds `N` and `N.M` ([`Copies`]). A game with no Round, or with a placeholder
//! for a player, is never a copy: it counts as it comes. Every other game is
//! written to a temporary file in one of [`BUCKETS`] buckets by a hash of its
//! event name, year, players and round (its part before a `.`), so that all
//! the copies of a game are
//! in one bucket; the buckets are judged one at a time. What stays in
//! memory is the open buckets' buffers, each distinct text once, and, per
//! event and town, up to three players (whether the event is one match
//! played in several towns, as [`one_match_many_sites`] decides).

use crate::store::Buckets;
use crate::tournament::events::{counted, one_match};
use crate::tournament::games::{Games, TGame, Table};
use crate::tournament::model::Settings;
use crate::tournament::names::Keys;
use crate::tournament::tags::{split_event_name, year_of, Tagged};
use hashbrown::HashMap;
use std::collections::BTreeSet;
use std::hash::{Hash, Hasher};

/// Buckets of the games waiting: one is in memory at a time.
const BUCKETS: usize = 256;

/// An event as [`super::event_groups`] groups it: its name without the
/// parenthesised part and its town, folded, and its year.
type EventKey = (String, String, Option<u32>);

/// The games waiting for their copies, on disk, and what decides which
/// count (docs/limits.md).
pub(crate) struct Once {
    /// Their texts, each once, and their moves (its own list stays empty).
    games: Games,
    /// Per bucket: each game as a [`TGame`] and the caller's bytes.
    waiting: Option<Buckets>,
    keys: Keys,
    /// Per event and town: up to three of its players (by key).
    players: HashMap<EventKey, BTreeSet<String>>,
    /// Extra copies not counted.
    pub merged: u64,
    /// Games left out because their copies disagree.
    pub conflicting: u64,
    /// Why games waiting could not be read back (a disk error, the
    /// temporary file cut short): they are not counted, and the run fails.
    pub failed: Option<String>,
}

impl std::fmt::Debug for Once {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Once")
            .field("waiting", &self.waiting)
            .field("merged", &self.merged)
            .field("conflicting", &self.conflicting)
            .finish_non_exhaustive()
    }
}

impl Default for Once {
    fn default() -> Once {
        Once::new()
    }
}

impl Once {
    /// No game yet.
    pub(crate) fn new() -> Once {
        Once {
            games: Games::new(),
            waiting: None,
            keys: Keys::default(),
            players: HashMap::new(),
            merged: 0,
            conflicting: 0,
            failed: None,
        }
    }

    /// Adds a game of `file`. `false`: it is no copy of another and counts
    /// now (the caller counts it); `true`: it waits, with the caller's
    /// `bytes`, which [`Once::settle`] gives back.
    pub(crate) fn add(
        &mut self,
        file: &str,
        g: &crate::pdn::Game,
        r: &crate::replay::GameReport,
        bytes: &[u8],
    ) -> bool {
        let first = |names: &[&str]| names.iter().find_map(|n| g.tag(n)).unwrap_or_default();
        let tagged = Tagged::of(g);
        let (white, black) = (
            first(&crate::players::WHITE_TAGS),
            first(&crate::players::BLACK_TAGS),
        );
        let year = tagged.date.as_deref().and_then(year_of);
        let event = self.keys.of(split_event_name(&tagged.event).0);
        let site = self.keys.of(&tagged.site);
        let set = self.players.entry((event.clone(), site, year)).or_default();
        for name in [&white, &black] {
            if set.len() < 3 && !self.keys.placeholder(name) {
                set.insert(self.keys.of(name));
            }
        }
        let round = tagged.round.as_deref().unwrap_or_default().trim();
        if round.is_empty() || self.keys.placeholder(&white) || self.keys.placeholder(&black) {
            return false;
        }
        // By the round's head: `3` and `3.1` may be copies of one game.
        let head = round.split('.').next().unwrap_or(round);
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (
            &event,
            year,
            self.keys.of(&white),
            self.keys.of(&black),
            head,
        )
            .hash(&mut h);
        // The tags read above, not read again.
        let t = self
            .games
            .aside_tagged(file, g, r, &tagged, [&white, &black]);
        let mut record = Vec::with_capacity(TGame::BYTES + 4 + bytes.len());
        t.write(&mut record);
        record.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
        record.extend_from_slice(bytes);
        let waiting = self.waiting.get_or_insert_with(|| Buckets::new(BUCKETS));
        waiting.push((h.finish() % BUCKETS as u64) as usize, &record);
        true
    }

    /// Each game waiting, in input order within a bucket: its bytes and
    /// whether it counts. A bucket that cannot be read back (a disk error,
    /// the temporary file cut short) gives nothing, and says why in
    /// [`Once::failed`]: nothing is counted twice, nothing made up.
    pub(crate) fn settle(&mut self, mut each: impl FnMut(&[u8], bool)) {
        let Some(mut waiting) = self.waiting.take() else {
            return;
        };
        let towns = self.one_match_events();
        let settings = Settings::default();
        for b in 0..waiting.count() {
            let bytes = match waiting.take(b) {
                Ok(bytes) => bytes,
                Err(e) => {
                    self.failed.get_or_insert_with(|| {
                        format!(
                            "the games set aside in a temporary file could not be read back ({e}): \
                             the counts leave them out"
                        )
                    });
                    continue;
                }
            };
            let (list, extra) = records(&bytes);
            let table = self.games.table_of(&list);
            let groups = groups(table, &towns, &mut self.keys);
            let c = counted(table, &groups, &settings, &mut self.keys);
            self.merged += c.merged as u64;
            self.conflicting += c.conflicting as u64;
            for (x, keep) in extra.into_iter().zip(c.each) {
                each(x, keep);
            }
        }
        self.games = Games::new();
    }

    /// The events (name and year) whose towns are one match of two players.
    fn one_match_events(&self) -> BTreeSet<(String, Option<u32>)> {
        let mut of_event: HashMap<(&str, Option<u32>), Vec<&BTreeSet<String>>> = HashMap::new();
        for ((event, _, year), set) in &self.players {
            if !event.is_empty() {
                of_event.entry((event, *year)).or_default().push(set);
            }
        }
        of_event
            .into_iter()
            .filter(|(_, sets)| one_match(sets))
            .map(|((e, y), _)| (e.to_string(), y))
            .collect()
    }
}

/// The games of a bucket grouped by event, as [`super::event_groups`]
/// groups them, each group in input order.
fn groups(
    games: Table<'_>,
    towns: &BTreeSet<(String, Option<u32>)>,
    keys: &mut Keys,
) -> Vec<Vec<usize>> {
    let mut at: HashMap<EventKey, usize> = HashMap::new();
    let mut out: Vec<Vec<usize>> = Vec::new();
    for i in 0..games.len() {
        let g = &games[i];
        let year = games.opt(g.date).and_then(year_of);
        let event = keys.of(split_event_name(games.text(g.event)).0);
        let site = if towns.contains(&(event.clone(), year)) {
            String::new()
        } else {
            keys.of(games.text(g.site))
        };
        let n = *at.entry((event, site, year)).or_insert_with(|| {
            out.push(Vec::new());
            out.len() - 1
        });
        out[n].push(i);
    }
    out
}

/// The records of a bucket: the games and the caller's bytes.
fn records(bytes: &[u8]) -> (Vec<TGame>, Vec<&[u8]>) {
    let (mut list, mut extra) = (Vec::new(), Vec::new());
    let mut rest = bytes;
    while let Some(t) = TGame::read(rest) {
        let len = rest
            .get(TGame::BYTES..TGame::BYTES + 4)
            .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize);
        let Some(x) = rest.get(TGame::BYTES + 4..TGame::BYTES + 4 + len) else {
            break;
        };
        list.push(t);
        extra.push(x);
        rest = &rest[TGame::BYTES + 4 + len..];
    }
    (list, extra)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 63 item 6: a bucket of the temporary file that cannot be read
    /// back (the file cut short, as a failing disk loses it) counts
    /// nothing and says why; nothing is made up.
    #[test]
    fn a_bucket_that_cannot_be_read_back_is_said() {
        let text = "[Event \"E\"]\n[White \"A\"]\n[Black \"B\"]\n[Round \"1\"]\n[GameType \"20\"]\n1. 32-28 *\n";
        let games = crate::pdn::read_all(text.as_bytes());
        let g = &games[0];
        let r = crate::check::check_game(g, &crate::replay::Options::default());
        let mut once = Once::new();
        let caller = [0u8; 1024];
        for _ in 0..20 {
            assert!(once.add("f.pdn", g, &r, &caller));
        }
        let mut whole = once_again(g, &r, &caller);
        let mut given = 0;
        whole.settle(|_, _| given += 1);
        assert_eq!((given, whole.failed.is_none()), (20, true));
        if let Some(w) = once.waiting.as_mut() {
            w.cut_for_test();
        }
        let mut seen = 0;
        once.settle(|_, _| seen += 1);
        assert_eq!((seen, once.merged, once.conflicting), (0, 0, 0));
        let why = once.failed.unwrap_or_default();
        assert!(why.contains("could not be read back"), "{why}");
    }

    /// The same twenty copies, read back whole.
    fn once_again(g: &crate::pdn::Game, r: &crate::replay::GameReport, caller: &[u8]) -> Once {
        let mut once = Once::new();
        for _ in 0..20 {
            once.add("f.pdn", g, r, caller);
        }
        once
    }
}
