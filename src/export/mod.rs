//! Rows for CSV and JSON Lines: one per game, or one per ply.

use crate::diag::Severity;
use crate::infer::VariantSource;
use crate::notation::{write_move, Style};
use crate::pdn::write::{write_game_with, Overrides, ResultStyle, WriteOptions};
use crate::pdn::{Game, Outcome};
use crate::piece::{Color, Kind};
use crate::replay::GameReport;
use crate::rules::play_unchecked;
use crate::variant::GameKind;

mod json;
use json::{write_game_json, write_game_row_json, write_ply_row_json};

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
const GAME_TABLE: [Column; 34] = [
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
const DIAGNOSTIC_FIELDS: [Column; 6] = [
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
fn game_columns() -> Vec<&'static str> {
    GAME_TABLE
        .iter()
        .map(|c| c.name)
        .filter(|n| *n != "date_text")
        .collect()
}

/// A game's values in [`GAME_TABLE`]'s order (the Parquet writer's and
/// Python's rows): the row, with `date` as days since 1970 (`None` for a
/// partial or yearless date) and `date_text` the tag as written.
fn table_values(row: &GameRow) -> [Value<'_>; 34] {
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
fn declared_result_text(g: &Game) -> Option<String> {
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

impl PlyRow {
    /// The moves-table rows of game `g` of `file`, replayed as `r` with
    /// [`crate::replay::Options::keep_moves`], one at a time: a game of
    /// millions of plies is written row by row, never held as rows
    /// (docs/limits.md). `with_fen` fills `fen`.
    pub fn rows<'a>(
        file: &'a str,
        g: &'a Game,
        r: &'a GameReport,
        with_fen: bool,
    ) -> impl Iterator<Item = PlyRow> + 'a {
        ply_rows_iter(file, g, r, with_fen)
    }
    /// The columns of the moves table, in order, with `fen` last when
    /// `with_fen`.
    pub fn columns(with_fen: bool) -> Vec<&'static str> {
        ply_columns(with_fen)
    }
    /// Appends the row's JSON line with the `--tag` columns `tags`, as
    /// [`GameRow::write_json`] does for a game.
    pub fn write_json(&self, out: &mut String, tags: &[(&str, Option<&str>)]) {
        write_ply_row_json(out, self, tags)
    }
}

/// The games-table row of a replayed game (`r` needs [`crate::replay::Options::keep_moves`]
/// for the capture and crowning counts).
fn game_row(file: &str, g: &Game, r: &GameReport) -> GameRow {
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

/// The fixed columns of the moves table (`--moves`), in order; `fen` follows
/// when asked for.
const PLY_COLUMNS: [&str; 15] = [
    "file",
    "game",
    "ply",
    "move_number",
    "side",
    "written",
    "move",
    "algebraic",
    "from",
    "to",
    "captured",
    "captured_squares",
    "piece",
    "crowned",
    "stood",
];

/// The columns of the moves table, with `fen` last when `with_fen`.
fn ply_columns(with_fen: bool) -> Vec<&'static str> {
    let mut cols = PLY_COLUMNS.to_vec();
    if with_fen {
        cols.push("fen");
    }
    cols
}

/// One row of the moves table.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PlyRow {
    /// The file, as named on the command line or found in a folder.
    pub file: String,
    /// 1-based index of the game in its file.
    pub game: usize,
    /// 1-based ply in the main line.
    pub ply: u32,
    /// The move number as the record numbers it.
    pub move_number: u32,
    /// The side that moved (`white`, `black`).
    pub side: &'static str,
    /// As written in the file.
    pub written: String,
    /// Canonical numeric form: `32-28`, `28x19` or the full path when the short form is ambiguous.
    #[cfg_attr(feature = "serde", serde(rename = "move"))]
    pub mv: String,
    /// Algebraic form (8x8 only).
    pub algebraic: Option<String>,
    /// The square it starts from (number).
    pub from: u32,
    /// The square it ends on (number).
    pub to: u32,
    /// Pieces taken.
    pub captured: u32,
    /// Captured squares separated by spaces.
    pub captured_squares: String,
    /// The piece that moved (`man`, `king`).
    pub piece: &'static str,
    /// Whether it crowned.
    pub crowned: bool,
    /// Whether it was an irregularity that stood (`--irregularities stand`).
    pub stood: bool,
    /// FEN after the move (with `--fen`; left out of the row without it).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub fen: Option<String>,
}

