//! The `pdnkit` command: argument parsing, one module per subcommand, and one
//! exit path in `main`.
//!
//! Exit statuses: one table, `exit::TABLE`, gives each subcommand's help
//! line, the man page's section and (tied by a test) the README's table.

// Layers, from the top (tests/it/layers.rs): `main`; the subcommands in
// `cmd` (none names another); `index_file`; `parquet_out`; `common`; `output` and
// `progress`; `render`; `style` and `exit`.
mod cmd;
mod common;
mod exit;
#[cfg(feature = "parquet")]
mod index_file;
mod output;
#[cfg(feature = "parquet")]
mod parquet_out;
mod progress;
mod render;
mod screen;
mod style;

#[cfg(feature = "parquet")]
use cmd::index;
use cmd::{
    check, convert, diagram, dupes, explore, man, openings, perft, report, select, stats,
    tournament,
};

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    long_about = long_about(),
    name = "pdnkit",
    version,
    about = "Check, replay and convert draughts game records (PDN)"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Replay every game, report every fault, compare the true result with the record.
    #[command(after_help = exit::after_help("check", CHECK_HELP))]
    Check(check::Args),
    /// Convert games to CSV, JSON Lines or normalised PDN.
    #[command(after_help = exit::after_help("convert", CONVERT_HELP))]
    Convert(convert::Args),
    /// Statistics of an archive: results, lengths, captures, openings, findings.
    #[command(after_help = exit::after_help("stats", STATS_HELP))]
    Stats(stats::Args),
    /// Write the games a selection keeps as PDN, byte for byte (or normalised).
    #[command(after_help = exit::after_help("select", SELECT_HELP))]
    Select(select::Args),
    /// The moves played from a position, with their results: an opening explorer.
    #[command(after_help = exit::after_help("explore", EXPLORE_HELP))]
    Explore(explore::Args),
    /// Index the positions of the first plies of each game, for `explore --index` (Parquet).
    #[cfg(feature = "parquet")]
    #[command(after_help = exit::after_help("index", INDEX_HELP))]
    Index(index::Args),
    /// Games stored twice, and games that are the start of another.
    #[command(after_help = exit::after_help("dupes", DUPES_HELP))]
    Dupes(dupes::Args),
    /// Check each event as a tournament: crosstable, missing games, double bookings, names.
    #[command(after_help = exit::after_help("tournament", TOURNAMENT_HELP))]
    Tournament(tournament::Args),
    /// Count the leaves of the legal move tree (move generator test).
    #[command(after_help = exit::after_help("perft", PERFT_HELP))]
    Perft(perft::Args),
    /// The opening and ballot tables games are classified against, or one as CSV.
    #[command(after_help = exit::after_help("openings", OPENINGS_HELP))]
    Openings(openings::Args),
    /// Write one self-contained HTML report: summary, games, every fault on a board.
    #[command(after_help = exit::after_help("report", REPORT_HELP))]
    Report(report::Args),
    /// Draw one position as an SVG picture, with a move on it.
    #[command(after_help = exit::after_help("diagram", DIAGRAM_HELP))]
    Diagram(diagram::Args),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    #[command(
        after_help = "Example:\n  pdnkit completions bash > ~/.local/share/bash-completion/completions/pdnkit"
    )]
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual (roff): every subcommand with its options, the exit
    /// status, the diagnostic codes and examples; --dir writes one page per subcommand too.
    #[command(
        after_help = "Examples:\n  pdnkit man > pdnkit.1 && man ./pdnkit.1\n  pdnkit man --dir ~/.local/share/man/man1"
    )]
    Man(man::Args),
}

const CHECK_HELP: &str = "\
Examples:
  pdnkit check archive/                      every .pdn/.pgn/.txt file under archive/
  pdnkit check -q --variant russian ussr.pdn the summary only
  pdnkit check -A result-conflict -D warnings archive/
  pdnkit check --format json games.pdn | jq 'select(.type == \"game\" and .valid == false)'
  cat games.pdn | pdnkit check               standard input (named <stdin>)";

const CONVERT_HELP: &str = "\
Examples:
  pdnkit convert --to csv archive/ > games.csv
  pdnkit convert --to csv --moves --fen games.pdn -o plies.csv
  pdnkit convert --to jsonl --tag Event --tag Round archive/
  pdnkit convert --to pdn --fix-results --in-place archive/   (originals kept as NAME.bak)";

const STATS_HELP: &str = "\
Examples:
  pdnkit stats archive/
  pdnkit stats --per-file --format csv archive/ > stats.csv";

const SELECT_HELP: &str = "\
Different options combine with AND, repeats of one option with OR: --player A
--player B --result 2-0 selects the games of A or B that White won. The same
options choose games for check, convert, stats, dupes and report.

Examples:
  pdnkit select --player sijbrands archive/ > sijbrands.pdn
  pdnkit select --invalid archive/ -o broken.pdn           only the broken games
  pdnkit select --date 1998..2001 --event 'world championship' archive/
  pdnkit select --tag Round=3 --tag 'Site~^Amster' archive/
  pdnkit select --code non-maximal-capture --code missed-capture archive/
  pdnkit select --position 'W:W31-50:B1-19,21' --variant-is international archive/
  pdnkit select --unique archive/ -o deduplicated.pdn      one copy of each game
  pdnkit select --unique=prefixes --keep most-complete archive/ -o clean.pdn

Each game is written byte for byte as it stands in its source (in the source's
encoding), one blank line between games; --normalise writes normalised PDN. How
many games were read and selected, per file, goes to standard error.";

