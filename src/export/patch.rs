//! Result fixes (`--fix-results`): the bytes to change in a file, and their
//! safe application.

use crate::export::normalise::{as_played, NotRewritable};
use crate::pdn::write::ResultStyle;
use crate::pdn::{Game, Outcome};
use crate::replay::GameReport;

/// One change to a file's bytes: at `offset`, the bytes `old` replaced by `new`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Patch {
    /// Byte offset in the file.
    pub offset: u64,
    /// The bytes that must be there (empty for an insertion).
    pub old: Vec<u8>,
    /// What replaces them.
    pub new: String,
}

/// What `--in-place --fix-results` does to one game: the patches, and each
/// change in the file's own words, or why it left the game alone.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResultFix {
    /// The byte changes (empty: nothing changed).
    pub patches: Vec<Patch>,
    /// Each change as a person reads it: `Result tag 1-1 -> 0-2`,
    /// `terminator 1/2-1/2 -> 0-2 (the Result tag's)`, `terminator added: 0-2`.
    pub changes: Vec<String>,
    /// Why nothing was changed where something disagrees (`None`: nothing
    /// to fix, or fixed).
    pub left: Option<&'static str>,
}

/// Whether a result text is of the `1-0`, `0-1`, `1/2-1/2` family.
pub(super) fn classic_text(text: &str) -> bool {
    matches!(text.trim(), "1-0" | "0-1" | "1/2-1/2")
}

/// [`ResultFix::of`].
pub(super) fn result_fixes(g: &Game, r: &GameReport, results: Option<ResultStyle>) -> ResultFix {
    if r.result_as_written {
        return ResultFix {
            left: Some("a 1-0 or 0-1 whose meaning depends on the variant, which is not known"),
            ..ResultFix::default()
        };
    }
    let d = Declared::of(g, r.variant);
    let computed_fix = r.computed != Outcome::Unknown && r.declared != Some(r.computed);
    let want =
        if computed_fix {
            r.computed
        } else {
            match (d.tag_outcome, &d.token) {
                // The replay cannot decide and the two disagree: left as they are.
                (Some(t), Some((o, _))) if t != *o => return ResultFix {
                    left: Some(
                        "the Result tag and the terminator disagree, and the replay cannot decide",
                    ),
                    ..ResultFix::default()
                },
                // A tag and no token: the token is added.
                (Some(t), None) => t,
                // A token and no tag, or both agreeing: nothing contradicts.
                _ => return ResultFix::default(),
            }
        };
    let text = results
        .unwrap_or_else(|| d.style())
        .token_for(want, r.variant);
    let eol = if g.text().windows(2).any(|w| w == b"\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    let mut fix = ResultFix::default();
    fix_tag(&mut fix, g, &d, want, text, eol, r.irregularities);
    let why = if computed_fix {
        as_played(r.irregularities)
    } else {
        " (the Result tag's)".to_string()
    };
    fix_token(&mut fix, g, &d, want, text, eol, &why);
    fix
}

/// The results a game declares: its Result tag and its terminator.
struct Declared<'g> {
    tag: Option<&'g crate::pdn::Tag>,
    tag_text: Option<String>,
    tag_outcome: Option<Outcome>,
    token_text: Option<String>,
    token: Option<(Outcome, std::ops::Range<usize>)>,
}

