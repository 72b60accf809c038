//! The games table, declared once: its columns, a game's row, its values.

use crate::diag::Severity;
use crate::export::json::object;
use crate::export::value::Value;
use crate::pdn::Game;
use crate::replay::GameReport;

/// The type of a column of the games table, as Arrow and Parquet store it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnType {
    /// A UTF-8 string.
    Text,
    /// A 64-bit integer.
    Int64,
    /// A 32-bit integer.
    Int32,
    /// A boolean.
    Bool,
    /// A date: days since 1970-01-01 (Arrow's `date32`).
    Date,
    /// An unsigned 64-bit integer (the position index's keys and counts).
    UInt64,
    /// An unsigned 32-bit integer (the position index's years).
    UInt32,
}

impl ColumnType {
    /// Its name: `string`, `int64`, `int32`, `bool`, `date32`, `uint64`,
    /// `uint32` (Arrow's).
    pub fn name(self) -> &'static str {
        match self {
            ColumnType::Text => "string",
            ColumnType::Int64 => "int64",
            ColumnType::Int32 => "int32",
            ColumnType::Bool => "bool",
            ColumnType::Date => "date32",
            ColumnType::UInt64 => "uint64",
            ColumnType::UInt32 => "uint32",
        }
    }
}

/// A column of the games table (or of the position index,
/// [`Explorer::INDEX_TABLE`](crate::stats::Explorer::INDEX_TABLE)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    /// Its name.
    pub name: &'static str,
    /// Its type.
    pub ty: ColumnType,
    /// Whether a row may have no value.
    pub nullable: bool,
}

/// The fields of each finding in the games table's `diagnostics` list.
pub(super) const DIAGNOSTIC_FIELDS: [Column; 6] = [
    Column {
        name: "severity",
        ty: ColumnType::Text,
        nullable: false,
    },
    Column {
        name: "code",
        ty: ColumnType::Text,
        nullable: false,
    },
    Column {
        name: "message",
        ty: ColumnType::Text,
        nullable: false,
    },
    Column {
        name: "line",
        ty: ColumnType::Int32,
        nullable: false,
    },
    Column {
        name: "column",
        ty: ColumnType::Int32,
        nullable: false,
    },
    Column {
        name: "ply",
        ty: ColumnType::Int32,
        nullable: true,
    },
];

