//! Normalised PDN: a game written back in the standard's form, and whether
//! it may stand for the game's text.

use crate::diag::Severity;
use crate::infer::VariantSource;
use crate::notation::{write_move, Style};
use crate::pdn::write::{write_game_with, Overrides, ResultStyle, WriteOptions};
use crate::pdn::{Game, Outcome};
use crate::replay::GameReport;
use crate::variant::GameKind;

/// How a game is written as normalised PDN ([`Normalise::apply`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Normalise {
    /// The result family (English games are always written in checkers order).
    pub results: ResultStyle,
    /// Write the computed result where the declared one is wrong or missing.
    pub fix_results: bool,
    /// The output merges games of several files (or of a selection): a game
    /// whose variant its file decided carries the decided GameType and
    /// pdnkit's marker (as [`GameReport::marked`] adds them), so that it reads back the same.
    pub merged: bool,
}

/// The tags a game needs in a merged output to read back as it was read in
/// its source: the GameType its file decided (none for a refused or
/// undecided game), and the value of pdnkit's marker
/// ([`crate::pdn::MARKER_TAG`]). `None` for a game whose own tag, or
/// `--force-variant`, gave its variant.
pub(super) fn marker_for(r: &GameReport) -> Option<(Option<u32>, String)> {
    let source = match r.source {
        VariantSource::Inferred
        | VariantSource::File
        | VariantSource::Named
        | VariantSource::Refused
        | VariantSource::Undecided => r.source,
        VariantSource::Tag | VariantSource::Forced | VariantSource::Unsupported => return None,
    };
    let game_type = match (source, r.kind) {
        (VariantSource::Refused | VariantSource::Undecided, _) => None,
        (_, Some(GameKind::Known(v))) => Some(v.game_type()),
        // Read only: no variant was decided, nothing to keep.
        _ => return None,
    };
    let marker = crate::infer::Marker {
        source,
        order_known: !r.result_as_written,
    };
    Some((game_type, marker.value()))
}

/// A game's own bytes as a merged output writes them (`select`, or several
/// files into one): `text` (the game's text, or a part of it that starts
/// before its first tag) with the GameType its file decided and pdnkit's
/// marker (the `VariantSource` tag) added after its last tag, in its line
/// ends, when the game's variant came from its file; borrowed as it is when
/// its own tag, or `--force-variant`, gave its variant. Tags it has already
/// are kept.
pub(crate) fn marked<'t>(g: &Game, r: &GameReport, text: &'t [u8]) -> std::borrow::Cow<'t, [u8]> {
    let Some((game_type, marker)) = marker_for(r) else {
        return std::borrow::Cow::Borrowed(text);
    };
    let mut add = Vec::new();
    if let Some(t) = game_type {
        add.push(("GameType", t.to_string()));
    }
    add.push((crate::pdn::MARKER_TAG, marker));
    std::borrow::Cow::Owned(with_tags(g, text, &add))
}

/// `text` with tag lines added after its last tag (before its first line
/// when it has none), in its line ends. Tags it has already are kept.
pub(super) fn with_tags(g: &Game, text: &[u8], add: &[(&str, String)]) -> Vec<u8> {
    let eol: &[u8] = if text.windows(2).any(|w| w == b"\r\n") {
        b"\r\n"
    } else {
        b"\n"
    };
    let mut lines = Vec::new();
    for (name, value) in add {
        if g.find_tag(name).is_some() {
            continue;
        }
        lines.extend_from_slice(
            format!("[{name} \"{}\"]", crate::pdn::write::escape(value)).as_bytes(),
        );
        lines.extend_from_slice(eol);
    }
    if lines.is_empty() {
        return text.to_vec();
    }
    // The end of the last tag, as an offset into `text` (which may be the
    // game's text without its leading space).
    let whole = g.text();
    let lead = (text.as_ptr() as usize)
        .checked_sub(whole.as_ptr() as usize)
        .filter(|&d| d + text.len() <= whole.len())
        .unwrap_or(0);
    let after_tags = g.tags().last().map(|t| {
        let end = t.span().end.saturating_sub(lead).min(text.len());
        // To the end of that line when nothing but space follows the tag on
        // it; else right after the tag (movetext on the tag's line stays
        // after the new tags).
        let rest = &text[end..];
        let line_end = rest.iter().position(|&b| b == b'\n');
        match line_end {
            Some(i) if rest[..i].iter().all(u8::is_ascii_whitespace) => (end + i + 1, false),
            None if rest.iter().all(u8::is_ascii_whitespace) => (text.len(), true),
            _ => (end, true),
        }
    });
    let mut out = Vec::with_capacity(text.len() + lines.len() + 2);
    match after_tags {
        Some((at, break_first)) => {
            out.extend_from_slice(&text[..at]);
            if break_first {
                out.extend_from_slice(eol);
            }
            out.extend_from_slice(&lines);
            out.extend_from_slice(&text[at..]);
        }
        None => {
            out.extend_from_slice(&lines);
            out.extend_from_slice(text);
        }
    }
    out
}

