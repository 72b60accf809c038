//! Replay a game ply by ply (position, move, findings per ply), then list the
//! legal moves of the last position and play them: `play` checks a move and
//! says why it refuses one, `play_unchecked` trusts it. The library alone:
//!
//! ```sh
//! cargo run --example replay_and_play --no-default-features -- corpus/russian/clean.pdn 1
//! ```
use pdnkit::pdn::Reader;
use pdnkit::position::Position;
use pdnkit::replay::{Options, Replay};
use pdnkit::rules::Move;
use std::fs::File;
use std::io::BufReader;

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(path), index) = (args.first(), args.get(1).and_then(|n| n.parse().ok())) else {
        eprintln!("usage: replay_and_play FILE.pdn [GAME]");
        std::process::exit(2);
    };
    let index: usize = index.unwrap_or(1);
    let Some(game) = Reader::new(BufReader::new(File::open(path)?))
        .nth(index.saturating_sub(1))
        .transpose()?
    else {
        eprintln!("{path} has fewer than {index} games");
        std::process::exit(2);
    };
    let mut last: Option<Position> = None;
    for ply in Replay::new(&game, &Options::default()) {
        let dots = if ply.number.1 { "..." } else { "." };
        println!(
            "{}{dots} {}  ->  {}",
            ply.number.0,
            ply.mv,
            ply.after.to_fen()
        );
        for f in &ply.findings {
            println!("    {}: {}", f.code, f.message);
        }
        last = Some(ply.after);
    }
    let Some(pos) = last else {
        println!("no move could be replayed");
        return Ok(());
    };
    let moves = pos.legal_moves();
    println!("{} legal moves in {}", moves.len(), pos.to_fen());
    for m in &moves {
        // Checked: the move is legal here, so play accepts it.
        let after = pos.play(m).expect("a legal move");
        assert_eq!(after, pos.play_unchecked(m));
        println!("  {m}  ->  {}", after.to_fen());
    }
    // A move the position does not allow is refused, with the reason.
    if let Some(m) = moves.first() {
        let made_up = Move::new(m.to(), m.from(), m.captured(), m.kind(), m.crowns());
        if let Err(e) = pos.play(&made_up) {
            println!("refused: {e}");
        }
    }
    Ok(())
}
