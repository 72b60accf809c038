//! Tournaments as an arbiter checks them: games grouped into events, players
//! matched by name, rounds read, the crosstable with its tie-breaks, and the
//! findings an archive of an event can hold (docs/tournament.md).
//!
//! The input is the games ([`Games`]: their tags, their results, where they
//! are, their moves as hashes); [`events`] groups them and judges each event.
//!
//! ```
//! use pdnkit::tournament::{events, Games, Settings};
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
//! let ev = &events(&games, &Settings::default())[0];
//! assert_eq!(ev.players[0].name, "Ann"); // 2 + 1 points: first
//! assert_eq!(ev.players[0].points, 6);   // in half points: 3
//! ```

use crate::diag::{Code, Severity};
use crate::dupes::Spill;
use crate::pdn::Outcome;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// One game as the tournament sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct TGame {
    /// The file it is in.
    pub file: String,
    /// 1-based index of the game in its file.
    pub game: usize,
    /// The Event tag.
    pub event: String,
    /// The Site tag.
    pub site: String,
    /// The Date tag.
    pub date: Option<String>,
    /// The Round tag.
    pub round: Option<String>,
    /// The White tag (as written).
    pub white: String,
    /// The Black tag (as written).
    pub black: String,
    /// The result that counts: computed where the rules decided the game,
    /// else the declared one (`Unknown`: none).
    pub result: Outcome,
    /// Plies of the main line (0 with a decisive result: a forfeit).
    pub plies: u32,
    /// The declared result contradicts the computed one (check's
    /// `result-mismatch` error): the message.
    pub mismatch: Option<String>,
    /// Its moves, hashed ply by ply from its start position: two copies of
    /// a game are told by them. `None` when not replayed.
    pub moves: Option<Moves>,
}

/// A game's moves, as two copies are told apart: the hash after its last
/// ply in memory, the hashes after each ply before it in the temporary file
/// of its [`Games`] (issue 51: 8 bytes a ply, read back only for two copies
/// of one pairing and round whose last hashes differ).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Moves {
    plies: u32,
    full: u64,
    /// Offset of the hash after the first ply in the temporary file.
    at: u64,
}

/// The games of a collection as the tournament sees them (their tags, their
/// results, where they are, and their moves as hashes), for [`events`].
///
/// In memory, a game costs its tags and a few words; the hashes after each
/// of its plies, which tell a game from a copy that stops early, are written
/// to an unnamed temporary file (docs/limits.md).
#[derive(Debug)]
pub struct Games {
    list: Vec<TGame>,
    moves: Spill,
}

impl Default for Games {
    fn default() -> Games {
        Games::new()
    }
}

impl Games {
    /// No game yet.
    pub fn new() -> Games {
        Games {
            list: Vec::new(),
            moves: Spill::new(),
        }
    }
    /// Adds a game of `file` replayed with `keep_moves`: its result is the
    /// computed one where the rules decided the game, else the declared one.
    pub fn add(&mut self, file: &str, g: &crate::pdn::Game, r: &crate::replay::GameReport) {
        let mut game = TGame::of(file, g, r);
        game.moves = self.moves_of(r);
        self.list.push(game);
    }
    /// Games added.
    pub fn len(&self) -> usize {
        self.list.len()
    }
    /// No game added.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
    /// The moves of a game, the hashes before its last written to the file.
    fn moves_of(&mut self, r: &crate::replay::GameReport) -> Option<Moves> {
        let f = crate::dupes::Fingerprint::of(r, 1)?;
        let mut bytes = Vec::with_capacity(8 * f.prefixes.len());
        for h in f.prefixes.iter().take(f.plies.saturating_sub(1) as usize) {
            bytes.extend_from_slice(&h.to_le_bytes());
        }
        Some(Moves {
            plies: f.plies,
            full: f.full,
            at: self.moves.push(&bytes),
        })
    }
    /// The games, and their moves' file.
    fn parts(&self) -> (&[TGame], &Spill) {
        (&self.list, &self.moves)
    }
}

impl TGame {
    /// A game as the tournament sees it, without its moves ([`Games::add`]
    /// adds them): its result is the computed one where the rules decided
    /// the game, else the declared one.
    pub fn of(file: &str, g: &crate::pdn::Game, r: &crate::replay::GameReport) -> TGame {
        let result = if r.computed != Outcome::Unknown {
            r.computed
        } else {
            r.declared.unwrap_or(Outcome::Unknown)
        };
        let mismatch = r
            .diagnostics
            .iter()
            .find(|d| d.code == Code::ResultMismatch && d.severity == Severity::Error)
            .map(|d| d.message.to_string());
        let first = |names: &[&str]| names.iter().find_map(|n| g.tag(n)).unwrap_or_default();
        TGame {
            file: file.to_string(),
            game: g.index(),
            event: g.tag("Event").unwrap_or_default(),
            site: g.tag("Site").unwrap_or_default(),
            date: g.tag("Date"),
            round: g.tag("Round"),
            white: first(&crate::select::WHITE_TAGS),
            black: first(&crate::select::BLACK_TAGS),
            result,
            plies: r.plies,
            mismatch,
            moves: None,
        }
    }
}

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

/// What [`events`] is asked to do.
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
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            scoring: Scoring::TwoOneZero,
            tiebreaks: Tiebreak::ALL.to_vec(),
            aliases: Vec::new(),
            prefer: None,
            keep_duplicates: false,
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
}

