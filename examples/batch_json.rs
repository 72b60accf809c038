//! The library's pipeline (`pdnkit::batch`) writing what `pdnkit check
//! --format json` writes: one JSON line per game, then one per file with
//! findings, in input order. PATHs are read as the command line reads them
//! (folders, archives, compressed streams; binary files skipped).
//!
//! ```sh
//! cargo run --example batch_json -- corpus/ games.pdn.gz
//! ```
//! `tests/it/doors.rs` checks that its output is the command line's, byte
//! for byte, on every kind of input.

use pdnkit::batch::{Batch, FileError, RunError, RunInfo, Sink};
use pdnkit::diag::FileDiagnostic;
use pdnkit::export::{FileRecord, GameRecord};
use pdnkit::{Game, GameReport, Options};
use std::io::Write;
use std::ops::ControlFlow;

/// A sink that writes JSON lines; a failed write stops the run with its error.
pub struct JsonLines<W: Write> {
    pub out: W,
    /// A write of a file's findings that failed: the run stops at the end
    /// of its batch.
    pub failed: Option<std::io::Error>,
}

impl<W: Write> JsonLines<W> {
    fn line(&mut self, value: &impl serde::Serialize) -> std::io::Result<()> {
        serde_json::to_writer(&mut self.out, value)
            .map_err(std::io::Error::from)
            .and_then(|()| self.out.write_all(b"\n"))
    }
}

impl<W: Write> Sink for JsonLines<W> {
    type Error = std::io::Error;
    fn game(&mut self, file: &str, g: &Game, r: &GameReport) -> ControlFlow<std::io::Error> {
        match self.line(&GameRecord::new(file, g, r)) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => ControlFlow::Break(e),
        }
    }
    fn file_error(&mut self, error: &FileError) {
        eprintln!("{error}");
    }
    fn file_skipped(&mut self, file: &str, why: &str) {
        eprintln!("{file}: skipped: {why}");
    }
    fn batch_done(&mut self) -> ControlFlow<std::io::Error> {
        match self.failed.take() {
            Some(e) => ControlFlow::Break(e),
            None => ControlFlow::Continue(()),
        }
    }
    fn file_done(&mut self, file: &str, findings: &[FileDiagnostic]) {
        if !findings.is_empty() && self.failed.is_none() {
            self.failed = self.line(&FileRecord::new(file, findings)).err();
        }
    }
}

/// Checks `paths` with `jobs` threads into `out`.
pub fn check<W: Write>(paths: &[String], jobs: usize, out: W) -> std::io::Result<RunInfo> {
    let batch = Batch::new(Options::default()).jobs(jobs).paths(paths);
    for p in batch.problems() {
        eprintln!("{p}");
    }
    let mut sink = JsonLines { out, failed: None };
    match batch.run(&mut sink, None) {
        Ok(info) => Ok(info),
        Err(RunError::Threads(e)) | Err(RunError::Stopped { error: e, .. }) => Err(e),
    }
}

#[allow(dead_code)]
fn main() -> std::io::Result<()> {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let info = check(&paths, jobs, std::io::stdout().lock())?;
    std::process::exit(i32::from(!info.completed || info.unreadable > 0));
}
