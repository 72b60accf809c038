//! The reading thread: every input opened in order (compressed streams
//! decoded, archives walked: `archive.rs`), and its text cut into pieces at
//! likely game boundaries (`crate::pdn::split`), to be read in parallel.
//! Nothing is parsed here, but UTF-16/32 files, read whole on this thread.

use super::archive::{self, Opened};
use super::input::Input;
use super::model::{FileErrorKind, Item};
use super::zipdir;
use crate::pdn::sniff::not_text;
use crate::pdn::{split, Game, Reader, DEFAULT_MAX_GAME_BYTES};
use crate::replay::Options;
use std::io::{Read, Seek as _};
use std::sync::mpsc::SyncSender;
use std::sync::Arc;

/// Bytes of a piece, about: small enough for two cores to share a 1 MB file,
/// large enough that the game read twice at each cut costs little.
pub const PIECE: usize = 256 << 10;
/// The piece size: [`PIECE`], or `PDNKIT_PIECE_BYTES` (at least 64) for
/// tests, which cut small files into many pieces (`tests/it/jobs.rs`).
fn piece_bytes() -> usize {
    std::env::var("PDNKIT_PIECE_BYTES")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .map_or(PIECE, |n| n.max(64))
}

/// A piece grows up to this when no line in it starts with `[`; then it is
/// cut at any line.
const PIECE_MAX: usize = 1 << 20;

/// A piece of a file's text.
#[derive(Debug)]
pub struct Block {
    pub bytes: Vec<u8>,
    /// Byte offset of `bytes[0]` in the file.
    pub start: u64,
    /// The line break byte just before `bytes` that a break at its start pairs with.
    pub open: Option<u8>,
    /// No piece of the file follows.
    pub last: bool,
    /// The file ends after this piece (a last piece ended by a read error
    /// too: its text is read as far as it goes).
    pub eof: bool,
    /// The read error that ended the file (on its last piece).
    pub error: Option<String>,
    /// A guess of what the file's reading has decided about its encoding
    /// at the piece's start (`None`: nothing, as far as the pieces before tell).
    pub guess: Option<split::Decided>,
}

/// What the reading thread sends, in input order.
pub enum Feed {
    Piece(usize, Arc<Block>),
    /// A game of a file read whole on this thread (UTF-16/32).
    Game(usize, Game),
    /// The games of a file read whole are all sent: the read error that ended it early.
    End(usize, Option<String>),
    /// Anything but a file's text: a file skipped, unreadable, a member's name.
    Item(Item),
}

/// The reading thread's state: where to send, and the numbers of the
/// members of archives (after the inputs').
pub struct Feeder<'a> {
    pub tx: &'a SyncSender<Feed>,
    pub opts: &'a Options,
    pub all_files: bool,
    pub next_member: usize,
    /// The one member read of the archive being read (`ARCHIVE!MEMBER`),
    /// and the printed names of its members met (for when it is not there).
    only: Option<String>,
    met: Vec<String>,
}

