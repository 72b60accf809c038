//! The native part of the `pdnkit` Python package (PyO3, abi3-py39). The
//! Python layer (`pdnkit/__init__.py`) gives it its Pythonic shape; every
//! answer comes from the `pdnkit` library, through the same pipeline as the
//! command line (`pdnkit::batch`: the same reading of paths, archives and
//! compressed streams, the same inference, the same refusals).

mod index;

use pdnkit::batch::{Batch, FileError, RunError, Sink};
use pdnkit::diag::FileDiagnostic;
use pdnkit::diag::{Code, Level, Levels, Severity};
use pdnkit::draw::DrawRules;
use pdnkit::export::{FileRecord, GameRecord};
use pdnkit::{Options, Position, Variant};
use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList};
use serde_json::Value;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

create_exception!(
    _pdnkit,
    FenError,
    PyValueError,
    "A FEN that is no position of its variant: `offset` is the byte where it goes wrong."
);
create_exception!(
    _pdnkit,
    IllegalMoveError,
    PyValueError,
    "A move the rules do not allow here, with the reason."
);

/// A source as the library's pipeline takes it: bytes, or a path (str or
/// os.PathLike) read as the command line reads a PATH (a folder walked, an
/// archive's members, a compressed stream decoded, a binary file skipped).
enum Source {
    Bytes(Vec<u8>),
    Path(PathBuf),
}

fn source(obj: &Bound<'_, PyAny>) -> PyResult<Source> {
    if let Ok(b) = obj.downcast::<PyBytes>() {
        return Ok(Source::Bytes(b.as_bytes().to_vec()));
    }
    if let Ok(b) = obj.downcast::<PyByteArray>() {
        return Ok(Source::Bytes(b.to_vec()));
    }
    let path: PathBuf = obj.extract()?;
    // A PATH that is not there is an OSError, as open() gives; a member of
    // an archive as pdnkit prints it (`ARCHIVE!MEMBER`) is read as the
    // command line reads it.
    if let (Err(e), None) = (std::fs::metadata(&path), pdnkit::batch::member_path(&path)) {
        return Err(PyOSError::new_err((
            e.raw_os_error().unwrap_or(0),
            e.to_string(),
            path.display().to_string(),
        )));
    }
    Ok(Source::Path(path))
}

/// The run of one source: `name` renames it (bytes are `<bytes>` by
/// default), `root` is the PATH it was found under, `encoding` decodes its
/// text first. A compressed file or an archive is read by its content as the
/// command line reads it, whatever the keywords: `name` and `root` apply to
/// it as to plain text; `encoding`, which decodes plain text, is refused
/// with a ValueError that says why (issue 54: the gzip bytes were decoded
/// as cp1251 and gave no game).
fn batch_of(
    src: Source,
    opts: Options,
    name: Option<String>,
    root: Option<String>,
    encoding: Option<&str>,
) -> PyResult<Batch> {
    let b = Batch::new(opts);
    let not_plain = |what: &str, why: &str| {
        PyValueError::new_err(format!(
            "{what} {why}: {} (pdnkit reads it by its content; give the keyword the plain text, or leave it out)",
            if encoding.is_some() {
                "encoding= decodes plain text"
            } else {
                "name= and root= name one file or bytes"
            }
        ))
    };
    let (name, data) = match src {
        Source::Path(p) if name.is_none() && root.is_none() && encoding.is_none() => {
            return Ok(b.paths([p]));
        }
        Source::Path(p) if p.is_dir() => {
            return Err(not_plain(&p.display().to_string(), "is a folder"));
        }
        Source::Path(p) if !p.exists() => {
            // `ARCHIVE!MEMBER` (source() let nothing else through).
            return Err(not_plain(
                &p.display().to_string(),
                "is a member of an archive",
            ));
        }
        Source::Path(p) if encoding.is_none() && name.is_none() => {
            let root = root.unwrap_or_else(|| p.display().to_string());
            return Ok(b.file_under(p, root));
        }
        Source::Path(p) => {
            let data = std::fs::read(&p).map_err(|e| {
                PyOSError::new_err((
                    e.raw_os_error().unwrap_or(0),
                    e.to_string(),
                    p.display().to_string(),
                ))
            })?;
            (name.unwrap_or_else(|| p.display().to_string()), data)
        }
        Source::Bytes(data) => (name.unwrap_or_else(|| "<bytes>".into()), data),
    };
    if encoding.is_some() {
        let head = &data[..data.len().min(8192)];
        if let Some(what) = pdnkit::batch::packed(head) {
            return Err(not_plain(&name, &format!("is {what}")));
        }
    }
    let data = decoded(data, encoding)?;
    let root = root.unwrap_or_else(|| name.clone());
    Ok(b.bytes_under(&name, &root, data))
}

