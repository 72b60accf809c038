//! Openings and ballots (shared/spec/OPENINGS.md, docs/openings.md): the
//! federations' ballot tables shipped as data, and a game's opening found by
//! its positions after each ply against them.
//!
//! A table is rows of a code, a name, the variants it serves and a position
//! (the board and the side to move), reached by the row's moves or given
//! directly. A game matches a row at ply `j` when its position after `j`
//! plies is the row's; its opening is the deepest match in the first table
//! of its variant's list that has one. Positions are compared by a 64-bit
//! key of the board and the side to move, so a ballot reached by another
//! order of moves is found (`transposed`).
//!
//! The tables are read once, when a game of their variant is first
//! classified; a test replays every row and compares its position
//! (`replay`'s tests).

use crate::position::Position;
use crate::variant::Variant;
use std::collections::HashMap;
use std::sync::OnceLock;

/// A game's opening: the row of a ballot table its positions reach.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Opening {
    /// The table (`idf-745`, `acf-3move`, ...).
    pub table: &'static str,
    /// The row's code (`VI-15`, `12`).
    pub code: &'static str,
    /// The row's own name, else the name of the deepest row of the
    /// variant's names table the game reaches ([`Opening::name_table`]).
    pub name: Option<&'static str>,
    /// The ply after which the game's position is the row's (0: the set-up).
    pub plies: u32,
    /// `setup` (the game is set up in the row's position) or `moves`.
    pub via: &'static str,
    /// Whether the game reached the row by other moves than the row's.
    pub transposed: bool,
    /// The codes of the other rows with the same position, in table order.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub also: Vec<&'static str>,
    /// The names table the name comes from, when it is not the row's own.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub name_table: Option<&'static str>,
}

