//! A user's opening table (`--opening-table FILE`, OPENINGS.md 3.1), like
//! pgn-extract's eco file: CSV in the shipped tables' format, or PDN with a
//! game per row. Every row is replayed under the rules of its variants; a
//! row that does not replay, or whose moves do not give its `fen`, is left
//! out with a warning naming the file, the row and why.

use super::{check_game_alone, Options};
use crate::position::Position;
use crate::variant::Variant;

/// A row read and checked, in the shipped tables' text form.
struct Row {
    code: String,
    name: String,
    variants: Vec<Variant>,
    start_fen: Option<String>,
    /// Its moves by square numbers (`21-17`, `22x13`).
    moves: Vec<String>,
    fen: String,
    aliases: Vec<String>,
}

impl Row {
    /// The row as a line of the shipped tables' text (tabs between columns).
    fn line(&self) -> String {
        let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
        let variants: Vec<&str> = self.variants.iter().map(|v| v.name()).collect();
        [
            clean(&self.code),
            clean(&self.name),
            variants.join(" "),
            self.start_fen.clone().unwrap_or_default(),
            self.moves.join(" "),
            self.fen.clone(),
            clean(&self.aliases.join("|")),
        ]
        .join("\t")
    }
}

/// Reads the table in `path` (`.csv` or `.pdn`), checks every row, and
/// registers it: (its name, a warning for each row left out). An error when
/// the file cannot be read, is not a table, or has no row that can be used.
pub(crate) fn load(path: &str) -> Result<(String, Vec<String>), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "{path}: not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        )
    })?;
    let stem = std::path::Path::new(path)
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| path.to_string());
    let is_pdn = path.to_ascii_lowercase().ends_with(".pdn");
    let (name, rows, mut warnings) = if is_pdn {
        let (rows, warnings) = pdn_rows(&text);
        (stem, rows, warnings)
    } else {
        csv_rows(&text, &stem)?
    };
    for w in &mut warnings {
        *w = format!("{path}: {w}");
    }
    if rows.is_empty() {
        return Err(format!("{path}: no row of the table can be used"));
    }
    let mut table = String::from("code\tname\tvariants\tstart_fen\tmoves\tfen\taliases\n");
    for r in &rows {
        table.push_str(&r.line());
        table.push('\n');
    }
    let name = crate::openings::register(&name, table).map_err(|e| format!("{path}: {e}"))?;
    Ok((name.to_string(), warnings))
}

