//! The progress bar of a run (the library's pipeline tells it how the run
//! goes: `pdnkit::batch::Progress`), and the sink wrapper that clears the bar
//! while the sink writes to the terminal.

use crate::output::Stop;
use indicatif::{ProgressBar, ProgressStyle};
use pdnkit::batch::FileError;
use pdnkit::batch::{Progress, Sink, Status};
use pdnkit::diag::FileDiagnostic;
use pdnkit::{Game, GameReport};
use std::io::IsTerminal;
use std::ops::ControlFlow;
use std::time::Instant;

/// Redraws of the progress bar per second, at most.
const PROGRESS_HZ: u8 = 10;

/// The progress bar waits this long before it is drawn at all: a run that
/// ends sooner never draws one (as cargo does).
const PROGRESS_DELAY: std::time::Duration = std::time::Duration::from_millis(200);

/// Columns the bar and percentage take before the message.
const BAR_COLUMNS: usize = 28;

/// Whether a progress bar may be drawn: asked for, standard error is a
/// terminal, and the terminal is not `TERM=dumb` (no cursor movement).
fn bar_wanted(progress: bool) -> bool {
    progress
        && std::io::stderr().is_terminal()
        && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
}

/// The progress bar, hidden until [`PROGRESS_DELAY`] has passed: a bar and
/// the percentage against the total when it is known (files), a spinner when
/// it is not (standard input); the rest of the line is a message fitted to
/// the terminal's width by whole words ([`fit`]).
fn progress_bar(total: u64) -> ProgressBar {
    let (bar, template) = if total > 0 {
        (
            ProgressBar::with_draw_target(Some(total), indicatif::ProgressDrawTarget::hidden()),
            "[{bar:20}] {percent:>3}% {msg}",
        )
    } else {
        (
            ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::hidden()),
            "{spinner} {msg}",
        )
    };
    bar.set_style(
        ProgressStyle::with_template(template)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar
}

/// `n` and the singular or plural word.
fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// As many of `parts` as fit in `width` columns, whole, in order, joined by
/// ", " (the first always, cut only if it alone is too wide).
fn fit(parts: &[String], width: usize) -> String {
    let mut out = String::new();
    for p in parts {
        let extra = if out.is_empty() { 0 } else { 2 };
        if out.chars().count() + extra + p.chars().count() > width {
            if out.is_empty() {
                out = p.chars().take(width).collect();
            }
            break;
        }
        if !out.is_empty() {
            out.push_str(", ");
        }
        out.push_str(p);
    }
    out
}

/// The bar of one run, if one is drawn.
pub struct Bar {
    bar: Option<ProgressBar>,
    /// Whether the bar is drawn yet (after [`PROGRESS_DELAY`]).
    shown: bool,
    started: Instant,
}

impl Bar {
    /// A bar over `total` bytes (0: unknown), when `progress` is asked for
    /// and standard error can show one.
    pub fn new(progress: bool, total: u64) -> Bar {
        Bar {
            bar: bar_wanted(progress).then(|| progress_bar(total)),
            shown: false,
            started: Instant::now(),
        }
    }

    /// A sink that says file errors and skips on standard error (when
    /// `say_files`) and notes, above this bar.
    pub fn around<'a>(
        &self,
        inner: &'a mut dyn Sink<Error = Stop>,
        say_files: bool,
    ) -> Cleared<'a> {
        Cleared { inner, say_files }
    }

    /// Shows the bar once the delay has passed, and fits its message.
    fn redraw(&mut self, status: &Status<'_>) {
        let Some(b) = &self.bar else { return };
        if !self.shown {
            if self.started.elapsed() < PROGRESS_DELAY {
                return;
            }
            b.set_draw_target(indicatif::ProgressDrawTarget::stderr_with_hz(PROGRESS_HZ));
            self.shown = true;
            crate::screen::drawn(Some(b.clone()));
        }
        let secs = self.started.elapsed().as_secs_f64().max(1e-6);
        let width = console::Term::stderr()
            .size_checked()
            .map_or(80, |(_, w)| usize::from(w));
        let mut parts = vec![
            count(status.games, "game", "games"),
            format!("{:.0} a second", status.games as f64 / secs),
            count(status.games_with_errors, "with errors", "with errors"),
        ];
        if let Some(file) = status.file {
            parts.push(crate::render::name(file).into_owned());
        }
        // The message first: a frame is drawn as the position moves.
        b.set_message(fit(&parts, width.saturating_sub(BAR_COLUMNS + 1)));
        b.set_position(status.bytes_done);
    }
}

impl Progress for Bar {
    fn update(&mut self, status: &Status<'_>) {
        self.redraw(status);
    }

    /// The last frame shows the whole run (100 %), then the line is cleared.
    fn finish(&mut self, status: &Status<'_>, completed: bool) {
        let last_frame = self.shown && completed;
        if last_frame {
            self.redraw(status);
        }
        if let Some(b) = &self.bar {
            if last_frame {
                if let Some(len) = b.length() {
                    b.set_position(len);
                }
                b.finish();
            }
            b.finish_and_clear();
            crate::screen::drawn(None);
        }
    }
}

/// A sink whose file errors, skips and notes are said on standard error
/// here (unless told not to), once, for every command, with the bar cleared.
pub struct Cleared<'a> {
    inner: &'a mut dyn Sink<Error = Stop>,
    say_files: bool,
}

impl Sink for Cleared<'_> {
    type Error = Stop;
    fn game(&mut self, file: &str, g: &Game, r: &GameReport) -> ControlFlow<Stop> {
        self.inner.game(file, g, r)
    }
    /// Every command's file errors are said here, once, as
    /// `pdnkit: FILE: why`, which fails the run; the command's sink then
    /// does its bookkeeping.
    fn file_error(&mut self, e: &FileError) {
        // A first pass over inputs read again says nothing: the second does.
        if self.say_files {
            crate::screen::above(|| {
                eprintln!("pdnkit: {}: {}", crate::render::name(&e.path), e.message)
            });
            crate::exit::failed();
        }
        self.inner.file_error(e);
    }
    fn batch_done(&mut self) -> ControlFlow<Stop> {
        self.inner.batch_done()
    }
    fn file_skipped(&mut self, file: &str, why: &str) {
        if self.say_files {
            crate::screen::above(|| {
                eprintln!("pdnkit: {}: skipped: {why}", crate::render::name(file))
            });
        }
        self.inner.file_skipped(file, why);
    }
    fn file_note(&mut self, file: &str, note: &str) {
        crate::screen::above(|| eprintln!("pdnkit: {}: note: {note}", crate::render::name(file)));
        self.inner.file_note(file, note);
    }
    fn file_done(&mut self, file: &str, findings: &[FileDiagnostic]) {
        self.inner.file_done(file, findings);
    }
}
