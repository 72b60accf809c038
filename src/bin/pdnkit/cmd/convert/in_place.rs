//! `convert --in-place`: which files may be rewritten, and each file patched
//! (`--fix-results`) or rewritten whole (`--normalise`) with its backup.

use super::{Args, ConvertSink, Dest, Results};
use crate::output::{AtomicFile, Replace};
use pdnkit::batch::Input;
use pdnkit::export::{Normalise, NotRewritable, Patch};
use pdnkit::pdn::write::ResultStyle;
use pdnkit::pdn::Game;
use pdnkit::replay::GameReport;
use std::io::Write;

/// Why --in-place leaves a file alone: a symbolic link (the file itself, or
/// a folder between the PATH named and the file), anything but a regular
/// file, a file with several hard links.
pub(super) fn in_place_refusal(p: &std::path::Path, root: &std::path::Path) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let m = match std::fs::symlink_metadata(p) {
        Ok(m) => m,
        Err(e) => return Some(e.to_string()),
    };
    if m.file_type().is_symlink() {
        return Some("is a symbolic link; --in-place does not follow links".into());
    }
    if let Ok(rel) = p.strip_prefix(root) {
        let mut at = root.to_path_buf();
        let parts: Vec<_> = rel.components().collect();
        for c in parts.iter().take(parts.len().saturating_sub(1)) {
            at.push(c);
            if std::fs::symlink_metadata(&at).is_ok_and(|m| m.file_type().is_symlink()) {
                return Some(format!(
                    "is reached through the symbolic link {}; --in-place does not follow links",
                    crate::render::path(&at)
                ));
            }
        }
    }
    if !m.is_file() {
        return Some("is not a regular file (a FIFO, a device...)".into());
    }
    if m.nlink() > 1 {
        return Some(format!(
            "has {} hard links; rewriting it would break them",
            m.nlink()
        ));
    }
    compressed_or_archive(p)
}

/// Why --in-place leaves a compressed file or an archive alone (told by its
/// first bytes, as the reader tells them).
pub(super) fn compressed_or_archive(p: &std::path::Path) -> Option<String> {
    use std::io::Read as _;
    let mut head = Vec::with_capacity(512);
    std::fs::File::open(p)
        .and_then(|f| f.take(512).read_to_end(&mut head))
        .ok()?;
    let what = pdnkit::batch::packed(&head)?;
    Some(format!(
        "is {what}: --in-place rewrites plain files only (decompress it, or write the result elsewhere with -o)"
    ))
}

/// Applies a file's patches: the patched bytes are written beside it and
/// renamed over it after its backup (NAME.bak) is made.
pub(super) fn patch_file(
    file: &str,
    patches: &[Patch],
    stamp: Option<crate::output::Stamp>,
) -> std::io::Result<()> {
    let path = std::path::Path::new(file);
    let mut f = AtomicFile::create(path, Replace::InPlace)?;
    let original = std::fs::read(path)?;
    if let Some(s) = stamp {
        // The patches are at the offsets of what was read.
        if original.len() as u64 != s.len() {
            return Err(std::io::Error::other(
                "was written to while it was being rewritten (its length changed since it was read); left as it is, with what was written",
            ));
        }
        f.read_as(s);
    }
    let patched =
        pdnkit::export::Patch::apply_all(&original, patches).map_err(std::io::Error::other)?;
    f.write_all(&patched)?;
    f.commit()
}

impl ConvertSink {
    /// Leaves `file` as it was, because game `g` of it cannot be rewritten
    /// (`why`; `doing`: `rewritten`, `patched`): said on standard error and
    /// listed, a documented reason to leave a file alone, not a failure.
    pub(super) fn leave_file(&mut self, file: &str, g: &Game, doing: &str, why: NotRewritable) {
        let hint = match why {
            NotRewritable::ReaderErrors(_) => " (see pdnkit check)",
            _ => "",
        };
        eprintln!(
            "pdnkit: {}: not {doing}: game {} {why}{hint}; the file is left as it was",
            crate::render::name(file),
            g.index()
        );
        self.left_files
            .push((file.to_string(), format!("game {} {why}", g.index())));
        self.keep_original = Some(file.to_string());
    }

    /// --in-place --fix-results: collects the game's patches for its file.
    pub(super) fn patch(&mut self, file: &str, g: &Game, r: &GameReport) {
        if self.keep_original.as_deref() == Some(file) {
            return;
        }
        let Dest::Patch(cur) = &mut self.dest else {
            return;
        };
        if cur.as_ref().is_none_or(|(f, _)| f != file) {
            *cur = Some((file.to_string(), Vec::new()));
        }
        // The file's own family of tokens, unless --results names one.
        let results = self.a.results.map(|r| match r {
            Results::Draughts => ResultStyle::Draughts,
            Results::Classic => ResultStyle::Classic,
        });
        let fix = pdnkit::export::ResultFix::of(g, r, results);
        if let Some(why) = fix.left {
            *self.left_alone.entry(why).or_default() += 1;
        }
        let patches = fix.patches;
        if patches.is_empty() {
            return;
        }
        if let Err(why) = Normalise::rewritable(g) {
            *cur = None;
            self.leave_file(file, g, "patched", why);
            return;
        }
        for change in &fix.changes {
            eprintln!(
                "{}: game {}: {change}",
                crate::render::name(file),
                g.index()
            );
        }
        if let Some((_, v)) = cur {
            v.extend(patches);
        }
    }
}

/// What --in-place refuses to rewrite.
pub(super) fn check_in_place(a: &Args, inputs: &[Input]) -> Result<(), String> {
    if a.in_place && inputs.iter().any(|i| matches!(i, Input::Stdin)) {
        return Err("--in-place cannot rewrite standard input".into());
    }
    if a.in_place {
        if let Some(Input::File(p)) = inputs
            .iter()
            .find(|i| matches!(i, Input::File(p) if p.extension().is_some_and(|e| e == "bak")))
        {
            return Err(format!(
                "{}: --in-place does not rewrite backups (.bak files)",
                crate::render::path(p)
            ));
        }
    }
    Ok(())
}

/// `--in-place` rewrites only regular files with one link, reached without
/// a symbolic link: the others are said and left alone (before anything is
/// read: a FIFO would never end). The files left alone, with why, and the
/// stamps of those kept (a file changed while it is read is not replaced).
pub(super) type LeftAlone = (
    Vec<(String, String)>,
    std::collections::HashMap<String, crate::output::Stamp>,
);

pub(super) fn keep_rewritable(prepared: &mut crate::common::Prepared) -> LeftAlone {
    let mut left: Vec<(String, String)> = Vec::new();
    let mut stamps = std::collections::HashMap::new();
    prepared.batch.retain(|i, root| match i {
        Input::File(p) => match in_place_refusal(p, root) {
            Some(why) => {
                eprintln!("pdnkit: {}: {why}; left as it is", crate::render::path(p));
                left.push((p.display().to_string(), why));
                false
            }
            None => {
                if let Some(s) = crate::output::Stamp::of(p) {
                    stamps.insert(i.name(), s);
                }
                true
            }
        },
        Input::Member(p, m) => {
            let why = "a member of an archive is not converted in place (extract it)";
            eprintln!(
                "pdnkit: {}!{m}: {why}; left as it is",
                crate::render::path(p)
            );
            left.push((format!("{}!{m}", p.display()), why.to_string()));
            false
        }
        Input::Stdin | Input::Bytes(..) => true,
    });
    (left, stamps)
}
