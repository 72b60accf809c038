//! The tables: shipped and users', their rows and positions, and a game's
//! opening found against them.

use crate::openings::fen_key::fen_key;
use crate::position::{splitmix, Position};
use crate::variant::Variant;
use smallvec::SmallVec;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

/// A game's opening: the row of a ballot table its positions reach. It
/// holds its table ([`Arc`]): a user's table lives as long as the openings
/// found in it, and no longer.
#[derive(Clone, Debug)]
pub struct Opening {
    table: Arc<Table>,
    row: u32,
    /// The names table the name comes from, and its row, when the row has
    /// no name of its own.
    named_by: Option<(Arc<Table>, u32)>,
    /// The ply after which the game's position is the row's (0: the set-up).
    pub plies: u32,
    /// `setup` (the game is set up in the row's position) or `moves`.
    pub via: &'static str,
    /// Whether the game reached the row by other moves than the row's.
    pub transposed: bool,
    /// The other rows with the same position, in table order.
    also: Vec<u32>,
}

impl Opening {
    /// The table (`idf-745`, `acf-3move`, ...).
    pub fn table(&self) -> &str {
        self.table.name()
    }
    /// The row's code (`VI-15`, `12`).
    pub fn code(&self) -> &str {
        self.table.code(self.row)
    }
    /// The row's own name, else the name of the deepest row of the
    /// variant's names table the game reaches ([`Opening::name_table`]).
    pub fn name(&self) -> Option<&str> {
        match &self.named_by {
            Some((t, r)) => Some(t.row_name(*r)),
            None => Some(self.table.row_name(self.row)).filter(|n| !n.is_empty()),
        }
    }
    /// The names table the name comes from, when it is not the row's own.
    pub fn name_table(&self) -> Option<&str> {
        self.named_by.as_ref().map(|(t, _)| t.name())
    }
    /// The codes of the other rows with the same position, in table order.
    pub fn also(&self) -> impl Iterator<Item = &str> {
        self.also.iter().map(|&r| self.table.code(r))
    }
    /// Whether its code, or a code of [`Opening::also`], or another
    /// spelling of one, is `spec` (without case).
    pub fn is_called(&self, spec: &str) -> bool {
        std::iter::once(self.row)
            .chain(self.also.iter().copied())
            .any(|r| self.table.is_called(r, spec))
    }
}

impl PartialEq for Opening {
    fn eq(&self, o: &Opening) -> bool {
        self.table() == o.table()
            && self.code() == o.code()
            && self.name() == o.name()
            && self.name_table() == o.name_table()
            && self.also().eq(o.also())
            && (self.plies, self.via, self.transposed) == (o.plies, o.via, o.transposed)
    }
}
impl Eq for Opening {}

#[cfg(feature = "serde")]
impl serde::Serialize for Opening {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let also: Vec<&str> = self.also().collect();
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("table", self.table())?;
        m.serialize_entry("code", self.code())?;
        m.serialize_entry("name", &self.name())?;
        m.serialize_entry("plies", &self.plies)?;
        m.serialize_entry("via", self.via)?;
        m.serialize_entry("transposed", &self.transposed)?;
        if !also.is_empty() {
            m.serialize_entry("also", &also)?;
        }
        if let Some(t) = self.name_table() {
            m.serialize_entry("name_table", t)?;
        }
        m.end()
    }
}

impl Opening {
    /// The shipped tables (`pdnkit openings`): name, title, variants, rows,
    /// source, each as its table's header says.
    pub fn tables() -> Vec<[String; 5]> {
        SHIPPED
            .iter()
            .map(|(name, text, _)| {
                let head = |key: &str| {
                    text.lines()
                        .take_while(|l| l.starts_with('#'))
                        .find_map(|l| l.strip_prefix(&format!("# {key}:")))
                        .unwrap_or("")
                        .trim()
                        .to_string()
                };
                let rows = Table::shipped(name).map_or(0, |t| t.rows.len());
                [
                    name.to_string(),
                    head("title"),
                    head("variants"),
                    rows.to_string(),
                    head("source"),
                ]
            })
            .collect()
    }
    /// A shipped table's header lines (`# key: value`) and rows, each row as
    /// `code`, `name`, `variants`, `start_fen`, `moves`, `fen`, `aliases`
    /// (`|` between spellings): what `pdnkit openings --table NAME` writes
    /// as CSV. `None` for a name that is no shipped table.
    pub fn table_rows(name: &str) -> Option<(Vec<String>, Vec<[String; 7]>)> {
        Table::shipped(name).map(|t| t.text_rows())
    }
    /// What a variant's games are classified against by default (OPENINGS.md
    /// 3.1), as `pdnkit openings` says it: per shipped table, the variants
    /// it is a ballot table for (with its place in their list), or, for a
    /// names table, the tables whose rows it names; a names table of a
    /// variant with no ballot table names no game unless it is chosen.
    pub fn table_role(name: &str) -> String {
        let mut ballot: Vec<String> = Vec::new();
        let mut names: Vec<(String, Vec<&str>)> = Vec::new();
        for v in Variant::ALL {
            let (list, names_table) = defaults(v);
            if let Some(i) = list.iter().position(|n| *n == name) {
                ballot.push(if list.len() > 1 {
                    format!("{} ({})", v.name(), ordinal(i + 1))
                } else {
                    v.name().to_string()
                });
            }
            if names_table == Some(name) {
                let what = if list.is_empty() {
                    format!("no ballot table, so it names no game unless chosen (--opening-table {name})")
                } else {
                    format!("rows of {} with no name of their own", list.join(", "))
                };
                match names.iter_mut().find(|(w, _)| *w == what) {
                    Some((_, vs)) => vs.push(v.name()),
                    None => names.push((what, vec![v.name()])),
                }
            }
        }
        let names: Vec<String> = names
            .into_iter()
            .map(|(what, vs)| format!("{}: {what}", vs.join(", ")))
            .collect();
        match (ballot.is_empty(), names.is_empty()) {
            (false, _) => format!("default for {}", ballot.join(", ")),
            (true, false) => format!("names {}", names.join("; ")),
            (true, true) => "only when chosen (--opening-table)".to_string(),
        }
    }
}

