//! The run: the stages of [`Batch::run`] (reading, stitching, checking in
//! parallel, the output in input order) and the sinks that take the games.

use crate::batch::input::Input;
use crate::batch::model::{batch_bytes, FileError, InFlight, Item};
use crate::batch::stitch::Checked;
use crate::batch::{feed, input, stitch};
use crate::check::FileTally;
use crate::diag::FileDiagnostic;
use crate::pdn::Game;
use crate::replay::{GameReport, Options};
use std::io::Read;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Batches checked or being checked ahead of the output, at most: memory
/// stays bounded by the batch size (`stitch.rs`), not the input.
const READ_AHEAD: usize = 16;
/// Pieces of text (`feed::PIECE` bytes each) cut ahead of the stitching.
const FEED_AHEAD: usize = 8;
/// Workers allowed per core: more only add threads that wait.
pub const MAX_JOBS_PER_CORE: usize = 4;

/// What a consumer does with each checked game, in input order.
///
/// A sink says whether the run goes on ([`ControlFlow::Continue`]) or stops
/// with its own [`Sink::Error`] ([`ControlFlow::Break`]): a closed output, a
/// failed write, enough games. [`Batch::run`] then ends with
/// [`RunError::Stopped`], which carries the error and how far the run got.
pub trait Sink {
    /// Why the sink stops a run.
    type Error;
    /// A game and its report.
    fn game(&mut self, file: &str, g: &Game, r: &GameReport) -> ControlFlow<Self::Error>;
    /// A file that could not be read, or not to its end: then it comes
    /// after the games read before the error and the file's
    /// [`Sink::file_done`] (a broken stream keeps what it gave). The run goes
    /// on with the next file, and counts it in [`RunInfo::unreadable`].
    fn file_error(&mut self, _error: &FileError) {}
    /// The end of a batch of games: output held for it may be written now.
    fn batch_done(&mut self) -> ControlFlow<Self::Error> {
        ControlFlow::Continue(())
    }
    /// A file not read: binary, another format, an archive with nothing to
    /// read, an archive inside an archive. `why` says which.
    fn file_skipped(&mut self, _file: &str, _why: &str) {}
    /// Something said of a file that is no finding about its games: NUL
    /// padding after a gzip stream, ignored as `zcat` ignores it.
    fn file_note(&mut self, _file: &str, _note: &str) {}
    /// A file was read to its end (or to its read error); `findings` are
    /// about the whole file, in line order.
    fn file_done(&mut self, file: &str, findings: &[FileDiagnostic]);
}

/// Why a run ended before its end.
#[derive(Debug, thiserror::Error)]
pub enum RunError<E> {
    /// No worker threads could be made.
    #[error("no worker threads: {0}")]
    Threads(std::io::Error),
    /// The sink stopped the run with `error`; `info` says how far it got.
    #[error("the run was stopped")]
    Stopped {
        /// The sink's error.
        error: E,
        /// The run up to the stop.
        info: RunInfo,
    },
}

/// Where a run stands, handed to a [`Progress`] after each batch.
#[derive(Clone, Copy, Debug)]
pub struct Status<'a> {
    /// Bytes of the inputs read, as far as known (game text and whole files).
    pub bytes_done: u64,
    /// Bytes of every input file (0 when unknown: standard input, bytes).
    pub bytes_total: u64,
    /// Games handed to the sink.
    pub games: u64,
    /// Of those, games checked with an error.
    pub games_with_errors: u64,
    /// The file of the batch's last game.
    pub file: Option<&'a str>,
}