/// Reads every input in order and sends its pieces; stops when the receiver
/// is gone.
pub fn read_inputs(inputs: &[Input], opts: &Options, all_files: bool, tx: &SyncSender<Feed>) {
    let mut r = Feeder {
        tx,
        opts,
        all_files,
        next_member: inputs.len(),
        only: None,
        met: Vec::new(),
    };
    for (fi, input) in inputs.iter().enumerate() {
        let name = input.name();
        r.only = match input {
            Input::Member(_, m) => Some(m.clone()),
            _ => None,
        };
        r.met.clear();
        let src: std::io::Result<Box<dyn Read>> = match input {
            Input::Stdin => Ok(Box::new(std::io::stdin())),
            Input::File(p) | Input::Member(p, _) => {
                std::fs::File::open(p).map(|f| Box::new(f) as Box<dyn Read>)
            }
            Input::Bytes(_, b) => {
                Ok(Box::new(std::io::Cursor::new(Arc::clone(b))) as Box<dyn Read>)
            }
        };
        let going = match src.and_then(|s| archive::open(s, &name, true)) {
            Err(e) => r.item(Item::Error(fi, FileErrorKind::Open, e.to_string())),
            Ok(Opened::Text(..)) if r.only.is_some() => r.item(Item::Error(
                fi,
                FileErrorKind::Archive,
                format!(
                    "not an archive (zip or tar): {name}!{} names a member of one",
                    r.only.as_deref().unwrap_or_default()
                ),
            )),
            Ok(Opened::Text(src, head, padding)) => r.text(fi, src, head, &padding),
            Ok(Opened::Tar(src)) => {
                // The archive again, for the members its links point to.
                let again = || -> std::io::Result<Box<dyn Read + '_>> {
                    let src: Box<dyn Read> = match input {
                        Input::File(p) | Input::Member(p, _) => Box::new(std::fs::File::open(p)?),
                        Input::Bytes(_, b) => Box::new(std::io::Cursor::new(Arc::clone(b))),
                        Input::Stdin => {
                            return Err(std::io::Error::other(
                                "standard input cannot be read again",
                            ))
                        }
                    };
                    match archive::open(src, &name, true)? {
                        Opened::Tar(t) => Ok(t),
                        _ => Err(std::io::Error::other("no longer a tar archive")),
                    }
                };
                r.tar(fi, &name, src, &again)
            }
            Ok(Opened::Zip) => match input {
                Input::File(p) | Input::Member(p, _) => r.zip(fi, &name, &|| {
                    std::fs::File::open(p).map(|f| Box::new(f) as Box<dyn ReadSeek>)
                }),
                Input::Bytes(_, b) => r.zip(fi, &name, &|| {
                    Ok(Box::new(std::io::Cursor::new(Arc::clone(b))) as Box<dyn ReadSeek>)
                }),
                Input::Stdin => r.item(Item::Error(
                    fi,
                    FileErrorKind::Open,
                    "a zip archive cannot be read from standard input (it is read from its end): name the file".into(),
                )),
            },
        };
        if !going {
            return;
        }
    }
}

/// Reads until `buf` holds `want` bytes or the input ends: whether it ended,
/// and the error that stopped it early (the bytes before it are kept).
/// Nothing is written twice: the bytes go into the vector's spare room.
fn read_up_to(
    src: &mut impl Read,
    buf: &mut Vec<u8>,
    want: usize,
) -> (bool, Option<std::io::Error>) {
    let missing = want.saturating_sub(buf.len());
    buf.reserve(missing);
    match src.take(missing as u64).read_to_end(buf) {
        Ok(n) => (n < missing, None),
        Err(e) => (false, Some(e)),
    }
}

