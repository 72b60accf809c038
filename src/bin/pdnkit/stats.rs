//! `pdnkit stats PATH...`: an archive at a glance.

use crate::common::InputArgs;
use crate::games::Sink;
use pdnkit::export::game_row;
use pdnkit::notation::{write_move, Style};
use pdnkit::pdn::Game;
use pdnkit::replay::Report;
use pdnkit::stats::Stats;
use serde_json::{json, Value};
use std::collections::BTreeMap;

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Human,
    Json,
    Csv,
}

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    /// human (tables), json or csv (scope, metric, key, value rows).
    #[arg(long, value_enum, default_value = "human")]
    format: Format,
    /// Also give every figure per file.
    #[arg(long)]
    per_file: bool,
    /// How many openings to list.
    #[arg(long, default_value_t = 10)]
    openings: usize,
}

#[derive(Default)]
struct StatsSink {
    all: Stats,
    by_variant: BTreeMap<String, Stats>,
    by_file: BTreeMap<String, Stats>,
    per_file: bool,
    failed: bool,
}

impl Sink for StatsSink {
    fn game(&mut self, file: &str, g: &Game, r: &Report) -> bool {
        let row = game_row(file, g, r);
        let opening: Vec<String> = r
            .played
            .iter()
            .take(4)
            .map(|p| {
                write_move(
                    &p.before,
                    &p.mv,
                    Style {
                        algebraic: false,
                        colon: false,
                    },
                )
            })
            .collect();
        let mut one = Stats::default();
        one.add(r, &row, &opening);
        self.all.merge(&one);
        let v = r.kind.map_or("unknown", |k| k.name()).to_string();
        self.by_variant.entry(v).or_default().merge(&one);
        if self.per_file {
            self.by_file
                .entry(file.to_string())
                .or_default()
                .merge(&one);
        }
        true
    }
    fn file_error(&mut self, file: &str, msg: &str) {
        self.failed = true;
        eprintln!("pdnkit: {file}: {msg}");
    }
    fn file_done(&mut self, file: &str, findings: &[pdnkit::diag::FileDiagnostic]) {
        for d in findings {
            self.all.add_finding(d.code, d.severity);
            if self.per_file {
                self.by_file
                    .entry(file.to_string())
                    .or_default()
                    .add_finding(d.code, d.severity);
            }
        }
    }
}

fn to_json(s: &Stats, n: usize) -> Value {
    let plies = s.plies_summary().map(
        |(min, median, mean, max)| json!({"min": min, "median": median, "mean": mean, "max": max}),
    );
    let top = |t| {
        Stats::top(t, n)
            .into_iter()
            .map(|(k, o)| json!({"moves": k, "games": o.games, "scored": o.scored, "white_score": o.white_score()}))
            .collect::<Vec<_>>()
    };
    json!({
        "games": s.games, "valid": s.valid, "invalid": s.invalid, "unchecked": s.unchecked,
        "findings": s.findings, "findings_by_severity": s.findings_by_severity, "declared_results": s.declared, "computed_results": s.computed,
        "terminations": s.terminations, "result_mismatches": s.result_mismatches,
        "plies": plies, "captures": s.captures, "longest_capture": s.longest_capture, "crownings": s.crownings,
        "openings_2": top(&s.openings2), "openings_4": top(&s.openings4),
    })
}