/// The moves-table rows of a replayed game (needs `keep_moves`), one at a time: a game of millions of plies is written row
/// by row, never held as rows (docs/limits.md).
fn ply_rows_iter<'a>(
    file: &'a str,
    g: &'a Game,
    r: &'a GameReport,
    with_fen: bool,
) -> impl Iterator<Item = PlyRow> + 'a {
    let start_black = r.start.is_some_and(|p| p.side() == Color::Black);
    r.played.iter().enumerate().map(move |(i, p)| {
        let ply = i as u32 + 1;
        let index = i as u32 + u32::from(start_black);
        let numeric = write_move(
            &p.before,
            &p.mv,
            Style {
                algebraic: false,
                colon: false,
            },
        );
        let algebraic = (p.before.size().n() == 8).then(|| {
            write_move(
                &p.before,
                &p.mv,
                Style {
                    algebraic: true,
                    colon: false,
                },
            )
        });
        PlyRow {
            file: file.to_string(),
            game: g.index,
            ply,
            move_number: index / 2 + 1,
            side: if p.before.side() == Color::White {
                "white"
            } else {
                "black"
            },
            written: String::from_utf8_lossy(g.bytes(&p.span))
                .split_whitespace()
                .collect(),
            mv: numeric,
            algebraic,
            from: p.mv.from.number(),
            to: p.mv.to.number(),
            captured: p.mv.capture_count(),
            captured_squares: {
                let mut list = String::new();
                for (i, s) in p.mv.captured.squares().enumerate() {
                    if i > 0 {
                        list.push(' ');
                    }
                    list.push_str(itoa::Buffer::new().format(s.number()));
                }
                list
            },
            piece: if p.mv.kind == Kind::King {
                "king"
            } else {
                "man"
            },
            crowned: p.mv.crowns,
            stood: p.stood,
            fen: with_fen.then(|| play_unchecked(&p.before, &p.mv).to_fen()),
        }
    })
}

/// One finding as `check --format json` writes it (docs/json.md).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
struct DiagnosticRecord {
    /// `error`, `warning` or `note`.
    severity: &'static str,
    /// The finding's stable code (docs/json.md).
    code: &'static str,
    /// What is wrong, in words.
    message: String,
    /// 1-based line of what it is about.
    line: u32,
    /// 1-based column (in characters).
    column: u32,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    /// 1-based ply in the main line, when it is about a move.
    ply: Option<u32>,
    #[cfg_attr(
        feature = "serde",
        serde(rename = "move", skip_serializing_if = "Option::is_none")
    )]
    /// The move as written.
    written: Option<String>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    /// The move number as the record numbers it (`12.`, `12...`).
    move_number: Option<String>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    /// Further lines: positions, maximal captures.
    notes: Vec<String>,
}

/// One game as `check --format json` writes it (docs/json.md): the record
/// other programs rely on.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct GameRecord {
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    /// `"game"`.
    kind: &'static str,
    /// The file, as named on the command line or found in a folder.
    file: String,
    /// 1-based index of the game in its file.
    game: usize,
    /// 1-based line where it starts.
    line: u32,
    /// The variant the game was read as (or the refused variant it names);
    /// null for a game of a refused file.
    variant: Option<&'static str>,
    /// What decided the variant.
    variant_source: &'static str,
    /// The draw rules applied (`cbjd`, `fmjd`, `none`).
    draw_rules: Option<&'static str>,
    /// Whether the game was replayed (false for a refused variant, a refused
    /// file, and under `--syntax-only`).
    checked: bool,
    /// Tag name to decoded value (the first of a repeated name).
    tags: std::collections::BTreeMap<String, String>,
    /// Plies of the main line that were read.
    plies: u32,
    /// Plies of the main line after the move that stopped the replay, not replayed.
    plies_unchecked: u32,
    /// Moves that stood (`--irregularities stand`; 0 under `stop`).
    irregularities: u32,
    /// No error finding (empty or null when not checked).
    valid: Option<bool>,
    /// The result the record declares, normalised (`2-0`, `0-2`, `1-1`, `0-0`, `*`).
    declared_result: Option<&'static str>,
    /// The result exactly as the record writes it.
    declared_result_text: Option<String>,
    /// The result the replay computes (`2-0`, `0-2`, `1-1` or `*`).
    computed_result: &'static str,
    /// How the game ended (`no-moves`, `repetition`, `ending`, `king-moves`, `unfinished`).
    termination: &'static str,
    /// The ply after which it ended (0: the start position).
    termination_ply: Option<u32>,
    /// The rule that ended it.
    clause: Option<crate::draw::Clause>,
    /// The ballot or opening its positions reach (docs/openings.md).
    opening: Option<crate::openings::Opening>,
    /// The findings, in order.
    diagnostics: Vec<DiagnosticRecord>,
}

