//! `pdnkit report PATH... -o report.html`: one self-contained HTML file
//! (styles, script and data inline, nothing fetched) that opens at once on a
//! whole archive.
//!
//! The page carries every game as compact data and draws in the page only
//! what is looked at (`page.js`): the games table a page of rows at a time,
//! the first findings of each file and code with the rest behind one button,
//! a finding's board when it scrolls into view, one viewer for the game
//! opened. The data is JSON inside a `<script type="application/json">`,
//! with `<` written `\u003c` so that no tag value can close the script:
//!
//! - `files`: the file names; `codes`: the finding codes, by index;
//! - `games`: one array per game: file, index, line, White, Black, Event,
//!   Round, Date, declared, computed, valid (1, 0, -1 not checked), plies,
//!   variant, first error, code indexes, termination, board, opening
//!   (`idf-745 VI-15 (3 plies)`, empty when none);
//! - a board: `n` size, `o` 1 on the mirrored board, `a` 1 for algebraic
//!   names, `s` side to move first, `q` 1 when ply 1 is numbered `1...`,
//!   `p` the start's pieces, `m` the moves, `w` the moves as written (only
//!   where they differ from the numbers of `m`), `bad` the plies with errors,
//!   `st` the plies of irregular moves that stood (`--irregularities stand`).
//!   Squares are one character each ([`ALPHABET`]); a piece is a code
//!   (`w`/`W` white man/king, `b`/`B` black) and its square; a move is from,
//!   to, the squares taken and `~` when it crowns, moves joined by spaces;
//! - `findings`: game, severity (0 error, 1 warning, 2 note), code, ply, move
//!   number, move as written, message, line, the source line around the mark
//!   (before, mark, after, cut ends: 1 left, 2 right), the written move's
//!   arrow and the required capture's (`path|taken`).
//!
//! Everything taken from the input reaches the page as text (`textContent`),
//! never as markup; what the Rust side writes as HTML is escaped ([`escape`]).

mod charts;

use crate::common::InputArgs;
use crate::output::{Out, Stop};
use pdnkit::batch::Sink;
use pdnkit::board::Orientation;
use pdnkit::diag::{Code, FileDiagnostic, Severity};
use pdnkit::diagram::{Arrow, DiagramOptions};

/// Text escaped for HTML ([`DiagramOptions::escape`]).
fn escape(text: &str) -> String {
    DiagramOptions::escape(text)
}
use pdnkit::pdn::{Game, Locator, Snippet};
use pdnkit::piece::{Color, Kind};
use pdnkit::replay::GameReport;
use pdnkit::stats::Summary;
use std::fmt::Write as _;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    select: crate::common::SelectArgs,
    #[command(flatten)]
    tag_select: crate::common::TagSelectArgs,
    /// The HTML file to write.
    #[arg(short = 'o', long, default_value = "report.html")]
    output: PathBuf,
    /// Exit as `check` does: 1 when a game has an error finding.
    #[arg(long)]
    strict: bool,
    /// Replace the output even when it is not a report pdnkit wrote.
    #[arg(long)]
    force: bool,
    /// Open the report in the web browser once it is written.
    #[arg(long)]
    open: bool,
}

/// One character per square number (0..=85): letters, digits and signs that
/// JSON and HTML leave as they are.
pub const ALPHABET: &str =
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-./:;=?@[]^_{|}";

/// The findings of one file and code shown before the rest are grouped
/// under one button.
const FIRST_IN_GROUP: usize = 3;
/// Rows of the games table on one page.
const PAGE_ROWS: usize = 100;
/// The most games one report holds (docs/limits.md): past it the run
/// stops, says how to report the archive in parts, and writes nothing.
const MAX_REPORT_GAMES: usize = 100_000;
/// What marks a page as a pdnkit report (an existing one may be replaced).
const GENERATOR: &str = r#"<meta name="generator" content="pdnkit report">"#;

fn square_char(n: u32) -> char {
    ALPHABET
        .as_bytes()
        .get(n as usize)
        .map_or('0', |&b| char::from(b))
}