impl Opening {
    /// The shipped tables (`pdnkit openings`): name, title, variants, rows,
    /// source, each as its table's header says.
    pub fn tables() -> Vec<[String; 5]> {
        SHIPPED
            .iter()
            .map(|(name, text)| {
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
        let (_, text) = SHIPPED.iter().find(|(n, _)| *n == name)?;
        let t = Table::shipped(name)?;
        let head = text
            .lines()
            .take_while(|l| l.starts_with('#'))
            .map(str::to_string)
            .collect();
        let rows = t
            .rows
            .iter()
            .map(|r| {
                let variants: Vec<&str> = r.variants.iter().map(|v| v.name()).collect();
                [
                    r.code.to_string(),
                    r.name.to_string(),
                    variants.join(" "),
                    r.start_fen.unwrap_or("").to_string(),
                    r.moves.join(" "),
                    r.fen.to_string(),
                    r.aliases.join("|"),
                ]
            })
            .collect();
        Some((head, rows))
    }
}

/// One table as shipped: its name and its text.
const SHIPPED: [(&str, &str); 10] = [
    ("idf-745", include_str!("tables/idf-745.tsv")),
    ("fmjd-736", include_str!("tables/fmjd-736.tsv")),
    ("idf-150", include_str!("tables/idf-150.tsv")),
    ("acf-3move", include_str!("tables/acf-3move.tsv")),
    (ENGLISH_11, include_str!("tables/english-11man.tsv")),
    ("english-2move", include_str!("tables/english-2move.tsv")),
    (ITALIAN_11, include_str!("tables/italian-11man.tsv")),
    ("names-russian", include_str!("tables/names-russian.tsv")),
    ("names-english", include_str!("tables/names-english.tsv")),
    (
        "names-international",
        include_str!("tables/names-international.tsv"),
    ),
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

/// One row of a table.
#[derive(Debug)]
pub(crate) struct Row {
    pub(crate) code: &'static str,
    pub(crate) name: &'static str,
    /// The variants it serves (its own list, else the table's).
    pub(crate) variants: Vec<Variant>,
    /// Where its moves start (`None`: the initial position).
    pub(crate) start_fen: Option<&'static str>,
    /// Its moves (numeric, as PDN writes them), empty for a position.
    pub(crate) moves: Vec<&'static str>,
    /// Its position.
    pub(crate) fen: &'static str,
    /// Other spellings of its code (IDF: `1-I`, `I.1` for `I-1`).
    pub(crate) aliases: Vec<&'static str>,
    /// The squares (from, to) of its moves.
    steps: Vec<(u32, u32)>,
}

/// A table read: its rows, and the rows of each position key.
#[derive(Debug)]
pub(crate) struct Table {
    pub(crate) name: &'static str,
    /// The text it was read from.
    text: &'static str,
    pub(crate) rows: Vec<Row>,
    /// Per position key: the rows with that position, in table order.
    by_key: ByKey,
    /// The start key of each row (its `start_fen`'s, or the initial
    /// position's of its first variant).
    starts: Vec<u64>,
    /// The most plies of a row.
    longest: u32,
}

/// The key of a position: its board and side to move, mixed into 64 bits
/// (a few multiplications: every game's first plies are keyed).
pub(crate) fn key(p: &Position) -> u64 {
    let (w, b, k) = (
        p.pieces(crate::piece::Color::White).0,
        p.pieces(crate::piece::Color::Black).0,
        p.kings().0,
    );
    key_of(w, b, k, u64::from(p.side() == crate::piece::Color::Black))
}

/// The [`key`] of a table's FEN (`W:W17,22,...:BK1,2,...`: the side to
/// move, then each side's squares by number, a king with `K`, ranges
/// `31-50`), read straight into the squares: a table of 2,500 rows is read
/// in a millisecond. `None` for any other text (the row is then read by
/// [`Position::from_fen`]).
fn fen_key(fen: &str) -> Option<u64> {
    let bytes = fen.trim().as_bytes();
    let side = match bytes.first()? {
        b'W' => 0u64,
        b'B' => 1,
        _ => return None,
    };
    let (mut w, mut b, mut k) = (0u128, 0u128, 0u128);
    // The side being read (0 none yet, 1 White, 2 Black), a king, the
    // number being read, and the first of a range.
    let (mut colour, mut king, mut n, mut from) = (0u8, false, None::<u32>, None::<u32>);
    let mut put = |colour: u8, king: bool, lo: u32, hi: u32| -> Option<()> {
        if lo == 0 || hi > 128 || lo > hi || colour == 0 {
            return None;
        }
        for sq in lo..=hi {
            let bit = 1u128 << (sq - 1);
            if (w | b) & bit != 0 {
                return None;
            }
            if colour == 1 {
                w |= bit;
            } else {
                b |= bit;
            }
            if king {
                k |= bit;
            }
        }
        Some(())
    };
    let mut i = 1;
    while i <= bytes.len() {
        let c = bytes.get(i).copied().unwrap_or(b',');
        match c {
            b'0'..=b'9' => {
                let d = u32::from(c - b'0');
                n = Some(n.unwrap_or(0).checked_mul(10)?.checked_add(d)?);
            }
            b'K' if n.is_none() => king = true,
            b'-' if n.is_some() => {
                from = n.take();
            }
            b',' | b':' => {
                if let Some(m) = n {
                    put(colour, king, from.unwrap_or(m), m)?;
                } else if from.is_some() || king {
                    return None;
                }
                (king, n, from) = (false, None, None);
                if c == b':' {
                    colour = match bytes.get(i + 1) {
                        Some(b'W') => 1,
                        Some(b'B') => 2,
                        _ => return None,
                    };
                    i += 1;
                }
            }
            _ => return None,
        }
        i += 1;
    }
    Some(key_of(w, b, k, side))
}

/// [`key`] of its parts: each set folded to 64 bits and multiplied by its
/// own odd constant, the three and the side mixed once.
fn key_of(w: u128, b: u128, k: u128, black_to_move: u64) -> u64 {
    let fold = |x: u128, m: u64| ((x as u64) ^ ((x >> 64) as u64).rotate_left(23)).wrapping_mul(m);
    mix(fold(w, 0x9e37_79b9_7f4a_7c15)
        ^ fold(b, 0xc2b2_ae3d_27d4_eb4f).rotate_left(21)
        ^ fold(k, 0x1656_67b1_9e37_79f9).rotate_left(42)
        ^ black_to_move)
}

/// The SplitMix64 finaliser: each bit of `x` moves every bit of the result.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// A hasher for keys that are already mixed ([`key`]): the key itself.
#[derive(Clone, Copy, Debug, Default)]
struct Mixed(u64);

impl std::hash::Hasher for Mixed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = mix(self.0 ^ u64::from(b));
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
    key(p) == *INITIAL[v as usize].get_or_init(|| key(&Position::start(v)))
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
    /// Reads a table's text; a row that does not read is left out (the
    /// shipped tables' test reads every row).
    fn read(name: &'static str, text: &'static str) -> Table {
        let mut variants: Vec<Variant> = Vec::new();
        let mut rows = Vec::new();
        let mut header = true;
        for line in text.lines() {
            if let Some(h) = line.strip_prefix("# variants:") {
                variants = h
                    .split_whitespace()
                    .filter_map(|v| v.parse().ok())
                    .collect();
                continue;
            }
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            if header {
                header = false;
                continue;
            }
            let f: Vec<&'static str> = line.split('\t').collect();
            let col = |i: usize| f.get(i).copied().unwrap_or("").trim();
            let own: Vec<Variant> = col(2)
                .split_whitespace()
                .filter_map(|v| v.parse().ok())
                .collect();
            let moves: Vec<&'static str> = col(4).split_whitespace().collect();
            rows.push(Row {
                code: col(0),
                name: col(1),
                variants: if own.is_empty() {
                    variants.clone()
                } else {
                    own
                },
                start_fen: Some(col(3)).filter(|s| !s.is_empty()),
                steps: moves.iter().filter_map(|m| step(m)).collect(),
                moves,
                fen: col(5),
                aliases: col(6).split('|').filter(|a| !a.is_empty()).collect(),
            });
        }
        let mut by_key = ByKey::default();
        let mut starts = Vec::with_capacity(rows.len());
        let mut initial: Vec<(Variant, u64)> = Vec::new();
        let mut kept = Vec::with_capacity(rows.len());
        for r in rows {
            let Some(&v) = r.variants.first() else {
                continue;
            };
            let read = |fen: &str| {
                fen_key(fen).or_else(|| Position::from_fen(fen, v).ok().map(|p| key(&p)))
            };
            let Some(at) = read(r.fen) else {
                continue;
            };
            let start = match r.start_fen {
                Some(s) => match read(s) {
                    Some(k) => k,
                    None => continue,
                },
                None => match initial.iter().find(|(w, _)| *w == v) {
                    Some(&(_, k)) => k,
                    None => {
                        let k = key(&Position::start(v));
                        initial.push((v, k));
                        k
                    }
                },
            };
            by_key.entry(at).or_default().push(kept.len() as u32);
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

    /// The table `name`: a shipped one, read the first time it is asked
    /// for, or a user's table [`register`]ed.
    pub(crate) fn shipped(name: &str) -> Option<&'static Table> {
        static TABLES: OnceLock<Vec<OnceLock<Table>>> = OnceLock::new();
        let tables = TABLES.get_or_init(|| SHIPPED.iter().map(|_| OnceLock::new()).collect());
        let Some(i) = SHIPPED.iter().position(|(n, _)| *n == name) else {
            return user_tables().iter().find(|t| t.name == name).copied();
        };
        let (n, text) = SHIPPED[i];
        Some(tables[i].get_or_init(|| Table::read(n, text)))
    }

    /// The deepest row of this table a game reaches, for a game of `v`
    /// whose positions are keyed `keys` (the start, then after each ply;
    /// `hits` has bit `j` set where `keys[j]` is a row of some table), set
    /// up or not: (ply, the rows there serving `v`, in table order).
    fn deepest(
        &self,
        v: Variant,
        keys: &[u64],
        hits: u64,
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
        if set_up && hits & 1 != 0 {
            let at0 = serving(0);
            if !at0.is_empty() {
                return Some((0, at0));
            }
        }
        let last = keys.len().min(self.longest as usize + 5);
        (0..last)
            .rev()
            .filter(|&j| hits & (1 << j) != 0)
            .map(|j| (j, serving(j)))
            .find(|(_, rows)| !rows.is_empty())
            .map(|(j, rows)| (j as u32, rows))
    }
}

/// The tables a game is classified against, its names table, and every
/// position of them (one look-up tells a position of none).
#[derive(Debug)]
struct Tables {
    list: Vec<&'static Table>,
    names: Option<&'static Table>,
    present: std::collections::HashSet<u64, std::hash::BuildHasherDefault<Mixed>>,
}

/// The tables of [`defaults`] for a game of `v` set up or not (the
/// [`setup_only`] ones only for a set-up game), read once.
fn tables_of(v: Variant, set_up: bool) -> &'static Tables {
    static OF: [[OnceLock<Tables>; 2]; Variant::ALL.len()] =
        [const { [const { OnceLock::new() }, const { OnceLock::new() }] }; Variant::ALL.len()];
    OF[v as usize][usize::from(set_up)].get_or_init(|| {
        let (list, names) = defaults(v);
        let list: Vec<&'static Table> = list
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
    fn of(list: Vec<&'static Table>, names: Option<&'static Table>) -> Tables {
        let present = list
            .iter()
            .chain(&names)
            .flat_map(|t| t.by_key.keys().copied())
            .collect();
        Tables {
            list,
            names,
            present,
        }
    }
}

/// The tables of a list given by name (`--opening-table`), with the
/// variant's names table: made once per list and variant.
fn tables_named(v: Variant, list: &[String]) -> &'static Tables {
    type Made = Vec<((Variant, Vec<String>), &'static Tables)>;
    static MADE: OnceLock<std::sync::Mutex<Made>> = OnceLock::new();
    let made = MADE.get_or_init(Default::default);
    let mut made = made.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, t)) = made.iter().find(|((w, l), _)| *w == v && l == list) {
        return t;
    }
    let t: &'static Tables = Box::leak(Box::new(make_named(v, list)));
    made.push(((v, list.to_vec()), t));
    t
}

/// [`tables_named`], made.
fn make_named(v: Variant, list: &[String]) -> Tables {
    let list: Vec<&'static Table> = list.iter().filter_map(|n| Table::shipped(n)).collect();
    let names = if list.is_empty() {
        None
    } else {
        defaults(v).1.and_then(Table::shipped)
    };
    Tables::of(list, names)
}

/// The plies a game's positions are kept for, to classify a game of `v`
/// set up or not against `list` (`None`: its variant's list): 0 when there
/// is no table.
pub(crate) fn plies_needed(v: Variant, set_up: bool, list: Option<&[String]>) -> usize {
    if let Some(list) = list {
        return list
            .iter()
            .filter_map(|n| Table::shipped(n))
            .map(|t| t.longest as usize + 5)
            .max()
            .map_or(0, |n| n.max(plies_needed(v, set_up, None)));
    }
    plies_default(v, set_up)
}

/// [`plies_needed`] of a variant's own list.
fn plies_default(v: Variant, set_up: bool) -> usize {
    static NEEDED: [[OnceLock<usize>; 2]; Variant::ALL.len()] =
        [const { [const { OnceLock::new() }, const { OnceLock::new() }] }; Variant::ALL.len()];
    *NEEDED[v as usize][usize::from(set_up)].get_or_init(|| {
        let t = tables_of(v, set_up);
        t.list
            .iter()
            .chain(&t.names)
            .map(|t| t.longest as usize + 5)
            .max()
            .unwrap_or(0)
    })
}

/// The opening of a game of `v` (OPENINGS.md 3.2): `keys` are the keys of
/// its start and of its positions after each ply (as many as
/// [`plies_needed`]), `steps` the (from, to) squares of its moves, `set_up`
/// whether it starts from another position than the initial one, `list`
/// the tables by name instead of its variant's (`--opening-table`).
pub(crate) fn classify(
    v: Variant,
    keys: &[u64],
    steps: &[(u32, u32)],
    set_up: bool,
    list: Option<&[String]>,
) -> Option<Opening> {
    let tables = match list {
        Some(list) => tables_named(v, list),
        None => tables_of(v, set_up),
    };
    let hits = keys
        .iter()
        .take(64)
        .enumerate()
        .filter(|(_, k)| tables.present.contains(k))
        .fold(0u64, |m, (j, _)| m | 1 << j);
    if hits == 0 {
        return None;
    }
    let names_match = || {
        let t = tables.names?;
        let (_, rows) = t.deepest(v, keys, hits, set_up)?;
        let row = &t.rows[*rows.first()? as usize];
        (!row.name.is_empty()).then_some((row.name, t.name))
    };
    for t in &tables.list {
        let Some((j, rows)) = t.deepest(v, keys, hits, set_up) else {
            continue;
        };
        let first = rows[0] as usize;
        let row = &t.rows[first];
        let via = if j == 0 && set_up { "setup" } else { "moves" };
        let transposed = via == "moves"
            && !row.moves.is_empty()
            && keys.first() == Some(&t.starts[first])
            && steps.get(..j as usize) != row.steps.get(..j as usize);
        let (name, name_table) = if row.name.is_empty() {
            match names_match() {
                Some((n, nt)) => (Some(n), Some(nt)),
                None => (None, None),
            }
        } else {
            (Some(row.name), None)
        };
        return Some(Opening {
            table: t.name,
            code: row.code,
            name,
            name_table,
            plies: j,
            via,
            transposed,
            also: rows[1..].iter().map(|&r| t.rows[r as usize].code).collect(),
        });
    }
    None
}

/// The table a section's ballots are compared by (OPENINGS.md 3.4): the
/// first of `list` (`--opening-table`), else of `v`'s own list; `None` when
/// there is none.
pub(crate) fn section_table(v: Variant, list: Option<&[String]>) -> Option<&'static Table> {
    match list {
        Some(list) => list.iter().find_map(|n| Table::shipped(n)),
        None => defaults(v).0.first().and_then(|n| Table::shipped(n)),
    }
}

impl Table {
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
}

/// Whether `spec` is a code (or another spelling of one) of a row of a
/// shipped or registered table, compared without case.
pub(crate) fn is_code(spec: &str) -> bool {
    SHIPPED
        .iter()
        .filter_map(|(n, _)| Table::shipped(n))
        .chain(user_tables())
        .any(|t| t.rows.iter().any(|r| r.is_called(spec)))
}

/// The users' tables registered so far (`--opening-table FILE`).
fn user_tables() -> Vec<&'static Table> {
    USER.lock().map(|u| u.clone()).unwrap_or_default()
}

