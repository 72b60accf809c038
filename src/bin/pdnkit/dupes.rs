//! `pdnkit dupes PATH...`: games stored more than once, and games whose moves are
//! a prefix of another game's. Linear in the number of plies: every game's moves
//! are hashed ply by ply (with the start position), identical games share their
//! final hash, and a game is a prefix of another when its final hash is one of
//! the other's intermediate hashes.

use crate::common::InputArgs;
use crate::games::Sink;
use pdnkit::dupes::{Finder, Fingerprint, Found};
use pdnkit::pdn::Game;
use pdnkit::replay::Report;
use serde_json::json;
use std::collections::BTreeSet;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    /// human (a paragraph per group) or json (JSON Lines).
    #[arg(long, value_enum, default_value = "human")]
    format: crate::check::Format,
    /// Same as --format json (kept for old scripts).
    #[arg(long, hide = true)]
    json: bool,
    /// Shortest game reported as a prefix of another (shorter games are prefixes of too many).
    #[arg(long, default_value_t = 10)]
    min_plies: u32,
}

struct Entry {
    file: String,
    game: usize,
    line: u32,
    plies: u32,
    tags: Vec<(String, String)>,
}

struct DupesSink {
    games: Vec<Entry>,
    finder: Finder,
    min_plies: u32,
    failed: bool,
}

impl Sink for DupesSink {
    fn game(&mut self, file: &str, g: &Game, r: &Report) -> bool {
        self.finder.add(Fingerprint::of(r, self.min_plies));
        self.games.push(Entry {
            file: file.to_string(),
            game: g.index,
            line: pdnkit::export::game_line(g),
            plies: r.played.len() as u32,
            tags: g
                .tags
                .iter()
                .map(|t| (g.tag_name(t).to_string(), g.tag_value(t)))
                .collect(),
        });
        true
    }
    fn file_error(&mut self, file: &str, msg: &str) {
        self.failed = true;
        eprintln!("pdnkit: {file}: {msg}");
    }
    fn file_done(&mut self, _file: &str, _findings: &[pdnkit::diag::FileDiagnostic]) {}
}

/// Names of tags whose values differ between the games (or that some lack).
fn differing_tags(games: &[&Entry]) -> Vec<String> {
    let names: BTreeSet<&String> = games
        .iter()
        .flat_map(|g| g.tags.iter().map(|t| &t.0))
        .collect();
    names
        .into_iter()
        .filter(|n| {
            let vals: BTreeSet<Option<&String>> = games
                .iter()
                .map(|g| g.tags.iter().find(|t| &t.0 == *n).map(|t| &t.1))
                .collect();
            vals.len() > 1
        })
        .cloned()
        .collect()
}

pub fn run(a: Args) -> u8 {
    let prepared = match a.input.prepare(true) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let mut sink = DupesSink {
        games: Vec::new(),
        finder: Finder::new(a.min_plies),
        min_plies: a.min_plies.max(1),
        failed: false,
    };
    let (_, failed) = prepared.run(!a.input.no_progress, &mut sink);
    sink.failed |= failed;
    let games = &sink.games;
    let Found { groups, prefixes } = sink.finder.find();
    let name = |i: usize| {
        format!(
            "{} game {} (line {})",
            games[i].file, games[i].game, games[i].line
        )
    };
    let mut out = String::new();
    if a.json || a.format == crate::check::Format::Json {
        for grp in &groups {
            let members: Vec<&Entry> = grp.iter().map(|&i| &games[i]).collect();
            let v = json!({
                "type": "duplicates",
                "plies": members[0].plies,
                "games": members.iter().map(|g| json!({"file": g.file, "game": g.game, "line": g.line})).collect::<Vec<_>>(),
                "differing_tags": differing_tags(&members),
            });
            out.push_str(&format!("{v}\n"));
        }
        for &(i, j) in &prefixes {
            let (x, y) = (&games[i], &games[j]);
            let v = json!({
                "type": "prefix",
                "game": {"file": x.file, "game": x.game, "line": x.line, "plies": x.plies},
                "of": {"file": y.file, "game": y.game, "line": y.line, "plies": y.plies},
            });
            out.push_str(&format!("{v}\n"));
        }
        out.push_str(&format!("{}\n", json!({"type": "summary", "games": games.len(), "duplicate_groups": groups.len(), "prefixes": prefixes.len()})));
    } else {
        for (n, grp) in groups.iter().enumerate() {
            let members: Vec<&Entry> = grp.iter().map(|&i| &games[i]).collect();
            out.push_str(&format!(
                "duplicate group {} ({} games, {} plies):\n",
                n + 1,
                grp.len(),
                members[0].plies
            ));
            for &i in grp.iter() {
                out.push_str(&format!("  {}\n", name(i)));
            }
            let diff = differing_tags(&members);
            if !diff.is_empty() {
                out.push_str(&format!("  tags that differ: {}\n", diff.join(", ")));
            }
        }
        for &(i, j) in &prefixes {
            out.push_str(&format!(
                "prefix: {} ({} plies) is the start of {} ({} plies)\n",
                name(i),
                games[i].plies,
                name(j),
                games[j].plies
            ));
        }
        out.push_str(&format!(
            "{} games: {} duplicate groups, {} prefixes\n",
            games.len(),
            groups.len(),
            prefixes.len()
        ));
    }
    let status = if sink.failed { crate::EXIT_FAILED } else { 0 };
    match crate::output::print(&out) {
        Ok(()) => status,
        Err(stop) => stop.report(status),
    }
}