/// A board's data for the page (see the module's docs).
#[derive(serde::Serialize)]
struct Board {
    n: u8,
    o: u8,
    a: u8,
    s: &'static str,
    q: u8,
    p: String,
    m: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    w: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    bad: Vec<u32>,
    /// The plies of irregular moves that stood (`--irregularities stand`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    st: Vec<u32>,
}

/// One game's row (serialised as an array, in the order of the module's docs).
#[derive(serde::Serialize)]
struct Row(
    u32,
    usize,
    u32,
    String,
    String,
    String,
    String,
    String,
    &'static str,
    &'static str,
    i8,
    u32,
    &'static str,
    String,
    Vec<u16>,
    &'static str,
    Option<Board>,
    String,
);

/// One finding (serialised as an array, in the order of the module's docs).
#[derive(serde::Serialize)]
struct FindingRow(
    usize,
    u8,
    u16,
    u32,
    String,
    String,
    String,
    u32,
    String,
    String,
    String,
    u8,
    String,
    String,
);

/// A move drawn as `path|taken`.
fn arrow_text(a: &Arrow) -> String {
    let mut t: String = a.path.iter().map(|s| square_char(s.number())).collect();
    t.push('|');
    t.extend(a.captured.squares().map(|s| square_char(s.number())));
    t
}

/// The start and the moves of a game, for the page.
fn board_data(g: &Game, r: &GameReport) -> Option<Board> {
    let start = r.start?;
    let mut p = String::with_capacity(2 * start.occupied().count() as usize);
    for sq in start.occupied().squares() {
        let Some(piece) = start.piece_at(sq) else {
            continue;
        };
        p.push(match (piece.color, piece.kind) {
            (Color::White, Kind::Man) => 'w',
            (Color::White, Kind::King) => 'W',
            (Color::Black, Kind::Man) => 'b',
            (Color::Black, Kind::King) => 'B',
        });
        p.push(square_char(sq.number()));
    }
    let mut m = String::with_capacity(4 * r.played.len());
    let mut plain = true;
    let written: Vec<String> = g
        .main_line()
        .map(|w| Snippet::visible(&String::from_utf8_lossy(g.bytes(&w.span()))).into_owned())
        .collect();
    for (i, played) in r.played.iter().enumerate() {
        let mv = played.mv;
        if i > 0 {
            m.push(' ');
        }
        m.push(square_char(mv.from().number()));
        m.push(square_char(mv.to().number()));
        m.extend(mv.captured().squares().map(|s| square_char(s.number())));
        if mv.crowns() {
            m.push('~');
        }
        let sep = if mv.is_capture() { 'x' } else { '-' };
        let numbers = format!("{}{sep}{}", mv.from().number(), mv.to().number());
        plain &= written.get(i) == Some(&numbers);
    }
    plain &= written.len() == r.played.len();
    Some(Board {
        n: start.size().n(),
        o: u8::from(start.variant().rules().orientation == Orientation::Mirrored),
        a: u8::from(start.variant().algebraic()),
        s: if start.side() == Color::White {
            "W"
        } else {
            "B"
        },
        q: u8::from(r.move_number(1).is_some_and(|n| n.1)),
        p,
        m,
        w: (!plain).then_some(written),
        bad: r.errors().filter_map(|d| d.ply).collect(),
        st: (1..)
            .zip(&r.played)
            .filter(|(_, p)| p.stood)
            .map(|(ply, _)| ply)
            .collect(),
    })
}

#[derive(Default)]
struct ReportSink {
    files: Vec<String>,
    games: Vec<Row>,
    findings: Vec<FindingRow>,
    file_findings: Vec<(String, FileDiagnostic)>,
    /// Games, verdicts, findings and results, counted as `check` counts them.
    sum: Summary,
    /// Games per length, for the chart.
    lengths: pdnkit::stats::Stats,
    /// The PATHs named, for the title.
    named: Vec<String>,
    /// The games as tournaments see them (the events section).
    tgames: pdnkit::tournament::Games,
}

