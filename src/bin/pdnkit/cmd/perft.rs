//! `pdnkit perft --variant V [--fen F] [--divide] DEPTH`

use pdnkit::position::Position;

use std::fmt::Write;

#[derive(clap::Args)]
pub struct Args {
    /// The variant whose rules generate the moves.
    #[arg(long, value_parser = crate::common::variant_name())]
    variant: pdnkit::Variant,
    /// Start from this FEN instead of the start position.
    #[arg(long)]
    fen: Option<String>,
    /// Print the count under each first move.
    #[arg(long)]
    divide: bool,
    /// Depth in plies.
    depth: u32,
}

pub fn run(a: Args) -> u8 {
    let v = a.variant;
    let pos = match &a.fen {
        None => v.start(),
        Some(f) => match Position::from_fen(f, v) {
            Ok(p) => p,
            Err(e) => return crate::exit::fail(format_args!("bad FEN '{f}': {e}")),
        },
    };
    let mut out = String::new();
    let total = if a.divide {
        let mut rows = pos.perft_divide(a.depth);
        rows.sort_by_key(|(m, _)| (m.from(), m.to(), m.captured()));
        let mut total = 0;
        for (m, n) in rows {
            let sep = if m.is_capture() { 'x' } else { '-' };
            let mut caps = String::new();
            for c in m.captured().squares() {
                caps.push_str(&format!(" x{}", c.number()));
            }
            let _ = writeln!(
                out,
                "{}{sep}{}{caps}: {n}",
                m.from().number(),
                m.to().number()
            );
            total += n;
        }
        total
    } else {
        pos.perft(a.depth)
    };
    let _ = writeln!(out, "{total}");
    crate::output::print_answer(&out)
}
