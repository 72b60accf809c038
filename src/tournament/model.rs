//! The tournament's vocabulary: how games are scored and ranked, the
//! settings, and what judging an event gives (events, players, meetings,
//! findings).

use crate::diag::{Code, Severity};
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

/// What [`Games::events`](crate::tournament::Games::events) is asked to do.
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
    /// never a repeated pairing. Two players meeting more than once, or an
    /// Event that says it is a match.
    Match,
    /// One game between two players, in an Event that does not say it is a
    /// match (issue 62 item 8).
    Game,
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
    /// Of those, the games in which `white` had White (all of them but a
    /// micro-match's second, where colours are swapped).
    pub white_games: u32,
    /// The games as (file, game), in a section that plays micro-matches
    /// (else empty).
    pub places: Vec<(String, usize)>,
    /// The Round of each game of `places` as written (`1.1`, `1.2`), where
    /// `round` is its number.
    pub rounds_written: Vec<Option<String>>,
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
        if self.players.is_empty() {
            return "no player named: no crosstable".to_string();
        }
        let system = match self.system {
            System::RoundRobin { cycles: 1 } => "round robin".to_string(),
            System::RoundRobin { cycles: 2 } => "double round robin".to_string(),
            System::RoundRobin { cycles } => format!("round robin, {cycles} cycles"),
            System::Swiss => "Swiss (pairings round by round)".to_string(),
            System::Match => "match".to_string(),
            System::Game => "one game".to_string(),
        };
        // No Round read: the rounds are not known, not none (issue 62 item 8).
        let rounds = if self.rounds.is_empty() {
            "rounds not given".to_string()
        } else {
            plural(self.rounds.len(), "round", "rounds")
        };
        format!(
            "{system}, {}, {rounds}",
            plural(self.players.len(), "player", "players"),
        )
    }
}

/// `n` and the word, singular or plural.
pub(crate) fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