/// `1st`, `2nd`, `3rd`, `4th`...
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The rows of a table's text (see [`Table::read`]), each field a span of
/// `text`.
fn rows_of(text: &str) -> Vec<Row> {
    let mut variants = Variants::new();
    let mut rows = Vec::new();
    let mut header = true;
    let base = text.as_ptr() as usize;
    // A field is a slice of `text`; an empty one (a missing column is
    // a `""` from elsewhere) is the empty span.
    let span = |f: &str| match (f.as_ptr() as usize).checked_sub(base) {
        Some(at) if !f.is_empty() => Span(at as u32, f.len() as u32),
        _ => Span(0, 0),
    };
    for line in text.lines() {
        if header {
            if let Some(h) = line.strip_prefix("# variants:") {
                variants = h
                    .split_whitespace()
                    .filter_map(|v| v.parse().ok())
                    .collect();
            }
            if !line.starts_with('#') && !line.trim().is_empty() {
                header = false;
            }
            continue;
        }
        if line.trim().is_empty() {
            continue;
        }
        let mut f = [""; 7];
        for (slot, field) in f.iter_mut().zip(line.split('\t')) {
            *slot = field;
        }
        let col = |i: usize| f[i].trim();
        let own: Variants = col(2)
            .split_whitespace()
            .filter_map(|v| v.parse().ok())
            .collect();
        let moves = || col(4).split_whitespace();
        rows.push(Row {
            code: span(col(0)),
            name: span(col(1)),
            variants: if own.is_empty() {
                variants.clone()
            } else {
                own
            },
            start_fen: Some(col(3)).filter(|s| !s.is_empty()).map(span),
            steps: moves().filter_map(step).collect(),
            moves: moves().map(span).collect(),
            fen: span(col(5)),
            aliases: col(6)
                .split('|')
                .filter(|a| !a.is_empty())
                .map(span)
                .collect(),
        });
    }
    rows
}

/// Each row's position key and start key (its `start_fen`'s, else the
/// initial position's of its first variant), `None` for a row whose FEN
/// does not read: what [`Table::read`] reads the FENs for.
fn row_keys(text: &str, rows: &[Row]) -> Vec<Option<(u64, u64)>> {
    let at = |s: Span| text.get(s.0 as usize..(s.0 + s.1) as usize).unwrap_or("");
    let mut initial: Vec<(Variant, u64)> = Vec::new();
    // Rows share their starts (an 11-man table has a few hundred for
    // thousands of rows): each is read once for each variant.
    let mut start_keys: HashMap<(&str, Variant), u64> = HashMap::new();
    let mut keys = Vec::with_capacity(rows.len());
    for r in rows {
        let Some(&v) = r.variants.first() else {
            keys.push(None);
            continue;
        };
        let read =
            |fen: &str| fen_key(fen).or_else(|| Position::from_fen(fen, v).ok().map(|p| p.key()));
        let Some(position) = read(at(r.fen)) else {
            keys.push(None);
            continue;
        };
        let start = match r.start_fen {
            Some(s) => match start_keys.get(&(at(s), v)) {
                Some(&k) => Some(k),
                None => read(at(s)).map(|k| *start_keys.entry((at(s), v)).or_insert(k)),
            },
            None => Some(match initial.iter().find(|(w, _)| *w == v) {
                Some(&(_, k)) => k,
                None => {
                    let k = Position::start(v).key();
                    initial.push((v, k));
                    k
                }
            }),
        };
        keys.push(start.map(|start| (position, start)));
    }
    keys
}

