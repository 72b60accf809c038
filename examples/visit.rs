//! Count games, results and main-line moves per event, through the reader's
//! visitor: variations are skipped as they open, and with `--event NAME`
//! every other event's games are skipped after their tags (nothing is built
//! for them). The library alone:
//!
//! ```sh
//! cargo run --example visit --no-default-features -- corpus/brazilian/clean.pdn
//! cargo run --example visit --no-default-features -- --event "Clean random game 1" corpus/brazilian/clean.pdn
//! ```
use pdnkit::pdn::visit::{MoveView, Skip, Visitor};
use pdnkit::pdn::{Outcome, Reader, TagValue};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::BufReader;

/// Per event: games, (white wins, black wins, draws, other), main-line moves.
#[derive(Default)]
struct PerEvent {
    only: Option<String>,
    event: String,
    moves: usize,
    table: BTreeMap<String, (usize, [usize; 4], usize)>,
}

impl Visitor for PerEvent {
    type Output = ();
    fn begin_game(&mut self) {
        self.event = "?".to_string();
        self.moves = 0;
    }
    fn tag(&mut self, name: &str, value: TagValue<'_>) {
        if name == "Event" {
            self.event = value.text().into_owned();
        }
    }
    fn end_tags(&mut self) -> Skip {
        Skip(self.only.as_ref().is_some_and(|e| *e != self.event))
    }
    fn begin_variation(&mut self) -> Skip {
        Skip(true)
    }
    fn written_move(&mut self, _m: MoveView<'_>) {
        self.moves += 1;
    }
    fn outcome(&mut self, outcome: Option<Outcome>) {
        if self.only.as_ref().is_some_and(|e| *e != self.event) {
            return;
        }
        let row = self.table.entry(self.event.clone()).or_default();
        row.0 += 1;
        let i = match outcome {
            Some(Outcome::WhiteWins) => 0,
            Some(Outcome::BlackWins) => 1,
            Some(Outcome::Draw) => 2,
            _ => 3,
        };
        row.1[i] += 1;
        row.2 += self.moves;
    }
    fn end_game(&mut self) {}
}

fn main() -> std::io::Result<()> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut v = PerEvent::default();
    if args.first().is_some_and(|a| a == "--event") && args.len() >= 2 {
        v.only = Some(args[1].clone());
        args.drain(..2);
    }
    if args.is_empty() {
        eprintln!("usage: visit [--event NAME] FILE.pdn...");
        std::process::exit(2);
    }
    for path in &args {
        let mut reader = Reader::new(BufReader::new(File::open(path)?));
        while reader.read_game(&mut v)?.is_some() {}
    }
    println!("games  2-0  0-2  1-1  other  moves  event");
    for (event, (games, r, moves)) in &v.table {
        println!(
            "{games:>5} {:>4} {:>4} {:>4} {:>6} {moves:>6}  {event}",
            r[0], r[1], r[2], r[3]
        );
    }
    Ok(())
}
