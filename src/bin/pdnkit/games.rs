//! Reading every game of every input in order, checking them in parallel in
//! batches, and handing the results back in input order.

use crate::feed;
use crate::input::Input;
use crate::stitch::{self, Checked};
use indicatif::{ProgressBar, ProgressStyle};
use pdnkit::check::{FileTally, Pending};
use pdnkit::diag::FileDiagnostic;
use pdnkit::infer::Inference;
use pdnkit::pdn::Game;
use pdnkit::replay::{GameReport, Options};
use std::io::{IsTerminal, Read};
use std::sync::Arc;
use std::time::Instant;

/// Batches checked or being checked ahead of the output, at most: memory
/// stays bounded by the batch size (`stitch.rs`), not the input.
const READ_AHEAD: usize = 16;
/// Pieces of text (`feed::PIECE` bytes each) cut ahead of the stitching.
const FEED_AHEAD: usize = 8;
/// Bytes of game text read ahead of the output, at most (besides one batch):
/// a few huge games cannot fill the read-ahead (docs/limits.md).
const READ_AHEAD_BYTES: usize = 64 << 20;

/// Bytes of game text between the reader and the output, with a ceiling.
#[derive(Default)]
pub struct InFlight {
    /// Bytes in flight, and whether the output has stopped (nothing waits then).
    bytes: std::sync::Mutex<(usize, bool)>,
    freed: std::sync::Condvar,
}

impl InFlight {
    /// Waits until `n` more bytes fit (a batch alone always fits), then counts them.
    pub fn take(&self, n: usize) {
        let Ok(mut state) = self.bytes.lock() else {
            return;
        };
        while !state.1 && state.0 > 0 && state.0 + n > READ_AHEAD_BYTES {
            state = match self.freed.wait(state) {
                Ok(s) => s,
                Err(_) => return,
            };
        }
        state.0 += n;
    }
    fn give(&self, n: usize) {
        if let Ok(mut state) = self.bytes.lock() {
            state.0 = state.0.saturating_sub(n);
        }
        self.freed.notify_all();
    }
    /// The output stopped: the reader must not wait any more.
    fn close(&self) {
        if let Ok(mut state) = self.bytes.lock() {
            state.1 = true;
        }
        self.freed.notify_all();
    }
}

pub fn batch_bytes(batch: &[Item]) -> usize {
    batch
        .iter()
        .map(|it| match it {
            Item::Game(_, p) => p.game().text().len(),
            _ => 0,
        })
        .sum()
}
/// What a consumer does with each checked game, in input order.
pub trait Sink {
    /// Returns false to stop the run (e.g. a closed pipe).
    fn game(&mut self, file: &str, g: &Game, r: &GameReport) -> bool;
    /// A file that could not be read (or not completely).
    fn file_error(&mut self, file: &str, msg: &str);
    /// The end of a batch of games: output held for it may be written now
    /// (with the progress bar, this runs while the bar is cleared). Returns
    /// false to stop the run.
    fn batch_done(&mut self) -> bool {
        true
    }
    /// Whether output is waiting for [`Sink::batch_done`].
    fn has_output(&self) -> bool {
        false
    }
    /// A file skipped as not PDN (binary). Reported once on stderr.
    fn file_skipped(&mut self, file: &str, why: &str) {
        eprintln!("pdnkit: {}: skipped: {why}", crate::render::name(file));
    }
    /// A file was read to its end; `findings` are about the whole file.
    fn file_done(&mut self, file: &str, findings: &[FileDiagnostic]);
}

/// Redraws of the progress bar per second, at most.
const PROGRESS_HZ: u8 = 10;

/// The progress bar waits this long before it is drawn at all: a run that
/// ends sooner never draws one (as cargo does).
const PROGRESS_DELAY: std::time::Duration = std::time::Duration::from_millis(200);

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

/// Columns the bar and percentage take before the message.
const BAR_COLUMNS: usize = 28;

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

/// How a run over the inputs went.
#[derive(Clone, Copy, Debug, Default)]
pub struct RunInfo {
    /// Every input was read to its end (the sink did not stop the run).
    pub completed: bool,
    /// Files that could not be read, or not to their end.
    pub unreadable: usize,
    /// Files skipped as binary.
    pub skipped: usize,
    /// Of those, files named on the command line (not found in a folder).
    pub skipped_named: usize,
}