/// The keys of a shipped table's rows in their compact form
/// (`tables/NAME.keys`, written by the test
/// `the_compact_keys_are_the_keys_the_rows_read_to`): the length of the
/// table's text and its number of rows, then each row's position key and
/// start key, all little-endian. `None` when the form does not fit the
/// text (a table edited since: the test fails until it is written again),
/// and the rows' FENs are read instead.
fn compact_keys(blob: &[u8], text: &str, rows: usize) -> Option<Vec<Option<(u64, u64)>>> {
    let word = |i: usize| -> Option<u64> {
        let b: [u8; 8] = blob.get(i * 8..i * 8 + 8)?.try_into().ok()?;
        Some(u64::from_le_bytes(b))
    };
    if word(0)? != text.len() as u64 || word(1)? != rows as u64 || blob.len() != 16 * (rows + 1) {
        return None;
    }
    (0..rows)
        .map(|r| Some(Some((word(2 + 2 * r)?, word(3 + 2 * r)?))))
        .collect()
}

/// [`compact_keys`]'s form of `keys` for a table of `text` (every row kept).
#[cfg(test)]
fn compact_form(text: &str, keys: &[Option<(u64, u64)>]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(16 * (keys.len() + 1));
    for w in [text.len() as u64, keys.len() as u64] {
        out.extend_from_slice(&w.to_le_bytes());
    }
    for k in keys {
        let (p, s) = (*k)?;
        out.extend_from_slice(&p.to_le_bytes());
        out.extend_from_slice(&s.to_le_bytes());
    }
    Some(out)
}

impl Table {
    /// Its header lines (`# key: value`; a user's table gets `# table:`
    /// and `# variants:`) and rows, each row as `code`, `name`, `variants`,
    /// `start_fen`, `moves`, `fen`, `aliases` (`|` between spellings): what
    /// `pdnkit openings --table NAME|FILE` writes as CSV, and reads back.
    pub fn text_rows(&self) -> (Vec<String>, Vec<[String; 7]>) {
        let t = self;
        let mut head: Vec<String> = t
            .text
            .lines()
            .take_while(|l| l.starts_with('#'))
            .map(str::to_string)
            .collect();
        if head.is_empty() {
            let mut variants: Vec<&str> = Vec::new();
            for r in &t.rows {
                for v in &r.variants {
                    if !variants.contains(&v.name()) {
                        variants.push(v.name());
                    }
                }
            }
            head.push(format!("# table: {}", t.name));
            head.push(format!("# variants: {}", variants.join(" ")));
        }
        let rows = t
            .rows
            .iter()
            .map(|r| {
                let variants: Vec<&str> = r.variants.iter().map(|v| v.name()).collect();
                let moves: Vec<&str> = r.moves.iter().map(|&m| t.s(m)).collect();
                let aliases: Vec<&str> = r.aliases.iter().map(|&a| t.s(a)).collect();
                [
                    t.s(r.code).to_string(),
                    t.s(r.name).to_string(),
                    variants.join(" "),
                    r.start_fen.map_or("", |f| t.s(f)).to_string(),
                    moves.join(" "),
                    t.s(r.fen).to_string(),
                    aliases.join("|"),
                ]
            })
            .collect();
        (head, rows)
    }
}

/// A shipped table's entry in [`SHIPPED`], from its files in `tables/`.
macro_rules! shipped {
    ($name:literal) => {
        (
            $name,
            include_str!(concat!("tables/", $name, ".tsv")),
            include_bytes!(concat!("tables/", $name, ".keys")),
        )
    };
}

/// One table as shipped: its name, its text and its rows' keys in their
/// compact form ([`compact_keys`]).
const SHIPPED: [(&str, &str, &[u8]); 10] = [
    shipped!("idf-745"),
    shipped!("fmjd-736"),
    shipped!("idf-150"),
    shipped!("acf-3move"),
    shipped!("english-11man"),
    shipped!("english-2move"),
    shipped!("italian-11man"),
    shipped!("names-russian"),
    shipped!("names-english"),
    shipped!("names-international"),
];

const ENGLISH_11: &str = "english-11man";
const ITALIAN_11: &str = "italian-11man";

/// Whether every row of a table starts from another position than the
/// initial one (an 11-man start) or is a position with no moves: only a
/// game that is set up can reach one of its rows, so it is read only for
/// such a game (the test of this module holds the tables to it).
fn setup_only(table: &str) -> bool {
    table == ENGLISH_11 || table == ITALIAN_11
}

/// The tables a variant's games are classified against, in order, and its
/// names table (OPENINGS.md 3.1).
fn defaults(v: Variant) -> (&'static [&'static str], Option<&'static str>) {
    match v {
        Variant::Russian | Variant::Brazilian => (&["idf-745", "fmjd-736"], Some("names-russian")),
        Variant::English => (
            &["acf-3move", ENGLISH_11, "english-2move"],
            Some("names-english"),
        ),
        Variant::Italian => (&[ITALIAN_11], None),
        Variant::International => (&[], Some("names-international")),
        _ => (&[], None),
    }
}

