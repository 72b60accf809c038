//! `pdnkit stats PATH...`: an archive at a glance.

use crate::common::InputArgs;
use crate::output::Stop;
use pdnkit::batch::Sink;
use pdnkit::pdn::Game;
use pdnkit::replay::GameReport;
use pdnkit::stats::{GroupBy, Groups, Stats};
use std::collections::BTreeMap;
use std::ops::ControlFlow;

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
    #[command(flatten)]
    select: crate::common::SelectArgs,
    #[command(flatten)]
    tag_select: crate::common::TagSelectArgs,
    /// human (tables), json or csv (scope, metric, key, value rows).
    #[arg(long, value_enum, default_value = "human")]
    format: Format,
    /// Also give every figure per file.
    #[arg(long)]
    per_file: bool,
    /// How many openings to list.
    #[arg(long, default_value_t = 10)]
    openings: usize,
    /// Per group instead: games, wins, draws, losses (a player's, by colour
    /// too; White's for the other groups), score, mean length, findings.
    #[arg(long, value_enum, value_name = "GROUP")]
    by: Option<By>,
    /// Count every copy of a game stored more than once in an event, as
    /// `check` counts the records (by default each game counts once, as
    /// `tournament` counts it, in every figure and every --by).
    #[arg(long)]
    keep_duplicates: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum By {
    Player,
    Event,
    Year,
    Variant,
    Opening,
}

struct StatsSink {
    /// The groups of `--by`, or the plain summary's scopes.
    groups: Groups,
    /// The plain summary: the findings about whole files, in all and per
    /// file.
    file_findings: Stats,
    by_file: BTreeMap<String, Stats>,
    per_file: bool,
}

impl Sink for StatsSink {
    type Error = Stop;
    fn game(&mut self, file: &str, g: &Game, r: &GameReport) -> ControlFlow<Stop> {
        self.groups.add(file, g, r);
        ControlFlow::Continue(())
    }
    fn file_done(&mut self, file: &str, findings: &[pdnkit::diag::FileDiagnostic]) {
        for d in findings {
            self.file_findings.add_finding(d.code, d.severity);
            if self.per_file {
                self.by_file
                    .entry(file.to_string())
                    .or_default()
                    .add_finding(d.code, d.severity);
            }
        }
    }
}

impl StatsSink {
    /// The plain summary's scopes, each game counted once (unless
    /// `--keep-duplicates`): `all`, `variant:NAME`, `file:PATH`.
    fn scopes(&mut self) -> Vec<(String, Stats)> {
        let mut all = self.file_findings.clone();
        let mut variants: BTreeMap<String, Stats> = BTreeMap::new();
        let mut files = std::mem::take(&mut self.by_file);
        for g in self.groups.sorted() {
            let Some(figures) = &g.figures else { continue };
            if g.name.starts_with("variant:") {
                all.merge(figures);
                variants.insert(g.name.clone(), figures.clone());
            } else if let Some(f) = g.name.strip_prefix("file:") {
                files.entry(f.to_string()).or_default().merge(figures);
            }
        }
        let mut scopes = vec![("all".to_string(), all)];
        scopes.extend(variants);
        scopes.extend(files.into_iter().map(|(k, v)| (format!("file:{k}"), v)));
        scopes
    }
}