/// Told how a run goes: after each batch, and once at the end.
pub trait Progress {
    /// After a batch was handed to the sink.
    fn update(&mut self, status: &Status<'_>);
    /// The run ended; `completed`: every input was read to its end.
    fn finish(&mut self, status: &Status<'_>, completed: bool) {
        let _ = (status, completed);
    }
}

/// How a run over the inputs went: counts, no verdict (whether they fail a
/// run is the caller's policy; the command line's is its exit status 2).
#[derive(Clone, Copy, Debug, Default)]
pub struct RunInfo {
    /// Every input was read to its end (the sink did not stop the run).
    pub completed: bool,
    /// Files that could not be read, or not to their end.
    pub unreadable: usize,
    /// Files skipped (binary, another format).
    pub skipped: usize,
    /// Of those, files named as inputs (not found in a folder).
    pub skipped_named: usize,
}

/// A run's inputs and options: build it, then [`Batch::run`] it.
#[derive(Clone, Debug)]
pub struct Batch {
    opts: Options,
    inputs: Vec<Input>,
    /// Per input: the PATH it was named as or found under.
    roots: Vec<PathBuf>,
    /// Per input: named as an input (not found in a walked folder).
    named: Vec<bool>,
    problems: Vec<FileError>,
    jobs: Option<usize>,
    all_files: bool,
}

impl Batch {
    /// A run with no inputs yet.
    pub fn new(opts: Options) -> Batch {
        Batch {
            opts,
            inputs: Vec::new(),
            roots: Vec::new(),
            named: Vec::new(),
            problems: Vec::new(),
            jobs: None,
            all_files: false,
        }
    }

    /// Every file of folders, every member of archives, not only `.pdn`,
    /// `.pgn` and `.txt` ones (`--all-files`). Set it before [`Batch::paths`].
    pub fn all_files(mut self, yes: bool) -> Batch {
        self.all_files = yes;
        self
    }

    /// Worker threads (`-j`); by default one per core. At most
    /// [`MAX_JOBS_PER_CORE`] per core are used.
    pub fn jobs(mut self, n: usize) -> Batch {
        self.jobs = Some(n.max(1));
        self
    }

    /// Adds PATHs as the command line reads them: files as named, folders
    /// walked in name order (their `.pdn`, `.pgn`, `.txt` files, compressed
    /// forms and archives), `-` for standard input. A PATH that cannot be
    /// read, and what a walk cannot enter, is kept as a [`Batch::problems`]
    /// entry; the other PATHs are still read.
    pub fn paths<P: AsRef<Path>>(mut self, paths: impl IntoIterator<Item = P>) -> Batch {
        let paths: Vec<PathBuf> = paths
            .into_iter()
            .map(|p| p.as_ref().to_path_buf())
            .collect();
        let (inputs, roots, problems) = input::expand(&paths, self.all_files);
        for (i, r) in inputs.iter().zip(&roots) {
            self.named.push(match i {
                Input::File(p) => p == r,
                Input::Stdin | Input::Bytes(..) | Input::Member(..) => true,
            });
        }
        self.inputs.extend(inputs);
        self.roots.extend(roots);
        self.problems.extend(problems);
        self
    }

    /// Adds bytes read as a file named `name` (compressed or archived bytes
    /// are read as such).
    pub fn bytes(self, name: &str, data: impl Into<Arc<[u8]>>) -> Batch {
        self.bytes_under(name, name, data)
    }

    /// [`Batch::bytes`] of a file found under the PATH `root` (a prefix of
    /// `name`): the words of the folders between them are evidence of its
    /// variant, as for a file found in a walked folder.
    pub fn bytes_under(mut self, name: &str, root: &str, data: impl Into<Arc<[u8]>>) -> Batch {
        self.inputs
            .push(Input::Bytes(name.to_string(), data.into()));
        self.roots.push(PathBuf::from(root));
        self.named.push(true);
        self
    }

    /// Adds the file `path`, found under the PATH `root` (see
    /// [`Batch::bytes_under`]).
    pub fn file_under(mut self, path: impl Into<PathBuf>, root: impl Into<PathBuf>) -> Batch {
        self.inputs.push(Input::File(path.into()));
        self.roots.push(root.into());
        self.named.push(true);
        self
    }

    /// The inputs, in the order they are read.
    pub fn inputs(&self) -> &[Input] {
        &self.inputs
    }

    /// Per input, the PATH it was named as or found under.
    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    /// The options of the run.
    pub fn options(&self) -> &Options {
        &self.opts
    }

    /// The options of the run, to change before it runs.
    pub fn options_mut(&mut self) -> &mut Options {
        &mut self.opts
    }

