//! Tournaments as an arbiter checks them: games grouped into events, players
//! matched by name, rounds read, the crosstable with its tie-breaks, and the
//! findings an archive of an event can hold (docs/tournament.md).
//!
//! The input is the games ([`Games`]: their tags, their results, where they
//! are, their moves as hashes); [`Games::events`] groups them and judges each event.
//!
//! ```
//! use pdnkit::tournament::{Games, Settings};
//! use pdnkit::check::check_game;
//! use pdnkit::pdn::read_all;
//! use pdnkit::replay::Options;
//! let pdn = "[Event \"Club 2024\"][Round \"1\"][White \"Ann\"][Black \"Bob\"][Result \"2-0\"] 2-0\n\n\
//!            [Event \"Club 2024\"][Round \"2\"][White \"Cid\"][Black \"Ann\"][Result \"1-1\"] 1-1\n\n\
//!            [Event \"Club 2024\"][Round \"3\"][White \"Bob\"][Black \"Cid\"][Result \"1-1\"] 1-1\n";
//! let opts = Options::default().keep_moves(true);
//! let mut games = Games::new();
//! for g in read_all(pdn.as_bytes()) {
//!     games.add("club.pdn", &g, &check_game(&g, &opts));
//! }
//! let ev = &games.events(&Settings::default())[0];
//! assert_eq!(ev.players[0].name, "Ann"); // 2 + 1 points: first
//! assert_eq!(ev.players[0].points, 6);   // in half points: 3
//! ```

use crate::diag::{Code, Severity};
use crate::pdn::Outcome;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ops::ControlFlow;

mod ballots;
mod copies;
mod crosstable;
mod games;
mod judge;
mod names;
mod once;

pub(crate) use names::{is_placeholder, name_key};

use crate::tournament::copies::Copies;
use crate::tournament::crosstable::Meetings;
use crate::tournament::names::{Keys, Names};
pub use games::Games;
use games::Table;
pub(crate) use games::{Strings, Sym};
pub(crate) use once::Once;

/// How games are scored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scoring {
    /// Win 2, draw 1, loss 0 (draughts).
    #[default]
    TwoOneZero,
    /// Win 1, draw ½, loss 0.
    OneHalfZero,
    /// Per match (the games of one round between the same two players): the
    /// match winner scores 2, a tied match 1 each.
    MatchPoints,
}

/// A tie-break.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Tiebreak {
    /// Sonneborn-Berger: opponents' points weighted by the share scored against them.
    SonnebornBerger,
    /// The number of games won.
    Wins,
    /// Solkoff (Buchholz): the sum of the opponents' points, once per meeting.
    Solkoff,
    /// Solkoff without the lowest opponent.
    SolkoffCut,
    /// Among players level on points: the points scored against each other.
    Direct,
}

impl Tiebreak {
    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Tiebreak::SonnebornBerger => "sb",
            Tiebreak::Wins => "wins",
            Tiebreak::Solkoff => "solkoff",
            Tiebreak::SolkoffCut => "solkoff-cut",
            Tiebreak::Direct => "direct",
        }
    }
    /// Every tie-break, in the default order.
    pub const ALL: [Tiebreak; 5] = [
        Tiebreak::Direct,
        Tiebreak::SonnebornBerger,
        Tiebreak::Wins,
        Tiebreak::Solkoff,
        Tiebreak::SolkoffCut,
    ];
}

/// What [`Games::events`] is asked to do.
#[derive(Clone, Debug)]
pub struct Settings {
    /// How games are scored.
    pub scoring: Scoring,
    /// The tie-breaks, in order.
    pub tiebreaks: Vec<Tiebreak>,
    /// `(spelling, name)`: a spelling merged into a name by hand.
    pub aliases: Vec<(String, String)>,
    /// Files whose copy of a game wins over a conflicting copy elsewhere
    /// (`--prefer FILE|GLOB`).
    pub prefer: Option<globset::GlobSet>,
    /// Every copy of a game counts (`--keep-duplicates`): the counting of
    /// before issue 41.
    pub keep_duplicates: bool,
    /// Whether micro-matches' ballots are checked (`--ballots`): `Some(true)`
    /// always, `Some(false)` never, `None` where a section's games show
    /// ballots (set-up games, or a `Ballot`, `Opening` or `Apertura` tag).
    pub ballots: Option<bool>,
    /// The opening tables (`--opening-table`) whose first is the table a
    /// section's ballots are compared by; `None`: the variant's own list.
    pub opening_tables: Option<Vec<std::sync::Arc<crate::openings::Table>>>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            scoring: Scoring::TwoOneZero,
            tiebreaks: Tiebreak::ALL.to_vec(),
            aliases: Vec::new(),
            prefer: None,
            keep_duplicates: false,
            ballots: None,
            opening_tables: None,
        }
    }
}

