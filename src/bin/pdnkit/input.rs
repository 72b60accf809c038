//! PATH arguments turned into the list of inputs: files, walked directories, `-`.

use std::path::{Path, PathBuf};

/// One input to read.
#[derive(Clone, Debug)]
pub enum Input {
    File(PathBuf),
    Stdin,
}

impl Input {
    /// The name used in output: the path as given or found, `-` for stdin.
    pub fn name(&self) -> String {
        match self {
            Input::File(p) => p.display().to_string(),
            Input::Stdin => "-".to_string(),
        }
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

fn wanted(p: &Path, all_files: bool) -> bool {
    !own_file(p) && all_files
        || p.extension().and_then(|e| e.to_str()).is_some_and(|e| {
            ["pdn", "pgn", "txt"]
                .iter()
                .any(|x| x.eq_ignore_ascii_case(e))
        })
}

/// Expands PATHs. Problems with a PATH named on the command line are fatal
/// (`Err`); problems met while walking are returned as messages.
pub fn expand(paths: &[PathBuf], all_files: bool) -> Result<(Vec<Input>, Vec<String>), String> {
    let mut out = Vec::new();
    let mut problems = Vec::new();
    for p in paths {
        if p.as_os_str() == "-" {
            out.push(Input::Stdin);
            continue;
        }
        let meta = std::fs::metadata(p).map_err(|e| format!("{}: {e}", p.display()))?;
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
                    Err(e) => problems.push(format!("{e}")),
                }
            }
            out.extend(found.into_iter().map(Input::File));
        } else {
            std::fs::File::open(p).map_err(|e| format!("{}: {e}", p.display()))?;
            out.push(Input::File(p.clone()));
        }
    }
    Ok((out, problems))
}