/// The games table, declared once: each field of [`GameRow`] is a column of
/// CSV and JSON rows, in order; its Rust type gives its column's type and
/// nullability ([`Cell`]). A field marked `as Date + date_text` is two columns
/// of the Parquet and Arrow table: the whole date ([`crate::pdn::PdnDate`],
/// days since 1970) and the tag as written. The macro yields the struct,
/// [`ROW_COLUMNS`] (CSV and JSON), [`GAME_TABLE`] (Parquet and Arrow),
/// `row_values`, `table_values` (the values in those orders) and
/// `make_safe` (every text cell made [`super::spreadsheet_safe`]).
macro_rules! games_table {
    ($( $(#[doc = $doc:literal])* $field:ident : $ty:ty $(as $special:ident + $extra:ident)? ,)*) => {
        /// One row of the games table: the columns of CSV and JSON rows, in
        /// order ([`GameRow::columns`]); [`GameRow::TABLE`] gives the
        /// Parquet and Arrow columns.
        #[derive(Clone, Debug, PartialEq)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize))]
        pub struct GameRow {
            $( $(#[doc = $doc])* pub $field: $ty, )*
        }

        /// The number of columns of CSV and JSON rows.
        const ROW_WIDTH: usize = [$(stringify!($field)),*].len();

        /// The columns of CSV and JSON rows, in order: [`GameRow`]'s fields.
        pub(super) const ROW_COLUMNS: [&str; ROW_WIDTH] = [$(stringify!($field)),*];

        /// Each field's Parquet columns: its own, and the second column of a
        /// field marked `as Date + ...`.
        const FIELD_COLUMNS: [(Column, Option<Column>); ROW_WIDTH] = [
            $( games_table!(@columns $field, $ty $(, $special, $extra)?) ),*
        ];

        /// A row's values in [`ROW_COLUMNS`]' order.
        pub(super) fn row_values(row: &GameRow) -> [Value<'_>; ROW_WIDTH] {
            [$( Cell::value(&row.$field) ),*]
        }

        /// A row's values in [`GAME_TABLE`]'s order.
        pub(super) fn table_values(row: &GameRow) -> [Value<'_>; TABLE_WIDTH] {
            let mut out = [Value::Text(None); TABLE_WIDTH];
            let mut i = 0;
            $( games_table!(@value out, i, row, $field $(, $special)?); )*
            debug_assert_eq!(i, TABLE_WIDTH);
            out
        }

        impl GameRow {
            /// Every text cell made [`GameRow::safe_text`].
            pub fn spreadsheet_safe(mut self) -> GameRow {
                $( Cell::make_safe(&mut self.$field); )*
                self
            }
            /// A CSV cell as a spreadsheet may open it safely: a cell that
            /// Excel, LibreOffice or Google Sheets would evaluate as a
            /// formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage
            /// return) gets a leading `'`. Plain numbers (`-1`, `+3.5`) and
            /// `-` alone, common in PDN tags, are left as they are. Every
            /// text cell of every table pdnkit writes is made so (`convert
            /// --csv-raw` writes cells untouched).
            pub fn safe_text(cell: &str) -> std::borrow::Cow<'_, str> {
                super::spreadsheet_safe(cell)
            }
        }
    };
    (@columns $field:ident, $ty:ty) => {
        (column::<$ty>(stringify!($field)), None)
    };
    (@columns $field:ident, $ty:ty, Date, $extra:ident) => {
        (
            Column { name: stringify!($field), ty: ColumnType::Date, nullable: true },
            Some(column::<$ty>(stringify!($extra))),
        )
    };
    (@value $out:ident, $i:ident, $row:ident, $field:ident) => {
        $out[$i] = Cell::value(&$row.$field);
        $i += 1;
    };
    (@value $out:ident, $i:ident, $row:ident, $field:ident, Date) => {
        $out[$i] = Value::Date(
            $row.$field
                .as_deref()
                .and_then(|d| crate::pdn::PdnDate::parse(d).days_since_epoch()),
        );
        $out[$i + 1] = Cell::value(&$row.$field);
        $i += 2;
    };
}

/// How a field's Rust type is a column: its type, nullability and value.
pub(super) trait Cell {
    /// Its column's type.
    const TYPE: ColumnType;
    /// Whether a row may have no value.
    const NULLABLE: bool;
    /// Its value.
    fn value(&self) -> Value<'_>;
    /// Made [`super::spreadsheet_safe`] (text the row owns; the rest is of
    /// pdnkit's own vocabulary).
    fn make_safe(&mut self) {}
}

/// The column named `name` of a field of type `T`.
const fn column<T: Cell>(name: &'static str) -> Column {
    Column {
        name,
        ty: T::TYPE,
        nullable: T::NULLABLE,
    }
}

macro_rules! cell {
    ($ty:ty, $col:ident, $nullable:literal, |$v:ident| $value:expr) => {
        impl Cell for $ty {
            const TYPE: ColumnType = ColumnType::$col;
            const NULLABLE: bool = $nullable;
            fn value(&self) -> Value<'_> {
                let $v = self;
                $value
            }
        }
    };
}

cell!(&'static str, Text, false, |v| Value::Text(Some(v)));
cell!(Option<&'static str>, Text, true, |v| Value::Text(*v));
cell!(u32, Int32, false, |v| Value::Int(Some(i64::from(*v))));
cell!(Option<u32>, Int32, true, |v| Value::Int(v.map(i64::from)));
cell!(usize, Int64, false, |v| Value::Int(Some(*v as i64)));
cell!(Option<bool>, Bool, true, |v| Value::Bool(*v));

impl Cell for String {
    const TYPE: ColumnType = ColumnType::Text;
    const NULLABLE: bool = false;
    fn value(&self) -> Value<'_> {
        Value::Text(Some(self))
    }
    fn make_safe(&mut self) {
        if let std::borrow::Cow::Owned(o) = super::spreadsheet_safe(self) {
            *self = o;
        }
    }
}

impl Cell for Option<String> {
    const TYPE: ColumnType = ColumnType::Text;
    const NULLABLE: bool = true;
    fn value(&self) -> Value<'_> {
        Value::Text(self.as_deref())
    }
    fn make_safe(&mut self) {
        if let Some(s) = self {
            s.make_safe();
        }
    }
}

games_table! {

    /// The file, as named on the command line or found in a folder.
    file: String,
    /// 1-based index of the game in its file.
    game: usize,
    /// 1-based line where it starts.
    line: u32,
    /// The Event tag.
    event: Option<String>,
    /// The Site tag.
    site: Option<String>,
    /// The Date tag.
    date: Option<String> as Date + date_text,
    /// The Round tag.
    round: Option<String>,
    /// The White tag.
    white: Option<String>,
    /// The Black tag.
    black: Option<String>,
    /// The variant the game was read as (or the refused variant it names);
    /// empty for a game of a refused file.
    variant: Option<&'static str>,
    /// What decided the variant (`tag`, `file`, `inferred`, `named`, `forced`,
    /// `unsupported`, `refused`).
    variant_source: &'static str,
    /// The draw rules applied (`cbjd`, `fmjd`, `none`).
    draw_rules: Option<&'static str>,
    /// The result the record declares, normalised (`2-0`, `0-2`, `1-1`, `0-0`, `*`).
    declared_result: Option<&'static str>,
    /// The result exactly as the record writes it (the Result tag, else the
    /// final token).
    declared_result_text: Option<String>,
    /// The result the replay computes (`2-0`, `0-2`, `1-1` or `*`).
    computed_result: &'static str,
    /// How the game ended (`no-moves`, `repetition`, `ending`, `king-moves`, `unfinished`).
    termination: &'static str,
    /// The ply after which it ended (0: the start position).
    termination_ply: Option<u32>,
    /// Plies of the main line that were read.
    plies: u32,
    /// Plies of the main line after the move that stopped the replay, not replayed.
    plies_unchecked: u32,
    /// Moves that stood (`--irregularities stand`; 0 under `stop`).
    irregularities: u32,
    /// Plies that captured.
    captures: u32,
    /// Most pieces taken by one move.
    longest_capture: u32,
    /// Plies that crowned a man.
    crownings: u32,
    /// Empty for a game that was not checked (an unsupported variant).
    valid: Option<bool>,
    /// Error findings.
    errors: u32,
    /// Warning findings.
    warnings: u32,
    /// The code of the first error finding.
    first_error_code: Option<&'static str>,
    /// The ply of the first error finding, if it is about a move.
    first_error_ply: Option<u32>,
    /// The table of the game's opening (docs/openings.md).
    opening_table: Option<String>,
    /// The code of its row.
    opening_code: Option<String>,
    /// Its name, the row's or the names table's.
    opening_name: Option<String>,
    /// The ply after which the game is in the row's position.
    opening_plies: Option<u32>,
    /// `setup` or `moves`.
    opening_via: Option<&'static str>,
}

/// The number of Parquet and Arrow columns.
const TABLE_WIDTH: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < FIELD_COLUMNS.len() {
        n += if FIELD_COLUMNS[i].1.is_some() { 2 } else { 1 };
        i += 1;
    }
    n
};

/// The games table (docs/parquet.md): the columns of the Parquet games table
/// and of Python's Arrow batches, in order, before the `--tag` columns and
/// the `diagnostics` list ([`DIAGNOSTIC_FIELDS`]). `date` is the Date tag's
/// whole date ([`crate::pdn::PdnDate`]) and `date_text` the tag as written;
/// CSV and JSON rows ([`ROW_COLUMNS`]) write the tag as written in `date`
/// and have no `date_text`.
pub(super) const GAME_TABLE: [Column; TABLE_WIDTH] = {
    let mut out = [FIELD_COLUMNS[0].0; TABLE_WIDTH];
    let (mut i, mut j) = (0, 0);
    while i < FIELD_COLUMNS.len() {
        out[j] = FIELD_COLUMNS[i].0;
        j += 1;
        if let Some(c) = FIELD_COLUMNS[i].1 {
            out[j] = c;
            j += 1;
        }
        i += 1;
    }
    out
};
/// The result exactly as the record writes it ([`Game::result_text`]).
pub(super) fn declared_result_text(g: &Game) -> Option<String> {
    g.result_text().map(std::borrow::Cow::into_owned)
}

impl GameRow {
    /// The games table, defined once: each column's name, type and
    /// nullability, in order (the Parquet schema and Python's Arrow batches
    /// are made from it; [`GameRow::values`] gives a row's values).
    pub const TABLE: [Column; TABLE_WIDTH] = GAME_TABLE;
    /// The fields of each finding in the games table's `diagnostics` list.
    pub const DIAGNOSTIC_FIELDS: [Column; 6] = DIAGNOSTIC_FIELDS;
    /// The games-table row of game `g` of `file`, replayed as `r` (`r` needs
    /// [`crate::replay::Options::keep_moves`] for the capture and crowning
    /// counts).
    pub fn new(file: &str, g: &Game, r: &GameReport) -> GameRow {
        game_row(file, g, r)
    }
    /// The fixed columns of the games table in CSV and JSON rows, in order:
    /// [`GameRow::TABLE`]'s, with the Date tag as written in `date` and no
    /// `date_text`.
    pub fn columns() -> Vec<&'static str> {
        ROW_COLUMNS.to_vec()
    }
    /// The row's values in [`GameRow::TABLE`]'s order (the Parquet writer's and
    /// Python's rows), with `date` as days since 1970 (`None` for a partial or
    /// yearless date) and `date_text` the tag as written.
    pub fn values(&self) -> [Value<'_>; TABLE_WIDTH] {
        table_values(self)
    }
    /// Appends the row's JSON line, with the `--tag` columns `tags` (name,
    /// value), as `convert --to jsonl` writes it: byte for byte what
    /// `serde_json` gives for the row turned into a map with the tags added
    /// (keys in alphabetical order; a tag named like a column replaces it),
    /// followed by `\n`.
    pub fn write_json(&self, out: &mut String, tags: &[(&str, Option<&str>)]) {
        write_game_row_json(out, self, tags)
    }
}