/// The bytes decoded from `encoding` (a WHATWG label: `cp1252`, `koi8-r`,
/// `utf-16le`, ...) to UTF-8 first, when one is named.
fn decoded(bytes: Vec<u8>, encoding: Option<&str>) -> PyResult<Vec<u8>> {
    let Some(label) = encoding else {
        return Ok(bytes);
    };
    let enc = encoding_rs::Encoding::for_label(label.as_bytes())
        .ok_or_else(|| PyValueError::new_err(format!("unknown encoding {label:?}")))?;
    let (text, _, _) = enc.decode(&bytes);
    Ok(text.into_owned().into_bytes())
}

/// Whether Python has a signal to handle (Ctrl-C): asked with the GIL, from
/// the pipeline's output thread, once a batch.
fn interrupted(pending: &mut Option<PyErr>) -> bool {
    if pending.is_some() {
        return true;
    }
    if let Err(e) = Python::with_gil(|py| py.check_signals()) {
        *pending = Some(e);
        return true;
    }
    false
}

/// What `check` collects: each game's JSON record, each file's findings
/// (with its name), files that could not be read or were skipped.
#[derive(Default)]
struct Collect {
    games: Vec<Value>,
    /// Each game's row of the games table.
    rows: Vec<Value>,
    findings: Vec<Value>,
    errors: Vec<Value>,
    skipped: Vec<Value>,
    interrupt: Option<PyErr>,
    /// Set when Ctrl-C was raised: the run stops at its next batch.
    cancel: Arc<AtomicBool>,
    /// `explore`: the games are counted here instead of recorded.
    explorer: Option<pdnkit::stats::Explorer>,
}

/// A game's row of the games table (`export::GameRow::TABLE`, the Parquet
/// games table's columns): its values by column name (`date` as days since
/// 1970), and `diagnostics` from its JSON record.
fn table_row(file: &str, g: &pdnkit::Game, r: &pdnkit::GameReport, record: &Value) -> Value {
    use pdnkit::export::{GameRow, Value as V};
    const GAME_TABLE: &[pdnkit::export::Column] = &GameRow::TABLE;
    const DIAGNOSTIC_FIELDS: [pdnkit::export::Column; 6] = GameRow::DIAGNOSTIC_FIELDS;
    let row = pdnkit::export::GameRow::new(file, g, r);
    let mut out = serde_json::Map::new();
    for (c, v) in GAME_TABLE.iter().zip(row.values()) {
        let v = match v {
            V::Text(t) => t.map_or(Value::Null, |t| Value::String(t.to_string())),
            V::Int(i) => i.map_or(Value::Null, Value::from),
            V::Bool(b) => b.map_or(Value::Null, Value::Bool),
            V::Date(d) => d.map_or(Value::Null, Value::from),
        };
        out.insert(c.name.to_string(), v);
    }
    let diagnostics: Vec<Value> = record["diagnostics"]
        .as_array()
        .map(|list| {
            list.iter()
                .map(|d| {
                    let fields = DIAGNOSTIC_FIELDS.iter().map(|f| {
                        (
                            f.name.to_string(),
                            d.get(f.name).cloned().unwrap_or(Value::Null),
                        )
                    });
                    Value::Object(fields.collect())
                })
                .collect()
        })
        .unwrap_or_default();
    out.insert("diagnostics".to_string(), Value::Array(diagnostics));
    Value::Object(out)
}