/// The users' tables, each read once and kept for the run.
static USER: std::sync::Mutex<Vec<&'static Table>> = std::sync::Mutex::new(Vec::new());

/// Makes a user's table, given in the shipped tables' text form (a tab
/// between columns: `code`, `name`, `variants`, `start_fen`, `moves`,
/// `fen`, `aliases`; every row already checked), one that classification
/// can name: its name, or the error when a shipped table or another table
/// of other rows has it. Registering the same table again is no error.
pub(crate) fn register(name: &str, text: String) -> Result<&'static str, String> {
    if SHIPPED.iter().any(|(n, _)| *n == name) {
        return Err(format!(
            "'{name}' is the name of a shipped table: name the table otherwise (a '# table:' line, or the file's name)"
        ));
    }
    let mut user = USER.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(t) = user.iter().find(|t| t.name == name) {
        return if t.text == text {
            Ok(t.name)
        } else {
            Err(format!("two opening tables are named '{name}'"))
        };
    }
    let name: &'static str = Box::leak(name.to_string().into_boxed_str());
    let text: &'static str = Box::leak(text.into_boxed_str());
    let t: &'static Table = Box::leak(Box::new(Table::read(name, text)));
    user.push(t);
    Ok(name)
}

/// Whether a row of `table` with the code `code` is called `spec` (its code
/// or another spelling of it, without case).
pub(crate) fn code_is(table: &str, code: &str, spec: &str) -> bool {
    Table::shipped(table).is_some_and(|t| {
        t.rows
            .iter()
            .filter(|r| r.code == code)
            .any(|r| r.is_called(spec))
    })
}