/// A finding about an event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// `missing-game`, `double-booked`, `repeated-pairing` (errors);
    /// `name-variant`, `name-similar`, `colour-imbalance`,
    /// `date-outside-event`, `round-unknown`, `forfeit` (warnings);
    /// `result-mismatch` (an error, from check).
    pub code: Code,
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong, with names and rounds.
    pub message: String,
    /// The games it is about, as (file, game).
    pub games: Vec<(String, usize)>,
}

/// A player's line of the crosstable.
#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    /// The name, as most games write it.
    pub name: String,
    /// Every spelling met, most used first.
    pub spellings: Vec<String>,
    /// Points, in half points (a draw under 1-½-0 is 1).
    pub points: u32,
    /// Games played (forfeits included).
    pub games: u32,
    /// Games won, drawn, lost.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Games with White, games with Black.
    pub colours: (u32, u32),
    /// 1-based rank (players level on every tie-break share a rank).
    pub rank: usize,
    /// The tie-break values, in the settings' order.
    pub tiebreaks: Vec<(Tiebreak, f64)>,
}

/// How the event was played, as its games show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum System {
    /// Everyone meets everyone `cycles` times.
    RoundRobin {
        /// How many times each pair meets.
        cycles: u32,
    },
    /// Pairings round by round.
    Swiss,
    /// Two players only, meeting as often as the match is long (issue 55):
    /// never a repeated pairing.
    Match,
}

/// One meeting: the games of one round between two players.
#[derive(Clone, Debug, PartialEq)]
pub struct Meeting {
    /// The round (0 when the games give none).
    pub round: u32,
    /// Indices in [`Event::players`] (as ranked).
    pub white: usize,
    /// The other player (Black in the first game of the meeting).
    pub black: usize,
    /// Points of each, in half points.
    pub points: (u32, u32),
    /// Games.
    pub games: u32,
    /// The games as (file, game), in a section that plays micro-matches
    /// (else empty).
    pub places: Vec<(String, usize)>,
    /// The ballot of a micro-match of two games (OPENINGS.md 3.4): `same`,
    /// `shared` or `differs`; `None` for another meeting, or when a game's
    /// first positions are not known.
    pub ballot: Option<&'static str>,
    /// How its games start, in their order: `setup/setup`, `setup/moves`,
    /// `moves/setup` or `moves/moves`.
    pub ballot_how: Option<&'static str>,
    /// The deepest row of the section's table both games reach, when they
    /// start from the initial position.
    pub ballot_code: Option<String>,
}

/// An event: its players ranked, its meetings, its findings.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// The Event tag (without its trailing parenthesised part when the
    /// event's games write it in more than one way).
    pub event: String,
    /// The section, when the event's games form groups of players who never
    /// meet (`split-event`): named by the parenthesised part of the Event
    /// value its games carry (`женщины`), else `section N`.
    pub section: Option<String>,
    /// The Site tag.
    pub site: String,
    /// The year of its games' dates, when they tell.
    pub year: Option<u32>,
    /// Players, ranked.
    pub players: Vec<Player>,
    /// Rounds read (sorted; empty when no game has one).
    pub rounds: Vec<u32>,
    /// The meetings, by round.
    pub meetings: Vec<Meeting>,
    /// Round robin or Swiss.
    pub system: System,
    /// Points per game won (for the scale of the crosstable).
    pub win_points: u32,
    /// What is wrong, errors first.
    pub findings: Vec<Finding>,
    /// Games stored more than once and counted once (each extra copy).
    pub duplicates_merged: usize,
    /// Pairings of a round whose copies disagree (moves or result):
    /// counted as missing until one is preferred or removed.
    pub conflicting_copies: usize,
    /// How the ballots of its micro-matches are known (OPENINGS.md 3.4):
    /// `flag` (`--ballots on`), `setup`, `tag`; `None`: not checked.
    pub ballots: Option<&'static str>,
    /// Its micro-matches of two games (0: it plays none).
    pub micro_matches: usize,
}