impl GameRecord {
    /// The record of a game and its report; lines and columns are found going
    /// forward through the game (linear in its size).
    pub fn new(file: &str, g: &Game, r: &GameReport) -> GameRecord {
        let mut loc = crate::pdn::Locator::new(g);
        let diagnostics = r
            .diagnostics
            .iter()
            .map(|d| {
                let (line, column) = loc.locate(d.span.start);
                DiagnosticRecord {
                    severity: d.severity.as_str(),
                    code: d.code.as_str(),
                    message: d.message.to_string(),
                    line,
                    column,
                    ply: d.ply,
                    written: d.written.clone(),
                    move_number: d
                        .number
                        .map(|(n, second)| format!("{n}{}", if second { "..." } else { "." })),
                    notes: d.notes.clone(),
                }
            })
            .collect();
        let mut tags = std::collections::BTreeMap::new();
        for t in &g.tags {
            tags.entry(g.tag_name(t).to_string())
                .or_insert_with(|| g.tag_value(t));
        }
        GameRecord {
            kind: "game",
            file: file.to_string(),
            game: g.index,
            line: g.start_line(),
            variant: r.kind.map(|k| k.name()),
            variant_source: r.source.as_str(),
            draw_rules: r.draw_rules.map(|d| d.name()),
            checked: r.checked,
            tags,
            plies: r.plies,
            plies_unchecked: r.plies_unchecked,
            irregularities: r.irregularities,
            valid: r.verdict(),
            declared_result: r.declared.map(|o| o.normalised()),
            declared_result_text: declared_result_text(g),
            computed_result: r.computed.normalised(),
            termination: r.termination.name(),
            termination_ply: r.termination_ply,
            clause: r.clause,
            opening: r.opening.clone(),
            diagnostics,
        }
    }

    /// Appends the JSON line (with its line break) of game `g` of `file`,
    /// replayed as `r`, straight into a reused buffer: byte for byte what
    /// serializing [`GameRecord::new`] with `serde_json` gives, followed by
    /// `\n`, without building the record (its map of tags, its copied
    /// strings) first. The hot path of `check --format json`.
    pub fn write_json(out: &mut String, file: &str, g: &Game, r: &GameReport) {
        write_game_json(out, file, g, r)
    }
}

/// A file's findings as `check --format json` writes them (`type: "file"`;
/// fields in alphabetical order, the order they have always been written in).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct FileRecord<'a> {
    /// The findings, in order.
    diagnostics: Vec<FileDiagnosticRecord<'a>>,
    /// The file, as named on the command line or found in a folder.
    file: &'a str,
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    /// `"file"`.
    kind: &'static str,
}

/// One finding about a file.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
struct FileDiagnosticRecord<'a> {
    /// The finding's stable code (docs/json.md).
    code: &'static str,
    /// 1-based column (in characters).
    column: u32,
    /// 1-based line of what it is about.
    line: u32,
    /// What is wrong, in words.
    message: &'a str,
    /// `error`, `warning` or `note`.
    severity: &'static str,
}

impl<'a> FileRecord<'a> {
    /// The record of `file`'s findings.
    pub fn new(file: &'a str, findings: &'a [crate::diag::FileDiagnostic]) -> FileRecord<'a> {
        FileRecord {
            diagnostics: findings
                .iter()
                .map(|d| FileDiagnosticRecord {
                    code: d.code.as_str(),
                    column: d.column,
                    line: d.line,
                    message: &d.message,
                    severity: d.severity.as_str(),
                })
                .collect(),
            file,
            kind: "file",
        }
    }
}

/// How a game is written as normalised PDN ([`Normalise::apply`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Normalise {
    /// The result family (English games are always written in checkers order).
    pub results: ResultStyle,
    /// Write the computed result where the declared one is wrong or missing.
    pub fix_results: bool,
    /// The output merges games of several files (or of a selection): a game
    /// whose variant its file decided carries the decided GameType and
    /// pdnkit's marker (as [`marked`] adds them), so that it reads back the same.
    pub merged: bool,
}

/// The tags a game needs in a merged output to read back as it was read in
/// its source: the GameType its file decided (none for a refused or
/// undecided game), and the value of pdnkit's marker
/// ([`crate::infer::MARKER_TAG`]). `None` for a game whose own tag, or
/// `--force-variant`, gave its variant.
fn marker_for(r: &GameReport) -> Option<(Option<u32>, String)> {
    let source = match r.source {
        VariantSource::Inferred
        | VariantSource::File
        | VariantSource::Named
        | VariantSource::Refused
        | VariantSource::Undecided => r.source,
        VariantSource::Tag | VariantSource::Forced | VariantSource::Unsupported => return None,
    };
    let game_type = match (source, r.kind) {
        (VariantSource::Refused | VariantSource::Undecided, _) => None,
        (_, Some(GameKind::Known(v))) => Some(v.game_type()),
        // Read only: no variant was decided, nothing to keep.
        _ => return None,
    };
    let marker = crate::infer::Marker {
        source,
        order_known: !r.result_as_written,
    };
    Some((game_type, marker.value()))
}

