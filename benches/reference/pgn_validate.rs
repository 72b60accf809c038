//! Reference for `benches/reference.sh`: the chess counterpart of `pdnkit check`,
//! built in a temporary project against pgn-reader and shakmaty (crates.io).
//!
//! - `pgn_validate gen MB MAX_PLIES OUT`: writes at least MB megabytes of random
//!   legal chess games (uniformly 1..=MAX_PLIES plies, fewer if the game ends) with
//!   eleven tags in the style of the lichess database, from a fixed seed.
//! - `pgn_validate FILE`: reads every game with `pgn_reader::Reader` and replays
//!   every SAN move with shakmaty (the FEN tag honoured), as pgn-reader's own
//!   `validate` example does; prints `games plies bad`.
//!
//! Not part of the pdnkit package (this directory has no `main.rs`, so cargo does
//! not take it for one of pdnkit's benches).
use std::{
    env,
    fs::File,
    io::{self, BufWriter, Write},
    ops::ControlFlow,
};

use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::{fen::Fen, CastlingMode, Chess, Position};

struct Replay {
    games: u64,
    plies: u64,
    bad: u64,
}

impl Visitor for Replay {
    type Tags = Option<Chess>;
    type Movetext = Chess;
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), Option<Chess>> {
        self.games += 1;
        ControlFlow::Continue(None)
    }

    fn tag(&mut self, start: &mut Option<Chess>, name: &[u8], value: RawTag<'_>) -> ControlFlow<()> {
        if name != b"FEN" {
            return ControlFlow::Continue(());
        }
        let pos = Fen::from_ascii(value.as_bytes())
            .ok()
            .and_then(|f| f.into_position(CastlingMode::Chess960).ok());
        match pos {
            Some(p) => {
                *start = Some(p);
                ControlFlow::Continue(())
            }
            None => {
                self.bad += 1;
                ControlFlow::Break(())
            }
        }
    }

    fn begin_movetext(&mut self, start: Option<Chess>) -> ControlFlow<(), Chess> {
        ControlFlow::Continue(start.unwrap_or_default())
    }

    fn san(&mut self, pos: &mut Chess, san: SanPlus) -> ControlFlow<()> {
        let Ok(m) = san.san.to_move(pos) else {
            self.bad += 1;
            return ControlFlow::Break(());
        };
        pos.play_unchecked(m);
        self.plies += 1;
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _: Chess) {}
}

/// xorshift64: a fixed, dependency-free sequence.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn generate(mb: usize, max_plies: usize, path: &str) -> io::Result<()> {
    let mut out = BufWriter::new(File::create(path)?);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut bytes, mut games) = (0usize, 0u64);
    while bytes < mb << 20 {
        games += 1;
        let mut pos = Chess::default();
        let mut moves = String::new();
        let mut result = "*";
        for ply in 0..=rng.below(max_plies) {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                result = match (pos.is_checkmate(), ply % 2) {
                    (true, 0) => "0-1",
                    (true, _) => "1-0",
                    (false, _) => "1/2-1/2",
                };
                break;
            }
            let m = legal[rng.below(legal.len())].clone();
            if ply % 2 == 0 {
                moves += &format!("{}. ", ply / 2 + 1);
            }
            moves += &format!("{} ", SanPlus::from_move_and_play_unchecked(&mut pos, m));
        }
        let game = format!(
            "[Event \"Rated Blitz game\"]\n[Site \"https://example.org/{games}\"]\n\
             [Date \"2018.10.01\"]\n[Round \"-\"]\n[White \"player{}\"]\n[Black \"player{}\"]\n\
             [Result \"{result}\"]\n[WhiteElo \"{}\"]\n[BlackElo \"{}\"]\n[ECO \"A00\"]\n\
             [TimeControl \"300+0\"]\n\n{moves}{result}\n\n",
            rng.below(10_000),
            rng.below(10_000),
            1000 + rng.below(1500),
            1000 + rng.below(1500),
        );
        bytes += game.len();
        out.write_all(game.as_bytes())?;
    }
    out.flush()?;
    println!("{games}");
    Ok(())
}

fn main() -> io::Result<()> {
    let args: Vec<String> = env::args().skip(1).collect();
    match args.as_slice() {
        [gen, mb, plies, out] if gen == "gen" => {
            let num = |s: &str| s.parse::<usize>().map_err(|e| io::Error::other(e.to_string()));
            generate(num(mb)?, num(plies)?.max(1), out)
        }
        [file] => {
            let mut v = Replay { games: 0, plies: 0, bad: 0 };
            let mut reader = Reader::new(File::open(file)?);
            while reader.read_game(&mut v)?.is_some() {}
            println!("{} {} {}", v.games, v.plies, v.bad);
            Ok(())
        }
        _ => Err(io::Error::other("usage: pgn_validate gen MB MAX_PLIES OUT | pgn_validate FILE")),
    }
}