impl RunInfo {
    /// Whether the run failed as a whole (status 2): an input that could not
    /// be read, a PATH problem, or not one PDN file among the inputs.
    /// A file named on the command line that is skipped fails the run too.
    pub fn failed(&self, inputs: usize, path_problems: usize) -> bool {
        self.unreadable > 0 || path_problems > 0 || self.skipped == inputs || self.skipped_named > 0
    }
}

/// Runs `f` (which writes to the terminal) with the bar, if any, cleared.
fn above_bar<T>(bar: &Option<ProgressBar>, f: impl FnOnce() -> T) -> T {
    match bar {
        Some(b) => b.suspend(f),
        None => f(),
    }
}

impl OutputStage<'_> {
    /// Shows the bar once the delay has passed, and fits its message.
    fn redraw(&mut self, current: Option<usize>) {
        let Some(b) = &self.bar else { return };
        if !self.bar_shown {
            if self.started.elapsed() < PROGRESS_DELAY {
                return;
            }
            b.set_draw_target(indicatif::ProgressDrawTarget::stderr_with_hz(PROGRESS_HZ));
            self.bar_shown = true;
        }
        let secs = self.started.elapsed().as_secs_f64().max(1e-6);
        let width = console::Term::stderr()
            .size_checked()
            .map_or(80, |(_, w)| usize::from(w));
        let mut parts = vec![
            count(self.games_done, "game", "games"),
            format!("{:.0} a second", self.games_done as f64 / secs),
            count(self.games_with_errors, "with errors", "with errors"),
        ];
        if let Some(fi) = current {
            parts.push(crate::render::name(&self.names[fi]).into_owned());
        }
        b.set_message(fit(&parts, width.saturating_sub(BAR_COLUMNS + 1)));
    }

    /// A file is read to its end: the bar stands at the bytes of every file so
    /// far (game text leaves out blank lines and byte order marks).
    fn file_end(&self, fi: usize) {
        if let Some(b) = &self.bar {
            if let Some(done) = self.ends.get(fi) {
                b.set_position(*done);
            }
        }
    }
}

/// The output stage: hands items to the sink, counts, and keeps the bar.
struct OutputStage<'a> {
    names: Vec<String>,
    opts: &'a Options,
    bar: Option<ProgressBar>,
    /// Whether the bar is drawn yet (after [`PROGRESS_DELAY`]).
    bar_shown: bool,
    /// Per input: the bytes of it and every input before it.
    ends: Vec<u64>,
    started: Instant,
    games_done: u64,
    games_with_errors: u64,
    unreadable: usize,
    skipped: usize,
    skipped_named: usize,
    named: &'a [bool],
    tally: FileTally,
}

impl OutputStage<'_> {
    /// Hands one item and its report to the sink; false: the output stopped.
    fn item(&mut self, it: &Item, r: Option<&GameReport>, sink: &mut dyn Sink) -> bool {
        let names = &self.names;
        match (it, r) {
            (Item::Game(fi, p), Some(r)) => {
                let g = p.game();
                self.games_done += 1;
                self.games_with_errors += u64::from(r.checked && !r.valid());
                self.tally.add(g, r);
                sink.game(&names[*fi], g, r)
            }
            (Item::Done(fi, inference), _) => {
                self.file_end(*fi);
                let findings = std::mem::take(&mut self.tally).finish(inference, self.opts);
                sink.file_done(&names[*fi], &findings);
                true
            }
            (Item::Error(fi, msg), _) => {
                self.unreadable += 1;
                above_bar(&self.bar, || sink.file_error(&names[*fi], msg));
                true
            }
            (Item::Member(mi, name), _) => {
                // Members come in order, so this is a push; never an index out of range.
                if self.names.len() <= *mi {
                    self.names.resize(*mi + 1, String::new());
                }
                self.names[*mi] = name.clone();
                true
            }
            (Item::ArchiveDone(fi), _) => {
                self.file_end(*fi);
                true
            }
            (Item::Skipped(fi, why), _) => {
                // A member skipped does not count against the run: the inputs do.
                self.skipped += usize::from(*fi < self.named.len());
                self.skipped_named += usize::from(self.named.get(*fi).copied().unwrap_or(false));
                above_bar(&self.bar, || sink.file_skipped(&names[*fi], why));
                true
            }
            _ => true,
        }
    }

    /// Hands a checked batch to the sink: findings are rendered for the whole
    /// batch, then written at once, with the bar cleared once (never once per
    /// game). False: the output stopped.
    fn batch(
        &mut self,
        batch: &[Item],
        reports: &[Option<GameReport>],
        sink: &mut dyn Sink,
    ) -> bool {
        let mut bytes = 0u64;
        let mut current = None;
        for (it, r) in batch.iter().zip(reports) {
            if let Item::Game(fi, p) = it {
                bytes += p.game().text().len() as u64;
                current = Some(*fi);
            }
            if !self.item(it, r.as_ref(), sink) {
                return false;
            }
        }
        let written = if sink.has_output() {
            above_bar(&self.bar, || sink.batch_done())
        } else {
            sink.batch_done()
        };
        if let Some(b) = &self.bar {
            b.inc(bytes);
            self.redraw(current);
        }
        written
    }
}

