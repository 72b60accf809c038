//! The report's summary chart of game lengths, as inline SVG, with a
//! title, axis labels and the count of every bar; and the rows of the
//! findings by code (the one view of those counts is their table).

use super::escape;
use pdnkit::diag::{Code, Severity};
use pdnkit::stats::Summary;
use std::fmt::Write as _;

const WIDTH: u32 = 480;
const LABEL: u32 = 150;
const BARS: u32 = 230;
const ROW: u32 = 20;
const TOP: u32 = 46;

/// Findings per code, by severity (errors, warnings, notes), most first.
pub fn code_rows(s: &Summary) -> Vec<(&'static str, [u64; 3])> {
    let mut rows: Vec<(&'static str, [u64; 3])> = Code::ALL
        .iter()
        .map(|&c| {
            (
                c.as_str(),
                [
                    s.count(c, Severity::Error),
                    s.count(c, Severity::Warning),
                    s.count(c, Severity::Note),
                ],
            )
        })
        .filter(|(_, n)| n.iter().sum::<u64>() > 0)
        .collect();
    // Severity first (codes with errors, then warnings, then notes), then
    // the count of that severity, most first.
    let key = |n: &[u64; 3]| -> (usize, std::cmp::Reverse<u64>) {
        let worst = n.iter().position(|&c| c > 0).unwrap_or(3);
        (worst, std::cmp::Reverse(n.get(worst).copied().unwrap_or(0)))
    };
    rows.sort_by(|a, b| key(&a.1).cmp(&key(&b.1)).then(a.0.cmp(b.0)));
    rows
}

/// The frame of a chart: title, x axis with ticks at 0, half and the
/// maximum, and its label; the caller adds the bars.
fn frame(id: &str, title: &str, x_label: &str, rows: usize, max: u64) -> (String, u32) {
    let height = TOP + ROW * rows.max(1) as u32 + 34;
    let mut s = format!(
        r##"<figure class="chart-box"><svg class="chart" id="{id}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}" role="img" font-family="sans-serif" font-size="12"><title>{t}</title><text x="0" y="16" font-size="14" font-weight="bold">{t}</text>"##,
        t = escape(title)
    );
    let axis_y = TOP + ROW * rows.max(1) as u32 + 2;
    let _ = write!(
        s,
        r##"<line x1="{LABEL}" y1="{}" x2="{LABEL}" y2="{axis_y}" stroke="#555"/><line x1="{LABEL}" y1="{axis_y}" x2="{}" y2="{axis_y}" stroke="#555"/>"##,
        TOP - 4,
        LABEL + BARS
    );
    for (k, v) in [(0, 0), (1, max / 2), (2, max)] {
        let x = LABEL + BARS * k / 2;
        let _ = write!(
            s,
            r##"<line x1="{x}" y1="{axis_y}" x2="{x}" y2="{}" stroke="#555"/><text x="{x}" y="{}" text-anchor="middle" fill="#444">{v}</text>"##,
            axis_y + 4,
            axis_y + 16
        );
    }
    let _ = write!(
        s,
        r##"<text x="{}" y="{}" text-anchor="middle" fill="#222">{}</text>"##,
        LABEL + BARS / 2,
        axis_y + 30,
        escape(x_label)
    );
    (s, axis_y)
}

/// Games by length in plies, one bar per class.
pub fn lengths_chart(classes: &[(&'static str, u64)]) -> String {
    let max = classes.iter().map(|c| c.1).max().unwrap_or(0).max(1);
    let (mut s, _) = frame("chart-lengths", "Game lengths", "games", classes.len(), max);
    let _ = write!(
        s,
        r##"<text x="{}" y="{}" text-anchor="end" fill="#222" font-style="italic">plies</text>"##,
        LABEL - 6,
        TOP - 8
    );
    for (i, (class, n)) in classes.iter().enumerate() {
        let y = TOP + ROW * i as u32;
        let w = ((u64::from(BARS) * n / max) as u32).max(u32::from(*n > 0));
        let _ = write!(
            s,
            r##"<g class="bar"><text x="{}" y="{}" text-anchor="end">{class}</text><rect x="{LABEL}" y="{}" width="{w}" height="15" fill="#5b7fa6"/><text x="{}" y="{}" fill="#333">{n}</text></g>"##,
            LABEL - 6,
            y + 12,
            y + 1,
            LABEL + w + 4,
            y + 12
        );
    }
    s.push_str("</svg></figure>");
    s
}