/// A game's own bytes as a merged output writes them (`select`, or several
/// files into one): `text` (the game's text, or a part of it that starts
/// before its first tag) with the GameType its file decided and pdnkit's
/// marker (the `VariantSource` tag) added after its last tag, in its line
/// ends, when the game's variant came from its file; borrowed as it is when
/// its own tag, or `--force-variant`, gave its variant. Tags it has already
/// are kept.
pub fn marked<'t>(g: &Game, r: &GameReport, text: &'t [u8]) -> std::borrow::Cow<'t, [u8]> {
    let Some((game_type, marker)) = marker_for(r) else {
        return std::borrow::Cow::Borrowed(text);
    };
    let mut add = Vec::new();
    if let Some(t) = game_type {
        add.push(("GameType", t.to_string()));
    }
    add.push((crate::pdn::MARKER_TAG, marker));
    std::borrow::Cow::Owned(with_tags(g, text, &add))
}

/// `text` with tag lines added after its last tag (before its first line
/// when it has none), in its line ends. Tags it has already are kept.
fn with_tags(g: &Game, text: &[u8], add: &[(&str, String)]) -> Vec<u8> {
    let eol: &[u8] = if text.windows(2).any(|w| w == b"\r\n") {
        b"\r\n"
    } else {
        b"\n"
    };
    let mut lines = Vec::new();
    for (name, value) in add {
        if g.find_tag(name).is_some() {
            continue;
        }
        lines.extend_from_slice(
            format!("[{name} \"{}\"]", crate::pdn::write::escape(value)).as_bytes(),
        );
        lines.extend_from_slice(eol);
    }
    if lines.is_empty() {
        return text.to_vec();
    }
    // The end of the last tag, as an offset into `text` (which may be the
    // game's text without its leading space).
    let whole = g.text();
    let lead = (text.as_ptr() as usize)
        .checked_sub(whole.as_ptr() as usize)
        .filter(|&d| d + text.len() <= whole.len())
        .unwrap_or(0);
    let after_tags = g.tags().last().map(|t| {
        let end = t.span().end.saturating_sub(lead).min(text.len());
        // To the end of that line when nothing but space follows the tag on
        // it; else right after the tag (movetext on the tag's line stays
        // after the new tags).
        let rest = &text[end..];
        let line_end = rest.iter().position(|&b| b == b'\n');
        match line_end {
            Some(i) if rest[..i].iter().all(u8::is_ascii_whitespace) => (end + i + 1, false),
            None if rest.iter().all(u8::is_ascii_whitespace) => (text.len(), true),
            _ => (end, true),
        }
    });
    let mut out = Vec::with_capacity(text.len() + lines.len() + 2);
    match after_tags {
        Some((at, break_first)) => {
            out.extend_from_slice(&text[..at]);
            if break_first {
                out.extend_from_slice(eol);
            }
            out.extend_from_slice(&lines);
            out.extend_from_slice(&text[at..]);
        }
        None => {
            out.extend_from_slice(&lines);
            out.extend_from_slice(text);
        }
    }
    out
}

/// A game written back as normalised PDN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Normalised {
    /// The PDN text (ending with a blank line).
    pub text: String,
    /// With [`Normalise::fix_results`]: the result replaced, (declared, computed).
    pub fixed: Option<(Option<Outcome>, Outcome)>,
    /// Moves that stood in the game (`--irregularities stand`): a fixed
    /// result is the result of the game as played.
    pub stood: u32,
}

impl Normalised {
    /// With a result replaced: `Result DECLARED -> COMPUTED` (`(none)` when
    /// the record had none), what `convert --fix-results` lists.
    pub fn fix_note(&self) -> Option<String> {
        self.fixed.map(|(declared, computed)| {
            format!(
                "Result {} -> {}{}",
                declared.map_or("(none)", |o| o.normalised()),
                computed.normalised(),
                as_played(self.stood)
            )
        })
    }
}

/// What a result fixed after irregularities that stood is: the result of
/// the game as played (empty when none stood).
fn as_played(stood: u32) -> String {
    match stood {
        0 => String::new(),
        1 => " (the game as played, after 1 irregular move that stood)".into(),
        n => format!(" (the game as played, after {n} irregular moves that stood)"),
    }
}