impl Event {
    /// How it was played, in words: `round robin, 12 players, 11 rounds`.
    pub fn system_text(&self) -> String {
        let system = match self.system {
            System::RoundRobin { cycles: 1 } => "round robin".to_string(),
            System::RoundRobin { cycles: 2 } => "double round robin".to_string(),
            System::RoundRobin { cycles } => format!("round robin, {cycles} cycles"),
            System::Swiss => "Swiss (pairings round by round)".to_string(),
            System::Match => "match".to_string(),
        };
        format!(
            "{system}, {}, {}",
            plural(self.players.len(), "player", "players"),
            plural(self.rounds.len(), "round", "rounds")
        )
    }

    /// The record `tournament --format json` writes for it (CLI.md).
    #[cfg(feature = "serde")]
    pub fn record(&self) -> impl serde::Serialize + '_ {
        EventRecord {
            kind: "event",
            event: &self.event,
            section: self.section.as_deref(),
            site: &self.site,
            year: self.year,
            system: self.system_text(),
            players: self
                .players
                .iter()
                .map(|p| PlayerRecord {
                    name: &p.name,
                    spellings: &p.spellings,
                    points: f64::from(p.points) / 2.0,
                    games: p.games,
                    wins: p.wins,
                    draws: p.draws,
                    losses: p.losses,
                    rank: p.rank,
                    tiebreaks: TiebreakRecord(&p.tiebreaks),
                })
                .collect(),
            rounds: &self.rounds,
            duplicates_merged: self.duplicates_merged,
            conflicting_copies: self.conflicting_copies,
            ballots: self.ballots,
            micro_matches: self.micro_matches,
            micro_match_list: self
                .meetings
                .iter()
                .filter(|m| m.ballot.is_some() || m.places.len() == 2)
                .map(|m| PairRecord {
                    round: m.round,
                    games: m
                        .places
                        .iter()
                        .map(|(file, game)| PlaceRecord { file, game: *game })
                        .collect(),
                    ballot: m.ballot,
                    how: m.ballot_how,
                    code: m.ballot_code.as_deref(),
                })
                .collect(),
            findings: self
                .findings
                .iter()
                .map(|f| FindingRecord {
                    code: f.code.as_str(),
                    severity: f.severity.as_str(),
                    message: &f.message,
                    games: f
                        .games
                        .iter()
                        .map(|(file, game)| PlaceRecord { file, game: *game })
                        .collect(),
                })
                .collect(),
        }
    }
}

/// An event (or a section of one) as `tournament --format json` writes it.
#[cfg(feature = "serde")]
#[derive(Clone, Debug, serde::Serialize)]
struct EventRecord<'a> {
    /// Always `event`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The Event tag.
    pub event: &'a str,
    /// The section, when the event is split (`split-event`); else null.
    pub section: Option<&'a str>,
    /// The Site tag.
    pub site: &'a str,
    /// The year, when the dates tell.
    pub year: Option<u32>,
    /// [`Event::system_text`].
    pub system: String,
    /// The crosstable's lines, ranked.
    pub players: Vec<PlayerRecord<'a>>,
    /// The rounds read.
    pub rounds: &'a [u32],
    /// Extra copies of games counted once.
    pub duplicates_merged: usize,
    /// Pairings whose copies disagree, counted as missing.
    pub conflicting_copies: usize,
    /// How the micro-matches' ballots are known, or null.
    pub ballots: Option<&'static str>,
    /// Micro-matches of two games.
    pub micro_matches: usize,
    /// Each micro-match of two games and its ballot.
    pub micro_match_list: Vec<PairRecord<'a>>,
    /// What is wrong, errors first.
    pub findings: Vec<FindingRecord<'a>>,
}

/// A player's line in an `EventRecord`.
#[cfg(feature = "serde")]
#[derive(Clone, Debug, serde::Serialize)]
struct PlayerRecord<'a> {
    /// The name, as most games write it.
    pub name: &'a str,
    /// Every spelling met.
    pub spellings: &'a [String],
    /// Points (a draw under 2-1-0 is 1).
    pub points: f64,
    /// Games played.
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// 1-based rank.
    pub rank: usize,
    /// Each tie-break by name, in the settings' order.
    pub tiebreaks: TiebreakRecord<'a>,
}