/// The rows of a CSV table: `# key: value` lines (`table`, `variants`,
/// `title`, `source`), then CSV with a header (`code` required, `fen`
/// and/or `moves`, optional `name`, `variants`, `start_fen`, `aliases`,
/// `status`). Its name is its `table` line's, else `stem`.
fn csv_rows(text: &str, stem: &str) -> Result<(String, Vec<Row>, Vec<String>), String> {
    let mut name = stem.to_string();
    let mut variants: Vec<Variant> = Vec::new();
    let mut head_lines = 0;
    for line in text.lines() {
        let Some(h) = line.strip_prefix('#') else {
            break;
        };
        head_lines += 1;
        if let Some((k, v)) = h.split_once(':') {
            match k.trim() {
                "table" if !v.trim().is_empty() => name = v.trim().to_string(),
                "variants" => {
                    variants = v
                        .split_whitespace()
                        .filter_map(|v| v.parse().ok())
                        .collect()
                }
                _ => {}
            }
        }
    }
    let body: String = text
        .lines()
        .skip(head_lines)
        .map(|l| format!("{l}\n"))
        .collect();
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(body.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .map_err(|e| format!("its header does not read: {e}"))?
        .iter()
        .map(|h| h.trim().to_ascii_lowercase())
        .collect();
    let col = |n: &str| header.iter().position(|h| h == n);
    let Some(code_col) = col("code") else {
        return Err("no 'code' column (a table's header names code, fen and/or moves)".into());
    };
    if col("fen").is_none() && col("moves").is_none() {
        return Err("neither a 'fen' nor a 'moves' column".into());
    }
    let (mut rows, mut warnings) = (Vec::new(), Vec::new());
    for (i, rec) in reader.records().enumerate() {
        let line = head_lines + 2 + i;
        let rec = match rec {
            Ok(r) => r,
            Err(e) => {
                warnings.push(format!("row {} (line {line}): does not read: {e}", i + 1));
                continue;
            }
        };
        let field = |n: &str| col(n).and_then(|c| rec.get(c)).unwrap_or("").trim();
        let own: Vec<&str> = field("variants").split_whitespace().collect();
        let row_variants: Result<Vec<Variant>, String> = own
            .iter()
            .map(|v| v.parse::<Variant>().map_err(|e| e.to_string()))
            .collect();
        let row = row_variants.and_then(|own| {
            let vs = if own.is_empty() {
                variants.clone()
            } else {
                own
            };
            checked(
                rec.get(code_col).unwrap_or("").trim(),
                field("name"),
                vs,
                Some(field("start_fen")).filter(|s| !s.is_empty()),
                field("moves"),
                Some(field("fen")).filter(|s| !s.is_empty()),
                field("aliases"),
            )
        });
        match row {
            Ok(r) => rows.push(r),
            Err(why) => warnings.push(format!("row {} (line {line}): {why}", i + 1)),
        }
    }
    Ok((name, rows, warnings))
}

/// A row given by its columns, checked: its moves replayed from its start
/// under each of its variants, and the position they reach compared with
/// its `fen`; the reason it cannot be used otherwise.
fn checked(
    code: &str,
    name: &str,
    variants: Vec<Variant>,
    start_fen: Option<&str>,
    moves: &str,
    fen: Option<&str>,
    aliases: &str,
) -> Result<Row, String> {
    if code.is_empty() {
        return Err("no code".into());
    }
    let Some(&first) = variants.first() else {
        return Err("no variant (a '# variants:' line or a variants column)".into());
    };
    let mut reached: Option<(Position, Vec<String>)> = None;
    for &v in &variants {
        if let Some(s) = start_fen {
            Position::from_fen(s, v).map_err(|e| format!("its start_fen does not read: {e}"))?;
        }
        let r = if moves.is_empty() {
            None
        } else {
            Some(replayed(v, start_fen, moves)?)
        };
        if v == first {
            reached = r;
        }
    }
    let given = match fen {
        Some(f) => {
            Some(Position::from_fen(f, first).map_err(|e| format!("its fen does not read: {e}"))?)
        }
        None => None,
    };
    let key = crate::openings::key;
    let (position, moves) = match (reached, given) {
        (Some((p, _)), Some(g)) if key(&p) != key(&g) => {
            return Err(format!(
                "its moves reach {}, not its fen {}",
                p.to_fen(),
                g.to_fen()
            ))
        }
        (Some((p, m)), _) => (p, m),
        (None, Some(g)) => (g, Vec::new()),
        (None, None) => return Err("neither moves nor a fen".into()),
    };
    Ok(Row {
        code: code.to_string(),
        name: name.to_string(),
        variants,
        start_fen: start_fen.map(str::to_string),
        moves,
        fen: position.to_fen(),
        aliases: aliases
            .split(['|', ' ', ','])
            .filter(|a| !a.is_empty())
            .map(str::to_string)
            .collect(),
    })
}

/// The position `moves` reach from `start` (the initial position when
/// `None`) under `v`'s rules, and the moves by square numbers; the first
/// error of their replay otherwise.
fn replayed(
    v: Variant,
    start: Option<&str>,
    moves: &str,
) -> Result<(Position, Vec<String>), String> {
    let fen = start
        .map(|f| format!("[SetUp \"1\"]\n[FEN \"{f}\"]\n"))
        .unwrap_or_default();
    let text = format!("[GameType \"{}\"]\n{fen}\n{moves} *\n", v.game_type());
    let games = crate::pdn::read_all(text.as_bytes());
    let g = games.first().ok_or("its moves do not read")?;
    let r = check_game_alone(g, &Options::default().keep_moves(true));
    after(&r)
}

/// The position after the last ply of a replayed game and its moves by
/// square numbers, or its first error.
fn after(r: &super::GameReport) -> Result<(Position, Vec<String>), String> {
    if let Some(e) = r.first_error() {
        return Err(format!(
            "its moves do not replay: {} ({})",
            e.message, e.code
        ));
    }
    if !r.checked {
        return Err("its moves were not replayed (the variant is not checked)".into());
    }
    let p = r
        .position_before(r.plies + 1)
        .ok_or("its moves do not replay")?;
    let moves = r
        .played
        .iter()
        .map(|p| {
            let (from, to) = (p.mv.from().index() + 1, p.mv.to().index() + 1);
            format!("{from}{}{to}", if p.mv.is_capture() { 'x' } else { '-' })
        })
        .collect();
    Ok((p, moves))
}

/// The rows of a PDN table: a game per row, `[Ballot "CODE"]` (required),
/// `[Opening "NAME"]`, its GameType, its start (`SetUp`/`FEN`) and moves;
/// the row's position is the one after its last move.
fn pdn_rows(text: &str) -> (Vec<Row>, Vec<String>) {
    let (mut rows, mut warnings) = (Vec::new(), Vec::new());
    for (i, g) in crate::pdn::read_all(text.as_bytes()).iter().enumerate() {
        let at = format!("row {} (game {}, line {})", i + 1, g.index(), g.line());
        let Some(code) = g.tag("Ballot").filter(|c| !c.trim().is_empty()) else {
            warnings.push(format!("{at}: no Ballot tag"));
            continue;
        };
        let r = check_game_alone(g, &Options::default().keep_moves(true));
        let row = r
            .variant
            .ok_or_else(|| "its variant is not known (a GameType tag names it)".to_string())
            .and_then(|v| {
                let (p, moves) = after(&r)?;
                let start = r.start.filter(|s| !crate::openings::is_initial(s));
                Ok(Row {
                    code: code.trim().to_string(),
                    name: g.tag("Opening").unwrap_or_default().trim().to_string(),
                    variants: vec![v],
                    start_fen: start.map(|s| s.to_fen()),
                    moves,
                    fen: p.to_fen(),
                    aliases: Vec::new(),
                })
            });
        match row {
            Ok(r) => rows.push(r),
            Err(why) => warnings.push(format!("{at}: {why}")),
        }
    }
    (rows, warnings)
}