/// [`Normalise::apply`].
fn normalised_pdn(g: &Game, r: &GameReport, opts: Normalise) -> Normalised {
    let mut style = g.main_line().next().map_or(
        Style {
            algebraic: false,
            colon: false,
        },
        |m| Style::of(g.squares(m), m.sep),
    );
    // Captures written with `:` anywhere keep `:` (it is also the evidence
    // a file without GameType is read as Russian by).
    style.colon |= g.main_line().any(|m| m.sep() == crate::pdn::Sep::Colon);
    // Italian records are numeric: the writer uses numbers (RULES.md 7), so
    // that no square name of the mirrored board is read on the usual one.
    let numbers_only = r.variant == Some(crate::variant::Variant::Italian);
    style.algebraic &= !numbers_only;
    // Each move in its shortest unambiguous form, except a capture whose
    // record wrote a path that names it alone: that path is kept as written.
    let written: Vec<&crate::pdn::WrittenMove> = g.main_line().collect();
    let main: Vec<String> = r
        .played
        .iter()
        .enumerate()
        .map(|(i, p)| {
            // A move that stood (`--irregularities stand`) keeps its squares
            // as written: they were read against the relaxed moves, and read
            // back the same way.
            let kept = written.get(i).filter(|w| {
                p.stood
                    || (p.mv.is_capture()
                        && g.squares(w).len() > 2
                        && matches!(
                            crate::notation::resolve(&p.before, g.squares(w), w.sep),
                            Ok(crate::notation::Reading::Move { mv, .. }) if mv == p.mv
                        ))
            });
            match kept {
                Some(w) => {
                    let sep = match (p.mv.is_capture(), style.colon) {
                        (false, _) => "-",
                        (true, true) => ":",
                        (true, false) => "x",
                    };
                    let geometry = p.before.geometry();
                    g.squares(w)
                        .iter()
                        .map(|&s| match crate::notation::square_of(geometry, s) {
                            Ok(sq) if numbers_only => sq.number().to_string(),
                            _ => s.to_string(),
                        })
                        .collect::<Vec<_>>()
                        .join(sep)
                }
                None => write_move(&p.before, &p.mv, style),
            }
        })
        .collect();
    let fixed = (opts.fix_results
        && !r.result_as_written
        && r.computed != Outcome::Unknown
        && r.declared != Some(r.computed))
    .then_some((r.declared, r.computed));
    let write = WriteOptions {
        results: opts.results,
        first: r.start.map(|p| p.side()),
        variant: r.variant,
        keep_results: r.result_as_written,
    };
    // A GameType is written only where the game had one or the user named
    // the variant: an inferred variant is never written as a fact, except in
    // a merged output, where the marker says it was inferred.
    // A decision that rested on the path is kept as in a merged output:
    // under another name the games would read back otherwise (issue 54).
    let marked = (opts.merged || r.from_path)
        .then(|| marker_for(r))
        .flatten();
    let game_type = match (r.source, r.kind, &marked) {
        (_, _, Some((t, _))) => *t,
        (VariantSource::Named | VariantSource::Forced, Some(GameKind::Known(v)), _) => {
            Some(v.game_type())
        }
        _ => None,
    };
    let text = write_game_with(
        g,
        write,
        &Overrides {
            main_moves: &main,
            result: fixed.map(|f| f.1),
            game_type,
            replace_game_type: r.source == VariantSource::Forced,
            agree: opts.fix_results && !r.result_as_written,
            marker: marked.map(|(_, m)| m),
        },
    );
    Normalised {
        text,
        fixed,
        stood: r.irregularities,
    }
}

/// Why a game's file must not be rewritten in place: what could not be read
/// would be lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NotRewritable {
    /// Reader errors: text skipped after a syntax error, an unterminated comment.
    #[error("has {0} reader error(s)")]
    ReaderErrors(usize),
    /// Not a single tag pair: the text does not look like PDN.
    #[error("has no tag pair: this does not look like PDN")]
    NoTags,
}

/// [`Normalise::rewritable`].
fn rewritable(g: &Game) -> Result<(), NotRewritable> {
    let errors = g
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    if errors > 0 {
        Err(NotRewritable::ReaderErrors(errors))
    } else if g.tags.is_empty() {
        Err(NotRewritable::NoTags)
    } else {
        Ok(())
    }
}

/// One change to a file's bytes: at `offset`, the bytes `old` replaced by `new`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Patch {
    /// Byte offset in the file.
    pub offset: u64,
    /// The bytes that must be there (empty for an insertion).
    pub old: Vec<u8>,
    /// What replaces them.
    pub new: String,
}

