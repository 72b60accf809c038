//! `pdnkit check PATH...`: replay every game, report findings, compare results.

use crate::common::{HumanOrJson as Format, InputArgs};
use crate::output::{Out, Stop};
use crate::render;
use crate::style::{ColorChoice, Palette};
use pdnkit::batch::FileError;
use pdnkit::batch::Sink;
use pdnkit::diag::{Code, FileDiagnostic, Severity};
use pdnkit::pdn::Game;
use pdnkit::replay::GameReport;
use pdnkit::stats::Summary;
use std::io::IsTerminal;
use std::ops::ControlFlow;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    select: crate::common::SelectArgs,
    #[command(flatten)]
    tag_select: crate::common::TagSelectArgs,
    /// human (compiler-style) or json (JSON Lines).
    #[arg(long, value_enum, default_value = "human")]
    format: Format,
    /// Only read the games and report reader findings (syntax, tags, encoding); replay nothing.
    #[arg(long)]
    syntax_only: bool,
    /// No finding per game: the summary only.
    #[arg(short, long)]
    quiet: bool,
    /// No summary at the end.
    #[arg(long)]
    no_summary: bool,
    /// Colour in human output.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
}

struct CheckSink {
    out: Out,
    format: Format,
    palette: Palette,
    /// -q: no per-game output.
    quiet: bool,
    sum: Summary,
    /// Output of the current batch, written at its end.
    buf: String,
    /// Human output: the file whose games are being rendered, and where in
    /// `buf` its output starts (`None` once part of it was written out).
    /// A `dialect` warning is put there, before the file's games
    /// (PDN-REAL-WORLD.md 8.3).
    file: Option<(String, Option<usize>)>,
}

/// Human output held for one file so that its `dialect` warning can go
/// before its games; past this size the file's output is written as its
/// batches end, and the warning comes after the games.
const HOLD_FOR_FILE: usize = 4 << 20;

impl Sink for CheckSink {
    type Error = Stop;
    fn game(&mut self, file: &str, g: &Game, r: &GameReport) -> ControlFlow<Stop> {
        self.sum.add_game(r);
        if self.quiet {
            return ControlFlow::Continue(());
        }
        // Held until the end of the batch (see `Sink::batch_done`).
        match self.format {
            Format::Json => {
                pdnkit::export::GameRecord::write_json(&mut self.buf, file, g, r);
            }
            Format::Human => {
                if self.file.as_ref().is_none_or(|(f, _)| f != file) {
                    self.file = Some((file.to_string(), Some(self.buf.len())));
                }
                if !r.diagnostics.is_empty() {
                    render::game_header(&mut self.buf, file, g, &self.palette);
                }
                let mut loc = pdnkit::pdn::Locator::new(g);
                for d in &r.diagnostics {
                    render::human(&mut self.buf, file, g, &mut loc, d, &self.palette);
                }
            }
        }
        ControlFlow::Continue(())
    }
    fn batch_done(&mut self) -> ControlFlow<Stop> {
        if self.buf.is_empty() {
            return ControlFlow::Continue(());
        }
        if let Some((_, start)) = &mut self.file {
            if start.is_some() && self.buf.len() < HOLD_FOR_FILE {
                return ControlFlow::Continue(());
            }
            *start = None;
        }
        self.out.put(self.buf.as_bytes())?;
        self.buf.clear();
        self.out.flush_now()
    }
    fn file_error(&mut self, _e: &FileError) {
        self.sum.unreadable += 1;
    }
    fn file_done(&mut self, file: &str, findings: &[FileDiagnostic]) {
        self.sum.files += 1;
        if findings.is_empty() {
            return;
        }
        for d in findings {
            self.sum.add_finding(d.code, d.severity);
        }
        if self.quiet {
            return;
        }
        match self.format {
            Format::Json => {
                self.buf.push_str(&render::file_json(file, findings));
            }
            Format::Human => {
                let start = match self.file.take() {
                    Some((f, start)) if f == file => start,
                    _ => Some(self.buf.len()),
                };
                let mut first = String::new();
                for d in findings {
                    let before = d.code == Code::Dialect && start.is_some();
                    let to = if before { &mut first } else { &mut self.buf };
                    render::human_file(to, file, d, &self.palette);
                }
                if let Some(at) = start {
                    self.buf.insert_str(at, &first);
                }
            }
        }
    }
}

