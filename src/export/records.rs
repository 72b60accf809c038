//! The records of `check --format json`: a game's and a file's.

use crate::export::json::write_game_json;
use crate::export::table::declared_result_text;
use crate::pdn::Game;
use crate::replay::GameReport;

/// One finding as `check --format json` writes it (docs/json.md).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub(super) struct DiagnosticRecord {
    /// `error`, `warning` or `note`.
    pub(super) severity: &'static str,
    /// The finding's stable code (docs/json.md).
    pub(super) code: &'static str,
    /// What is wrong, in words.
    pub(super) message: String,
    /// 1-based line of what it is about.
    pub(super) line: u32,
    /// 1-based column (in characters).
    pub(super) column: u32,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    /// 1-based ply in the main line, when it is about a move.
    pub(super) ply: Option<u32>,
    #[cfg_attr(
        feature = "serde",
        serde(rename = "move", skip_serializing_if = "Option::is_none")
    )]
    /// The move as written.
    pub(super) written: Option<String>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    /// The move number as the record numbers it (`12.`, `12...`).
    pub(super) move_number: Option<String>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    /// Further lines: positions, maximal captures.
    pub(super) notes: Vec<String>,
}

/// One game as `check --format json` writes it (docs/json.md): the record
/// other programs rely on.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct GameRecord {
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    /// `"game"`.
    pub(super) kind: &'static str,
    /// The file, as named on the command line or found in a folder.
    pub(super) file: String,
    /// 1-based index of the game in its file.
    pub(super) game: usize,
    /// 1-based line where it starts.
    pub(super) line: u32,
    /// The variant the game was read as (or the refused variant it names);
    /// null for a game of a refused file.
    pub(super) variant: Option<&'static str>,
    /// What decided the variant.
    pub(super) variant_source: &'static str,
    /// The draw rules applied (`cbjd`, `fmjd`, `none`).
    pub(super) draw_rules: Option<&'static str>,
    /// Whether the game was replayed (false for a refused variant, a refused
    /// file, and under `--syntax-only`).
    pub(super) checked: bool,
    /// Tag name to decoded value (the first of a repeated name).
    pub(super) tags: std::collections::BTreeMap<String, String>,
    /// Plies of the main line that were read.
    pub(super) plies: u32,
    /// Plies of the main line after the move that stopped the replay, not replayed.
    pub(super) plies_unchecked: u32,
    /// Moves that stood (`--irregularities stand`; 0 under `stop`).
    pub(super) irregularities: u32,
    /// No error finding (empty or null when not checked).
    pub(super) valid: Option<bool>,
    /// The result the record declares, normalised (`2-0`, `0-2`, `1-1`, `0-0`, `*`).
    pub(super) declared_result: Option<&'static str>,
    /// The result exactly as the record writes it.
    pub(super) declared_result_text: Option<String>,
    /// The result the replay computes (`2-0`, `0-2`, `1-1` or `*`).
    pub(super) computed_result: &'static str,
    /// How the game ended (`no-moves`, `repetition`, `ending`, `king-moves`, `unfinished`).
    pub(super) termination: &'static str,
    /// The ply after which it ended (0: the start position).
    pub(super) termination_ply: Option<u32>,
    /// The rule that ended it.
    pub(super) clause: Option<crate::draw::Clause>,
    /// The ballot or opening its positions reach (docs/openings.md).
    pub(super) opening: Option<crate::openings::Opening>,
    /// The findings, in order.
    pub(super) diagnostics: Vec<DiagnosticRecord>,
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
    pub(super) diagnostics: Vec<FileDiagnosticRecord<'a>>,
    /// The file, as named on the command line or found in a folder.
    pub(super) file: &'a str,
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    /// `"file"`.
    pub(super) kind: &'static str,
}

/// One finding about a file.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub(super) struct FileDiagnosticRecord<'a> {
    /// The finding's stable code (docs/json.md).
    pub(super) code: &'static str,
    /// 1-based column (in characters).
    pub(super) column: u32,
    /// 1-based line of what it is about.
    pub(super) line: u32,
    /// What is wrong, in words.
    pub(super) message: &'a str,
    /// `error`, `warning` or `note`.
    pub(super) severity: &'static str,
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