impl Feeder<'_> {
    fn send(&self, f: Feed) -> bool {
        self.tx.send(f).is_ok()
    }
    fn item(&self, it: Item) -> bool {
        self.send(Feed::Item(it))
    }

    /// A text input (its first bytes `head` already read from `src`): skipped
    /// when binary or not PDN, else sent in pieces. False: the run stopped.
    pub fn text(
        &mut self,
        fi: usize,
        src: Box<dyn Read + '_>,
        head: Vec<u8>,
        padding: &archive::Padding,
    ) -> bool {
        if let Some(why) = not_text(&head) {
            return self.item(Item::Skipped(fi, why));
        }
        let going = if crate::pdn::wide_bom(&head).is_some() {
            self.whole(fi, std::io::Cursor::new(head).chain(src))
        } else {
            self.pieces(fi, src, head)
        };
        let nul = padding.load(std::sync::atomic::Ordering::Relaxed);
        if going && nul > 0 {
            return self.item(Item::Note(
                fi,
                format!(
                    "{nul} NUL bytes of padding after the gzip stream ignored (as zcat reads them)"
                ),
            ));
        }
        going
    }

    /// Every game of `src` read here, in turn (UTF-16/32 text: its offsets
    /// count the UTF-8 text, not the file's bytes, so it is not cut).
    fn whole(&mut self, fi: usize, src: impl Read) -> bool {
        let max = self.opts.max_game_bytes.unwrap_or(DEFAULT_MAX_GAME_BYTES);
        let mut reader = Reader::new(std::io::BufReader::with_capacity(1 << 16, src))
            .error_ends_input()
            .max_game_bytes(max);
        let end = loop {
            match reader.next_game() {
                Ok(Some(mut g)) => {
                    if reader.at_break() {
                        g.cut_by_break();
                    }
                    if !self.send(Feed::Game(fi, g)) {
                        return false;
                    }
                }
                Ok(None) => break None,
                Err(e) => break Some(format!("read error: {e}")),
            }
        };
        self.send(Feed::End(fi, end))
    }

    /// `src` (after its first bytes `carry`) cut into pieces of about
    /// [`PIECE`] bytes at likely game boundaries.
    fn pieces(&mut self, fi: usize, mut src: Box<dyn Read + '_>, mut carry: Vec<u8>) -> bool {
        let piece = piece_bytes();
        let mut guess = None;
        let mut start = 0u64;
        let mut open = None;
        let mut want = piece;
        loop {
            let (eof, err) = read_up_to(&mut src, &mut carry, want);
            if eof || err.is_some() {
                // A read error ends the text as the end of the file would:
                // the games before the break are read (the last one as far
                // as it goes), then the error is reported (issue 40).
                let block = Block {
                    bytes: carry,
                    start,
                    open,
                    last: true,
                    eof: true,
                    error: err.map(|e| format!("read error: {e}")),
                    guess,
                };
                return self.send(Feed::Piece(fi, Arc::new(block)));
            }
            let at = split::cut(&carry).or_else(|| {
                (carry.len() >= PIECE_MAX.max(piece))
                    .then(|| split::cut_anywhere(&carry))
                    .flatten()
            });
            let Some(at) = at else {
                // No line to cut at: the piece grows (doubling: each byte is
                // looked at a bounded number of times).
                want = carry.len() * 2;
                continue;
            };
            let rest = carry[at..].to_vec();
            carry.truncate(at);
            let next_open = split::open_before(&carry);
            let len = carry.len() as u64;
            let block = Block {
                bytes: std::mem::replace(&mut carry, rest),
                start,
                open,
                last: false,
                eof: false,
                error: None,
                guess,
            };
            // Until a piece is not UTF-8, each is looked at once (quick).
            if guess.is_none() {
                guess = split::Decided::guess(&block.bytes);
            }
            if !self.send(Feed::Piece(fi, Arc::new(block))) {
                return false;
            }
            start += len;
            open = next_open;
            want = (carry.len() + piece / 2).max(piece);
        }
    }

    /// A member of an archive, as a file of its own named `archive!member`.
    fn member(&mut self, name: String, src: Box<dyn Read + '_>) -> bool {
        let mi = self.next_member;
        self.next_member += 1;
        if !self.item(Item::Member(mi, name.clone())) {
            return false;
        }
        match archive::open(src, &name, false) {
            Ok(Opened::Text(_, head, _))
                if crate::pdn::sniff::is_zip(&head) || crate::pdn::sniff::is_tar(&head) =>
            {
                self.item(Item::Skipped(
                    mi,
                    "an archive inside an archive is not read (extract it, and name it)".into(),
                ))
            }
            Ok(Opened::Text(src, head, padding)) => self.text(mi, src, head, &padding),
            Ok(_) => self.item(Item::Skipped(
                mi,
                "an archive inside an archive is not read".into(),
            )),
            Err(e) => self.item(Item::Error(mi, FileErrorKind::Open, e.to_string())),
        }
    }

    /// After an archive: its members were read, or it had none to read.
    fn archive_end(&mut self, fi: usize, members: usize, what: &str) -> bool {
        if let (Some(only), 0) = (&self.only, members) {
            // The names with their control characters escaped, as every name
            // printed is (issue 54).
            let met: Vec<String> = self
                .met
                .iter()
                .map(|m| crate::pdn::visible(m).into_owned())
                .collect();
            let why = format!(
                "no member {} in this {what}; its members, as pdnkit names them: {}",
                crate::pdn::visible(only),
                if met.is_empty() {
                    "none".to_string()
                } else {
                    met.join(", ")
                }
            );
            return self.item(Item::Error(fi, FileErrorKind::Archive, why));
        }
        if members == 0 {
            let why = format!(
                "a {what} with no .pdn, .pgn or .txt member (--all-files reads every member)"
            );
            return self.item(Item::Skipped(fi, why));
        }
        self.item(Item::ArchiveDone(fi))
    }

    fn wanted(&self, member: &str) -> bool {
        (self.all_files && !member.ends_with('/')) || archive::wanted(member, false)
    }

    /// The printed name of member `inner` of `archive` when it is read;
    /// `None` when it is not (an archive inside the archive is said so).
    fn member_name(
        &mut self,
        archive: &str,
        names: &mut MemberNames,
        inner: &str,
    ) -> Result<Option<String>, Stopped> {
        let printed = names.printed(inner);
        let full = format!("{archive}!{printed}");
        if let Some(only) = &self.only {
            // One member asked for by name: read whatever its name.
            if printed == *only {
                return Ok(Some(full));
            }
            self.met.push(printed);
            return Ok(None);
        }
        if self.wanted(inner) {
            return Ok(Some(full));
        }
        if archive::wanted(inner, true) && !self.nested(full) {
            return Err(Stopped);
        }
        Ok(None)
    }

    /// A member that is not read because it is an archive by its name (a
    /// zip or tar inside an archive): said, not dropped in silence.
    fn nested(&mut self, full: String) -> bool {
        let mi = self.next_member;
        self.next_member += 1;
        self.item(Item::Member(mi, full))
            && self.item(Item::Skipped(
                mi,
                "an archive inside an archive is not read (extract it, and name it)".into(),
            ))
    }

    /// Every wanted member of a tar archive, in order. A hard link (GNU tar
    /// stores the second name of a file as one) or a symbolic link to
    /// another member is read as that member, under its own name, after the
    /// others (the archive is read again for them); a link that cannot be
    /// followed (outside the archive, to nothing, from standard input) is
    /// named with the reason.
    fn tar(
        &mut self,
        fi: usize,
        name: &str,
        src: Box<dyn Read + '_>,
        again: &TarSource<'_>,
    ) -> bool {
        let mut tar = tar::Archive::new(src);
        let entries = match tar.entries() {
            Ok(e) => e,
            Err(e) => {
                return self.item(Item::Error(
                    fi,
                    FileErrorKind::Archive,
                    format!("tar archive: {e}"),
                ))
            }
        };
        let mut members = 0;
        let mut names = MemberNames::default();
        // Links to follow: (printed name, the member's path it points to).
        let mut links: Vec<(String, Result<String, String>)> = Vec::new();
        // Every regular member's path (a link's target must be one).
        let mut files = std::collections::HashSet::new();
        for entry in entries {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    return self.item(Item::Error(
                        fi,
                        FileErrorKind::Archive,
                        format!("tar archive broken after {members} members: {e}"),
                    ))
                }
            };
            let kind = entry.header().entry_type();
            let path = entry
                .path()
                .map(|p| p.to_string_lossy().into_owned())
                .unwrap_or_default();
            if kind.is_hard_link() || kind.is_symlink() {
                let target = entry
                    .link_name()
                    .ok()
                    .flatten()
                    .map(|t| t.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let target = if kind.is_hard_link() {
                    Ok(tar_path(&target))
                } else {
                    symlink_target(&path, &target)
                };
                match self.member_name(name, &mut names, &path) {
                    Err(Stopped) => return false,
                    Ok(None) => {}
                    Ok(Some(full)) => links.push((full, target)),
                }
                continue;
            }
            if !kind.is_file() {
                continue;
            }
            files.insert(tar_path(&path));
            let full = match self.member_name(name, &mut names, &path) {
                Err(Stopped) => return false,
                Ok(None) => continue,
                Ok(Some(full)) => full,
            };
            members += 1;
            let size = entry.header().size().unwrap_or(0);
            let guarded = archive::member(entry, size.max(1), full.clone());
            if !self.member(full, Box::new(guarded)) {
                return false;
            }
        }
        if !links.is_empty() {
            match self.tar_links(links, &files, again) {
                None => return false,
                Some(n) => members += n,
            }
        }
        self.archive_end(fi, members, "tar archive")
    }

    /// The members a tar's links point to, read in a second pass over the
    /// archive: each target's bytes (the size its header gives, at most
    /// [`LINK_TARGET_BYTES`]) are read once and given to every link to it.
    /// The number of links read; `None` when the run stopped.
    fn tar_links(
        &mut self,
        links: Vec<(String, Result<String, String>)>,
        files: &std::collections::HashSet<String>,
        again: &TarSource<'_>,
    ) -> Option<usize> {
        let mut wanted: std::collections::HashMap<String, Vec<String>> = Default::default();
        let mut read = 0;
        for (full, target) in links {
            match target {
                Ok(t) if files.contains(&t) => wanted.entry(t).or_default().push(full),
                Ok(t) => self.skip_member(
                    full,
                    format!("a link to {t}, which is no file of the archive: not read"),
                )?,
                Err(why) => self.skip_member(full, why)?,
            }
        }
        if wanted.is_empty() {
            return Some(0);
        }
        let mut tar = match again() {
            Ok(src) => tar::Archive::new(src),
            Err(e) => {
                for full in wanted.into_values().flatten() {
                    self.skip_member(full, format!("a link, not read: {e}"))?;
                }
                return Some(0);
            }
        };
        let Ok(entries) = tar.entries() else {
            return Some(0);
        };
        for entry in entries.flatten() {
            if !entry.header().entry_type().is_file() {
                continue;
            }
            let path = entry
                .path()
                .map(|p| tar_path(&p.to_string_lossy()))
                .unwrap_or_default();
            let Some(fulls) = wanted.remove(&path) else {
                continue;
            };
            let size = entry.header().size().unwrap_or(0);
            let mut bytes = Vec::new();
            if size > LINK_TARGET_BYTES
                || entry
                    .take(LINK_TARGET_BYTES)
                    .read_to_end(&mut bytes)
                    .is_err()
            {
                for full in fulls {
                    self.skip_member(full, format!("a link to {path}, which is over {LINK_TARGET_BYTES} bytes or unreadable: not read"))?;
                }
                continue;
            }
            let bytes: Arc<[u8]> = bytes.into();
            for full in fulls {
                read += 1;
                if !self.member(full, Box::new(std::io::Cursor::new(Arc::clone(&bytes)))) {
                    return None;
                }
            }
        }
        Some(read)
    }

    /// A member that is not read, named with the reason.
    fn skip_member(&mut self, full: String, why: String) -> Option<()> {
        let mi = self.next_member;
        self.next_member += 1;
        (self.item(Item::Member(mi, full)) && self.item(Item::Skipped(mi, why))).then_some(())
    }

    /// Every wanted member of a zip archive, in the order of its directory.
    /// The directory is read first, every entry kept: entries whose data
    /// overlap (a zip bomb) refuse the archive; members with the same name
    /// (appending tools make them), which the zip reader keeps one of, are
    /// all read entry by entry from the directory's sizes and offsets, also
    /// when the sizes follow the data (streaming writers) or are Zip64. An
    /// entry that runs past the end of the file is refused alone. Only when
    /// this reader cannot read the directory is the `zip` crate's reader
    /// used, and its directory is checked for overlap the same way before
    /// anything is decompressed.
    fn zip(&mut self, fi: usize, name: &str, open: &ZipSource<'_>) -> bool {
        let dir = open().and_then(|mut f| {
            let len = f.seek(std::io::SeekFrom::End(0))?;
            Ok((zipdir::entries(&mut f)?, len))
        });
        if let Ok((entries, len)) = &dir {
            // An entry past the end is refused on its own when it is read:
            // it takes no room here.
            let spans: Vec<(u64, u64)> = entries
                .iter()
                .map(|e| zipdir::readable(e.span(), *len))
                .collect();
            if let Some(why) = zipdir::overlapping(&spans) {
                return self.item(Item::Error(
                    fi,
                    FileErrorKind::Archive,
                    format!("zip archive: {why}"),
                ));
            }
            return self.zip_entries(fi, name, open, entries, *len);
        }
        let opened = open()
            .and_then(|mut f| Ok((f.seek(std::io::SeekFrom::End(0))?, f)))
            .map_err(zip::result::ZipError::Io)
            .and_then(|(len, f)| Ok((len, zip::ZipArchive::new(f)?)));
        let (len, mut zip) = match opened {
            Ok(z) => z,
            Err(e) => {
                return self.item(Item::Error(
                    fi,
                    FileErrorKind::Archive,
                    format!("zip archive: {e}"),
                ))
            }
        };
        // The spans of the entries as this reader finds them (its local
        // headers are read, nothing is decompressed).
        let spans: Vec<Option<(u64, u64)>> = (0..zip.len())
            .map(|i| {
                let f = zip.by_index_raw(i).ok()?;
                Some((
                    f.header_start(),
                    f.data_start().saturating_add(f.compressed_size()),
                ))
            })
            .collect();
        let known: Vec<(u64, u64)> = spans
            .iter()
            .map(|s| s.map_or((0, 0), |s| zipdir::readable(s, len)))
            .collect();
        if let Some(why) = zipdir::overlapping(&known) {
            return self.item(Item::Error(
                fi,
                FileErrorKind::Archive,
                format!("zip archive: {why}"),
            ));
        }
        let mut names = MemberNames::default();
        let mut members = 0;
        for (i, span) in spans.iter().enumerate() {
            let file = match span.and_then(|s| zipdir::past_end(s, len)) {
                Some(why) => Err(why),
                None => zip.by_index(i).map_err(|e| e.to_string()),
            };
            let file = match file {
                Ok(f) => f,
                Err(e) => {
                    if !self.item(Item::Error(
                        fi,
                        FileErrorKind::Archive,
                        format!("zip archive, member {}: {e}", i + 1),
                    )) {
                        return false;
                    }
                    continue;
                }
            };
            if self
                .zip_member(name, &mut names, file, &mut members)
                .is_err()
            {
                return false;
            }
        }
        self.archive_end(fi, members, "zip archive")
    }

    /// Every wanted member of a zip archive (a file of `len` bytes), read
    /// entry by entry from its directory.
    fn zip_entries(
        &mut self,
        fi: usize,
        name: &str,
        open: &ZipSource<'_>,
        entries: &[zipdir::Entry],
        len: u64,
    ) -> bool {
        let mut names = MemberNames::default();
        let mut src = match open() {
            Ok(f) => std::io::BufReader::new(f),
            Err(e) => {
                return self.item(Item::Error(
                    fi,
                    FileErrorKind::Archive,
                    format!("zip archive: {e}"),
                ))
            }
        };
        let mut members = 0;
        for (i, e) in entries.iter().enumerate() {
            if !e.is_file() {
                continue;
            }
            let full = match self.member_name(name, &mut names, &e.name()) {
                Err(Stopped) => return false,
                Ok(None) => continue,
                Ok(Some(full)) => full,
            };
            let opened = match zipdir::past_end(e.span(), len) {
                Some(why) => Err(why),
                None => zipdir::open_entry(&mut src, e).map_err(|e| e.to_string()),
            };
            let data = match opened {
                Ok(d) => d,
                Err(why) => {
                    if !self.item(Item::Error(
                        fi,
                        FileErrorKind::Archive,
                        format!("zip archive, member {}: {why}", i + 1),
                    )) {
                        return false;
                    }
                    continue;
                }
            };
            members += 1;
            let guarded = archive::member(data, e.compressed.max(1), full.clone());
            if !self.member(full, Box::new(guarded)) {
                return false;
            }
        }
        self.archive_end(fi, members, "zip archive")
    }
}

