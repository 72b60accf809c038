//! Output: compiler-style human text and JSON Lines.

use crate::style::Palette;
use pdnkit::diag::{Diagnostic, FileDiagnostic};
use pdnkit::pdn::{Game, Locator, Snippet};

/// A file name for a terminal: control characters (ESC, newline, ...) shown
/// escaped, as message text is (`\u{1b}`), so a name can neither command the
/// terminal nor start a line of its own. JSON and CSV keep names as they are.
pub fn name(file: &str) -> std::borrow::Cow<'_, str> {
    Snippet::visible(file)
}

/// The widest a name column of a human table gets (characters): a longer name
/// is cut, with `…`, so that a table stays linear in its input and no width
/// reaches the formatter's limit (65,535: a panic). JSON and CSV keep the
/// whole name.
pub const NAME_COLUMN: usize = 48;

/// `s` made visible ([`name`]) and cut to [`NAME_COLUMN`] characters.
pub fn column(s: &str) -> String {
    let v = Snippet::visible(s);
    if v.chars().count() <= NAME_COLUMN {
        return v.into_owned();
    }
    let mut cut: String = v.chars().take(NAME_COLUMN - 1).collect();
    cut.push('…');
    cut
}

/// [`name`] of a path.
pub fn path(p: &std::path::Path) -> String {
    Snippet::visible(&p.to_string_lossy()).into_owned()
}

/// The line naming a game before its findings: players, event, round.
pub fn game_header(s: &mut String, file: &str, g: &Game, pal: &Palette) {
    let tag = |n: &str| g.tag(n).filter(|v| !v.trim().is_empty() && v.trim() != "?");
    let mut parts: Vec<String> = Vec::new();
    match (tag("White"), tag("Black")) {
        (Some(w), Some(b)) => parts.push(format!("{w} – {b}")),
        (Some(w), None) => parts.push(format!("{w} – ?")),
        (None, Some(b)) => parts.push(format!("? – {b}")),
        (None, None) => {}
    }
    if let Some(e) = tag("Event") {
        parts.push(e);
    }
    if let Some(r) = tag("Round") {
        parts.push(format!("round {r}"));
    }
    if let Some(d) = tag("Date") {
        parts.push(d);
    }
    let line = g.start_line();
    let head = format!("{}: game {} (line {line})", name(file), g.index());
    s.push_str(&format!(
        "{}{head}{}",
        pal.header.render(),
        pal.header.render_reset()
    ));
    if !parts.is_empty() {
        s.push_str(": ");
        s.push_str(&Snippet::visible(&parts.join(", ")));
    }
    s.push('\n');
}

/// Characters of source shown around a finding.
const SNIPPET_WIDTH: usize = 100;

