//! Where output goes, and what happens when writing fails.
//!
//! - Standard output: a closed pipe ends the run quietly; any other write
//!   error is reported with the system's reason and the run fails (status 2).
//! - `-o FILE` (and `--in-place`): a regular file or a new path is written
//!   under a temporary name beside it (created exclusively) and renamed over
//!   it only when complete, keeping the original's owner, group, mode and
//!   extended attributes (ACLs among them), or refusing when they cannot be
//!   kept; a symlink at the destination is refused, never followed; a device
//!   or a FIFO is written directly, never replaced; `-` and `/dev/stdout` are
//!   standard output. A file the user may not write is refused.
//! - `--in-place`: only a regular file with one link is rewritten. Its backup
//!   `NAME.bak` is made first as a hard link created exclusively (a copy
//!   opened with `O_EXCL` where links are not possible), so no backup is ever
//!   overwritten and two runs cannot both rewrite a file; then the new content
//!   is renamed over NAME in one step, so NAME always exists, old or new.
//! - Signals (Ctrl-C, SIGTERM, SIGHUP): the handler waits for a rename under
//!   way to finish, removes the temporary files, and exits with 130; it never
//!   removes a file a rename still needs.

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Temporary files and folders being written, removed if the process is
/// interrupted (`true`: a folder, removed with all it holds). The lock is
/// held while a temporary file is created and while a file is committed
/// (backup and rename), so the signal handler never runs in between.
static PENDING: Mutex<Vec<(PathBuf, bool)>> = Mutex::new(Vec::new());

fn pending() -> std::sync::MutexGuard<'static, Vec<(PathBuf, bool)>> {
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Installs the handler that removes pending temporary files on Ctrl-C,
/// SIGTERM and SIGHUP, then exits with 130. Called once, before any output file is created.
pub fn install_signal_cleanup() {
    let _ = ctrlc::set_handler(|| {
        // Waits for a commit under way; the lock is never given back, so no
        // temporary file is created or renamed after this.
        let files = pending();
        for (f, folder) in files.iter() {
            let _ = if *folder {
                std::fs::remove_dir_all(f)
            } else {
                std::fs::remove_file(f)
            };
        }
        crate::exit::interrupted();
    });
}

/// Creates `tmp` exclusively and registers it, with the handler kept out.
fn create_registered(tmp: &Path) -> io::Result<File> {
    let mut files = pending();
    let f = OpenOptions::new().write(true).create_new(true).open(tmp)?;
    files.push((tmp.to_path_buf(), false));
    Ok(f)
}

fn unregister(p: &Path) {
    pending().retain(|(x, _)| x != p);
}

/// Why writing stopped: the error of every command's sink, handed back by
/// `Prepared::run`.
#[derive(Clone, Debug)]
pub enum Stop {
    /// Standard output was closed by its reader: end quietly.
    Closed,
    /// The sink has all it takes (the report's limit of games): end, and
    /// let the command say why.
    Enough,
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
    /// Says a failure on standard error, which fails the run (status 2); a
    /// closed pipe and a full sink are quiet and leave the status as it is.
    pub fn report(&self) {
        if let Stop::Failed(m) = self {
            crate::exit::fail(m);
        }
    }
}

/// A result as the run's answer: its value, or the run stops with the error.
pub trait OrStop<T> {
    /// `Continue(value)`, or `Break(stop)`.
    fn or_stop(self) -> ControlFlow<Stop, T>;
}

