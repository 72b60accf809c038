//! What a whole-archive command must remember of every game but need not keep
//! in memory: bytes appended to an unnamed temporary file and read back by
//! offset (issue 51). The file is created in the temporary folder
//! (`std::env::temp_dir()`, `TMPDIR` on Unix) and unlinked at once, so the
//! system removes it when the process ends, however it ends (exit, a signal,
//! a kill). Where no temporary file can be made, the bytes stay in memory.
//! The operating system's page cache keeps a small spill in memory anyway:
//! it costs a disk only when the archive is larger than memory.

use std::fs::File;
use std::io::{self, Read, Write};

/// Bytes appended, read back at their offsets.
#[derive(Debug)]
pub(crate) struct Spill {
    store: Store,
    /// Bytes appended and not yet written to the file.
    pending: Vec<u8>,
    /// Bytes appended in all.
    len: u64,
    /// The file could not be written: `pending` keeps all that follows.
    stuck: bool,
}

#[derive(Debug)]
enum Store {
    File(File),
    Memory(Vec<u8>),
}

/// Bytes gathered before a write to the file.
const BUFFER: usize = 1 << 20;

impl Spill {
    /// An empty spill: a temporary file, or memory where none can be made.
    pub(crate) fn new() -> Spill {
        Spill {
            store: temporary().map_or(Store::Memory(Vec::new()), Store::File),
            pending: Vec::new(),
            len: 0,
            stuck: false,
        }
    }
    /// An empty spill in memory (tests; small inputs).
    #[cfg(test)]
    pub(crate) fn in_memory() -> Spill {
        Spill {
            store: Store::Memory(Vec::new()),
            pending: Vec::new(),
            len: 0,
            stuck: false,
        }
    }
    /// Appends `bytes`; returns their offset. Where the file cannot be
    /// written (a full disk), what is not written stays in memory, and so
    /// does all that follows: nothing is lost.
    pub(crate) fn push(&mut self, bytes: &[u8]) -> u64 {
        let at = self.len;
        self.len += bytes.len() as u64;
        match &mut self.store {
            Store::Memory(m) => m.extend_from_slice(bytes),
            Store::File(f) => {
                self.pending.extend_from_slice(bytes);
                if self.pending.len() >= BUFFER && !self.stuck {
                    if f.write_all(&self.pending).is_ok() {
                        self.pending.clear();
                    } else {
                        self.stuck = true;
                    }
                }
            }
        }
        at
    }
    /// Fills `buf` from offset `at`: from the file, and from what is not
    /// written to it yet.
    pub(crate) fn read_at(&self, at: u64, buf: &mut [u8]) -> io::Result<()> {
        let end = at
            .checked_add(buf.len() as u64)
            .filter(|&e| e <= self.len)
            .ok_or_else(|| io::Error::new(io::ErrorKind::UnexpectedEof, "past the spill's end"))?;
        match &self.store {
            Store::Memory(m) => {
                let bytes = m.get(at as usize..end as usize).ok_or_else(|| {
                    io::Error::new(io::ErrorKind::UnexpectedEof, "past the spill's end")
                })?;
                buf.copy_from_slice(bytes);
                Ok(())
            }
            Store::File(f) => {
                let written = self.len - self.pending.len() as u64;
                let in_file = (written.saturating_sub(at) as usize).min(buf.len());
                let (head, tail) = buf.split_at_mut(in_file);
                if !head.is_empty() {
                    read_exact_at(f, head, at)?;
                }
                if !tail.is_empty() {
                    let from = (at + in_file as u64 - written) as usize;
                    tail.copy_from_slice(&self.pending[from..from + tail.len()]);
                }
                Ok(())
            }
        }
    }
    /// What is pending written to the file (tests).
    #[cfg(test)]
    fn flush_for_test(&mut self) {
        if let Store::File(f) = &mut self.store {
            if f.write_all(&self.pending).is_ok() {
                self.pending.clear();
            }
        }
    }
    /// The bytes from the start, in order.
    pub(crate) fn reader(&self) -> io::BufReader<From<'_>> {
        io::BufReader::with_capacity(BUFFER, From { spill: self, at: 0 })
    }
}

/// A [`Spill`] read in order from an offset.
pub(crate) struct From<'a> {
    spill: &'a Spill,
    at: u64,
}

impl Read for From<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = (self.spill.len.saturating_sub(self.at)).min(buf.len() as u64) as usize;
        self.spill.read_at(self.at, &mut buf[..n])?;
        self.at += n as u64;
        Ok(n)
    }
}

#[cfg(unix)]
fn read_exact_at(f: &File, buf: &mut [u8], at: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(f, buf, at)
}

#[cfg(windows)]
fn read_exact_at(f: &File, mut buf: &mut [u8], mut at: u64) -> io::Result<()> {
    while !buf.is_empty() {
        match std::os::windows::fs::FileExt::seek_read(f, buf, at)? {
            0 => return Err(io::ErrorKind::UnexpectedEof.into()),
            n => {
                buf = &mut buf[n..];
                at += n as u64;
            }
        }
    }
    Ok(())
}

#[cfg(not(any(unix, windows)))]
fn read_exact_at(_: &File, _: &mut [u8], _: u64) -> io::Result<()> {
    Err(io::ErrorKind::Unsupported.into())
}