/// Where a field of a row is in its table's text.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Span(u32, u32);

/// One row of a table: its fields are [`Span`]s of the table's text.
#[derive(Debug)]
pub(crate) struct Row {
    code: Span,
    name: Span,
    /// The variants it serves (its own list, else the table's).
    pub(crate) variants: Variants,
    /// Where its moves start (`None`: the initial position).
    start_fen: Option<Span>,
    /// Its moves (numeric, as PDN writes them), empty for a position.
    moves: SmallVec<[Span; 4]>,
    /// Its position.
    fen: Span,
    /// Other spellings of its code (IDF: `1-I`, `I.1` for `I-1`).
    aliases: Vec<Span>,
    /// The squares (from, to) of its moves.
    steps: SmallVec<[(u32, u32); 4]>,
}

/// A row's variants: held in the row, as its moves are (no allocation per
/// row for the thousands of rows of a table: issue 65).
pub(crate) type Variants = SmallVec<[Variant; 4]>;

/// An opening table read: its rows, and the rows of each position key. A
/// shipped one ([`Table::shipped`]) or a user's ([`Table::load`]).
#[derive(Debug)]
pub struct Table {
    name: String,
    /// The text it was read from (the shipped tables' text form).
    text: Cow<'static, str>,
    pub(crate) rows: Vec<Row>,
    /// Per position key: the rows with that position, in table order.
    by_key: ByKey,
    /// The start key of each row (its `start_fen`'s, or the initial
    /// position's of its first variant).
    starts: Vec<u64>,
    /// The most plies of a row.
    longest: u32,
}

/// A hasher for keys that are already mixed ([`Position::key`]): the key itself.
#[derive(Clone, Copy, Debug, Default)]
struct Mixed(u64);

impl std::hash::Hasher for Mixed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = splitmix(self.0 ^ u64::from(b));
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type ByKey = HashMap<u64, Vec<u32>, std::hash::BuildHasherDefault<Mixed>>;

/// Whether `p` is its variant's initial position (board and side to move).
pub(crate) fn is_initial(p: &Position) -> bool {
    static INITIAL: [OnceLock<u64>; Variant::ALL.len()] =
        [const { OnceLock::new() }; Variant::ALL.len()];
    let v = p.variant();
    p.key() == *INITIAL[v as usize].get_or_init(|| Position::start(v).key())
}

/// The (from, to) square numbers of a written move (`21-17`, `22x13`,
/// `22x13x6`), `None` when it is not numeric.
fn step(m: &str) -> Option<(u32, u32)> {
    let mut parts = m.split(['-', 'x', ':']);
    let from = parts.next()?.trim().parse().ok()?;
    let to = parts.next_back()?.trim().parse().ok()?;
    Some((from, to))
}

impl Table {
    /// Reads a table's text (the shipped tables' form: `# key: value`
    /// lines, a header line, then a row a line, a tab between columns); a
    /// row that does not read is left out (the shipped tables' test reads
    /// every row; a user's rows are checked before, [`Table::load`]). Only
    /// the lines before the header are comments: a row's code may begin
    /// with `#`.
    pub(crate) fn read(name: String, text: Cow<'static, str>) -> Table {
        let rows = rows_of(&text);
        let keys = row_keys(&text, &rows);
        Table::of_rows(name, text, rows, keys)
    }

    /// The table of `rows` read from `text`, with their (position, start)
    /// keys ([`row_keys`]): a row without keys is left out.
    fn of_rows(
        name: String,
        text: Cow<'static, str>,
        rows: Vec<Row>,
        keys: Vec<Option<(u64, u64)>>,
    ) -> Table {
        let mut by_key = ByKey::default();
        let mut starts = Vec::with_capacity(rows.len());
        let mut kept = Vec::with_capacity(rows.len());
        for (r, k) in rows.into_iter().zip(keys) {
            let Some((position, start)) = k else {
                continue;
            };
            by_key.entry(position).or_default().push(kept.len() as u32);
            starts.push(start);
            kept.push(r);
        }
        let longest = kept.iter().map(|r| r.moves.len() as u32).max().unwrap_or(0);
        Table {
            name,
            text,
            rows: kept,
            by_key,
            starts,
            longest,
        }
    }

    /// The shipped table `name`, read the first time it is asked for.
    pub fn shipped(name: &str) -> Option<Arc<Table>> {
        static TABLES: OnceLock<Vec<OnceLock<Arc<Table>>>> = OnceLock::new();
        let tables = TABLES.get_or_init(|| SHIPPED.iter().map(|_| OnceLock::new()).collect());
        let i = SHIPPED.iter().position(|(n, ..)| *n == name)?;
        let (n, text, blob) = SHIPPED[i];
        Some(Arc::clone(tables[i].get_or_init(|| {
            // The rows' keys from their compact form: the FENs are not read
            // at each run (issue 65: 3 % of `check` on the real tree).
            let rows = rows_of(text);
            let keys =
                compact_keys(blob, text, rows.len()).unwrap_or_else(|| row_keys(text, &rows));
            Arc::new(Table::of_rows(
                n.to_string(),
                Cow::Borrowed(text),
                rows,
                keys,
            ))
        })))
    }