/// Tie-breaks written as an object, in their order.
#[cfg(feature = "serde")]
#[derive(Clone, Debug)]
struct TiebreakRecord<'a>(pub &'a [(Tiebreak, f64)]);

#[cfg(feature = "serde")]
impl serde::Serialize for TiebreakRecord<'_> {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = ser.serialize_map(Some(self.0.len()))?;
        for (t, v) in self.0 {
            map.serialize_entry(t.name(), v)?;
        }
        map.end()
    }
}

/// A finding in an `EventRecord`.
#[cfg(feature = "serde")]
#[derive(Clone, Debug, serde::Serialize)]
struct FindingRecord<'a> {
    /// The code (CLI.md).
    pub code: &'static str,
    /// `error`, `warning` or `note`.
    pub severity: &'static str,
    /// What is wrong.
    pub message: &'a str,
    /// The games it is about.
    pub games: Vec<PlaceRecord<'a>>,
}

/// A micro-match in an `EventRecord`.
#[cfg(feature = "serde")]
#[derive(Clone, Debug, serde::Serialize)]
struct PairRecord<'a> {
    /// The round (0: none).
    pub round: u32,
    /// Its two games.
    pub games: Vec<PlaceRecord<'a>>,
    /// `same`, `shared`, `differs`, or null (not known).
    pub ballot: Option<&'static str>,
    /// How each game starts.
    pub how: Option<&'static str>,
    /// The deepest common row of the section's table.
    pub code: Option<&'a str>,
}

/// A game named by its file and 1-based index.
#[cfg(feature = "serde")]
#[derive(Clone, Debug, serde::Serialize)]
struct PlaceRecord<'a> {
    /// The file.
    pub file: &'a str,
    /// 1-based index in the file.
    pub game: usize,
}

/// `N` or `N.M`: the round (and the game of a round's match).
fn round_of(text: &str) -> Option<u32> {
    let head = text.trim().split(['.', '-', '/']).next()?;
    head.trim().parse().ok().filter(|&n: &u32| n > 0)
}

fn year_of(date: &str) -> Option<u32> {
    crate::select::date_span(date).map(|(a, _)| a / 10000)
}

/// An Event value without its trailing parenthesised part
/// (`Чемпионат Беларуси 2015 (мужчины)` → `Чемпионат Беларуси 2015`), and
/// that part (`мужчины`).
fn split_event_name(event: &str) -> (&str, Option<&str>) {
    let t = event.trim();
    if let Some(inner) = t.strip_suffix(')') {
        if let Some(open) = inner.rfind('(') {
            let (base, part) = (inner[..open].trim_end(), inner[open + 1..].trim());
            if !base.is_empty() && !part.is_empty() {
                return (base, Some(part));
            }
        }
    }
    (t, None)
}

/// The groups of games that may be one event: Event values equal once a
/// trailing parenthesised part is removed (folded), the same Site (folded)
/// and the same year; in input order.
fn event_groups(games: Table<'_>, keys: &mut Keys) -> Vec<(Option<u32>, Vec<usize>)> {
    let mut groups: HashMap<(String, String, Option<u32>), usize> = HashMap::new();
    let mut out: Vec<(Option<u32>, Vec<usize>)> = Vec::new();
    for i in 0..games.len() {
        let g = &games[i];
        let year = games.opt(g.date).and_then(year_of);
        let key = (
            keys.of(split_event_name(games.text(g.event)).0),
            keys.of(games.text(g.site)),
            year,
        );
        let n = *groups.entry(key).or_insert_with(|| {
            out.push((year, Vec::new()));
            out.len() - 1
        });
        out[n].1.push(i);
    }
    one_match_many_sites(games, keys, out)
}

/// Groups of one Event name and year that differ only by Site, each of the
/// same two players, are one match played in several towns (issue 55: the
/// Van der Wal – Wiersma match of 1983 in four towns): merged, in input order.
fn one_match_many_sites(
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
fn one_match(sets: &[&BTreeSet<String>]) -> bool {
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
            ControlFlow::Continue(())
        });
        all
    }

    /// The events of [`Games::events`], in the same order, given to `f` a
    /// few at a time as they are judged: what an event holds (its findings,
    /// a note per copy counted once) is freed once `f` has it, so an archive
    /// with many copies is judged in memory of the order of its largest
    /// event. Stops when `f` breaks, and says so.
    pub fn each_event(
        &self,
        settings: &Settings,
        f: impl FnMut(Event) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        each_event_of(self.table(), settings, f)
    }
}

