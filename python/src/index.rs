//! The position index from Python (docs/explore.md, "An index made in
//! parts"): a part's rows, and parts' rows merged by position key, in the
//! columns `pdnkit index` writes (`stats::Explorer::INDEX_TABLE`).

use super::{explored, py_value, selection_of, Columns};
use pdnkit::stats::{Explorer, Group};
use pdnkit::{Position, Variant};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// The index's columns (`stats::Explorer::INDEX_TABLE`): `(name, type,
/// nullable)` with Arrow's type names.
#[pyfunction]
pub fn index_table() -> Columns {
    Explorer::INDEX_TABLE
        .iter()
        .map(|c| (c.name, c.ty.name(), c.nullable))
        .collect()
}

/// The rows as columns, by name.
#[derive(Default)]
struct Table {
    variant: Vec<&'static str>,
    key: Vec<u64>,
    position: Vec<String>,
    mv: Vec<Option<String>>,
    counts: [Vec<u64>; 5],
    years: [Vec<Option<u32>>; 2],
    recent: Vec<String>,
}

impl Table {
    fn push(&mut self, pos: &Position, g: Group) {
        self.variant.push(pos.variant().name());
        self.key.push(pos.key());
        self.position.push(pos.to_fen());
        self.recent.push(g.recent_json());
        let values = [g.games, g.wins, g.draws, g.losses, g.unscored];
        for (c, v) in self.counts.iter_mut().zip(values) {
            c.push(v);
        }
        self.years[0].push(g.first_year);
        self.years[1].push(g.last_year);
        self.mv.push((!g.name.is_empty()).then_some(g.name));
    }

    fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        let [games, white, draws, black, unfinished] = &self.counts;
        let [first, last] = &self.years;
        out.set_item("variant", &self.variant)?;
        out.set_item("key", &self.key)?;
        out.set_item("position", &self.position)?;
        out.set_item("move", &self.mv)?;
        for (name, c) in [
            ("games", games),
            ("white_wins", white),
            ("draws", draws),
            ("black_wins", black),
            ("unfinished", unfinished),
        ] {
            out.set_item(name, c)?;
        }
        out.set_item("first_year", first)?;
        out.set_item("last_year", last)?;
        out.set_item("recent", &self.recent)?;
        Ok(out)
    }
}

/// One part of an archive indexed as `pdnkit index` indexes it: its rows
/// as columns (`columns`), the `plies` indexed, the `variants` of its
/// games, how many copies were not counted (`set_aside`), and the files
/// that could not be read and those skipped. `first`: where its games are
/// placed (`Explorer::numbered_from`); `root`: the PATH the file was found
/// under, as for `check`.
#[pyfunction]
#[pyo3(signature = (source_, plies = 40, first = 0, root = None, variant = None, draw_rules = "auto", irregularities = "stop", player = None, event = None, material = None, material_either = false, keep_duplicates = false))]
#[allow(clippy::too_many_arguments)]
pub fn index_part(
    py: Python<'_>,
    source_: &Bound<'_, PyAny>,
    plies: u32,
    first: u64,
    root: Option<String>,
    variant: Option<&Bound<'_, PyAny>>,
    draw_rules: &str,
    irregularities: &str,
    player: Option<Vec<String>>,
    event: Option<Vec<String>>,
    material: Option<Vec<String>>,
    material_either: bool,
    keep_duplicates: bool,
) -> PyResult<PyObject> {
    // As `--index-plies`.
    if plies > 1000 {
        return Err(PyValueError::new_err("plies: 0 to 1000"));
    }
    let selection = selection_of(player, event, material, material_either)?;
    let explorer = Explorer::indexing(plies)
        .keep_duplicates(keep_duplicates)
        .numbered_from(first);
    let (mut sink, _) = explored(
        py,
        source_,
        explorer,
        (variant, draw_rules, irregularities, root),
        selection,
    )?;
    let Some(mut explorer) = sink.explorer.take() else {
        return Err(PyOSError::new_err("the index was not made"));
    };
    let ((merged, _), failed) = explorer.set_aside();
    if let Some(why) = failed {
        return Err(PyOSError::new_err(why));
    }
    let mut table = Table::default();
    explorer
        .index_rows(|pos, g| table.push(pos, g))
        .map_err(PyOSError::new_err)?;
    let out = PyDict::new(py);
    out.set_item("columns", table.to_py(py)?)?;
    out.set_item("plies", plies)?;
    let variants: Vec<&str> = explorer.variants().iter().map(|v| v.name()).collect();
    out.set_item("variants", variants)?;
    out.set_item("set_aside", merged)?;
    for (key, list) in [("errors", &sink.errors), ("skipped", &sink.skipped)] {
        let items: Vec<PyObject> = list
            .iter()
            .map(|v| py_value(py, v))
            .collect::<PyResult<_>>()?;
        out.set_item(key, PyList::new(py, items)?)?;
    }
    Ok(out.into_any().unbind())
}

