//! What names a table (`--opening-table NAME|FILE|none`), and what reading
//! a user's table can say: [`TableSpec`], [`TableError`], [`RowWarning`].
//! The reading itself replays every row, so it is done beside the replay
//! (`replay/tables.rs`, [`super::Table::load`]), and this module stays
//! below it.

use std::fmt;
use std::path::{Path, PathBuf};

/// The most bytes of a user's table read (docs/limits.md): a table of
/// every ballot of every federation is under a megabyte; a larger file (or
/// a pipe fed without end) is refused when this is reached.
pub(crate) const MAX_TABLE_BYTES: u64 = 16 << 20;

/// A table as `--opening-table` (and Python's `opening_table=`) names it:
/// `none`, a shipped table's name, or a user's file (`.csv`, `.pdn`, or any
/// file that exists). Parsed once, the same for every door.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableSpec {
    /// No table: no opening is looked for.
    None,
    /// A shipped table, by name.
    Shipped(&'static str),
    /// A user's table, read from this file.
    File(PathBuf),
}

impl std::str::FromStr for TableSpec {
    type Err = TableError;
    fn from_str(s: &str) -> Result<TableSpec, TableError> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("none") {
            return Ok(TableSpec::None);
        }
        if let Some(name) = crate::openings::table::shipped_names().find(|n| *n == t) {
            return Ok(TableSpec::Shipped(name));
        }
        let lower = t.to_ascii_lowercase();
        if lower.ends_with(".csv") || lower.ends_with(".pdn") || Path::new(s).exists() {
            return Ok(TableSpec::File(PathBuf::from(s)));
        }
        Err(TableError::Unknown(s.to_string()))
    }
}

/// Why a table cannot be used. Every file name in its message is escaped
/// (its control characters made visible), as every path pdnkit prints.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TableError {
    /// A name that is no shipped table and no file.
    #[error("'{}' is no opening table (tables: {}, a file .csv or .pdn, or none)", crate::pdn::visible(.0), crate::openings::table::shipped_names().collect::<Vec<_>>().join(", "))]
    Unknown(String),
    /// The file cannot be read.
    #[error("{}: {source}", shown(.path))]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is larger than 16 MiB, the most a table is read to.
    #[error("{}: larger than {} bytes, the most a table is read to (a table of every ballot is under a megabyte): not read", shown(.path), MAX_TABLE_BYTES)]
    TooLarge {
        /// The file.
        path: PathBuf,
    },
    /// The file is not UTF-8 text.
    #[error("{}: not UTF-8 text (byte {at})", shown(.path))]
    NotUtf8 {
        /// The file.
        path: PathBuf,
        /// The first byte that is not.
        at: usize,
    },
    /// The file is not a table, or no row of it can be used.
    #[error("{}: {why}", shown(.path))]
    NotATable {
        /// The file.
        path: PathBuf,
        /// Why.
        why: String,
    },
}

/// A path as messages print it: its control characters made visible.
fn shown(p: &Path) -> String {
    crate::pdn::visible(&p.to_string_lossy()).into_owned()
}

/// A row of a user's table left out, or read with a caveat: its file, its
/// place (`row 3 (line 5)`, `row 2 (game 2, line 9)`) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowWarning {
    /// The table's file.
    pub path: PathBuf,
    /// Where in it (empty: the whole table).
    pub at: String,
    /// Why.
    pub why: String,
}

impl fmt::Display for RowWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let why = crate::pdn::visible(&self.why);
        if self.at.is_empty() {
            write!(f, "{}: {why}", shown(&self.path))
        } else {
            write!(f, "{}: {}: {why}", shown(&self.path), self.at)
        }
    }
}
