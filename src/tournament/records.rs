//! The records `tournament --format json` writes (CLI.md).

use crate::tournament::model::{Event, Tiebreak};

impl Event {
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
                        .enumerate()
                        .map(|(k, (file, game))| PlaceRecord {
                            file,
                            game: *game,
                            round: m.rounds_written.get(k).and_then(|r| r.as_deref()),
                        })
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
                        .map(|(file, game)| PlaceRecord {
                            file,
                            game: *game,
                            round: None,
                        })
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
    /// Its Round as written (`1.2`), in a micro-match's list; the pair's
    /// `round` is its number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub round: Option<&'a str>,
}
