//! `pdnkit convert PATH... --to csv|jsonl|pdn [-o FILE]`

use crate::common::{InputArgs, PartitionBy};
use crate::output::{AtomicFile, Out, Replace, Stop};
use pdnkit::batch::Sink;
use pdnkit::export::{Normalise, Patch};
use pdnkit::pdn::Game;
use pdnkit::replay::GameReport;
use std::ops::ControlFlow;
use std::path::PathBuf;

mod in_place;
mod parquet;
mod rows;
use in_place::{check_in_place, keep_rewritable, patch_file, LeftAlone};
#[cfg(feature = "parquet")]
use parquet::parquet;
use rows::{dedup_tag_columns, tag_columns};

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum To {
    Csv,
    Jsonl,
    Pdn,
    /// The games table (or with --moves the plies table) as Parquet (docs/parquet.md).
    Parquet,
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
    #[command(flatten)]
    select: crate::common::SelectArgs,
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
    /// Add a tag as a column (repeatable). Tags that are columns of the games
    /// table already (Event, Site, Date, Round, White, Black, Result, GameType)
    /// are not added again; a tag named like another column of the table
    /// (`game`, `file`, `variant`...) is the column `tag_NAME`; other tags keep
    /// their names as written. NAME=VALUE and NAME~REGEX select games
    /// instead, as in `select`.
    #[arg(long = "tag", value_name = "NAME|NAME=VALUE|NAME~REGEX")]
    tags: Vec<String>,
    /// The columns of `tags`: the tag's name, or `tag_NAME` where the table
    /// has a column of that name already (issue 54: `--tag game`).
    #[arg(skip)]
    tag_columns: Vec<String>,
    /// Result family for --to pdn (default 2-0; English games are always
    /// written in the checkers order).
    #[arg(long, value_enum)]
    results: Option<Results>,
    /// --to pdn: write the computed result where the record's is wrong or missing (listed on stderr).
    #[arg(long)]
    fix_results: bool,
    /// --to pdn: change each input file in place, keeping the original as
    /// NAME.bak. With --fix-results alone only the bytes of the Result tags
    /// and terminators it fixes change (a patch: `diff NAME.bak NAME` shows
    /// exactly the fixes); with --normalise the whole file is rewritten as
    /// normalised PDN.
    #[arg(long)]
    in_place: bool,
    /// With --in-place: rewrite the whole file as normalised PDN (what
    /// `--to pdn` writes), not only patch its results.
    #[arg(long)]
    normalise: bool,
    /// --to csv: write every cell as it is. By default a cell a spreadsheet
    /// would evaluate as a formula (starting with =, +, -, @, a tab or CR;
    /// not a plain number or `-` alone) gets a leading `'`.
    #[arg(long)]
    csv_raw: bool,
    /// Exit with status 1 when a game has an error finding (by default convert
    /// exits 0 whenever the conversion was done).
    #[arg(long)]
    strict: bool,
    /// --to parquet: write a folder of partitions (-o DIR), one per variant,
    /// year or event, hive style (DIR/variant=international/part-0.parquet).
    #[arg(long, value_enum, value_name = "KEY")]
    partition_by: Option<PartitionBy>,
    /// With --partition-by: replace the partitions an earlier run wrote in
    /// DIR (folders named KEY=VALUE), all of them. Without it such a DIR is
    /// refused, so no old partition is ever read back with this run's.
    #[arg(long)]
    force: bool,
}

#[allow(clippy::large_enum_variant)] // one value for the whole run
enum Dest {
    Csv(csv::Writer<Out>),
    Lines(Out),
    /// --in-place --normalise: one file per input, opened at its first game.
    InPlace(Option<(String, AtomicFile)>),
    /// --in-place without --normalise: the patches of the current file.
    Patch(Option<(String, Vec<Patch>)>),
    /// --to parquet.
    #[cfg(feature = "parquet")]
    Parquet(Box<crate::parquet_out::ParquetOut>),
}