impl Sink for Collect {
    /// Stopped: cancelled, or interrupted (the exception is kept in `interrupt`).
    type Error = ();
    fn game(&mut self, file: &str, g: &pdnkit::Game, r: &pdnkit::GameReport) -> ControlFlow<()> {
        if let Some(e) = &mut self.explorer {
            e.add(file, g, r);
            return ControlFlow::Continue(());
        }
        let record = serde_json::to_value(GameRecord::new(file, g, r)).unwrap_or(Value::Null);
        self.rows.push(table_row(file, g, r, &record));
        self.games.push(record);
        ControlFlow::Continue(())
    }
    fn batch_done(&mut self) -> ControlFlow<()> {
        if self.cancel.load(Ordering::Relaxed) || interrupted(&mut self.interrupt) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
    fn file_error(&mut self, e: &FileError) {
        self.errors
            .push(serde_json::json!({"file": e.path, "message": e.message}));
    }
    fn file_skipped(&mut self, file: &str, why: &str) {
        self.skipped
            .push(serde_json::json!({"file": file, "reason": why}));
    }
    fn file_done(&mut self, file: &str, findings: &[FileDiagnostic]) {
        let record = serde_json::to_value(FileRecord::new(file, findings));
        if let Ok(Value::Object(mut record)) = record {
            if let Some(Value::Array(list)) = record.remove("diagnostics") {
                for mut v in list {
                    if let Value::Object(o) = &mut v {
                        o.insert("file".into(), Value::String(file.to_string()));
                    }
                    self.findings.push(v);
                }
            }
        }
        let _ = interrupted(&mut self.interrupt);
    }
}

/// Runs `batch` on a thread of its own while this one waits without the
/// GIL, a tenth of a second at a time, so that Ctrl-C is raised within a
/// second (issue 54: a FIFO with no writer, an idle pipe). The run is told
/// to stop; a thread blocked in the system (opening a FIFO) is left to end
/// when its read does.
fn run_batch(
    py: Python<'_>,
    batch: Batch,
    mut sink: Collect,
    selection: pdnkit::select::Selection,
) -> PyResult<Collect> {
    for p in batch.problems() {
        let message = format!("{}: {}", pdnkit::pdn::Snippet::visible(&p.path), p.message);
        sink.errors
            .push(serde_json::json!({"file": Value::Null, "message": message}));
    }
    let cancel = Arc::clone(&sink.cancel);
    let (r, mut sink) = on_a_thread(py, &cancel, move || {
        // Stopped by the sink: cancelled or interrupted, said below.
        // As the command line: only the selected games, and the findings of
        // the files that gave one.
        let (run, _) = batch.run_selected(&mut sink, &selection, None);
        let r = match run {
            Ok(_) | Err(RunError::Stopped { .. }) => Ok(()),
            Err(RunError::Threads(e)) => Err(e),
        };
        (r, sink)
    })?;
    r.map_err(|e| PyOSError::new_err(e.to_string()))?;
    match sink.interrupt.take() {
        Some(e) => Err(e),
        None => Ok(sink),
    }
}

/// Runs `work` on a thread of its own while this one waits without the GIL,
/// a tenth of a second at a time: Ctrl-C (or another signal Python handles)
/// sets `cancel`, which `work` obeys as it can, and is raised within a
/// second. A thread blocked in the system is left to end when its call does.
fn on_a_thread<T: Send + 'static>(
    py: Python<'_>,
    cancel: &AtomicBool,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let (tx, mut rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(work());
    });
    loop {
        let (next, back) = py.allow_threads(move || {
            let next = rx.recv_timeout(std::time::Duration::from_millis(100));
            (next, rx)
        });
        rx = back;
        match next {
            Ok(t) => return Ok(t),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                if let Err(e) = py.check_signals() {
                    cancel.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err("the run stopped"))
            }
        }
    }
}