/// A game written back as normalised PDN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Normalised {
    /// The PDN text (ending with a blank line).
    pub text: String,
    /// With [`Normalise::fix_results`]: the result replaced, (declared, computed).
    pub fixed: Option<(Option<Outcome>, Outcome)>,
    /// Moves that stood in the game (`--irregularities stand`): a fixed
    /// result is the result of the game as played.
    pub stood: u32,
}

impl Normalised {
    /// With a result replaced: `Result DECLARED -> COMPUTED` (`(none)` when
    /// the record had none), what `convert --fix-results` lists.
    pub fn fix_note(&self) -> Option<String> {
        self.fixed.map(|(declared, computed)| {
            format!(
                "Result {} -> {}{}",
                declared.map_or("(none)", |o| o.normalised()),
                computed.normalised(),
                as_played(self.stood)
            )
        })
    }
}

/// What a result fixed after irregularities that stood is: the result of
/// the game as played (empty when none stood).
pub(super) fn as_played(stood: u32) -> String {
    match stood {
        0 => String::new(),
        1 => " (the game as played, after 1 irregular move that stood)".into(),
        n => format!(" (the game as played, after {n} irregular moves that stood)"),
    }
}

/// The text of each main-line token of game `g`, replayed as `r`, in
/// `style` (`numbers_only`: numeric squares whatever was written).
fn main_texts(g: &Game, r: &GameReport, style: Style, numbers_only: bool) -> Vec<String> {
    // Each move in its shortest unambiguous form, except a capture whose
    // record wrote a path that names it alone: that path is kept as written.
    let written: Vec<&crate::pdn::WrittenMove> = g.main_line().collect();
    // One text per main-line token: a capture written one jump per token
    // (read as one move, PDN-REAL-WORLD.md 8.1) is written whole at its
    // first token, and its other tokens are left out (empty texts).
    let mut main: Vec<String> = Vec::with_capacity(written.len());
    for p in &r.played {
        // The tokens of this ply: from its first to the one its span ends with.
        let first = main.len();
        let mut last = first;
        while written
            .get(last + 1)
            .is_some_and(|w| w.span.end <= p.span.end && w.span.start >= p.span.start)
        {
            last += 1;
        }
        let joined = last > first;
        // A move that stood (`--irregularities stand`) keeps its squares
        // as written: they were read against the relaxed moves, and read
        // back the same way.
        // Never for a record read turned: its squares as written are not
        // the board's.
        let kept = written.get(first).filter(|w| {
            !joined
                && !r.turned
                && (p.stood
                    || (p.mv.is_capture()
                        && g.squares(w).len() > 2
                        && matches!(
                            crate::notation::resolve(&p.before, g.squares(w), w.sep),
                            Ok(crate::notation::Reading::Move { mv, .. }) if mv == p.mv
                        )))
        });
        main.push(match kept {
            Some(w) => {
                let sep = match (p.mv.is_capture(), style.colon) {
                    (false, _) => "-",
                    (true, true) => ":",
                    (true, false) => "x",
                };
                let geometry = p.before.geometry();
                g.squares(w)
                    .iter()
                    .map(|&s| match crate::notation::square_of(geometry, s) {
                        Ok(sq) if numbers_only => sq.number().to_string(),
                        _ => s.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(sep)
            }
            // A joined capture too, in its shortest unambiguous form.
            None => write_move(&p.before, &p.mv, style),
        });
        main.resize(last + 1, String::new());
    }
    main
}

/// [`Normalise::apply`].
pub(super) fn normalised_pdn(g: &Game, r: &GameReport, opts: Normalise) -> Normalised {
    let mut style = g.main_line().next().map_or(
        Style {
            algebraic: false,
            colon: false,
        },
        |m| Style::of(g.squares(m), m.sep),
    );
    // Captures written with `:` anywhere keep `:` (it is also the evidence
    // a file without GameType is read as Russian by).
    style.colon |= g.main_line().any(|m| m.sep() == crate::pdn::Sep::Colon);
    // Italian records are numeric: the writer uses numbers (RULES.md 7), so
    // that no square name of the mirrored board is read on the usual one.
    let numbers_only = r.variant == Some(crate::variant::Variant::Italian);
    style.algebraic &= !numbers_only;
    let main = main_texts(g, r, style, numbers_only);
    let fixed = (opts.fix_results
        && !r.result_as_written
        && r.computed != Outcome::Unknown
        && r.declared != Some(r.computed))
    .then_some((r.declared, r.computed));
    let write = WriteOptions {
        results: opts.results,
        first: r.start.map(|p| p.side()),
        variant: r.variant,
        keep_results: r.result_as_written,
    };
    // A GameType is written only where the game had one or the user named
    // the variant: an inferred variant is never written as a fact, except in
    // a merged output, where the marker says it was inferred.
    // A decision that rested on the path is kept as in a merged output:
    // under another name the games would read back otherwise (issue 54).
    let marked = (opts.merged || r.from_path)
        .then(|| marker_for(r))
        .flatten();
    let game_type = match (r.source, r.kind, &marked) {
        (_, _, Some((t, _))) => *t,
        (VariantSource::Named | VariantSource::Forced, Some(GameKind::Known(v)), _) => {
            Some(v.game_type())
        }
        _ => None,
    };
    let text = write_game_with(
        g,
        write,
        &Overrides {
            main_moves: &main,
            result: fixed.map(|f| f.1),
            game_type,
            replace_game_type: r.source == VariantSource::Forced,
            agree: opts.fix_results && !r.result_as_written,
            marker: marked.map(|(_, m)| m),
            // A position the record named from the other side, upright.
            fen: r
                .start
                .filter(|_| r.turned && g.find_tag("FEN").is_some())
                .map(|p| p.to_fen()),
        },
    );
    Normalised {
        text,
        fixed,
        stood: r.irregularities,
    }
}

/// Why a game's file must not be rewritten in place (what could not be read
/// would be lost), or why its patches cannot be applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NotRewritable {
    /// Reader errors: text skipped after a syntax error, an unterminated comment.
    #[error("has {0} reader error(s)")]
    ReaderErrors(usize),
    /// Not a single tag pair: the text does not look like PDN.
    #[error("has no tag pair: this does not look like PDN")]
    NoTags,
    /// Its patches cannot be applied ([`Patch::apply_all`](super::Patch::apply_all)):
    /// its bytes at this offset are not those read.
    #[error(
        "its bytes at offset {0} are not those read (a UTF-16 file, or changed since): not patched"
    )]
    Changed(u64),
}

