//! `pdnkit dupes PATH...`: games stored more than once, and games whose moves are
//! a prefix of another game's. Linear in the number of plies: every game's moves
//! are hashed ply by ply (with the start position), identical games share their
//! final hash, and a game is a prefix of another when its final hash is one of
//! the other's intermediate hashes.

use crate::common::InputArgs;
use crate::output::Stop;
use pdnkit::batch::Sink;
use pdnkit::dupes::{Entry, Finder, Found};
use pdnkit::pdn::Game;
use pdnkit::replay::GameReport;
use std::io::Write;
use std::ops::ControlFlow;

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
    finder: Finder,
}

impl Sink for DupesSink {
    type Error = Stop;
    fn game(&mut self, file: &str, g: &Game, r: &GameReport) -> ControlFlow<Stop> {
        self.finder.add_game(file, g, r);
        ControlFlow::Continue(())
    }
    fn file_done(&mut self, _file: &str, _findings: &[pdnkit::diag::FileDiagnostic]) {}
}

pub fn run(a: Args) -> u8 {
    let selection = match a.select.selection(&a.tag_select.tag, &a.input) {
        Ok(s) => s,
        Err(why) => return crate::exit::fail(why),
    };
    let prepared = match a.input.prepare(true) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let mut sink = DupesSink {
        finder: Finder::new(a.min_plies),
    };
    if let Err(stop) = prepared.run_selected(!a.input.no_progress, &selection, &mut sink) {
        stop.report();
        return 0;
    }
    let found = match sink.finder.find() {
        Ok(f) => f,
        Err(e) => return crate::exit::fail(format!("the temporary file: {e}")),
    };
    // Written as found, each group's games read back from the temporary file.
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let json = a.json || a.format == crate::common::HumanOrJson::Json;
    let written = if json {
        write_json(&mut out, &found, &sink.finder)
    } else {
        write_human(&mut out, &found, &sink.finder)
    }
    .and_then(|()| out.flush().map_err(Failure::Output));
    // dupes did its job whatever the findings: its answer is 0.
    match written {
        Ok(()) => 0,
        Err(Failure::Output(e)) => {
            Stop::of(&e, "standard output", true).report();
            0
        }
        Err(Failure::Spill(e)) => crate::exit::fail(format!("the temporary file: {e}")),
    }
}

/// What stopped the output: writing it, or reading the games back.
enum Failure {
    Output(std::io::Error),
    Spill(std::io::Error),
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Failure {
        Failure::Output(e)
    }
}

fn write_json(out: &mut impl Write, found: &Found, finder: &Finder) -> Result<(), Failure> {
    for record in found.records(finder) {
        let record = record.map_err(Failure::Spill)?;
        out.write_all(crate::render::json_line(&record).as_bytes())?;
    }
    Ok(())
}

fn write_human(out: &mut impl Write, found: &Found, finder: &Finder) -> Result<(), Failure> {
    let entry = |i: usize| finder.entry(i).map_err(Failure::Spill);
    let mut other_players = 0;
    for (n, grp) in found.groups.iter().enumerate() {
        let members = grp
            .iter()
            .map(|&i| entry(i))
            .collect::<Result<Vec<Entry>, _>>()?;
        // The same moves by other players are not copies (issue 62 item 11).
        let same = Entry::same_players(&members.iter().collect::<Vec<_>>());
        other_players += usize::from(!same);
        writeln!(
            out,
            "duplicate group {} ({} games, {} plies){}:",
            n + 1,
            grp.len(),
            members.first().map_or(0, |g| g.plies),
            if same {
                ""
            } else {
                ", same moves, other players"
            }
        )?;
        for g in &members {
            writeln!(
                out,
                "  {}: {}",
                crate::render::name(&g.name()),
                crate::render::name(&g.who())
            )?;
        }
        let diff = Entry::differing_tags(&members.iter().collect::<Vec<_>>());
        if !diff.is_empty() {
            writeln!(
                out,
                "  tags that differ: {}",
                crate::render::name(&diff.join(", "))
            )?;
        }
    }
    for &(i, j) in &found.prefixes {
        let (a, b) = (entry(i)?, entry(j)?);
        writeln!(
            out,
            "prefix: {} ({} plies) is the start of {} ({} plies)",
            crate::render::name(&a.name()),
            a.plies,
            crate::render::name(&b.name()),
            b.plies
        )?;
    }
    let contained = found.contained_files(finder);
    for (file, n, within) in &contained {
        writeln!(
            out,
            "contained: all {n} {} of {} {} in {}",
            if *n == 1 { "game" } else { "games" },
            crate::render::name(file),
            if *n == 1 { "is" } else { "are" },
            crate::render::name(within)
        )?;
    }
    writeln!(
        out,
        "{} games: {} duplicate groups{}, {} prefixes, {} files contained in another",
        finder.len(),
        found.groups.len(),
        if other_players > 0 {
            format!(" ({other_players} of them the same moves by other players)")
        } else {
            String::new()
        },
        found.prefixes.len(),
        contained.len()
    )?;
    Ok(())
}