/// A JSON value as a Python object.
fn py_value(py: Python<'_>, v: &Value) -> PyResult<PyObject> {
    Ok(match v {
        Value::Null => py.None(),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any().unbind(),
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => i.into_pyobject(py)?.into_any().unbind(),
            (None, Some(f)) => f.into_pyobject(py)?.into_any().unbind(),
            _ => py.None(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any().unbind(),
        Value::Array(a) => {
            let items: Vec<PyObject> =
                a.iter().map(|x| py_value(py, x)).collect::<PyResult<_>>()?;
            PyList::new(py, items)?.into_any().unbind()
        }
        Value::Object(o) => {
            let d = PyDict::new(py);
            for (k, x) in o {
                d.set_item(k, py_value(py, x)?)?;
            }
            d.into_any().unbind()
        }
    })
}

fn variant_of(name: &str) -> PyResult<Variant> {
    name.parse::<Variant>().map_err(|_| {
        let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
        PyValueError::new_err(format!(
            "unknown variant {name:?} (one of {})",
            names.join(", ")
        ))
    })
}

/// The replay options of `check`.
fn options(
    variant: &Bound<'_, PyAny>,
    draw_rules: &str,
    irregularities: &str,
    levels: Option<&Bound<'_, PyDict>>,
    strict_dialects: bool,
) -> PyResult<Options> {
    let irregularities = irregularities
        .parse::<pdnkit::replay::Irregularities>()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    // `NAME`, `'GLOB=NAME'`, or a list of these: the command line's --variant.
    let texts: Vec<String> = match variant.extract::<String>() {
        Ok(one) => vec![one],
        Err(_) => variant.extract::<Vec<String>>().map_err(|_| {
            PyValueError::new_err("variant: a name, 'GLOB=NAME', or a list of these")
        })?,
    };
    let rules = texts
        .iter()
        .map(|t| {
            pdnkit::infer::NamedVariant::parse(t).map_err(|e| PyValueError::new_err(e.to_string()))
        })
        .collect::<PyResult<Vec<_>>>()?;
    let d = match draw_rules {
        "auto" => None,
        name => Some(name.parse::<DrawRules>().map_err(|_| {
            PyValueError::new_err(format!("unknown draw rules {name:?} (auto, cbjd, fmjd)"))
        })?),
    };
    let mut l = Levels::default();
    if let Some(levels) = levels {
        for (k, val) in levels.iter() {
            let (k, val): (String, String) = (k.extract()?, val.extract()?);
            let level = match val.as_str() {
                "allow" => Level::Allow,
                "warn" | "warning" => Level::Warn,
                "deny" | "error" => Level::Deny,
                other => {
                    return Err(PyValueError::new_err(format!(
                        "unknown level {other:?} (allow, warn, deny)"
                    )))
                }
            };
            match k.as_str() {
                "errors" => l.set_group(Severity::Error, level),
                "warnings" => l.set_group(Severity::Warning, level),
                "notes" => l.set_group(Severity::Note, level),
                code => l.set(
                    code.parse::<Code>()
                        .map_err(|_| PyValueError::new_err(format!("unknown code {code:?}")))?,
                    level,
                ),
            }
        }
    }
    // The moves are kept: the games table counts captures and crownings.
    Ok(Options::default()
        .variants(rules)
        .draw_rules(d)
        .irregularities(irregularities)
        .strict_dialects(strict_dialects)
        .levels(l)
        .keep_moves(true))
}

/// Checks a source as `pdnkit check` checks a PATH, through the library's
/// pipeline: the JSON records of its games (as `check --format json`), the
/// findings about its files, the files that could not be read, and those
/// skipped.
#[pyfunction]
#[pyo3(signature = (source_, variant = None, draw_rules = "auto", levels = None, name = None, root = None, irregularities = "stop", opening_table = None, strict_dialects = false, material = None, material_either = false))]
#[allow(clippy::too_many_arguments)]
fn check(
    py: Python<'_>,
    source_: &Bound<'_, PyAny>,
    variant: Option<&Bound<'_, PyAny>>,
    draw_rules: &str,
    levels: Option<&Bound<'_, PyDict>>,
    name: Option<String>,
    root: Option<String>,
    irregularities: &str,
    opening_table: Option<Vec<String>>,
    strict_dialects: bool,
    material: Option<Vec<String>>,
    material_either: bool,
) -> PyResult<PyObject> {
    // As `--material` (repeated: OR) and `--material-either`.
    let selection = selection_of(None, None, material, material_either)?;
    let auto = pyo3::types::PyString::new(py, "auto").into_any();
    // As `--opening-table`: names or files, in order; `none` turns
    // classification off. A user's file is read on a thread of its own,
    // the GIL released and signals polled (a FIFO or a slow network file
    // never freezes Python), and nothing of it outlives the tables made.
    let (tables, table_warnings) = match opening_table {
        None => (None, Vec::new()),
        Some(list) => {
            let cancel = Arc::new(AtomicBool::new(false));
            let (tables, warnings) = on_a_thread(py, &cancel, move || opening_tables(&list))?
                .map_err(|e| PyValueError::new_err(format!("opening_table: {e}")))?;
            (Some(tables), warnings)
        }
    };
    let opts = options(
        variant.unwrap_or(&auto),
        draw_rules,
        irregularities,
        levels,
        strict_dialects,
    )?
    .opening_tables(tables);
    let batch = batch_of(source(source_)?, opts, name, root, None)?;
    let sink = run_batch(py, batch, Collect::default(), selection)?;
    let out = PyDict::new(py);
    for (key, list) in [
        ("games", &sink.games),
        ("rows", &sink.rows),
        ("findings", &sink.findings),
        ("errors", &sink.errors),
        ("skipped", &sink.skipped),
    ] {
        let items: Vec<PyObject> = list
            .iter()
            .map(|v| py_value(py, v))
            .collect::<PyResult<_>>()?;
        out.set_item(key, PyList::new(py, items)?)?;
    }
    out.set_item("table_warnings", PyList::new(py, table_warnings)?)?;
    Ok(out.into_any().unbind())
}

/// The games `player`, `event` and `material` select (each a list: any
/// one), as `--player`, `--event` and `--material` select them.
fn selection_of(
    player: Option<Vec<String>>,
    event: Option<Vec<String>>,
    material: Option<Vec<String>>,
    material_either: bool,
) -> PyResult<pdnkit::select::Selection> {
    use pdnkit::select::Criterion;
    let mut selection = pdnkit::select::Selection::default();
    let mut add = |c: Result<Criterion, pdnkit::select::CriterionError>, what: &str| {
        c.map(|c| {
            selection.add(c);
        })
        .map_err(|e| PyValueError::new_err(format!("{what}: {e}")))
    };
    for p in player.iter().flatten() {
        add(Criterion::parse_player(p), "player")?;
    }
    for e in event.iter().flatten() {
        add(Criterion::parse_event(e), "event")?;
    }
    for spec in material.iter().flatten() {
        add(Criterion::parse_material(spec, material_either), "material")?;
    }
    Ok(selection)
}

/// The rules options a caller names: variant, draw rules, irregularities;
/// and the PATH a file was found under (its evidence of a variant).
type Rules<'a, 'py> = (
    Option<&'a Bound<'py, PyAny>>,
    &'a str,
    &'a str,
    Option<String>,
);

/// `explorer` run over a source's selected games through the library's
/// pipeline, with the options it was replayed under.
fn explored(
    py: Python<'_>,
    source_: &Bound<'_, PyAny>,
    explorer: pdnkit::stats::Explorer,
    (variant, draw_rules, irregularities, root): Rules<'_, '_>,
    selection: pdnkit::select::Selection,
) -> PyResult<(Collect, Options)> {
    let auto = pyo3::types::PyString::new(py, "auto").into_any();
    let mut opts = options(
        variant.unwrap_or(&auto),
        draw_rules,
        irregularities,
        None,
        false,
    )?;
    opts.keep_moves = true;
    let batch = batch_of(source(source_)?, opts.clone(), None, root, None)?;
    let sink = Collect {
        explorer: Some(explorer),
        ..Collect::default()
    };
    Ok((run_batch(py, batch, sink, selection)?, opts))
}

/// Explores a source as `pdnkit explore` does, through the library's
/// pipeline: the records of `explore --format json` (a position, then its
/// moves), with the files that could not be read and those skipped.
#[pyfunction]
#[pyo3(signature = (source_, position = None, play = None, depth = 1, variant = None, draw_rules = "auto", irregularities = "stop", player = None, event = None, material = None, material_either = false, keep_duplicates = false))]
#[allow(clippy::too_many_arguments)]
fn explore(
    py: Python<'_>,
    source_: &Bound<'_, PyAny>,
    position: Option<String>,
    play: Option<String>,
    depth: u32,
    variant: Option<&Bound<'_, PyAny>>,
    draw_rules: &str,
    irregularities: &str,
    player: Option<Vec<String>>,
    event: Option<Vec<String>>,
    material: Option<Vec<String>>,
    material_either: bool,
    keep_duplicates: bool,
) -> PyResult<PyObject> {
    let selection = selection_of(player, event, material, material_either)?;
    if !(1..=64).contains(&depth) {
        return Err(PyValueError::new_err("depth: 1 to 64"));
    }
    let roots: Vec<Position> = match &position {
        None => Vec::new(),
        Some(fen) => {
            let roots: Vec<Position> = Variant::ALL
                .iter()
                .filter_map(|&v| Position::from_fen(fen, v).ok())
                .collect();
            if roots.is_empty() {
                return Err(PyValueError::new_err(format!(
                    "position '{fen}' is no position of a variant pdnkit checks"
                )));
            }
            roots
        }
    };
    let mut explorer = pdnkit::stats::Explorer::new(&roots, depth).keep_duplicates(keep_duplicates);
    if let Some(moves) = &play {
        explorer
            .play(moves)
            .map_err(|e| PyValueError::new_err(format!("play '{moves}': {e}")))?;
    }
    let (mut sink, opts) = explored(
        py,
        source_,
        explorer,
        (variant, draw_rules, irregularities, None),
        selection,
    )?;
    let records: Vec<Value> = sink
        .explorer
        .take()
        .map(|mut e| {
            e.records(Some(&opts))
                .iter()
                .map(|r| serde_json::to_value(r).unwrap_or(Value::Null))
                .collect()
        })
        .unwrap_or_default();
    let out = PyDict::new(py);
    for (key, list) in [
        ("records", &records),
        ("errors", &sink.errors),
        ("skipped", &sink.skipped),
    ] {
        let items: Vec<PyObject> = list
            .iter()
            .map(|v| py_value(py, v))
            .collect::<PyResult<_>>()?;
        out.set_item(key, PyList::new(py, items)?)?;
    }
    Ok(out.into_any().unbind())
}

/// The tables `list` names, in order (`none` left out), with the warnings
/// of their rows: as the command line reads `--opening-table`.
#[allow(clippy::type_complexity)]
fn opening_tables(
    list: &[String],
) -> Result<(Vec<Arc<pdnkit::openings::Table>>, Vec<String>), pdnkit::openings::TableError> {
    let (mut tables, mut warnings) = (Vec::new(), Vec::new());
    for t in list {
        let spec: pdnkit::openings::TableSpec = t.parse()?;
        if let Some((table, w)) = spec.open()? {
            tables.push(table);
            warnings.extend(w.iter().map(ToString::to_string));
        }
    }
    Ok((tables, warnings))
}

/// A game as `read_games` gives it, made on the pipeline's thread.
struct ReadGame {
    file: String,
    index: usize,
    line: u32,
    tags: Vec<(String, String)>,
    moves: Vec<String>,
    result: Option<String>,
    findings: Vec<(&'static str, &'static str, String, u32, u32)>,
}

impl ReadGame {
    fn new(file: &str, g: &pdnkit::Game) -> ReadGame {
        let mut loc = pdnkit::pdn::Locator::new(g);
        ReadGame {
            file: file.to_string(),
            index: g.index(),
            line: g.start_line(),
            tags: g
                .tags()
                .iter()
                .map(|t| (g.tag_name(t).to_string(), g.tag_value(t)))
                .collect(),
            moves: g
                .main_line()
                .map(|m| String::from_utf8_lossy(g.bytes(&m.span())).into_owned())
                .collect(),
            result: g.result_text().map(|r| r.to_string()),
            findings: g
                .diagnostics()
                .iter()
                .map(|f| {
                    let (line, column) = loc.locate(f.span.start);
                    (
                        f.severity.as_str(),
                        f.code.as_str(),
                        f.message.to_string(),
                        line,
                        column,
                    )
                })
                .collect(),
        }
    }

    fn to_py(&self, py: Python<'_>) -> PyResult<PyObject> {
        let d = PyDict::new(py);
        d.set_item("index", self.index)?;
        d.set_item("line", self.line)?;
        let tags = PyDict::new(py);
        for (k, v) in &self.tags {
            tags.set_item(k, v)?;
        }
        d.set_item("tags", tags)?;
        d.set_item("moves", &self.moves)?;
        d.set_item("result", &self.result)?;
        let findings = PyList::empty(py);
        for (severity, code, message, line, column) in &self.findings {
            let x = PyDict::new(py);
            x.set_item("severity", severity)?;
            x.set_item("code", code)?;
            x.set_item("message", message)?;
            x.set_item("line", line)?;
            x.set_item("column", column)?;
            findings.append(x)?;
        }
        d.set_item("findings", findings)?;
        d.set_item("file", &self.file)?;
        Ok(d.into_any().unbind())
    }
}

/// What the pipeline's thread hands `read_games`' iterator.
enum Read1 {
    Game(ReadGame),
    Error(String),
}

/// The sink of `read_games`: each game sent on a bounded channel (the
/// pipeline waits while the Python side does not take them; a dropped
/// iterator stops it).
struct Send1(std::sync::mpsc::SyncSender<Read1>);

impl Sink for Send1 {
    /// Stopped: the iterator was dropped.
    type Error = ();
    fn game(&mut self, file: &str, g: &pdnkit::Game, _r: &pdnkit::GameReport) -> ControlFlow<()> {
        match self.0.send(Read1::Game(ReadGame::new(file, g))) {
            Ok(()) => ControlFlow::Continue(()),
            Err(_) => ControlFlow::Break(()),
        }
    }
    fn file_error(&mut self, e: &FileError) {
        let _ = self.0.send(Read1::Error(e.to_string()));
    }
    fn file_done(&mut self, _file: &str, _findings: &[FileDiagnostic]) {}
}

/// The games of a source, one at a time, read by the library's pipeline on
/// a thread of its own (syntax only: nothing is replayed).
#[pyclass(module = "pdnkit._pdnkit")]
struct GameReader {
    rx: std::sync::Mutex<std::sync::mpsc::Receiver<Read1>>,
}

#[pymethods]
impl GameReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }
    fn __next__(&self, py: Python<'_>) -> PyResult<Option<PyObject>> {
        loop {
            // Waits without the GIL, a tenth of a second at a time, so that
            // Ctrl-C is raised while a long read goes on.
            let next = py.allow_threads(|| match self.rx.lock() {
                Ok(rx) => rx.recv_timeout(std::time::Duration::from_millis(100)),
                Err(_) => Err(std::sync::mpsc::RecvTimeoutError::Disconnected),
            });
            match next {
                Ok(Read1::Game(g)) => return g.to_py(py).map(Some),
                Ok(Read1::Error(e)) => return Err(PyOSError::new_err(e)),
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return Ok(None),
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => py.check_signals()?,
            }
        }
    }
}

