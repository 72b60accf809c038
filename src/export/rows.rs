//! The moves table (`--moves`): a row per ply; and the spreadsheet escaping
//! of every text cell.

use crate::export::json::object;
use crate::export::value::Value;
use crate::notation::{write_move, Style};
use crate::pdn::Game;
use crate::piece::{Color, Kind};
use crate::replay::GameReport;
use crate::rules::play_unchecked;

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
    /// [`GameRow::write_json`](crate::export::GameRow::write_json) does for a game.
    pub fn write_json(&self, out: &mut String, tags: &[(&str, Option<&str>)]) {
        write_ply_row_json(out, self, tags)
    }
}

/// The fixed columns of the moves table (`--moves`), in order; `fen` follows
/// when asked for.
pub(super) const PLY_COLUMNS: [&str; 15] = [
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
pub(super) fn ply_columns(with_fen: bool) -> Vec<&'static str> {
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
pub(super) fn ply_rows_iter<'a>(
    file: &'a str,
    g: &'a Game,
    r: &'a GameReport,
    with_fen: bool,
) -> impl Iterator<Item = PlyRow> + 'a {
    let start_black = r.start.is_some_and(|p| p.side() == Color::Black);
    // The written tokens, walked beside the plies: a capture written one
    // jump per token (one ply) shows its tokens joined by a space.
    let mut tokens = g.main_line().peekable();
    r.played.iter().enumerate().map(move |(i, p)| {
        let mut written = String::new();
        while let Some(t) = tokens.next_if(|t| t.span.start < p.span.end) {
            if t.span.start >= p.span.start {
                if !written.is_empty() {
                    written.push(' ');
                }
                written.extend(String::from_utf8_lossy(g.bytes(&t.span)).split_whitespace());
            }
        }
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
            written,
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

/// A CSV cell as a spreadsheet may open it safely: a cell that Excel,
/// LibreOffice or Google Sheets would evaluate as a formula (starting with
/// `=`, `+`, `-`, `@`, a tab or a carriage return) gets a leading `'`. Plain
/// numbers (`-1`, `+3.5`) and `-` alone, common in PDN tags, are left as they
/// are. `convert --csv-raw` writes cells untouched.
pub(crate) fn spreadsheet_safe(cell: &str) -> std::borrow::Cow<'_, str> {
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

impl PlyRow {
    /// Every text cell made [`GameRow::safe_text`](super::GameRow::safe_text).
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

/// Appends the JSON line of a moves-table row with the `--tag` columns
/// `tags`, as [`write_game_row_json`] does for a game.
fn write_ply_row_json(out: &mut String, row: &PlyRow, tags: &[(&str, Option<&str>)]) {
    let n = |v: u32| Value::Int(Some(i64::from(v)));
    let mut fields: smallvec::SmallVec<[(&str, Value<'_>); 64]> = smallvec::smallvec![
        ("algebraic", Value::Text(row.algebraic.as_deref())),
        ("captured", n(row.captured)),
        ("captured_squares", Value::Text(Some(&row.captured_squares))),
        ("crowned", Value::Bool(Some(row.crowned))),
        ("file", Value::Text(Some(&row.file))),
        ("from", n(row.from)),
        ("game", Value::Int(Some(row.game as i64))),
        ("move", Value::Text(Some(&row.mv))),
        ("move_number", n(row.move_number)),
        ("piece", Value::Text(Some(row.piece))),
        ("ply", n(row.ply)),
        ("side", Value::Text(Some(row.side))),
        ("stood", Value::Bool(Some(row.stood))),
        ("to", n(row.to)),
        ("written", Value::Text(Some(&row.written))),
    ];
    if let Some(f) = &row.fen {
        fields.push(("fen", Value::Text(Some(f))));
    }
    object(out, &mut fields, tags);
}