impl<T> OrStop<T> for Result<T, Stop> {
    fn or_stop(self) -> ControlFlow<Stop, T> {
        match self {
            Ok(v) => ControlFlow::Continue(v),
            Err(stop) => ControlFlow::Break(stop),
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

/// What a file being replaced is, and must stay: its owner, group, mode and
/// extended attributes, and which file it is (device and inode).
struct Kept {
    uid: u32,
    gid: u32,
    mode: std::fs::Permissions,
    xattrs: Vec<(std::ffi::OsString, Vec<u8>)>,
    id: (u64, u64),
}

impl Kept {
    fn of(path: &Path, meta: &std::fs::Metadata) -> io::Result<Kept> {
        use std::os::unix::fs::MetadataExt;
        let mut xattrs = Vec::new();
        // A file system without extended attributes has none to keep.
        if let Ok(names) = xattr::list(path) {
            for name in names {
                if let Some(value) = xattr::get(path, &name)? {
                    xattrs.push((name, value));
                }
            }
        }
        Ok(Kept {
            uid: meta.uid(),
            gid: meta.gid(),
            mode: meta.permissions(),
            xattrs,
            id: (meta.dev(), meta.ino()),
        })
    }
}

/// What a file was when it was read, to notice text written to it since
/// (`--in-place`): its length and modification time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    len: u64,
    mtime: (i64, i64),
}

impl Stamp {
    /// The stamp of `path` now (None when it cannot be read).
    pub fn of(path: &Path) -> Option<Stamp> {
        std::fs::symlink_metadata(path)
            .ok()
            .map(|m| Stamp::from(&m))
    }
    fn from(m: &std::fs::Metadata) -> Stamp {
        use std::os::unix::fs::MetadataExt;
        Stamp {
            len: m.len(),
            mtime: (m.mtime(), m.mtime_nsec()),
        }
    }
    /// The length it had.
    pub fn len(&self) -> u64 {
        self.len
    }
}

/// The message for a file written to while it was being rewritten.
fn written_meanwhile() -> io::Error {
    io::Error::other(
        "was written to while it was being rewritten (its length or time changed since it was read); left as it is, with what was written",
    )
}

/// How the destination of an [`AtomicFile`] is replaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Replace {
    /// `-o FILE`: replaced by rename.
    Output,
    /// `--in-place`: a regular file with one link only, backed up first as `NAME.bak`.
    InPlace,
}

/// A file written under a temporary name next to its destination and renamed
/// over it only when complete, so a failed run never leaves half a file.
pub struct AtomicFile {
    tmp: PathBuf,
    dest: PathBuf,
    how: Replace,
    /// What the file it replaces is (None: a new file).
    kept: Option<Kept>,
    /// `--in-place`: what the file was when it was read; a file changed
    /// since is left as it is.
    read_as: Option<Stamp>,
    file: Option<BufWriter<File>>,
}

impl AtomicFile {
    /// Starts writing `dest`. A symlink there is refused, never followed; an
    /// existing file must be writable by the user, and its owner, group, mode
    /// and extended attributes are kept. For `--in-place` the file must be a
    /// regular file with one link.
    pub fn create(dest: &Path, how: Replace) -> io::Result<AtomicFile> {
        let refuse = |why: String| io::Error::other(why);
        let kept = match std::fs::symlink_metadata(dest) {
            Ok(m) if m.file_type().is_symlink() => {
                return Err(refuse(
                    "is a symbolic link; not writing through it (name the file it points to)"
                        .into(),
                ))
            }
            Ok(m) if !m.is_file() => {
                return Err(refuse("is not a regular file; not replacing it".into()))
            }
            Ok(m) => {
                use std::os::unix::fs::MetadataExt;
                if how == Replace::InPlace && m.nlink() > 1 {
                    return Err(refuse(format!(
                        "has {} hard links; rewriting it would break them (left as it is)",
                        m.nlink()
                    )));
                }
                // Refuse what the user may not write (opening for writing
                // without truncating checks that and changes nothing).
                OpenOptions::new()
                    .write(true)
                    .open(dest)
                    .map_err(|e| io::Error::new(e.kind(), format!("{e}; not replacing it")))?;
                Some(Kept::of(dest, &m)?)
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound && how == Replace::Output => None,
            Err(e) => return Err(e),
        };
        let name = dest
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "out".into());
        let tmp = dest.with_file_name(format!(".{name}.pdnkit-{}.tmp", std::process::id()));
        let file = create_registered(&tmp)?;
        Ok(AtomicFile {
            tmp,
            dest: dest.to_path_buf(),
            how,
            kept,
            read_as: None,
            file: Some(BufWriter::new(file)),
        })
    }

    /// `--in-place`: the file was `stamp` when it was read. If text is
    /// written to it before the rename (its length or time differs), it is
    /// left as it is; if text comes during the rename itself, the original
    /// with that text is put back (from NAME.bak, which holds it).
    pub fn read_as(&mut self, stamp: Stamp) {
        self.read_as = Some(stamp);
    }

    /// The path written.
    pub fn dest(&self) -> &Path {
        &self.dest
    }

    /// Finishes: flushes, keeps the owner, group, mode and extended
    /// attributes, syncs, makes the backup (`--in-place`) and renames over the
    /// destination.
    pub fn commit(mut self) -> io::Result<()> {
        let done = self.finish_rename();
        if done.is_err() {
            let _ = std::fs::remove_file(&self.tmp);
        }
        unregister(&self.tmp);
        done
    }