/// A reader over a source (bytes or a path, read as the command line reads
/// it), optionally decoded from `encoding` first.
#[pyfunction]
#[pyo3(signature = (source_, encoding = None, material = None, material_either = false))]
fn read_games(
    source_: &Bound<'_, PyAny>,
    encoding: Option<&str>,
    material: Option<Vec<String>>,
    material_either: bool,
) -> PyResult<GameReader> {
    let selection = selection_of(None, None, material, material_either)?;
    // Read only, unless material is asked for: then each game is replayed
    // (as `check` replays it) to see the positions it reaches.
    let mut opts = Options::default().keep_moves(selection.needs_moves());
    opts.syntax_only = selection.is_empty();
    let batch = batch_of(source(source_)?, opts, None, None, encoding)?;
    if let Some(p) = batch.problems().first() {
        return Err(PyOSError::new_err(format!(
            "{}: {}",
            pdnkit::pdn::Snippet::visible(&p.path),
            p.message
        )));
    }
    let (tx, rx) = std::sync::mpsc::sync_channel(64);
    std::thread::spawn(move || {
        let mut sink = Send1(tx);
        // Stopped: the iterator was dropped, nobody to tell.
        let (run, _) = batch.run_selected(&mut sink, &selection, None);
        if let Err(RunError::Threads(e)) = run {
            let _ = sink.0.send(Read1::Error(format!("no worker threads: {e}")));
        }
    });
    Ok(GameReader {
        rx: std::sync::Mutex::new(rx),
    })
}

