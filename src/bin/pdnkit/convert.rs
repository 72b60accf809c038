//! `pdnkit convert PATH... --to csv|jsonl|pdn [-o FILE]`

use crate::common::InputArgs;
use crate::games::{self, Sink};
use crate::input::Input;
use crate::output::{same_file, AtomicFile, Out, Stop};
use pdnkit::export::{
    game_row, normalised_pdn, ply_columns, ply_rows, rewritable, Normalise, NotRewritable,
    GAME_COLUMNS,
};
use pdnkit::pdn::write::ResultStyle;
use pdnkit::pdn::Game;
use pdnkit::replay::Report;
use serde_json::{Map, Value};
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum To {
    Csv,
    Jsonl,
    Pdn,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Results {
    #[value(name = "2-0")]
    Draughts,
    #[value(name = "1-0")]
    Classic,
}

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    /// Output format.
    #[arg(long, value_enum)]
    to: To,
    /// Write to FILE (atomically) instead of standard output.
    #[arg(short = 'o', long)]
    output: Option<PathBuf>,
    /// One row per ply instead of one per game (csv, jsonl).
    #[arg(long)]
    moves: bool,
    /// With --moves: add the FEN after each move.
    #[arg(long)]
    fen: bool,
    /// Add a tag as a column (repeatable).
    #[arg(long = "tag", value_name = "NAME")]
    tags: Vec<String>,
    /// Result family for --to pdn (default 2-0; English games are always
    /// written in the checkers order).
    #[arg(long, value_enum)]
    results: Option<Results>,
    /// --to pdn: write the computed result where the record's is wrong or missing (listed on stderr).
    #[arg(long)]
    fix_results: bool,
    /// --to pdn: rewrite each input file in place, keeping the original as NAME.bak.
    #[arg(long)]
    in_place: bool,
    /// Exit with status 1 when a game has an error finding (by default convert
    /// exits 0 whenever the conversion was done).
    #[arg(long)]
    strict: bool,
}

#[allow(clippy::large_enum_variant)] // one value for the whole run
enum Dest {
    Csv(csv::Writer<Out>),
    Lines(Out),
    /// --in-place: one file per input, opened at its first game.
    InPlace(Option<(String, AtomicFile)>),
}

struct ConvertSink {
    a: Args,
    dest: Dest,
    /// What the output is called in messages, and whether it is standard output.
    out_name: String,
    out_is_stdout: bool,
    /// Why writing stopped (a closed pipe, or a write error).
    stop: Option<Stop>,
    errors: u64,
    failed: bool,
    /// --in-place: the current file cannot be rewritten safely (reader errors, not PDN).
    keep_original: Option<String>,
}

/// The I/O error inside a csv error, if any.
fn csv_io(e: csv::Error) -> std::io::Error {
    match e.into_kind() {
        csv::ErrorKind::Io(e) => e,
        other => std::io::Error::other(format!("{other:?}")),
    }
}

impl ConvertSink {
    fn emit(&mut self, text: &str) -> bool {
        if self.stop.is_some() {
            return false;
        }
        let r = match &mut self.dest {
            Dest::Lines(w) => w.write_all(text.as_bytes()),
            Dest::InPlace(Some((name, f))) => f
                .write_all(text.as_bytes())
                .map_err(|e| std::io::Error::new(e.kind(), format!("{name}: {e}"))),
            _ => Ok(()),
        };
        if let Err(e) = r {
            self.stop = Some(Stop::of(&e, &self.out_name, self.out_is_stdout));
        }
        self.stop.is_none()
    }

    /// Writes one CSV row: a record, then the `--tag` values.
    fn row<T: serde::Serialize>(&mut self, record: T, tags: &[String]) -> bool {
        if self.stop.is_some() {
            return false;
        }
        if let Dest::Csv(w) = &mut self.dest {
            if let Err(e) = w.serialize((record, tags)) {
                let e = csv_io(e);
                self.stop = Some(Stop::of(&e, &self.out_name, self.out_is_stdout));
            }
        }
        self.stop.is_none()
    }

    /// The CSV header: the fixed columns, then the `--tag` columns.
    fn header(&mut self) -> bool {
        let mut h: Vec<&str> = if self.a.moves {
            ply_columns(self.a.fen)
        } else {
            GAME_COLUMNS.to_vec()
        };
        h.extend(self.a.tags.iter().map(String::as_str));
        let h: Vec<String> = h.into_iter().map(String::from).collect();
        self.row(h, &[])
    }