    /// Keeps only the inputs `keep` says yes to (given each input and the
    /// PATH it was named as or found under).
    pub fn retain(&mut self, mut keep: impl FnMut(&Input, &Path) -> bool) {
        let kept: Vec<bool> = self
            .inputs
            .iter()
            .zip(&self.roots)
            .map(|(i, r)| keep(i, r))
            .collect();
        let mut it = kept.iter();
        self.inputs.retain(|_| *it.next().unwrap_or(&true));
        let mut it = kept.iter();
        self.named.retain(|_| *it.next().unwrap_or(&true));
        let mut it = kept.iter();
        self.roots.retain(|_| *it.next().unwrap_or(&true));
    }

    /// PATHs that could not be read or walked ([`FileErrorKind::Path`](crate::batch::FileErrorKind::Path)).
    pub fn problems(&self) -> &[FileError] {
        &self.problems
    }

    /// [`Batch::run`] through `selection`: only the games it keeps reach
    /// `sink` (every game when it is empty), and only the findings about
    /// files that gave one ([`Selected`]). Also says what was set aside, as
    /// [`Selected::set_aside`].
    #[allow(clippy::type_complexity)] // `run`'s answer, and a pair of counts
    pub fn run_selected<S: Sink + ?Sized>(
        &self,
        sink: &mut S,
        selection: &crate::select::Selection,
        progress: Option<&mut dyn Progress>,
    ) -> (Result<RunInfo, RunError<S::Error>>, (usize, usize)) {
        if selection.is_empty() {
            return (self.run(sink, progress), (0, 0));
        }
        let mut selected = Selected::new(selection, sink);
        let done = self.run(&mut selected, progress);
        (done, selected.set_aside())
    }

    /// Reads every input, in order, into `sink` (and tells `progress`).
    /// Err when no thread pool can be made, or when the sink stops the run.
    pub fn run<S: Sink + ?Sized>(
        &self,
        sink: &mut S,
        progress: Option<&mut dyn Progress>,
    ) -> Result<RunInfo, RunError<S::Error>> {
        let mut b = rayon::ThreadPoolBuilder::new();
        if let Some(j) = self.jobs {
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            b = b.num_threads(j.min(cores.saturating_mul(MAX_JOBS_PER_CORE)));
        }
        let pool = b
            .build()
            .map_err(|e| RunError::Threads(std::io::Error::other(e)))?;
        match run(self, &pool, sink, progress) {
            (info, None) => Ok(info),
            (info, Some(error)) => Err(RunError::Stopped { error, info }),
        }
    }
}

/// The output stage: hands items to the sink, counts, tells the progress.
struct OutputStage<'a> {
    names: Vec<String>,
    opts: &'a Options,
    /// Per input: the bytes of it and every input before it.
    ends: Vec<u64>,
    position: u64,
    games_done: u64,
    games_with_errors: u64,
    unreadable: usize,
    skipped: usize,
    skipped_named: usize,
    named: &'a [bool],
    tally: FileTally,
}

