//! `pdnkit report PATH... -o report.html`: one self-contained HTML file (styles,
//! script and diagrams inline, nothing fetched) with the summary, a table of
//! every game that sorts and filters, every move finding on a board, and a
//! viewer for each game with findings (every game up to 5,000 games).
//!
//! Everything taken from the input is escaped ([`escape`]); the game data for
//! the viewers is JSON inside a `<script type="application/json">`, with `<`
//! written `\u003c` so that no tag value can close the script.

use crate::common::InputArgs;
use crate::games::Sink;
use crate::output::{Out, Stop};
use pdnkit::board::Orientation;
use pdnkit::diag::{Code, FileDiagnostic, Severity};
use pdnkit::diagram::{escape, svg, Arrow, DiagramOptions};
use pdnkit::pdn::{visible, Game, Locator};
use pdnkit::piece::Color;
use pdnkit::replay::{move_number, GameReport};
use pdnkit::stats::Summary;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;

/// Up to this many games, every game gets a viewer; above, only games with findings.
pub const ALL_VIEWERS_UP_TO: usize = 5000;

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
}

/// What the report keeps of a game.
struct GameEntry {
    file: String,
    index: usize,
    line: u32,
    tags: BTreeMap<String, String>,
    variant: Option<&'static str>,
    checked: bool,
    valid: Option<bool>,
    declared: &'static str,
    computed: &'static str,
    termination: &'static str,
    plies: u32,
    errors: usize,
    codes: Vec<&'static str>,
    first: Option<String>,
    /// The viewer's data (start position, moves), when kept.
    viewer: Option<Viewer>,
    /// Who moves first and the variant: how the moves are numbered.
    numbering: (Color, Option<pdnkit::Variant>),
    /// HTML of the game's move findings.
    findings: Vec<String>,
}

/// The most games one report holds. Each costs about 3 KB while the page is
/// built (1,000,000 one-move games peaked at 2.9 GB), and a browser cannot
/// open a page of this many games anyway: past it the run stops, says so,
/// and writes nothing (docs/limits.md).
const MAX_REPORT_GAMES: usize = 100_000;

#[derive(Default)]
struct ReportSink {
    games: Vec<GameEntry>,
    /// The run was stopped at [`MAX_REPORT_GAMES`].
    too_many: bool,
    file_findings: Vec<(String, FileDiagnostic)>,
    /// Games, verdicts, findings and results, counted as `check` counts them.
    sum: Summary,
    move_findings: usize,
    failed: bool,
    /// The PATHs named, for the title.
    named: Vec<String>,
    /// The games as tournaments see them (the events section).
    tgames: Vec<pdnkit::tournament::TGame>,
}