/// What `--in-place --fix-results` does to one game: the patches, and each
/// change in the file's own words, or why it left the game alone.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResultFix {
    /// The byte changes (empty: nothing changed).
    pub patches: Vec<Patch>,
    /// Each change as a person reads it: `Result tag 1-1 -> 0-2`,
    /// `terminator 1/2-1/2 -> 0-2 (the Result tag's)`, `terminator added: 0-2`.
    pub changes: Vec<String>,
    /// Why nothing was changed where something disagrees (`None`: nothing
    /// to fix, or fixed).
    pub left: Option<&'static str>,
}

/// Whether a result text is of the `1-0`, `0-1`, `1/2-1/2` family.
fn classic_text(text: &str) -> bool {
    matches!(text.trim(), "1-0" | "0-1" | "1/2-1/2")
}

/// [`ResultFix::of`].
fn result_fixes(g: &Game, r: &GameReport, results: Option<ResultStyle>) -> ResultFix {
    if r.result_as_written {
        return ResultFix {
            left: Some("a 1-0 or 0-1 whose meaning depends on the variant, which is not known"),
            ..ResultFix::default()
        };
    }
    let v = r.variant;
    let at = |i: usize| g.offset() + i as u64;
    let tag = g
        .tags()
        .iter()
        .find(|t| g.tag_name(t).eq_ignore_ascii_case("Result"));
    let tag_text = tag.map(|t| g.tag_value(t));
    let tag_outcome = tag_text.as_deref().and_then(|t| Outcome::parse_for(t, v));
    let token_text = g
        .result()
        .map(|(_, span)| String::from_utf8_lossy(g.bytes(span)).trim().to_string());
    let token = g.result().map(|(o, span)| {
        (
            Outcome::parse_for(&String::from_utf8_lossy(g.bytes(span)), v).unwrap_or(*o),
            span.clone(),
        )
    });
    let computed_fix = r.computed != Outcome::Unknown && r.declared != Some(r.computed);
    let want =
        if computed_fix {
            r.computed
        } else {
            match (tag_outcome, &token) {
                // The replay cannot decide and the two disagree: left as they are.
                (Some(t), Some((o, _))) if t != *o => return ResultFix {
                    left: Some(
                        "the Result tag and the terminator disagree, and the replay cannot decide",
                    ),
                    ..ResultFix::default()
                },
                // A tag and no token: the token is added.
                (Some(t), None) => t,
                // A token and no tag, or both agreeing: nothing contradicts.
                _ => return ResultFix::default(),
            }
        };
    // The file's own family: the game's tag text first, then its token's.
    let style = results.unwrap_or_else(|| {
        let own = tag_text
            .as_deref()
            .filter(|t| Outcome::parse(t).is_some_and(|o| o != Outcome::Unknown))
            .or(token_text
                .as_deref()
                .filter(|t| Outcome::parse(t).is_some_and(|o| o != Outcome::Unknown)));
        match own {
            Some(t) if classic_text(t) => ResultStyle::Classic,
            _ => ResultStyle::Draughts,
        }
    });
    let text = style.token_for(want, v);
    let eol = if g.text().windows(2).any(|w| w == b"\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    let mut fix = ResultFix::default();
    match tag {
        Some(t) if tag_outcome != Some(want) => {
            fix.patches.push(Patch {
                offset: at(t.value_span().start),
                old: g.bytes(&t.value_span()).to_vec(),
                new: text.to_string(),
            });
            fix.changes.push(format!(
                "Result tag {} -> {text}{}",
                tag_text.as_deref().unwrap_or(""),
                as_played(r.irregularities)
            ));
        }
        Some(_) => {}
        None => {
            // Right after the last tag, on a line of its own.
            let end = g.tags().last().map_or(0, |t| t.span().end);
            fix.patches.push(Patch {
                offset: at(end),
                old: Vec::new(),
                new: format!("{eol}[Result \"{text}\"]"),
            });
            fix.changes.push(format!(
                "Result tag added: {text}{}",
                as_played(r.irregularities)
            ));
        }
    }
    let from_tag = if computed_fix {
        as_played(r.irregularities)
    } else {
        " (the Result tag's)".to_string()
    };
    match &token {
        Some((o, span)) if *o != want => {
            fix.patches.push(Patch {
                offset: at(span.start),
                old: g.bytes(span).to_vec(),
                new: text.to_string(),
            });
            fix.changes.push(format!(
                "terminator {} -> {text}{from_tag}",
                token_text.as_deref().unwrap_or("")
            ));
        }
        Some(_) => {}
        None => {
            // After the last thing of the movetext; a `;` comment or a `%`
            // line runs to its line's end, and a game with no movetext ends
            // with a tag: the token goes on a line of its own.
            let last = g
                .text()
                .iter()
                .rposition(|b| !b.is_ascii_whitespace())
                .map_or(0, |i| i + 1);
            let tags_end = g.tags().last().map_or(0, |t| t.span().end);
            let line_end = g.nodes().is_empty()
                || last <= tags_end
                || matches!(g.nodes().last(), Some(crate::pdn::Node::Escape(_)))
                || matches!(g.nodes().last(), Some(crate::pdn::Node::Comment(s)) if s.start > 0 && g.text().get(s.start - 1) == Some(&b';'));
            fix.patches.push(Patch {
                offset: at(last),
                old: Vec::new(),
                new: if line_end {
                    format!("{eol}{text}")
                } else {
                    format!(" {text}")
                },
            });
            fix.changes
                .push(format!("terminator added: {text}{from_tag}"));
        }
    }
    fix
}

/// Why a file's patches cannot be applied.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "its bytes at offset {0} are not those read (a UTF-16 file, or changed since): not patched"
)]
pub struct PatchMismatch(pub u64);

