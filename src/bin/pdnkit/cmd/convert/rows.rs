//! `convert --to csv|jsonl|pdn`: rows and records written a game at a time,
//! the `--tag` columns.

use super::{Args, ConvertSink, Dest, Results, To};
use crate::output::Stop;
use pdnkit::export::Normalise;
use pdnkit::pdn::write::ResultStyle;
use pdnkit::pdn::Game;
use pdnkit::replay::GameReport;
use std::io::Write;
use std::ops::ControlFlow;

/// The I/O error inside a csv error, if any.
pub(super) fn csv_io(e: csv::Error) -> std::io::Error {
    match e.into_kind() {
        csv::ErrorKind::Io(e) => e,
        other => std::io::Error::other(format!("{other:?}")),
    }
}

impl ConvertSink {
    pub(super) fn emit(&mut self, text: &str) -> ControlFlow<Stop> {
        match &mut self.dest {
            Dest::Lines(w) => w.put(text.as_bytes()),
            Dest::InPlace(Some((name, f))) => match f.write_all(text.as_bytes()) {
                Ok(()) => ControlFlow::Continue(()),
                Err(e) => ControlFlow::Break(Stop::Failed(format!(
                    "cannot write {}: {e}",
                    crate::render::name(name)
                ))),
            },
            _ => ControlFlow::Continue(()),
        }
    }

    /// Writes one CSV row: a record, then the `--tag` values.
    pub(super) fn row<T: serde::Serialize>(
        &mut self,
        record: T,
        tags: &[String],
    ) -> ControlFlow<Stop> {
        if let Dest::Csv(w) = &mut self.dest {
            if let Err(e) = w.serialize((record, tags)) {
                let e = csv_io(e);
                return ControlFlow::Break(Stop::of(&e, &self.out_name, self.out_is_stdout));
            }
        }
        ControlFlow::Continue(())
    }

    /// The CSV header: the fixed columns, then the `--tag` columns.
    pub(super) fn header(&mut self) -> ControlFlow<Stop> {
        let mut h: Vec<&str> = if self.a.moves {
            pdnkit::export::PlyRow::columns(self.a.fen)
        } else {
            pdnkit::export::GameRow::columns()
        };
        h.extend(self.a.tag_columns.iter().map(String::as_str));
        let h: Vec<String> = h.into_iter().map(String::from).collect();
        self.row(h, &[])
    }

    pub(super) fn pdn(&mut self, file: &str, g: &Game, r: &GameReport) -> String {
        let results = match self.a.results.unwrap_or(Results::Draughts) {
            Results::Draughts => ResultStyle::Draughts,
            Results::Classic => ResultStyle::Classic,
        };
        let merged = self.merged || self.single.as_deref().is_some_and(|one| one != file);
        let n = Normalise {
            results,
            fix_results: self.a.fix_results,
            merged,
        }
        .apply(g, r);
        if let Some(note) = n.fix_note() {
            eprintln!("{}: game {}: {note}", crate::render::name(file), g.index());
        }
        n.text
    }
}

impl ConvertSink {
    /// The `--tag` values of a game (empty where it has no such tag).
    pub(super) fn tag_values(&self, g: &Game) -> Vec<String> {
        self.a
            .tags
            .iter()
            .map(|t| g.tag(t).unwrap_or_default())
            .map(|v| match (self.a.to, self.a.csv_raw) {
                (To::Csv, false) => pdnkit::export::GameRow::safe_text(&v).into_owned(),
                _ => v,
            })
            .collect()
    }
}

/// Tags that are columns of every row already (as event, site, ...,
/// declared_result and variant): `--tag` does not add them again.
pub(super) const TAG_COLUMNS: [&str; 8] = [
    "Event", "Site", "Date", "Round", "White", "Black", "Result", "GameType",
];

/// The column of each `--tag`: its name, or `tag_NAME` (again prefixed
/// while it is taken) where the table written has a column of that name,
/// compared without case as DuckDB and Spark compare them. The same names in
/// CSV, JSON Lines and Parquet.
pub(super) fn tag_columns(a: &Args) -> Vec<String> {
    let mut taken: Vec<String> = if a.moves {
        pdnkit::export::PlyRow::columns(a.fen)
    } else {
        pdnkit::export::GameRow::columns()
    }
    .into_iter()
    .map(str::to_ascii_lowercase)
    .collect();
    taken.push("diagnostics".into());
    let mut out = Vec::with_capacity(a.tags.len());
    for t in &a.tags {
        let mut name = t.clone();
        while taken.contains(&name.to_ascii_lowercase()) {
            name = format!("tag_{name}");
        }
        taken.push(name.to_ascii_lowercase());
        out.push(name);
    }
    out
}

/// No duplicate columns: a tag that is a column already, or named twice.
pub(super) fn dedup_tag_columns(a: &mut Args) {
    let mut seen: Vec<String> = Vec::new();
    let moves = a.moves;
    a.tags.retain(|t| {
        let dup = (!moves && TAG_COLUMNS.iter().any(|c| c.eq_ignore_ascii_case(t)))
            || seen.iter().any(|s| s.eq_ignore_ascii_case(t));
        seen.push(t.clone());
        !dup
    });
}
