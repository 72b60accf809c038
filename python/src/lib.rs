//! The native part of the `pdnkit` Python package (PyO3, abi3-py39). The
//! Python layer (`pdnkit/__init__.py`) gives it its Pythonic shape; every
//! answer comes from the `pdnkit` library, through the same per-file check as
//! the command line (`check_file`: the same inference, the same refusals).

use pdnkit::diag::{Code, Level, Levels, Severity};
use pdnkit::draw::DrawRules;
use pdnkit::export::{FileRecord, GameRecord};
use pdnkit::pdn::Reader;
use pdnkit::{Options, Position, Variant};
use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList};
use serde_json::Value;
use std::io::Read;
use std::path::PathBuf;

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

/// A source: bytes, or a path (str or os.PathLike); its name in findings.
fn source(obj: &Bound<'_, PyAny>) -> PyResult<(String, Box<dyn Read + Send>)> {
    if let Ok(b) = obj.downcast::<PyBytes>() {
        return Ok((
            "<bytes>".into(),
            Box::new(std::io::Cursor::new(b.as_bytes().to_vec())),
        ));
    }
    if let Ok(b) = obj.downcast::<PyByteArray>() {
        return Ok(("<bytes>".into(), Box::new(std::io::Cursor::new(b.to_vec()))));
    }
    let path: PathBuf = obj.extract()?;
    let name = path.display().to_string();
    match std::fs::File::open(&path) {
        Ok(f) => Ok((name, Box::new(f))),
        Err(e) => Err(PyOSError::new_err((
            e.raw_os_error().unwrap_or(0),
            e.to_string(),
            name,
        ))),
    }
}

/// The source decoded from `encoding` (a WHATWG label: `cp1252`, `koi8-r`,
/// `utf-16le`, ...) to UTF-8 first, when one is named.
fn decoded(src: Box<dyn Read + Send>, encoding: Option<&str>) -> PyResult<Box<dyn Read + Send>> {
    let Some(label) = encoding else {
        return Ok(src);
    };
    let enc = encoding_rs::Encoding::for_label(label.as_bytes())
        .ok_or_else(|| PyValueError::new_err(format!("unknown encoding {label:?}")))?;
    let mut bytes = Vec::new();
    let mut src = src;
    src.read_to_end(&mut bytes)
        .map_err(|e| PyOSError::new_err(e.to_string()))?;
    let (text, _, _) = enc.decode(&bytes);
    Ok(Box::new(std::io::Cursor::new(
        text.into_owned().into_bytes(),
    )))
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
) -> PyResult<Options> {
    let irregularities = irregularities
        .parse::<pdnkit::replay::Irregularities>()
        .map_err(PyValueError::new_err)?;
    // `NAME`, `'GLOB=NAME'`, or a list of these: the command line's --variant.
    let texts: Vec<String> = match variant.extract::<String>() {
        Ok(one) => vec![one],
        Err(_) => variant.extract::<Vec<String>>().map_err(|_| {
            PyValueError::new_err("variant: a name, 'GLOB=NAME', or a list of these")
        })?,
    };
    let rules = texts
        .iter()
        .map(|t| pdnkit::infer::NamedVariant::parse(t).map_err(PyValueError::new_err))
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
    Ok(Options::default()
        .variants(rules)
        .draw_rules(d)
        .irregularities(irregularities)
        .levels(l))
}

/// Checks one source as `pdnkit check` checks a file: the JSON records of its
/// games (as `check --format json`) and the findings about the file.
#[pyfunction]
#[pyo3(signature = (source_, variant = None, draw_rules = "auto", levels = None, name = None, root = None, irregularities = "stop"))]
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
) -> PyResult<(PyObject, PyObject)> {
    let auto = pyo3::types::PyString::new(py, "auto").into_any();
    let opts = options(variant.unwrap_or(&auto), draw_rules, irregularities, levels)?;
    let (own, src) = source(source_)?;
    let file = name.unwrap_or(own);
    let (games, findings) = py
        .allow_threads(|| {
            let named = pdnkit::infer::FileName::new(&file, root.as_deref().unwrap_or(&file));
            pdnkit::check::check_file_as(src, &opts, Some(named))
        })
        .map_err(|e| PyOSError::new_err(format!("{file}: {e}")))?;
    let records: Vec<PyObject> = games
        .iter()
        .map(|c| {
            let v = serde_json::to_value(GameRecord::new(&file, &c.game, &c.report))
                .unwrap_or(Value::Null);
            py_value(py, &v)
        })
        .collect::<PyResult<_>>()?;
    let file_v = serde_json::to_value(FileRecord::new(&file, &findings)).unwrap_or(Value::Null);
    let file_findings = py_value(
        py,
        file_v
            .get("diagnostics")
            .unwrap_or(&Value::Array(Vec::new())),
    )?;
    Ok((PyList::new(py, records)?.into_any().unbind(), file_findings))
}

