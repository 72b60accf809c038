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

use pdnkit::batch::{Batch, RunInfo, Sink};
use pdnkit::diag::FileDiagnostic;
use pdnkit::export::{FileRecord, GameRecord};
use pdnkit::{Game, GameReport, Options};
use std::io::Write;

/// A sink that writes JSON lines.
pub struct JsonLines<W: Write> {
    pub out: W,
    pub failed: Option<std::io::Error>,
}

impl<W: Write> JsonLines<W> {
    fn line(&mut self, value: &impl serde::Serialize) -> bool {
        let written = serde_json::to_writer(&mut self.out, value)
            .map_err(std::io::Error::from)
            .and_then(|()| self.out.write_all(b"\n"));
        if let Err(e) = written {
            self.failed = Some(e);
        }
        self.failed.is_none()
    }
}

impl<W: Write> Sink for JsonLines<W> {
    fn game(&mut self, file: &str, g: &Game, r: &GameReport) -> bool {
        self.line(&GameRecord::new(file, g, r))
    }
    fn file_error(&mut self, file: &str, msg: &str) {
        eprintln!("{file}: {msg}");
    }
    fn file_skipped(&mut self, file: &str, why: &str) {
        eprintln!("{file}: skipped: {why}");
    }
    fn file_done(&mut self, file: &str, findings: &[FileDiagnostic]) {
        if !findings.is_empty() {
            self.line(&FileRecord::new(file, findings));
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
    let info = batch.run(&mut sink, None)?;
    match sink.failed {
        Some(e) => Err(e),
        None => Ok(info),
    }
}

#[allow(dead_code)]
fn main() -> std::io::Result<()> {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let info = check(&paths, jobs, std::io::stdout().lock())?;
    std::process::exit(i32::from(!info.completed || info.unreadable > 0));
}