    /// Its name (`idf-745`; a user's table: its `# table:` line, else its
    /// file's name).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its rows' names (empty for a row with none).
    pub(crate) fn row_names(&self) -> impl Iterator<Item = &str> {
        (0..self.rows.len() as u32).map(|r| self.row_name(r))
    }

    /// How many rows it has.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether it has no row.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The text of a field.
    fn s(&self, span: Span) -> &str {
        self.text
            .get(span.0 as usize..(span.0 + span.1) as usize)
            .unwrap_or("")
    }

    /// The code of row `r`.
    pub(crate) fn code(&self, r: u32) -> &str {
        self.rows.get(r as usize).map_or("", |row| self.s(row.code))
    }

    /// The name of row `r` (empty: none).
    fn row_name(&self, r: u32) -> &str {
        self.rows.get(r as usize).map_or("", |row| self.s(row.name))
    }

    /// Whether row `r`'s code, or another spelling of it, is `spec`
    /// (without case).
    pub(crate) fn is_called(&self, r: u32, spec: &str) -> bool {
        let spec = spec.trim();
        self.rows.get(r as usize).is_some_and(|row| {
            self.s(row.code).eq_ignore_ascii_case(spec)
                || row
                    .aliases
                    .iter()
                    .any(|&a| self.s(a).eq_ignore_ascii_case(spec))
        })
    }

    /// Whether a row is called `spec` ([`Table::is_called`]).
    fn has_code(&self, spec: &str) -> bool {
        (0..self.rows.len() as u32).any(|r| self.is_called(r, spec))
    }

    /// Whether it only names openings (a names table, OPENINGS.md 3.1): it
    /// gives no ballot.
    pub(crate) fn is_names(&self) -> bool {
        self.name.starts_with("names-") && SHIPPED.iter().any(|(n, ..)| *n == self.name)
    }

    /// The positions of a game (its start and after each ply, `keys`) that
    /// are a position of some row: bit `j` of the result for `keys[j]`.
    fn hits(&self, keys: &[u64]) -> Vec<bool> {
        keys.iter().map(|k| self.by_key.contains_key(k)).collect()
    }

