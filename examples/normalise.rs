//! Write a file's games back as normalised PDN, with the computed result
//! where the record's is wrong or missing (what `pdnkit convert --to pdn
//! --fix-results` does), from the library alone:
//!
//! ```sh
//! cargo run --example normalise --no-default-features -- corpus/brazilian/faults.pdn
//! ```
use pdnkit::check::check_file;
use pdnkit::export::Normalise;
use pdnkit::replay::Options;
use std::fs::File;
use std::io::{BufReader, Write};

fn main() -> std::io::Result<()> {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: normalise FILE.pdn");
        std::process::exit(2);
    };
    // Normalised moves need the replayed moves kept.
    let opts = Options::default().keep_moves(true);
    // The whole file checked as `pdnkit check` checks it.
    let checked = check_file(BufReader::new(File::open(&path)?), &opts);
    if let Some(e) = checked.error {
        return Err(e);
    }
    let games = checked.games;
    let mut out = std::io::stdout().lock();
    for c in &games {
        let (g, report) = (&c.game, &c.report);
        let n = Normalise {
            fix_results: true,
            ..Normalise::default()
        }
        .apply(g, report);
        if let Some(note) = n.fix_note() {
            eprintln!("game {}: {note}", g.index());
        }
        out.write_all(n.text.as_bytes())?;
    }
    Ok(())
}