/// Runs every input through `check_game` and `sink`.
#[allow(clippy::too_many_arguments)]
pub fn run(
    inputs: &[Input],
    named: &[bool],
    roots: &[std::path::PathBuf],
    opts: &Options,
    pool: &rayon::ThreadPool,
    progress: bool,
    all_files: bool,
    sink: &mut dyn Sink,
) -> RunInfo {
    let sizes: Vec<u64> = inputs
        .iter()
        .map(|i| match i {
            Input::File(p) => std::fs::metadata(p).map(|m| m.len()).unwrap_or(0),
            Input::Stdin => 0,
        })
        .collect();
    let ends: Vec<u64> = sizes
        .iter()
        .scan(0u64, |sum, s| {
            *sum += s;
            Some(*sum)
        })
        .collect();
    let total = ends.last().copied().unwrap_or(0);
    let mut out = OutputStage {
        names: inputs.iter().map(Input::name).collect(),
        opts,
        bar: bar_wanted(progress).then(|| progress_bar(total)),
        bar_shown: false,
        ends,
        started: Instant::now(),
        games_done: 0,
        games_with_errors: 0,
        unreadable: 0,
        skipped: 0,
        skipped_named: 0,
        named,
        tally: FileTally::default(),
    };
    // Four stages joined by bounded channels: the reading thread cuts the
    // text into pieces; the stitching thread has them read on the pool,
    // stitches their games in order and has them checked on the pool in
    // batches; the output here takes each batch's result in input order.
    let in_flight = InFlight::default();
    let completed = std::thread::scope(|scope| {
        let (feed_tx, feed_rx) = std::sync::mpsc::sync_channel::<feed::Feed>(FEED_AHEAD);
        let (out_tx, out_rx) =
            std::sync::mpsc::sync_channel::<std::sync::mpsc::Receiver<Checked>>(READ_AHEAD);
        let in_flight = &in_flight;
        scope.spawn(move || feed::read_inputs(inputs, opts, all_files, &feed_tx));
        let names: Vec<pdnkit::infer::FileName> = inputs
            .iter()
            .zip(roots)
            .map(|(i, r)| pdnkit::infer::FileName::new(&i.name(), &r.display().to_string()))
            .collect();
        scope.spawn(move || {
            pool.in_place_scope(|s| stitch::run(names, feed_rx, out_tx, s, pool, opts, in_flight));
        });
        for rx in out_rx {
            let Ok((batch, reports)) = rx.recv() else {
                break;
            };
            in_flight.give(batch_bytes(&batch));
            if !out.batch(&batch, &reports, sink) {
                in_flight.close();
                // Dropping the receiver stops the other stages at their next batch.
                return false;
            }
            // Freed on the pool, where the games were made.
            pool.spawn(move || drop(batch));
        }
        true
    });
    // The last frame shows the whole run (100 %), then the line is cleared.
    let last_frame = out.bar_shown && completed;
    if last_frame {
        out.redraw(None);
    }
    if let Some(b) = &out.bar {
        if last_frame {
            if let Some(len) = b.length() {
                b.set_position(len);
            }
            b.finish();
        }
        b.finish_and_clear();
    }
    RunInfo {
        completed,
        unreadable: out.unreadable,
        skipped: out.skipped,
        skipped_named: out.skipped_named,
    }
}

