//! Read, replay and judge the games of a PDN file with the library alone
//! (no command-line dependencies):
//!
//! ```sh
//! cargo run --example check_file --no-default-features -- corpus/russian/faults.pdn
//! ```
use pdnkit::check::{CheckedGame, FileCheck};
use pdnkit::diag::Severity;
use pdnkit::pdn::{Locator, Reader};
use pdnkit::replay::Options;
use std::fs::File;
use std::io::BufReader;

fn main() -> std::io::Result<()> {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: check_file FILE.pdn");
        std::process::exit(2);
    };
    let opts = Options::default();
    // The file's games go through one FileCheck, as `pdnkit check` reads a
    // file: games without GameType take one decision for the file, and a file
    // whose games that decision does not explain is refused.
    let mut file = FileCheck::new(&opts);
    let mut games = 0;
    let mut invalid = 0;
    for g in Reader::new(BufReader::new(File::open(&path)?)) {
        for c in file.push(g?) {
            games += 1;
            invalid += usize::from(show(&path, &c));
        }
    }
    let (rest, findings) = file.finish();
    for c in &rest {
        games += 1;
        invalid += usize::from(show(&path, c));
    }
    for d in &findings {
        println!(
            "{path}:{}:{}: {}[{}]: {}",
            d.line, d.column, d.severity, d.code, d.message
        );
    }
    println!("{games} games, {invalid} with errors");
    Ok(())
}

/// Prints a game's verdict; true when it has errors.
fn show(path: &str, CheckedGame { game: g, report }: &CheckedGame) -> bool {
    let kind = report.kind.map_or("?", |k| k.name());
    match report.verdict() {
        Some(true) => println!(
            "game {} ({kind}): valid, {}",
            g.index(),
            report.computed.normalised()
        ),
        Some(false) => {
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
            return true;
        }
        None => println!("game {} ({kind}): not checked", g.index()),
    }
    false
}