impl OutputStage<'_> {
    fn status(&self, current: Option<usize>) -> Status<'_> {
        Status {
            bytes_done: self.position,
            bytes_total: self.ends.last().copied().unwrap_or(0),
            games: self.games_done,
            games_with_errors: self.games_with_errors,
            file: current
                .and_then(|fi| self.names.get(fi))
                .map(String::as_str),
        }
    }

    /// A file is read to its end: the position stands at the bytes of every
    /// file so far (game text leaves out blank lines and byte order marks).
    fn file_end(&mut self, fi: usize) {
        if let Some(done) = self.ends.get(fi) {
            self.position = *done;
        }
    }

    /// Hands one item and its report to the sink.
    fn item<S: Sink + ?Sized>(
        &mut self,
        it: &Item,
        r: Option<&GameReport>,
        sink: &mut S,
    ) -> ControlFlow<S::Error> {
        match (it, r) {
            (Item::Game(fi, p), Some(r)) => {
                let g = p.game();
                self.games_done += 1;
                self.games_with_errors += u64::from(r.checked && !r.valid());
                self.tally.add(g, r);
                return sink.game(&self.names[*fi], g, r);
            }
            (Item::Done(fi, inference), _) => {
                self.file_end(*fi);
                let findings = std::mem::take(&mut self.tally).finish(inference, self.opts);
                sink.file_done(&self.names[*fi], &findings);
            }
            (Item::Error(fi, kind, msg), _) => {
                self.unreadable += 1;
                sink.file_error(&FileError {
                    path: self.names[*fi].clone(),
                    kind: *kind,
                    message: msg.clone(),
                });
            }
            (Item::Member(mi, name), _) => {
                // Members come in order, so this is a push; never an index out of range.
                if self.names.len() <= *mi {
                    self.names.resize(*mi + 1, String::new());
                }
                self.names[*mi] = name.clone();
            }
            (Item::ArchiveDone(fi), _) => self.file_end(*fi),
            (Item::Skipped(fi, why), _) => {
                // A member skipped does not count against the run: the inputs do.
                self.skipped += usize::from(*fi < self.named.len());
                self.skipped_named += usize::from(self.named.get(*fi).copied().unwrap_or(false));
                sink.file_skipped(&self.names[*fi], why);
            }
            (Item::Note(fi, note), _) => sink.file_note(&self.names[*fi], note),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    /// Hands a checked batch to the sink, then its end.
    fn batch<S: Sink + ?Sized>(
        &mut self,
        batch: &[Item],
        reports: &[Option<GameReport>],
        sink: &mut S,
        progress: &mut Option<&mut dyn Progress>,
    ) -> ControlFlow<S::Error> {
        let mut current = None;
        for (it, r) in batch.iter().zip(reports) {
            if let Item::Game(fi, p) = it {
                self.position += p.game().text().len() as u64;
                current = Some(*fi);
            }
            self.item(it, r.as_ref(), sink)?;
        }
        let written = sink.batch_done();
        if let Some(p) = progress {
            p.update(&self.status(current));
        }
        written
    }
}

/// Runs every input through the check and `sink`: how it went, and the
/// sink's error if it stopped the run.
fn run<S: Sink + ?Sized>(
    b: &Batch,
    pool: &rayon::ThreadPool,
    sink: &mut S,
    mut progress: Option<&mut dyn Progress>,
) -> (RunInfo, Option<S::Error>) {
    let inputs = &b.inputs[..];
    let opts = &b.opts;
    let all_files = b.all_files;
    let ends: Vec<u64> = inputs
        .iter()
        .map(Input::size)
        .scan(0u64, |sum, s| {
            *sum += s;
            Some(*sum)
        })
        .collect();
    let mut out = OutputStage {
        names: inputs.iter().map(Input::name).collect(),
        opts,
        ends,
        position: 0,
        games_done: 0,
        games_with_errors: 0,
        unreadable: 0,
        skipped: 0,
        skipped_named: 0,
        named: &b.named,
        tally: FileTally::default(),
    };
    // Four stages joined by bounded channels: the reading thread cuts the
    // text into pieces; the stitching thread has them read on the pool,
    // stitches their games in order and has them checked on the pool in
    // batches; the output here takes each batch's result in input order.
    let in_flight = InFlight::default();
    let stopped = std::thread::scope(|scope| {
        let (feed_tx, feed_rx) = std::sync::mpsc::sync_channel::<feed::Feed>(FEED_AHEAD);
        let (out_tx, out_rx) =
            std::sync::mpsc::sync_channel::<std::sync::mpsc::Receiver<Checked>>(READ_AHEAD);
        let in_flight = &in_flight;
        scope.spawn(move || feed::read_inputs(inputs, opts, all_files, &feed_tx));
        let names: Vec<crate::infer::FileName> = inputs
            .iter()
            .zip(&b.roots)
            .map(|(i, r)| crate::infer::FileName::new(&i.name(), &r.display().to_string()))
            .collect();
        scope.spawn(move || {
            pool.in_place_scope(|s| stitch::run(names, feed_rx, out_tx, s, pool, opts, in_flight));
        });
        for rx in out_rx {
            let Ok((batch, reports)) = rx.recv() else {
                break;
            };
            in_flight.give(batch_bytes(&batch));
            if let ControlFlow::Break(e) = out.batch(&batch, &reports, sink, &mut progress) {
                in_flight.close();
                // Dropping the receiver stops the other stages at their next batch.
                return Some(e);
            }
            // Freed on the pool, where the games were made.
            pool.spawn(move || drop(batch));
        }
        None
    });
    let completed = stopped.is_none();
    if let Some(p) = progress {
        if completed {
            out.position = out.ends.last().copied().unwrap_or(out.position);
        }
        p.finish(&out.status(None), completed);
    }
    let info = RunInfo {
        completed,
        unreadable: out.unreadable,
        skipped: out.skipped,
        skipped_named: out.skipped_named,
    };
    (info, stopped)
}

/// What a file is when its first bytes show it is not PDN (an HTML page, an
/// SVG, a Parquet file, a CSV table); `None` also when it cannot be read.
pub fn file_not_pdn(p: &std::path::Path) -> Option<&'static str> {
    let mut head = Vec::with_capacity(crate::pdn::sniff::BINARY_PROBE);
    let f = std::fs::File::open(p).ok()?;
    f.take(crate::pdn::sniff::BINARY_PROBE as u64)
        .read_to_end(&mut head)
        .ok()?;
    crate::pdn::sniff::not_pdn(&head)
}

