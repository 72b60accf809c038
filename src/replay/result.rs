//! The result: the declared one read, compared with the one the rules give.

use crate::diag::{Code, Diagnostic, Severity, Span};
use crate::draw::Clause;
use crate::pdn::{Game, Node, Outcome};
use crate::replay::report::{empty_report, GameReport};
use crate::variant::Variant;

/// The declared result alone, without findings (for games that are not checked).
pub(super) fn declared_only(g: &Game, v: Option<Variant>) -> Option<Outcome> {
    let mut scratch = Vec::new();
    let mut r = GameReport {
        computed: Outcome::Unknown,
        ..empty_report()
    };
    check_result(g, v, true, &mut r, &mut scratch);
    r.declared
}

/// The result token ending the movetext, read for the game's variant
/// (English records give the first player's score first).
pub(super) fn result_token(g: &Game, v: Option<Variant>) -> Option<(Outcome, Span)> {
    let (o, span) = g.result.clone()?;
    match v {
        Some(v) if v.first_player_scores_first() => {
            let text = String::from_utf8_lossy(g.bytes(&span));
            Some((Outcome::parse_for(&text, Some(v)).unwrap_or(o), span))
        }
        _ => Some((o, span)),
    }
}

/// Whether a result as written depends on who scores first (`1-0`, `0-1`).
pub(super) fn order_dependent(text: &str) -> bool {
    matches!(text.trim(), "1-0" | "0-1")
}

/// The declared result read and compared with the computed one: the
/// findings about it go to `diags`, the declared result to `report`.
pub(super) fn check_result(
    g: &Game,
    variant: Option<Variant>,
    order_known: bool,
    report: &mut GameReport,
    diags: &mut Vec<Diagnostic>,
) {
    let tag = g.find_tag("Result");
    let token = result_token(g, variant);
    if !order_known {
        // The text that declares the result: the tag's, else the token's.
        let text = match tag {
            Some(t) => g.tag_text(t).into_owned(),
            None => g
                .result
                .as_ref()
                .map(|(_, span)| String::from_utf8_lossy(g.bytes(span)).into_owned())
                .unwrap_or_default(),
        };
        report.result_as_written = order_dependent(&text);
    }
    let declared = match tag {
        Some(t) => from_tag(g, t, variant, token.as_ref(), diags),
        None => token.as_ref().map(|t| t.0),
    };
    if report.result_as_written {
        // Kept as written: no meaning, so nothing to compare it with.
        report.declared = None;
        return;
    }
    if declared.is_none() {
        diags.push(Diagnostic::new(
            Code::MissingResult,
            where_a_result_goes(g),
            "neither a Result tag nor a result token gives the result",
        ));
    }
    report.declared = declared;
    if let Some(d) = declared {
        if report.computed != Outcome::Unknown && d != report.computed {
            // The text that declared it, quoted as written (issue 66).
            let written = match tag {
                Some(t) => g.tag_text(t).trim().to_string(),
                None => token
                    .as_ref()
                    .map(|(_, span)| String::from_utf8_lossy(g.bytes(span)).trim().to_string())
                    .unwrap_or_default(),
            };
            let span = tag
                .map(|t| t.span.clone())
                .or(token.map(|t| t.1))
                .unwrap_or(0..0);
            diags.push(mismatch(d, &written, variant, report, span));
        }
    }
}

/// Who an outcome says won, in words.
fn who(o: Outcome) -> &'static str {
    match o {
        Outcome::WhiteWins => "White won",
        Outcome::BlackWins => "Black won",
        Outcome::Draw => "a draw",
        Outcome::BothLose => "both lost",
        Outcome::Unknown => "not finished",
    }
}

/// A declared result as written, with the reading it was given: `` `1-0`
/// (English order: Black won) `` where the order decides it.
fn as_read(written: &str, o: Outcome, variant: Option<Variant>) -> String {
    match variant.filter(|v| order_dependent(written) && v.first_player_scores_first()) {
        Some(v) => {
            let name = v.name();
            let mut title = name[..1].to_uppercase();
            title.push_str(&name[1..]);
            format!("`{written}` ({title} order: {})", who(o))
        }
        None => format!("`{written}` ({})", who(o)),
    }
}

/// The Result tag's outcome, compared with the result token `token`.
fn from_tag(
    g: &Game,
    t: &crate::pdn::Tag,
    variant: Option<Variant>,
    token: Option<&(Outcome, Span)>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Outcome> {
    let value = g.tag_text(t);
    match Outcome::parse_for(&value, variant) {
        Some(o) => {
            if let Some((tok, span)) = token {
                if *tok != o {
                    let written = String::from_utf8_lossy(g.bytes(span));
                    diags.push(Diagnostic::new(
                        Code::ResultConflict,
                        span.clone(),
                        format!(
                            "the movetext ends with {} but the Result tag says {}",
                            as_read(written.trim(), *tok, variant),
                            as_read(value.trim(), o, variant)
                        ),
                    ));
                }
            }
            Some(o)
        }
        None => {
            let from_token = token.map(|t| t.0).unwrap_or(Outcome::Unknown);
            diags.push(Diagnostic::new(
                Code::Nonstandard,
                t.span.clone(),
                format!(
                    "Result tag \"{value}\" is not a PDN result (read as {})",
                    from_token.normalised()
                ),
            ));
            Some(from_token)
        }
    }
}

/// Where a missing result is reported: at the end of the movetext (where a
/// result would go), or at the tags when there are no moves.
fn where_a_result_goes(g: &Game) -> Span {
    let end = g
        .nodes
        .iter()
        .map(|n| match n {
            Node::Move(m) => m.span.end.max(m.suffix.range().end),
            Node::Comment(s) => (s.end + 1).min(g.text.len()),
            Node::Nag(_, s)
            | Node::Open(s)
            | Node::Close(s)
            | Node::Setup(s)
            | Node::Escape(s)
            | Node::Unknown(s) => s.end,
        })
        .max();
    match (end, g.tags.last()) {
        (Some(e), _) if e > 0 => e - 1..e,
        (_, Some(t)) => t.span.clone(),
        _ => 0..0,
    }
}

/// The declared result `d`, written `written`, differs from the computed one.
fn mismatch(
    d: Outcome,
    written: &str,
    variant: Option<Variant>,
    report: &GameReport,
    span: Span,
) -> Diagnostic {
    let sev = if d == Outcome::Unknown {
        Severity::Warning
    } else {
        Severity::Error
    };
    let how = match report.termination_ply {
        Some(p) => format!(
            "{} after ply {p}",
            report.clause.map_or("rule", Clause::as_str)
        ),
        None => "rule".to_string(),
    };
    Diagnostic::new(
        Code::ResultMismatch,
        span,
        format!(
            "the record says {}, but the game ended {} ({}) by {how}",
            as_read(written, d, variant),
            report.computed.normalised(),
            who(report.computed)
        ),
    )
    .with_severity(sev)
}