/// A column of a part, by name: a `ValueError` naming it when absent or of
/// another type.
fn column<'py, T: FromPyObject<'py>>(part: &Bound<'py, PyDict>, name: &str) -> PyResult<Vec<T>> {
    part.get_item(name)?
        .ok_or_else(|| PyValueError::new_err(format!("an index part without the column '{name}'")))?
        .extract()
        .map_err(|e| PyValueError::new_err(format!("the index column '{name}': {e}")))
}

/// The rows of one part (its columns by name, as `index_part` gives them or
/// `pyarrow.Table.to_pydict` reads them back), each with its position: a
/// `ValueError` for a row whose position is not a FEN of its variant, or
/// whose key is not that position's.
fn rows_of(part: &Bound<'_, PyDict>, out: &mut Vec<(Position, Group)>) -> PyResult<()> {
    let variants: Vec<String> = column(part, "variant")?;
    let keys: Vec<u64> = column(part, "key")?;
    let fens: Vec<String> = column(part, "position")?;
    let moves: Vec<Option<String>> = column(part, "move")?;
    let mut counts: Vec<Vec<u64>> = Vec::new();
    for name in ["games", "white_wins", "draws", "black_wins", "unfinished"] {
        counts.push(column(part, name)?);
    }
    let first: Vec<Option<u32>> = column(part, "first_year")?;
    let last: Vec<Option<u32>> = column(part, "last_year")?;
    let recent: Vec<String> = column(part, "recent")?;
    let n = keys.len();
    let mut lengths = vec![variants.len(), fens.len(), moves.len()];
    lengths.extend([first.len(), last.len(), recent.len()]);
    lengths.extend(counts.iter().map(Vec::len));
    if lengths.iter().any(|&l| l != n) {
        return Err(PyValueError::new_err(
            "an index part whose columns differ in length",
        ));
    }
    for r in 0..n {
        let bad = |why: String| PyValueError::new_err(format!("index row {r}: {why}"));
        let v: Variant = variants[r]
            .parse()
            .map_err(|_| bad(format!("'{}' is no variant pdnkit checks", variants[r])))?;
        let pos = Position::from_fen(&fens[r], v).map_err(|e| bad(format!("{}: {e}", fens[r])))?;
        let results: u64 = counts[1..].iter().map(|c| c[r]).sum();
        if results != counts[0][r] {
            return Err(bad("games is not the sum of its results".into()));
        }
        if pos.key() != keys[r] {
            return Err(bad(format!("the key is not that of {}", fens[r])));
        }
        let mut g = Group {
            name: moves[r].clone().unwrap_or_default(),
            games: counts[0][r],
            wins: counts[1][r],
            draws: counts[2][r],
            losses: counts[3][r],
            unscored: counts[4][r],
            first_year: first[r],
            last_year: last[r],
            ..Group::default()
        };
        g.set_recent_json(&recent[r]).map_err(bad)?;
        out.push((pos, g));
    }
    Ok(())
}

/// Parts of an index merged by position and move (`Explorer::merge_index_rows`):
/// the columns of the merged rows.
#[pyfunction]
pub fn merge_index(py: Python<'_>, parts: Vec<Bound<'_, PyDict>>) -> PyResult<PyObject> {
    let mut rows = Vec::new();
    for part in &parts {
        rows_of(part, &mut rows)?;
    }
    let merged = py.allow_threads(|| Explorer::merge_index_rows(rows));
    let mut table = Table::default();
    for (pos, g) in merged {
        table.push(&pos, g);
    }
    Ok(table.to_py(py)?.into_any().unbind())
}