/// A sink that passes on only the games a selection keeps (`--player`,
/// `--valid`, ...); everything about files passes through.
pub struct Selected<'a, S: Sink + ?Sized> {
    selection: &'a crate::select::Selection,
    inner: &'a mut S,
    /// Whether the file being read gave a selected game.
    kept_in_file: bool,
    /// Files with no selected game whose findings were set aside, and those
    /// findings.
    set_aside: (usize, usize),
}

impl<'a, S: Sink + ?Sized> Selected<'a, S> {
    /// A sink that passes the games `selection` keeps on to `inner`.
    pub fn new(selection: &'a crate::select::Selection, inner: &'a mut S) -> Self {
        Selected {
            selection,
            inner,
            kept_in_file: false,
            set_aside: (0, 0),
        }
    }
    /// The files with no selected game whose findings about the whole file
    /// were not passed on, and how many findings: the selection selects the
    /// findings too (a refusal of a file that holds none of the games asked
    /// for says nothing of them).
    pub fn set_aside(&self) -> (usize, usize) {
        self.set_aside
    }
}

impl<S: Sink + ?Sized> Sink for Selected<'_, S> {
    type Error = S::Error;
    fn game(&mut self, file: &str, g: &Game, r: &GameReport) -> ControlFlow<S::Error> {
        if self.selection.matches(g, r) {
            self.kept_in_file = true;
            self.inner.game(file, g, r)
        } else {
            ControlFlow::Continue(())
        }
    }
    fn file_error(&mut self, error: &FileError) {
        self.inner.file_error(error);
    }
    fn batch_done(&mut self) -> ControlFlow<S::Error> {
        self.inner.batch_done()
    }
    fn file_skipped(&mut self, file: &str, why: &str) {
        self.inner.file_skipped(file, why);
    }
    fn file_note(&mut self, file: &str, note: &str) {
        self.inner.file_note(file, note);
    }
    fn file_done(&mut self, file: &str, findings: &[FileDiagnostic]) {
        if self.kept_in_file || findings.is_empty() {
            self.inner.file_done(file, findings);
        } else {
            self.set_aside.0 += 1;
            self.set_aside.1 += findings.len();
            self.inner.file_done(file, &[]);
        }
        self.kept_in_file = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::model::FileError;
    use std::io::Write as _;

    /// Everything a run hands its sink, in order.
    #[derive(Default)]
    struct Record {
        events: Vec<String>,
        stop_after: Option<usize>,
        games: usize,
    }

    impl Sink for Record {
        type Error = &'static str;
        fn game(&mut self, file: &str, g: &Game, r: &GameReport) -> ControlFlow<&'static str> {
            self.games += 1;
            self.events
                .push(format!("game {file} {} {}", g.index(), r.valid()));
            if self.stop_after.is_none_or(|n| self.games < n) {
                ControlFlow::Continue(())
            } else {
                ControlFlow::Break("enough")
            }
        }
        fn file_error(&mut self, e: &FileError) {
            self.events.push(format!("error {} {}", e.path, e.message));
        }
        fn file_skipped(&mut self, file: &str, why: &str) {
            self.events.push(format!("skipped {file} {why}"));
        }
        fn file_done(&mut self, file: &str, findings: &[FileDiagnostic]) {
            self.events.push(format!("done {file} {}", findings.len()));
        }
    }

    fn games(n: usize, tag: &str) -> Vec<u8> {
        (0..n)
            .map(|i| {
                format!(
                    "[Event \"{tag} {i}\"]\n[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n"
                )
            })
            .collect::<String>()
            .into_bytes()
    }

    fn run(b: &Batch) -> (RunInfo, Vec<String>) {
        let mut sink = Record::default();
        let info = b.run(&mut sink, None).expect("a complete run");
        (info, sink.events)
    }

    #[test]
    fn games_come_in_input_order_whatever_the_threads() {
        let make = |jobs| {
            Batch::new(Options::default())
                .jobs(jobs)
                .bytes("a.pdn", games(700, "a"))
                .bytes("b.pdn", games(3, "b"))
                .bytes("c.pdn", games(500, "c"))
        };
        let (info, one) = run(&make(1));
        assert!(info.completed);
        assert_eq!(one.len(), 700 + 3 + 500 + 3);
        // Each file's games in order, then its end, files in input order.
        let mut expected = Vec::new();
        for (name, n) in [("a.pdn", 700), ("b.pdn", 3), ("c.pdn", 500)] {
            expected.extend((1..=n).map(|i| format!("game {name} {i} true")));
            expected.push(format!("done {name} 0"));
        }
        assert_eq!(one, expected);
        for jobs in [2, 4] {
            assert_eq!(run(&make(jobs)).1, one, "-j{jobs}");
        }
    }

    #[test]
    fn a_sink_that_stops_stops_the_run() {
        // 60,000 games (about 4 MB): the run ends after the first batch, not
        // after reading them all.
        let b = Batch::new(Options::default())
            .jobs(2)
            .bytes("big.pdn", games(60_000, "x"));
        let mut sink = Record {
            stop_after: Some(1),
            ..Record::default()
        };
        let Err(RunError::Stopped { error, info }) = b.run(&mut sink, None) else {
            panic!("the sink stopped the run");
        };
        assert_eq!(error, "enough");
        assert!(!info.completed);
        assert_eq!(sink.games, 1);
        assert_eq!(sink.events.len(), 1, "nothing after the stop");
    }

    #[test]
    fn a_read_error_in_the_middle_keeps_the_games_before_it() {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(&games(2_000, "g")).expect("memory");
        let mut gz = e.finish().expect("memory");
        gz.truncate(gz.len() / 2);
        let b = Batch::new(Options::default())
            .bytes("half.pdn.gz", gz)
            .bytes("next.pdn", games(2, "n"));
        let (info, events) = run(&b);
        assert!(info.completed);
        assert_eq!(info.unreadable, 1);
        let read = events
            .iter()
            .filter(|e| e.starts_with("game half.pdn.gz"))
            .count();
        assert!(read > 100 && read < 2_000, "{read} games before the break");
        // The games, the file's end (its findings), then its error; then the next file.
        let done = events
            .iter()
            .position(|e| e == "done half.pdn.gz 0")
            .expect("the file's end");
        assert!(events[..done]
            .iter()
            .all(|e| e.starts_with("game half.pdn.gz")));
        assert!(
            events[done + 1]
                .starts_with("error half.pdn.gz read error: half.pdn.gz: the gzip stream broken"),
            "{}",
            events[done + 1]
        );
        assert_eq!(
            &events[done + 2..],
            [
                "game next.pdn 1 true",
                "game next.pdn 2 true",
                "done next.pdn 0"
            ]
        );
    }

    #[test]
    fn binary_bytes_are_skipped_with_the_reason() {
        let b = Batch::new(Options::default())
            .bytes("zeros.pdn", vec![0u8; 20_000])
            .bytes("ok.pdn", games(1, "o"));
        let (info, events) = run(&b);
        assert_eq!((info.skipped, info.skipped_named), (1, 1));
        assert!(
            events[0].starts_with("skipped zeros.pdn binary file"),
            "{events:?}"
        );
        assert_eq!(&events[1..], ["game ok.pdn 1 true", "done ok.pdn 0"]);
    }
}