/// A diagnostic rendered for a terminal, appended to `s` (ends with a blank
/// line). `loc` finds lines and columns going forward through the game.
pub fn human(
    s: &mut String,
    file: &str,
    g: &Game,
    loc: &mut Locator,
    d: &Diagnostic,
    pal: &Palette,
) {
    let (line, col) = loc.locate(d.span.start);
    let snip = g.snippet(&d.span, SNIPPET_WIDTH);
    let style = pal.severity(d.severity);
    let (on, off) = (style.render().to_string(), style.render_reset().to_string());
    // Pieces appended one by one: this runs for every finding of every game.
    let mut num = itoa::Buffer::new();
    let file = name(file);
    for part in [&file, ":", num.format(line), ":"] {
        s.push_str(part);
    }
    for part in [
        num.format(col),
        ": ",
        &on,
        d.severity.as_str(),
        "[",
        d.code.as_str(),
        "]",
        &off,
        ": ",
    ] {
        s.push_str(part);
    }
    s.push_str(&Snippet::visible(&d.message));
    s.push_str(" (game ");
    s.push_str(num.format(g.index()));
    if let Some(p) = d.ply {
        s.push_str(", ply ");
        s.push_str(num.format(p));
        if let (Some((n, second)), Some(w)) = (d.number, &d.written) {
            s.push_str(", ");
            s.push_str(num.format(n));
            s.push_str(if second { "... " } else { ". " });
            s.push_str(&Snippet::visible(w));
        }
    }
    s.push_str(")\n");
    let prefix = if snip.cut_left { "…" } else { "" };
    let gutter = decimal_width(line);
    pad(s, gutter);
    s.push_str(" |\n");
    s.push_str(num.format(line));
    s.push_str(" | ");
    s.push_str(prefix);
    s.push_str(&snip.text);
    if snip.cut_right {
        s.push('…');
    }
    s.push('\n');
    pad(s, gutter);
    s.push_str(" | ");
    pad(s, prefix.chars().count() + snip.caret.start);
    s.push_str(&on);
    for _ in 0..snip.caret.len().clamp(1, SNIPPET_WIDTH) {
        s.push('^');
    }
    s.push_str(&off);
    s.push('\n');
    for n in &d.notes {
        pad(s, gutter);
        s.push_str(" = note: ");
        s.push_str(&Snippet::visible(n));
        s.push('\n');
    }
    s.push('\n');
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

/// A finding about a whole file, for a terminal (ends with a blank line).
pub fn human_file(s: &mut String, file: &str, d: &FileDiagnostic, pal: &Palette) {
    let style = pal.severity(d.severity);
    s.push_str(&format!(
        "{}:{}:{}: {}{}[{}]{}: {}\n\n",
        name(file),
        d.line,
        d.column,
        style.render(),
        d.severity.as_str(),
        d.code.as_str(),
        style.render_reset(),
        Snippet::visible(&d.message)
    ));
}

/// A record as one line of JSON (with its line break).
pub fn json_line<T: serde::Serialize>(record: &T) -> String {
    match serde_json::to_string(record) {
        Ok(j) => j + "\n",
        // Records hold only strings, numbers and maps with string keys.
        Err(e) => format!(
            "{{\"type\":\"error\",\"message\":{}}}\n",
            serde_json::Value::String(e.to_string())
        ),
    }
}

/// The JSON line of a file's findings (`type: "file"`), from the library's record.
pub fn file_json(file: &str, findings: &[FileDiagnostic]) -> String {
    json_line(&pdnkit::export::FileRecord::new(file, findings))
}

/// Writes one CSV record, every cell through the one escaping function
/// (`export::spreadsheet_safe`: a cell a spreadsheet would run as a formula
/// gets a leading `'`). Every CSV the commands write by hand goes through it.
pub fn safe_record<W: std::io::Write, S: AsRef<str>>(
    w: &mut csv::Writer<W>,
    cells: impl IntoIterator<Item = S>,
) -> csv::Result<()> {
    w.write_record(
        cells
            .into_iter()
            .map(|c| pdnkit::export::GameRow::safe_text(c.as_ref()).into_owned()),
    )
}

// ---- crosstables (`tournament` and `report`) ----

/// Points in half points, shown in the event's unit.
pub fn pts(half: u32) -> String {
    if half.is_multiple_of(2) {
        (half / 2).to_string()
    } else {
        format!("{}.5", half / 2)
    }
}

/// A tie-break value: a whole number as one, else up to two decimals; never `-0`.
pub fn num(x: f64) -> String {
    let x = if x == 0.0 { 0.0 } else { x };
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.2}").trim_end_matches('0').to_string()
    }
}

/// An event's title: `EVENT — SECTION, SITE, YEAR`.
pub fn title(e: &pdnkit::tournament::Event) -> String {
    let mut parts: Vec<String> = Vec::new();
    parts.push(if e.event.trim().is_empty() {
        "(no Event)".to_string()
    } else {
        e.event.clone()
    });
    if let Some(section) = &e.section {
        parts[0] = format!("{} — {section}", parts[0]);
    }
    if !e.site.trim().is_empty() {
        parts.push(e.site.clone());
    }
    if let Some(y) = e.year {
        parts.push(y.to_string());
    }
    parts.join(", ")
}
