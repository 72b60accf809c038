//! The games as the tournament sees them, in a few words each (issue 51):
//! their tag values interned (a `u32` for each, the text once per distinct
//! value), their result, their length, and their moves as the hash after the
//! last ply, the hashes after the plies before it in an unnamed temporary
//! file. A game costs 64 bytes of memory, whatever its length and tags.

use crate::diag::{Code, Severity};
use crate::pdn::Outcome;
use crate::store::Spill;
use crate::variant::Variant;
use hashbrown::HashMap;
use std::hash::BuildHasher;

/// A tag value of the games, interned: an index into their [`Strings`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Sym(u32);

impl Sym {
    /// No value (a tag that is absent, where absent differs from empty).
    pub(crate) const NONE: Sym = Sym(u32::MAX);
    /// Its number, to be written to a file.
    pub(crate) fn raw(self) -> u32 {
        self.0
    }
    /// The symbol of a number [`Sym::raw`] gave.
    pub(crate) fn from_raw(n: u32) -> Sym {
        Sym(n)
    }
}

/// Each distinct text once, by its [`Sym`].
#[derive(Debug, Default)]
pub(crate) struct Strings {
    list: Vec<Box<str>>,
    table: hashbrown::HashTable<u32>,
    hasher: hashbrown::DefaultHashBuilder,
}

impl Strings {
    /// The symbol of `s`, made the first time.
    pub(crate) fn intern(&mut self, s: &str) -> Sym {
        let h = self.hasher.hash_one(s);
        let list = &self.list;
        if let Some(&i) = self.table.find(h, |&i| &*list[i as usize] == s) {
            return Sym(i);
        }
        let i = self.list.len() as u32;
        self.list.push(s.into());
        let (list, hasher) = (&self.list, &self.hasher);
        self.table
            .insert_unique(h, i, |&j| hasher.hash_one(&*list[j as usize]));
        Sym(i)
    }
    /// The text of `s`, `None` for [`Sym::NONE`].
    pub(crate) fn get(&self, s: Sym) -> Option<&str> {
        self.list.get(s.0 as usize).map(|b| &**b)
    }
}

/// One game as the tournament sees it (64 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TGame {
    /// The file it is in.
    pub file: Sym,
    /// 1-based index of the game in its file.
    pub game: u32,
    /// The Event tag ("" when absent).
    pub event: Sym,
    /// The Site tag ("" when absent).
    pub site: Sym,
    /// The Date tag, [`Sym::NONE`] when absent.
    pub date: Sym,
    /// The Round tag, [`Sym::NONE`] when absent.
    pub round: Sym,
    /// The White tag (as written; "" when absent).
    pub white: Sym,
    /// The Black tag (as written; "" when absent).
    pub black: Sym,
    /// The result that counts: computed where the rules decided the game,
    /// else the declared one (`Unknown`: none).
    pub result: Outcome,
    /// Plies of the main line (0 with a decisive result: a forfeit).
    pub plies: u32,
    /// Its moves, hashed ply by ply from its start position: two copies of
    /// a game are told by them.
    pub moves: Moves,
    /// What its ballot is judged by: its variant, whether it is set up or
    /// carries a ballot tag, and how many of its first positions are kept
    /// (in the temporary file, after its moves' hashes).
    pub early: Early,
}

/// What a game's ballot is judged by (OPENINGS.md 3.4), in two bytes that
/// fit in a [`TGame`]'s padding: the count of the keys of its first
/// positions kept (bits 0-5), whether it is set up (bit 6), whether it
/// carries a `Ballot`, `Opening` or `Apertura` tag (bit 7), its variant
/// (bits 8-11, its index in `Variant::ALL` plus one; 0: none).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Early(u16);

/// The plies whose positions are kept for the ballot check at least (a
/// table's longest row and five more, when that is longer).
const EARLY_PLIES: usize = 16;

