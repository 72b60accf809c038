//! The records of `pdnkit explore --format json` (docs/explore.md): the
//! tree of an [`Explorer`] as JSON objects, the same for every door.

use super::explore::Explorer;
use super::Group;
use crate::position::Position;
use crate::replay::Options;

/// A recent game in a record.
#[derive(serde::Serialize)]
struct GameRecord {
    white: Option<String>,
    black: Option<String>,
    event: Option<String>,
    date: Option<String>,
    year: Option<u32>,
}

impl GameRecord {
    fn of(r: &[String; 4]) -> GameRecord {
        let or_none = |s: &String| (!s.is_empty()).then(|| s.clone());
        GameRecord {
            white: or_none(&r[0]),
            black: or_none(&r[1]),
            event: or_none(&r[2]),
            date: or_none(&r[3]),
            year: r[3].get(..4).and_then(|y| y.parse().ok()),
        }
    }
}

/// The counts every record has.
#[derive(serde::Serialize)]
struct Counts {
    games: u64,
    white_wins: u64,
    draws: u64,
    black_wins: u64,
    unfinished: u64,
    score: Option<f64>,
    first_year: Option<u32>,
    last_year: Option<u32>,
}

/// A record of `explore --format json`: a position, or a move from it.
#[derive(serde::Serialize)]
struct Record {
    #[serde(rename = "type")]
    kind: &'static str,
    variant: &'static str,
    position: String,
    line: String,
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    mv: Option<String>,
    #[serde(flatten)]
    counts: Counts,
    #[serde(skip_serializing_if = "Option::is_none")]
    opening: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    opening_name: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    recent: Option<Vec<GameRecord>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    latest: Option<Option<GameRecord>>,
}

impl Record {
    fn new(pos: &Position, totals: &Group, mv: Option<&Group>) -> Record {
        let g = mv.unwrap_or(totals);
        Record {
            kind: if mv.is_some() { "move" } else { "position" },
            variant: pos.variant().name(),
            position: pos.to_fen(),
            line: totals.name.clone(),
            mv: mv.map(|m| m.name.clone()),
            counts: Counts {
                games: g.games,
                white_wins: g.wins,
                draws: g.draws,
                black_wins: g.losses,
                unfinished: g.unscored,
                score: g.score_of(pos.side()),
                first_year: g.first_year,
                last_year: g.last_year,
            },
            opening: mv.is_none().then(|| totals.row.clone()),
            opening_name: mv.is_none().then(|| totals.opening_name.clone()),
            recent: mv
                .is_none()
                .then(|| totals.recent.iter().map(GameRecord::of).collect()),
            latest: mv.map(|m| m.recent.first().map(GameRecord::of)),
        }
    }
}

impl Explorer {
    /// The tree ([`Explorer::tree`]) as the records of `pdnkit explore
    /// --format json` (docs/explore.md): per position, one with `"type":
    /// "position"` (`variant`, `position` as FEN, `line` from the root, the
    /// counts, `opening`, `opening_name`, `recent`), then one per move
    /// (`"type": "move"`, `move`, the counts, `latest`). The counts:
    /// `games`, `white_wins`, `draws`, `black_wins`, `unfinished`, `score`
    /// (the side to move's points per decided game), `first_year`,
    /// `last_year`.
    pub fn records(&mut self, opts: Option<&Options>) -> Vec<impl serde::Serialize> {
        Explorer::records_of(&self.tree(opts))
    }

    /// The records of a tree as [`Explorer::tree`] or
    /// [`Explorer::tree_from_index`] gave it.
    pub fn records_of(tree: &[(Position, Group, Vec<Group>)]) -> Vec<impl serde::Serialize> {
        let mut out = Vec::new();
        for (pos, totals, moves) in tree {
            out.push(Record::new(pos, totals, None));
            out.extend(moves.iter().map(|m| Record::new(pos, totals, Some(m))));
        }
        out
    }
}
