//! `pdnkit explore PATH...`: the moves played from a position, with their
//! results, over every game that reaches it (docs/explore.md).

use crate::common::InputArgs;
use crate::output::Stop;
use pdnkit::batch::Sink;
use pdnkit::pdn::Game;
use pdnkit::replay::GameReport;
use pdnkit::stats::{Explorer, Group};
use pdnkit::{Color, Position, Variant};
use std::ops::ControlFlow;

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Human,
    Json,
    Csv,
}

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    select: crate::common::SelectArgs,
    #[command(flatten)]
    tag_select: crate::common::TagSelectArgs,
    /// Moves played from the position first (`--play '32-28 18-23'`,
    /// move numbers allowed): the position they reach is explored.
    #[arg(long, value_name = "MOVES")]
    play: Option<String>,
    /// Plies of the tree: each move's own table below it, N plies deep.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: u32,
    /// human (a table per position), json (JSON Lines: a position, then
    /// its moves) or csv (one row per move).
    #[arg(long, value_enum, default_value = "human")]
    format: Format,
}

struct ExploreSink {
    explorer: Explorer,
}

impl Sink for ExploreSink {
    type Error = Stop;
    fn game(&mut self, _file: &str, g: &Game, r: &GameReport) -> ControlFlow<Stop> {
        self.explorer.add(g, r);
        ControlFlow::Continue(())
    }
    fn file_done(&mut self, _file: &str, _findings: &[pdnkit::diag::FileDiagnostic]) {}
}

/// The explorer of `--position` and `--play`, or why not. `--position`
/// (the selection option: games reaching FEN) names the position explored:
/// each variant it is a position of, the first FEN of a variant when
/// repeated; by default the start position of each variant present.
fn explorer(a: &Args) -> Result<Explorer, String> {
    let mut roots: Vec<Position> = Vec::new();
    for fen in &a.select.position {
        let of_fen: Vec<Position> = Variant::ALL
            .iter()
            .filter_map(|&v| Position::from_fen(fen, v).ok())
            .collect();
        if of_fen.is_empty() {
            // The reason, worded for the largest board that reads it.
            let why = Variant::ALL
                .iter()
                .rev()
                .find_map(|&v| Position::from_fen(fen, v).err())
                .map_or(String::new(), |e| e.to_string());
            return Err(format!("--position '{fen}': {why}"));
        }
        roots.extend(of_fen);
    }
    let mut explorer = Explorer::new(&roots, a.depth);
    if let Some(moves) = &a.play {
        explorer
            .play(moves)
            .map_err(|e| format!("--play '{moves}': {e}"))?;
    }
    Ok(explorer)
}

pub fn run(a: Args) -> u8 {
    // --position is the root, not a filter: a game that reaches a position
    // below it by another order of moves counts there too.
    let mut select = a.select.clone();
    select.position.clear();
    let selection = match select.selection(&a.tag_select.tag, &a.input) {
        Ok(s) => s,
        Err(why) => return crate::exit::fail(why),
    };
    let explorer = match explorer(&a) {
        Ok(e) => e,
        Err(why) => return crate::exit::fail(why),
    };
    let prepared = match a.input.prepare(true) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let mut sink = ExploreSink { explorer };
    if let Err(stop) = prepared.run_selected(!a.input.no_progress, &selection, &mut sink) {
        stop.report();
        return 0;
    }
    let tree = sink.explorer.tree(Some(prepared.opts()));
    if tree.is_empty() {
        eprintln!("pdnkit: no game of a variant the position belongs to was selected");
    }
    let text = match a.format {
        Format::Human => human(&tree),
        Format::Json => json(&tree),
        Format::Csv => match csv_text(&tree) {
            Ok(t) => t,
            Err(e) => return crate::exit::fail(e),
        },
    };
    // explore did its job whatever the findings: its answer is 0.
    crate::output::print_answer(&text)
}

/// The side to move's points per decided game of `g`.
fn score(g: &Group, side: Color) -> Option<f64> {
    let decided = g.wins + g.draws + g.losses;
    let won = if side == Color::White {
        g.wins
    } else {
        g.losses
    };
    (decided > 0).then(|| (won as f64 + g.draws as f64 / 2.0) / decided as f64)
}

fn years(g: &Group) -> String {
    match (g.first_year, g.last_year) {
        (Some(a), Some(b)) if a == b => a.to_string(),
        (Some(a), Some(b)) => format!("{a}-{b}"),
        _ => String::new(),
    }
}

/// A recent game in one line: `White - Black, Event, Date`.
fn game_line(r: &[String; 4]) -> String {
    let or = |s: &str| {
        if s.is_empty() {
            "?".to_string()
        } else {
            s.to_string()
        }
    };
    format!(
        "{} - {}, {}, {}",
        or(&r[0]),
        or(&r[1]),
        or(&r[2]),
        or(&r[3])
    )
}