/// The games of a source, one at a time, as the reader reads them.
#[pyclass(module = "pdnkit._pdnkit", unsendable)]
struct GameReader {
    reader: Reader<std::io::BufReader<Box<dyn Read + Send>>>,
    file: String,
}

#[pymethods]
impl GameReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }
    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<PyObject>> {
        let g = match self.reader.next_game() {
            Ok(Some(g)) => g,
            Ok(None) => return Ok(None),
            Err(e) => return Err(PyOSError::new_err(format!("{}: {e}", self.file))),
        };
        let d = PyDict::new(py);
        d.set_item("index", g.index())?;
        d.set_item("line", g.start_line())?;
        let tags = PyDict::new(py);
        for t in g.tags() {
            tags.set_item(g.tag_name(t), g.tag_value(t))?;
        }
        d.set_item("tags", tags)?;
        let moves: Vec<String> = g
            .main_line()
            .map(|m| String::from_utf8_lossy(g.bytes(&m.span())).into_owned())
            .collect();
        d.set_item("moves", moves)?;
        d.set_item("result", pdnkit::export::declared_result_text(&g))?;
        let mut loc = pdnkit::pdn::Locator::new(&g);
        let findings = PyList::empty(py);
        for f in g.diagnostics() {
            let (line, column) = loc.locate(f.span.start);
            let x = PyDict::new(py);
            x.set_item("severity", f.severity.as_str())?;
            x.set_item("code", f.code.as_str())?;
            x.set_item("message", &f.message)?;
            x.set_item("line", line)?;
            x.set_item("column", column)?;
            findings.append(x)?;
        }
        d.set_item("findings", findings)?;
        d.set_item("file", &self.file)?;
        Ok(Some(d.into_any().unbind()))
    }
}

/// A reader over a source (bytes or a path), optionally decoded from `encoding`.
#[pyfunction]
#[pyo3(signature = (source_, encoding = None))]
fn read_games(source_: &Bound<'_, PyAny>, encoding: Option<&str>) -> PyResult<GameReader> {
    let (file, src) = source(source_)?;
    let src = decoded(src, encoding)?;
    Ok(GameReader {
        reader: Reader::new(std::io::BufReader::new(src)),
        file,
    })
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
            algebraic: pdnkit::diagram::algebraic(self.pos.variant()),
            colon: false,
        };
        self.pos
            .legal_moves()
            .iter()
            .map(|m| pdnkit::notation::write_move(&self.pos, m, style))
            .collect()
    }
    /// The position after `text`, a move as a record writes it; the reason
    /// the rules refuse it as IllegalMoveError.
    fn play(&self, text: &str) -> PyResult<Self> {
        let squares = pdnkit::diagram::Arrow::legal(&self.pos, text)
            .map_err(|e| IllegalMoveError::new_err(e.to_string()))?;
        let found = self.pos.legal_moves().into_iter().find(|m| {
            pdnkit::rules::landing_path(&self.pos, m).to_vec() == squares.path
                && m.captured() == squares.captured
        });
        let m = found.ok_or_else(|| {
            IllegalMoveError::new_err(format!("'{text}' is not a legal move here"))
        })?;
        self.pos
            .play(&m)
            .map(|pos| NativePosition { pos })
            .map_err(|e| IllegalMoveError::new_err(e.to_string()))
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
    Ok(py.allow_threads(|| pdnkit::rules::perft(&pos, depth)))
}

/// The variants checked, by name.
#[pyfunction]
fn variants() -> Vec<&'static str> {
    Variant::ALL.iter().map(|v| v.name()).collect()
}

#[pymodule]
fn _pdnkit(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(read_games, m)?)?;
    m.add_function(wrap_pyfunction!(perft, m)?)?;
    m.add_function(wrap_pyfunction!(variants, m)?)?;
    m.add_class::<NativePosition>()?;
    m.add_class::<GameReader>()?;
    m.add("FenError", m.py().get_type::<FenError>())?;
    m.add("IllegalMoveError", m.py().get_type::<IllegalMoveError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