struct ConvertSink {
    a: Args,
    dest: Dest,
    /// What the output is called in messages, and whether it is standard output.
    out_name: String,
    out_is_stdout: bool,
    errors: u64,
    /// Games of several files (or archive members) into one output: a game
    /// whose variant its file decided carries pdnkit's marker.
    merged: bool,
    /// The one input, by its name, when there is one (not --in-place): a game
    /// read under another name is a member of it, an archive whatever its name
    /// says (issue 54: `games.pdn` that is a zip), so the output is merged.
    single: Option<String>,
    /// Results `1-0`/`0-1` kept as written (their meaning is not known) in
    /// PDN written with --fix-results, --normalise or --to pdn.
    kept_as_written: u64,
    /// --fix-results: games left as they were where something disagrees, by reason.
    left_alone: std::collections::BTreeMap<&'static str, u64>,
    /// --in-place: files left as they were, with the documented reason.
    left_files: Vec<(String, String)>,
    /// --in-place: the current file cannot be rewritten safely (reader errors, not PDN).
    keep_original: Option<String>,
    /// A JSON line, reused from row to row.
    line: String,
    /// --in-place: what each file was before it was read (its length and
    /// time), so text written to it during the run is never lost.
    stamps: std::collections::HashMap<String, crate::output::Stamp>,
}

impl Sink for ConvertSink {
    type Error = Stop;
    /// An -o output keeps the games read before a break (issue 55) and the
    /// run fails (exit 2), as every file error does; a file rewritten in
    /// place is left alone.
    fn game(&mut self, file: &str, g: &Game, r: &GameReport) -> ControlFlow<Stop> {
        self.on_game(file, g, r)
    }
    fn file_done(&mut self, file: &str, _findings: &[pdnkit::diag::FileDiagnostic]) {
        if let Dest::Patch(cur) = &mut self.dest {
            if let Some((name, patches)) = cur.take() {
                // Nothing to fix: the file is not touched (no backup either).
                if name == file
                    && !patches.is_empty()
                    && self.keep_original.as_deref() != Some(file)
                {
                    if let Err(e) = patch_file(file, &patches, self.stamps.get(file).copied()) {
                        crate::exit::fail(format_args!("{}: {e}", crate::render::name(file)));
                    }
                }
            }
        }
        if let Dest::InPlace(cur) = &mut self.dest {
            if let Some((name, f)) = cur.take() {
                if name == file {
                    if let Err(e) = f.commit() {
                        crate::exit::fail(format_args!("{}: {e}", crate::render::name(file)));
                    }
                } else {
                    *cur = Some((name, f));
                }
            }
        }
    }
}

impl ConvertSink {
    fn on_game(&mut self, file: &str, g: &Game, r: &GameReport) -> ControlFlow<Stop> {
        self.errors += r.errors().count() as u64;
        if r.result_as_written && self.a.to == To::Pdn && !matches!(self.dest, Dest::Patch(_)) {
            self.kept_as_written += 1;
        }
        if matches!(self.dest, Dest::Patch(_)) {
            self.patch(file, g, r);
            return ControlFlow::Continue(());
        }
        if matches!(self.dest, Dest::InPlace(_)) && !self.rewrite_begun(file, g) {
            return ControlFlow::Continue(());
        }
        match (self.a.to, self.a.moves) {
            (To::Parquet, _) => self.parquet_game(file, g, r),
            (To::Pdn, _) if g.is_cut() => {
                // A fragment: the games before it are written (issue 55).
                eprintln!("{}", crate::common::cut_game_note(file, g));
                ControlFlow::Continue(())
            }
            (To::Pdn, _) if matches!(self.dest, Dest::InPlace(_)) => {
                let text = self.pdn(file, g, r);
                self.rewrite(file, g, &text)
            }
            (To::Pdn, _) => {
                let text = self.pdn(file, g, r);
                self.emit(&text)
            }
            (To::Csv, false) => {
                let tags = self.tag_values(g);
                let row = pdnkit::export::GameRow::new(file, g, r);
                let row = if self.a.csv_raw {
                    row
                } else {
                    row.spreadsheet_safe()
                };
                self.row(row, &tags)
            }
            (To::Csv, true) => {
                let tags = self.tag_values(g);
                let raw = self.a.csv_raw;
                for row in pdnkit::export::PlyRow::rows(file, g, r, self.a.fen) {
                    self.row(if raw { row } else { row.spreadsheet_safe() }, &tags)?;
                }
                ControlFlow::Continue(())
            }
            (To::Jsonl, moves) => {
                // Keys in alphabetical order, the `--tag` values among them.
                // Taken out of `self` while rows are written through it.
                let names = std::mem::take(&mut self.a.tag_columns);
                let values: Vec<Option<String>> = self.a.tags.iter().map(|t| g.tag(t)).collect();
                let tags: Vec<(&str, Option<&str>)> = names
                    .iter()
                    .zip(&values)
                    .map(|(t, v)| (t.as_str(), v.as_deref()))
                    .collect();
                let mut line = std::mem::take(&mut self.line);
                let done = if moves {
                    // Row by row: a long game is never held as text.
                    pdnkit::export::PlyRow::rows(file, g, r, self.a.fen).try_for_each(|row| {
                        line.clear();
                        row.write_json(&mut line, &tags);
                        self.emit(&line)
                    })
                } else {
                    line.clear();
                    pdnkit::export::GameRow::new(file, g, r).write_json(&mut line, &tags);
                    self.emit(&line)
                };
                self.line = line;
                drop(tags);
                self.a.tag_columns = names;
                done
            }
        }
    }
}