impl ReportSink {
    fn file_index(&mut self, file: &str) -> u32 {
        if self.files.last().map(String::as_str) != Some(file) {
            self.files.push(file.to_string());
        }
        self.files.len() as u32 - 1
    }

    /// The findings of a game, for the findings section.
    fn add_findings(&mut self, gi: usize, g: &Game, r: &GameReport) {
        let mut loc = Locator::new(g);
        for d in &r.diagnostics {
            let (line, _) = loc.locate(d.span.start);
            let snip = g.snippet(&d.span, 90);
            let chars: Vec<char> = snip.text.chars().collect();
            let part = |a: usize, b: usize| -> String {
                chars[a.min(chars.len())..b.min(chars.len())]
                    .iter()
                    .collect()
            };
            let ply = d.ply.unwrap_or(0);
            let before = (ply > 0).then(|| r.position_before(ply)).flatten();
            let written = before
                .zip(d.written.as_deref())
                .and_then(|(pos, w)| Arrow::written(&pos, w).ok())
                .map(|a| arrow_text(&a))
                .unwrap_or_default();
            let best = before
                .filter(|_| matches!(d.code, Code::NonMaximalCapture | Code::MissedCapture))
                .and_then(|pos| Arrow::maximal_capture(&pos))
                .map(|a| arrow_text(&a))
                .unwrap_or_default();
            let code = Code::ALL.iter().position(|&c| c == d.code).unwrap_or(0);
            self.findings.push(FindingRow(
                gi,
                match d.severity {
                    Severity::Error => 0,
                    Severity::Warning => 1,
                    Severity::Note => 2,
                },
                code as u16,
                ply,
                d.number
                    .map(|(n, second)| format!("{n}{}", if second { "..." } else { "." }))
                    .unwrap_or_default(),
                Snippet::visible(d.written.as_deref().unwrap_or("")).into_owned(),
                Snippet::visible(&d.message).into_owned(),
                line,
                part(0, snip.caret.start),
                part(snip.caret.start, snip.caret.end),
                part(snip.caret.end, chars.len()),
                u8::from(snip.cut_left) | (u8::from(snip.cut_right) << 1),
                written,
                best,
            ));
        }
    }
}

impl Sink for ReportSink {
    type Error = Stop;
    fn game(&mut self, file: &str, g: &Game, r: &GameReport) -> ControlFlow<Stop> {
        if self.games.len() >= MAX_REPORT_GAMES {
            return ControlFlow::Break(Stop::Enough);
        }
        self.on_game(file, g, r);
        ControlFlow::Continue(())
    }
    fn file_done(&mut self, file: &str, findings: &[FileDiagnostic]) {
        self.sum.files += 1;
        for d in findings {
            self.sum.add_finding(d.code, d.severity);
            self.file_findings.push((file.to_string(), d.clone()));
        }
    }
}

impl ReportSink {
    fn on_game(&mut self, file: &str, g: &Game, r: &GameReport) {
        let fi = self.file_index(file);
        let gi = self.games.len();
        self.sum.add_game(r);
        *self.lengths.plies.entry(r.plies).or_default() += 1;
        self.tgames.add(file, g, r);
        self.add_findings(gi, g, r);
        let tag = |name: &str| g.tag(name).unwrap_or_default();
        let mut codes: Vec<u16> = r
            .diagnostics
            .iter()
            .filter_map(|d| Code::ALL.iter().position(|&c| c == d.code))
            .map(|i| i as u16)
            .collect();
        codes.sort_unstable();
        codes.dedup();
        self.games.push(Row(
            fi,
            g.index(),
            g.start_line(),
            tag("White"),
            tag("Black"),
            tag("Event"),
            tag("Round"),
            tag("Date"),
            r.declared.map_or("", |o| o.normalised()),
            r.computed.normalised(),
            match r.verdict() {
                Some(true) => 1,
                Some(false) => 0,
                None => -1,
            },
            r.plies,
            r.kind.map_or("", |k| k.name()),
            r.first_error()
                .map(|d| format!("{}: {}", d.code, Snippet::visible(&d.message)))
                .unwrap_or_default(),
            codes,
            r.termination.name(),
            board_data(g, r),
            opening_text(r),
        ));
    }
}