pub enum Item {
    Game(usize, Pending),
    Done(usize, Arc<Inference>),
    Error(usize, String),
    /// Not read: a binary file.
    Skipped(usize, String),
    /// A member of an archive, read as file `.0` of its own: the archive's
    /// number and the member's name.
    Member(usize, String),
    /// An archive was read to its end.
    ArchiveDone(usize),
}

/// Bytes looked at to tell a binary file.
const BINARY_PROBE: usize = 8 << 10;

/// Why a text's first bytes (`head`) show it is not to be read: NUL bytes in
/// its first 8 KB (and no UTF-16/32 byte order mark) make it binary; other
/// kinds of files are told by [`not_pdn`].
pub fn not_text(head: &[u8]) -> Option<String> {
    let head = &head[..head.len().min(BINARY_PROBE)];
    if memchr::memchr(0, head).is_some() && pdnkit::pdn::wide_bom(head).is_none() {
        return Some("binary file (NUL bytes in its first 8 KB), not PDN".to_string());
    }
    not_pdn(head).map(|what| format!("{what}, not PDN (told by its first bytes)"))
}

/// [`not_pdn`] of a file's first bytes (`None` also when it cannot be read).
pub fn file_not_pdn(p: &std::path::Path) -> Option<&'static str> {
    let mut head = Vec::with_capacity(BINARY_PROBE);
    let f = std::fs::File::open(p).ok()?;
    f.take(BINARY_PROBE as u64).read_to_end(&mut head).ok()?;
    not_pdn(&head)
}

/// What a file is when its first bytes show it is not PDN: an HTML page
/// (a report), XML or SVG (a diagram), a Parquet file, a CSV table. PDN
/// starts with a tag, a comment, a `%` line or a move, never with these.
pub fn not_pdn(head: &[u8]) -> Option<&'static str> {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    if head.starts_with(b"PAR1") {
        return Some("a Parquet file");
    }
    let start = head.iter().position(|b| !b.is_ascii_whitespace())?;
    let text = &head[start..head.len().min(start + 64)];
    let lower = text.to_ascii_lowercase();
    if lower.starts_with(b"<!doctype html") || lower.starts_with(b"<html") {
        return Some("an HTML page");
    }
    if lower.starts_with(b"<?xml") || lower.starts_with(b"<svg") {
        return Some("an XML or SVG document");
    }
    let line = head[start..]
        .split(|&b| b == b'\n')
        .next()
        .unwrap_or_default();
    let commas = line.iter().filter(|&&b| b == b',').count();
    if commas >= 3
        && !line
            .iter()
            .any(|b| matches!(b, b'[' | b'{' | b'.' | b'%' | b';'))
    {
        return Some("a CSV table");
    }
    None
}

/// A sink that passes on only the games a selection keeps (`--player`,
/// `--valid`, ...); everything about files passes through.
pub struct Selected<'a, S: Sink> {
    pub selection: &'a pdnkit::select::Selection,
    pub inner: &'a mut S,
}

impl<S: Sink> Sink for Selected<'_, S> {
    fn game(&mut self, file: &str, g: &Game, r: &GameReport) -> bool {
        if self.selection.matches(g, r) {
            self.inner.game(file, g, r)
        } else {
            true
        }
    }
    fn file_error(&mut self, file: &str, msg: &str) {
        self.inner.file_error(file, msg);
    }
    fn batch_done(&mut self) -> bool {
        self.inner.batch_done()
    }
    fn has_output(&self) -> bool {
        self.inner.has_output()
    }
    fn file_skipped(&mut self, file: &str, why: &str) {
        self.inner.file_skipped(file, why);
    }
    fn file_done(&mut self, file: &str, findings: &[FileDiagnostic]) {
        self.inner.file_done(file, findings);
    }
}

impl crate::common::Prepared {
    /// [`Prepared::run`] through a selection: only the games it keeps reach
    /// `sink` (all of them when it is empty).
    pub fn run_selected<S: Sink>(
        &self,
        progress: bool,
        selection: &pdnkit::select::Selection,
        sink: &mut S,
    ) -> (RunInfo, bool) {
        if selection.is_empty() {
            return self.run(progress, sink);
        }
        self.run(
            progress,
            &mut Selected {
                selection,
                inner: sink,
            },
        )
    }
}