/// The file's bytes with `patches` applied (in any order; none may overlap).
fn apply_patches(original: &[u8], patches: &[Patch]) -> Result<Vec<u8>, PatchMismatch> {
    let mut sorted: Vec<&Patch> = patches.iter().collect();
    sorted.sort_by_key(|p| p.offset);
    let mut out = Vec::with_capacity(original.len() + 64 * patches.len());
    let mut at = 0usize;
    for p in sorted {
        let start = usize::try_from(p.offset).map_err(|_| PatchMismatch(p.offset))?;
        let end = start + p.old.len();
        if start < at || original.get(start..end) != Some(&p.old[..]) {
            return Err(PatchMismatch(p.offset));
        }
        out.extend_from_slice(&original[at..start]);
        out.extend_from_slice(p.new.as_bytes());
        at = end;
    }
    out.extend_from_slice(&original[at..]);
    Ok(out)
}

/// A CSV cell as a spreadsheet may open it safely: a cell that Excel,
/// LibreOffice or Google Sheets would evaluate as a formula (starting with
/// `=`, `+`, `-`, `@`, a tab or a carriage return) gets a leading `'`. Plain
/// numbers (`-1`, `+3.5`) and `-` alone, common in PDN tags, are left as they
/// are. `convert --csv-raw` writes cells untouched.
pub fn spreadsheet_safe(cell: &str) -> std::borrow::Cow<'_, str> {
    let risky = matches!(
        cell.as_bytes().first(),
        Some(b'=' | b'+' | b'-' | b'@' | b'\t' | b'\r')
    );
    // A sign, digits, and at most one `.` between digits.
    let plain_number = |s: &str| {
        let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
        let mut parts = digits.split('.');
        let whole = parts.next().unwrap_or("");
        let frac = parts.next();
        parts.next().is_none()
            && !whole.is_empty()
            && whole.bytes().all(|b| b.is_ascii_digit())
            && frac.is_none_or(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()))
    };
    if !risky || cell == "-" || plain_number(cell) {
        std::borrow::Cow::Borrowed(cell)
    } else {
        std::borrow::Cow::Owned(format!("'{cell}"))
    }
}

impl GameRow {
    /// Every text cell made [`spreadsheet_safe`].
    pub fn spreadsheet_safe(mut self) -> GameRow {
        let safe = |s: &mut String| {
            if let std::borrow::Cow::Owned(o) = spreadsheet_safe(s) {
                *s = o;
            }
        };
        safe(&mut self.file);
        for s in [
            &mut self.event,
            &mut self.site,
            &mut self.date,
            &mut self.round,
            &mut self.white,
            &mut self.black,
            &mut self.declared_result_text,
        ]
        .into_iter()
        .flatten()
        {
            safe(s);
        }
        self
    }
}

impl PlyRow {
    /// Every text cell made [`spreadsheet_safe`].
    pub fn spreadsheet_safe(mut self) -> PlyRow {
        let safe = |s: &mut String| {
            if let std::borrow::Cow::Owned(o) = spreadsheet_safe(s) {
                *s = o;
            }
        };
        safe(&mut self.file);
        safe(&mut self.written);
        self
    }
}