const TOURNAMENT_HELP: &str = "\
Games are grouped into events by Event and Site (and by year); players are matched
by name (case, spaces, punctuation, and Latin letters that look like Cyrillic ones
inside a Cyrillic name, and the reverse, are ignored); rounds come from the Round
tag (N, or N.M for game M of a round-N match). Each game counts with its computed
result where the rules decided it, else the declared one.

Examples:
  pdnkit tournament archive/belarus-2016/
  pdnkit tournament --event 'championship 2016' --match-points archive/
  pdnkit tournament --alias 'Kodrachenko Evgeny=Kondrachenko Evgeny' archive/
  pdnkit tournament --scoring 1-half-0 --tiebreak sb,direct --format csv club.pdn

Findings: missing-game, double-booked, repeated-pairing (errors); name-variant,
name-similar, colour-imbalance, date-outside-event, round-unknown, forfeit
(warnings); result-mismatch (from check). -A, -W and -D apply.";

const DUPES_HELP: &str = "\
Examples:
  pdnkit dupes archive/
  pdnkit dupes --format json --min-plies 20 archive/";

const EXPLORE_HELP: &str = "\
Every game whose main line reaches the position counts there (by any order of
moves, once, without an error before it), with the move it played from it;
results are those the records declare. Every option that selects games applies.

Examples:
  pdnkit explore archive/                                  the start of each variant
  pdnkit explore --play '32-28 18-23' archive/             after these moves
  pdnkit explore --player sijbrands --depth 3 archive/     a repertoire, 3 plies deep
  pdnkit explore --position 'W:WK46:BK5,K23' --format json archive/
  pdnkit explore --index archive.index.parquet --depth 2   (pdnkit index made it)";

#[cfg(feature = "parquet")]
const INDEX_HELP: &str = "\
The index holds each position of the first --index-plies plies of every game selected,
with the moves played from it and their results (counted as explore counts them),
as Parquet (docs/explore.md): explore --index answers from it without reading the
games, and DuckDB or pyarrow read it as it is.

Examples:
  pdnkit index archive/ -o archive.index.parquet
  pdnkit explore --index archive.index.parquet --play '32-28 18-23'
  pdnkit index --player sijbrands --index-plies 30 archive/ -o sijbrands.parquet";

const REPORT_HELP: &str = "\
Examples:
  pdnkit report archive/ -o report.html        then open report.html in a browser (works offline)
  pdnkit report -A notation --variant russian ussr.pdn -o ussr.html";

const DIAGRAM_HELP: &str = "\
Examples:
  pdnkit diagram --variant international --fen 'W:W31-50:B1-20' --move 32-28 -o start.svg
  pdnkit diagram corpus/brazilian/faults.pdn --game 1 --ply 8 --move c5xe3 --flip > fault.svg";

const OPENINGS_HELP: &str = "\
Examples:
  pdnkit openings                                  # the tables: rows, variants, source
  pdnkit openings --table idf-745 > idf-745.csv    # one table as CSV (docs/openings.md)";

const PERFT_HELP: &str = "\
Examples:
  pdnkit perft --variant international 6
  pdnkit perft --variant russian --fen 'W:W21-32:B1-12' --divide 4";

/// The top-level help, naming every variant of the rules table.
fn long_about() -> String {
    let names: Vec<&str> = pdnkit::Variant::ALL.iter().map(|v| v.name()).collect();
    format!(
        "pdnkit checks archives of draughts games written in Portable Draughts Notation (PDN): it reads every game, replays every move under the rules of its variant ({}), says exactly what is wrong and where, works out the true result, and turns the records into CSV, JSON, Parquet, statistics, crosstables, reports and pictures. Every other variant is named and not checked.",
        names.join(", ")
    )
}

/// The one exit path: every command returns its status here.
fn main() -> ExitCode {
    let parsed = <Cli as clap::CommandFactory>::command()
        .try_get_matches()
        .and_then(|m| {
            if let Some((_, sub)) = m.subcommand() {
                common::record_level_order(sub);
            }
            <Cli as clap::FromArgMatches>::from_arg_matches(&m)
        });
    let cli = match parsed {
        Ok(c) => c,
        Err(e) => {
            if e.use_stderr() {
                let _ = e.print();
                return ExitCode::from(exit::failed());
            }
            // --help and --version: written to standard output, where a
            // write error (a full disk, /dev/full) fails the run.
            let text = if std::io::IsTerminal::is_terminal(&std::io::stdout()) {
                e.render().ansi().to_string()
            } else {
                e.render().to_string()
            };
            if let Err(stop) = output::print(&text) {
                stop.report();
            }
            return ExitCode::from(exit::status(0));
        }
    };
    output::install_signal_cleanup();
    let code = match cli.command {
        Command::Check(a) => check::run(a),
        Command::Convert(a) => convert::run(a),
        Command::Select(a) => select::run(a),
        Command::Dupes(a) => dupes::run(a),
        Command::Explore(a) => explore::run(a),
        #[cfg(feature = "parquet")]
        Command::Index(a) => index::run(a),
        Command::Tournament(a) => tournament::run(a),
        Command::Perft(a) => perft::run(a),
        Command::Openings(a) => openings::run(a),
        Command::Stats(a) => stats::run(a),
        Command::Diagram(a) => diagram::run(a),
        Command::Report(a) => report::run(a),
        Command::Completions { shell } => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut cmd, "pdnkit", &mut out);
            output::print_answer(&String::from_utf8_lossy(&out))
        }
        Command::Man(a) => man::run(a, <Cli as clap::CommandFactory>::command()),
    };
    ExitCode::from(exit::status(code))
}

#[cfg(test)]
mod tests {
    /// clap's own consistency checks of every command and option.
    #[test]
    fn the_command_line_is_consistent() {
        <super::Cli as clap::CommandFactory>::command().debug_assert();
    }
}