impl ConvertSink {
    /// --in-place --normalise: the game's normalised text written in its
    /// file's own encoding (issue 62 item 11: a windows-1251 file stays
    /// windows-1251). A game with a character the encoding cannot write
    /// leaves the whole file as it is, said with the reason.
    fn rewrite(&mut self, file: &str, g: &Game, text: &str) -> ControlFlow<Stop> {
        let encoding = g.encoding();
        let Some(bytes) = encoding.encode(text) else {
            if let Dest::InPlace(cur) = &mut self.dest {
                *cur = None; // drops (removes) the temporary file begun for it
            }
            let why = format!(
                "game {} holds a character {} cannot write (the file's encoding is kept)",
                g.index(),
                encoding.name()
            );
            eprintln!(
                "pdnkit: {}: not rewritten: {why}; the file is left as it was",
                crate::render::name(file)
            );
            self.left_files.push((file.to_string(), why));
            self.keep_original = Some(file.to_string());
            return ControlFlow::Continue(());
        };
        let Dest::InPlace(Some((name, f))) = &mut self.dest else {
            return ControlFlow::Continue(());
        };
        match std::io::Write::write_all(f, &bytes) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => ControlFlow::Break(Stop::Failed(format!(
                "cannot write {}: {e}",
                crate::render::name(name)
            ))),
        }
    }

    /// --in-place --normalise: whether the game's file is being rewritten
    /// (its temporary file begun at its first game); false when the file is
    /// left as it is.
    fn rewrite_begun(&mut self, file: &str, g: &Game) -> bool {
        let Dest::InPlace(cur) = &mut self.dest else {
            return false;
        };
        if self.keep_original.as_deref() == Some(file) {
            return false;
        }
        // A file with reader errors (text skipped after a syntax error, an
        // unterminated comment) or with no tag pair at all (not PDN) would
        // lose what could not be read: it is left as it is.
        if let Err(why) = Normalise::rewritable(g) {
            *cur = None; // drops (removes) any temporary file begun for it
            self.leave_file(file, g, "rewritten", why);
            return false;
        }
        if cur.as_ref().is_none_or(|(f, _)| f != file) {
            match AtomicFile::create(std::path::Path::new(file), Replace::InPlace) {
                Ok(mut f) => {
                    if let Some(s) = self.stamps.get(file) {
                        f.read_as(*s);
                    }
                    *cur = Some((file.to_string(), f));
                }
                Err(e) => {
                    crate::exit::fail(format_args!("{}: {e}", crate::render::name(file)));
                    self.keep_original = Some(file.to_string());
                    return false;
                }
            }
        }
        true
    }
}