    fn finish_rename(&mut self) -> io::Result<()> {
        if let Some(f) = self.file.take() {
            let f = f.into_inner().map_err(|e| e.into_error())?;
            if let Some(k) = &self.kept {
                use std::os::unix::fs::MetadataExt;
                let now = f.metadata()?;
                if (now.uid(), now.gid()) != (k.uid, k.gid) {
                    std::os::unix::fs::fchown(&f, Some(k.uid), Some(k.gid)).map_err(|e| {
                        io::Error::new(
                            e.kind(),
                            format!(
                                "cannot keep its owner and group ({}:{}): {e}; left as it was",
                                k.uid, k.gid
                            ),
                        )
                    })?;
                }
                f.set_permissions(k.mode.clone())?;
                for (name, value) in &k.xattrs {
                    xattr::set(&self.tmp, name, value).map_err(|e| {
                        io::Error::new(
                            e.kind(),
                            format!(
                                "cannot keep its extended attribute {}: {e}; left as it was",
                                name.to_string_lossy()
                            ),
                        )
                    })?;
                }
            }
            f.sync_all()?;
        }
        // From here to the rename the signal handler waits.
        let _guard = pending();
        let linked = self.how == Replace::InPlace && self.backup()?;
        std::fs::rename(&self.tmp, &self.dest)?;
        if let Some(stamp) = self.read_as.filter(|_| linked) {
            // The backup is the old file itself (a hard link): text written to
            // it during the rename is there. Put it back over NAME.
            let bak = self.backup_path();
            if Stamp::of(&bak).is_some_and(|now| now != stamp) {
                std::fs::rename(&bak, &self.dest)?;
                return Err(written_meanwhile());
            }
        }
        let dir = match self.dest.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    }

    /// `NAME.bak`, created exclusively: a hard link to the original (a copy
    /// opened with `O_EXCL` where the file system has no hard links). It must
    /// be the file that was read: if NAME was replaced meanwhile, nothing is
    /// renamed.
    fn backup_path(&self) -> PathBuf {
        let mut bak = self.dest.clone().into_os_string();
        bak.push(".bak");
        PathBuf::from(bak)
    }

    /// Makes `NAME.bak`; true when it is a hard link (the old file itself).
    fn backup(&self) -> io::Result<bool> {
        let bak = self.backup_path();
        let exists = |e: io::Error| {
            if e.kind() == io::ErrorKind::AlreadyExists {
                io::Error::new(
                    e.kind(),
                    format!(
                        "{} already exists; not overwriting it",
                        crate::render::path(&bak)
                    ),
                )
            } else {
                e
            }
        };
        match std::fs::hard_link(&self.dest, &bak) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => return Err(exists(e)),
            Err(_) => {
                if let (Some(stamp), Some(now)) = (self.read_as, Stamp::of(&self.dest)) {
                    if stamp != now {
                        return Err(written_meanwhile());
                    }
                }
                let mut copy = OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(&bak)
                    .map_err(exists)?;
                io::copy(&mut File::open(&self.dest)?, &mut copy)?;
                copy.sync_all()?;
                return Ok(false);
            }
        }
        use std::os::unix::fs::MetadataExt;
        let linked = std::fs::metadata(&bak)?;
        if self.kept.as_ref().map(|k| k.id) != Some((linked.dev(), linked.ino())) {
            // Another program replaced NAME after it was read: the backup
            // just made is of that file, not the one read. Leave it all.
            let _ = std::fs::remove_file(&bak);
            return Err(io::Error::other(
                "changed while it was being rewritten; left as it is",
            ));
        }
        if self.read_as.is_some_and(|s| s != Stamp::from(&linked)) {
            // Text written to NAME since it was read would be lost.
            let _ = std::fs::remove_file(&bak);
            return Err(written_meanwhile());
        }
        Ok(true)
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
            let mut files = pending();
            let _ = std::fs::remove_file(&self.tmp);
            files.retain(|(x, _)| x != &self.tmp);
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

/// Opens `-o PATH` for a command whose inputs are `inputs` (standard output
/// without one). An input is never the output: that is refused, with `hint`
/// saying what to do instead.
pub fn open_output(
    path: Option<&Path>,
    inputs: &[pdnkit::batch::Input],
    hint: &str,
) -> Result<Out, String> {
    let Some(path) = path else {
        return Ok(Out::stdout());
    };
    if inputs.iter().any(|i| is_input(i, path)) {
        return Err(format!(
            "{} is an input; refusing to overwrite it{hint}",
            crate::render::path(path)
        ));
    }
    Out::open(path).map_err(|e| format!("{}: {e}", crate::render::path(path)))
}

/// Whether writing `path` would overwrite the input `i`: its file, or the
/// archive of a member named as `ARCHIVE!MEMBER` (issue 54: every other
/// member of the archive was lost).
pub fn is_input(i: &pdnkit::batch::Input, path: &Path) -> bool {
    match i {
        pdnkit::batch::Input::File(p) | pdnkit::batch::Input::Member(p, _) => same_file(p, path),
        _ => false,
    }
}

/// Standard output, an atomically written file, or a device or FIFO written directly.
pub enum Out {
    /// Standard output, and whether it is a terminal (where a progress bar
    /// on standard error is cleared while text is written).
    Stdout(BufWriter<io::Stdout>, bool),
    File(AtomicFile),
    Device(BufWriter<File>, PathBuf),
}

impl Out {
    /// Standard output.
    pub fn stdout() -> Out {
        let terminal = io::IsTerminal::is_terminal(&io::stdout());
        Out::Stdout(BufWriter::new(io::stdout()), terminal)
    }

