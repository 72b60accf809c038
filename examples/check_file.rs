//! Read, replay and judge the games of a PDN file with the library alone
//! (no command-line dependencies):
//!
//! ```sh
//! cargo run --example check_file --no-default-features -- corpus/russian/faults.pdn
//! ```
use pdnkit::diag::Severity;
use pdnkit::infer::Evidence;
use pdnkit::pdn::{Locator, Reader};
use pdnkit::replay::{check_game_in, Options};
use std::fs::File;
use std::io::BufReader;

fn main() -> std::io::Result<()> {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: check_file FILE.pdn");
        std::process::exit(2);
    };
    // Read every game (the reader is an iterator of games).
    let games: Vec<_> =
        Reader::new(BufReader::new(File::open(&path)?)).collect::<Result<_, _>>()?;
    // One decision for the games without GameType, from the whole file.
    let inference = Evidence::of(&games).decide();
    let opts = Options::default();
    let mut invalid = 0;
    for g in &games {
        let report = check_game_in(g, &opts, &inference);
        let kind = report.kind.map_or("?", |k| k.name());
        match report.verdict() {
            Some(true) => println!(
                "game {} ({kind}): valid, {}",
                g.index(),
                report.computed.normalised()
            ),
            Some(false) => {
                invalid += 1;
                let mut loc = Locator::new(g);
                for d in report
                    .diagnostics
                    .iter()
                    .filter(|d| d.severity == Severity::Error)
                {
                    let (line, col) = loc.locate(d.span.start);
                    println!(
                        "game {} ({kind}) {path}:{line}:{col}: {}: {}",
                        g.index(),
                        d.code,
                        d.message
                    );
                }
            }
            None => println!("game {} ({kind}): not checked", g.index()),
        }
    }
    println!("{} games, {invalid} with errors", games.len());
    Ok(())
}