/// The codes of the deepest row of `table` a game of `v` reaches (its
/// code, then `also`), whether or not the table is in its variant's list:
/// `keys` as [`classify`] takes them.
pub(crate) fn match_in(
    table: &str,
    v: Variant,
    keys: &[u64],
    set_up: bool,
) -> Option<Vec<&'static str>> {
    let t = Table::shipped(table)?;
    let hits = keys
        .iter()
        .take(64)
        .enumerate()
        .filter(|(_, k)| t.by_key.contains_key(k))
        .fold(0u64, |m, (j, _)| m | 1 << j);
    let (_, rows) = t.deepest(v, keys, hits, set_up)?;
    Some(rows.iter().map(|&r| t.rows[r as usize].code).collect())
}

/// Whether `name` is a shipped or registered table.
pub(crate) fn is_table(name: &str) -> bool {
    Table::shipped(name).is_some()
}

impl Row {
    /// Whether its code, or another spelling of it, is `spec` (without case).
    fn is_called(&self, spec: &str) -> bool {
        let spec = spec.trim();
        self.code.eq_ignore_ascii_case(spec)
            || self.aliases.iter().any(|a| a.eq_ignore_ascii_case(spec))
    }
}

/// The names of the shipped tables.
pub(crate) fn shipped_names() -> impl Iterator<Item = &'static str> {
    SHIPPED.iter().map(|(n, _)| *n)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every row of every shipped table is read, and its FEN read straight
    /// gives the key of the position the FEN reader sets up.
    #[test]
    fn every_shipped_row_is_read_and_its_fen_keyed_as_the_position() {
        for (name, text) in SHIPPED {
            let rows = text
                .lines()
                .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
                .count()
                - 1;
            let t = Table::shipped(name).expect("shipped");
            assert_eq!(t.rows.len(), rows, "{name}: a row was left out");
            for r in &t.rows {
                let v = r.variants[0];
                for fen in std::iter::once(r.fen).chain(r.start_fen) {
                    let p = Position::from_fen(fen, v).expect("a FEN of the table");
                    assert_eq!(fen_key(fen), Some(key(&p)), "{name} {}: {fen}", r.code);
                }
            }
        }
        for name in SHIPPED.iter().map(|t| t.0).filter(|n| setup_only(n)) {
            let t = Table::shipped(name).expect("shipped");
            for (r, start) in t.rows.iter().zip(&t.starts) {
                let initial = key(&Position::start(r.variants[0]));
                assert!(
                    r.moves.is_empty() || *start != initial,
                    "{name} {}: a game from the initial position can reach it",
                    r.code
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