    /// Writes `bytes`; a write error stops the run with its [`Stop`]. On a
    /// terminal the text is written at once, with the progress bar cleared.
    pub fn put(&mut self, bytes: &[u8]) -> ControlFlow<Stop> {
        let done = match self {
            Out::Stdout(w, true) => {
                crate::screen::above(|| w.write_all(bytes).and_then(|()| w.flush()))
            }
            _ => self.write_all(bytes),
        };
        self.written(done)
    }

    /// Writes `bytes` as the whole output and finishes it (a file is committed).
    pub fn write_whole(mut self, bytes: &[u8]) -> Result<(), Stop> {
        match self.put(bytes) {
            ControlFlow::Continue(()) => self.finish(true),
            ControlFlow::Break(stop) => Err(stop),
        }
    }

    /// Flushes what is written so far.
    pub fn flush_now(&mut self) -> ControlFlow<Stop> {
        let done = self.flush();
        self.written(done)
    }

    /// The run's answer to a write: go on, or stop with why.
    pub fn written(&self, done: io::Result<()>) -> ControlFlow<Stop> {
        match done {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => ControlFlow::Break(Stop::of(&e, &self.name(), self.is_stdout())),
        }
    }

    /// Opens `-o PATH`: `-` and `/dev/stdout` are standard output; a device
    /// or FIFO is written directly; a symlink is refused; anything else is
    /// written atomically.
    pub fn open(path: &Path) -> io::Result<Out> {
        if path.as_os_str() == "-" || path == Path::new("/dev/stdout") {
            return Ok(Out::stdout());
        }
        match std::fs::symlink_metadata(path) {
            Ok(m) if !m.is_file() && !m.is_dir() && !m.file_type().is_symlink() => {
                let f = OpenOptions::new().write(true).open(path)?;
                Ok(Out::Device(BufWriter::new(f), path.to_path_buf()))
            }
            _ => AtomicFile::create(path, Replace::Output).map(Out::File),
        }
    }

    /// What the output is called in messages.
    pub fn name(&self) -> String {
        match self {
            Out::Stdout(..) => "standard output".into(),
            Out::File(f) => crate::render::path(f.dest()),
            Out::Device(_, p) => crate::render::path(p),
        }
    }

    /// Whether this is standard output (where a closed pipe is quiet).
    pub fn is_stdout(&self) -> bool {
        matches!(self, Out::Stdout(..))
    }

    /// Flushes; a file is committed only when `complete`, else removed.
    /// A failure is the run's [`Stop`].
    pub fn finish(self, complete: bool) -> Result<(), Stop> {
        let (name, stdout) = (self.name(), self.is_stdout());
        self.finish_io(complete)
            .map_err(|e| Stop::of(&e, &name, stdout))
    }