/// [`Normalise::rewritable`].
pub(super) fn rewritable(g: &Game) -> Result<(), NotRewritable> {
    let errors = g
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    if errors > 0 {
        Err(NotRewritable::ReaderErrors(errors))
    } else if g.tags.is_empty() {
        Err(NotRewritable::NoTags)
    } else {
        Ok(())
    }
}

impl Normalise {
    /// Whether normalised PDN can stand for the game's text (a file may be
    /// rewritten in place), or why not: reader errors (text skipped after a
    /// syntax error, an unterminated comment) or no tag pair at all would
    /// lose what could not be read.
    pub fn rewritable(g: &Game) -> Result<(), NotRewritable> {
        rewritable(g)
    }
    /// Game `g`, replayed as `r` with `keep_moves`, written back as normalised PDN: its
    /// main-line moves in their shortest unambiguous form in the file's own style
    /// (numeric or algebraic, `x` or `:`; an ambiguous short capture gets its full
    /// path; a path the record wrote is kept, and so are the squares of a move
    /// that stood), tags one per line, move numbers
    /// and variations placed as the reader placed them, and a GameType only where
    /// the game had one or the user named the variant (`--variant`,
    /// `--force-variant`). With [`Normalise::fix_results`] the Result tag and the
    /// final token agree.
    pub fn apply(self, g: &Game, r: &GameReport) -> Normalised {
        normalised_pdn(g, r, self)
    }
}

impl GameReport {
    /// This game's own bytes as a merged output writes them (`select`, or
    /// several files into one): `text` (the game's text, or a part of it
    /// that starts before its first tag) with the GameType its file decided
    /// and pdnkit's marker (the `VariantSource` tag) added after its last
    /// tag, in its line ends, when the game's variant came from its file;
    /// borrowed as it is when its own tag, or `--force-variant`, gave its
    /// variant. Tags it has already are kept.
    pub fn marked<'t>(&self, g: &Game, text: &'t [u8]) -> std::borrow::Cow<'t, [u8]> {
        marked(g, self, text)
    }
}
