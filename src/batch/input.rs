//! PATH arguments turned into the list of inputs: files, walked directories, `-`.

use super::model::FileError;
use std::path::{Path, PathBuf};

/// One input to read.
#[derive(Clone, Debug)]
pub enum Input {
    /// A file (or a FIFO, a device) by its path.
    File(PathBuf),
    /// Standard input, named `<stdin>`.
    Stdin,
    /// Bytes read as a file of this name.
    Bytes(String, std::sync::Arc<[u8]>),
    /// One member of an archive (a zip, a tar, compressed or not), named as
    /// pdnkit prints it (`NAME`, `NAME#2` for a second member of one name,
    /// `%23` and `%21` for `#` and `!`): the PATH `ARCHIVE!MEMBER`.
    Member(PathBuf, String),
}

impl Input {
    /// The name used in output: the path as given or found, `<stdin>` for standard input.
    pub fn name(&self) -> String {
        match self {
            Input::File(p) | Input::Member(p, _) => p.display().to_string(),
            Input::Stdin => "<stdin>".to_string(),
            Input::Bytes(name, _) => name.clone(),
        }
    }

    /// Its size in bytes, when known (0 for standard input).
    pub fn size(&self) -> u64 {
        match self {
            Input::File(p) | Input::Member(p, _) => {
                std::fs::metadata(p).map(|m| m.len()).unwrap_or(0)
            }
            Input::Stdin => 0,
            Input::Bytes(_, b) => b.len() as u64,
        }
    }
}

/// Whether the games of these inputs, written into one output, come from more
/// than one file: several inputs, or an archive (its members are files).
pub fn merged(inputs: &[Input]) -> bool {
    match inputs {
        [Input::File(p)] => p.file_name().is_some_and(|n| {
            let n = n.to_string_lossy();
            super::archive::wanted(&n, true) && !super::archive::wanted(&n, false)
        }),
        [Input::Bytes(n, _)] => {
            super::archive::wanted(n, true) && !super::archive::wanted(n, false)
        }
        [Input::Stdin] | [Input::Member(..)] | [] => false,
        _ => true,
    }
}

/// Files pdnkit writes beside its inputs, never read as input: `--in-place`
/// backups (`NAME.bak`) and unfinished temporary files.
fn own_file(p: &Path) -> bool {
    let name = p
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    name.ends_with(".bak")
        || (name.starts_with('.') && name.contains(".pdnkit-") && name.ends_with(".tmp"))
}

/// Whether a file met in a walked folder is read: `.pdn`, `.pgn` and `.txt`
/// files, their compressed forms and archives (`archive::wanted`), every
/// file with --all-files (but pdnkit's own).
fn wanted(p: &Path, all_files: bool) -> bool {
    !own_file(p) && all_files
        || p.file_name()
            .is_some_and(|n| super::archive::wanted(&n.to_string_lossy(), true))
}

/// `ARCHIVE!MEMBER` as pdnkit prints a member (CLI.md): the archive, the
/// first file met reading the PATH up to a `!`, and the member's printed
/// name after it. `None` when no such file exists. ([`crate::batch::Batch::paths`]
/// reads such a PATH when no file has its whole name.)
pub fn member_path(p: &Path) -> Option<(PathBuf, String)> {
    let text = p.to_str()?;
    text.match_indices('!').find_map(|(i, _)| {
        let archive = Path::new(&text[..i]);
        let member = &text[i + 1..];
        (!member.is_empty() && archive.is_file())
            .then(|| (archive.to_path_buf(), member.to_string()))
    })
}

/// Expands PATHs: files as named, members of archives as pdnkit prints
/// them (`ARCHIVE!MEMBER`, when no file has that name), directories walked (sorted by name), `-`
/// for standard input. A PATH that does not exist or cannot be read, and
/// anything met while walking (a symlink loop, an unreadable directory), is
/// returned as a problem; the other PATHs are still expanded.
/// Also returns, per input, the PATH it was found under (itself when named
/// on the command line, not found in a walked folder: a named file that is
/// skipped fails the run).
pub(crate) fn expand(
    paths: &[PathBuf],
    all_files: bool,
) -> (Vec<Input>, Vec<PathBuf>, Vec<FileError>) {
    let mut out = Vec::new();
    let mut named = Vec::new();
    let mut problems = Vec::new();
    for p in paths {
        if p.as_os_str() == "-" {
            out.push(Input::Stdin);
            named.push(p.clone());
            continue;
        }
        let meta = match std::fs::metadata(p) {
            Ok(m) => m,
            Err(_) if member_path(p).is_some() => {
                if let Some((archive, member)) = member_path(p) {
                    out.push(Input::Member(archive, member));
                    named.push(p.clone());
                }
                continue;
            }
            Err(e) => {
                problems.push(FileError::path(p, e.to_string()));
                continue;
            }
        };
        if meta.is_dir() {
            let mut found: Vec<PathBuf> = Vec::new();
            for entry in walkdir::WalkDir::new(p)
                .follow_links(true)
                .sort_by_file_name()
            {
                match entry {
                    Ok(e) if e.file_type().is_file() && wanted(e.path(), all_files) => {
                        found.push(e.into_path())
                    }
                    Ok(_) => {}
                    Err(e) => problems.push(FileError::path(
                        e.path().unwrap_or(p),
                        match e.io_error() {
                            Some(io) => io.to_string(),
                            None => e.to_string(),
                        },
                    )),
                }
            }
            named.extend(found.iter().map(|_| p.clone()));
            out.extend(found.into_iter().map(Input::File));
        } else if !meta.is_file() {
            // A FIFO or a device: opening it to probe could wait for a
            // writer; it is opened when read (and --in-place refuses it).
            out.push(Input::File(p.clone()));
            named.push(p.clone());
        } else {
            match std::fs::File::open(p) {
                Ok(_) => {
                    out.push(Input::File(p.clone()));
                    named.push(p.clone());
                }
                Err(e) => problems.push(FileError::path(p, e.to_string())),
            }
        }
    }
    (out, named, problems)
}
