//! Where output goes, and what happens when writing fails.
//!
//! - Standard output: a closed pipe ends the run quietly; any other write
//!   error is reported with the system's reason and the run fails (status 2).
//! - `-o FILE` (and `--in-place`): a regular file or a new path is written
//!   under a temporary name beside it and renamed over it only when complete,
//!   keeping the original's permissions; a symlink is followed to its target;
//!   a device or a FIFO is written directly, never replaced. A file the user
//!   may not write is refused. Temporary files are removed on Ctrl-C and
//!   SIGTERM as well as on failure.

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Temporary files being written, removed if the process is interrupted.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Installs the handler that removes pending temporary files on Ctrl-C,
/// SIGTERM and SIGHUP, then exits with 130. Called once, before any output file is created.
pub fn install_signal_cleanup() {
    let _ = ctrlc::set_handler(|| {
        if let Ok(files) = PENDING.lock() {
            for f in files.iter() {
                let _ = std::fs::remove_file(f);
            }
        }
        eprintln!("pdnkit: interrupted");
        std::process::exit(130);
    });
}

fn register(p: &Path) {
    if let Ok(mut v) = PENDING.lock() {
        v.push(p.to_path_buf());
    }
}

fn unregister(p: &Path) {
    if let Ok(mut v) = PENDING.lock() {
        v.retain(|x| x != p);
    }
}

/// Why writing stopped.
#[derive(Debug)]
pub enum Stop {
    /// Standard output was closed by its reader: end quietly.
    Closed,
    /// A real failure, with its message (`cannot write out.csv: No space left on device`).
    Failed(String),
}

impl Stop {
    /// Classifies a write error on `what` (a path, or "standard output").
    pub fn of(e: &io::Error, what: &str, stdout: bool) -> Stop {
        if stdout && e.kind() == io::ErrorKind::BrokenPipe {
            Stop::Closed
        } else {
            Stop::Failed(format!("cannot write {what}: {e}"))
        }
    }
    /// Reports a failure on stderr; returns the exit status: `so_far` for a
    /// closed pipe, 2 for a failure.
    pub fn report(&self, so_far: u8) -> u8 {
        match self {
            Stop::Closed => so_far,
            Stop::Failed(m) => {
                eprintln!("pdnkit: {m}");
                crate::EXIT_FAILED
            }
        }
    }
}

/// Writes `text` to standard output and flushes it.
pub fn print(text: &str) -> Result<(), Stop> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| Stop::of(&e, "standard output", true))
}

/// A file written under a temporary name next to its destination and renamed
/// over it only when complete, so a failed run never leaves half a file.
pub struct AtomicFile {
    tmp: PathBuf,
    dest: PathBuf,
    /// The permissions to give the result (those of the file it replaces).
    mode: Option<std::fs::Permissions>,
    file: Option<BufWriter<File>>,
}

/// Follows symlinks from `p` to the path they finally name (which may not exist yet).
fn resolve(p: &Path) -> io::Result<PathBuf> {
    let mut p = p.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let target = std::fs::read_link(&p)?;
                p = match p.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            _ => return Ok(p),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

impl AtomicFile {
    /// Starts writing `dest` (a symlink is followed to its target). An existing
    /// file must be writable by the user; its permissions are kept.
    pub fn create(dest: &Path) -> io::Result<AtomicFile> {
        let dest = resolve(dest)?;
        let mode = match std::fs::metadata(&dest) {
            Ok(m) => {
                // Refuse what the user may not write (opening for writing
                // without truncating checks that and changes nothing).
                OpenOptions::new()
                    .write(true)
                    .open(&dest)
                    .map_err(|e| io::Error::new(e.kind(), format!("{e}; not replacing it")))?;
                Some(m.permissions())
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(e),
        };
        let name = dest
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "out".into());
        let tmp = dest.with_file_name(format!(".{name}.pdnkit-{}.tmp", std::process::id()));
        register(&tmp);
        let file = match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => f,
            Err(e) => {
                unregister(&tmp);
                return Err(e);
            }
        };
        Ok(AtomicFile {
            tmp,
            dest,
            mode,
            file: Some(BufWriter::new(file)),
        })
    }

    /// The path written (after following symlinks).
    pub fn dest(&self) -> &Path {
        &self.dest
    }

    /// Finishes: flushes, syncs and renames over the destination. With `backup`,
    /// an existing destination is first renamed to `NAME.bak` (never overwriting one).
    pub fn commit(mut self, backup: bool) -> io::Result<()> {
        let done = self.finish_rename(backup);
        if done.is_err() {
            let _ = std::fs::remove_file(&self.tmp);
        }
        unregister(&self.tmp);
        done
    }

    fn finish_rename(&mut self, backup: bool) -> io::Result<()> {
        if let Some(mut f) = self.file.take() {
            f.flush()?;
            if let Some(mode) = &self.mode {
                f.get_ref().set_permissions(mode.clone())?;
            }
            f.get_ref().sync_all()?;
        }
        if backup && self.dest.exists() {
            let mut bak = self.dest.clone().into_os_string();
            bak.push(".bak");
            let bak = PathBuf::from(bak);
            if bak.exists() {
                return Err(io::Error::new(
                    io::ErrorKind::AlreadyExists,
                    format!("{} already exists; not overwriting it", bak.display()),
                ));
            }
            std::fs::rename(&self.dest, &bak)?;
        }
        std::fs::rename(&self.tmp, &self.dest)
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.file {
            Some(f) => f.write(buf),
            None => Err(io::Error::other("file already committed")),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match &mut self.file {
            Some(f) => f.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.is_some() {
            // Not committed: remove the partial temporary file.
            self.file = None;
            let _ = std::fs::remove_file(&self.tmp);
            unregister(&self.tmp);
        }
    }
}

/// Whether two paths name the same existing file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// Standard output, an atomically written file, or a device or FIFO written directly.
pub enum Out {
    Stdout(BufWriter<io::Stdout>),
    File(AtomicFile),
    Device(BufWriter<File>, PathBuf),
}

impl Out {
    /// Opens `-o PATH`: a device or FIFO (after following symlinks) is written
    /// directly; anything else atomically.
    pub fn open(path: &Path) -> io::Result<Out> {
        let target = resolve(path)?;
        match std::fs::metadata(&target) {
            Ok(m) if !m.is_file() && !m.is_dir() => {
                let f = OpenOptions::new().write(true).open(&target)?;
                Ok(Out::Device(BufWriter::new(f), target))
            }
            _ => AtomicFile::create(path).map(Out::File),
        }
    }

    /// What the output is called in messages.
    pub fn name(&self) -> String {
        match self {
            Out::Stdout(_) => "standard output".into(),
            Out::File(f) => f.dest().display().to_string(),
            Out::Device(_, p) => p.display().to_string(),
        }
    }

    /// Whether this is standard output (where a closed pipe is quiet).
    pub fn is_stdout(&self) -> bool {
        matches!(self, Out::Stdout(_))
    }

    /// Flushes; a file is committed only when `complete`, else removed.
    pub fn finish(self, complete: bool) -> io::Result<()> {
        match self {
            Out::Stdout(mut w) => w.flush(),
            Out::Device(mut w, _) => w.flush(),
            Out::File(f) if complete => f.commit(false),
            Out::File(f) => {
                drop(f);
                Ok(())
            }
        }
    }
}

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Out::Stdout(w) => w.write(buf),
            Out::File(f) => f.write(buf),
            Out::Device(w, _) => w.write(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Out::Stdout(w) => w.flush(),
            Out::File(f) => f.flush(),
            Out::Device(w, _) => w.flush(),
        }
    }
}