impl Early {
    pub(crate) fn new(v: Option<Variant>, set_up: bool, tag: bool, keys: usize) -> Early {
        let v = v.map_or(0, |v| v as u16 + 1);
        Early(keys.min(63) as u16 | u16::from(set_up) << 6 | u16::from(tag) << 7 | v << 8)
    }
    /// Keys of its first positions kept (the start, then after each ply).
    pub(crate) fn keys(self) -> usize {
        usize::from(self.0 & 63)
    }
    /// Whether it starts from another position than the initial one.
    pub(crate) fn set_up(self) -> bool {
        self.0 & 64 != 0
    }
    /// Whether it carries a ballot tag (`Ballot`, `Opening`, `Apertura`).
    pub(crate) fn tag(self) -> bool {
        self.0 & 128 != 0
    }
    /// Its variant, when it was replayed under one.
    pub(crate) fn variant(self) -> Option<Variant> {
        Variant::ALL
            .get(usize::from(self.0 >> 8).checked_sub(1)?)
            .copied()
    }
}

/// Whether a game carries a non-empty ballot tag other than `?`.
fn ballot_tag(g: &crate::pdn::Game) -> bool {
    ["Ballot", "Opening", "Apertura"].iter().any(|t| {
        g.tag(t)
            .is_some_and(|v| !v.trim().is_empty() && v.trim() != "?")
    })
}

/// How many keys ([`Position::key`](crate::position::Position::key)) of a
/// replayed game's start and of its positions after its first plies are
/// kept, and whether it is set up.
fn early_plies(r: &crate::replay::GameReport) -> Option<(usize, bool)> {
    let (start, v) = (r.start?, r.variant?);
    let set_up = !crate::openings::is_initial(&start);
    let n = crate::openings::plies_needed(v, set_up, None)
        .clamp(EARLY_PLIES, 62)
        .min(r.played.len());
    Some((n + 1, set_up))
}

/// Writes the first `keys` of those keys into `out`, 8 bytes each, straight
/// from the positions the replay kept (issue 65: no vector of keys and no
/// copy of each position a game); how many there were.
fn write_early_keys(r: &crate::replay::GameReport, keys: usize, out: &mut Vec<u8>) -> usize {
    let Some(n) = keys.checked_sub(1) else {
        return 0;
    };
    let before = r.played.get(..n).unwrap_or_default();
    for p in before {
        out.extend_from_slice(&p.before.key().to_le_bytes());
    }
    let last = r.position_before(before.len() as u32 + 1).map(|p| p.key());
    if let Some(k) = last {
        out.extend_from_slice(&k.to_le_bytes());
    }
    before.len() + usize::from(last.is_some())
}

/// A game's moves, as two copies are told apart: the hash after its last
/// ply in memory, the hashes after each ply before it in the temporary file
/// (8 bytes a ply, read back only for two copies of one pairing and round
/// whose last hashes differ).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Moves {
    /// Plies replayed.
    pub plies: u32,
    /// The hash after the last ply.
    pub full: u64,
    /// Offset of the hash after the first ply in the temporary file;
    /// `u64::MAX`: the game was not replayed (it matches no other by moves).
    pub at: u64,
}

impl Moves {
    /// No moves known.
    pub(crate) const NONE: Moves = Moves {
        plies: 0,
        full: 0,
        at: u64::MAX,
    };
    /// Whether the moves are known.
    pub(crate) fn known(&self) -> bool {
        self.at != u64::MAX
    }
}

/// The games of a collection as the tournament sees them (their tags, their
/// results, where they are, and their moves as hashes), for
/// [`Games::events`](super::Games::events).
///
/// In memory a game costs 64 bytes, and each distinct tag value is kept
/// once; the hashes after each of its plies, which tell a game from a copy
/// that stops early, are written to an unnamed temporary file
/// (docs/limits.md).
#[derive(Debug)]
pub struct Games {
    list: Chunks,
    strings: Strings,
    /// The games whose declared result contradicts the computed one (check's
    /// `result-mismatch` error): the message, by game.
    mismatches: HashMap<u32, Box<str>>,
    moves: Spill,
}

impl Default for Games {
    fn default() -> Games {
        Games::new()
    }
}