impl Normalise {
    /// Whether normalised PDN can stand for the game's text (a file may be
    /// rewritten in place), or why not: reader errors (text skipped after a
    /// syntax error, an unterminated comment) or no tag pair at all would
    /// lose what could not be read.
    pub fn rewritable(g: &Game) -> Result<(), NotRewritable> {
        rewritable(g)
    }
    /// Game `g`, replayed as `r` with `keep_moves`, written back as normalised PDN: its
    /// main-line moves in their shortest unambiguous form in the file's own style
    /// (numeric or algebraic, `x` or `:`; an ambiguous short capture gets its full
    /// path; a path the record wrote is kept, and so are the squares of a move
    /// that stood), tags one per line, move numbers
    /// and variations placed as the reader placed them, and a GameType only where
    /// the game had one or the user named the variant (`--variant`,
    /// `--force-variant`). With [`Normalise::fix_results`] the Result tag and the
    /// final token agree.
    pub fn apply(self, g: &Game, r: &GameReport) -> Normalised {
        normalised_pdn(g, r, self)
    }
}

impl ResultFix {
    /// The fixes `--in-place --fix-results` makes to a game. The result is the
    /// computed one where the record's is wrong or missing, else the Result
    /// tag's where the final token disagrees with it (or is missing). Only the
    /// Result tag's value and the final token change: a missing Result tag is
    /// added after the last tag, a missing token after the movetext (on a line
    /// of its own when the game has no movetext, never on a tag's line). Every
    /// other byte stays. A result is written in `results`' family when given,
    /// else in the game's own (its tag's text first), and always in its
    /// variant's order (English: the first player's score first). Nothing is
    /// changed where the result's meaning is not known, nor where the replay
    /// cannot decide and the tag and the terminator disagree.
    pub fn of(g: &Game, r: &GameReport, results: Option<ResultStyle>) -> ResultFix {
        result_fixes(g, r, results)
    }
}

impl Patch {
    /// The file's bytes with `patches` applied (in any order; none may
    /// overlap), or where a patch's old bytes are not there.
    pub fn apply_all(original: &[u8], patches: &[Patch]) -> Result<Vec<u8>, PatchMismatch> {
        apply_patches(original, patches)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_a_spreadsheet_would_evaluate_are_quoted() {
        for (cell, want) in [
            ("=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"),
            ("@SUM(1+1)", "'@SUM(1+1)"),
            ("+cmd", "'+cmd"),
            ("-2+3", "'-2+3"),
            ("\tx", "'\tx"),
            ("\rx", "'\rx"),
            ("-", "-"),
            ("-1", "-1"),
            ("+3.5", "+3.5"),
            ("2-0", "2-0"),
            ("Sijbrands, Ton", "Sijbrands, Ton"),
            ("", ""),
        ] {
            assert_eq!(spreadsheet_safe(cell), want, "{cell}");
        }
    }

    /// The normalised text of the first game of `pdn`.
    fn normalised(pdn: &[u8]) -> String {
        let g = &crate::pdn::read_all(pdn)[0];
        let r = crate::check::check_game(g, &crate::Options::default().keep_moves(true));
        normalised_pdn(g, &r, Normalise::default()).text
    }

    #[test]
    fn italian_games_are_written_in_numbers_of_the_mirrored_board() {
        // b3-a4 is 21-17 on the Italian board (on the usual one: 21-17 is a3-b4).
        let text = normalised(b"[GameType \"22\"]\n\n1. b3-a4 c6-b5 2. a4xc6 *\n");
        assert!(text.contains("1. 21-17 10-13 2. 17x10 *"), "{text}");
        // A path the record wrote is kept, in numbers.
        let text =
            normalised(b"[GameType \"22\"]\n[FEN \"W:WK26:B5,15,K22,K14,K7\"]\n1. c2xe4xc6xa8 *\n");
        assert!(text.contains("1. 26x19x10x1 *"), "{text}");
        // The usual board keeps the record's own algebraic style.
        let text = normalised(b"[GameType \"26\"]\n\n1. c3-d4 f6-e5 *\n");
        assert!(text.contains("1. c3-d4 f6-e5 *"), "{text}");
    }

    #[test]
    fn patches_apply_in_place_and_refuse_what_moved() {
        let text = b"[Result \"1-1\"]\n1. 32-28 *\n";
        let p = [
            Patch {
                offset: 9,
                old: b"1-1".to_vec(),
                new: "2-0".into(),
            },
            Patch {
                offset: 24,
                old: b"*".to_vec(),
                new: "2-0".into(),
            },
        ];
        assert_eq!(
            apply_patches(text, &p).unwrap(),
            b"[Result \"2-0\"]\n1. 32-28 2-0\n".to_vec()
        );
        let moved = [Patch {
            offset: 10,
            old: b"1-1".to_vec(),
            new: "2-0".into(),
        }];
        assert_eq!(apply_patches(text, &moved), Err(PatchMismatch(10)));
    }
}
