//! The pipeline every door that reads paths uses: the command line, the
//! Rust API ([`Batch`]), Python and Dask (issue 39). [`check_file`](crate::check_file)
//! checks one text on the calling thread with the same per-file decisions
//! ([`crate::check::FileCheck`]), without the pipeline's reading of paths,
//! archives and compressed streams.
//!
//! A [`Batch`] names its inputs (files, folders walked in name order,
//! standard input, bytes) and its [`Options`](crate::replay::Options); [`Batch::run`] reads them the
//! way `pdnkit check` reads them and hands every game with its report, in
//! input order, to a [`Sink`] the caller implements, with the findings about
//! each file when it ends.
//!
//! - Content, not names, says what a file is: gzip, zstd, bzip2 and xz
//!   streams are decoded; zip and tar archives are walked, each member a
//!   file of its own named `archive.zip!member` (a second member of the same
//!   name `!member#2`); binary files and other formats (HTML, SVG, Parquet,
//!   CSV) are skipped with the reason ([`Sink::file_skipped`]).
//! - Reading is parallel (`jobs` threads): a reading thread cuts each text
//!   into pieces at likely game boundaries, the pieces are read on the pool
//!   and stitched back into the games one reader would read, each file's
//!   variant is decided from its first games ([`check`](crate::check)), and
//!   games are checked in batches. The output is the same for every number
//!   of threads, byte for byte.
//! - Memory is bounded by the batches in flight and the game size limit
//!   ([`Options::max_game_bytes`](crate::replay::Options::max_game_bytes)), never by the input.
//! - A read error (a broken stream, a truncated archive) ends its file: the
//!   games read before it are handed on, then [`Sink::file_error`] with a
//!   [`FileError`] (the file, what failed, why); the run goes on. A sink
//!   stops the run by returning [`ControlFlow::Break`](std::ops::ControlFlow::Break) with its own error.
//! - [`RunInfo`] only counts (files unreadable, skipped); whether that fails
//!   a run is the caller's policy.
//!
//! ```
//! use pdnkit::batch::{Batch, FileError, Sink};
//! use pdnkit::diag::FileDiagnostic;
//! use pdnkit::{Game, GameReport, Options};
//! use std::ops::ControlFlow;
//!
//! #[derive(Default)]
//! struct Count { games: usize, valid: usize, files: usize }
//!
//! impl Sink for Count {
//!     type Error = std::convert::Infallible; // this sink never stops a run
//!     fn game(&mut self, _file: &str, _g: &Game, r: &GameReport) -> ControlFlow<Self::Error> {
//!         self.games += 1;
//!         self.valid += usize::from(r.valid());
//!         ControlFlow::Continue(()) // Break(error) would stop the run
//!     }
//!     fn file_error(&mut self, error: &FileError) {
//!         eprintln!("{error}"); // path: why
//!     }
//!     fn file_done(&mut self, _file: &str, _findings: &[FileDiagnostic]) {
//!         self.files += 1;
//!     }
//! }
//!
//! let text = b"[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 *\n".to_vec();
//! let mut count = Count::default();
//! let run = Batch::new(Options::default())
//!     .bytes("games.pdn", text)
//!     .jobs(2)
//!     .run(&mut count, None)?;
//! assert!(run.completed);
//! assert_eq!((count.games, count.valid, count.files), (1, 1, 1));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod archive;
mod feed;
mod input;
mod model;
mod run;
mod stitch;
mod zipdir;

pub use crate::pdn::sniff::packed;
pub use input::{member_path, merged, Input};

pub use model::{FileError, FileErrorKind};
pub use run::{
    file_not_pdn, Batch, Progress, RunError, RunInfo, Selected, Sink, Status, MAX_JOBS_PER_CORE,
};