impl Games {
    /// No game yet.
    pub fn new() -> Games {
        Games {
            list: Chunks::default(),
            strings: Strings::default(),
            mismatches: HashMap::new(),
            moves: Spill::new(),
        }
    }
    /// Adds a game of `file` replayed with `keep_moves`: its result is the
    /// computed one where the rules decided the game, else the declared one.
    pub fn add(&mut self, file: &str, g: &crate::pdn::Game, r: &crate::replay::GameReport) {
        if let Some(d) = r
            .diagnostics
            .iter()
            .find(|d| d.code == Code::ResultMismatch && d.severity == Severity::Error)
        {
            self.mismatches
                .insert(self.list.len() as u32, d.message.to_string().into());
        }
        let t = self.aside(file, g, r);
        self.list.push(t);
    }
    /// A game of `file` as [`Games::add`] sees it, its texts interned and its
    /// moves written to the temporary file, but not added: the caller keeps
    /// it (`stats` keeps it on disk, by event) and judges it with
    /// [`Games::table_of`].
    pub(crate) fn aside(
        &mut self,
        file: &str,
        g: &crate::pdn::Game,
        r: &crate::replay::GameReport,
    ) -> TGame {
        let first = |names: &[&str]| names.iter().find_map(|n| g.tag(n)).unwrap_or_default();
        let tagged = crate::tournament::tags::Tagged::of(g);
        let (white, black) = (
            first(&crate::players::WHITE_TAGS),
            first(&crate::players::BLACK_TAGS),
        );
        self.aside_tagged(file, g, r, &tagged, [&white, &black])
    }
    /// [`Games::aside`] of a game whose tags were read already: what they
    /// say, and its White and Black as written.
    pub(crate) fn aside_tagged(
        &mut self,
        file: &str,
        g: &crate::pdn::Game,
        r: &crate::replay::GameReport,
        tagged: &crate::tournament::tags::Tagged,
        [white, black]: [&str; 2],
    ) -> TGame {
        let result = if r.computed != Outcome::Unknown {
            r.computed
        } else {
            r.declared.unwrap_or(Outcome::Unknown)
        };
        let game = Game {
            file,
            game: g.index(),
            event: &tagged.event,
            site: &tagged.site,
            date: tagged.date.as_deref(),
            round: tagged.round.as_deref(),
            white,
            black,
            result,
            plies: r.plies,
        };
        let (moves, early) = self.moves_of(r);
        let mut t = self.make(game, moves);
        t.early = Early::new(r.variant, early.1, ballot_tag(g), early.0);
        t
    }
    /// Adds a game given by its parts.
    #[cfg(test)]
    pub(crate) fn push(&mut self, g: Game<'_>, moves: Moves) {
        let t = self.make(g, moves);
        self.list.push(t);
    }
    /// A game given by its parts, its texts interned.
    fn make(&mut self, g: Game<'_>, moves: Moves) -> TGame {
        let mut opt = |s: Option<&str>| s.map_or(Sym::NONE, |s| self.strings.intern(s));
        let (date, round) = (opt(g.date), opt(g.round));
        let s = &mut self.strings;
        TGame {
            file: s.intern(g.file),
            game: g.game.min(u32::MAX as usize) as u32,
            event: s.intern(g.event),
            site: s.intern(g.site),
            date,
            round,
            white: s.intern(g.white),
            black: s.intern(g.black),
            result: g.result,
            plies: g.plies,
            moves,
            early: Early::default(),
        }
    }
    /// Games added.
    pub fn len(&self) -> usize {
        self.list.len()
    }
    /// No game added.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
    /// The moves of a game, the hashes before its last written to the file,
    /// then the keys of its first positions: (its moves, (the keys written,
    /// whether it is set up)).
    fn moves_of(&mut self, r: &crate::replay::GameReport) -> (Moves, (usize, bool)) {
        let (keys, set_up) = early_plies(r).unwrap_or_default();
        let plies = r.played.len() as u32;
        let mut bytes = Vec::with_capacity(8 * (plies as usize + keys));
        // The hash after each ply but the last, written as it is made.
        let Some(full) = crate::dupes::move_hashes(r, 0, |i, h| {
            if i + 1 < plies {
                bytes.extend_from_slice(&h.to_le_bytes());
            }
        }) else {
            return (Moves::NONE, (0, false));
        };
        let keys = write_early_keys(r, keys, &mut bytes);
        if let Some(fen) = r.start.filter(|_| set_up && keys > 0) {
            // The set-up position, for a ballot-mismatch's message.
            let fen = fen.to_fen();
            bytes.extend_from_slice(&(fen.len() as u64).to_le_bytes());
            bytes.extend_from_slice(fen.as_bytes());
        }
        let moves = Moves {
            plies,
            full,
            at: self.moves.push(&bytes),
        };
        (moves, (keys, set_up))
    }
    /// The games as the judging reads them.
    pub(crate) fn table(&self) -> Table<'_> {
        Table {
            list: List::Chunks(&self.list.0, self.list.len()),
            strings: &self.strings,
            mismatches: &self.mismatches,
            moves: &self.moves,
        }
    }
    /// Games kept aside ([`Games::aside`]) as the judging reads them, their
    /// texts and moves from these games (no `result-mismatch` message).
    pub(crate) fn table_of<'a>(&'a self, list: &'a [TGame]) -> Table<'a> {
        Table {
            list: List::Flat(list),
            strings: &self.strings,
            mismatches: empty(),
            moves: &self.moves,
        }
    }
}