/// A Date tag's whole date as days since 1970-01-01, read as the library
/// reads every Date (`pdn::PdnDate`: day-first and four-digit years
/// wherever they stand; `None` when partial, impossible or yearless).
#[pyfunction]
fn date_days(text: &str) -> Option<i32> {
    pdnkit::pdn::PdnDate::parse(text).days_since_epoch()
}

/// The games table's columns (`export::GameRow::TABLE`): `(name, type,
/// nullable)` with Arrow's type names, then the fields of each finding of
/// its `diagnostics` list.
type Columns = Vec<(&'static str, &'static str, bool)>;

#[pyfunction]
fn game_table() -> (Columns, Columns) {
    let of = |cols: &[pdnkit::export::Column]| {
        cols.iter()
            .map(|c| (c.name, c.ty.name(), c.nullable))
            .collect::<Vec<_>>()
    };
    (
        of(&pdnkit::export::GameRow::TABLE),
        of(&pdnkit::export::GameRow::DIAGNOSTIC_FIELDS),
    )
}

/// The files the pipeline reads under `paths`, in order, each with the PATH
/// it was found under: the units a cluster splits a corpus into (an archive
/// is one: its members are read by its task).
#[pyfunction]
#[pyo3(signature = (paths, all_files = false))]
fn files(paths: Vec<PathBuf>, all_files: bool) -> PyResult<Vec<(String, String)>> {
    let batch = Batch::new(Options::default())
        .all_files(all_files)
        .paths(&paths);
    if let Some(p) = batch.problems().first() {
        return Err(PyOSError::new_err(format!(
            "{}: {}",
            pdnkit::pdn::Snippet::visible(&p.path),
            p.message
        )));
    }
    Ok(batch
        .inputs()
        .iter()
        .zip(batch.roots())
        .map(|(i, r)| (i.name(), r.display().to_string()))
        .collect())
}

