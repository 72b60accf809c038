//! The games as the tournament sees them, in a few words each (issue 51):
//! their tag values interned (a `u32` for each, the text once per distinct
//! value), their result, their length, and their moves as the hash after the
//! last ply, the hashes after the plies before it in an unnamed temporary
//! file. A game costs 64 bytes of memory, whatever its length and tags.

use super::{Code, Outcome, Severity};
use crate::dupes::Spill;
use std::collections::HashMap;
use std::hash::BuildHasher;

/// A tag value of the games, interned: an index into their [`Strings`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Sym(u32);

impl Sym {
    /// No value (a tag that is absent, where absent differs from empty).
    pub(crate) const NONE: Sym = Sym(u32::MAX);
}

/// Each distinct text once, by its [`Sym`].
#[derive(Debug, Default)]
pub(crate) struct Strings {
    list: Vec<Box<str>>,
    table: hashbrown::HashTable<u32>,
    hasher: std::hash::RandomState,
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
/// [`events`](super::events).
///
/// In memory a game costs 64 bytes, and each distinct tag value is kept
/// once; the hashes after each of its plies, which tell a game from a copy
/// that stops early, are written to an unnamed temporary file
/// (docs/limits.md).
#[derive(Debug)]
pub struct Games {
    list: Vec<TGame>,
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
            list: Vec::new(),
            strings: Strings::default(),
            mismatches: HashMap::new(),
            moves: Spill::new(),
        }
    }
    /// Adds a game of `file` replayed with `keep_moves`: its result is the
    /// computed one where the rules decided the game, else the declared one.
    pub fn add(&mut self, file: &str, g: &crate::pdn::Game, r: &crate::replay::GameReport) {
        let result = if r.computed != Outcome::Unknown {
            r.computed
        } else {
            r.declared.unwrap_or(Outcome::Unknown)
        };
        if let Some(d) = r
            .diagnostics
            .iter()
            .find(|d| d.code == Code::ResultMismatch && d.severity == Severity::Error)
        {
            self.mismatches
                .insert(self.list.len() as u32, d.message.to_string().into());
        }
        let first = |names: &[&str]| names.iter().find_map(|n| g.tag(n)).unwrap_or_default();
        let (event, site) = (
            g.tag("Event").unwrap_or_default(),
            g.tag("Site").unwrap_or_default(),
        );
        let (date, round) = (g.tag("Date"), g.tag("Round"));
        let (white, black) = (
            first(&crate::select::WHITE_TAGS),
            first(&crate::select::BLACK_TAGS),
        );
        let game = Game {
            file,
            game: g.index(),
            event: &event,
            site: &site,
            date: date.as_deref(),
            round: round.as_deref(),
            white: &white,
            black: &black,
            result,
            plies: r.plies,
        };
        let moves = self.moves_of(r);
        self.push(game, moves);
    }
    /// Adds a game given by its parts.
    pub(crate) fn push(&mut self, g: Game<'_>, moves: Moves) {
        let mut opt = |s: Option<&str>| s.map_or(Sym::NONE, |s| self.strings.intern(s));
        let (date, round) = (opt(g.date), opt(g.round));
        let s = &mut self.strings;
        self.list.push(TGame {
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
        });
    }
    /// Games added.
    pub fn len(&self) -> usize {
        self.list.len()
    }
    /// No game added.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
    /// The moves of a game, the hashes before its last written to the file.
    fn moves_of(&mut self, r: &crate::replay::GameReport) -> Moves {
        let Some(f) = crate::dupes::Fingerprint::of(r, 1) else {
            return Moves::NONE;
        };
        let mut bytes = Vec::with_capacity(8 * f.prefixes.len());
        for h in f.prefixes.iter().take(f.plies.saturating_sub(1) as usize) {
            bytes.extend_from_slice(&h.to_le_bytes());
        }
        Moves {
            plies: f.plies,
            full: f.full,
            at: self.moves.push(&bytes),
        }
    }
    /// The games as the judging reads them.
    pub(crate) fn table(&self) -> Table<'_> {
        Table {
            list: &self.list,
            strings: &self.strings,
            mismatches: &self.mismatches,
            moves: &self.moves,
        }
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
    list: &'a [TGame],
    strings: &'a Strings,
    mismatches: &'a HashMap<u32, Box<str>>,
    moves: &'a Spill,
}

impl<'a> std::ops::Index<usize> for Table<'a> {
    type Output = TGame;
    fn index(&self, i: usize) -> &TGame {
        &self.list[i]
    }
}

impl<'a> Table<'a> {
    /// The games.
    pub(crate) fn len(&self) -> usize {
        self.list.len()
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
        (
            self.text(self.list[i].file).to_string(),
            self.list[i].game as usize,
        )
    }
    /// The hashes after each ply of game `i` but the last, read back from
    /// the temporary file (none when its moves are not known or cannot be
    /// read back).
    pub(crate) fn hashes_before_last(&self, i: usize) -> Vec<u64> {
        let m = self.list[i].moves;
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
}