/// Games kept in chunks of [`CHUNK`]: a vector that grows by doubling holds
/// up to twice what it needs while it grows (issue 51: 64 bytes a game, not
/// 128).
#[derive(Debug, Default)]
struct Chunks(Vec<Vec<TGame>>);

/// Games in a chunk (512 KiB).
const CHUNK: usize = 8192;

impl Chunks {
    fn push(&mut self, t: TGame) {
        match self.0.last_mut() {
            Some(c) if c.len() < CHUNK => c.push(t),
            _ => {
                let mut c = Vec::with_capacity(CHUNK);
                c.push(t);
                self.0.push(c);
            }
        }
    }
    fn len(&self) -> usize {
        self.0
            .last()
            .map_or(0, |c| (self.0.len() - 1) * CHUNK + c.len())
    }
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The games a [`Table`] reads: in chunks ([`Games`]), or in one slice.
#[derive(Clone, Copy, Debug)]
enum List<'a> {
    Chunks(&'a [Vec<TGame>], usize),
    Flat(&'a [TGame]),
}

/// No `result-mismatch` message.
fn empty() -> &'static HashMap<u32, Box<str>> {
    static EMPTY: std::sync::OnceLock<HashMap<u32, Box<str>>> = std::sync::OnceLock::new();
    EMPTY.get_or_init(HashMap::new)
}

impl TGame {
    /// Bytes of a game written by [`TGame::write`].
    pub(crate) const BYTES: usize = 4 * 9 + 1 + 4 + 8 + 8 + 2;
    /// Appends the game's [`TGame::BYTES`] bytes to `out`.
    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        for s in [
            self.file, self.event, self.site, self.date, self.round, self.white, self.black,
        ] {
            out.extend_from_slice(&s.0.to_le_bytes());
        }
        out.extend_from_slice(&self.game.to_le_bytes());
        out.push(match self.result {
            Outcome::WhiteWins => 0,
            Outcome::BlackWins => 1,
            Outcome::Draw => 2,
            Outcome::BothLose => 3,
            Outcome::Unknown => 4,
        });
        out.extend_from_slice(&self.plies.to_le_bytes());
        out.extend_from_slice(&self.moves.plies.to_le_bytes());
        out.extend_from_slice(&self.moves.full.to_le_bytes());
        out.extend_from_slice(&self.moves.at.to_le_bytes());
        out.extend_from_slice(&self.early.0.to_le_bytes());
    }
    /// The game [`TGame::write`] wrote at the start of `b` (`None` when `b`
    /// is too short).
    pub(crate) fn read(b: &[u8]) -> Option<TGame> {
        let b = b.get(..Self::BYTES)?;
        let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let u64_at = |i: usize| u64::from(u32_at(i)) | (u64::from(u32_at(i + 4)) << 32);
        let sym = |k: usize| Sym(u32_at(4 * k));
        Some(TGame {
            file: sym(0),
            event: sym(1),
            site: sym(2),
            date: sym(3),
            round: sym(4),
            white: sym(5),
            black: sym(6),
            game: u32_at(28),
            result: match b[32] {
                0 => Outcome::WhiteWins,
                1 => Outcome::BlackWins,
                2 => Outcome::Draw,
                3 => Outcome::BothLose,
                _ => Outcome::Unknown,
            },
            plies: u32_at(33),
            moves: Moves {
                plies: u32_at(37),
                full: u64_at(41),
                at: u64_at(49),
            },
            early: Early(u16::from_le_bytes([b[57], b[58]])),
        })
    }
}

/// A game given by its parts, for [`Games::push`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Game<'a> {
    pub file: &'a str,
    pub game: usize,
    pub event: &'a str,
    pub site: &'a str,
    pub date: Option<&'a str>,
    pub round: Option<&'a str>,
    pub white: &'a str,
    pub black: &'a str,
    pub result: Outcome,
    pub plies: u32,
}