/// The combinations of options convert refuses.
fn check_args(a: &Args) -> Result<(), String> {
    if a.to == To::Parquet {
        if cfg!(not(feature = "parquet")) {
            return Err(
                "this pdnkit was built without Parquet output (cargo feature `parquet`)".into(),
            );
        }
        if a.output.is_none() || a.output.as_deref() == Some(std::path::Path::new("-")) {
            return Err("--to parquet needs -o FILE (or -o DIR with --partition-by): Parquet is not written to standard output".into());
        }
        if a.csv_raw {
            return Err("--csv-raw is for --to csv".into());
        }
    } else if a.partition_by.is_some() {
        return Err("--partition-by is for --to parquet".into());
    }
    if a.force && a.partition_by.is_none() {
        return Err("--force is for --partition-by (an -o FILE is always replaced whole)".into());
    }
    if a.in_place && (a.to != To::Pdn || a.output.is_some()) {
        return Err("--in-place needs --to pdn and no -o".into());
    }
    if a.in_place && !a.fix_results && !a.normalise {
        return Err(
            "--in-place needs --fix-results (patch the results) or --normalise (rewrite each file as normalised PDN)"
                .into(),
        );
    }
    if a.normalise && !a.in_place {
        return Err("--normalise is for --in-place (--to pdn always writes normalised PDN)".into());
    }
    if (a.fix_results) && a.to != To::Pdn {
        return Err("--fix-results needs --to pdn".into());
    }
    if a.csv_raw && a.to != To::Csv {
        return Err("--csv-raw is for --to csv".into());
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

pub fn run(mut a: Args) -> u8 {
    if let Err(why) = check_args(&a) {
        return crate::exit::fail(why);
    }
    // NAME=VALUE and NAME~REGEX select games; a bare NAME is a column.
    let (tag_tests, columns): (Vec<String>, Vec<String>) = std::mem::take(&mut a.tags)
        .into_iter()
        .partition(|t| t.contains(['=', '~']));
    a.tags = columns;
    let selection = match a.select.selection(&tag_tests, &a.input) {
        Ok(s) => s,
        Err(why) => return crate::exit::fail(why),
    };
    // A file rewritten in place keeps every game: no selection there.
    if a.in_place && !selection.is_empty() {
        return crate::exit::fail(
            "--in-place rewrites whole files and keeps every game: it does not take selection options (use `select` to write the chosen games elsewhere)",
        );
    }
    dedup_tag_columns(&mut a);
    a.tag_columns = tag_columns(&a);
    let mut prepared = match a.input.prepare(true) {
        Ok(p) => p,
        Err(code) => return code,
    };
    // Files left alone for a documented reason: listed at the end, and not a
    // failure of the run (CLI.md).
    let (mut left_links, stamps) = if a.in_place {
        keep_rewritable(&mut prepared)
    } else {
        LeftAlone::default()
    };
    #[cfg(feature = "parquet")]
    if a.to == To::Parquet {
        return parquet(a, prepared, &selection);
    }
    let out = match check_in_place(&a, prepared.inputs()).and_then(|()| {
        crate::output::open_output(a.output.as_deref(), prepared.inputs(), " (use --in-place)")
    }) {
        Ok(out) => out,
        Err(why) => return crate::exit::fail(why),
    };
    let (out_name, out_is_stdout) = (out.name(), out.is_stdout());
    let dest = match (a.in_place, a.to) {
        (true, _) if a.normalise => Dest::InPlace(None),
        (true, _) => Dest::Patch(None),
        (false, To::Csv) => Dest::Csv(
            // The header is written by hand: it comes even when no game follows.
            csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(out),
        ),
        (false, _) => Dest::Lines(out),
    };
    let merged = !a.in_place && pdnkit::batch::merged(prepared.inputs());
    let single = match prepared.inputs() {
        [one @ pdnkit::batch::Input::File(_)] if !a.in_place => Some(one.name()),
        _ => None,
    };
    let mut sink = ConvertSink {
        single,
        a,
        dest,
        out_name,
        out_is_stdout,
        errors: 0,
        merged,
        kept_as_written: 0,
        left_alone: std::collections::BTreeMap::new(),
        left_files: std::mem::take(&mut left_links),
        keep_original: None,
        line: String::new(),
        stamps,
    };
    // The CSV header comes first, even when no game follows.
    let header = match sink.dest {
        Dest::Csv(_) => sink.header(),
        _ => ControlFlow::Continue(()),
    };
    let done = match header {
        ControlFlow::Continue(()) => sink.read(&prepared, &selection),
        ControlFlow::Break(stop) => Err(stop),
    };
    sink.finish(done)
}

impl ConvertSink {
    /// Reads the inputs into the output: whether the output is complete
    /// (every input read, if only up to a break), or why the run stopped.
    fn read(
        &mut self,
        prepared: &crate::common::Prepared,
        selection: &pdnkit::select::Selection,
    ) -> Result<bool, Stop> {
        let progress = !self.a.input.no_progress;
        let info = prepared.run_selected(progress, selection, self)?;
        // An input read up to a break does not stop the output (its games
        // before the break are written); the run fails (exit 2) all the same.
        let complete = info.completed && prepared.all_read(&info);
        if complete && info.unreadable > 0 && !self.a.in_place {
            eprintln!(
                "{}",
                crate::common::read_errors_note(info.unreadable as u64)
            );
        }
        Ok(complete)
    }

    /// Commits or drops the output and gives the command's answer: an -o
    /// file is committed only after a complete run.
    fn finish(mut self, done: Result<bool, Stop>) -> u8 {
        for (why, n) in &self.left_alone {
            eprintln!(
                "pdnkit: {n} {} left as {} {}: {why}",
                if *n == 1 { "game" } else { "games" },
                if *n == 1 { "it" } else { "they" },
                if *n == 1 { "was" } else { "were" }
            );
        }
        if !self.left_files.is_empty() {
            let n = self.left_files.len();
            eprintln!(
                "pdnkit: {n} {} left as {} (a documented reason, not a failure):",
                if n == 1 { "file" } else { "files" },
                if n == 1 { "it was" } else { "they were" }
            );
            for (file, why) in &self.left_files {
                eprintln!("  {}: {why}", crate::render::name(file));
            }
        }
        if self.kept_as_written > 0 {
            let n = self.kept_as_written;
            eprintln!(
                "pdnkit: {n} result{} kept as written: a 1-0 or 0-1 whose meaning depends on the variant (english against the others), which is not known for {}",
                if n == 1 { "" } else { "s" },
                if n == 1 { "its game" } else { "their games" }
            );
        }
        let answer = u8::from(self.errors > 0 && self.a.strict);
        let named = self.a.output.is_some();
        // An -o file is committed only after a complete run.
        match std::mem::replace(&mut self.dest, Dest::InPlace(None)) {
            Dest::Csv(w) => match w.into_inner() {
                Ok(out) => crate::output::conclude(out, done, named),
                Err(e) => {
                    let stop = Stop::of(&e.into_error(), &self.out_name, self.out_is_stdout);
                    crate::output::concluded(done.and(Err(stop)), named);
                }
            },
            Dest::Lines(out) => crate::output::conclude(out, done, named),
            Dest::InPlace(_) | Dest::Patch(_) => {
                if let Err(stop) = done {
                    stop.report();
                }
            }
            #[cfg(feature = "parquet")]
            Dest::Parquet(p) => {
                let complete = matches!(done, Ok(true));
                let done = done.and_then(|_| {
                    p.finish(complete)
                        .map_err(Stop::Failed)
                        .map(|files| (complete, files))
                });
                match done {
                    Ok((true, files)) if self.a.partition_by.is_some() => {
                        eprintln!(
                            "pdnkit: wrote {} partition files under {}",
                            files.len(),
                            self.out_name
                        );
                    }
                    Ok((complete, _)) => crate::output::concluded(Ok(complete), named),
                    Err(stop) => crate::output::concluded(Err(stop), named),
                }
            }
        }
        answer
    }
}