impl Event {
    /// How it was played, in words: `round robin, 12 players, 11 rounds`.
    pub fn system_text(&self) -> String {
        let system = match self.system {
            System::RoundRobin { cycles: 1 } => "round robin".to_string(),
            System::RoundRobin { cycles: 2 } => "double round robin".to_string(),
            System::RoundRobin { cycles } => format!("round robin, {cycles} cycles"),
            System::Swiss => "Swiss (pairings round by round)".to_string(),
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

/// A game named by its file and 1-based index.
#[cfg(feature = "serde")]
#[derive(Clone, Debug, serde::Serialize)]
struct PlaceRecord<'a> {
    /// The file.
    pub file: &'a str,
    /// 1-based index in the file.
    pub game: usize,
}

/// Lower-case, punctuation and repeated spaces gone, and letters that look
/// alike written in the name's own script: in a name mostly Cyrillic, a Latin
/// `C` is `С`; in a name mostly Latin, a Cyrillic `о` is `o`.
pub(crate) fn name_key(name: &str) -> String {
    const PAIRS: [(char, char); 22] = [
        ('A', 'А'),
        ('B', 'В'),
        ('C', 'С'),
        ('E', 'Е'),
        ('H', 'Н'),
        ('K', 'К'),
        ('M', 'М'),
        ('O', 'О'),
        ('P', 'Р'),
        ('T', 'Т'),
        ('X', 'Х'),
        ('Y', 'У'),
        ('a', 'а'),
        ('c', 'с'),
        ('e', 'е'),
        ('o', 'о'),
        ('p', 'р'),
        ('x', 'х'),
        ('y', 'у'),
        ('i', 'і'),
        ('I', 'І'),
        ('j', 'ј'),
    ];
    let cyrillic = name
        .chars()
        .filter(|c| ('\u{0400}'..='\u{04ff}').contains(c))
        .count();
    let latin = name.chars().filter(char::is_ascii_alphabetic).count();
    let to_cyrillic = cyrillic > latin;
    let mut words: Vec<String> = Vec::new();
    for word in name.split(|c: char| c.is_whitespace() || c == ',' || c == '.') {
        let w: String = word
            .chars()
            .map(|c| {
                PAIRS
                    .iter()
                    .find_map(|&(l, k)| match (to_cyrillic, c == l, c == k) {
                        (true, true, _) => Some(k),
                        (false, _, true) => Some(l),
                        _ => None,
                    })
                    .unwrap_or(c)
            })
            .flat_map(char::to_lowercase)
            .map(|c| if c == 'ё' { 'е' } else { c })
            .filter(|c| c.is_alphanumeric() || *c == '-')
            .collect();
        if !w.is_empty() {
            words.push(w);
        }
    }
    words.join(" ")
}

/// The keys ([`name_key`]) of names that stand for no one: the side's own
/// name (`White`, `Black`, `Red`, in the languages the archives use),
/// `NN`/`N.N.`, `?`, `-`, an empty name.
const PLACEHOLDERS: [&str; 22] = [
    "",
    "-",
    "white",
    "black",
    "red",
    "nn",
    "n n",
    "unknown",
    "blanc",
    "blancs",
    "noir",
    "noirs",
    "bianco",
    "nero",
    "wit",
    "zwart",
    "weiss",
    "schwarz",
    "branco",
    "preto",
    "белые",
    "черные",
];

/// Whether a player's name is a placeholder, not a player: `White`,
/// `Black`, `Red` (in the languages the archives use), `?`, `-`, `NN`,
/// `N.N.`, an empty name.
pub(crate) fn is_placeholder(name: &str) -> bool {
    PLACEHOLDERS.contains(&name_key(name).as_str())
}

/// Whether two keys are one edit (a letter added, dropped or changed) apart.
fn one_apart(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let (short, long) = if a.len() <= b.len() {
        (&a, &b)
    } else {
        (&b, &a)
    };
    match long.len() - short.len() {
        0 => {
            short
                .iter()
                .zip(long.iter())
                .filter(|(x, y)| x != y)
                .count()
                == 1
        }
        1 => {
            let i = short
                .iter()
                .zip(long.iter())
                .take_while(|(x, y)| x == y)
                .count();
            short[i..] == long[i + 1..]
        }
        _ => false,
    }
}

/// A piece of a name pattern: a letter, or a run of `n` characters lost to
/// broken bytes (`?`, U+FFFD), which stands for one to `n` letters.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Pat {
    Letter(char),
    Lost(usize),
}

/// The key of a name with letters lost to broken bytes, as a pattern; `None`
/// for a name with none, or with fewer than four letters kept.
fn wild_pattern(name: &str) -> Option<Vec<Pat>> {
    // A letter no name is written with stands for each lost one through
    // the folding of [`name_key`].
    const LOST: char = '\u{0298}';
    if !name.contains(['?', '\u{FFFD}']) || name.contains(LOST) {
        return None;
    }
    let marked: String = name
        .chars()
        .map(|c| if c == '?' || c == '\u{FFFD}' { LOST } else { c })
        .collect();
    let mut out: Vec<Pat> = Vec::new();
    for c in name_key(&marked).chars() {
        match (c, out.last_mut()) {
            (LOST, Some(Pat::Lost(n))) => *n += 1,
            (LOST, _) => out.push(Pat::Lost(1)),
            (c, _) => out.push(Pat::Letter(c)),
        }
    }
    let letters = out
        .iter()
        .filter(|p| matches!(p, Pat::Letter(c) if *c != ' '))
        .count();
    (letters >= 4 && out.iter().any(|p| matches!(p, Pat::Lost(_)))).then_some(out)
}

/// Whether a name's key fits a pattern: letters equal, each run of lost
/// characters one to that many letters (never a space).
fn fits(pattern: &[Pat], key: &[char]) -> bool {
    let n = key.len();
    let mut reach = vec![false; n + 1];
    reach[0] = true;
    for p in pattern {
        let mut next = vec![false; n + 1];
        for i in (0..=n).filter(|&i| reach[i]) {
            match *p {
                Pat::Letter(c) => {
                    if key.get(i) == Some(&c) {
                        next[i + 1] = true;
                    }
                }
                Pat::Lost(k) => {
                    for j in 1..=k {
                        if i + j > n || key[i + j - 1] == ' ' {
                            break;
                        }
                        next[i + j] = true;
                    }
                }
            }
        }
        reach = next;
    }
    reach[n]
}

/// `N` or `N.M`: the round (and the game of a round's match).
fn round_of(text: &str) -> Option<u32> {
    let head = text.trim().split(['.', '-', '/']).next()?;
    head.trim().parse().ok().filter(|&n: &u32| n > 0)
}

fn year_of(date: &str) -> Option<u32> {
    crate::select::date_span(date).map(|(a, _)| a / 10000)
}

/// [`name_key`] of each text met, worked out once: archives write the same
/// names, events and sites thousands of times.
#[derive(Default)]
struct Keys(HashMap<String, String>);

impl Keys {
    fn of(&mut self, text: &str) -> String {
        if let Some(k) = self.0.get(text) {
            return k.clone();
        }
        let k = name_key(text);
        self.0.insert(text.to_string(), k.clone());
        k
    }
    /// [`is_placeholder`], by the key worked out once.
    fn placeholder(&mut self, name: &str) -> bool {
        match self.0.get(name) {
            Some(k) => PLACEHOLDERS.contains(&k.as_str()),
            None => PLACEHOLDERS.contains(&self.of(name).as_str()),
        }
    }
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
fn event_groups(games: &[TGame], keys: &mut Keys) -> Vec<(Option<u32>, Vec<usize>)> {
    let mut groups: HashMap<(String, String, Option<u32>), usize> = HashMap::new();
    let mut out: Vec<(Option<u32>, Vec<usize>)> = Vec::new();
    for (i, g) in games.iter().enumerate() {
        let year = g.date.as_deref().and_then(year_of);
        let key = (
            keys.of(split_event_name(&g.event).0),
            keys.of(&g.site),
            year,
        );
        let n = *groups.entry(key).or_insert_with(|| {
            out.push((year, Vec::new()));
            out.len() - 1
        });
        out[n].1.push(i);
    }
    out
}

/// The games' events, each judged: one [`Event`] per event, or per section
/// of an event whose players form groups that never meet.
///
/// With the `batch` feature, events are judged in parallel on the current
/// rayon pool (run it in a pool of one thread for one thread); the order is
/// the same.
pub fn events(games: &Games, settings: &Settings) -> Vec<Event> {
    let (list, moves) = games.parts();
    events_of(list, moves, settings)
}

/// [`events`] of `games`, whose moves are in `moves`.
fn events_of(games: &[TGame], moves: &Spill, settings: &Settings) -> Vec<Event> {
    let mut keys = Keys::default();
    let groups = event_groups(games, &mut keys);
    #[cfg(feature = "batch")]
    if rayon::current_num_threads() > 1 && groups.len() > 1 {
        use rayon::prelude::*;
        let judged: Vec<Vec<Event>> = groups
            .into_par_iter()
            .map_init(Keys::default, |memo, (year, ix)| {
                judge(games, moves, &ix, year, settings, memo)
            })
            .collect();
        return judged.into_iter().flatten().collect();
    }
    groups
        .into_iter()
        .flat_map(|(year, ix)| judge(games, moves, &ix, year, settings, &mut keys))
        .collect()
}

/// Which games count, as the crosstables of [`events`] count them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Counted {
    /// Per game, in the order given: whether it counts.
    pub each: Vec<bool>,
    /// Extra copies of a game counted once (`duplicate-game`).
    pub merged: usize,
    /// Games left out because their copies disagree (`conflicting-copies`).
    pub conflicting: usize,
}

/// Which games count: each game stored more than once in an event counted
/// once, and the copies that disagree (`conflicting-copies`) left out, as
/// the crosstables of [`events`] count them. Games with a placeholder for a
/// player all count (`stats --by player` lists them as "unknown player").
/// With `keep_duplicates` every game counts.
pub(crate) fn counted(games: &Games, settings: &Settings) -> Counted {
    let (games, moves) = games.parts();
    let mut out = Counted {
        each: vec![true; games.len()],
        ..Counted::default()
    };
    if settings.keep_duplicates {
        return out;
    }
    let mut keys = Keys::default();
    for (_, ix) in event_groups(games, &mut keys) {
        let real: Vec<usize> = ix
            .iter()
            .copied()
            .filter(|&i| !keys.placeholder(&games[i].white) && !keys.placeholder(&games[i].black))
            .collect();
        let copies = Copies::of(games, moves, &real, settings, &mut keys);
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
fn components(games: &[TGame], ix: &[usize], s: &Settings, memo: &mut Keys) -> Vec<Vec<usize>> {
    let alias = alias_keys(s);
    let mut id: HashMap<String, usize> = HashMap::new();
    let mut parent: Vec<usize> = Vec::new();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
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
        let (w, b) = (node(&games[i].white), node(&games[i].black));
        let (rw, rb) = (root(&mut parent, w), root(&mut parent, b));
        if rw != rb {
            parent[rw.max(rb)] = rw.min(rb);
        }
        ends.push((w, i));
    }
    let mut sets: Vec<Vec<usize>> = Vec::new();
    let mut set_of: HashMap<usize, usize> = HashMap::new();
    for (w, i) in ends {
        let r = root(&mut parent, w);
        let n = *set_of.entry(r).or_insert_with(|| {
            sets.push(Vec::new());
            sets.len() - 1
        });
        sets[n].push(i);
    }
    sets
}

/// The Event value of a group: the one its games write, or, when they write
/// it in several ways, the value without its parenthesised part.
fn event_name(games: &[TGame], ix: &[usize]) -> String {
    let first = games[ix[0]].event.as_str();
    if ix.iter().all(|&i| games[i].event == first) {
        first.to_string()
    } else {
        split_event_name(first).0.to_string()
    }
}

/// The names of the sections: the parenthesised part of the Event value
/// most of a section's games carry, when the group's games write the Event
/// in more than one way; else (or when taken) `section N`.
fn section_names(games: &[TGame], sets: &[Vec<usize>]) -> Vec<String> {
    let all_one = {
        let mut values = sets.iter().flatten().map(|&i| games[i].event.trim());
        let first = values.next();
        values.all(|v| Some(v) == first)
    };
    let mut names: Vec<String> = Vec::new();
    for (n, set) in sets.iter().enumerate() {
        let mut count: BTreeMap<&str, usize> = BTreeMap::new();
        if !all_one {
            for &i in set {
                if let (_, Some(part)) = split_event_name(&games[i].event) {
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

/// Half points of White and Black for a result.
fn score(result: Outcome, scoring: Scoring) -> Option<(u32, u32)> {
    let win = match scoring {
        Scoring::OneHalfZero => 2,
        _ => 4,
    };
    Some(match result {
        Outcome::WhiteWins => (win, 0),
        Outcome::BlackWins => (0, win),
        Outcome::Draw => (win / 2, win / 2),
        Outcome::BothLose => (0, 0),
        Outcome::Unknown => return None,
    })
}

/// The players of an event: one key per name (aliases by hand), with every
/// spelling and the games it is written in.
struct Names {
    keys: Vec<String>,
    index: HashMap<String, usize>,
    alias: HashMap<String, String>,
    spellings: BTreeMap<String, Vec<(String, Vec<usize>)>>,
    /// The player of each spelling met.
    by_spelling: HashMap<String, usize>,
}

impl Names {
    fn of(games: &[TGame], ix: &[usize], s: &Settings, memo: &mut Keys) -> Names {
        let alias: HashMap<String, String> = s
            .aliases
            .iter()
            .map(|(a, b)| (name_key(a), name_key(b)))
            .collect();
        let mut names = Names {
            keys: Vec::new(),
            index: HashMap::new(),
            alias,
            spellings: BTreeMap::new(),
            by_spelling: HashMap::new(),
        };
        for &i in ix {
            for name in [&games[i].white, &games[i].black] {
                let k = names.key_of(name, memo);
                if !names.index.contains_key(&k) {
                    names.index.insert(k.clone(), names.keys.len());
                    names.keys.push(k.clone());
                }
                if !names.by_spelling.contains_key(name) {
                    names.by_spelling.insert(name.clone(), names.index[&k]);
                }
                let list = names.spellings.entry(k).or_default();
                match list.iter_mut().find(|(sp, _)| sp == name) {
                    Some((_, gs)) => gs.push(i),
                    None => list.push((name.clone(), vec![i])),
                }
            }
        }
        for list in names.spellings.values_mut() {
            // Most used first; the first met on a tie; a spelling with
            // letters lost to broken bytes last.
            list.sort_by_key(|(sp, gs)| {
                (sp.contains(['?', '\u{FFFD}']), std::cmp::Reverse(gs.len()))
            });
        }
        names
    }
    fn key_of(&self, name: &str, memo: &mut Keys) -> String {
        let k = memo.of(name);
        self.alias.get(&k).cloned().unwrap_or(k)
    }
    /// The player a name (a spelling met in the event) stands for.
    fn player(&self, name: &str) -> usize {
        self.by_spelling.get(name).copied().unwrap_or(0)
    }
    fn len(&self) -> usize {
        self.keys.len()
    }
}

/// The work of judging one event.
struct Judge<'a> {
    games: &'a [TGame],
    ix: &'a [usize],
    s: &'a Settings,
    names: Names,
    findings: Vec<Finding>,
    /// The round of each game of `ix` (0: none).
    round: Vec<u32>,
    meetings: Meetings,
    /// Per player: points, games, wins, draws, losses, games with White.
    per_player: Vec<(u32, u32, u32, u32, u32, u32)>,
}

fn judge(
    games: &[TGame],
    moves: &Spill,
    ix: &[usize],
    year: Option<u32>,
    s: &Settings,
    memo: &mut Keys,
) -> Vec<Event> {
    // Games with a placeholder for a player stay out of the crosstable,
    // said once for the event.
    let (real, unknown): (Vec<usize>, Vec<usize>) = ix
        .iter()
        .partition(|&&i| !memo.placeholder(&games[i].white) && !memo.placeholder(&games[i].black));
    let unknown_note = (!unknown.is_empty()).then(|| {
        let mut names: Vec<String> = unknown
            .iter()
            .flat_map(|&i| [&games[i].white, &games[i].black])
            .filter(|n| memo.placeholder(n))
            .map(|n| format!("\"{}\"", n.trim()))
            .collect();
        names.sort();
        names.dedup();
        Finding {
            code: Code::UnknownPlayer,
            severity: Severity::Note,
            message: format!(
                "{} with no player's name ({}) kept out of the crosstable",
                plural(unknown.len(), "game", "games"),
                names.join(", ")
            ),
            games: unknown
                .iter()
                .map(|&i| (games[i].file.clone(), games[i].game))
                .collect(),
        }
    });
    let copies = Copies::of(games, moves, &real, s, memo);
    let name = event_name(games, ix);
    let site = games[ix[0]].site.clone();
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
        return vec![judge_part(games, &copies.kept, part, s, memo)];
    }
    // Sections: the sets of players who never meet, each its own crosstable.
    let names = section_names(games, &sets);
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
            section_of.entry(key(&games[i].white)).or_insert(n);
            section_of.entry(key(&games[i].black)).or_insert(n);
        }
        sizes.push(section_of.len() - before);
    }
    let described: Vec<String> = names
        .iter()
        .zip(&sets)
        .zip(&sizes)
        .map(|((nm, set), &p)| {
            format!(
                "{nm} ({}, {})",
                plural(p, "player", "players"),
                plural(set.len(), "game", "games")
            )
        })
        .collect();
    let note = Finding {
        code: Code::SplitEvent,
        severity: Severity::Note,
        message: format!(
            "{}: its games form {} sets of players with no game between them, each with its own crosstable: {}",
            if name.trim().is_empty() { "(no Event)" } else { name.trim() },
            sets.len(),
            described.join("; ")
        ),
        games: Vec::new(),
    };
    let mut parts: Vec<Part> = names
        .into_iter()
        .map(|nm| Part {
            event: name.clone(),
            section: Some(nm),
            site: site.clone(),
            year,
            findings: vec![note.clone()],
            merged: 0,
            conflicts: 0,
        })
        .collect();
    let mut section_of_game = |i: usize| {
        section_of
            .get(&key(&games[i].white))
            .or_else(|| section_of.get(&key(&games[i].black)))
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
    parts[0].findings.extend(unknown_note);
    sets.iter()
        .zip(parts)
        .map(|(set, part)| judge_part(games, set, part, s, memo))
        .collect()
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

/// The crosstable and findings of the games `ix` (counted once) of an event
/// or section.
fn judge_part(games: &[TGame], ix: &[usize], part: Part, s: &Settings, memo: &mut Keys) -> Event {
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
        return Event {
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
        };
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
    };
    j.name_findings();
    j.read_rounds();
    j.tally();
    let rounds: BTreeSet<u32> = j.round.iter().copied().filter(|&r| r > 0).collect();
    let system = j.pairings(&rounds);
    j.colours();
    j.dates();
    let mut ev = j.finish(year, system, rounds);
    ev.event = event;
    ev.section = section;
    ev.site = site;
    ev.duplicates_merged = merged;
    ev.conflicting_copies = conflicts;
    ev
}

/// The games of an event counted once: copies of one game (the same
/// pairing, the same whole Round value, the same moves or the start of them,
/// the same result) merged, and copies that disagree set aside.
struct Copies {
    /// The games that count, in input order.
    kept: Vec<usize>,
    /// Each finding with a game of its pairing.
    findings: Vec<(usize, Finding)>,
    /// Per extra copy merged: the game counted.
    merged: Vec<usize>,
    /// Per pairing whose copies disagree: its first copy.
    conflicts: Vec<usize>,
}

/// Whether two copies of one pairing and round are the same game: the same
/// result, and the same moves from the same start, or one with no moves, or
/// the moves of one the start of the other's (the longer one's hash after as
/// many plies as the shorter one has, read back from `moves`; a hash that
/// cannot be read back tells nothing: not the same game).
fn same_game(a: &TGame, b: &TGame, moves: &Spill) -> bool {
    if a.result != b.result {
        return false;
    }
    if a.plies == 0 || b.plies == 0 {
        return true;
    }
    let (Some(x), Some(y)) = (&a.moves, &b.moves) else {
        return false;
    };
    let (short, long) = if x.plies <= y.plies { (x, y) } else { (y, x) };
    if short.plies == 0 {
        return false;
    }
    if short.plies == long.plies {
        return short.full == long.full;
    }
    let mut h = [0u8; 8];
    let at = long.at + 8 * u64::from(short.plies - 1);
    moves.read_at(at, &mut h).is_ok() && u64::from_le_bytes(h) == short.full
}

/// `round R White – Black` for messages.
fn pairing_text(g: &TGame) -> String {
    match g.round.as_deref().map(str::trim).filter(|r| !r.is_empty()) {
        Some(r) => format!("round {r} {} – {}", g.white, g.black),
        None => format!("{} – {}", g.white, g.black),
    }
}

fn place_text(g: &TGame) -> String {
    format!("{} game {}", g.file, g.game)
}

impl Copies {
    fn of(games: &[TGame], moves: &Spill, ix: &[usize], s: &Settings, memo: &mut Keys) -> Copies {
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
            let Some(round) = g.round.as_deref().map(str::trim).filter(|r| !r.is_empty()) else {
                continue;
            };
            let k = (key(&g.white), key(&g.black), round.to_string());
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
                    same_game(&games[c[0]], &games[i], moves)
                        && c.iter().all(|&j| same_game(&games[j], &games[i], moves))
                }) {
                    Some(c) => c.push(i),
                    None => clusters.push(vec![i]),
                }
            }
            let preferred: Vec<usize> = match &s.prefer {
                Some(set) if clusters.len() > 1 => clusters
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| c.iter().any(|&i| set.is_match(&games[i].file)))
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
                        let places: Vec<String> =
                            c.iter().map(|&i| place_text(&games[i])).collect();
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
                        pairing_text(&games[list[0]]),
                        described.join("; ")
                    ),
                    games: list.iter().map(|&i| (games[i].file.clone(), games[i].game)).collect(),
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
                                    pairing_text(&games[keep]),
                                    place_text(&games[keep]),
                                    place_text(&games[i])
                                ),
                                games: vec![
                                    (games[keep].file.clone(), games[keep].game),
                                    (games[i].file.clone(), games[i].game),
                                ],
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
                    .flat_map(|(_, c)| c.iter().map(|&i| place_text(&games[i])))
                    .collect();
                out.findings.push((
                    keep,
                    Finding {
                        code: Code::DuplicateGame,
                        severity: Severity::Note,
                        message: format!(
                            "{}: copies that differ, settled by --prefer: {} is counted, not {}",
                            pairing_text(&games[keep]),
                            place_text(&games[keep]),
                            others.join(", ")
                        ),
                        games: list
                            .iter()
                            .map(|&i| (games[i].file.clone(), games[i].game))
                            .collect(),
                    },
                ));
            }
        }
        out.kept.retain(|i| !dropped.contains(i));
        out
    }
}