impl Feeder<'_> {
    /// One entry of a zip archive (read from its directory or its local
    /// headers): read as a file of its own when wanted (counted in
    /// `members`), said when it is an archive itself, passed over else.
    fn zip_member<R: Read>(
        &mut self,
        archive: &str,
        names: &mut MemberNames,
        file: zip::read::ZipFile<'_, R>,
        members: &mut usize,
    ) -> Result<(), Stopped> {
        // Info-ZIP's `zip` on Linux stores UTF-8 names without the UTF-8
        // flag: a name whose bytes are UTF-8 is read as UTF-8, not CP437.
        let inner = zip_name(&file);
        if !file.is_file() {
            return Ok(());
        }
        let Some(full) = self.member_name(archive, names, &inner)? else {
            return Ok(());
        };
        *members += 1;
        let compressed = file.compressed_size().max(1);
        let guarded = archive::member(file, compressed, full.clone());
        if self.member(full, Box::new(guarded)) {
            Ok(())
        } else {
            Err(Stopped)
        }
    }
}

/// A zip member's name: its bytes as UTF-8 when they are (Info-ZIP's `zip`
/// on Linux stores UTF-8 names without the UTF-8 flag), else as the zip
/// reader decodes them (CP437).
fn zip_name<R: Read>(file: &zip::read::ZipFile<'_, R>) -> String {
    match std::str::from_utf8(file.name_raw()) {
        Ok(utf8) => utf8.to_string(),
        Err(_) => file.name().to_string(),
    }
}