    fn pdn(&mut self, file: &str, g: &Game, r: &Report) -> String {
        let results = match self.a.results.unwrap_or(Results::Draughts) {
            Results::Draughts => ResultStyle::Draughts,
            Results::Classic => ResultStyle::Classic,
        };
        let n = normalised_pdn(
            g,
            r,
            Normalise {
                results,
                fix_results: self.a.fix_results,
            },
        );
        if let Some(note) = n.fix_note() {
            eprintln!("{file}: game {}: {note}", g.index());
        }
        n.text
    }
}

impl ConvertSink {
    /// The `--tag` values of a game (empty where it has no such tag).
    fn tag_values(&self, g: &Game) -> Vec<String> {
        self.a
            .tags
            .iter()
            .map(|t| g.tag(t).unwrap_or_default())
            .collect()
    }
}

impl Sink for ConvertSink {
    fn game(&mut self, file: &str, g: &Game, r: &Report) -> bool {
        self.errors += r
            .diagnostics
            .iter()
            .filter(|d| d.severity == pdnkit::diag::Severity::Error)
            .count() as u64;
        if let Dest::InPlace(cur) = &mut self.dest {
            if self.keep_original.as_deref() == Some(file) {
                return true;
            }
            // A file with reader errors (text skipped after a syntax error, an
            // unterminated comment) or with no tag pair at all (not PDN) would
            // lose what could not be read: it is left as it is.
            if let Err(why) = rewritable(g) {
                let hint = match why {
                    NotRewritable::ReaderErrors(_) => " (see pdnkit check)",
                    _ => "",
                };
                eprintln!(
                    "pdnkit: {file}: not rewritten: game {} {why}{hint}; the file is left as it was",
                    g.index()
                );
                self.failed = true;
                self.keep_original = Some(file.to_string());
                *cur = None; // drops (removes) any temporary file begun for it
                return true;
            }
            if cur.as_ref().is_none_or(|(f, _)| f != file) {
                match AtomicFile::create(std::path::Path::new(file)) {
                    Ok(f) => *cur = Some((file.to_string(), f)),
                    Err(e) => {
                        eprintln!("pdnkit: {file}: {e}");
                        self.failed = true;
                        self.keep_original = Some(file.to_string());
                        return true;
                    }
                }
            }
        }
        match (self.a.to, self.a.moves) {
            (To::Pdn, _) => {
                let text = self.pdn(file, g, r);
                self.emit(&text)
            }
            (To::Csv, false) => {
                let tags = self.tag_values(g);
                self.row(game_row(file, g, r), &tags)
            }
            (To::Csv, true) => {
                let tags = self.tag_values(g);
                ply_rows(file, g, r, self.a.fen)
                    .into_iter()
                    .all(|row| self.row(row, &tags))
            }
            (To::Jsonl, moves) => {
                // Keys in alphabetical order (a map), the `--tag` values among them.
                let tags: Map<String, Value> = self
                    .a
                    .tags
                    .iter()
                    .map(|t| (t.clone(), g.tag(t).map_or(Value::Null, Value::String)))
                    .collect();
                let line = |record: Result<Value, serde_json::Error>| {
                    let mut v = record.unwrap_or(Value::Null);
                    if let Some(o) = v.as_object_mut() {
                        o.extend(tags.clone());
                    }
                    v.to_string() + "\n"
                };
                let text: String = if moves {
                    ply_rows(file, g, r, self.a.fen)
                        .iter()
                        .map(|row| line(serde_json::to_value(row)))
                        .collect()
                } else {
                    line(serde_json::to_value(game_row(file, g, r)))
                };
                self.emit(&text)
            }
        }
    }
    fn file_error(&mut self, file: &str, msg: &str) {
        self.failed = true;
        eprintln!("pdnkit: {file}: {msg}");
    }
    fn file_done(&mut self, file: &str, _findings: &[pdnkit::diag::FileDiagnostic]) {
        if let Dest::InPlace(cur) = &mut self.dest {
            if let Some((name, f)) = cur.take() {
                if name == file {
                    if let Err(e) = f.commit(true) {
                        eprintln!("pdnkit: {file}: {e}");
                        self.failed = true;
                    }
                } else {
                    *cur = Some((name, f));
                }
            }
        }
    }
}

/// The combinations of options convert refuses.
fn check_args(a: &Args) -> Result<(), String> {
    if a.in_place && (a.to != To::Pdn || a.output.is_some()) {
        return Err("--in-place needs --to pdn and no -o".into());
    }
    if (a.fix_results) && a.to != To::Pdn {
        return Err("--fix-results needs --to pdn".into());
    }
    if a.fen && !a.moves {
        return Err("--fen needs --moves".into());
    }
    if a.to == To::Pdn && (a.moves || a.fen || !a.tags.is_empty()) {
        return Err(
            "--moves, --fen and --tag are for --to csv and jsonl; --to pdn writes whole games"
                .into(),
        );
    }
    if a.to != To::Pdn && a.results.is_some() {
        return Err(
            "--results is for --to pdn (CSV and JSON results are always 2-0, 0-2, 1-1)".into(),
        );
    }
    if let Some(t) = a
        .tags
        .iter()
        .find(|t| t.trim().is_empty() || t.contains(char::is_whitespace))
    {
        return Err(format!("--tag needs a tag name (got {t:?})"));
    }
    Ok(())
}

