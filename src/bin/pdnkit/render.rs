//! Output: compiler-style human text and JSON Lines.

use pdnkit::diag::{Diagnostic, FileDiagnostic, Severity};
use pdnkit::pdn::Game;
use pdnkit::replay::Report;
use serde_json::{json, Map, Value};

/// A diagnostic rendered for a terminal, appended to `s` (ends with a blank line).
pub fn human(s: &mut String, file: &str, g: &Game, d: &Diagnostic, color: bool) {
    let (line, col) = g.location(d.span.start);
    let (src, a, b) = g.source_line(&d.span);
    let sev = d.severity.as_str();
    let (on, off) = if color {
        (
            match d.severity {
                Severity::Error => "\x1b[1;31m",
                Severity::Warning => "\x1b[1;33m",
                Severity::Note => "\x1b[1;36m",
            },
            "\x1b[0m",
        )
    } else {
        ("", "")
    };
    // Pieces appended one by one: this runs for every finding of every game.
    let mut num = itoa::Buffer::new();
    for part in [file, ":", num.format(line), ":"] {
        s.push_str(part);
    }
    for part in [
        num.format(col),
        ": ",
        on,
        sev,
        "[",
        d.code.as_str(),
        "]",
        off,
        ": ",
    ] {
        s.push_str(part);
    }
    for part in [d.message.as_ref(), " (game ", num.format(g.index)] {
        s.push_str(part);
    }
    if let Some(p) = d.ply {
        s.push_str(", ply ");
        s.push_str(num.format(p));
    }
    s.push_str(")\n");
    // The source line, shortened around the span when very long.
    let lo = a.saturating_sub(60);
    let hi = b + 40;
    let shown = char_slice(&src, lo, hi);
    let prefix = if lo > 0 { "..." } else { "" };
    let gutter = decimal_width(line);
    pad(s, gutter);
    s.push_str(" |\n");
    s.push_str(num.format(line));
    s.push_str(" | ");
    s.push_str(prefix);
    for c in shown.chars() {
        s.push(if c == '\t' { ' ' } else { c });
    }
    s.push('\n');
    pad(s, gutter);
    s.push_str(" | ");
    pad(s, prefix.len() + a - lo);
    s.push_str(on);
    for _ in 0..(b - a).clamp(1, 80) {
        s.push('^');
    }
    s.push_str(off);
    s.push('\n');
    for n in &d.notes {
        pad(s, gutter);
        s.push_str(" = note: ");
        s.push_str(n);
        s.push('\n');
    }
    s.push('\n');
}

/// Characters `lo..hi` of `text` (clamped to its length).
fn char_slice(text: &str, lo: usize, hi: usize) -> &str {
    if text.is_ascii() {
        return text
            .get(lo.min(text.len())..hi.min(text.len()))
            .unwrap_or("");
    }
    let at = |n: usize| text.char_indices().nth(n).map_or(text.len(), |(i, _)| i);
    let (x, y) = (at(lo), at(hi));
    text.get(x..y.max(x)).unwrap_or("")
}

fn decimal_width(mut n: u32) -> usize {
    let mut w = 1;
    while n >= 10 {
        n /= 10;
        w += 1;
    }
    w
}

fn pad(s: &mut String, n: usize) {
    s.extend(std::iter::repeat_n(' ', n));
}

/// The JSON object of one diagnostic.
pub fn diag_json(g: &Game, d: &Diagnostic) -> Value {
    let (line, col) = g.location(d.span.start);
    let mut m = Map::new();
    m.insert("severity".into(), json!(d.severity.as_str()));
    m.insert("code".into(), json!(d.code.as_str()));
    m.insert("message".into(), json!(d.message));
    m.insert("line".into(), json!(line));
    m.insert("column".into(), json!(col));
    if let Some(p) = d.ply {
        m.insert("ply".into(), json!(p));
    }
    if let Some(w) = &d.written {
        m.insert("move".into(), json!(w));
    }
    if !d.notes.is_empty() {
        m.insert("notes".into(), json!(d.notes));
    }
    Value::Object(m)
}

/// A finding about a whole file, for a terminal (ends with a blank line).
pub fn human_file(s: &mut String, file: &str, d: &FileDiagnostic, color: bool) {
    let (on, off) = if color {
        (
            match d.severity {
                Severity::Error => "\x1b[1;31m",
                Severity::Warning => "\x1b[1;33m",
                Severity::Note => "\x1b[1;36m",
            },
            "\x1b[0m",
        )
    } else {
        ("", "")
    };
    s.push_str(&format!(
        "{file}:{}:{}: {on}{}[{}]{off}: {}\n\n",
        d.line,
        d.column,
        d.severity.as_str(),
        d.code.as_str(),
        d.message
    ));
}

/// The JSON object of a file's findings (`type: "file"`).
pub fn file_json(file: &str, findings: &[FileDiagnostic]) -> Value {
    let diags: Vec<Value> = findings
        .iter()
        .map(|d| {
            json!({
                "severity": d.severity.as_str(),
                "code": d.code.as_str(),
                "message": d.message,
                "line": d.line,
                "column": d.column,
            })
        })
        .collect();
    json!({"type": "file", "file": file, "diagnostics": diags})
}

/// The JSON object of one game (CLI.md).
pub fn game_json(file: &str, g: &Game, r: &Report) -> Value {
    let mut tags = Map::new();
    for t in &g.tags {
        tags.entry(g.tag_name(t).to_string())
            .or_insert_with(|| json!(g.tag_value(t)));
    }
    json!({
        "type": "game",
        "file": file,
        "game": g.index,
        "line": g.location(first_content(g)).0,
        "variant": r.kind.map(|k| k.name()),
        "draw_rules": r.draw_rules.map(|d| d.name()),
        "checked": r.checked,
        "tags": tags,
        "plies": r.plies,
        "valid": r.verdict(),
        "declared_result": r.declared.map(|o| o.normalised()),
        "computed_result": r.computed.normalised(),
        "termination": r.termination.name(),
        "termination_ply": r.termination_ply,
        "clause": r.clause,
        "diagnostics": r.diagnostics.iter().map(|d| diag_json(g, d)).collect::<Vec<_>>(),
    })
}

/// Offset of the first non-blank byte of a game (where it "starts").
pub fn first_content(g: &Game) -> usize {
    g.text
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(0)
}