/// What a game's viewer is drawn from, as JSON in the page (fields in
/// alphabetical order, as they have always been written).
#[derive(Clone, serde::Serialize)]
struct Viewer {
    /// Plies with an error finding.
    bad: Vec<u32>,
    /// 1 when the first move is numbered as the second player's (`1...`).
    first_number: u8,
    /// 1 on the mirrored board (Italian: square 1 is the top-left corner).
    mirrored: u8,
    /// `[from, to, [taken], crowns]` per ply.
    moves: Vec<(u32, u32, Vec<u32>, u8)>,
    /// Board size.
    n: u8,
    /// `[square, piece]` at the start.
    pieces: Vec<(u32, &'static str)>,
    /// `W` or `B` to move first.
    side: &'static str,
    /// The written text of every main-line move (past the first error too).
    written: Vec<String>,
}

/// The start and the moves of a game, for the viewer.
fn viewer_data(g: &Game, r: &GameReport) -> Option<Viewer> {
    let start = r.start?;
    Some(Viewer {
        bad: r.errors().filter_map(|d| d.ply).collect(),
        first_number: u8::from(move_number(1, start.side(), r.variant).1),
        mirrored: u8::from(start.geometry().orientation() == Orientation::Mirrored),
        moves: r
            .played
            .iter()
            .map(|p| {
                (
                    p.mv.from().number(),
                    p.mv.to().number(),
                    p.mv.captured().squares().map(|s| s.number()).collect(),
                    u8::from(p.mv.crowns()),
                )
            })
            .collect(),
        n: start.size().n(),
        pieces: start
            .occupied()
            .squares()
            .filter_map(|s| Some((s.number(), start.piece_at(s)?.code())))
            .collect(),
        side: if start.side() == Color::White {
            "W"
        } else {
            "B"
        },
        written: g
            .main_line()
            .map(|m| String::from_utf8_lossy(g.bytes(&m.span())).into_owned())
            .collect(),
    })
}

/// The HTML of one move finding: message, source line, board.
fn finding_html(
    g: &Game,
    r: &GameReport,
    d: &pdnkit::diag::Diagnostic,
    line: u32,
    file: &str,
) -> String {
    let mut h = String::new();
    let ply = d.ply.unwrap_or(0);
    let number = d
        .number
        .map(|(n, second)| format!("{n}{} ", if second { "..." } else { "." }))
        .unwrap_or_default();
    let _ = write!(
        h,
        r#"<article class="finding" data-code="{code}" data-severity="{sev}"><h4><span class="sev {sev}">{sev}[{code}]</span> {file} game {game}, ply {ply}: {number}{mv}</h4><p>{msg}</p>"#,
        code = d.code.as_str(),
        sev = d.severity.as_str(),
        file = escape(file),
        game = g.index(),
        mv = escape(&visible(d.written.as_deref().unwrap_or(""))),
        msg = escape(&visible(&d.message)),
    );
    let snip = g.snippet(&d.span, 90);
    let chars: Vec<char> = snip.text.chars().collect();
    let part = |a: usize, b: usize| {
        escape(
            &chars[a.min(chars.len())..b.min(chars.len())]
                .iter()
                .collect::<String>(),
        )
    };
    let _ = write!(
        h,
        r#"<pre class="source"><span class="ln">{line}</span> {}{}<mark>{}</mark>{}{}</pre>"#,
        if snip.cut_left { "…" } else { "" },
        part(0, snip.caret.start),
        part(snip.caret.start, snip.caret.end),
        part(snip.caret.end, chars.len()),
        if snip.cut_right { "…" } else { "" },
    );
    if let Some(pos) = r.position_before(ply) {
        let mut opts = DiagramOptions {
            title: Some(format!("position before ply {ply}")),
            ..DiagramOptions::default()
        };
        if let Some(w) = &d.written {
            if let Ok(m) = Arrow::written(&pos, w) {
                opts.moves.push(m);
            }
        }
        if matches!(d.code, Code::NonMaximalCapture | Code::MissedCapture) {
            if let Some(best) = Arrow::maximal_capture(&pos) {
                opts.moves.push(best);
            }
        }
        let _ = write!(
            h,
            r#"<figure class="finding-diagram">{}</figure>"#,
            svg(&pos, &opts)
        );
    }
    h.push_str("</article>");
    h
}

impl Sink for ReportSink {
    fn game(&mut self, file: &str, g: &Game, r: &GameReport) -> bool {
        if self.games.len() >= MAX_REPORT_GAMES {
            self.too_many = true;
            return false;
        }
        let tags: BTreeMap<String, String> = g
            .tags()
            .iter()
            .map(|t| (g.tag_name(t).to_string(), g.tag_value(t)))
            .collect();
        let mut loc = Locator::new(g);
        let mut findings = Vec::new();
        self.sum.add_game(r);
        self.tgames.push(crate::tournament::tgame(file, g, r));
        for d in &r.diagnostics {
            if d.ply.is_some() {
                let (line, _) = loc.locate(d.span.start);
                findings.push(finding_html(g, r, d, line, file));
                self.move_findings += 1;
            }
        }
        let first = r
            .first_error()
            .map(|d| format!("{}: {}", d.code, d.message));
        let mut codes: Vec<&'static str> = r.diagnostics.iter().map(|d| d.code.as_str()).collect();
        codes.sort_unstable();
        codes.dedup();
        self.games.push(GameEntry {
            file: file.to_string(),
            index: g.index(),
            line: g.start_line(),
            tags,
            variant: r.kind.map(|k| k.name()),
            checked: r.checked,
            valid: r.verdict(),
            declared: r.declared.map_or("", |o| o.normalised()),
            computed: r.computed.normalised(),
            termination: r.termination.name(),
            plies: r.plies,
            errors: r.errors().count(),
            codes,
            first,
            viewer: viewer_data(g, r),
            numbering: (r.start.map_or(Color::White, |p| p.side()), r.variant),
            findings,
        });
        true
    }
    fn file_error(&mut self, file: &str, msg: &str) {
        self.failed = true;
        eprintln!("pdnkit: {}: {msg}", crate::render::name(file));
    }
    fn file_done(&mut self, file: &str, findings: &[FileDiagnostic]) {
        self.sum.files += 1;
        for d in findings {
            self.sum.add_finding(d.code, d.severity);
            self.file_findings.push((file.to_string(), d.clone()));
        }
    }
}

/// A horizontal bar chart as inline SVG.
fn bar_chart(title: &str, rows: &[(String, u64)]) -> String {
    let max = rows.iter().map(|r| r.1).max().unwrap_or(1).max(1);
    let height = 20 * rows.len() as u32 + 24;
    let mut s = format!(
        r##"<svg class="chart" xmlns="http://www.w3.org/2000/svg" width="460" height="{height}" role="img"><title>{}</title>"##,
        escape(title)
    );
    for (i, (label, n)) in rows.iter().enumerate() {
        let y = 20 * i as u32 + 4;
        let w = (260 * n / max) as u32;
        let _ = write!(
            s,
            r##"<text x="150" y="{}" font-size="12" text-anchor="end" font-family="sans-serif">{}</text><rect x="156" y="{y}" width="{}" height="15" fill="#5b7fa6"/><text x="{}" y="{}" font-size="12" font-family="sans-serif">{n}</text>"##,
            y + 12,
            escape(label),
            w.max(1),
            160 + w,
            y + 12
        );
    }
    s.push_str("</svg>");
    s
}

const STYLE: &str = r#"
body{font-family:system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:0 1em 3em;color:#222}
h1{margin-bottom:.2em} h2{border-bottom:2px solid #ddd;padding-bottom:.2em;margin-top:1.6em}
.cards{display:flex;flex-wrap:wrap;gap:.6em} .card{border:1px solid #ccc;border-radius:6px;padding:.4em .8em;min-width:7em}
.card b{display:block;font-size:1.5em}
table{border-collapse:collapse;font-size:.9em} td,th{border-bottom:1px solid #e3e3e3;padding:.2em .5em;text-align:left;vertical-align:top}
#games th{cursor:pointer;background:#f4f4f4;position:sticky;top:0} #games th:hover{background:#e8e8e8}
tr.invalid td{background:#fff2f2} tr.unchecked td{color:#777}
.filters{margin:.6em 0;display:flex;gap:1em;flex-wrap:wrap;align-items:center}
.finding{border:1px solid #ddd;border-radius:6px;padding:.2em .8em .8em;margin:.8em 0}
.finding h4{margin:.5em 0} pre.source{background:#f7f7f7;padding:.4em;overflow-x:auto} mark{background:#ffd54f}
.sev.error{color:#b71c1c} .sev.warning{color:#8a6d00} .sev.note{color:#0b6e8a}
.crosstable{border-collapse:collapse;margin:.5em 0} .crosstable th,.crosstable td{padding:.1em .6em;text-align:right;border-bottom:1px solid #eee} .crosstable td:nth-child(2),.crosstable th:nth-child(2){text-align:left}
.viewer{border:1px solid #ccc;border-radius:6px;padding:.4em .8em;margin:1em 0;display:grid;grid-template-columns:auto 1fr;gap:1em}
.viewer .moves{max-height:420px;overflow-y:auto;font-family:monospace;columns:2;margin:0;padding-left:.5em;list-style:none}
.viewer .moves li{cursor:pointer}
.viewer .moves li.current{background:#ffd54f} .viewer .moves li.bad{color:#b71c1c;font-weight:bold}
.viewer .controls button{font-size:1.1em;min-width:2.4em}
.legend{font-size:.85em;color:#555}
"#;

const SCRIPT: &str = r#"
(function(){
'use strict';
window.__pdnkitErrors=[];
window.addEventListener('error',function(e){window.__pdnkitErrors.push(String(e.message));});
var data=JSON.parse(document.getElementById('pdnkit-data').textContent);
var NS='http://www.w3.org/2000/svg',SQ=40,M=18;
function coords(g,s){var h=g.n/2,r=Math.floor((s-1)/h),f=2*((s-1)%h)+((r%2===0)!==(g.mirrored===1)?1:0);return [r,f];}
function el(name,attrs){var e=document.createElementNS(NS,name);for(var k in attrs){e.setAttribute(k,attrs[k]);}return e;}
function board(g,pieces){
  var n=g.n,side=n*SQ+2*M,svg=el('svg',{viewBox:'0 0 '+side+' '+side,width:side,height:side,'class':'viewer-board'});
  svg.appendChild(el('rect',{x:M,y:M,width:n*SQ,height:n*SQ,fill:'#eeeed2'}));
  var dark=g.mirrored===1?0:1;
  var d='';for(var r=0;r<n;r++){for(var f=0;f<n;f++){if((r+f)%2===dark){d+='M'+(M+f*SQ)+' '+(M+r*SQ)+'h'+SQ+'v'+SQ+'h-'+SQ+'z';}}}
  svg.appendChild(el('path',{d:d,fill:'#8b8b83'}));
  Object.keys(pieces).forEach(function(s){
    var p=pieces[s],rc=coords(g,+s),cx=M+rc[1]*SQ+SQ/2,cy=M+rc[0]*SQ+SQ/2,white=p[0]==='W';
    var grp=el('g',{'class':'piece','data-square':s,'data-piece':p});
    grp.appendChild(el('circle',{cx:cx,cy:cy,r:15,fill:white?'#fafafa':'#1e1e1e',stroke:'#111','stroke-width':2}));
    if(p.length>1){var line=white?'#111':'#e8e8e8';grp.appendChild(el('circle',{cx:cx,cy:cy,r:9,fill:'none',stroke:line,'stroke-width':2.5}));grp.appendChild(el('circle',{cx:cx,cy:cy,r:3,fill:line}));}
    svg.appendChild(grp);
  });
  return svg;
}
function position(g,ply){
  var pieces={};g.pieces.forEach(function(p){pieces[p[0]]=p[1];});
  for(var i=0;i<ply;i++){var m=g.moves[i],p=pieces[m[0]];delete pieces[m[0]];m[2].forEach(function(c){delete pieces[c];});
    if(m[3]&&p.length===1){p=p+'K';}pieces[m[1]]=p;}
  return pieces;
}
function setupViewer(v){
  var g=data.games[+v.dataset.game];if(!g){return;}
  var holder=v.querySelector('.board'),label=v.querySelector('.ply'),items=v.querySelectorAll('.moves li'),ply=0;
  function show(p){ply=Math.max(0,Math.min(g.moves.length,p));holder.textContent='';holder.appendChild(board(g,position(g,ply)));
    label.textContent='ply '+ply+' / '+g.moves.length;v.dataset.ply=ply;
    items.forEach(function(li){li.classList.toggle('current',+li.dataset.ply===ply);});}
  v.querySelector('.first').addEventListener('click',function(){show(0);});
  v.querySelector('.prev').addEventListener('click',function(){show(ply-1);});
  v.querySelector('.next').addEventListener('click',function(){show(ply+1);});
  v.querySelector('.last').addEventListener('click',function(){show(g.moves.length);});
  items.forEach(function(li){li.addEventListener('click',function(){if(+li.dataset.ply<=g.moves.length){show(+li.dataset.ply);}});});
  v.addEventListener('keydown',function(e){if(e.key==='ArrowRight'){show(ply+1);e.preventDefault();}if(e.key==='ArrowLeft'){show(ply-1);e.preventDefault();}
    if(e.key==='Home'){show(0);}if(e.key==='End'){show(g.moves.length);}});
  show(0);
}
document.querySelectorAll('.viewer').forEach(setupViewer);
var table=document.getElementById('games'),rows=Array.prototype.slice.call(table.tBodies[0].rows);
function filter(){
  var only=document.getElementById('only-errors').checked,code=document.getElementById('code-filter').value,
      text=document.getElementById('text-filter').value.toLowerCase(),shown=0;
  rows.forEach(function(r){var ok=(!only||r.dataset.valid==='false')&&(!code||(' '+r.dataset.codes+' ').indexOf(' '+code+' ')>=0)&&(!text||r.textContent.toLowerCase().indexOf(text)>=0);
    r.style.display=ok?'':'none';if(ok){shown++;}});
  document.getElementById('shown').textContent=shown;
}
['only-errors','code-filter','text-filter'].forEach(function(id){var e=document.getElementById(id);e.addEventListener('input',filter);e.addEventListener('change',filter);});
var dir={};
Array.prototype.forEach.call(table.tHead.rows[0].cells,function(th,i){th.addEventListener('click',function(){
  dir[i]=-(dir[i]||-1);var num=th.dataset.type==='num';
  rows.sort(function(a,b){var x=a.cells[i].dataset.sort||a.cells[i].textContent,y=b.cells[i].dataset.sort||b.cells[i].textContent;
    if(num){x=+x;y=+y;}return (x<y?-1:x>y?1:0)*dir[i];});
  rows.forEach(function(r){table.tBodies[0].appendChild(r);});});});
filter();
document.body.dataset.ready='yes';
})();
"#;

impl ReportSink {
    fn html(&self) -> String {
        let mut h = String::with_capacity(1 << 20);
        let _ = write!(
            h,
            r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>pdnkit report</title><style>{STYLE}</style></head><body><h1>pdnkit report</h1><p class="legend">{} — generated by pdnkit {}</p>"#,
            escape(&self.named.join(", ")),
            env!("CARGO_PKG_VERSION")
        );
        let viewers_for_all = self.games.len() <= ALL_VIEWERS_UP_TO;
        self.summary_section(&mut h);
        self.events_section(&mut h);
        self.games_section(&mut h, viewers_for_all);
        self.findings_section(&mut h);
        let viewer_data = self.viewers_section(&mut h, viewers_for_all);
        #[derive(serde::Serialize)]
        struct Data<'a> {
            games: Vec<Option<&'a Viewer>>,
        }
        let data = serde_json::to_string(&Data { games: viewer_data })
            .unwrap_or_default()
            .replace('<', "\\u003c");
        let _ = write!(
            h,
            r#"<script type="application/json" id="pdnkit-data">{data}</script><script>{SCRIPT}</script></body></html>"#
        );
        h
    }

    /// Each tournament of the archive (events whose games have rounds, with
    /// three players or more): the crosstable and the findings of
    /// `pdnkit tournament` (docs/tournament.md).
    fn events_section(&self, h: &mut String) {
        use pdnkit::tournament::{events, Settings};
        let evs: Vec<_> = events(&self.tgames, &Settings::default())
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
                "<details class=\"event\"><summary>{}: {}</summary><table class=\"crosstable\"><thead><tr><th>#</th><th>player</th><th>pts</th><th>G</th><th>W</th><th>D</th><th>L</th>",
                escape(&crate::tournament::title(e)),
                escape(&crate::tournament::system_text(e))
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
                    escape(&p.name),
                    crate::tournament::pts(p.points),
                    p.games,
                    p.wins,
                    p.draws,
                    p.losses
                );
                for (_, v) in &p.tiebreaks {
                    let _ = write!(h, "<td>{}</td>", crate::tournament::num(*v));
                }
                h.push_str("</tr>");
            }
            h.push_str("</tbody></table>");
            if !e.findings.is_empty() {
                h.push_str("<ul class=\"event-findings\">");
                for f in &e.findings {
                    let _ = write!(
                        h,
                        "<li><span class=\"sev {}\">{}[{}]</span> {}</li>",
                        f.severity,
                        f.severity,
                        f.code,
                        escape(&f.message)
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
        let games = s.games;
        let (errors, warnings, notes) = (
            s.of_severity(Severity::Error),
            s.of_severity(Severity::Warning),
            s.of_severity(Severity::Note),
        );
        let with_errors = s.invalid();
        // Summary.
        h.push_str(r#"<section id="summary"><h2>Summary</h2><div class="cards">"#);
        for (id, label, n) in [
            ("files", "files", s.files),
            ("games", "games", games),
            ("valid", "valid", s.valid),
            ("with-errors", "with errors", with_errors),
            ("unchecked", "not checked", s.unchecked),
            ("errors", "errors", errors),
            ("warnings", "warnings", warnings),
            ("notes", "notes", notes),
        ] {
            let _ = write!(
                *h,
                r#"<div class="card"><b id="sum-{id}">{n}</b>{label}</div>"#
            );
        }
        h.push_str("</div><h3>Findings by code and severity</h3><table id=\"codes\"><tr><th>severity</th><th>code</th><th>count</th></tr>");
        // Errors first, then warnings, then notes; codes in reverse order of their names.
        for sev in [Severity::Error, Severity::Warning, Severity::Note] {
            let mut codes: Vec<Code> = Code::ALL
                .iter()
                .copied()
                .filter(|&c| s.count(c, sev) > 0)
                .collect();
            codes.sort_by_key(|c| std::cmp::Reverse(c.as_str()));
            for code in codes {
                let _ = write!(
                    *h,
                    "<tr><td class=\"sev {0}\">{0}</td><td>{code}</td><td>{1}</td></tr>",
                    sev.as_str(),
                    s.count(code, sev)
                );
            }
        }
        h.push_str("</table><h3>Declared against computed results</h3><table id=\"results\"><tr><th>declared</th><th>computed</th><th>games</th></tr>");
        for ((d, c), n) in &s.results() {
            let _ = write!(*h, "<tr><td>{d}</td><td>{c}</td><td>{n}</td></tr>");
        }
        h.push_str("</table>");
        let mut code_rows: Vec<(String, u64)> = s
            .by_code()
            .iter()
            .map(|(c, n)| (c.to_string(), *n))
            .collect();
        code_rows.sort_by_key(|r| std::cmp::Reverse(r.1));
        h.push_str(&bar_chart("findings by code", &code_rows));
        let mut lengths = pdnkit::stats::Stats::default();
        for g in &self.games {
            *lengths.plies.entry(g.plies).or_default() += 1;
        }
        let length_rows: Vec<(String, u64)> = lengths
            .length_histogram()
            .into_iter()
            .map(|(b, n)| (format!("{b} plies"), n))
            .collect();
        h.push_str(&bar_chart("game lengths", &length_rows));
        if !self.file_findings.is_empty() {
            h.push_str("<h3>About whole files</h3><ul id=\"file-findings\">");
            for (f, d) in &self.file_findings {
                let _ = write!(
                    *h,
                    "<li><span class=\"sev {0}\">{0}[{1}]</span> {2}:{3}: {4}</li>",
                    d.severity.as_str(),
                    d.code.as_str(),
                    escape(f),
                    d.line,
                    escape(&d.message)
                );
            }
            h.push_str("</ul>");
        }
        h.push_str("</section>");
    }

    /// The table of games, with its filters.
    fn games_section(&self, h: &mut String, viewers_for_all: bool) {
        let s = &self.sum;
        // Games table.
        h.push_str(r#"<section id="games-section"><h2>Games</h2><div class="filters"><label><input type="checkbox" id="only-errors"> only games with errors</label><label>code <select id="code-filter"><option value="">any</option>"#);
        for c in s.by_code().keys() {
            let _ = write!(h, r#"<option value="{c}">{c}</option>"#);
        }
        h.push_str(r#"</select></label><label>search <input type="search" id="text-filter"></label><span><span id="shown"></span> shown</span></div>"#);
        h.push_str(r#"<table id="games"><thead><tr><th>file</th><th data-type="num">game</th><th>White</th><th>Black</th><th>event</th><th>round</th><th>date</th><th>declared</th><th>computed</th><th>valid</th><th>first finding</th></tr></thead><tbody>"#);
        for (i, g) in self.games.iter().enumerate() {
            let tag = |n: &str| escape(g.tags.get(n).map_or("", |s| s.as_str()));
            let (class, valid) = match g.valid {
                Some(true) => ("valid", "yes"),
                Some(false) => ("invalid", "no"),
                None => ("unchecked", "not checked"),
            };
            let link = viewers_for_all || !g.findings.is_empty() || g.errors > 0;
            let first = match (&g.first, link) {
                (Some(f), true) => format!(r##"<a href="#game-{i}">{}</a>"##, escape(f)),
                (Some(f), false) => escape(f),
                (None, true) => format!(r##"<a href="#game-{i}">view</a>"##),
                (None, false) => String::new(),
            };
            let _ = write!(
                h,
                r#"<tr class="{class}" data-valid="{}" data-codes="{}"><td>{}</td><td data-sort="{}">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{valid}</td><td>{first}</td></tr>"#,
                g.valid.map_or("none".to_string(), |v| v.to_string()),
                g.codes.join(" "),
                escape(&g.file),
                g.index,
                g.index,
                tag("White"),
                tag("Black"),
                tag("Event"),
                tag("Round"),
                tag("Date"),
                g.declared,
                if g.checked { g.computed } else { "" },
            );
        }
        h.push_str("</tbody></table></section>");
    }

    /// Every move finding with its board.
    fn findings_section(&self, h: &mut String) {
        // Findings on the board.
        let _ = write!(
            h,
            r#"<section id="findings"><h2>Move findings ({})</h2><p class="legend">The position before the move; the move as written in red, a maximal capture in dashed blue.</p>"#,
            self.move_findings
        );
        for g in &self.games {
            for f in &g.findings {
                h.push_str(f);
            }
        }
        h.push_str("</section>");
    }

    /// A viewer per game (or per game with findings): its data for the page's script.
    fn viewers_section(&self, h: &mut String, viewers_for_all: bool) -> Vec<Option<&Viewer>> {
        // Viewers.
        h.push_str(r#"<section id="viewers"><h2>Games on the board</h2>"#);
        if !viewers_for_all {
            let _ = write!(
                h,
                r#"<p class="legend" id="viewer-note">{} games: more than {ALL_VIEWERS_UP_TO}, so only the games with findings have a viewer.</p>"#,
                self.games.len()
            );
        }
        let mut viewer_data: Vec<Option<&Viewer>> = Vec::new();
        for (i, g) in self.games.iter().enumerate() {
            let wanted = viewers_for_all || !g.findings.is_empty() || g.errors > 0;
            let data = match (&g.viewer, wanted) {
                (Some(v), true) => v,
                _ => {
                    viewer_data.push(None);
                    continue;
                }
            };
            viewer_data.push(Some(data));
            let (written, bad) = (&data.written, &data.bad);
            let _ = write!(
                h,
                r#"<article class="viewer" id="game-{i}" data-game="{i}" tabindex="0"><div><h3>{} game {} (line {}): {} – {}</h3><div class="board"></div><div class="controls"><button class="first" title="start (Home)">|&lt;</button><button class="prev" title="previous (←)">&lt;</button><button class="next" title="next (→)">&gt;</button><button class="last" title="end (End)">&gt;|</button> <span class="ply"></span></div><p class="result">declared {}, computed {} ({}){}</p></div><ul class="moves">"#,
                escape(&g.file),
                g.index,
                g.line,
                escape(g.tags.get("White").map_or("?", |s| s.as_str())),
                escape(g.tags.get("Black").map_or("?", |s| s.as_str())),
                if g.declared.is_empty() {
                    "none"
                } else {
                    g.declared
                },
                g.computed,
                g.termination,
                g.variant.map_or(String::new(), |v| format!(" — {v}")),
            );
            for (k, w) in written.iter().enumerate() {
                let ply = k as u32 + 1;
                let (number, second) = move_number(ply, g.numbering.0, g.numbering.1);
                let label = format!("{number}{}", if second { "..." } else { "." });
                let _ = write!(
                    h,
                    r#"<li data-ply="{ply}"{}>{label} {}</li>"#,
                    if bad.contains(&ply) {
                        r#" class="bad""#
                    } else {
                        ""
                    },
                    escape(&visible(w))
                );
            }
            h.push_str("</ul></article>");
        }
        h.push_str("</section>");
        viewer_data
    }
}

pub fn run(a: Args) -> u8 {
    let selection = match a.select.selection(&a.tag_select.tag) {
        Ok(s) => s,
        Err(why) => return crate::fail(why),
    };
    let mut prepared = match a.input.prepare(true) {
        Ok(p) => p,
        Err(code) => return code,
    };
    // The output must not be an input: a report written before (not PDN) is
    // left out of the inputs; a PDN file is never overwritten.
    if let Some(i) = prepared.inputs.iter().position(
        |i| matches!(i, crate::input::Input::File(p) if crate::output::same_file(p, &a.output)),
    ) {
        match crate::games::file_not_pdn(&a.output) {
            Some(_) => {
                prepared.inputs.remove(i);
                prepared.named.remove(i);
                prepared.roots.remove(i);
            }
            None => {
                return crate::fail(format!(
                    "{} is an input; refusing to overwrite it (name another -o)",
                    crate::render::path(&a.output)
                ))
            }
        }
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
    let (_, failed) = prepared.run_selected(!a.input.no_progress, &selection, &mut sink);
    if sink.too_many {
        return crate::fail(format!(
            "more than {MAX_REPORT_GAMES} games: a report this large would need gigabytes to build \
             and no browser would open it; nothing was written. Report a part of the archive \
             (name fewer files or folders), or use `pdnkit check` and `pdnkit stats`"
        ));
    }
    let html = sink.html();
    let mut out = match Out::open(&a.output) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("pdnkit: {}: {e}", crate::render::path(&a.output));
            return crate::EXIT_FAILED;
        }
    };
    let name = out.name();
    if let Err(e) = out
        .write_all(html.as_bytes())
        .and_then(|()| out.finish(true))
    {
        return Stop::of(&e, &name, false).report(0);
    }
    if sink.failed || failed {
        crate::EXIT_FAILED
    } else if sink.sum.of_severity(Severity::Error) > 0 {
        1
    } else {
        0
    }
}
