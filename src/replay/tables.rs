//! A user's opening table (`--opening-table FILE`, OPENINGS.md 3.1), like
//! pgn-extract's eco file: CSV in the shipped tables' format, or PDN with a
//! game per row. Every row is replayed under the rules of its variants; a
//! row that does not replay, or whose moves do not give its `fen`, is left
//! out with a warning naming the file, the row and why. [`Table::load`] is
//! defined here, beside the replay it uses, so that `openings` stays below
//! `replay`.

use crate::openings::{RowWarning, Table, TableError, TableSpec};
use crate::position::Position;
use crate::replay::game::check_game_alone;
use crate::replay::options::Options;
use crate::replay::report::GameReport;
use crate::variant::Variant;
use std::borrow::Cow;
use std::io::Read;
use std::path::Path;
use std::sync::Arc;

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

/// A table opened, with the warnings of its rows.
type Opened = (Arc<Table>, Vec<RowWarning>);

/// Where a row is, and why it is left out.
type Left = (String, String);

impl TableSpec {
    /// The table it names: a shipped one, or a user's file read and every
    /// row checked ([`Table::load`]), with the warnings of its rows;
    /// `None` for `none`.
    pub fn open(&self) -> Result<Option<Opened>, TableError> {
        match self {
            TableSpec::None => Ok(None),
            TableSpec::Shipped(name) => Ok(Table::shipped(name).map(|t| (t, Vec::new()))),
            TableSpec::File(path) => {
                let (t, warnings) = Table::load(path)?;
                Ok(Some((Arc::new(t), warnings)))
            }
        }
    }
}

impl Table {
    /// Reads a user's table from `path` (`.csv` in the shipped tables'
    /// columns, or `.pdn` with a game per row; docs/openings.md), replays
    /// every row under the rules of its variants, and gives the table with
    /// a warning for each row left out. It is read to at most 16 MiB (a
    /// larger file, or a pipe fed without end, is refused), and nothing of
    /// it is kept anywhere else: loading an edited file again gives the new
    /// rows. An error when the file cannot be read, is not a table, has no
    /// row that can be used, or takes a shipped table's name.
    pub fn load(path: &Path) -> Result<(Table, Vec<RowWarning>), TableError> {
        let limit = crate::openings::MAX_TABLE_BYTES;
        let read = |source| TableError::Read {
            path: path.to_path_buf(),
            source,
        };
        let file = std::fs::File::open(path).map_err(read)?;
        let mut bytes = Vec::new();
        file.take(limit + 1).read_to_end(&mut bytes).map_err(read)?;
        if bytes.len() as u64 > limit {
            return Err(TableError::TooLarge {
                path: path.to_path_buf(),
            });
        }
        let text = String::from_utf8(bytes).map_err(|e| TableError::NotUtf8 {
            path: path.to_path_buf(),
            at: e.utf8_error().valid_up_to(),
        })?;
        // Lone CR line ends (Excel for Mac) read as line ends.
        let text = if text.contains('\r') {
            text.replace("\r\n", "\n").replace('\r', "\n")
        } else {
            text
        };
        let not_a_table = |why: String| TableError::NotATable {
            path: path.to_path_buf(),
            why,
        };
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_else(|| path.to_string_lossy().to_string());
        let is_pdn = path
            .to_string_lossy()
            .to_ascii_lowercase()
            .ends_with(".pdn");
        let (name, rows, warnings) = if is_pdn {
            let (rows, warnings) = pdn_rows(&text);
            (stem, rows, warnings)
        } else {
            csv_rows(&text, &stem).map_err(not_a_table)?
        };
        drop(text);
        if crate::openings::shipped_names().any(|n| n == name) {
            return Err(not_a_table(format!(
                "'{name}' is the name of a shipped table: name the table otherwise (a '# table:' line, or the file's name)"
            )));
        }
        if rows.is_empty() {
            return Err(not_a_table("no row of the table can be used".into()));
        }
        let mut table = String::from("code\tname\tvariants\tstart_fen\tmoves\tfen\taliases\n");
        for r in &rows {
            table.push_str(&r.line());
            table.push('\n');
        }
        let warnings = warnings
            .into_iter()
            .map(|(at, why)| RowWarning {
                path: path.to_path_buf(),
                at,
                why,
            })
            .collect();
        Ok((Table::read(name, Cow::Owned(table)), warnings))
    }
}

/// The rows of a CSV table: `# key: value` lines (`table`, `variants`,
/// `title`, `source`), then CSV with a header (`code` required, `fen`
/// and/or `moves`, optional `name`, `variants`, `start_fen`, `aliases`,
/// `status`). Its name is its `table` line's, else `stem`.
fn csv_rows(text: &str, stem: &str) -> Result<(String, Vec<Row>, Vec<Left>), String> {
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
                warnings.push((
                    format!("row {} (line {line})", i + 1),
                    format!("does not read: {e}"),
                ));
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
            Err(why) => warnings.push((format!("row {} (line {line})", i + 1), why)),
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
    let key = Position::key;
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
fn after(r: &GameReport) -> Result<(Position, Vec<String>), String> {
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
fn pdn_rows(text: &str) -> (Vec<Row>, Vec<Left>) {
    let (mut rows, mut warnings) = (Vec::new(), Vec::new());
    // Rows whose variant no GameType tag names, per the variant read.
    let mut defaulted: std::collections::BTreeMap<&'static str, (u32, u32)> = Default::default();
    // Game by game: only the rows are kept, never every game at once.
    let games = crate::pdn::Reader::new(text.as_bytes()).map_while(Result::ok);
    for (i, g) in games.enumerate() {
        let g = &g;
        let at = format!("row {} (game {}, line {})", i + 1, g.index(), g.line());
        let Some(code) = g.tag("Ballot").filter(|c| !c.trim().is_empty()) else {
            warnings.push((at, "no Ballot tag".to_string()));
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
            Ok(r) => {
                if g.tag("GameType").is_none_or(|t| t.trim().is_empty()) {
                    if let Some(&v) = r.variants.first() {
                        defaulted.entry(v.name()).or_insert((0, v.game_type())).0 += 1;
                    }
                }
                rows.push(r)
            }
            Err(why) => warnings.push((at, why)),
        }
    }
    // Said once per table: a row serves only the games of its variant, and
    // nothing named it (issue 62 item 10).
    for (v, (n, number)) in defaulted {
        warnings.push((
            String::new(),
            format!(
                "{n} {} no GameType tag: read as {v} (what {} moves give when no tag names a variant), {} only {v} games; a [GameType \"N\"] tag names a row's variant ({number} is {v})",
                if n == 1 { "row has" } else { "rows have" },
                if n == 1 { "its" } else { "their" },
                if n == 1 { "it serves" } else { "they serve" },
            ),
        ));
    }
    (rows, warnings)
}
