//! Where output goes: standard output, or a file written atomically.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// A file written under a temporary name next to its destination and renamed
/// over it only when complete, so a failed run never leaves half a file.
pub struct AtomicFile {
    tmp: PathBuf,
    dest: PathBuf,
    file: Option<BufWriter<File>>,
}

impl AtomicFile {
    /// Starts writing `dest`.
    pub fn create(dest: &Path) -> io::Result<AtomicFile> {
        let name = dest
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "out".into());
        let tmp = dest.with_file_name(format!(".{name}.pdnkit-{}.tmp", std::process::id()));
        let file = File::create(&tmp)?;
        Ok(AtomicFile {
            tmp,
            dest: dest.to_path_buf(),
            file: Some(BufWriter::new(file)),
        })
    }

    /// Finishes: flushes, syncs and renames over the destination. With `backup`,
    /// an existing destination is first renamed to `NAME.bak` (never overwriting one).
    pub fn commit(mut self, backup: bool) -> io::Result<()> {
        let done = self.finish_rename(backup);
        if done.is_err() {
            let _ = std::fs::remove_file(&self.tmp);
        }
        done
    }

    fn finish_rename(&mut self, backup: bool) -> io::Result<()> {
        if let Some(mut f) = self.file.take() {
            f.flush()?;
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

/// Standard output or an atomically written file.
pub enum Out {
    Stdout(BufWriter<io::Stdout>),
    File(AtomicFile),
}

impl Out {
    /// Flushes; a file is committed only when `complete`, else removed.
    pub fn finish(self, complete: bool) -> io::Result<()> {
        match self {
            Out::Stdout(mut w) => w.flush(),
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
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Out::Stdout(w) => w.flush(),
            Out::File(f) => f.flush(),
        }
    }
}
