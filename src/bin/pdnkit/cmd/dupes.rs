//! `pdnkit dupes PATH...`: games stored more than once, and games whose moves are
//! a prefix of another game's. Linear in the number of plies: every game's moves
//! are hashed ply by ply (with the start position), identical games share their
//! final hash, and a game is a prefix of another when its final hash is one of
//! the other's intermediate hashes.

use crate::common::InputArgs;
use pdnkit::batch::Sink;
use pdnkit::dupes::{Entry, Finder, Fingerprint};
use pdnkit::pdn::Game;
use pdnkit::replay::GameReport;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    select: crate::common::SelectArgs,
    #[command(flatten)]
    tag_select: crate::common::TagSelectArgs,
    /// human (a paragraph per group) or json (JSON Lines).
    #[arg(long, value_enum, default_value = "human")]
    format: crate::common::HumanOrJson,
    /// Same as --format json (kept for old scripts).
    #[arg(long, hide = true)]
    json: bool,
    /// Shortest game reported as a prefix of another (shorter games are prefixes of too many).
    #[arg(long, default_value_t = 10)]
    min_plies: u32,
}

struct DupesSink {
    games: Vec<Entry>,
    finder: Finder,
    min_plies: u32,
    failed: bool,
}

impl Sink for DupesSink {
    fn game(&mut self, file: &str, g: &Game, r: &GameReport) -> bool {
        self.finder.add(Fingerprint::of(r, self.min_plies));
        self.games.push(Entry::new(file, g, r));
        true
    }
    fn file_error(&mut self, file: &str, msg: &str) {
        self.failed = true;
        eprintln!("pdnkit: {}: {msg}", crate::render::name(file));
    }
    fn file_done(&mut self, _file: &str, _findings: &[pdnkit::diag::FileDiagnostic]) {}
}

pub fn run(a: Args) -> u8 {
    let selection = match a.select.selection(&a.tag_select.tag) {
        Ok(s) => s,
        Err(why) => return crate::exit::fail(why),
    };
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
    let (_, failed) = prepared.run_selected(!a.input.no_progress, &selection, &mut sink);
    sink.failed |= failed;
    let games = &sink.games;
    let found = sink.finder.find();
    let mut out = String::new();
    if a.json || a.format == crate::common::HumanOrJson::Json {
        for record in found.records(games) {
            out.push_str(&crate::render::json_line(&record));
        }
    } else {
        for (n, grp) in found.groups.iter().enumerate() {
            let members: Vec<&Entry> = grp.iter().map(|&i| &games[i]).collect();
            out.push_str(&format!(
                "duplicate group {} ({} games, {} plies):\n",
                n + 1,
                grp.len(),
                members.first().map_or(0, |g| g.plies)
            ));
            for g in &members {
                out.push_str(&format!(
                    "  {}: {}\n",
                    crate::render::name(&g.name()),
                    crate::render::name(&g.who())
                ));
            }
            let diff = Entry::differing_tags(&members);
            if !diff.is_empty() {
                out.push_str(&format!(
                    "  tags that differ: {}\n",
                    crate::render::name(&diff.join(", "))
                ));
            }
        }
        for &(i, j) in &found.prefixes {
            out.push_str(&format!(
                "prefix: {} ({} plies) is the start of {} ({} plies)\n",
                crate::render::name(&games[i].name()),
                games[i].plies,
                crate::render::name(&games[j].name()),
                games[j].plies
            ));
        }
        let contained = found.contained_files(games);
        for (file, n, within) in &contained {
            out.push_str(&format!(
                "contained: all {n} {} of {} {} in {}\n",
                if *n == 1 { "game" } else { "games" },
                crate::render::name(file),
                if *n == 1 { "is" } else { "are" },
                crate::render::name(within)
            ));
        }
        out.push_str(&format!(
            "{} games: {} duplicate groups, {} prefixes, {} files contained in another\n",
            games.len(),
            found.groups.len(),
            found.prefixes.len(),
            contained.len()
        ));
    }
    let status = if sink.failed { crate::exit::FAILED } else { 0 };
    match crate::output::print(&out) {
        Ok(()) => status,
        Err(stop) => stop.report(status),
    }
}