/// The games-table row of a replayed game (`r` needs [`crate::replay::Options::keep_moves`]
/// for the capture and crowning counts).
pub(super) fn game_row(file: &str, g: &Game, r: &GameReport) -> GameRow {
    let first_error = r.first_error();
    GameRow {
        file: file.to_string(),
        game: g.index,
        line: g.start_line(),
        event: g.tag("Event"),
        site: g.tag("Site"),
        date: g.tag("Date"),
        round: g.tag("Round"),
        white: g.tag("White"),
        black: g.tag("Black"),
        variant: r.kind.map(|k| k.name()),
        variant_source: r.source.as_str(),
        draw_rules: r.draw_rules.map(|d| d.name()),
        declared_result: r.declared.map(|o| o.normalised()),
        declared_result_text: declared_result_text(g),
        computed_result: r.computed.normalised(),
        termination: r.termination.name(),
        termination_ply: r.termination_ply,
        plies: r.plies,
        plies_unchecked: r.plies_unchecked,
        irregularities: r.irregularities,
        captures: r.captures().count() as u32,
        longest_capture: r.longest_capture(),
        crownings: r.crownings(),
        valid: r.verdict(),
        errors: r.errors().count() as u32,
        warnings: r
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .count() as u32,
        first_error_code: first_error.map(|d| d.code.as_str()),
        first_error_ply: first_error.and_then(|d| d.ply),
        opening_table: r.opening.as_ref().map(|o| o.table().to_string()),
        opening_code: r.opening.as_ref().map(|o| o.code().to_string()),
        opening_name: r
            .opening
            .as_ref()
            .and_then(|o| o.name())
            .map(str::to_string),
        opening_plies: r.opening.as_ref().map(|o| o.plies),
        opening_via: r.opening.as_ref().map(|o| o.via),
    }
}