fn human(scope: &str, s: &Stats, n: usize) -> String {
    let mut t = format!("== {scope}\n");
    let line = |t: &mut String, k: &str, v: String| t.push_str(&format!("  {k:<20} {v}\n"));
    let sum = &s.summary;
    let unchecked = if sum.unchecked > 0 {
        format!(", {} not checked", sum.unchecked)
    } else {
        String::new()
    };
    line(
        &mut t,
        "games",
        format!(
            "{} ({} valid, {} invalid{unchecked})",
            sum.games,
            sum.valid,
            sum.invalid()
        ),
    );
    if let Some((min, med, mean, max)) = s.plies_summary() {
        line(
            &mut t,
            "plies",
            format!("min {min}, median {med}, mean {mean:.1}, max {max}"),
        );
    }
    // Only replayed games have lengths, captures, computed results and
    // endings: a set of games none of which was replayed says so once.
    let replayed = s.plies_summary().is_some();
    if replayed {
        line(
            &mut t,
            "captures",
            format!(
                "{} (longest takes {}), crownings {}",
                s.captures, s.longest_capture, s.crownings
            ),
        );
    }
    let map = |m: &BTreeMap<String, u64>| {
        m.iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    line(&mut t, "declared results", map(&s.declared));
    if replayed {
        line(&mut t, "computed results", map(&s.computed));
        line(&mut t, "terminations", map(&s.terminations));
    } else {
        line(
            &mut t,
            "replayed",
            "none (lengths, captures, computed results and endings are of replayed games only)"
                .to_string(),
        );
    }
    if sum.findings() > 0 {
        t.push_str("  findings by severity and code\n");
        let by_severity = sum.by_severity();
        for sev in ["error", "warning", "note"] {
            if let Some(m) = by_severity.get(sev) {
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
            // In a variant's scope the variant goes without saying.
            let k = match scope.strip_prefix("variant:") {
                Some(v) => k.strip_prefix(&format!("{v}: ")).unwrap_or(k),
                None => k,
            };
            t.push_str(&format!("    {k:<28} {:>6}  {score:>5}\n", o.games));
        }
    }
    t
}

/// `stats --by`: a line (row, object) per group.
fn groups_text(groups: &mut Groups, format: Format) -> Result<String, String> {
    if format == Format::Json {
        return Ok(crate::render::json_line(&groups.record()));
    }
    let by = groups.by().name();
    let player = groups.by() == GroupBy::Player;
    let sorted = groups.sorted();
    match format {
        Format::Human => Ok(groups_human(by, player, &sorted)),
        // JSON is written above.
        Format::Csv | Format::Json => groups_csv(by, &sorted, by == "opening"),
    }
}

/// A group's findings, `code count` joined by commas.
fn group_findings(g: &pdnkit::stats::Group) -> String {
    g.findings
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A group's names reached deeper (by opening), `name count` joined by
/// commas, and how many of its games reach none.
fn names_reached(g: &pdnkit::stats::Group) -> String {
    let named: u64 = g.names_reached.values().sum();
    let mut parts: Vec<String> = g
        .names_reached
        .iter()
        .map(|(n, c)| format!("{n} {c}"))
        .collect();
    if named < g.games && !parts.is_empty() {
        parts.push(format!("no name {}", g.games - named));
    }
    parts.join(", ")
}

/// `stats --by` as a table for people.
fn groups_human(by: &str, player: bool, sorted: &[&pdnkit::stats::Group]) -> String {
    let label = |g: &pdnkit::stats::Group| match &g.opening_name {
        Some(n) => format!("{} ({n})", g.name),
        None => g.name.clone(),
    };
    let w = sorted
        .iter()
        .map(|g| crate::render::column(&label(g)).chars().count())
        .max()
        .unwrap_or(5)
        .max(by.len());
    let mut t = format!(
        "{by:<w$} {:>6} {:>5} {:>5} {:>5} {:>7} {:>7}{}  findings\n",
        "games",
        "won",
        "drawn",
        "lost",
        "score",
        "plies",
        if player {
            "  with White (w-d-l)  with Black (w-d-l)"
        } else {
            ""
        }
    );
    for g in sorted {
        let name = crate::render::column(&label(g));
        let pad = " ".repeat(w.saturating_sub(name.chars().count()));
        let colours = if player {
            format!(
                "  {:>19}  {:>19}",
                format!("{}-{}-{}", g.as_white[0], g.as_white[1], g.as_white[2]),
                format!("{}-{}-{}", g.as_black[0], g.as_black[1], g.as_black[2])
            )
        } else {
            String::new()
        };
        t.push_str(&format!(
            "{name}{pad} {:>6} {:>5} {:>5} {:>5} {:>7} {:>7}{colours}  {}\n",
            g.games,
            g.wins,
            g.draws,
            g.losses,
            g.score()
                .map_or("-".to_string(), |x| format!("{:.1}%", 100.0 * x)),
            g.mean_plies()
                .map_or("-".to_string(), |m| format!("{m:.1}")),
            group_findings(g)
        ));
        if !g.names_reached.is_empty() {
            // Names of the names table some of its games reach: not the
            // group's (issue 62 item 2).
            t.push_str(&format!("  reached deeper: {}\n", names_reached(g)));
        }
    }
    t
}

/// `stats --by` as CSV.
fn groups_csv(
    by: &str,
    sorted: &[&pdnkit::stats::Group],
    openings: bool,
) -> Result<String, String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut head = vec![
        by,
        "games",
        "wins",
        "draws",
        "losses",
        "unscored",
        "score",
        "mean_plies",
        "white_wins",
        "white_draws",
        "white_losses",
        "black_wins",
        "black_draws",
        "black_losses",
        "findings",
    ];
    if openings {
        head.extend(["opening_name", "names_reached"]);
    }
    crate::render::safe_record(&mut w, head).map_err(|e| format!("CSV: {e}"))?;
    for g in sorted {
        let mut row = vec![
            g.name.clone(),
            g.games.to_string(),
            g.wins.to_string(),
            g.draws.to_string(),
            g.losses.to_string(),
            g.unscored.to_string(),
            g.score().map_or(String::new(), |x| format!("{x:.4}")),
            g.mean_plies().map_or(String::new(), |m| format!("{m:.2}")),
            g.as_white[0].to_string(),
            g.as_white[1].to_string(),
            g.as_white[2].to_string(),
            g.as_black[0].to_string(),
            g.as_black[1].to_string(),
            g.as_black[2].to_string(),
            group_findings(g),
        ];
        if openings {
            row.push(g.opening_name.clone().unwrap_or_default());
            row.push(names_reached(g));
        }
        crate::render::safe_record(&mut w, row).map_err(|e| format!("CSV: {e}"))?;
    }
    Ok(String::from_utf8_lossy(&w.into_inner().map_err(|e| format!("CSV: {e}"))?).into_owned())
}

/// Says how many copies of games `--by` did not count, if any.
fn say_set_aside(groups: &Groups) {
    let (merged, conflicting) = groups.set_aside();
    crate::common::say_set_aside(merged, conflicting);
}

pub fn run(a: Args) -> u8 {
    let selection = match a.select.selection(&a.tag_select.tag, &a.input) {
        Ok(s) => s,
        Err(why) => return crate::exit::fail(why),
    };
    let prepared = match a.input.prepare(true) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let by = match a.by {
        None => GroupBy::Scope,
        Some(By::Player) => GroupBy::Player,
        Some(By::Event) => GroupBy::Event,
        Some(By::Year) => GroupBy::Year,
        Some(By::Variant) => GroupBy::Variant,
        Some(By::Opening) => GroupBy::Opening,
    };
    let mut sink = StatsSink {
        per_file: a.per_file,
        groups: Groups::new(by)
            .keep_duplicates(a.keep_duplicates)
            .per_file(a.per_file),
        file_findings: Stats::default(),
        by_file: BTreeMap::new(),
    };
    if let Err(stop) = prepared.run_selected(!a.input.no_progress, &selection, &mut sink) {
        stop.report();
        return 0;
    }
    // stats did its job whatever the findings: its answer is 0 (2 when the
    // run failed somewhere).
    if a.by.is_some() {
        let groups = &mut sink.groups;
        let text = groups_text(groups, a.format);
        if let Some(why) = groups.failed() {
            crate::exit::fail(format_args!("error: {why}"));
        }
        say_set_aside(groups);
        return match text {
            Ok(text) => crate::output::print_answer(&text),
            Err(e) => crate::exit::fail(e),
        };
    }
    let scopes = sink.scopes();
    if let Some(why) = sink.groups.failed() {
        crate::exit::fail(format_args!("error: {why}"));
    }
    say_set_aside(&sink.groups);
    let text = match a.format {
        Format::Human => scopes
            .iter()
            .map(|(k, s)| human(&crate::render::name(k), s, a.openings))
            .collect::<Vec<_>>()
            .join("\n"),
        Format::Json => {
            let records: BTreeMap<&str, _> = scopes
                .iter()
                .map(|(k, s)| (k.as_str(), s.record(a.openings)))
                .collect();
            crate::render::json_line(&records)
        }
        Format::Csv => {
            let mut w = csv::Writer::from_writer(Vec::new());
            if let Err(e) = crate::render::safe_record(&mut w, ["scope", "metric", "key", "value"])
            {
                return crate::exit::fail(format!("CSV: {e}"));
            }
            for (k, s) in &scopes {
                for (scope, metric, key, value) in s.rows(k) {
                    let cells = [scope.to_string(), metric.to_string(), key, value];
                    if let Err(e) = crate::render::safe_record(&mut w, cells) {
                        return crate::exit::fail(format!("CSV: {e}"));
                    }
                }
            }
            match w.into_inner() {
                Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
                Err(e) => return crate::exit::fail(format!("CSV: {e}")),
            }
        }
    };
    crate::output::print_answer(&text)
}