/// The bytes of a tar archive read again (its links' targets).
type TarSource<'a> = dyn Fn() -> std::io::Result<Box<dyn Read + 'a>> + 'a;

/// The most bytes of a tar member read to give to the links to it.
const LINK_TARGET_BYTES: u64 = 256 << 20;

/// A member's path inside a tar, as links name it: no `./` at its start.
fn tar_path(p: &str) -> String {
    let mut p = p;
    while let Some(rest) = p.strip_prefix("./") {
        p = rest;
    }
    p.to_string()
}

/// The member a symbolic link at `at` to `target` names, resolved inside
/// the archive; an absolute target, or one that climbs out, is refused.
fn symlink_target(at: &str, target: &str) -> Result<String, String> {
    if target.starts_with('/') {
        return Err(format!(
            "a symbolic link to {target}, outside the archive: not read"
        ));
    }
    let at = tar_path(at);
    let mut parts: Vec<&str> = at.split('/').filter(|s| !s.is_empty()).collect();
    parts.pop();
    for part in target.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return Err(format!(
                        "a symbolic link to {target}, outside the archive: not read"
                    ));
                }
            }
            p => parts.push(p),
        }
    }
    Ok(parts.join("/"))
}

/// A source a zip archive is read from (it is read from its end).
pub(crate) trait ReadSeek: Read + std::io::Seek {}
impl<T: Read + std::io::Seek> ReadSeek for T {}

/// Opens a zip archive's bytes afresh (its directory is read, then, for
/// duplicate names, its local headers from the start).
type ZipSource<'a> = dyn Fn() -> std::io::Result<Box<dyn ReadSeek>> + 'a;

/// The run stopped (the receiver is gone).
struct Stopped;

/// Members' names as pdnkit prints them (CLI.md): `#` and `!` inside a name
/// written `%23` and `%21`, and a second member of the same name `NAME#2`.
#[derive(Default)]
struct MemberNames {
    seen: std::collections::HashMap<String, usize>,
}

impl MemberNames {
    fn printed(&mut self, inner: &str) -> String {
        let escaped = inner.replace('#', "%23").replace('!', "%21");
        let n = self.seen.entry(escaped.clone()).or_default();
        *n += 1;
        if *n == 1 {
            escaped
        } else {
            format!("{escaped}#{n}")
        }
    }
}