    /// [`Out::finish`], failing with the system's error.
    pub fn finish_io(self, complete: bool) -> io::Result<()> {
        match self {
            Out::Stdout(mut w, _) => w.flush(),
            Out::Device(mut w, _) => w.flush(),
            Out::File(f) if complete => f.commit(),
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
            Out::Stdout(w, _) => w.write(buf),
            Out::File(f) => f.write(buf),
            Out::Device(w, _) => w.write(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Out::Stdout(w, _) => w.flush(),
            Out::File(f) => f.flush(),
            Out::Device(w, _) => w.flush(),
        }
    }
}

/// Ends the output of a run that went `done` (`Ok(complete)`: whether it
/// read every input it was given): a file is committed only when complete,
/// else removed; a named output file (`named`) not written is said on
/// standard error, and a stop is reported.
pub fn conclude(out: Out, done: Result<bool, Stop>, named: bool) {
    concluded(
        done.and_then(|complete| out.finish(complete).map(|()| complete)),
        named,
    );
}

/// Says how an output ended (`Ok(complete)`: written when complete, not
/// written else; or why the run stopped), as [`conclude`] says it.
pub fn concluded(done: Result<bool, Stop>, named: bool) {
    match done {
        Ok(true) => {}
        Ok(false) => {
            if named {
                eprintln!("pdnkit: the run did not complete; the output file was not written");
            }
        }
        Err(stop) => {
            stop.report();
            if named && matches!(stop, Stop::Failed(_)) {
                eprintln!("pdnkit: the output file was not written");
            }
        }
    }
}

/// Writes a command's whole answer to standard output; the command's
/// answer, 0 (a write error is said, and fails the run).
pub fn print_answer(text: &str) -> u8 {
    if let Err(stop) = print(text) {
        stop.report();
    }
    0
}

#[cfg(feature = "parquet")]
/// A folder of partitions (`convert --to parquet --partition-by KEY -o DIR`)
/// written in a staging folder and moved into DIR only when the run is
/// complete, so DIR holds exactly one run's partitions: an interrupted or
/// failed run leaves nothing, and an earlier run's partitions (folders
/// named `KEY=VALUE`) are refused unless `--force`, then replaced as a
/// whole. The staging folder is on DIR's file system: inside DIR when DIR
/// exists (a mount point, a container volume, a parent that is not
/// writable all work), else beside it, where DIR is to be made. Its name
/// is new to every run (the process id, the time and a count), so a
/// leftover of a killed run never blocks a later one.
pub struct StagedDir {
    staging: PathBuf,
    dest: PathBuf,
    committed: bool,
}

#[cfg(feature = "parquet")]
/// A hive partition folder: a folder whose name holds `=`.
fn is_partition(e: &std::fs::DirEntry) -> bool {
    e.file_name().to_string_lossy().contains('=') && e.file_type().is_ok_and(|t| t.is_dir())
}

#[cfg(feature = "parquet")]
/// A folder made new in `dir`, named `.{base}.pdnkit-PID-TIME-N.{ext}`
/// (a name no earlier run can hold: one that exists is passed over).
fn new_folder(dir: Option<&Path>, base: &str, ext: &str) -> io::Result<PathBuf> {
    let time = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let mut n = 0u32;
    loop {
        let name = format!(".{base}.pdnkit-{}-{time:x}-{n}.{ext}", std::process::id());
        let path = dir.map_or_else(|| PathBuf::from(&name), |d| d.join(&name));
        match std::fs::create_dir(&path) {
            Ok(()) => return Ok(path),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && n < 1000 => n += 1,
            Err(e) => {
                return Err(io::Error::new(
                    e.kind(),
                    format!("{}: {e}", crate::render::path(&path)),
                ))
            }
        }
    }
}

#[cfg(feature = "parquet")]
/// A rename, failing on purpose after `PDNKIT_TEST_FAIL_RENAMES` renames
/// in builds with debug assertions (the tests of a commit that fails half
/// way); a plain rename else.
fn rename(from: &Path, to: &Path) -> io::Result<()> {
    #[cfg(debug_assertions)]
    {
        use std::sync::atomic::{AtomicU64, Ordering};
        static DONE: AtomicU64 = AtomicU64::new(0);
        if let Some(n) = std::env::var("PDNKIT_TEST_FAIL_RENAMES")
            .ok()
            .and_then(|v| v.parse::<u64>().ok())
        {
            if DONE.fetch_add(1, Ordering::Relaxed) >= n {
                return Err(io::Error::other(
                    "a rename failed (PDNKIT_TEST_FAIL_RENAMES)",
                ));
            }
        }
    }
    std::fs::rename(from, to)
}

#[cfg(feature = "parquet")]
impl StagedDir {
    /// Begins writing the partitions of `dest`.
    pub fn create(dest: &Path, force: bool) -> Result<StagedDir, String> {
        let name = crate::render::path(dest);
        let exists = match std::fs::symlink_metadata(dest) {
            Ok(m) if m.file_type().is_symlink() => {
                return Err(format!(
                "{name} is a symbolic link; not writing through it (name the folder it points to)"
            ))
            }
            Ok(m) if !m.is_dir() => return Err(format!("{name} exists and is not a folder")),
            Ok(_) => {
                let old = std::fs::read_dir(dest)
                    .map_err(|e| format!("{name}: {e}"))?
                    .filter_map(Result::ok)
                    .filter(is_partition)
                    .count();
                if old > 0 && !force {
                    return Err(format!(
                        "{name} holds {old} partition folder{} of an earlier run; add --force to replace them all (or name another -o)",
                        if old == 1 { "" } else { "s" }
                    ));
                }
                true
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => false,
            Err(e) => return Err(format!("{name}: {e}")),
        };
        let base = dest
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "out".into());
        let staging = {
            let mut files = pending();
            let staging = if exists {
                new_folder(Some(dest), "partitions", "tmp")
            } else {
                new_folder(
                    dest.parent().filter(|p| !p.as_os_str().is_empty()),
                    &base,
                    "tmp",
                )
            }
            .map_err(|e| e.to_string())?;
            files.push((staging.clone(), true));
            staging
        };
        Ok(StagedDir {
            staging,
            dest: dest.to_path_buf(),
            committed: false,
        })
    }