/// The games, read: each by its index (`games[i]`), its texts by
/// [`Table::text`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Table<'a> {
    list: List<'a>,
    strings: &'a Strings,
    mismatches: &'a HashMap<u32, Box<str>>,
    moves: &'a Spill,
}

impl<'a> std::ops::Index<usize> for Table<'a> {
    type Output = TGame;
    fn index(&self, i: usize) -> &TGame {
        match self.list {
            List::Chunks(c, _) => &c[i / CHUNK][i % CHUNK],
            List::Flat(f) => &f[i],
        }
    }
}

impl<'a> Table<'a> {
    /// The games.
    pub(crate) fn len(&self) -> usize {
        match self.list {
            List::Chunks(_, n) => n,
            List::Flat(f) => f.len(),
        }
    }
    /// The text of `s` ("" for [`Sym::NONE`]).
    pub(crate) fn text(&self, s: Sym) -> &'a str {
        self.strings.get(s).unwrap_or("")
    }
    /// The text of `s`, `None` for [`Sym::NONE`].
    pub(crate) fn opt(&self, s: Sym) -> Option<&'a str> {
        self.strings.get(s)
    }
    /// The `result-mismatch` message of game `i`.
    pub(crate) fn mismatch(&self, i: usize) -> Option<&'a str> {
        self.mismatches.get(&(i as u32)).map(|m| &**m)
    }
    /// The file of game `i`, and its index there (for findings).
    pub(crate) fn place(&self, i: usize) -> (String, usize) {
        (self.text(self[i].file).to_string(), self[i].game as usize)
    }
    /// The hashes after each ply of game `i` but the last, read back from
    /// the temporary file (none when its moves are not known or cannot be
    /// read back).
    pub(crate) fn hashes_before_last(&self, i: usize) -> Vec<u64> {
        let m = self[i].moves;
        if !m.known() || m.plies < 2 {
            return Vec::new();
        }
        let mut bytes = vec![0u8; 8 * (m.plies as usize - 1)];
        if self.moves.read_at(m.at, &mut bytes).is_err() {
            return Vec::new();
        }
        bytes
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap_or_default()))
            .collect()
    }
    /// The keys of game `i`'s first positions (its start, then after each
    /// ply), read back from the temporary file (none when they cannot be).
    pub(crate) fn early_keys(&self, i: usize) -> Vec<u64> {
        let (m, n) = (self[i].moves, self[i].early.keys());
        if !m.known() || n == 0 {
            return Vec::new();
        }
        let mut bytes = vec![0u8; 8 * n];
        let at = m.at + 8 * u64::from(m.plies.saturating_sub(1));
        if self.moves.read_at(at, &mut bytes).is_err() {
            return Vec::new();
        }
        bytes
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap_or_default()))
            .collect()
    }
    /// The FEN of game `i`'s start, when it is set up (read back from the
    /// temporary file).
    pub(crate) fn setup_fen(&self, i: usize) -> Option<String> {
        let (m, e) = (self[i].moves, self[i].early);
        if !m.known() || !e.set_up() || e.keys() == 0 {
            return None;
        }
        let at = m.at + 8 * (u64::from(m.plies.saturating_sub(1)) + e.keys() as u64);
        let mut len = [0u8; 8];
        self.moves.read_at(at, &mut len).ok()?;
        let len = usize::try_from(u64::from_le_bytes(len)).ok()?.min(4096);
        let mut text = vec![0u8; len];
        self.moves.read_at(at + 8, &mut text).ok()?;
        String::from_utf8(text).ok()
    }
    /// Whether two games' moves are one game's: the same, or those of one
    /// the start of the other's (the longer one's hash after as many plies as
    /// the shorter one has, read back from the temporary file; a hash that
    /// cannot be read back tells nothing: not the same).
    pub(crate) fn same_moves(&self, a: &TGame, b: &TGame) -> bool {
        let (x, y) = (&a.moves, &b.moves);
        if !x.known() || !y.known() {
            return false;
        }
        let (short, long) = if x.plies <= y.plies { (x, y) } else { (y, x) };
        if short.plies == 0 {
            return false;
        }
        if short.plies == long.plies {
            return short.full == long.full;
        }
        let mut h = [0u8; 8];
        let at = long.at + 8 * u64::from(short.plies - 1);
        self.moves.read_at(at, &mut h).is_ok() && u64::from_le_bytes(h) == short.full
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The early keys written straight from the replay are the keys of the
    /// positions before each of the first plies and after the last of them,
    /// as `position_before` gives them: games shorter and longer than the
    /// plies kept, set up and not, and a game with no move.
    #[test]
    fn the_early_keys_are_those_of_the_positions_before_each_ply() {
        let mut texts = vec![
            "[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 *".to_string(),
            "[GameType \"25\"][FEN \"W:W22:B17,9\"]\n1. c3-d4 *".to_string(),
            "[GameType \"20\"]\n*".to_string(),
        ];
        // The project's own games: long ones, set-ups, every variant.
        for file in [
            "russian/clean.pdn",
            "english/clean.pdn",
            "brazilian/clean.pdn",
        ] {
            let path = format!("{}/corpus/{file}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).expect("the project's corpus");
            texts.extend(
                crate::pdn::read_all(text.as_bytes())
                    .iter()
                    .map(|g| String::from_utf8_lossy(&g.text).into_owned()),
            );
        }
        let opts = crate::replay::Options::default().keep_moves(true);
        let mut written = 0;
        for text in &texts {
            let g = crate::pdn::read_all(text.as_bytes()).remove(0);
            let r = crate::check::check_game(&g, &opts);
            let (keys, _) = early_plies(&r).expect("replayed");
            let expected: Vec<u8> = (1..=keys as u32)
                .filter_map(|ply| r.position_before(ply))
                .flat_map(|p| p.key().to_le_bytes())
                .collect();
            let mut out = Vec::new();
            let n = write_early_keys(&r, keys, &mut out);
            assert_eq!((n, &out), (expected.len() / 8, &expected), "{text}");
            written += n;
        }
        assert!(written > 100, "{written}");
    }

    #[test]
    fn a_game_is_64_bytes_and_each_text_is_kept_once() {
        assert!(std::mem::size_of::<TGame>() <= 64);
        let mut s = Strings::default();
        let a = s.intern("Ann");
        let b = s.intern("Bob");
        assert_eq!(s.intern("Ann"), a);
        assert_ne!(a, b);
        assert_eq!(
            (s.get(a), s.get(b), s.get(Sym::NONE)),
            (Some("Ann"), Some("Bob"), None)
        );
        assert_eq!(s.list.len(), 2);
    }

    #[test]
    fn games_past_a_chunk_are_read_by_their_index() {
        let mut games = Games::new();
        let n = 2 * CHUNK + 5;
        for i in 0..n {
            let g = Game {
                file: "f",
                game: i + 1,
                event: "E",
                site: "",
                date: None,
                round: None,
                white: "A",
                black: "B",
                result: Outcome::Draw,
                plies: 0,
            };
            games.push(g, Moves::NONE);
        }
        let t = games.table();
        assert_eq!((games.len(), t.len()), (n, n));
        assert!((0..n).all(|i| t[i].game as usize == i + 1));
        assert_eq!(t.place(n - 1), ("f".to_string(), n));
    }

    #[test]
    fn a_game_written_reads_back() {
        let t = TGame {
            file: Sym(1),
            game: 7,
            event: Sym(2),
            site: Sym(3),
            date: Sym::NONE,
            round: Sym(5),
            white: Sym(6),
            black: Sym(8),
            result: Outcome::BothLose,
            plies: 41,
            moves: Moves {
                plies: 40,
                full: u64::MAX - 3,
                at: 1 << 40,
            },
            early: Early::new(Some(Variant::Frisian), true, false, 17),
        };
        let mut b = Vec::new();
        t.write(&mut b);
        assert_eq!(b.len(), TGame::BYTES);
        assert_eq!(TGame::read(&b), Some(t));
        assert_eq!(TGame::read(&b[1..]), None);
        let e = t.early;
        assert_eq!(
            (e.variant(), e.set_up(), e.tag(), e.keys()),
            (Some(Variant::Frisian), true, false, 17)
        );
        let e = Early::new(None, false, true, 99);
        assert_eq!(
            (e.variant(), e.set_up(), e.tag(), e.keys()),
            (None, false, true, 63)
        );
    }
}