pub fn run(a: Args) -> u8 {
    let selection = match a.select.selection(&a.tag_select.tag, &a.input) {
        Ok(s) => s,
        Err(why) => return crate::exit::fail(why),
    };
    let mut prepared = match a.input.prepare(selection.needs_moves()) {
        Ok(p) => p,
        Err(code) => return code,
    };
    prepared.batch.options_mut().syntax_only = a.syntax_only;
    let color = a.format == Format::Human && a.color.enabled(std::io::stdout().is_terminal());
    let mut sink = CheckSink {
        out: Out::stdout(),
        format: a.format,
        palette: Palette::new(color),
        quiet: a.quiet,
        sum: Summary::default(),
        buf: String::new(),
        file: None,
    };
    sink.sum.stand = prepared.opts().irregularities == pdnkit::replay::Irregularities::Stand;
    let done = prepared
        .run_selected(!a.input.no_progress, &selection, &mut sink)
        .and_then(|info| {
            // What a file's `dialect` warning held back, if the run ended in it.
            if let ControlFlow::Break(stop) = sink.out.put(sink.buf.as_bytes()) {
                return Err(stop);
            }
            if info.completed && !a.no_summary {
                let text = summary_text(&sink.sum, a.format, a.syntax_only);
                if let ControlFlow::Break(stop) = sink.out.put(text.as_bytes()) {
                    return Err(stop);
                }
            }
            sink.out.finish(true)
        });
    if let Err(stop) = done {
        stop.report();
    }
    u8::from(sink.sum.of_severity(Severity::Error) > 0)
}

fn summary_text(s: &Summary, format: Format, syntax_only: bool) -> String {
    match format {
        Format::Json => render::json_line(&s.record(!syntax_only)),
        Format::Human => {
            let mut t = games_lines(s, syntax_only);
            findings_lines(&mut t, s);
            let results = s.results();
            if !results.is_empty() && !syntax_only {
                t.push_str("results (declared -> computed):\n");
                for ((d, c), n) in &results {
                    let flag = if c != &"*" && d != c {
                        "   <- mismatch"
                    } else {
                        ""
                    };
                    t.push_str(&format!("  {d:>4} -> {c:<3}  {n}{flag}\n"));
                }
            }
            if s.unreadable > 0 {
                // A broken stream's games before the break were read and
                // counted above: the file could not be read to its end.
                t.push_str(&format!(
                    "{} could not be read to the end (the games before the fault are counted above)\n",
                    plural(s.unreadable, "file", "files")
                ));
            }
            t
        }
    }
}

/// `n` and the word, singular or plural.
fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The summary's first lines: files and games read, with their verdicts.
fn games_lines(s: &Summary, syntax_only: bool) -> String {
    if syntax_only {
        return format!(
            "read {}, {}: read only, no game replayed\n",
            plural(s.files, "file", "files"),
            plural(s.games, "game", "games"),
        );
    }
    let mut t = format!(
        "checked {}, {}: {} valid, {} with errors",
        plural(s.files, "file", "files"),
        plural(s.games, "game", "games"),
        s.valid,
        s.invalid()
    );
    if s.unchecked > 0 {
        t.push_str(&format!(", {} not checked", s.unchecked));
    }
    t.push('\n');
    if s.stand {
        t.push_str(&format!(
            "irregularities that stood: {} in {}\n",
            plural(s.irregularities, "move", "moves"),
            plural(s.irregular_games, "game", "games")
        ));
    }
    if s.plies_unchecked > 0 {
        let after = if s.stand {
            "the move that stopped a game's replay"
        } else {
            "a game's first move error"
        };
        t.push_str(&format!(
            "{} after {after} not checked\n",
            plural(s.plies_unchecked, "ply", "plies")
        ));
    }
    t
}

/// The findings by severity, then a line per severity and code.
fn findings_lines(t: &mut String, s: &Summary) {
    t.push_str(&format!(
        "findings: {}, {}, {}\n",
        plural(s.of_severity(Severity::Error), "error", "errors"),
        plural(s.of_severity(Severity::Warning), "warning", "warnings"),
        plural(s.of_severity(Severity::Note), "note", "notes")
    ));
    let width = Code::ALL
        .iter()
        .map(|c| c.as_str().len())
        .max()
        .unwrap_or(0);
    for sev in [Severity::Error, Severity::Warning, Severity::Note] {
        for &c in Code::ALL {
            let n = s.count(c, sev);
            if n > 0 {
                t.push_str(&format!(
                    "  {:<8} {:width$}  {n}\n",
                    sev.as_str(),
                    c.as_str()
                ));
            }
        }
    }
}
