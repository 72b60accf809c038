//! The games table, declared once: its columns, a game's row, its values.

use super::*;

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
}

impl ColumnType {
    /// Its name: `string`, `int64`, `int32`, `bool`, `date32` (Arrow's).
    pub fn name(self) -> &'static str {
        match self {
            ColumnType::Text => "string",
            ColumnType::Int64 => "int64",
            ColumnType::Int32 => "int32",
            ColumnType::Bool => "bool",
            ColumnType::Date => "date32",
        }
    }
}

/// A column of the games table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    /// Its name.
    pub name: &'static str,
    /// Its type.
    pub ty: ColumnType,
    /// Whether a row may have no value.
    pub nullable: bool,
}

/// The games table, defined once (docs/parquet.md): the columns of the
/// Parquet games table and of Python's Arrow batches, in order, before the
/// `--tag` columns and the `diagnostics` list ([`DIAGNOSTIC_FIELDS`]).
/// `date` is the Date tag's whole date ([`crate::pdn::PdnDate`]) and
/// `date_text` the tag as written; CSV and JSON rows ([`GameRow::columns`])
/// write the tag as written in `date` and have no `date_text`.
pub(super) const GAME_TABLE: [Column; 34] = [
    Column {
        name: "file",
        ty: ColumnType::Text,
        nullable: false,
    },
    Column {
        name: "game",
        ty: ColumnType::Int64,
        nullable: false,
    },
    Column {
        name: "line",
        ty: ColumnType::Int32,
        nullable: false,
    },
    Column {
        name: "event",
        ty: ColumnType::Text,
        nullable: true,
    },
    Column {
        name: "site",
        ty: ColumnType::Text,
        nullable: true,
    },
    Column {
        name: "date",
        ty: ColumnType::Date,
        nullable: true,
    },
    Column {
        name: "date_text",
        ty: ColumnType::Text,
        nullable: true,
    },
    Column {
        name: "round",
        ty: ColumnType::Text,
        nullable: true,
    },
    Column {
        name: "white",
        ty: ColumnType::Text,
        nullable: true,
    },
    Column {
        name: "black",
        ty: ColumnType::Text,
        nullable: true,
    },
    Column {
        name: "variant",
        ty: ColumnType::Text,
        nullable: true,
    },
    Column {
        name: "variant_source",
        ty: ColumnType::Text,
        nullable: false,
    },
    Column {
        name: "draw_rules",
        ty: ColumnType::Text,
        nullable: true,
    },
    Column {
        name: "declared_result",
        ty: ColumnType::Text,
        nullable: true,
    },
    Column {
        name: "declared_result_text",
        ty: ColumnType::Text,
        nullable: true,
    },
    Column {
        name: "computed_result",
        ty: ColumnType::Text,
        nullable: false,
    },
    Column {
        name: "termination",
        ty: ColumnType::Text,
        nullable: false,
    },
    Column {
        name: "termination_ply",
        ty: ColumnType::Int32,
        nullable: true,
    },
    Column {
        name: "plies",
        ty: ColumnType::Int32,
        nullable: false,
    },
    Column {
        name: "plies_unchecked",
        ty: ColumnType::Int32,
        nullable: false,
    },
    Column {
        name: "irregularities",
        ty: ColumnType::Int32,
        nullable: false,
    },
    Column {
        name: "captures",
        ty: ColumnType::Int32,
        nullable: false,
    },
    Column {
        name: "longest_capture",
        ty: ColumnType::Int32,
        nullable: false,
    },
    Column {
        name: "crownings",
        ty: ColumnType::Int32,
        nullable: false,
    },
    Column {
        name: "valid",
        ty: ColumnType::Bool,
        nullable: true,
    },
    Column {
        name: "errors",
        ty: ColumnType::Int32,
        nullable: false,
    },
    Column {
        name: "warnings",
        ty: ColumnType::Int32,
        nullable: false,
    },
    Column {
        name: "first_error_code",
        ty: ColumnType::Text,
        nullable: true,
    },
    Column {
        name: "first_error_ply",
        ty: ColumnType::Int32,
        nullable: true,
    },
    Column {
        name: "opening_table",
        ty: ColumnType::Text,
        nullable: true,
    },
    Column {
        name: "opening_code",
        ty: ColumnType::Text,
        nullable: true,
    },
    Column {
        name: "opening_name",
        ty: ColumnType::Text,
        nullable: true,
    },
    Column {
        name: "opening_plies",
        ty: ColumnType::Int32,
        nullable: true,
    },
    Column {
        name: "opening_via",
        ty: ColumnType::Text,
        nullable: true,
    },
];

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

/// The fixed columns of the games table in CSV and JSON rows ([`GameRow`]),
/// in order: [`GAME_TABLE`]'s, with the Date tag as written in `date` and
/// no `date_text`.
pub(super) fn game_columns() -> Vec<&'static str> {
    GAME_TABLE
        .iter()
        .map(|c| c.name)
        .filter(|n| *n != "date_text")
        .collect()
}

