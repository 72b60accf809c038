//! The vocabulary the stages of a run share: what they hand on ([`Item`]),
//! the bytes in flight between the reader and the output, and a file's error.

use crate::check::Pending;
use crate::infer::Inference;
use std::path::Path;
use std::sync::Arc;

/// Bytes of game text read ahead of the output, at most (besides one batch):
/// a few huge games cannot fill the read-ahead (docs/limits.md).
const READ_AHEAD_BYTES: usize = 64 << 20;

/// Bytes of game text between the reader and the output, with a ceiling.
#[derive(Default)]
pub(crate) struct InFlight {
    /// Bytes in flight, and whether the output has stopped (nothing waits then).
    bytes: std::sync::Mutex<(usize, bool)>,
    freed: std::sync::Condvar,
}

impl InFlight {
    /// Waits until `n` more bytes fit (a batch alone always fits), then counts them.
    pub(crate) fn take(&self, n: usize) {
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
    pub(crate) fn give(&self, n: usize) {
        if let Ok(mut state) = self.bytes.lock() {
            state.0 = state.0.saturating_sub(n);
        }
        self.freed.notify_all();
    }
    /// The output stopped: the reader must not wait any more.
    pub(crate) fn close(&self) {
        if let Ok(mut state) = self.bytes.lock() {
            state.1 = true;
        }
        self.freed.notify_all();
    }
}

pub(crate) fn batch_bytes(batch: &[Item]) -> usize {
    batch
        .iter()
        .map(|it| match it {
            Item::Game(_, p) => p.game().text().len(),
            _ => 0,
        })
        .sum()
}

/// What could not be read, as a [`FileError`] says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FileErrorKind {
    /// A PATH that could not be found, opened or walked: it is not an input
    /// of the run ([`Batch::problems`](crate::batch::Batch::problems)).
    Path,
    /// A file that could not be opened, or not read from its start as
    /// what it is.
    Open,
    /// An archive, or a member of one, that could not be read (a damaged
    /// directory, a member that is not there).
    Archive,
    /// Reading stopped partway (a broken stream, a truncated file): the
    /// games before the break were handed on.
    Broken,
}

/// A file, a PATH or an archive's member that could not be read, with where
/// and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct FileError {
    /// The file as the run names it (`dir/a.pdn`, `games.zip!a.pdn`), or
    /// the PATH as given, as it is (escape its control characters before
    /// printing it to a terminal: [`Snippet::visible`](crate::pdn::Snippet::visible)).
    pub path: String,
    /// What failed.
    pub kind: FileErrorKind,
    /// Why, from the system or the decoder.
    pub message: String,
}

impl FileError {
    /// A PATH that could not be read or walked.
    pub(crate) fn path(p: &Path, message: String) -> FileError {
        FileError {
            path: p.to_string_lossy().into_owned(),
            kind: FileErrorKind::Path,
            message,
        }
    }
}

/// What the reading and stitching stages hand on, in input order.
pub(crate) enum Item {
    Game(usize, Pending),
    Done(usize, Arc<Inference>),
    /// A file not read, or not to its end: its number, what failed, why.
    Error(usize, FileErrorKind, String),
    /// Not read: a binary file.
    Skipped(usize, String),
    /// Something said of a file that is no finding about its games (NUL
    /// padding after a gzip stream).
    Note(usize, String),
    /// A member of an archive, read as file `.0` of its own: the archive's
    /// number and the member's name.
    Member(usize, String),
    /// An archive was read to its end.
    ArchiveDone(usize),
}