/// What --in-place refuses to rewrite.
fn check_in_place(a: &Args, inputs: &[Input]) -> Result<(), String> {
    if a.in_place && inputs.iter().any(|i| matches!(i, Input::Stdin)) {
        return Err("--in-place cannot rewrite standard input".into());
    }
    if a.in_place {
        if let Some(Input::File(p)) = inputs
            .iter()
            .find(|i| matches!(i, Input::File(p) if p.extension().is_some_and(|e| e == "bak")))
        {
            return Err(format!(
                "{}: --in-place does not rewrite backups (.bak files)",
                p.display()
            ));
        }
    }
    Ok(())
}

/// Where the output goes: the -o file (never an input), or standard output.
fn open_output(a: &Args, inputs: &[Input]) -> Result<Out, String> {
    Ok(match &a.output {
        Some(path) => {
            if inputs
                .iter()
                .any(|i| matches!(i, Input::File(p) if same_file(p, path)))
            {
                return Err(format!(
                    "{} is an input; refusing to overwrite it (use --in-place)",
                    path.display()
                ));
            }
            match Out::open(path) {
                Ok(o) => o,
                Err(e) => return Err(format!("{}: {e}", path.display())),
            }
        }
        None => Out::Stdout(std::io::BufWriter::new(std::io::stdout())),
    })
}

pub fn run(a: Args) -> u8 {
    if let Err(why) = check_args(&a) {
        return crate::fail(why);
    }
    let prepared = match a.input.prepare(true) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let out = match check_in_place(&a, &prepared.inputs)
        .and_then(|()| open_output(&a, &prepared.inputs))
    {
        Ok(out) => out,
        Err(why) => return crate::fail(why),
    };
    let (out_name, out_is_stdout) = (out.name(), out.is_stdout());
    let dest = match (a.in_place, a.to) {
        (true, _) => Dest::InPlace(None),
        (false, To::Csv) => Dest::Csv(
            // The header is written by hand: it comes even when no game follows.
            csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(out),
        ),
        (false, _) => Dest::Lines(out),
    };
    let mut sink = ConvertSink {
        a,
        dest,
        out_name,
        out_is_stdout,
        stop: None,
        errors: 0,
        failed: false,
        keep_original: None,
    };
    // The CSV header comes first, even when no game follows.
    if matches!(sink.dest, Dest::Csv(_)) {
        sink.header();
    }
    let info = if sink.stop.is_none() {
        let (info, failed) = prepared.run(!sink.a.input.no_progress, &mut sink);
        sink.failed |= failed;
        info
    } else {
        games::RunInfo::default()
    };
    sink.finish(info.completed)
}

impl ConvertSink {
    /// Commits or drops the output and gives the exit status: an -o file is
    /// committed only after a complete run.
    fn finish(mut self, completed: bool) -> u8 {
        // An -o file is committed only after a complete run.
        let out = match std::mem::replace(&mut self.dest, Dest::InPlace(None)) {
            Dest::Csv(w) => match w.into_inner() {
                Ok(o) => Some(o),
                Err(e) => {
                    let e = e.into_error();
                    self.stop
                        .get_or_insert(Stop::of(&e, &self.out_name, self.out_is_stdout));
                    None
                }
            },
            Dest::Lines(o) => Some(o),
            Dest::InPlace(_) => None,
        };
        if let Some(o) = out {
            let complete = completed && !self.failed && self.stop.is_none();
            if let Err(e) = o.finish(complete) {
                self.stop
                    .get_or_insert(Stop::of(&e, &self.out_name, self.out_is_stdout));
            }
        }
        let so_far = if self.failed {
            crate::EXIT_FAILED
        } else if self.errors > 0 && self.a.strict {
            1
        } else {
            0
        };
        if let Some(stop) = &self.stop {
            let code = stop.report(so_far);
            if self.a.output.is_some() && matches!(stop, Stop::Failed(_)) {
                eprintln!("pdnkit: the output file was not written");
            }
            return code;
        }
        if self.failed && self.a.output.is_some() {
            eprintln!("pdnkit: the run did not complete; the output file was not written");
        }
        so_far
    }
}