fn human(scope: &str, s: &Stats, n: usize) -> String {
    let mut t = format!("== {scope}\n");
    let line = |t: &mut String, k: &str, v: String| t.push_str(&format!("  {k:<20} {v}\n"));
    let unchecked = if s.unchecked > 0 {
        format!(", {} not checked", s.unchecked)
    } else {
        String::new()
    };
    line(
        &mut t,
        "games",
        format!(
            "{} ({} valid, {} invalid{unchecked})",
            s.games, s.valid, s.invalid
        ),
    );
    if let Some((min, med, mean, max)) = s.plies_summary() {
        line(
            &mut t,
            "plies",
            format!("min {min}, median {med}, mean {mean:.1}, max {max}"),
        );
    }
    line(
        &mut t,
        "captures",
        format!(
            "{} (longest takes {}), crownings {}",
            s.captures, s.longest_capture, s.crownings
        ),
    );
    let map = |m: &BTreeMap<String, u64>| {
        m.iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    line(&mut t, "declared results", map(&s.declared));
    line(&mut t, "computed results", map(&s.computed));
    line(&mut t, "terminations", map(&s.terminations));
    if !s.findings.is_empty() {
        t.push_str("  findings by severity and code\n");
        for sev in ["error", "warning", "note"] {
            if let Some(m) = s.findings_by_severity.get(sev) {
                for (k, v) in m {
                    t.push_str(&format!("    {sev:<8} {k:<22} {v}\n"));
                }
            }
        }
    }
    for (title, table) in [
        ("openings (2 plies)", &s.openings2),
        ("openings (4 plies)", &s.openings4),
    ] {
        let top = Stats::top(table, n);
        if top.is_empty() {
            continue;
        }
        t.push_str(&format!("  {title}: games, White's score\n"));
        for (k, o) in top {
            let score = o
                .white_score()
                .map_or("-".to_string(), |x| format!("{:.0}%", 100.0 * x));
            t.push_str(&format!("    {k:<28} {:>6}  {score:>5}\n", o.games));
        }
    }
    t
}

fn csv_rows(w: &mut csv::Writer<Vec<u8>>, scope: &str, s: &Stats) {
    let mut row = |m: &str, k: &str, v: String| {
        let _ = w.write_record([scope, m, k, &v]);
    };
    row("games", "", s.games.to_string());
    row("valid", "", s.valid.to_string());
    row("invalid", "", s.invalid.to_string());
    for (m, t) in [
        ("finding", &s.findings),
        ("declared", &s.declared),
        ("computed", &s.computed),
        ("termination", &s.terminations),
    ] {
        for (k, v) in t {
            row(m, k, v.to_string());
        }
    }
    row("result_mismatches", "", s.result_mismatches.to_string());
    if let Some((min, med, mean, max)) = s.plies_summary() {
        row("plies", "min", min.to_string());
        row("plies", "median", med.to_string());
        row("plies", "mean", format!("{mean:.3}"));
        row("plies", "max", max.to_string());
    }
    row("captures", "", s.captures.to_string());
    row("longest_capture", "", s.longest_capture.to_string());
    row("crownings", "", s.crownings.to_string());
    for (m, t) in [("opening2", &s.openings2), ("opening4", &s.openings4)] {
        for (k, o) in Stats::top(t, usize::MAX) {
            row(m, k, o.games.to_string());
        }
    }
}

pub fn run(a: Args) -> u8 {
    let prepared = match a.input.prepare(true) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let mut sink = StatsSink {
        per_file: a.per_file,
        ..StatsSink::default()
    };
    let (_, failed) = prepared.run(!a.input.no_progress, &mut sink);
    sink.failed |= failed;
    let mut scopes: Vec<(String, &Stats)> = vec![("all".to_string(), &sink.all)];
    scopes.extend(
        sink.by_variant
            .iter()
            .map(|(k, v)| (format!("variant:{k}"), v)),
    );
    scopes.extend(sink.by_file.iter().map(|(k, v)| (format!("file:{k}"), v)));
    let text = match a.format {
        Format::Human => scopes
            .iter()
            .map(|(k, s)| human(k, s, a.openings))
            .collect::<Vec<_>>()
            .join("\n"),
        Format::Json => {
            let v: serde_json::Map<String, Value> = scopes
                .iter()
                .map(|(k, s)| (k.clone(), to_json(s, a.openings)))
                .collect();
            format!("{}\n", Value::Object(v))
        }
        Format::Csv => {
            let mut w = csv::Writer::from_writer(Vec::new());
            let _ = w.write_record(["scope", "metric", "key", "value"]);
            for (k, s) in &scopes {
                csv_rows(&mut w, k, s);
            }
            String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
        }
    };
    // stats did its job whatever the findings: 0, or 2 when the run failed.
    let status = if sink.failed { crate::EXIT_FAILED } else { 0 };
    match crate::output::print(&text) {
        Ok(()) => status,
        Err(stop) => stop.report(status),
    }
}