/// A position of a variant: its legal moves, moves played (checked), FEN, SVG.
#[pyclass(module = "pdnkit._pdnkit", frozen, eq)]
#[derive(Clone, PartialEq)]
struct NativePosition {
    pos: Position,
}

fn fen_error(fen: &str, e: &pdnkit::position::FenError) -> PyErr {
    let err = FenError::new_err(format!("FEN {fen:?}: {e} (at byte {})", e.offset()));
    Python::with_gil(|py| {
        let _ = err.value(py).setattr("offset", e.offset());
    });
    err
}

#[pymethods]
impl NativePosition {
    #[staticmethod]
    fn from_fen(fen: &str, variant: &str) -> PyResult<Self> {
        let v = variant_of(variant)?;
        Position::from_fen(fen, v)
            .map(|pos| NativePosition { pos })
            .map_err(|e| fen_error(fen, &e))
    }
    #[staticmethod]
    fn start(variant: &str) -> PyResult<Self> {
        Ok(NativePosition {
            pos: variant_of(variant)?.start(),
        })
    }
    fn legal_moves(&self) -> Vec<String> {
        // Numbers, or algebraic names where the variant's records use them.
        let style = pdnkit::notation::Style {
            algebraic: self.pos.variant().algebraic(),
            colon: false,
        };
        self.pos
            .legal_moves()
            .iter()
            .map(|m| style.write(&self.pos, m))
            .collect()
    }
    /// The position after `text`, a move as a record writes it; the reason
    /// the rules refuse it as IllegalMoveError.
    fn play(&self, text: &str) -> PyResult<Self> {
        let squares = pdnkit::diagram::Arrow::legal(&self.pos, text)
            .map_err(|e| IllegalMoveError::new_err(e.to_string()))?;
        let found = self.pos.legal_moves().into_iter().find(|m| {
            self.pos.landing_path(m).to_vec() == squares.path && m.captured() == squares.captured
        });
        let m = found.ok_or_else(|| {
            IllegalMoveError::new_err(format!("'{text}' is not a legal move here"))
        })?;
        self.pos
            .play(&m)
            .map(|pos| NativePosition { pos })
            .map_err(|e| IllegalMoveError::new_err(e.to_string()))
    }
    /// The positions after each of `moves`, played as `check` replays a
    /// record (issue 55): a short form that matches several captures is
    /// settled by the moves after it (RULES.md 5.3), and one that stays
    /// ambiguous, or an illegal move, raises IllegalMoveError naming the ply.
    fn play_line(&self, moves: Vec<String>) -> PyResult<Vec<Self>> {
        // Each move one token of move text: nothing else reaches the record.
        if let Some(bad) = moves.iter().find(|m| {
            m.is_empty()
                || !m
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'x' | b':' | b' '))
        }) {
            return Err(PyValueError::new_err(format!("{bad:?} is not a move")));
        }
        let v = self.pos.variant();
        let text = format!(
            "[GameType \"{}\"]\n[FEN \"{}\"]\n\n{} *\n",
            v.game_type(),
            self.pos.to_fen(),
            moves.join(" ")
        );
        let g = pdnkit::Reader::new(text.as_bytes())
            .next_game()
            .ok()
            .flatten()
            .ok_or_else(|| PyValueError::new_err("no moves"))?;
        let replay = pdnkit::replay::Replay::new(&g, &Options::default());
        if let Some(d) = replay
            .report()
            .diagnostics
            .iter()
            .find(|d| d.severity == Severity::Error)
        {
            let at = d.ply.map(|p| format!("move {p}: ")).unwrap_or_default();
            return Err(IllegalMoveError::new_err(format!("{at}{}", d.message)));
        }
        let after: Vec<Self> = replay.map(|p| NativePosition { pos: p.after }).collect();
        if after.len() != moves.len() {
            return Err(IllegalMoveError::new_err(format!(
                "{} of {} moves read",
                after.len(),
                moves.len()
            )));
        }
        Ok(after)
    }
    fn fen(&self) -> String {
        self.pos.to_fen()
    }
    #[pyo3(signature = (flip = false))]
    fn to_svg(&self, flip: bool) -> String {
        let opts = pdnkit::diagram::DiagramOptions {
            flip,
            ..Default::default()
        };
        pdnkit::diagram::svg(&self.pos, &opts)
    }
    #[getter]
    fn variant(&self) -> &'static str {
        self.pos.variant().name()
    }
    #[getter]
    fn side(&self) -> &'static str {
        match self.pos.side() {
            pdnkit::Color::White => "white",
            pdnkit::Color::Black => "black",
        }
    }
    fn __repr__(&self) -> String {
        format!(
            "Position.from_fen({:?}, {:?})",
            self.pos.to_fen(),
            self.pos.variant().name()
        )
    }
}

