//! The `pdnkit` command: argument parsing, one module per subcommand, exit codes.
//!
//! Exit status: 0 clean, 1 findings, 2 the run itself failed.

mod check;
mod common;
mod convert;
mod dupes;
mod games;
mod input;
mod output;
mod perft;
mod render;
mod stats;
mod style;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "pdnkit",
    version,
    about = "Check, replay and convert draughts game records (PDN)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Replay every game, report every fault, compare the true result with the record.
    Check(check::Args),
    /// Convert games to CSV, JSON Lines or normalised PDN.
    Convert(convert::Args),
    /// Statistics of an archive: results, lengths, captures, openings, findings.
    Stats(stats::Args),
    /// Games stored twice, and games that are the start of another.
    Dupes(dupes::Args),
    /// Count the leaves of the legal move tree (move generator test).
    Perft(perft::Args),
}

/// Exit status 2: the run itself failed.
pub const EXIT_FAILED: u8 = 2;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_FAILED } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    output::install_signal_cleanup();
    let code = match cli.command {
        Command::Check(a) => check::run(a),
        Command::Convert(a) => convert::run(a),
        Command::Dupes(a) => dupes::run(a),
        Command::Perft(a) => perft::run(a),
        Command::Stats(a) => stats::run(a),
    };
    ExitCode::from(code)
}