/// A new file in the temporary folder that no name reaches (unlinked at once
/// on Unix, where that is allowed; elsewhere kept in memory).
#[cfg(unix)]
fn temporary() -> Option<File> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let dir = std::env::temp_dir();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    for _ in 0..16 {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = dir.join(format!(".pdnkit-spill-{}-{n}-{nanos}", std::process::id()));
        let Ok(f) = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)
        else {
            continue;
        };
        return std::fs::remove_file(&path).is_ok().then_some(f);
    }
    None
}

#[cfg(not(unix))]
fn temporary() -> Option<File> {
    None
}

/// Records appended to one of a number of buckets and read back a bucket at
/// a time, in the order appended: an external partition (issue 51: `stats
/// --by player` groups the games of an archive by event, one bucket in
/// memory at a time). Each bucket gathers [`CHUNK`] bytes before they go to
/// one [`Spill`]; memory is the open chunks and a list of chunks per bucket.
#[derive(Debug)]
pub(crate) struct Buckets {
    spill: Spill,
    /// Per bucket: bytes not yet in the spill.
    open: Vec<Vec<u8>>,
    /// Per bucket: its chunks in the spill (offset, length), in order.
    chunks: Vec<Vec<(u64, u32)>>,
}

/// Bytes a bucket gathers before they are written to the spill.
const CHUNK: usize = 8 << 10;

impl Buckets {
    /// `n` empty buckets (at least one).
    pub(crate) fn new(n: usize) -> Buckets {
        let n = n.max(1);
        Buckets {
            spill: Spill::new(),
            open: vec![Vec::new(); n],
            chunks: vec![Vec::new(); n],
        }
    }
    /// How many buckets there are.
    pub(crate) fn count(&self) -> usize {
        self.open.len()
    }
    /// Appends `bytes` to bucket `b` (taken modulo the count).
    pub(crate) fn push(&mut self, b: usize, bytes: &[u8]) {
        let b = b % self.open.len();
        let open = &mut self.open[b];
        open.extend_from_slice(bytes);
        if open.len() >= CHUNK {
            let at = self.spill.push(open);
            self.chunks[b].push((at, open.len() as u32));
            open.clear();
        }
    }
    /// Its file cut to nothing, as a failing disk loses it (tests).
    #[cfg(test)]
    pub(crate) fn cut_for_test(&mut self) {
        self.spill.flush_for_test();
        match &mut self.spill.store {
            Store::File(f) => {
                let _ = f.set_len(0);
            }
            Store::Memory(m) => m.clear(),
        }
    }
    /// Every byte appended to bucket `b`, in order; the bucket is empty after.
    pub(crate) fn take(&mut self, b: usize) -> io::Result<Vec<u8>> {
        let b = b % self.open.len();
        let chunks = std::mem::take(&mut self.chunks[b]);
        let open = std::mem::take(&mut self.open[b]);
        let total: usize = chunks.iter().map(|c| c.1 as usize).sum::<usize>() + open.len();
        let mut out = vec![0u8; total];
        let mut n = 0;
        for (at, len) in chunks {
            let len = len as usize;
            self.spill.read_at(at, &mut out[n..n + len])?;
            n += len;
        }
        out[n..].copy_from_slice(&open);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_give_back_each_ones_bytes_in_order() {
        let mut b = Buckets::new(3);
        let mut want = vec![Vec::new(); 3];
        for i in 0u32..20_000 {
            let k = (i * 7 % 3) as usize;
            b.push(k, &i.to_le_bytes());
            want[k].extend_from_slice(&i.to_le_bytes());
        }
        for (k, w) in want.iter().enumerate() {
            assert_eq!(&b.take(k).ok().unwrap_or_default(), w);
            assert!(b.take(k).ok().unwrap_or_default().is_empty());
        }
    }

    #[test]
    fn bytes_read_back_at_their_offsets_and_in_order() {
        // 600,000 pushes of 1 to 4 bytes: most in the file, the last ones
        // still in the buffer, one read across both.
        for mut s in [Spill::new(), Spill::in_memory()] {
            let mut offsets = Vec::new();
            let mut all = Vec::new();
            for i in 0..600_000u32 {
                let b = i.to_le_bytes();
                offsets.push(s.push(&b[..(i % 4 + 1) as usize]));
                all.extend_from_slice(&b[..(i % 4 + 1) as usize]);
            }
            assert_eq!(s.len, all.len() as u64);
            let mut b = [0u8; 4];
            let mut across = [0u8; 16];
            let at = BUFFER as u64 - 8;
            s.read_at(at, &mut across).expect("read");
            assert_eq!(&across[..], &all[at as usize..at as usize + 16]);
            for i in [0u32, 1, 77_777, 599_999] {
                let n = (i % 4 + 1) as usize;
                s.read_at(offsets[i as usize], &mut b[..n]).expect("read");
                assert_eq!(&b[..n], &i.to_le_bytes()[..n]);
            }
            let mut back = Vec::new();
            s.reader().read_to_end(&mut back).expect("read");
            assert_eq!(back, all);
            assert!(s.read_at(s.len - 1, &mut b[..2]).is_err());
        }
    }

    #[cfg(unix)]
    #[test]
    fn the_file_has_no_name() {
        use std::os::unix::fs::MetadataExt;
        let s = Spill::new();
        let Store::File(f) = &s.store else {
            panic!("a temporary file is made")
        };
        assert_eq!(
            f.metadata().expect("stat").nlink(),
            0,
            "and unlinked at once"
        );
    }
}