impl<'g> Declared<'g> {
    fn of(g: &'g Game, v: Option<crate::variant::Variant>) -> Declared<'g> {
        let tag = g
            .tags()
            .iter()
            .find(|t| g.tag_name(t).eq_ignore_ascii_case("Result"));
        let tag_text = tag.map(|t| g.tag_value(t));
        let tag_outcome = tag_text.as_deref().and_then(|t| Outcome::parse_for(t, v));
        let token_text = g
            .result()
            .map(|(_, span)| String::from_utf8_lossy(g.bytes(span)).trim().to_string());
        let token = g.result().map(|(o, span)| {
            (
                Outcome::parse_for(&String::from_utf8_lossy(g.bytes(span)), v).unwrap_or(*o),
                span.clone(),
            )
        });
        Declared {
            tag,
            tag_text,
            tag_outcome,
            token_text,
            token,
        }
    }

    /// The file's own family: the game's tag text first, then its token's.
    fn style(&self) -> ResultStyle {
        let real = |t: &&str| Outcome::parse(t).is_some_and(|o| o != Outcome::Unknown);
        let own = self
            .tag_text
            .as_deref()
            .filter(real)
            .or(self.token_text.as_deref().filter(real));
        match own {
            Some(t) if classic_text(t) => ResultStyle::Classic,
            _ => ResultStyle::Draughts,
        }
    }
}

impl ResultFix {
    /// The bytes of `span` in game `g` replaced by `new` (an empty span:
    /// `new` inserted there), said as `change`.
    fn put(&mut self, g: &Game, span: std::ops::Range<usize>, new: String, change: String) {
        self.patches.push(Patch {
            offset: g.offset() + span.start as u64,
            old: g.bytes(&span).to_vec(),
            new,
        });
        self.changes.push(change);
    }
}

/// The Result tag set to `text`, or added right after the last tag.
fn fix_tag(
    fix: &mut ResultFix,
    g: &Game,
    d: &Declared<'_>,
    want: Outcome,
    text: &str,
    eol: &str,
    irregularities: u32,
) {
    match d.tag {
        Some(t) if d.tag_outcome != Some(want) => fix.put(
            g,
            t.value_span(),
            text.to_string(),
            format!(
                "Result tag {} -> {text}{}",
                d.tag_text.as_deref().unwrap_or(""),
                as_played(irregularities)
            ),
        ),
        Some(_) => {}
        None => {
            // Right after the last tag, on a line of its own.
            let end = g.tags().last().map_or(0, |t| t.span().end);
            fix.put(
                g,
                end..end,
                format!("{eol}[Result \"{text}\"]"),
                format!("Result tag added: {text}{}", as_played(irregularities)),
            );
        }
    }
}

/// The terminator set to `text`, or added after the movetext.
fn fix_token(
    fix: &mut ResultFix,
    g: &Game,
    d: &Declared<'_>,
    want: Outcome,
    text: &str,
    eol: &str,
    why: &str,
) {
    match &d.token {
        Some((o, span)) if *o != want => fix.put(
            g,
            span.clone(),
            text.to_string(),
            format!(
                "terminator {} -> {text}{why}",
                d.token_text.as_deref().unwrap_or("")
            ),
        ),
        Some(_) => {}
        None => {
            // After the last thing of the movetext; a `;` comment or a `%`
            // line runs to its line's end, and a game with no movetext ends
            // with a tag: the token goes on a line of its own.
            let last = g
                .text()
                .iter()
                .rposition(|b| !b.is_ascii_whitespace())
                .map_or(0, |i| i + 1);
            let tags_end = g.tags().last().map_or(0, |t| t.span().end);
            let line_end = g.nodes().is_empty()
                || last <= tags_end
                || matches!(g.nodes().last(), Some(crate::pdn::Node::Escape(_)))
                || matches!(g.nodes().last(), Some(crate::pdn::Node::Comment(s)) if s.start > 0 && g.text().get(s.start - 1) == Some(&b';'));
            let new = if line_end {
                format!("{eol}{text}")
            } else {
                format!(" {text}")
            };
            fix.put(g, last..last, new, format!("terminator added: {text}{why}"));
        }
    }
}

/// The file's bytes with `patches` applied (in any order; none may overlap).
pub(super) fn apply_patches(original: &[u8], patches: &[Patch]) -> Result<Vec<u8>, NotRewritable> {
    let mut sorted: Vec<&Patch> = patches.iter().collect();
    sorted.sort_by_key(|p| p.offset);
    let mut out = Vec::with_capacity(original.len() + 64 * patches.len());
    let mut at = 0usize;
    for p in sorted {
        let start = usize::try_from(p.offset).map_err(|_| NotRewritable::Changed(p.offset))?;
        let end = start + p.old.len();
        if start < at || original.get(start..end) != Some(&p.old[..]) {
            return Err(NotRewritable::Changed(p.offset));
        }
        out.extend_from_slice(&original[at..start]);
        out.extend_from_slice(p.new.as_bytes());
        at = end;
    }
    out.extend_from_slice(&original[at..]);
    Ok(out)
}

impl ResultFix {
    /// The fixes `--in-place --fix-results` makes to a game. The result is the
    /// computed one where the record's is wrong or missing, else the Result
    /// tag's where the final token disagrees with it (or is missing). Only the
    /// Result tag's value and the final token change: a missing Result tag is
    /// added after the last tag, a missing token after the movetext (on a line
    /// of its own when the game has no movetext, never on a tag's line). Every
    /// other byte stays. A result is written in `results`' family when given,
    /// else in the game's own (its tag's text first), and always in its
    /// variant's order (English: the first player's score first). Nothing is
    /// changed where the result's meaning is not known, nor where the replay
    /// cannot decide and the tag and the terminator disagree.
    pub fn of(g: &Game, r: &GameReport, results: Option<ResultStyle>) -> ResultFix {
        result_fixes(g, r, results)
    }
}

impl Patch {
    /// The file's bytes with `patches` applied (in any order; none may
    /// overlap), or where a patch's old bytes are not there.
    pub fn apply_all(original: &[u8], patches: &[Patch]) -> Result<Vec<u8>, NotRewritable> {
        apply_patches(original, patches)
    }
}
