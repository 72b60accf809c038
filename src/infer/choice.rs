//! The variant one game is read under: `--force-variant`, else the decision
//! its source wrote into a merged output (the marker), else its GameType (or
//! Variant) tag, else its file's decision for untagged games. The replay
//! asks this once per game.

use crate::diag::{Code, Diagnostic, Severity};
use crate::infer::{
    same_moves, tag_choice, variant_name, Inference, Marker, TagChoice, Untagged, VariantSource,
};
use crate::pdn::{game_type, Game, GameType, MARKER_TAG};
use crate::variant::{GameKind, Unsupported, Variant};

/// How a game is to be read: under a variant's rules, refused, or not at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Choice {
    Check(Variant),
    Refuse(Unsupported),
    Skip,
}

/// The variant a game is read under, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Chosen {
    /// Under a variant's rules, refused, or not at all.
    pub choice: Choice,
    /// What decided it.
    pub source: VariantSource,
    /// It is the file's decision for untagged games.
    pub inferred: bool,
    /// The meaning of `1-0` and `0-1` is known: the game's own tag decided,
    /// or its file's decision (or, marked, its source's) knows it.
    pub order_known: bool,
}

/// The choice a game's own tag gives (not its file's decision).
fn own(kind: GameKind) -> (Choice, VariantSource, bool) {
    match kind {
        GameKind::Known(v) => (Choice::Check(v), VariantSource::Tag, false),
        GameKind::Unsupported(u) => (Choice::Refuse(u), VariantSource::Unsupported, false),
    }
}

/// Chooses the variant of game `g` of a file whose untagged games are read
/// as `file` says; findings about its tags go to `diags`.
pub(crate) fn choose(
    g: &Game,
    force: Option<Variant>,
    file: &Inference,
    diags: &mut Vec<Diagnostic>,
) -> Chosen {
    let marker = g
        .find_tag(MARKER_TAG)
        .and_then(|t| Marker::parse(&g.tag_text(t)));
    let (choice, source, inferred) = if let Some(v) = force {
        forced(g, v, diags)
    } else if let Some(chosen) = marker.as_ref().and_then(|m| marked(g, m, file)) {
        chosen
    } else if let Some(t) = g.find_tag("GameType") {
        by_game_type(g, t, diags)
    } else {
        by_tags_or_file(g, file, diags)
    };
    // The meaning of `1-0` and `0-1` in a game that took its file's decision
    // (or, marked, its source's).
    let order_known = match marker {
        Some(m) => m.order_known,
        None => {
            !matches!(
                source,
                VariantSource::Inferred
                    | VariantSource::File
                    | VariantSource::Refused
                    | VariantSource::Undecided
            ) || file.order_known
        }
    };
    Chosen {
        choice,
        source,
        inferred,
        order_known,
    }
}

/// `--force-variant`: it applies; a GameType that says otherwise is warned of.
fn forced(g: &Game, v: Variant, diags: &mut Vec<Diagnostic>) -> (Choice, VariantSource, bool) {
    if let Some(t) = g.find_tag("GameType") {
        if game_type(&g.tag_text(t)) != GameType::Known(v) {
            diags.push(
                Diagnostic::new(
                    Code::VariantInferred,
                    t.span.clone(),
                    format!(
                        "GameType \"{}\" differs from --force-variant {v}; {v} applies",
                        g.tag_value(t)
                    ),
                )
                .with_severity(Severity::Warning),
            );
        }
    }
    (Choice::Check(v), VariantSource::Forced, false)
}

/// The marker of a merged output: the decision the game's source made.
/// `None` when the game's own tags are to be read as any game's are.
fn marked(g: &Game, m: &Marker, file: &Inference) -> Option<(Choice, VariantSource, bool)> {
    let named = || {
        g.find_tag("Variant")
            .and_then(|t| variant_name(&g.tag_text(t)))
    };
    match m.source {
        // A game's own GameType (or Variant) tag decides its variant, marker
        // or not (issue 55); without one, the marker's refusal stands, and is
        // said for the file (`FileTally`).
        VariantSource::Refused | VariantSource::Undecided => {
            if g.find_tag("GameType").is_some() {
                return None;
            }
            Some(match named() {
                Some(kind) => own(kind),
                // A variant the user named for the file settles it.
                None => match (file.source, file.untagged) {
                    (VariantSource::Named, Untagged::Variant(v)) => {
                        (Choice::Check(v), VariantSource::Named, false)
                    }
                    _ => (Choice::Skip, m.source, false),
                },
            })
        }
        source => {
            let kind = match g.find_tag("GameType") {
                Some(t) => game_type(&g.tag_text(t)),
                None => match named() {
                    Some(GameKind::Known(v)) => GameType::Known(v),
                    _ => return None,
                },
            };
            match kind {
                GameType::Known(v) => Some((Choice::Check(v), source, false)),
                _ => None,
            }
        }
    }
}

/// The GameType tag, read once: its kind, why it names nothing, and the
/// fields that cannot be read.
fn by_game_type(
    g: &Game,
    t: &crate::pdn::Tag,
    diags: &mut Vec<Diagnostic>,
) -> (Choice, VariantSource, bool) {
    match crate::pdn::read_game_type(&g.tag_text(t)) {
        (GameType::Known(v), _, warnings) => {
            for why in warnings {
                diags.push(Diagnostic::new(Code::BadTag, t.span.clone(), why));
            }
            let v = same_moves(v, || g.find_tag("Variant").map(|t| g.tag_text(t)));
            (Choice::Check(v), VariantSource::Tag, false)
        }
        (GameType::Unsupported(u), _, _) => own(GameKind::Unsupported(u)),
        (GameType::Invalid(_), why, _) => {
            diags.push(Diagnostic::new(
                Code::UnknownVariant,
                t.span.clone(),
                match why {
                    Some(why) => format!("GameType \"{}\": {why}", g.tag_value(t)),
                    None => format!(
                        "GameType \"{}\" names no variant (GameType is a number such as 20, 21, 25, 26, 27)",
                        g.tag_value(t)
                    ),
                },
            ));
            (Choice::Skip, VariantSource::Tag, false)
        }
    }
}

/// No GameType: a Variant tag, else the file's decision.
fn by_tags_or_file(
    g: &Game,
    file: &Inference,
    diags: &mut Vec<Diagnostic>,
) -> (Choice, VariantSource, bool) {
    match tag_choice(g) {
        TagChoice::Tagged(kind) => own(kind),
        TagChoice::Invalid => {
            if let Some(t) = g.find_tag("Variant") {
                diags.push(Diagnostic::new(
                    Code::UnknownVariant,
                    t.span.clone(),
                    format!(
                        "Variant \"{}\" names no variant (GameType is a number such as 20, 21, 25, 26, 27)",
                        g.tag_value(t)
                    ),
                ));
            }
            (Choice::Skip, VariantSource::Tag, false)
        }
        TagChoice::Untagged | TagChoice::Marked(_) => {
            // A variant the user named is not the file's decision.
            let decided = file.source != VariantSource::Named;
            match file.untagged {
                Untagged::Variant(v) => (Choice::Check(v), file.source, decided),
                Untagged::Unsupported(u) => {
                    (Choice::Refuse(u), VariantSource::Unsupported, decided)
                }
                Untagged::NotChecked => (Choice::Skip, VariantSource::Refused, decided),
                Untagged::Undecided => (Choice::Skip, VariantSource::Undecided, decided),
            }
        }
    }
}