    /// Where the partitions are written until the commit.
    pub fn path(&self) -> &Path {
        &self.staging
    }

    /// Puts the partitions in place: DIR, when it did not exist, is the
    /// staging folder renamed in one step; else every partition folder of an
    /// earlier run is moved out first (into a folder of DIR's own), and each
    /// new one is moved in by one rename, then the earlier ones are removed.
    /// A step that fails puts DIR back as it was (the earlier partitions in
    /// place, none of the new ones) and removes both folders of the run.
    /// The signal handler waits meanwhile.
    pub fn commit(mut self) -> io::Result<()> {
        let mut files = pending();
        self.committed = true;
        if std::fs::symlink_metadata(&self.dest).is_err() {
            let done = rename(&self.staging, &self.dest);
            if done.is_err() {
                let _ = std::fs::remove_dir_all(&self.staging);
            }
            files.retain(|(x, _)| x != &self.staging);
            return done;
        }
        let trash = match new_folder(Some(&self.dest), "partitions", "old") {
            Ok(t) => t,
            Err(e) => {
                let _ = std::fs::remove_dir_all(&self.staging);
                files.retain(|(x, _)| x != &self.staging);
                return Err(e);
            }
        };
        let (mut moved_out, mut moved_in) = (Vec::new(), Vec::new());
        let done = self.swap(&trash, &mut moved_out, &mut moved_in);
        if done.is_err() {
            // Back as it was: the new partitions out, the earlier ones in.
            for name in &moved_in {
                let _ = std::fs::remove_dir_all(self.dest.join(name));
            }
            for name in &moved_out {
                let _ = std::fs::rename(trash.join(name), self.dest.join(name));
            }
        }
        let _ = std::fs::remove_dir_all(&self.staging);
        let removed = std::fs::remove_dir_all(&trash);
        files.retain(|(x, _)| x != &self.staging);
        done.and(removed)
    }

    /// The earlier partitions moved into `trash`, then the new ones into
    /// DIR: the names moved each way, for an undo.
    fn swap(
        &self,
        trash: &Path,
        moved_out: &mut Vec<std::ffi::OsString>,
        moved_in: &mut Vec<std::ffi::OsString>,
    ) -> io::Result<()> {
        let old: Vec<std::fs::DirEntry> = std::fs::read_dir(&self.dest)?
            .filter_map(Result::ok)
            .filter(is_partition)
            .collect();
        for e in old {
            rename(&e.path(), &trash.join(e.file_name()))?;
            moved_out.push(e.file_name());
        }
        for e in std::fs::read_dir(&self.staging)?.filter_map(Result::ok) {
            rename(&e.path(), &self.dest.join(e.file_name()))?;
            moved_in.push(e.file_name());
        }
        Ok(())
    }
}

#[cfg(feature = "parquet")]
impl Drop for StagedDir {
    fn drop(&mut self) {
        if !self.committed {
            // Not committed (a failed run): nothing of it stays.
            let mut files = pending();
            let _ = std::fs::remove_dir_all(&self.staging);
            files.retain(|(x, _)| x != &self.staging);
        }
    }
}