/// Appends the JSON line of a games-table row with the `--tag` columns
/// `tags` (name, value), as `convert --to jsonl` writes it: byte for byte
/// what `serde_json` gives for the row turned into a `Value` with the tags
/// added (keys in alphabetical order; a tag named like a column replaces
/// it), followed by `\n`.
fn write_game_row_json(out: &mut String, row: &GameRow, tags: &[(&str, Option<&str>)]) {
    let mut fields: smallvec::SmallVec<[(&str, Value<'_>); 64]> =
        ROW_COLUMNS.into_iter().zip(row_values(row)).collect();
    object(out, &mut fields, tags);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::value::Value;

    /// Every corpus game's values have their column's type, and a value is
    /// missing only where its column is nullable; CSV and JSON columns are
    /// the table's without the second columns of a field.
    #[test]
    fn each_value_has_its_columns_type() {
        let extras: Vec<&str> = FIELD_COLUMNS
            .iter()
            .filter_map(|c| c.1.map(|c| c.name))
            .collect();
        assert!(!extras.is_empty());
        let without: Vec<&str> = GAME_TABLE
            .iter()
            .map(|c| c.name)
            .filter(|n| !extras.contains(n))
            .collect();
        assert_eq!(without, ROW_COLUMNS);
        let opts = crate::Options::default().keep_moves(true);
        let mut seen = [(false, false); TABLE_WIDTH];
        let mut dirs = vec![std::path::PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/corpus"
        ))];
        let mut files = Vec::new();
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).expect("the corpus is readable") {
                let p = e.expect("an entry").path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p.extension().is_some_and(|e| e == "pdn") {
                    files.push(p);
                }
            }
        }
        assert!(files.len() > 10);
        for f in files {
            let bytes = std::fs::read(&f).expect("a corpus file");
            for g in crate::pdn::read_all(&bytes) {
                let r = crate::check_game(&g, &opts);
                let row = GameRow::new("f", &g, &r);
                for (i, (c, v)) in GAME_TABLE.iter().zip(row.values()).enumerate() {
                    let (ty, null) = match v {
                        Value::Text(t) => (ColumnType::Text, t.is_none()),
                        Value::Int(n) => (c.ty, n.is_none()),
                        Value::Bool(b) => (ColumnType::Bool, b.is_none()),
                        Value::Date(d) => (ColumnType::Date, d.is_none()),
                    };
                    assert_eq!(ty, c.ty, "{}", c.name);
                    assert!(
                        matches!(c.ty, ColumnType::Int32 | ColumnType::Int64)
                            == matches!(v, Value::Int(_))
                    );
                    assert!(c.nullable || !null, "{} is missing", c.name);
                    seen[i].0 |= null;
                    seen[i].1 |= !null;
                }
                let json = {
                    let mut s = String::new();
                    row.write_json(&mut s, &[]);
                    s
                };
                let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
                let keys: Vec<&str> = v
                    .as_object()
                    .expect("an object")
                    .keys()
                    .map(String::as_str)
                    .collect();
                let mut want = ROW_COLUMNS.to_vec();
                want.sort_unstable();
                assert_eq!(keys, want);
            }
        }
        // The corpus gives every column a value somewhere.
        for (c, (_, some)) in GAME_TABLE.iter().zip(seen) {
            assert!(some, "{} never has a value", c.name);
        }
    }
}