/// A game's opening as the games table and the viewer show it: `idf-745
/// VI-15 Kol (3 plies)`, `set up` for a set-up ballot; empty when none.
fn opening_text(r: &GameReport) -> String {
    let Some(o) = &r.opening else {
        return String::new();
    };
    let mut t = format!("{} {}", o.table(), o.code());
    if let Some(n) = o.name() {
        let _ = write!(t, " {n}");
    }
    match (o.via, o.plies) {
        ("setup", _) => t.push_str(" (set up)"),
        (_, 1) => t.push_str(" (1 ply)"),
        (_, p) => {
            let _ = write!(t, " ({p} plies)");
        }
    }
    if o.transposed {
        t.push_str(", transposed");
    }
    t
}

const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

impl ReportSink {
    fn html(&self) -> String {
        let mut h = String::with_capacity(1 << 20);
        let _ = write!(
            h,
            r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">{GENERATOR}<title>pdnkit report</title><style>{STYLE}</style></head><body><h1>pdnkit report</h1><p class="legend">{} — generated by pdnkit {}</p>"#,
            escape(&self.named.join(", ")),
            env!("CARGO_PKG_VERSION")
        );
        self.summary_section(&mut h);
        self.events_section(&mut h);
        self.games_section(&mut h);
        self.findings_section(&mut h);
        h.push_str(concat!(
            r#"<section id="viewer" class="viewer" hidden tabindex="0" aria-label="game viewer"><button type="button" class="close" title="close (Esc)">&#215;</button><h3></h3>"#,
            r#"<p class="no-board legend" hidden>This game has no board to show: its variant or its start position could not be read.</p>"#,
            r#"<div class="body"><div class="board-col"><div class="board"></div><div class="controls">"#,
            r#"<button class="first" title="start (Home)">|&lt;</button><button class="prev" title="previous (&#8592;)">&lt;</button>"#,
            r#"<button class="next" title="next (&#8594;)">&gt;</button><button class="last" title="end (End)">&gt;|</button> <span class="ply"></span></div>"#,
            r#"</div><ol class="moves"></ol></div><p class="result legend"></p><ul class="game-findings"></ul></section>"#
        ));
        self.data_script(&mut h);
        let _ = write!(h, r#"<script>{SCRIPT}</script></body></html>"#);
        h
    }

    /// The page's data (see the module's docs).
    fn data_script(&self, h: &mut String) {
        #[derive(serde::Serialize)]
        struct Data<'a> {
            alphabet: &'static str,
            files: &'a [String],
            codes: Vec<&'static str>,
            games: &'a [Row],
            findings: &'a [FindingRow],
            first_in_group: usize,
            page_rows: usize,
        }
        let data = Data {
            alphabet: ALPHABET,
            files: &self.files,
            codes: Code::ALL.iter().map(|c| c.as_str()).collect(),
            games: &self.games,
            findings: &self.findings,
            first_in_group: FIRST_IN_GROUP,
            page_rows: PAGE_ROWS,
        };
        let json = serde_json::to_string(&data)
            .unwrap_or_default()
            .replace('<', "\\u003c");
        let _ = write!(
            h,
            r#"<script type="application/json" id="pdnkit-data">{json}</script>"#
        );
    }