impl Judge<'_> {
    fn place(&self, i: usize) -> (String, usize) {
        (self.games[i].file.clone(), self.games[i].game)
    }
    /// How player `p` is written most.
    fn shown(&self, p: usize) -> &str {
        self.names.spellings[&self.names.keys[p]][0].0.as_str()
    }

    /// `name-variant` and `name-similar`.
    fn name_findings(&mut self) {
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
        for (a, ka) in keys.iter().enumerate() {
            // Names of a few letters are all one letter apart: not compared.
            if lens[a] < 6 {
                continue;
            }
            for (b, kb) in keys.iter().enumerate().skip(a + 1) {
                if lens[b] < 6 || lens[a].abs_diff(lens[b]) > 1 {
                    continue;
                }
                // A name with lost letters is compared by them (below).
                if lost[a].is_none() && lost[b].is_none() && one_apart(ka, kb) {
                    // The spelling of fewer games is the one to merge into
                    // the other (the first met on a tie).
                    let count =
                        |k: &String| spellings[k].iter().map(|(_, g)| g.len()).sum::<usize>();
                    let (ka, kb) = if count(kb) > count(ka) {
                        (kb, ka)
                    } else {
                        (ka, kb)
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
            }
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

    /// The round of each game; `round-unknown`.
    fn read_rounds(&mut self) {
        let mut unknown_round: Vec<usize> = Vec::new();
        let round: Vec<u32> = self
            .ix
            .iter()
            .map(
                |&i| match self.games[i].round.as_deref().and_then(round_of) {
                    Some(r) => r,
                    None => {
                        unknown_round.push(i);
                        0
                    }
                },
            )
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
    fn tally(&mut self) {
        // Meetings: the games of one round between the same two players.
        for (j, &i) in self.ix.iter().enumerate() {
            let g = &self.games[i];
            let (w, b) = (self.names.player(&g.white), self.names.player(&g.black));
            if g.plies == 0 && matches!(g.result, Outcome::WhiteWins | Outcome::BlackWins) {
                self.findings.push(Finding {
                    code: Code::Forfeit,
                    severity: Severity::Warning,
                    message: format!(
                        "{} – {}: no moves, scored as declared ({})",
                        g.white,
                        g.black,
                        g.result.normalised()
                    ),
                    games: vec![self.place(i)],
                });
            }
            if let Some(m) = &g.mismatch {
                self.findings.push(Finding {
                    code: Code::ResultMismatch,
                    severity: Severity::Error,
                    message: format!("{} – {}: {m}", g.white, g.black),
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
                .or_insert((w, b, 0, 0, 0, Vec::new()));
            let (mine, theirs) = if e.0 == w { (pw, pb) } else { (pb, pw) };
            e.2 += mine;
            e.3 += theirs;
            e.4 += 1;
            e.5.push(i);
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
    fn pairings(&mut self, rounds: &BTreeSet<u32>) -> System {
        // Double-booked: two opponents in one round.
        let mut opponents: BTreeMap<(u32, usize), BTreeMap<usize, Vec<usize>>> = BTreeMap::new();
        for (&(r, a, b), m) in &self.meetings {
            if r == 0 {
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

    /// The system the games show (a round robin when most pairs of the
    /// event's own players met), and `repeated-pairing`, `missing-game`.
    fn system(&mut self, rounds: &BTreeSet<u32>, opponents: &Opponents) -> System {
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
        let system = if core_n >= 3 && core_met * 4 >= pairs * 3 {
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
    fn missing_games(
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
    fn colours(&mut self) {
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

    /// `date-outside-event`.
    fn dates(&mut self) {
        // Dates: a round dated before the round before it, or a game dated
        // outside the span of its event's rounds.
        let mut round_dates: BTreeMap<u32, BTreeMap<u32, usize>> = BTreeMap::new();
        for (j, &i) in self.ix.iter().enumerate() {
            if let (r, Some(d)) = (
                self.round[j],
                self.games[i]
                    .date
                    .as_deref()
                    .and_then(crate::select::date_span),
            ) {
                if r > 0 && d.0 == d.1 {
                    *round_dates.entry(r).or_default().entry(d.0).or_default() += 1;
                }
            }
        }
        let day_of: BTreeMap<u32, u32> = round_dates
            .iter()
            .filter_map(|(r, ds)| {
                ds.iter()
                    .max_by_key(|(d, c)| (**c, std::cmp::Reverse(**d)))
                    .map(|(d, _)| (*r, *d))
            })
            .collect();
        let mut last: Option<(u32, u32)> = None;
        for (&r, &d) in &day_of {
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
        if let (Some(first), Some(end)) = (day_of.values().min(), day_of.values().max()) {
            for (j, &i) in self.ix.iter().enumerate() {
                let Some((a, b)) = self.games[i]
                    .date
                    .as_deref()
                    .and_then(crate::select::date_span)
                else {
                    continue;
                };
                if b < *first || a > *end {
                    self.findings.push(Finding {
                        code: Code::DateOutsideEvent,
                        severity: Severity::Warning,
                        message: format!(
                            "{} – {} (round {}) is dated {}, outside the event's rounds ({} to {})",
                            self.games[i].white,
                            self.games[i].black,
                            self.round[j],
                            self.games[i].date.as_deref().unwrap_or(""),
                            show_day(*first),
                            show_day(*end)
                        ),
                        games: vec![self.place(i)],
                    });
                }
            }
        }
    }

    /// Tie-breaks, the ranking, and the event.
    fn finish(mut self, year: Option<u32>, system: System, rounds: BTreeSet<u32>) -> Event {
        // Tie-breaks and the ranking.
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
        let players: Vec<Player> = order.iter().map(|&p| rows[p].clone()).collect();
        rows.clear();
        let meetings: Vec<Meeting> = self
            .meetings
            .values()
            .map(|m| Meeting {
                round: self
                    .ix
                    .iter()
                    .position(|&i| m.5.first() == Some(&i))
                    .map_or(0, |j| self.round[j]),
                white: new_index[m.0],
                black: new_index[m.1],
                points: (m.2, m.3),
                games: m.4,
            })
            .collect();
        self.findings
            .sort_by_key(|f| (f.severity != Severity::Error, f.code.as_str()));
        let first = &self.games[self.ix[0]];
        Event {
            event: first.event.clone(),
            section: None,
            site: first.site.clone(),
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
        }
    }
}

fn show_day(d: u32) -> String {
    format!("{:04}.{:02}.{:02}", d / 10000, d / 100 % 100, d % 100)
}

/// Per (round, player, player): the first game's White, the other, their
/// points, the games and their indices.
type Meetings = BTreeMap<(u32, usize, usize), (usize, usize, u32, u32, u32, Vec<usize>)>;
/// The meetings of a pair: (round, games).
type PairGames = Vec<(u32, Vec<usize>)>;
/// Per (round, player): each opponent and the games against them.
type Opponents = BTreeMap<(u32, usize), BTreeMap<usize, Vec<usize>>>;

/// One tie-break of player `p`.
/// Per player, each meeting from their side: the opponent, what they
/// scored, what the opponent scored, the games; in the meetings' order. One
/// pass over the meetings, so that the tie-breaks of all players are linear
/// in the meetings (issue 51), not players times meetings.
fn meetings_by_player(n: usize, meetings: &Meetings) -> Vec<Vec<(usize, u32, u32, u32)>> {
    let mut out = vec![Vec::new(); n];
    for m in meetings.values() {
        if let Some(mine) = out.get_mut(m.0) {
            mine.push((m.1, m.2, m.3, m.4));
        }
        if m.1 != m.0 {
            if let Some(theirs) = out.get_mut(m.1) {
                theirs.push((m.0, m.3, m.2, m.4));
            }
        }
    }
    out
}

/// Tie-break `t` of player `p`, whose meetings are `mine`
/// ([`meetings_by_player`]).
fn tiebreak(t: Tiebreak, p: usize, mine: &[(usize, u32, u32, u32)], points: &[u32]) -> f64 {
    let half = |x: u32| f64::from(x) / 2.0;
    match t {
        Tiebreak::Solkoff => mine.iter().map(|m| half(points[m.0])).sum(),
        Tiebreak::SolkoffCut => {
            let mut v: Vec<u32> = mine.iter().map(|m| points[m.0]).collect();
            v.sort_unstable();
            v.iter().skip(1).map(|&x| half(x)).sum()
        }
        Tiebreak::SonnebornBerger => mine
            .iter()
            .map(|&(o, got, other, _)| {
                let total = got + other;
                if total == 0 {
                    0.0
                } else {
                    half(points[o]) * f64::from(got) / f64::from(total)
                }
            })
            .sum(),
        Tiebreak::Wins => f64::from(mine.iter().filter(|m| m.1 > m.2).count() as u32),
        Tiebreak::Direct => mine
            .iter()
            .filter(|m| points[m.0] == points[p])
            .map(|m| half(m.1))
            .sum(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The events of games whose moves are not known.
    fn events(games: &[TGame], s: &Settings) -> Vec<Event> {
        events_of(games, &Spill::in_memory(), s)
    }

    fn g(w: &str, b: &str, round: &str, result: Outcome) -> TGame {
        TGame {
            file: "t.pdn".into(),
            game: 0,
            event: "Test".into(),
            site: "Here".into(),
            date: None,
            round: Some(round.into()),
            white: w.into(),
            black: b.into(),
            result,
            plies: 40,
            mismatch: None,
            moves: None,
        }
    }

    fn codes(e: &Event) -> Vec<&'static str> {
        e.findings.iter().map(|f| f.code.as_str()).collect()
    }

    use Outcome::{BlackWins as B, Draw as D, WhiteWins as W};

    /// A round robin of four: A beats everyone, B draws C and beats D, C beats D.
    fn four() -> Vec<TGame> {
        vec![
            g("A", "B", "1", W),
            g("D", "C", "1", B),
            g("C", "A", "2", B),
            g("B", "D", "2", W),
            g("A", "D", "3", W),
            g("B", "C", "3", D),
        ]
    }

    #[test]
    fn a_round_robin_and_its_crosstable() {
        let e = &events(&four(), &Settings::default())[0];
        assert_eq!(e.system, System::RoundRobin { cycles: 1 });
        let names: Vec<&str> = e.players.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["A", "B", "C", "D"]);
        let pts: Vec<u32> = e.players.iter().map(|p| p.points / 2).collect();
        assert_eq!(pts, [6, 3, 3, 0]);
        // B and C are level; they drew each other (direct 1 each); B's win
        // is over D (0 points), C's too: level on SB and wins as well.
        assert_eq!(e.players[1].rank, 2);
        assert_eq!(e.players[2].rank, 2);
        assert!(e.findings.is_empty(), "{:?}", e.findings);
        assert_eq!(e.rounds, [1, 2, 3]);
        // 1-½-0 halves every score.
        let s = Settings {
            scoring: Scoring::OneHalfZero,
            ..Settings::default()
        };
        let e = &events(&four(), &s)[0];
        assert_eq!(e.players[0].points, 6); // 3 points in half points
    }

    #[test]
    fn findings_of_a_faulty_round_robin() {
        let mut games = four();
        games.remove(5); // B – C missing (round 3)
        games.push(g("A", "B", "3", D)); // A meets B twice; A plays twice in round 3
        let e = &events(&games, &Settings::default())[0];
        let c = codes(e);
        assert!(c.contains(&"repeated-pairing"), "{c:?}");
        assert!(c.contains(&"double-booked"), "{c:?}");
        let missing = e
            .findings
            .iter()
            .find(|f| f.code == Code::MissingGame)
            .unwrap();
        assert!(missing.message.contains("B – C"), "{}", missing.message);
    }

    #[test]
    fn names_merge_across_scripts_and_spaces_and_similar_ones_are_named() {
        assert_eq!(name_key("Cеменюк  Михаил"), name_key("Семенюк Михаил"));
        assert_eq!(name_key("Lazovik  Yana"), name_key("lazovik yana"));
        assert_ne!(
            name_key("Кодраченко Евгений"),
            name_key("Кондраченко Евгений")
        );
        assert!(one_apart(
            &name_key("Кодраченко Евгений"),
            &name_key("Кондраченко Евгений")
        ));
        assert!(one_apart("abc", "abd") && one_apart("abc", "abxc") && !one_apart("abc", "cab"));
        let games = vec![
            g("Семенюк Михаил", "Чепа Олег", "1", W),
            g("Чепа Олег", "Cеменюк  Михаил", "2", D),
            g("Кондраченко Евгений", "Чепа Олег", "3", D),
            g("Чепа Олег", "Кодраченко Евгений", "4", D),
        ];
        let e = &events(&games, &Settings::default())[0];
        assert_eq!(e.players.len(), 4, "the similar names stay apart");
        let variant = e
            .findings
            .iter()
            .find(|f| f.code == Code::NameVariant)
            .unwrap();
        assert!(variant.message.contains("Cеменюк  Михаил"));
        assert!(codes(e).contains(&"name-similar"));
        // --alias merges them.
        let s = Settings {
            aliases: vec![("Кодраченко Евгений".into(), "Кондраченко Евгений".into())],
            ..Settings::default()
        };
        let e = &events(&games, &s)[0];
        assert_eq!(e.players.len(), 3);
    }

    #[test]
    fn matches_score_per_match_and_forfeits_are_named() {
        // Two-game matches (round N.M): A beats B 1.5-0.5 in round 1.
        let mut games = vec![
            g("A", "B", "1.1", W),
            g("B", "A", "1.2", D),
            g("A", "C", "2.1", D),
            g("C", "A", "2.2", D),
            g("B", "C", "3.1", B),
            g("C", "B", "3.2", W),
        ];
        let s = Settings {
            scoring: Scoring::MatchPoints,
            ..Settings::default()
        };
        let e = &events(&games, &s)[0];
        assert!(e.findings.is_empty(), "{:?}", e.findings);
        // A: won match 1 (2), drew match 2 (1) = 3; C won match 3 (2) + 1 = 3; B 0.
        let pts: BTreeMap<&str, u32> = e
            .players
            .iter()
            .map(|p| (p.name.as_str(), p.points / 2))
            .collect();
        assert_eq!(pts["A"], 3);
        assert_eq!(pts["C"], 3);
        assert_eq!(pts["B"], 0);
        games[0].plies = 0;
        let e = &events(&games, &s)[0];
        assert_eq!(codes(e), ["forfeit"]);
    }

    #[test]
    fn a_double_round_robin_and_a_swiss_event() {
        // Each pair twice, colours swapped: a double round robin, no finding.
        let mut games = four();
        for (i, x) in four().into_iter().enumerate() {
            games.push(TGame {
                white: x.black.clone(),
                black: x.white.clone(),
                round: Some(format!("{}", 4 + i / 2)),
                ..x
            });
        }
        let e = &events(&games, &Settings::default())[0];
        assert_eq!(e.system, System::RoundRobin { cycles: 2 });
        assert!(e.findings.is_empty(), "{:?}", e.findings);
        assert_eq!(e.players.iter().map(|p| p.games).sum::<u32>(), 24);
        // Eight players, three rounds, all meeting through others: one Swiss
        // event, not split. A pair meeting twice is a
        // repeated pairing; nobody is missing a game.
        let names = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"];
        let mut swiss = Vec::new();
        for (r, pairs) in [
            [(0, 1), (2, 3), (4, 5), (6, 7)],
            [(3, 0), (1, 2), (7, 4), (5, 6)],
            [(0, 4), (5, 1), (2, 6), (7, 3)],
        ]
        .iter()
        .enumerate()
        {
            for &(w, b) in pairs {
                swiss.push(g(names[w], names[b], &(r + 1).to_string(), D));
            }
        }
        let e = &events(&swiss, &Settings::default())[0];
        assert_eq!(e.system, System::Swiss);
        assert!(e.findings.is_empty(), "{:?}", e.findings);
        swiss.push(g("Bob", "Ann", "4", D));
        let e = &events(&swiss, &Settings::default())[0];
        assert_eq!(codes(e), ["repeated-pairing"]);
    }

    #[test]
    fn events_split_by_name_site_and_year_and_dates_are_checked() {
        let mut games = four();
        for (i, x) in games.iter_mut().enumerate() {
            x.date = Some(format!("2016.05.{:02}", 20 + (i / 2) as u32));
        }
        games[5].date = Some("2016.05.19".into()); // round 3 game before round 1
        let mut other = four();
        for x in &mut other {
            x.date = Some("2017.05.01".into());
        }
        games.extend(other);
        let ev = events(&games, &Settings::default());
        assert_eq!(ev.len(), 2);
        assert_eq!((ev[0].year, ev[1].year), (Some(2016), Some(2017)));
        assert!(
            codes(&ev[0]).contains(&"date-outside-event"),
            "{:?}",
            ev[0].findings
        );
    }
}