    /// The deepest row of this table a game reaches, for a game of `v`
    /// whose positions are keyed `keys` (the start, then after each ply;
    /// `hits[j]` where `keys[j]` is a row of some table), set up or not:
    /// (ply, the rows there serving `v`, in table order).
    fn deepest(
        &self,
        v: Variant,
        keys: &[u64],
        hits: &[bool],
        set_up: bool,
    ) -> Option<(u32, Vec<u32>)> {
        let serving = |j: usize| -> Vec<u32> {
            self.by_key
                .get(&keys[j])
                .map(|rows| {
                    rows.iter()
                        .copied()
                        .filter(|&r| {
                            let row = &self.rows[r as usize];
                            row.variants.contains(&v) && (j == 0 || !row.moves.is_empty())
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        let hit = |j: usize| hits.get(j).copied().unwrap_or(false);
        if set_up && hit(0) {
            let at0 = serving(0);
            if !at0.is_empty() {
                return Some((0, at0));
            }
        }
        let last = keys.len().min(self.longest as usize + 5);
        (0..last)
            .rev()
            .filter(|&j| hit(j))
            .map(|j| (j, serving(j)))
            .find(|(_, rows)| !rows.is_empty())
            .map(|(j, rows)| (j as u32, rows))
    }

    /// The rows of this table serving `v` that a game's positions reach, in
    /// the order of its plies (`keys` as [`classify`] takes them): at each
    /// ply with a row, (the ply, the first row there). The set-up position
    /// counts only for a game that is set up.
    pub(crate) fn reached(&self, v: Variant, keys: &[u64], set_up: bool) -> Vec<(u32, u32)> {
        keys.iter()
            .enumerate()
            .filter(|&(j, _)| j > 0 || set_up)
            .filter_map(|(j, k)| {
                let r = self.by_key.get(k)?.iter().copied().find(|&r| {
                    let row = &self.rows[r as usize];
                    row.variants.contains(&v) && (j == 0 || !row.moves.is_empty())
                })?;
                Some((j as u32, r))
            })
            .collect()
    }

    /// The deepest rows of this table a game of `v` reaches (its first
    /// row, then the others with that position), whether or not the table
    /// is in its variant's list: `keys` as [`classify`] takes them, as many
    /// as [`Table::plies`].
    pub(crate) fn match_rows(&self, v: Variant, keys: &[u64], set_up: bool) -> Vec<u32> {
        let hits = self.hits(keys);
        self.deepest(v, keys, &hits, set_up)
            .map(|(_, rows)| rows)
            .unwrap_or_default()
    }

    /// The plies of a game's positions worth keying against it: its
    /// longest row's, and a few more for the transpositions.
    pub(crate) fn plies(&self) -> usize {
        self.longest as usize + 5
    }
}

/// The tables a game is classified against, its names table, and every
/// position of them (one look-up tells a position of none).
#[derive(Debug)]
struct Tables {
    list: Vec<Arc<Table>>,
    names: Option<Arc<Table>>,
    present: std::collections::HashSet<u64, std::hash::BuildHasherDefault<Mixed>>,
    /// The plies a game's positions are kept for ([`plies_needed`]).
    plies: usize,
}

/// The tables of [`defaults`] for a game of `v` set up or not (the
/// [`setup_only`] ones only for a set-up game), read once.
fn tables_of(v: Variant, set_up: bool) -> &'static Tables {
    static OF: [[OnceLock<Tables>; 2]; Variant::ALL.len()] =
        [const { [const { OnceLock::new() }, const { OnceLock::new() }] }; Variant::ALL.len()];
    OF[v as usize][usize::from(set_up)].get_or_init(|| {
        let (list, names) = defaults(v);
        let list: Vec<Arc<Table>> = list
            .iter()
            .filter(|n| set_up || !setup_only(n))
            .filter_map(|n| Table::shipped(n))
            .collect();
        Tables::of(list, names.and_then(Table::shipped))
    })
}

impl Tables {
    /// The tables `list` and the names table `names`, with every position
    /// of them.
    fn of(list: Vec<Arc<Table>>, names: Option<Arc<Table>>) -> Tables {
        let present = list
            .iter()
            .chain(&names)
            .flat_map(|t| t.by_key.keys().copied())
            .collect();
        let plies = list
            .iter()
            .chain(&names)
            .map(|t| t.longest as usize + 5)
            .max()
            .unwrap_or(0);
        Tables {
            list,
            names,
            present,
            plies,
        }
    }
}

/// The opening tables a run classifies every game against, in order,
/// instead of each variant's list (`--opening-table`): tables the caller
/// built ([`Table::shipped`], [`Table::load`]). Cheap to clone; what it
/// works out per variant is kept with it, for as long as it lives.
#[derive(Clone, Debug, Default)]
pub(crate) struct Chosen(Arc<ChosenTables>);

#[derive(Debug, Default)]
pub(crate) struct ChosenTables {
    tables: Vec<Arc<Table>>,
    /// Per variant: the list with the variant's names table.
    of: [OnceLock<Tables>; Variant::ALL.len()],
}

impl Chosen {
    /// The tables, in order (empty: no opening is looked for).
    pub(crate) fn new(tables: Vec<Arc<Table>>) -> Chosen {
        Chosen(Arc::new(ChosenTables {
            tables,
            of: Default::default(),
        }))
    }
    /// The tables, in order.
    pub(crate) fn tables(&self) -> &[Arc<Table>] {
        &self.0.tables
    }
    /// The table of this list called `name` (without case).
    pub(crate) fn named(&self, name: &str) -> Option<&Arc<Table>> {
        self.0
            .tables
            .iter()
            .find(|t| t.name.eq_ignore_ascii_case(name))
    }
    /// The list with `v`'s names table, made the first time it is asked for.
    fn of(&self, v: Variant) -> &Tables {
        self.0.of[v as usize].get_or_init(|| {
            let names = if self.0.tables.is_empty() {
                None
            } else {
                defaults(v).1.and_then(Table::shipped)
            };
            Tables::of(self.0.tables.clone(), names)
        })
    }
}

/// The plies a game's positions are kept for, to classify a game of `v`
/// set up or not against `chosen` (`None`: its variant's list): 0 when
/// there is no table.
pub(crate) fn plies_needed(v: Variant, set_up: bool, chosen: Option<&Chosen>) -> usize {
    match chosen {
        Some(c) => {
            let own = c.of(v).plies;
            if own == 0 {
                0
            } else {
                own.max(tables_of(v, set_up).plies)
            }
        }
        None => tables_of(v, set_up).plies,
    }
}

/// The opening of a game of `v` (OPENINGS.md 3.2): `keys` are the keys of
/// its start and of its positions after each ply (as many as
/// [`plies_needed`]), `steps` the (from, to) squares of its moves, `set_up`
/// whether it starts from another position than the initial one, `chosen`
/// the tables instead of its variant's (`--opening-table`).
pub(crate) fn classify(
    v: Variant,
    keys: &[u64],
    steps: &[(u32, u32)],
    set_up: bool,
    chosen: Option<&Chosen>,
) -> Option<Opening> {
    let tables = match chosen {
        Some(c) => c.of(v),
        None => tables_of(v, set_up),
    };
    let hits: SmallVec<[bool; 64]> = keys.iter().map(|k| tables.present.contains(k)).collect();
    if !hits.contains(&true) {
        return None;
    }
    let names_match = || {
        let t = tables.names.as_ref()?;
        let (_, rows) = t.deepest(v, keys, &hits, set_up)?;
        let r = *rows.first()?;
        (!t.row_name(r).is_empty()).then(|| (Arc::clone(t), r))
    };
    for t in &tables.list {
        let Some((j, rows)) = t.deepest(v, keys, &hits, set_up) else {
            continue;
        };
        let first = rows[0] as usize;
        let row = &t.rows[first];
        let via = if j == 0 && set_up { "setup" } else { "moves" };
        let transposed = via == "moves"
            && !row.moves.is_empty()
            && keys.first() == Some(&t.starts[first])
            && steps.get(..j as usize) != row.steps.get(..j as usize);
        let named_by = if t.row_name(rows[0]).is_empty() {
            names_match()
        } else {
            None
        };
        return Some(Opening {
            table: Arc::clone(t),
            row: rows[0],
            named_by,
            plies: j,
            via,
            transposed,
            also: rows[1..].to_vec(),
        });
    }
    None
}

/// The table a section's ballots are compared by (OPENINGS.md 3.4): the
/// first ballot table of `chosen` (`--opening-table`; a names table gives
/// no ballot), else of `v`'s own list; `None` when there is none.
pub(crate) fn section_table(v: Variant, chosen: Option<&[Arc<Table>]>) -> Option<Arc<Table>> {
    match chosen {
        Some(c) => c.iter().find(|t| !t.is_names()).cloned(),
        None => defaults(v).0.first().and_then(|n| Table::shipped(n)),
    }
}

/// The names of the tables (shipped, and `chosen`) that have `spec` as the
/// code (or another spelling of one) of a row, compared without case, each
/// once, `chosen` first.
pub(crate) fn tables_with_code(spec: &str, chosen: Option<&Chosen>) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for t in chosen
        .into_iter()
        .flat_map(|c| c.tables().iter().cloned())
        .chain(SHIPPED.iter().filter_map(|(n, ..)| Table::shipped(n)))
    {
        if t.has_code(spec) && !names.iter().any(|n| n == t.name()) {
            names.push(t.name().to_string());
        }
    }
    names
}

/// The table called `name`: one of `chosen`, else a shipped one.
pub(crate) fn table_named(name: &str, chosen: Option<&Chosen>) -> Option<Arc<Table>> {
    chosen
        .and_then(|c| c.named(name).cloned())
        .or_else(|| Table::shipped(name))
}

/// The shipped names tables that name no game by default: every variant
/// they name has no ballot table (`names-international`).
pub(crate) fn idle_names_tables() -> Vec<Arc<Table>> {
    SHIPPED
        .iter()
        .map(|(n, ..)| *n)
        .filter(|n| {
            let of: Vec<Variant> = Variant::ALL
                .into_iter()
                .filter(|&v| defaults(v).1 == Some(*n))
                .collect();
            !of.is_empty() && of.iter().all(|&v| defaults(v).0.is_empty())
        })
        .filter_map(Table::shipped)
        .collect()
}

/// The names of the shipped tables.
pub(crate) fn shipped_names() -> impl Iterator<Item = &'static str> {
    SHIPPED.iter().map(|(n, ..)| *n)
}

#[cfg(test)]
mod tests {
    /// The FEN fast path stands for the grammar: on every FEN of every
    /// shipped table, and on mutations of each (a space, a dot, a letter, a
    /// square twice, a digit dropped or added, a cut), it gives the
    /// grammar's key or declines.
    #[test]
    fn the_plain_fen_key_agrees_with_the_grammar() {
        let (mut fast, mut total) = (0, 0);
        for (_, text, _) in super::SHIPPED {
            for line in text.lines().filter(|l| !l.starts_with('#')) {
                for fen in line
                    .split('\t')
                    .filter(|f| f.contains(":W") || f.contains(":B"))
                {
                    let mut cases = vec![fen.to_string()];
                    let bytes = fen.as_bytes();
                    for at in [1, 3, bytes.len() / 2, bytes.len().saturating_sub(1)] {
                        for insert in [" ", ".", "K", "a", ",", ":", "-", "0", "9", ":H0"] {
                            let mut m = fen.to_string();
                            if m.is_char_boundary(at) {
                                m.insert_str(at, insert);
                                cases.push(m);
                            }
                        }
                        if at < bytes.len()
                            && fen.is_char_boundary(at)
                            && fen.is_char_boundary(at + 1)
                        {
                            cases.push(format!("{}{}", &fen[..at], &fen[at + 1..]));
                            cases.push(fen[..at].to_string());
                        }
                    }
                    cases.push(format!("{fen},1"));
                    cases.push(fen.to_lowercase());
                    for c in &cases {
                        total += 1;
                        let plain = crate::openings::fen_key::plain_fen_key(c.as_bytes());
                        if let Some(k) = plain {
                            fast += 1;
                            assert_eq!(
                                Some(k),
                                crate::openings::fen_key::fen_key_by_grammar(c),
                                "{c}"
                            );
                        }
                    }
                }
            }
        }
        assert!(total > 100_000 && fast > 13_000, "{fast} of {total}");
        // A run of digits of any length is declined, never overflowed.
        for long in [
            "W:W99999999999999999999",
            "B:WK12345678901:B1",
            "W:W1-99999999999",
        ] {
            assert_eq!(
                crate::openings::fen_key::plain_fen_key(long.as_bytes()),
                None
            );
        }
    }

    use super::*;

    /// The compact keys shipped with each table (`tables/NAME.keys`) are
    /// the keys its rows' FENs read to, so a shipped table is the table its
    /// text reads to. After a table's text is edited, this test fails; run
    /// it with `PDNKIT_WRITE_KEYS=1` to write the keys again, and commit them.
    #[test]
    fn the_compact_keys_are_the_keys_the_rows_read_to() {
        let write = std::env::var_os("PDNKIT_WRITE_KEYS").is_some();
        let mut written = Vec::new();
        for (name, text, blob) in SHIPPED {
            let rows = rows_of(text);
            let keys = row_keys(text, &rows);
            let form = compact_form(text, &keys).expect("every shipped row reads");
            if write && form != blob {
                let path = format!(
                    "{}/src/openings/tables/{name}.keys",
                    env!("CARGO_MANIFEST_DIR")
                );
                std::fs::write(&path, &form).expect("the keys written");
                written.push(name);
                continue;
            }
            assert!(
                form == blob,
                "{name}: the shipped keys are not the rows' keys; run this test with PDNKIT_WRITE_KEYS=1"
            );
            assert_eq!(compact_keys(blob, text, rows.len()), Some(keys), "{name}");
            // The table as shipped is the table its text reads to.
            let (shipped, read) = (
                Table::shipped(name).expect("shipped"),
                Table::read(name.to_string(), Cow::Borrowed(text)),
            );
            assert_eq!(format!("{:?}", shipped.rows), format!("{:?}", read.rows));
            assert_eq!(
                (&shipped.starts, shipped.longest),
                (&read.starts, read.longest)
            );
            let sorted = |t: &Table| {
                let mut v: Vec<_> = t.by_key.iter().map(|(k, r)| (*k, r.clone())).collect();
                v.sort_unstable();
                v
            };
            assert_eq!(sorted(&shipped), sorted(&read), "{name}");
        }
        assert!(
            written.is_empty(),
            "keys written for {written:?}: build and test again"
        );
        // A form that does not fit the text is not used.
        let (_, text, blob) = SHIPPED[0];
        let rows = rows_of(text).len();
        assert!(compact_keys(blob, text, rows).is_some());
        assert_eq!(compact_keys(blob, &text[1..], rows), None);
        assert_eq!(compact_keys(blob, text, rows - 1), None);
        assert_eq!(compact_keys(&blob[..blob.len() - 1], text, rows), None);
    }

    /// Every row of every shipped table is read, and its FEN read straight
    /// gives the key of the position the FEN reader sets up.
    #[test]
    fn every_shipped_row_is_read_and_its_fen_keyed_as_the_position() {
        for (name, text, _) in SHIPPED {
            let rows = text
                .lines()
                .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
                .count()
                - 1;
            let t = Table::shipped(name).expect("shipped");
            assert_eq!(t.rows.len(), rows, "{name}: a row was left out");
            for (i, r) in t.rows.iter().enumerate() {
                let v = r.variants[0];
                for fen in std::iter::once(t.s(r.fen)).chain(r.start_fen.map(|f| t.s(f))) {
                    // Set up by the grammar, not the plain FENs' fast path.
                    let p = crate::position::Setup::parse_for(fen, v)
                        .and_then(|s| s.into_position(v))
                        .expect("a FEN of the table");
                    assert_eq!(
                        fen_key(fen),
                        Some(p.key()),
                        "{name} {}: {fen}",
                        t.code(i as u32)
                    );
                }
            }
        }
        for name in SHIPPED.iter().map(|t| t.0).filter(|n| setup_only(n)) {
            let t = Table::shipped(name).expect("shipped");
            for (r, start) in t.rows.iter().zip(&t.starts) {
                let initial = Position::start(r.variants[0]).key();
                assert!(
                    r.moves.is_empty() || *start != initial,
                    "{name} {}: a game from the initial position can reach it",
                    t.s(r.code)
                );
            }
        }
        assert_eq!(fen_key("W:W31-33:BK1"), fen_key("W:W31,32,33:BK1"));
        assert_eq!(fen_key("X:W1"), None);
        assert_eq!(fen_key("W:W1:B1"), None);
        assert_eq!(fen_key("W:W1,,2:B3"), fen_key("W:W1,2:B3"));
        assert_eq!(fen_key("W:WK:B3"), None);
        assert_eq!(fen_key("W:W1-:B3"), None);
        assert_eq!(fen_key("W:W0:B3"), None);
    }
}