/// A game's values in [`GAME_TABLE`]'s order (the Parquet writer's and
/// Python's rows): the row, with `date` as days since 1970 (`None` for a
/// partial or yearless date) and `date_text` the tag as written.
pub(super) fn table_values(row: &GameRow) -> [Value<'_>; 34] {
    let num = |n: u32| Value::Int(Some(i64::from(n)));
    let opt = |n: Option<u32>| Value::Int(n.map(i64::from));
    [
        Value::Text(Some(&row.file)),
        Value::Int(Some(row.game as i64)),
        num(row.line),
        Value::Text(row.event.as_deref()),
        Value::Text(row.site.as_deref()),
        Value::Date(
            row.date
                .as_deref()
                .and_then(|d| crate::pdn::PdnDate::parse(d).days_since_epoch()),
        ),
        Value::Text(row.date.as_deref()),
        Value::Text(row.round.as_deref()),
        Value::Text(row.white.as_deref()),
        Value::Text(row.black.as_deref()),
        Value::Text(row.variant),
        Value::Text(Some(row.variant_source)),
        Value::Text(row.draw_rules),
        Value::Text(row.declared_result),
        Value::Text(row.declared_result_text.as_deref()),
        Value::Text(Some(row.computed_result)),
        Value::Text(Some(row.termination)),
        opt(row.termination_ply),
        num(row.plies),
        num(row.plies_unchecked),
        num(row.irregularities),
        num(row.captures),
        num(row.longest_capture),
        num(row.crownings),
        Value::Bool(row.valid),
        num(row.errors),
        num(row.warnings),
        Value::Text(row.first_error_code),
        opt(row.first_error_ply),
        Value::Text(row.opening_table),
        Value::Text(row.opening_code),
        Value::Text(row.opening_name),
        opt(row.opening_plies),
        Value::Text(row.opening_via),
    ]
}

/// A value of [`GameRow::values`]: its column's type, or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value<'a> {
    /// A [`ColumnType::Text`] value.
    Text(Option<&'a str>),
    /// A [`ColumnType::Int64`] or [`ColumnType::Int32`] value.
    Int(Option<i64>),
    /// A [`ColumnType::Bool`] value.
    Bool(Option<bool>),
    /// A [`ColumnType::Date`] value: days since 1970-01-01.
    Date(Option<i32>),
}

/// One row of the games table.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct GameRow {
    /// The file, as named on the command line or found in a folder.
    pub file: String,
    /// 1-based index of the game in its file.
    pub game: usize,
    /// 1-based line where it starts.
    pub line: u32,
    /// The Event tag.
    pub event: Option<String>,
    /// The Site tag.
    pub site: Option<String>,
    /// The Date tag.
    pub date: Option<String>,
    /// The Round tag.
    pub round: Option<String>,
    /// The White tag.
    pub white: Option<String>,
    /// The Black tag.
    pub black: Option<String>,
    /// The variant the game was read as (or the refused variant it names);
    /// empty for a game of a refused file.
    pub variant: Option<&'static str>,
    /// What decided the variant (`tag`, `file`, `inferred`, `named`, `forced`,
    /// `unsupported`, `refused`).
    pub variant_source: &'static str,
    /// The draw rules applied (`cbjd`, `fmjd`, `none`).
    pub draw_rules: Option<&'static str>,
    /// The result the record declares, normalised (`2-0`, `0-2`, `1-1`, `0-0`, `*`).
    pub declared_result: Option<&'static str>,
    /// The result exactly as the record writes it (the Result tag, else the
    /// final token).
    pub declared_result_text: Option<String>,
    /// The result the replay computes (`2-0`, `0-2`, `1-1` or `*`).
    pub computed_result: &'static str,
    /// How the game ended (`no-moves`, `repetition`, `ending`, `king-moves`, `unfinished`).
    pub termination: &'static str,
    /// The ply after which it ended (0: the start position).
    pub termination_ply: Option<u32>,
    /// Plies of the main line that were read.
    pub plies: u32,
    /// Plies of the main line after the move that stopped the replay, not replayed.
    pub plies_unchecked: u32,
    /// Moves that stood (`--irregularities stand`; 0 under `stop`).
    pub irregularities: u32,
    /// Plies that captured.
    pub captures: u32,
    /// Most pieces taken by one move.
    pub longest_capture: u32,
    /// Plies that crowned a man.
    pub crownings: u32,
    /// Empty for a game that was not checked (an unsupported variant).
    pub valid: Option<bool>,
    /// Error findings.
    pub errors: u32,
    /// Warning findings.
    pub warnings: u32,
    /// The code of the first error finding.
    pub first_error_code: Option<&'static str>,
    /// The ply of the first error finding, if it is about a move.
    pub first_error_ply: Option<u32>,
    /// The table of the game's opening (docs/openings.md).
    pub opening_table: Option<&'static str>,
    /// The code of its row.
    pub opening_code: Option<&'static str>,
    /// Its name, the row's or the names table's.
    pub opening_name: Option<&'static str>,
    /// The ply after which the game is in the row's position.
    pub opening_plies: Option<u32>,
    /// `setup` or `moves`.
    pub opening_via: Option<&'static str>,
}

/// The result exactly as the record writes it ([`Game::result_text`]).
pub(super) fn declared_result_text(g: &Game) -> Option<String> {
    g.result_text().map(std::borrow::Cow::into_owned)
}

impl GameRow {
    /// The games table, defined once: each column's name, type and
    /// nullability, in order (the Parquet schema and Python's Arrow batches
    /// are made from it; [`GameRow::values`] gives a row's values).
    pub const TABLE: [Column; 34] = GAME_TABLE;
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
        game_columns()
    }
    /// The row's values in [`GameRow::TABLE`]'s order (the Parquet writer's and
    /// Python's rows), with `date` as days since 1970 (`None` for a partial or
    /// yearless date) and `date_text` the tag as written.
    pub fn values(&self) -> [Value<'_>; 34] {
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
        opening_table: r.opening.as_ref().map(|o| o.table),
        opening_code: r.opening.as_ref().map(|o| o.code),
        opening_name: r.opening.as_ref().and_then(|o| o.name),
        opening_plies: r.opening.as_ref().map(|o| o.plies),
        opening_via: r.opening.as_ref().map(|o| o.via),
    }
}