/// Leaf nodes of the move tree `depth` plies deep from `fen` (None: the start).
#[pyfunction]
#[pyo3(signature = (fen, variant, depth))]
fn perft(py: Python<'_>, fen: Option<&str>, variant: &str, depth: u32) -> PyResult<u64> {
    let v = variant_of(variant)?;
    let pos = match fen {
        None | Some("") => v.start(),
        Some(f) => Position::from_fen(f, v).map_err(|e| fen_error(f, &e))?,
    };
    // On a thread of its own, in subtrees of a few milliseconds, so that
    // Ctrl-C is raised within a second and stops the count (issue 54).
    let cancel = Arc::new(AtomicBool::new(false));
    let stop = Arc::clone(&cancel);
    on_a_thread(py, &cancel, move || perft_split(&pos, depth, &stop))?
        .ok_or_else(|| PyRuntimeError::new_err("perft stopped"))
}

/// [`Position::perft`], counted in subtrees of at most [`PERFT_LEAF_DEPTH`]
/// plies, stopping (`None`) once `stop` is set.
fn perft_split(pos: &Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    if depth <= PERFT_LEAF_DEPTH {
        return Some(pos.perft(depth));
    }
    let mut n = 0;
    for m in pos.legal_moves().iter() {
        n += perft_split(&pos.play(m).ok()?, depth - 1, stop)?;
    }
    Some(n)
}

/// The depth of a subtree counted at once by `perft` (milliseconds on the
/// start positions).
const PERFT_LEAF_DEPTH: u32 = 5;

/// The variants checked, by name.
#[pyfunction]
fn variants() -> Vec<&'static str> {
    Variant::ALL.iter().map(|v| v.name()).collect()
}

#[pymodule]
fn _pdnkit(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(explore, m)?)?;
    m.add_function(wrap_pyfunction!(read_games, m)?)?;
    m.add_function(wrap_pyfunction!(files, m)?)?;
    m.add_function(wrap_pyfunction!(date_days, m)?)?;
    m.add_function(wrap_pyfunction!(game_table, m)?)?;
    m.add_function(wrap_pyfunction!(index::index_table, m)?)?;
    m.add_function(wrap_pyfunction!(index::index_part, m)?)?;
    m.add_function(wrap_pyfunction!(index::merge_index, m)?)?;
    m.add_function(wrap_pyfunction!(perft, m)?)?;
    m.add_function(wrap_pyfunction!(variants, m)?)?;
    m.add_class::<NativePosition>()?;
    m.add_class::<GameReader>()?;
    m.add("FenError", m.py().get_type::<FenError>())?;
    m.add("IllegalMoveError", m.py().get_type::<IllegalMoveError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