    /// Each tournament of the archive (events whose games have rounds, with
    /// three players or more): the crosstable and the findings of
    /// `pdnkit tournament` (docs/tournament.md).
    fn events_section(&self, h: &mut String) {
        use pdnkit::tournament::Settings;
        let evs: Vec<_> = self
            .tgames
            .events(&Settings::default())
            .into_iter()
            .filter(|e| e.players.len() >= 3 && !e.rounds.is_empty())
            .collect();
        if evs.is_empty() {
            return;
        }
        let _ = write!(h, r#"<section id="events"><h2>Events ({})</h2>"#, evs.len());
        for e in &evs {
            let _ = write!(
                h,
                "<details class=\"event\"><summary>{}: {}</summary><div class=\"table-wrap\"><table class=\"crosstable\"><thead><tr><th>#</th><th>player</th><th>pts</th><th>G</th><th>W</th><th>D</th><th>L</th>",
                escape(&crate::render::title(e)),
                escape(&e.system_text())
            );
            if let Some(p) = e.players.first() {
                for (t, _) in &p.tiebreaks {
                    let _ = write!(h, "<th>{}</th>", t.name());
                }
            }
            h.push_str("</tr></thead><tbody>");
            for p in &e.players {
                let _ = write!(
                    h,
                    "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>",
                    p.rank,
                    marked(&p.name),
                    crate::render::pts(p.points),
                    p.games,
                    p.wins,
                    p.draws,
                    p.losses
                );
                for (_, v) in &p.tiebreaks {
                    let _ = write!(h, "<td>{}</td>", crate::render::num(*v));
                }
                h.push_str("</tr>");
            }
            h.push_str("</tbody></table></div>");
            if !e.findings.is_empty() {
                h.push_str("<ul class=\"event-findings\">");
                for f in &e.findings {
                    let _ = write!(
                        h,
                        "<li><span class=\"sev {}\">{}[{}]</span> {}</li>",
                        f.severity,
                        f.severity,
                        f.code,
                        quoted_marked(&f.message)
                    );
                }
                h.push_str("</ul>");
            }
            h.push_str("</details>");
        }
        h.push_str("</section>");
    }

    /// Cards, findings by code and severity, results, charts.
    fn summary_section(&self, h: &mut String) {
        let s = &self.sum;
        h.push_str(r#"<section id="summary"><h2>Summary</h2><div class="cards">"#);
        for (id, label, n) in [
            ("files", "files", s.files),
            ("games", "games", s.games),
            ("valid", "valid", s.valid),
            ("with-errors", "with errors", s.invalid()),
            ("unchecked", "not checked", s.unchecked),
            ("errors", "errors", s.of_severity(Severity::Error)),
            ("warnings", "warnings", s.of_severity(Severity::Warning)),
            ("notes", "notes", s.of_severity(Severity::Note)),
        ] {
            let _ = write!(
                *h,
                r#"<div class="card"><b id="sum-{id}">{n}</b>{label}</div>"#
            );
        }
        h.push_str(r#"</div><div class="cols"><div><h3>Findings by code</h3><table id="codes"><thead><tr><th>code</th><th class="n">errors</th><th class="n">warnings</th><th class="n">notes</th></tr></thead><tbody>"#);
        let rows = charts::code_rows(s);
        for (code, [e, w, n]) in &rows {
            let _ = write!(
                *h,
                r#"<tr><td>{code}</td><td class="n sev error">{}</td><td class="n sev warning">{}</td><td class="n sev note">{}</td></tr>"#,
                blank_zero(*e),
                blank_zero(*w),
                blank_zero(*n)
            );
        }
        h.push_str(r#"</tbody></table></div><div><h3>Declared against computed results</h3><table id="results"><thead><tr><th>declared</th><th>computed</th><th class="n">games</th></tr></thead><tbody>"#);
        for ((d, c), n) in &s.results() {
            let _ = write!(
                *h,
                r#"<tr><td>{d}</td><td>{c}</td><td class="n">{n}</td></tr>"#
            );
        }
        // One view of the counts by code: the table above (issue 62 item
        // 11: a chart of the same counts beside it said them twice).
        h.push_str("</tbody></table></div></div><div class=\"cols\">");
        h.push_str(&charts::lengths_chart(&self.lengths.length_histogram()));
        h.push_str("</div>");
        self.file_findings_groups(h);
        h.push_str("</section>");
    }

    /// The findings about whole files, grouped by severity and code (issue
    /// 62 item 11: 55 files saying the same sentence one by one): errors
    /// open, the rest folded, each group with its files, errors first.
    fn file_findings_groups(&self, h: &mut String) {
        if self.file_findings.is_empty() {
            return;
        }
        type Key = (std::cmp::Reverse<Severity>, &'static str);
        let mut groups: std::collections::BTreeMap<Key, Vec<&(String, FileDiagnostic)>> =
            std::collections::BTreeMap::new();
        for f in &self.file_findings {
            groups
                .entry((std::cmp::Reverse(f.1.severity), f.1.code.as_str()))
                .or_default()
                .push(f);
        }
        h.push_str("<h3>About whole files</h3><div id=\"file-findings\">");
        for ((sev, code), list) in &groups {
            let sev = sev.0.as_str();
            let files: std::collections::BTreeSet<&str> =
                list.iter().map(|(f, _)| f.as_str()).collect();
            let _ = write!(
                *h,
                "<details class=\"file-group\"{}><summary><span class=\"sev {sev}\">{sev}[{code}]</span> {} in {} {}</summary><ul>",
                if sev == "error" { " open" } else { "" },
                list.len(),
                files.len(),
                if files.len() == 1 { "file" } else { "files" }
            );
            for (f, d) in list {
                let _ = write!(
                    *h,
                    "<li>{}:{}: {}</li>",
                    escape(f),
                    d.line,
                    escape(&d.message)
                );
            }
            h.push_str("</ul></details>");
        }
        h.push_str("</div>");
    }

    /// The games table: its filters, pager and header; the rows are drawn
    /// by the page a page at a time.
    fn games_section(&self, h: &mut String) {
        h.push_str(r#"<section id="games-section"><h2>Games</h2><p class="legend">Click a row to see the game on the board; click a heading to sort.</p><div class="filters"><label><input type="checkbox" id="only-errors"> only games with errors</label><label>code <select id="code-filter"><option value="">any</option>"#);
        for c in self.sum.by_code().keys() {
            let i = Code::ALL.iter().position(|k| k.as_str() == *c).unwrap_or(0);
            let _ = write!(h, r#"<option value="{i}">{c}</option>"#);
        }
        h.push_str(concat!(
            r#"</select></label><label>search <input type="search" id="text-filter"></label><span><span id="shown"></span> shown</span></div>"#,
            r#"<div class="table-wrap"><table id="games"><colgroup><col class="c-file"><col class="c-game"><col class="c-player"><col class="c-player"><col class="c-event"><col class="c-round"><col class="c-date"><col class="c-result"><col class="c-result"><col class="c-valid"><col class="c-opening"><col class="c-first"></colgroup>"#,
            r#"<thead><tr><th data-col="file">file</th><th data-col="index" data-type="num">game</th><th data-col="white">White</th><th data-col="black">Black</th>"#,
            r#"<th data-col="event" class="h-event">event</th><th data-col="round" class="h-round">round</th><th data-col="date" class="h-date">date</th><th data-col="declared">declared</th>"#,
            r#"<th data-col="computed">computed</th><th data-col="valid" data-type="num">valid</th><th data-col="opening">opening</th><th data-col="first">first finding</th></tr></thead><tbody></tbody></table></div>"#,
            r#"<div class="pager"><button type="button" id="page-prev">&lt;</button><span id="page-text"></span><button type="button" id="page-next">&gt;</button></div></section>"#
        ));
    }

    /// The findings of the games, grouped by file and code (drawn by the page).
    fn findings_section(&self, h: &mut String) {
        let with_boards = self.findings.iter().filter(|f| f.3 > 0).count();
        let _ = write!(
            h,
            r#"<section id="findings"><h2>Findings in games ({})</h2><p class="legend">Errors first. The first {FIRST_IN_GROUP} findings of each code in each file are shown, the others are one click away. {} findings are at a move: their board is the position before it, with the move as written in red and a capture the rules required in dashed blue.</p><div id="finding-groups"></div></section>"#,
            self.findings.len(),
            with_boards
        );
    }
}

/// A name (or a message quoting names) as HTML with what the eye cannot
/// tell made visible: a run of spaces other than one plain space (two
/// spaces, a tab, a no-break space) as `␣` marks, and a letter of another
/// script inside a word (a Latin `C` in a Cyrillic name) marked with its
/// script named.
fn marked(text: &str) -> String {
    fn script(c: char) -> Option<&'static str> {
        if c.is_ascii_alphabetic() || ('\u{00C0}'..='\u{024F}').contains(&c) {
            Some("Latin")
        } else if ('\u{0400}'..='\u{04FF}').contains(&c) {
            Some("Cyrillic")
        } else if ('\u{0370}'..='\u{03FF}').contains(&c) {
            Some("Greek")
        } else {
            None
        }
    }
    let mut out = String::with_capacity(text.len());
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            let mut j = i;
            while j < chars.len() && chars[j].is_whitespace() {
                j += 1;
            }
            let run = &chars[i..j];
            if run == [' '] {
                out.push(' ');
            } else {
                let what = if run.iter().all(|&c| c == ' ') {
                    format!("{} spaces", run.len())
                } else {
                    let names: Vec<String> =
                        run.iter().map(|c| format!("U+{:04X}", *c as u32)).collect();
                    format!("white space {}", names.join(" "))
                };
                let _ = write!(
                    out,
                    "<span class=\"mark space\" title=\"{what}\">{}</span>",
                    "\u{2423}".repeat(run.len())
                );
            }
            i = j;
            continue;
        }
        // The word around: its main script, by letter count.
        let start = i;
        let mut j = i;
        while j < chars.len() && !chars[j].is_whitespace() {
            j += 1;
        }
        let word = &chars[start..j];
        let mut counts: Vec<(&str, usize)> = Vec::new();
        for s in word.iter().filter_map(|&c| script(c)) {
            match counts.iter_mut().find(|(n, _)| *n == s) {
                Some((_, k)) => *k += 1,
                None => counts.push((s, 1)),
            }
        }
        let main = counts.iter().max_by_key(|(_, k)| *k).map(|(n, _)| *n);
        for &c in word {
            match (script(c), main) {
                (Some(s), Some(m)) if counts.len() > 1 && s != m => {
                    let _ = write!(
                        out,
                        "<span class=\"mark script\" title=\"a {s} letter in a {m} word\">{}</span>",
                        escape(&c.to_string())
                    );
                }
                _ => out.push_str(&escape(&c.to_string())),
            }
        }
        i = j;
    }
    out
}

/// A message with the names it quotes (`"..."`) [`marked`], the rest
/// escaped.
fn quoted_marked(message: &str) -> String {
    message
        .split('"')
        .enumerate()
        .map(|(k, part)| {
            if k % 2 == 1 {
                marked(part)
            } else {
                escape(part)
            }
        })
        .collect::<Vec<_>>()
        .join("\"")
}

fn blank_zero(n: u64) -> String {
    if n == 0 {
        String::new()
    } else {
        n.to_string()
    }
}

/// Whether `path` holds something other than a report pdnkit wrote (which a
/// new report may replace): a file that does not start like one.
fn foreign_file(path: &Path) -> bool {
    use std::io::Read as _;
    let Ok(meta) = std::fs::metadata(path) else {
        return false;
    };
    if !meta.is_file() {
        return false;
    }
    let mut head = vec![0u8; 4096];
    let n = std::fs::File::open(path)
        .and_then(|mut f| f.read(&mut head))
        .unwrap_or(0);
    let head = String::from_utf8_lossy(&head[..n]);
    // Reports of earlier releases had no generator tag.
    !(head.contains(GENERATOR)
        || (head.contains("<title>pdnkit report</title>") && head.contains("generated by pdnkit")))
}

/// Opens `path` in the user's web browser; `Err` says why it could not.
fn open_in_browser(path: &Path) -> Result<(), String> {
    let path = std::fs::canonicalize(path).map_err(|e| e.to_string())?;
    let tries: &[(&str, &[&str])] = if cfg!(target_os = "macos") {
        &[("open", &[])]
    } else if cfg!(windows) {
        &[("cmd", &["/C", "start", ""])]
    } else {
        &[
            ("xdg-open", &[]),
            ("sensible-browser", &[]),
            ("x-www-browser", &[]),
        ]
    };
    for (program, args) in tries {
        let spawned = std::process::Command::new(program)
            .args(*args)
            .arg(&path)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn();
        if spawned.is_ok() {
            return Ok(());
        }
    }
    Err(format!(
        "no browser opener found (tried {})",
        tries.iter().map(|t| t.0).collect::<Vec<_>>().join(", ")
    ))
}

pub fn run(a: Args) -> u8 {
    let selection = match a.select.selection(&a.tag_select.tag, &a.input) {
        Ok(s) => s,
        Err(why) => return crate::exit::fail(why),
    };
    let mut prepared = match a.input.prepare(true) {
        Ok(p) => p,
        Err(code) => return code,
    };
    // The output must not be an input: a report written before (not PDN) is
    // left out of the inputs; a PDN file is never overwritten.
    let output_is_input = prepared
        .inputs()
        .iter()
        .any(|i| crate::output::is_input(i, &a.output));
    // An archive read through one of its members is never a report written before.
    let member_of_it = prepared.inputs().iter().any(|i| {
        matches!(i, pdnkit::batch::Input::Member(p, _) if crate::output::same_file(p, &a.output))
    });
    if output_is_input {
        if member_of_it || pdnkit::batch::file_not_pdn(&a.output).is_none() {
            return crate::exit::fail(format!(
                "{} is an input; refusing to overwrite it (name another -o)",
                crate::render::path(&a.output)
            ));
        }
        prepared.batch.retain(|i, _| {
            !matches!(i, pdnkit::batch::Input::File(p) if crate::output::same_file(p, &a.output))
        });
    }
    if !a.force && foreign_file(&a.output) {
        return crate::exit::fail(format!(
            "{} exists and is not a pdnkit report; refusing to replace it (name another -o, or add --force)",
            crate::render::path(&a.output)
        ));
    }
    let mut sink = ReportSink {
        named: a
            .input
            .paths
            .iter()
            .map(|p| crate::render::path(p))
            .collect(),
        ..ReportSink::default()
    };
    match prepared.run_selected(!a.input.no_progress, &selection, &mut sink) {
        Ok(_) => {}
        Err(Stop::Enough) => return crate::exit::fail(format!(
            "more than {MAX_REPORT_GAMES} games: one page this large could not be opened; nothing was written. \
             Report the archive in parts, one report per folder or file, for example \
             `for d in ARCHIVE/*/; do pdnkit report \"$d\" -o \"${{d%/}}.html\"; done`, \
             or select games (--event, --player, --date, --only-invalid); `pdnkit check` and `pdnkit stats` read any size"
        )),
        Err(stop) => {
            stop.report();
            return 0;
        }
    }
    let html = sink.html();
    let out = match Out::open(&a.output) {
        Ok(o) => o,
        Err(e) => {
            return crate::exit::fail(format_args!("{}: {e}", crate::render::path(&a.output)))
        }
    };
    let name = out.name();
    if let Err(stop) = out.write_whole(html.as_bytes()) {
        stop.report();
        return 0;
    }
    let s = &sink.sum;
    eprintln!(
        "pdnkit: wrote {name}: {} games in {} files ({} valid, {} with errors, {} not checked; {} errors, {} warnings, {} notes)",
        s.games,
        s.files,
        s.valid,
        s.invalid(),
        s.unchecked,
        s.of_severity(Severity::Error),
        s.of_severity(Severity::Warning),
        s.of_severity(Severity::Note)
    );
    if a.open && name != "standard output" {
        if let Err(why) = open_in_browser(&a.output) {
            eprintln!("pdnkit: cannot open {name}: {why}");
        }
    }
    u8::from(a.strict && s.of_severity(Severity::Error) > 0)
}