/// Events judged at a time per thread (in parallel, with `batch`) before
/// they are given: enough to keep the threads busy, few enough that what
/// they hold stays small.
#[cfg(feature = "batch")]
const JUDGED_PER_THREAD: usize = 4;

/// [`Games::each_event`] of the games of a table.
fn each_event_of(
    games: Table<'_>,
    settings: &Settings,
    mut f: impl FnMut(Event) -> ControlFlow<()>,
) -> ControlFlow<()> {
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
struct Counted {
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
fn counted(
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
        let copies = Copies::of(games, &real, settings, keys);
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

/// `(spelling key, name key)` of the settings' aliases.
fn alias_keys(s: &Settings) -> HashMap<String, String> {
    s.aliases
        .iter()
        .map(|(a, b)| (name_key(a), name_key(b)))
        .collect()
}

/// The games of `ix` split into sets of players with no game between them
/// (connected components of the graph of games), each in input order, the
/// sets in the order of their first game.
fn components(games: Table<'_>, ix: &[usize], s: &Settings, memo: &mut Keys) -> Vec<Vec<usize>> {
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

/// The root of `x` in the union-find forest `parent` (halving the path).
fn root(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

/// The items of `(node, item)` grouped by their node's root in `parent`, in
/// the order of each group's first item.
fn by_root(
    parent: &mut [usize],
    items: impl IntoIterator<Item = (usize, usize)>,
) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut at: HashMap<usize, usize> = HashMap::new();
    for (node, item) in items {
        let r = root(parent, node);
        let n = *at.entry(r).or_insert_with(|| {
            out.push(Vec::new());
            out.len() - 1
        });
        out[n].push(item);
    }
    out
}

/// The Event value of a group: the one its games write, or, when they write
/// it in several ways, the value without its parenthesised part.
fn event_name(games: Table<'_>, ix: &[usize]) -> String {
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
fn section_names(games: Table<'_>, sets: &[Vec<usize>]) -> Vec<String> {
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

/// The work of judging one event.
struct Judge<'a> {
    games: Table<'a>,
    ix: &'a [usize],
    s: &'a Settings,
    names: Names,
    findings: Vec<Finding>,
    /// The round of each game of `ix` (0: none).
    round: Vec<u32>,
    meetings: Meetings,
    /// Its micro-matches and their ballots.
    micro: ballots::Micro,
    /// Per player: points, games, wins, draws, losses, games with White.
    per_player: Vec<(u32, u32, u32, u32, u32, u32)>,
}

fn judge(
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
fn unknown_players(games: Table<'_>, unknown: &[usize], memo: &mut Keys) -> Option<Finding> {
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
fn sections(
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
    parts
}

/// The most sections a `split-event` note lists by name.
const SPLIT_LISTED: usize = 20;
/// The most characters of a name a `split-event` note quotes.
const SPLIT_NAME_CHARS: usize = 80;

/// `text` cut to at most `n` characters (`…` where it is cut).
fn cut(text: &str, n: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(n) {
        None => std::borrow::Cow::Borrowed(text),
        Some((at, _)) => std::borrow::Cow::Owned(format!("{}…", &text[..at])),
    }
}

/// `n` and the word, singular or plural.
fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// An event, or a section of one, before its games are judged: its names
/// and the findings about it made so far.
struct Part {
    event: String,
    section: Option<String>,
    site: String,
    year: Option<u32>,
    findings: Vec<Finding>,
    merged: usize,
    conflicts: usize,
}

/// An event or section judged up to its micro-matches, or done (no game).
enum Judged<'a> {
    Judge(Box<Judge<'a>>, Part, System, BTreeSet<u32>),
    Done(Event),
}

/// The event of a [`Judged`]: its micro-matches (played when `plays` says
/// so, else when its own meetings tell), dates and crosstable.
fn conclude(j: Judged<'_>, plays: Option<bool>) -> Event {
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
fn judge_part<'a>(
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
        micro: ballots::Micro::default(),
    };
    j.name_findings();
    j.read_rounds();
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
    };
    Judged::Judge(Box::new(j), part, system, rounds)
}

#[cfg(test)]
mod tests;