fn human(tree: &[(Position, Group, Vec<Group>)]) -> String {
    let mut t = String::new();
    for (pos, totals, moves) in tree {
        let v = pos.variant().name();
        let at = if totals.name.is_empty() {
            String::new()
        } else {
            format!(" after {}", totals.name)
        };
        t.push_str(&format!("== {v}{at}: {}\n", pos.to_fen()));
        if let Some(row) = &totals.row {
            let name = totals
                .opening_name
                .as_deref()
                .map_or(String::new(), |n| format!(" ({n})"));
            t.push_str(&format!("   {row}{name}\n"));
        }
        t.push_str(&format!(
            "   {} games: {} White wins, {} draws, {} Black wins, {} unfinished\n",
            totals.games, totals.wins, totals.draws, totals.losses, totals.unscored
        ));
        if !moves.is_empty() {
            t.push_str(&format!(
                "   {:<12} {:>7} {:>6} {:>6} {:>6} {:>6} {:>6}  {:<9}  latest\n",
                "move", "games", "white", "draws", "black", "unfin", "score", "years"
            ));
        }
        for m in moves {
            let sc = score(m, pos.side()).map_or("-".to_string(), |s| format!("{s:.2}"));
            t.push_str(&format!(
                "   {:<12} {:>7} {:>6} {:>6} {:>6} {:>6} {:>6}  {:<9}  {}\n",
                m.name,
                m.games,
                m.wins,
                m.draws,
                m.losses,
                m.unscored,
                sc,
                years(m),
                m.recent.first().map_or(String::new(), game_line)
            ));
        }
        for r in &totals.recent {
            t.push_str(&format!("   recent: {}\n", game_line(r)));
        }
        t.push('\n');
    }
    t
}

/// A recent game in JSON.
#[derive(serde::Serialize)]
struct GameJson<'a> {
    white: Option<&'a str>,
    black: Option<&'a str>,
    event: Option<&'a str>,
    date: Option<&'a str>,
    year: Option<u32>,
}

impl GameJson<'_> {
    fn of(r: &[String; 4]) -> GameJson<'_> {
        fn or_none(s: &str) -> Option<&str> {
            (!s.is_empty()).then_some(s)
        }
        GameJson {
            white: or_none(&r[0]),
            black: or_none(&r[1]),
            event: or_none(&r[2]),
            date: or_none(&r[3]),
            year: r[3].get(..4).and_then(|y| y.parse().ok()),
        }
    }
}

/// The counts every line shares.
#[derive(serde::Serialize)]
struct CountsJson {
    games: u64,
    white_wins: u64,
    draws: u64,
    black_wins: u64,
    unfinished: u64,
    score: Option<f64>,
    first_year: Option<u32>,
    last_year: Option<u32>,
}

impl CountsJson {
    fn of(g: &Group, side: Color) -> CountsJson {
        CountsJson {
            games: g.games,
            white_wins: g.wins,
            draws: g.draws,
            black_wins: g.losses,
            unfinished: g.unscored,
            score: score(g, side),
            first_year: g.first_year,
            last_year: g.last_year,
        }
    }
}

/// A line of `--format json`: a position, or a move from it.
#[derive(serde::Serialize)]
struct LineJson<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    variant: &'static str,
    position: &'a str,
    line: &'a str,
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    mv: Option<&'a str>,
    #[serde(flatten)]
    counts: CountsJson,
    #[serde(skip_serializing_if = "Option::is_none")]
    opening: Option<Option<&'a str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    opening_name: Option<Option<&'a str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    recent: Option<Vec<GameJson<'a>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    latest: Option<Option<GameJson<'a>>>,
}

fn json(tree: &[(Position, Group, Vec<Group>)]) -> String {
    let mut t = String::new();
    for (pos, totals, moves) in tree {
        let fen = pos.to_fen();
        fn line<'a>(
            pos: &Position,
            fen: &'a str,
            totals: &'a Group,
            mv: Option<&'a Group>,
        ) -> LineJson<'a> {
            let g = mv.unwrap_or(totals);
            LineJson {
                kind: if mv.is_some() { "move" } else { "position" },
                variant: pos.variant().name(),
                position: fen,
                line: &totals.name,
                mv: mv.map(|m| m.name.as_str()),
                counts: CountsJson::of(g, pos.side()),
                opening: mv.is_none().then_some(totals.row.as_deref()),
                opening_name: mv.is_none().then_some(totals.opening_name.as_deref()),
                recent: mv
                    .is_none()
                    .then(|| totals.recent.iter().map(GameJson::of).collect()),
                latest: mv.map(|m| m.recent.first().map(GameJson::of)),
            }
        }
        t.push_str(&crate::render::json_line(&line(pos, &fen, totals, None)));
        for m in moves {
            t.push_str(&crate::render::json_line(&line(pos, &fen, totals, Some(m))));
        }
    }
    t
}

fn csv_text(tree: &[(Position, Group, Vec<Group>)]) -> Result<String, String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let head = [
        "variant",
        "position",
        "line",
        "move",
        "games",
        "white_wins",
        "draws",
        "black_wins",
        "unfinished",
        "score",
        "first_year",
        "last_year",
        "latest_white",
        "latest_black",
        "latest_event",
        "latest_date",
    ];
    crate::render::safe_record(&mut w, head).map_err(|e| format!("CSV: {e}"))?;
    let opt = |y: Option<u32>| y.map_or(String::new(), |y| y.to_string());
    for (pos, totals, moves) in tree {
        for m in moves {
            let latest = m.recent.first().cloned().unwrap_or_default();
            let mut row = vec![
                pos.variant().name().to_string(),
                pos.to_fen(),
                totals.name.clone(),
                m.name.clone(),
                m.games.to_string(),
                m.wins.to_string(),
                m.draws.to_string(),
                m.losses.to_string(),
                m.unscored.to_string(),
                score(m, pos.side()).map_or(String::new(), |s| format!("{s:.4}")),
                opt(m.first_year),
                opt(m.last_year),
            ];
            row.extend(latest);
            crate::render::safe_record(&mut w, row).map_err(|e| format!("CSV: {e}"))?;
        }
    }
    Ok(String::from_utf8_lossy(&w.into_inner().map_err(|e| format!("CSV: {e}"))?).into_owned())
}
