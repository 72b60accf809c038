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
    /// Count every copy of a game stored more than once in an event (by
    /// default each game counts once, as `stats` and `tournament` count it).
    #[arg(long)]
    keep_duplicates: bool,
    /// Answer from this index (made by `pdnkit index`) instead of reading
    /// games: name no PATH and no selection (the index counts the games it
    /// was made from).
    #[cfg(feature = "parquet")]
    #[arg(long, value_name = "FILE")]
    index: Option<std::path::PathBuf>,
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
    fn game(&mut self, file: &str, g: &Game, r: &GameReport) -> ControlFlow<Stop> {
        self.explorer.add(file, g, r);
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
    let mut explorer = Explorer::new(&roots, a.depth).keep_duplicates(a.keep_duplicates);
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
    #[cfg(feature = "parquet")]
    if let Some(path) = &a.index {
        if !a.input.paths.is_empty() || !selection.is_empty() || a.keep_duplicates {
            return crate::exit::fail(
                "--index answers from the games the index was made from: name no PATH, no \
                 selection and no --keep-duplicates (give them to `pdnkit index`)",
            );
        }
        return from_index(&a, path, explorer);
    }
    let prepared = match a.input.prepare(true) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let mut sink = ExploreSink { explorer };
    if let Err(stop) = prepared.run_selected(!a.input.no_progress, &selection, &mut sink) {
        stop.report();
        return 0;
    }
    let ((merged, conflicting), failed) = sink.explorer.set_aside();
    if let Some(why) = failed {
        return crate::exit::fail(format!("error: {why}"));
    }
    crate::common::say_set_aside(merged, conflicting);
    let tree = sink.explorer.tree(Some(prepared.opts()));
    answer(&tree, a.format)
}

/// The tree of `explorer` answered from the index at `path`.
#[cfg(feature = "parquet")]
fn from_index(a: &Args, path: &std::path::Path, mut explorer: Explorer) -> u8 {
    let opts = match a.input.options() {
        Ok(o) => o,
        Err(why) => return crate::exit::fail(why),
    };
    let index = match crate::index_file::IndexFile::open(path) {
        Ok(i) => i,
        Err(why) => return crate::exit::fail(why),
    };
    let mut error = None;
    let tree = explorer.tree_from_index(Some(&opts), &index.header.variants, |wanted| match index
        .rows(wanted)
    {
        Ok(rows) => rows,
        Err(e) => {
            error.get_or_insert(e);
            Vec::new()
        }
    });
    if let Some(e) = error {
        return crate::exit::fail(e);
    }
    answer(&tree, a.format)
}

/// Prints the tree in `format`.
fn answer(tree: &[(Position, Group, Vec<Group>)], format: Format) -> u8 {
    if tree.is_empty() {
        eprintln!("pdnkit: no game of a variant the position belongs to was selected");
    }
    let text = match format {
        Format::Human => human(tree),
        Format::Json => json(tree),
        Format::Csv => match csv_text(tree) {
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

/// The position drawn as text, rows from the top (where White crowns):
/// White's men `w` and kings `W`, Black's `b` and `B`, empty dark squares
/// `.`; Italian's board mirrored as it is played.
fn board_text(pos: &Position) -> String {
    let size = pos.variant().board();
    let n = size.n();
    let mirrored = matches!(
        pos.variant().rules().orientation,
        pdnkit::board::Orientation::Mirrored
    );
    let mut t = String::new();
    for row in 0..n {
        t.push_str("      ");
        for file in 0..n {
            let at = if mirrored { n - 1 - file } else { file };
            let c = match size.at(row, at).map(|sq| pos.piece_at(sq)) {
                None => ' ',
                Some(None) => '.',
                Some(Some(p)) => match (p.color, p.kind) {
                    (Color::White, pdnkit::Kind::Man) => 'w',
                    (Color::White, pdnkit::Kind::King) => 'W',
                    (Color::Black, pdnkit::Kind::Man) => 'b',
                    (Color::Black, pdnkit::Kind::King) => 'B',
                },
            };
            t.push(c);
            t.push(' ');
        }
        t.truncate(t.trim_end().len());
        t.push('\n');
    }
    t
}

fn human(tree: &[(Position, Group, Vec<Group>)]) -> String {
    let mut t = String::new();
    // The roots come first in the tree, one per variant, and only they are
    // drawn.
    let mut drawn: Vec<Variant> = Vec::new();
    for (pos, totals, moves) in tree {
        let v = pos.variant().name();
        let at = if totals.name.is_empty() {
            String::new()
        } else {
            format!(" after {}", totals.name)
        };
        t.push_str(&format!("== {v}{at}: {}\n", pos.to_fen()));
        if !drawn.contains(&pos.variant()) {
            drawn.push(pos.variant());
            t.push_str(&board_text(pos));
        }
        if let Some(row) = &totals.row {
            let name = totals
                .opening_name
                .as_deref()
                .map_or(String::new(), |n| format!(" ({n})"));
            t.push_str(&format!("   {row}{name}\n"));
        }
        t.push_str(&format!(
            "   {} games: White won {}, drawn {}, Black won {}, unfinished {}\n",
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

fn json(tree: &[(Position, Group, Vec<Group>)]) -> String {
    Explorer::records_of(tree)
        .iter()
        .map(crate::render::json_line)
        .collect()
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
