//! Games stored more than once, and games whose moves are the start of
//! another's. Linear in the number of plies: every game's moves are hashed
//! ply by ply from its start position (which includes the variant), identical
//! games share their final hash, and a game is a prefix of another when its
//! final hash is one of the other's hashes after as many plies. Never
//! pairwise, and never a list of pairs: each game that starts others is
//! reported once, with the longest of them.
//!
//! Memory is a few words a game, whatever its length: the hashes after each
//! ply, and the tags of each game for what is printed, go to an unnamed
//! temporary file and are read back from it (docs/limits.md).
//!
//! ```
//! # fn main() -> std::io::Result<()> {
//! use pdnkit::dupes::Finder;
//! use pdnkit::pdn::read_all;
//! use pdnkit::check::check_game;
//! use pdnkit::replay::Options;
//! let text = b"[GameType \"20\"] 1. 32-28 19-23 2. 28x19 14x23 *\n\n[GameType \"20\"] 1. 32-28 19-23 2. 28x19 14x23 *\n";
//! let opts = Options::default().keep_moves(true);
//! let mut finder = Finder::new(2);
//! for g in read_all(text) {
//!     finder.add(&g, Some(&check_game(&g, &opts)));
//! }
//! let found = finder.find()?;
//! assert_eq!(found.groups, vec![vec![0, 1]]);
//! # Ok(())
//! # }
//! ```

use crate::pdn::{Game, Outcome};
use crate::replay::GameReport;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use crate::position::splitmix;
use crate::store::Spill;

/// Mixes `x` into the hash `h`.
fn mix(h: u64, x: u64) -> u64 {
    splitmix(h ^ x)
}

/// The hashes of a game's moves, replayed with `keep_moves`: its start
/// position, `salt` (games of other salts never match, neither whole nor as a
/// start) and each ply mixed in turn. `each` is told each ply's index and
/// the hash after it; the hash after the last ply comes back (`None` when
/// the start is not known). Two games with the same hashes played the same
/// moves from the same position.
#[inline]
pub(crate) fn move_hashes(
    r: &GameReport,
    salt: u64,
    mut each: impl FnMut(u32, u64),
) -> Option<u64> {
    /// The captured pieces' part of a plain move's key.
    const NO_CAPTURE: u64 = splitmix(0);
    let start = r.start?;
    // The start's key and its variant: all of a start position (no king
    // has moved yet, so there is no run of a king's moves to tell; issue
    // 65: SipHash of the whole position was 600 instructions a game).
    let variant = start.variant() as u64 + 1;
    let mut h = mix(mix(start.key(), variant), salt);
    for (i, p) in r.played.iter().enumerate() {
        let c = p.mv.captured.bits();
        let captured = if c == 0 {
            NO_CAPTURE
        } else {
            mix(0, c as u64 ^ (c >> 64) as u64)
        };
        let key = u64::from(p.mv.from.number()) | u64::from(p.mv.to.number()) << 8 | captured << 16;
        h = mix(h, key);
        each(i as u32, h);
    }
    Some(h)
}

/// A hash of a game's White and Black (by their name keys, as `tournament`
/// matches players) and its Round value.
fn players_and_round(g: &Game) -> u64 {
    let tag = |names: &[&str]| names.iter().find_map(|n| g.tag(n)).unwrap_or_default();
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    crate::players::name_key(&tag(&crate::players::WHITE_TAGS)).hash(&mut hasher);
    crate::players::name_key(&tag(&crate::players::BLACK_TAGS)).hash(&mut hasher);
    g.tag("Round").unwrap_or_default().trim().hash(&mut hasher);
    hasher.finish() | 1
}

/// What [`Finder::find`] found, by the indices games were added in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Found {
    /// Groups of identical games (two or more each), in order.
    pub groups: Vec<Vec<usize>>,
    /// `(a, b)`: game `a` is the start of game `b`, the longest game it
    /// starts (the first of them when several are as long): one entry per
    /// game `a`, in the order of `a`, never one per pair (a chain of N
    /// fragments of one line of play has N²/2 pairs).
    pub prefixes: Vec<(usize, usize)>,
}

/// Collects fingerprints, then finds duplicates and prefixes.
///
/// What it keeps in memory is a few words a game (its final hash, its
/// length, the game before it with the same hash, and, with
/// [`Finder::add_game`], its file and where its entry is): the hashes after
/// each ply and the entries are written to an unnamed temporary file and read
/// back in order ([`Finder::find`]) or by game ([`Finder::entry`]), so that
/// an archive of millions of games fits (docs/limits.md; issue 51).
#[derive(Debug)]
pub struct Finder {
    min_plies: u32,
    /// Per game: the hash after its last ply.
    fulls: Vec<u64>,
    /// Per game: its plies, [`NONE`] when it was not replayed.
    plies: Vec<u32>,
    /// Per game with more than `min_plies` plies: the hashes after
    /// `min_plies`, ..., `plies - 1` plies, in the order of the games.
    prefixes: Spill,
    /// Per game added by [`Finder::add_game`]: its file, and its entry's offset in `entries`.
    file_of: Vec<u32>,
    entry_at: Vec<u64>,
    entries: Option<Spill>,
    files: Vec<String>,
    file_ids: HashMap<String, u32>,
    /// Copies need the same players and Round ([`Finder::same_players`]).
    same_players: bool,
}

/// No game, or no length (not replayed).
const NONE: u32 = u32::MAX;

impl Finder {
    /// Prefixes shorter than `min_plies` are not reported (short games are
    /// the start of too many others).
    pub fn new(min_plies: u32) -> Finder {
        Finder {
            min_plies: min_plies.max(1),
            fulls: Vec::new(),
            plies: Vec::new(),
            prefixes: Spill::new(),
            file_of: Vec::new(),
            entry_at: Vec::new(),
            entries: None,
            files: Vec::new(),
            file_ids: HashMap::new(),
            same_players: false,
        }
    }
    /// Copies must also have the same players (White and Black, matched by
    /// name as `tournament` matches them) and the same Round value, when
    /// `yes` (`select --unique`: the two games of a micro-match share a
    /// ballot, and a short draw can be the start of the return game; issue
    /// 55). Games of one moves and other players are then never one group.
    pub fn same_players(mut self, yes: bool) -> Finder {
        self.same_players = yes;
        self
    }
    /// Adds the next game, replayed with `keep_moves` (`None`: a game that
    /// matches nothing, such as one left out by a selection).
    pub fn add(&mut self, g: &Game, r: Option<&GameReport>) {
        let salt = if self.same_players {
            players_and_round(g)
        } else {
            0
        };
        // The hashes after min_plies .. plies - 1 plies, written as they
        // are made.
        let plies = r.map_or(0, |r| r.played.len() as u32);
        let min = self.min_plies;
        let mut bytes = Vec::with_capacity(8 * plies.saturating_sub(min) as usize);
        let full = r.and_then(|r| {
            move_hashes(r, salt, |i, h| {
                if (min..plies).contains(&(i + 1)) {
                    bytes.extend_from_slice(&h.to_le_bytes());
                }
            })
        });
        let Some(full) = full else {
            self.fulls.push(0);
            self.plies.push(NONE);
            return;
        };
        self.fulls.push(full);
        self.plies.push(plies.min(NONE - 1));
        self.prefixes.push(&bytes);
    }
    /// Adds the next game of `file` replayed with `keep_moves`, with its
    /// [`Entry`], read back by [`Finder::entry`].
    pub fn add_game(&mut self, file: &str, g: &Game, r: &GameReport) {
        self.add(g, Some(r));
        let id = match self.file_ids.get(file) {
            Some(&id) => id,
            None => {
                let id = self.files.len() as u32;
                self.files.push(file.to_string());
                self.file_ids.insert(file.to_string(), id);
                id
            }
        };
        // Written from the game's own text: no entry of owned strings first
        // (issue 65: two allocations a tag, 3 % of `dupes`).
        let tags = g.tags.iter().map(|t| (g.tag_name(t), g.tag_text(t)));
        // The raw lengths: about the decoded text's.
        let text_len = g.tags.iter().map(|t| t.name.len() + t.value.len()).sum();
        let result = r.declared.map(|o| o.normalised());
        let plies = r.played.len() as u32;
        let bytes = entry_bytes(id, g.index, g.start_line(), plies, result, tags, text_len);
        let entries = self.entries.get_or_insert_with(Spill::new);
        self.entry_at.push(entries.push(&bytes));
        self.file_of.push(id);
    }
    /// Games added.
    pub fn len(&self) -> usize {
        self.plies.len()
    }
    /// No game added.
    pub fn is_empty(&self) -> bool {
        self.plies.is_empty()
    }
    /// The entry of game `i` added by [`Finder::add_game`], read back
    pub fn entry(&self, i: usize) -> std::io::Result<Entry> {
        let missing = || std::io::Error::new(std::io::ErrorKind::NotFound, "no entry of that game");
        let (Some(&at), Some(entries)) = (self.entry_at.get(i), &self.entries) else {
            return Err(missing());
        };
        let mut len = [0u8; 4];
        entries.read_at(at, &mut len)?;
        let mut bytes = vec![0u8; u32::from_le_bytes(len) as usize];
        entries.read_at(at + 4, &mut bytes)?;
        Entry::from_bytes(&bytes, &self.files).ok_or_else(missing)
    }
    /// Groups of identical games (games with no moves, such as setups and
    /// ballots, are left out) and prefixes. Linear in the plies: the hashes
    /// after each ply are read back once, in order, each looked up among the
    /// games' final hashes. An error reading the temporary file is returned.
    pub fn find(&self) -> std::io::Result<Found> {
        let chains = Chains::of(&self.fulls, &self.plies);
        let groups = chains.groups();
        // Per game, the longest game it starts: memory by the games, not the pairs.
        let mut longest: Vec<u32> = vec![NONE; self.plies.len()];
        let mut read = self.prefixes.reader();
        // A game's hashes are read at once: one call a game, not a ply.
        let mut words = Vec::new();
        for (j, &b) in self.plies.iter().enumerate() {
            if b == NONE || b <= self.min_plies {
                continue;
            }
            words.resize(8 * (b - self.min_plies) as usize, 0);
            std::io::Read::read_exact(&mut read, &mut words)?;
            for (plies, word) in (self.min_plies..b).zip(words.chunks_exact(8)) {
                let h = u64::from_le_bytes(word.try_into().unwrap_or_default());
                for i in chains.with_full(h) {
                    if self.plies[i] == plies
                        && (longest[i] == NONE || b > self.plies[longest[i] as usize])
                    {
                        longest[i] = j as u32;
                    }
                }
            }
        }
        let prefixes = longest
            .iter()
            .enumerate()
            .filter(|(_, &l)| l != NONE)
            .map(|(i, &l)| (i, l as usize))
            .collect();
        Ok(Found { groups, prefixes })
    }
}

/// The games by their final hash: a hash table of the last game with each
/// hash, and per game the one before it with the same hash.
struct Chains<'a> {
    fulls: &'a [u64],
    last: hashbrown::HashTable<u32>,
    before: Vec<u32>,
}

impl<'a> Chains<'a> {
    /// The games with moves (`plies` neither 0 nor [`NONE`]) by their hash.
    fn of(fulls: &'a [u64], plies: &[u32]) -> Chains<'a> {
        let mut last = hashbrown::HashTable::new();
        let mut before = vec![NONE; fulls.len()];
        for (i, (&h, &p)) in fulls.iter().zip(plies).enumerate() {
            if p == 0 || p == NONE {
                continue;
            }
            match last.entry(h, |&e: &u32| fulls[e as usize] == h, |&e| fulls[e as usize]) {
                hashbrown::hash_table::Entry::Occupied(mut o) => {
                    before[i] = *o.get();
                    *o.get_mut() = i as u32;
                }
                hashbrown::hash_table::Entry::Vacant(v) => {
                    v.insert(i as u32);
                }
            }
        }
        Chains {
            fulls,
            last,
            before,
        }
    }
    /// The games whose final hash is `h`, last first.
    fn with_full(&self, h: u64) -> impl Iterator<Item = usize> + '_ {
        let mut at = self
            .last
            .find(h, |&e| self.fulls[e as usize] == h)
            .map_or(NONE, |&e| e);
        std::iter::from_fn(move || {
            (at != NONE).then(|| {
                let i = at as usize;
                at = self.before[i];
                i
            })
        })
    }
    /// Groups of two games or more with one hash, each in order, in the
    /// order of their first game.
    fn groups(&self) -> Vec<Vec<usize>> {
        let mut groups: Vec<Vec<usize>> = self
            .last
            .iter()
            .filter(|&&e| self.before[e as usize] != NONE)
            .map(|&e| {
                let mut g: Vec<usize> = self.with_full(self.fulls[e as usize]).collect();
                g.reverse();
                g
            })
            .collect();
        groups.sort_unstable_by_key(|g| g[0]);
        groups
    }
}

/// One game as duplicate detection reports it: where it is, its length and
/// its tags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The file, as given.
    pub file: String,
    /// 1-based index in the file.
    pub game: usize,
    /// Line where it starts.
    pub line: u32,
    /// Plies replayed.
    pub plies: u32,
    /// The declared result, normalised (`2-0`, `1-1`, `0-2`, `0-0`, `*`).
    pub result: Option<&'static str>,
    /// The tags' names and decoded values, one after another, in order.
    text: String,
    /// Per tag: where its name and its value end in `text` (each starts
    /// where the one before it ends).
    ends: Vec<(u32, u32)>,
}

/// An [`Entry`] as bytes, its length first, its file as `file` (an index
/// into the finder's files); [`Entry::from_bytes`] reads it back. The tags'
/// lengths come before their text, so that the text is one run of UTF-8.
/// `text_len` is about the length of the tags' text (room made for it).
fn entry_bytes<N: AsRef<str>, V: AsRef<str>>(
    file: u32,
    game: usize,
    line: u32,
    plies: u32,
    result: Option<&str>,
    tags: impl ExactSizeIterator<Item = (N, V)>,
    text_len: usize,
) -> Vec<u8> {
    let n = tags.len();
    let mut b = Vec::with_capacity(HEADER + 8 * n + text_len);
    b.extend_from_slice(&[0u8; 4]);
    b.extend_from_slice(&file.to_le_bytes());
    b.extend_from_slice(&(game as u64).to_le_bytes());
    b.extend_from_slice(&line.to_le_bytes());
    b.extend_from_slice(&plies.to_le_bytes());
    let result = result.and_then(|r| OUTCOMES.iter().position(|o| o.normalised() == r));
    b.push(result.map_or(u8::MAX, |r| r as u8));
    b.extend_from_slice(&(n as u32).to_le_bytes());
    let lengths = b.len();
    b.resize(lengths + 8 * n, 0);
    for (i, (name, value)) in tags.enumerate() {
        for (j, s) in [name.as_ref(), value.as_ref()].into_iter().enumerate() {
            let at = lengths + 8 * i + 4 * j;
            if let Some(len) = b.get_mut(at..at + 4) {
                len.copy_from_slice(&(s.len() as u32).to_le_bytes());
            }
            b.extend_from_slice(s.as_bytes());
        }
    }
    let len = (b.len() - 4) as u32;
    b[..4].copy_from_slice(&len.to_le_bytes());
    b
}

/// The bytes of an entry before its tags' lengths: its own length, file,
/// game, line, plies, result and number of tags.
const HEADER: usize = 4 + 4 + 8 + 4 + 4 + 1 + 4;

impl Entry {
    /// An entry of `file` with `tags` (name, decoded value), in order.
    pub fn with_tags<'t>(
        file: &str,
        game: usize,
        line: u32,
        plies: u32,
        result: Option<&'static str>,
        tags: impl IntoIterator<Item = (&'t str, &'t str)>,
    ) -> Entry {
        let (mut text, mut ends) = (String::new(), Vec::new());
        for (name, value) in tags {
            text.push_str(name);
            let name_end = text.len() as u32;
            text.push_str(value);
            ends.push((name_end, text.len() as u32));
        }
        Entry {
            file: file.to_string(),
            game,
            line,
            plies,
            result,
            text,
            ends,
        }
    }
    /// Tags (name, decoded value), in order.
    pub fn tags(&self) -> impl ExactSizeIterator<Item = (&str, &str)> + '_ {
        (0..self.ends.len()).map(move |i| {
            let start = match i.checked_sub(1) {
                Some(before) => self.ends[before].1 as usize,
                None => 0,
            };
            let (name, value) = (self.ends[i].0 as usize, self.ends[i].1 as usize);
            (
                self.text.get(start..name).unwrap_or_default(),
                self.text.get(name..value).unwrap_or_default(),
            )
        })
    }
    /// Names of the tags whose values differ between `games` (or that some
    /// lack).
    pub fn differing_tags(games: &[&Entry]) -> Vec<String> {
        differing_tags(games)
    }
    /// Whether `games` (a group of identical moves) are copies of one game:
    /// the same White and Black (matched by name as `tournament` matches
    /// them). Otherwise the group is the same moves played by other players
    /// (the two games of a micro-match, a short draw repeated), which
    /// `select --unique` and `tournament` keep apart (issue 62 item 11).
    pub fn same_players(games: &[&Entry]) -> bool {
        let side =
            |e: &Entry, names: &[&str]| crate::players::name_key(e.first_tag(names).unwrap_or(""));
        let Some(first) = games.first() else {
            return true;
        };
        let (w, b) = (
            side(first, &crate::players::WHITE_TAGS),
            side(first, &crate::players::BLACK_TAGS),
        );
        games.iter().all(|e| {
            same_person(&w, &side(e, &crate::players::WHITE_TAGS))
                && same_person(&b, &side(e, &crate::players::BLACK_TAGS))
        })
    }
    /// The entry of a game of `file` and its report.
    pub fn new(file: &str, g: &Game, r: &GameReport) -> Entry {
        let values: Vec<_> = g.tags.iter().map(|t| g.tag_text(t)).collect();
        let tags = g
            .tags
            .iter()
            .zip(&values)
            .map(|(t, v)| (g.tag_name(t), v.as_ref()));
        Entry::with_tags(
            file,
            g.index,
            g.start_line(),
            r.played.len() as u32,
            r.declared.map(|o| o.normalised()),
            tags,
        )
    }
    /// [`entry_bytes`] read back (without its length), its file named
    /// from `files`.
    fn from_bytes(b: &[u8], files: &[String]) -> Option<Entry> {
        let u32_at = |at: usize| -> Option<u32> {
            b.get(at..at + 4)?.try_into().ok().map(u32::from_le_bytes)
        };
        let file = files.get(u32_at(0)? as usize)?.clone();
        let game = u64::from_le_bytes(b.get(4..12)?.try_into().ok()?) as usize;
        let line = u32_at(12)?;
        let plies = u32_at(16)?;
        let result = OUTCOMES.get(*b.get(20)? as usize).map(|o| o.normalised());
        let n = u32_at(21)? as usize;
        let lengths = HEADER - 4;
        let text_at = lengths.checked_add(n.checked_mul(8)?)?;
        let text = std::str::from_utf8(b.get(text_at..)?).ok()?;
        let mut ends = Vec::with_capacity(n);
        let mut end = 0usize;
        for i in 0..n {
            let name = end.checked_add(u32_at(lengths + 8 * i)? as usize)?;
            end = name.checked_add(u32_at(lengths + 8 * i + 4)? as usize)?;
            // Each piece was written from a whole `str`, so its ends are
            // character boundaries; `tags` relies on it.
            if !text.is_char_boundary(name) || !text.is_char_boundary(end) {
                return None;
            }
            ends.push((name as u32, end as u32));
        }
        Some(Entry {
            file,
            game,
            line,
            plies,
            result,
            text: text.get(..end)?.to_string(),
            ends,
        })
    }
    /// The value of the first tag named `name` (any case).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v)
    }
    /// The first of the tags `names` that the game has.
    fn first_tag(&self, names: &[&str]) -> Option<&str> {
        names.iter().find_map(|n| self.tag(n))
    }
    /// "White – Black, Event, Date, result" as far as the tags tell
    /// (the Italian and French tag names count as White and Black).
    pub fn who(&self) -> String {
        let mut s = String::with_capacity(64);
        s.push_str(self.first_tag(&crate::players::WHITE_TAGS).unwrap_or("?"));
        s.push_str(" – ");
        s.push_str(self.first_tag(&crate::players::BLACK_TAGS).unwrap_or("?"));
        let told =
            |v: &&str| !v.trim().is_empty() && !v.chars().all(|c| matches!(c, '?' | '.' | '-'));
        let told = [self.tag("Event"), self.tag("Date")]
            .into_iter()
            .flatten()
            .filter(told);
        for v in told {
            s.push_str(", ");
            s.push_str(v);
        }
        if let Some(r) = self.result {
            s.push_str(", ");
            s.push_str(r);
        }
        s
    }
    /// "FILE game N (line L)".
    pub fn name(&self) -> String {
        use std::fmt::Write as _;
        // Room made at once: `format!` would grow it a piece at a time.
        let mut s = String::with_capacity(self.file.len() + 32);
        let _ = write!(s, "{} game {} (line {})", self.file, self.game, self.line);
        s
    }
    #[cfg(feature = "serde")]
    fn place(&self) -> Place<'_> {
        Place {
            black: self.first_tag(&crate::players::BLACK_TAGS),
            date: self.tag("Date"),
            event: self.tag("Event"),
            file: &self.file,
            game: self.game,
            line: self.line,
            plies: None,
            result: self.result,
            white: self.first_tag(&crate::players::WHITE_TAGS),
        }
    }
}

/// The results an entry keeps, by their index in its bytes.
const OUTCOMES: [Outcome; 5] = [
    Outcome::WhiteWins,
    Outcome::Draw,
    Outcome::BlackWins,
    Outcome::BothLose,
    Outcome::Unknown,
];

/// [`Entry::differing_tags`].
/// Whether two name keys may be one player: the same key, a placeholder
/// (no one named), or a word of three letters or more in common (`WR
/// Fraser` and `Fraser`, `MF Tinsley` and `M Tinsley`).
fn same_person(a: &str, b: &str) -> bool {
    if a == b || crate::players::is_placeholder(a) || crate::players::is_placeholder(b) {
        return true;
    }
    let long = |s: &'_ str| -> Vec<String> {
        s.split(' ')
            .filter(|w| w.chars().count() >= 3)
            .map(str::to_string)
            .collect()
    };
    let bw = long(b);
    long(a).iter().any(|w| bw.contains(w))
}

fn differing_tags(games: &[&Entry]) -> Vec<String> {
    // Copies' tags are most often the same, in the same order.
    if games
        .windows(2)
        .all(|w| w[0].text == w[1].text && w[0].ends == w[1].ends)
    {
        return Vec::new();
    }
    let mut names: Vec<&str> = games.iter().flat_map(|g| g.tags().map(|t| t.0)).collect();
    names.sort_unstable();
    names.dedup();
    fn value<'e>(g: &'e Entry, name: &str) -> Option<&'e str> {
        g.tags().find(|t| t.0 == name).map(|t| t.1)
    }
    names
        .into_iter()
        .filter(|&n| {
            let first = games.first().and_then(|g| value(g, n));
            games.iter().any(|g| value(g, n) != first)
        })
        .map(str::to_string)
        .collect()
}

/// Where a game is, in the JSON records (fields in alphabetical order, the
/// order they have always been written in).
#[cfg(feature = "serde")]
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
struct Place<'a> {
    /// The Black tag (or Nero, Noir).
    pub black: Option<&'a str>,
    /// The Date tag.
    pub date: Option<&'a str>,
    /// The Event tag.
    pub event: Option<&'a str>,
    /// The file, as named.
    pub file: &'a str,
    /// 1-based index of the game in its file.
    pub game: usize,
    /// 1-based line where it starts.
    pub line: u32,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    /// Plies read (in prefix records).
    pub plies: Option<u32>,
    /// The declared result, normalised.
    pub result: Option<&'static str>,
    /// The White tag (or Bianco, Blanc).
    pub white: Option<&'a str>,
}

/// The JSON records of `dupes --format json` (docs/json.md), one per line
/// (fields in alphabetical order, `type` among them, as they have always been written).
#[cfg(feature = "serde")]
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(untagged)]
enum DupesRecord<'a> {
    /// A group of identical games (`type: "duplicates"`).
    Duplicates {
        /// `copies` (the same players) or `other-players` (the same moves
        /// played by other players: not copies).
        class: &'static str,
        /// Names of the tags whose values differ between the games.
        differing_tags: Vec<String>,
        /// Games.
        games: Vec<Place<'a>>,
        /// Plies of each game.
        plies: u32,
        #[cfg_attr(feature = "serde", serde(rename = "type"))]
        /// `"duplicates"`.
        kind: &'static str,
    },
    /// A game whose moves start another (`type: "prefix"`).
    Prefix {
        /// The shorter game.
        game: Place<'a>,
        /// The game it is the start of.
        of: Place<'a>,
        #[cfg_attr(feature = "serde", serde(rename = "type"))]
        /// `"prefix"`.
        kind: &'static str,
    },
    /// A file whose every game is also in another file (`type: "contained"`).
    Contained {
        /// The file whose games are all elsewhere.
        file: &'a str,
        /// Its games.
        games: usize,
        /// The file that holds them all.
        #[cfg_attr(feature = "serde", serde(rename = "in"))]
        within: &'a str,
        #[cfg_attr(feature = "serde", serde(rename = "type"))]
        /// `"contained"`.
        kind: &'static str,
    },
    /// The counts (`type: "summary"`).
    Summary {
        /// Files whose every game is in another file.
        contained_files: usize,
        /// Groups of identical games.
        duplicate_groups: usize,
        /// Games.
        games: usize,
        /// Games that are the start of another.
        prefixes: usize,
        #[cfg_attr(feature = "serde", serde(rename = "type"))]
        /// `"summary"`.
        kind: &'static str,
    },
}

impl Found {
    /// Files all of whose games have a copy in one other file: (file, its
    /// games, the other file), in the order files were added; the other file
    /// is the first by name when several hold them all. A file with a game
    /// that has no moves (a setup, a ballot) is never contained: such a game
    /// cannot be matched. Known for the games added by [`Finder::add_game`].
    pub fn contained_files(&self, finder: &Finder) -> Vec<(String, usize, String)> {
        contained_files(self, finder)
    }

    /// The JSON records of `dupes --format json` (docs/json.md), one per
    /// line, of what was found among the games of `finder` (added by
    /// [`Finder::add_game`], in that order): each group of identical games,
    /// each prefix, each contained file, and the counts. Each record's games
    /// are read back from the finder's temporary file as it is made.
    #[cfg(feature = "serde")]
    pub fn records<'a>(
        &'a self,
        finder: &'a Finder,
    ) -> impl Iterator<Item = std::io::Result<impl serde::Serialize + 'a>> + 'a {
        let groups = self.groups.iter().map(move |grp| {
            let games = grp
                .iter()
                .map(|&i| finder.entry(i))
                .collect::<std::io::Result<Vec<Entry>>>()?;
            Ok(Record::Duplicates(games))
        });
        let prefixes = self
            .prefixes
            .iter()
            .map(move |&(i, j)| Ok(Record::Prefix(finder.entry(i)?, finder.entry(j)?)));
        let contained = contained_files(self, finder);
        let summary = Record::Summary {
            contained_files: contained.len(),
            duplicate_groups: self.groups.len(),
            games: finder.len(),
            prefixes: self.prefixes.len(),
        };
        groups
            .chain(prefixes)
            .chain(
                contained
                    .into_iter()
                    .map(|(file, n, within)| Ok(Record::Contained(file, n, within))),
            )
            .chain(std::iter::once(Ok(summary)))
    }
}

/// A record of `dupes --format json` with its games read back: serialized as
/// the [`DupesRecord`] that borrows from it.
#[cfg(feature = "serde")]
enum Record {
    Duplicates(Vec<Entry>),
    Prefix(Entry, Entry),
    Contained(String, usize, String),
    Summary {
        contained_files: usize,
        duplicate_groups: usize,
        games: usize,
        prefixes: usize,
    },
}

#[cfg(feature = "serde")]
impl serde::Serialize for Record {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        fn with_plies(e: &Entry) -> Place<'_> {
            Place {
                plies: Some(e.plies),
                ..e.place()
            }
        }
        match self {
            Record::Duplicates(games) => {
                let members: Vec<&Entry> = games.iter().collect();
                DupesRecord::Duplicates {
                    class: if Entry::same_players(&members) {
                        "copies"
                    } else {
                        "other-players"
                    },
                    differing_tags: differing_tags(&members),
                    games: games.iter().map(Entry::place).collect(),
                    plies: games.first().map_or(0, |g| g.plies),
                    kind: "duplicates",
                }
                .serialize(ser)
            }
            Record::Prefix(a, b) => DupesRecord::Prefix {
                game: with_plies(a),
                of: with_plies(b),
                kind: "prefix",
            }
            .serialize(ser),
            Record::Contained(file, games, within) => DupesRecord::Contained {
                file,
                games: *games,
                within,
                kind: "contained",
            }
            .serialize(ser),
            Record::Summary {
                contained_files,
                duplicate_groups,
                games,
                prefixes,
            } => DupesRecord::Summary {
                contained_files: *contained_files,
                duplicate_groups: *duplicate_groups,
                games: *games,
                prefixes: *prefixes,
                kind: "summary",
            }
            .serialize(ser),
        }
    }
}

/// [`Found::contained_files`]: per file, the files (by name) holding a copy
/// of each of its games, intersected. Linear in the games for archives as
/// they are (a group's files are listed once; a file's candidates are the
/// files of its game with the fewest copies, in name order, and the first
/// that holds every game is the answer).
fn contained_files(found: &Found, finder: &Finder) -> Vec<(String, usize, String)> {
    let files = &finder.files;
    if finder.file_of.len() != finder.len() {
        return Vec::new();
    }
    let mut by_name: Vec<usize> = (0..files.len()).collect();
    by_name.sort_by(|&a, &b| files[a].cmp(&files[b]));
    let mut rank = vec![0u32; files.len()];
    for (r, &f) in by_name.iter().enumerate() {
        rank[f] = r as u32;
    }
    // Per group, the ranks of its files; per game, its group.
    let mut group_of = vec![NONE; finder.len()];
    let group_files: Vec<Vec<u32>> = found
        .groups
        .iter()
        .enumerate()
        .map(|(g, grp)| {
            let mut ranks: Vec<u32> = grp
                .iter()
                .map(|&i| {
                    group_of[i] = g as u32;
                    rank[finder.file_of[i] as usize]
                })
                .collect();
            ranks.sort_unstable();
            ranks.dedup();
            ranks
        })
        .collect();
    // Per file: its games, whether one has no copy elsewhere, and the groups of its games.
    let mut games = vec![0usize; files.len()];
    let mut groups: Vec<Vec<u32>> = vec![Vec::new(); files.len()];
    let mut dead = vec![false; files.len()];
    for (i, &f) in finder.file_of.iter().enumerate() {
        let f = f as usize;
        games[f] += 1;
        match group_of[i] {
            NONE => dead[f] = true,
            g if !dead[f] && groups[f].last() != Some(&g) => groups[f].push(g),
            _ => {}
        }
        if dead[f] {
            groups[f] = Vec::new();
        }
    }
    let mut out = Vec::new();
    for f in 0..files.len() {
        if dead[f] || groups[f].is_empty() {
            continue;
        }
        let own = rank[f];
        let fewest = groups[f]
            .iter()
            .min_by_key(|&&g| group_files[g as usize].len())
            .map_or(&[][..], |&g| &group_files[g as usize][..]);
        let within = fewest.iter().find(|&&c| {
            c != own
                && groups[f]
                    .iter()
                    .all(|&g| group_files[g as usize].binary_search(&c).is_ok())
        });
        if let Some(&c) = within {
            out.push((
                files[f].clone(),
                games[f],
                files[by_name[c as usize]].clone(),
            ));
        }
    }
    out
}

#[cfg(test)]
mod class_tests {
    use super::Entry;

    fn entry(white: &str, black: &str) -> Entry {
        Entry::with_tags(
            "a.pdn",
            1,
            1,
            20,
            None,
            [("White", white), ("Black", black)],
        )
    }

    /// Issue 62 item 11: identical moves are copies only with the same
    /// players (as spelled shorter or longer); the two games of a
    /// micro-match, colours swapped, are the same moves by other players.
    #[test]
    fn copies_need_the_same_players() {
        let same = |a: &Entry, b: &Entry| Entry::same_players(&[a, b]);
        assert!(same(
            &entry("WR Fraser", "MF Tinsley"),
            &entry("Fraser", "Tinsley")
        ));
        assert!(same(
            &entry("MF Tinsley", "Lafferty"),
            &entry("M Tinsley", "D. Lafferty")
        ));
        assert!(same(
            &entry("Иванов И.", "Петров"),
            &entry("иванов", "Петров П.")
        ));
        assert!(same(&entry("White", "Black"), &entry("Smith", "Jones")));
        assert!(!same(
            &entry("M Tinsley", "NW Banks"),
            &entry("Banks", "Tinsley")
        ));
        assert!(!same(
            &entry("L Rosenfield", "Tinsley"),
            &entry("R Martin", "Tinsley")
        ));
    }

    /// Random tag lists over few names and values (repeats, gaps, names
    /// differing by case, multi-byte text), as groups of 1 to 4 entries.
    fn groups() -> Vec<Vec<Entry>> {
        const NAMES: [&str; 5] = ["Event", "White", "event", "Date", "Ronde"];
        const VALUES: [&str; 5] = ["", "A", "Иванов", "1999.??.??", "a \"b\""];
        let mut seed = 7u64;
        let mut next = |n: usize| {
            seed = crate::position::splitmix(seed);
            (seed % n as u64) as usize
        };
        (0..600)
            .map(|_| {
                let base: Vec<(usize, usize)> = (0..next(5)).map(|_| (next(5), next(5))).collect();
                (0..1 + next(4))
                    .map(|_| {
                        let mut tags = base.clone();
                        if next(3) == 0 && !tags.is_empty() {
                            let i = next(tags.len());
                            tags[i] = (next(5), next(5));
                        }
                        if next(4) == 0 {
                            tags.push((next(5), next(5)));
                        }
                        let tags = tags.iter().map(|&(n, v)| (NAMES[n], VALUES[v]));
                        Entry::with_tags("f.pdn", 1, 2, 3, Some("1-1"), tags)
                    })
                    .collect()
            })
            .collect()
    }

    /// Issue 65: the tags that differ, without sets of sets: the same names
    /// as the reading by sets they replaced, kept here as the reference.
    #[test]
    fn the_tags_that_differ_are_those_of_the_reading_by_sets() {
        use std::collections::BTreeSet;
        fn by_sets(games: &[&Entry]) -> Vec<String> {
            let names: BTreeSet<&str> = games.iter().flat_map(|g| g.tags().map(|t| t.0)).collect();
            names
                .into_iter()
                .filter(|n| {
                    let vals: BTreeSet<Option<&str>> = games
                        .iter()
                        .map(|g| g.tags().find(|t| t.0 == *n).map(|t| t.1))
                        .collect();
                    vals.len() > 1
                })
                .map(str::to_string)
                .collect()
        }
        let (mut some, mut none) = (0, 0);
        for group in groups() {
            let members: Vec<&Entry> = group.iter().collect();
            let want = by_sets(&members);
            assert_eq!(Entry::differing_tags(&members), want, "{group:?}");
            if want.is_empty() {
                none += 1;
            } else {
                some += 1;
            }
        }
        assert!(
            some > 100 && none > 100,
            "{some} groups differ, {none} do not"
        );
    }

    /// An entry written to the temporary file's bytes reads back as itself.
    #[test]
    fn an_entry_reads_back_from_its_bytes() {
        let files = ["f.pdn".to_string()];
        for group in groups() {
            for e in group {
                let b = super::entry_bytes(0, e.game, e.line, e.plies, e.result, e.tags(), 0);
                let len = u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize;
                assert_eq!(len, b.len() - 4);
                assert_eq!(Entry::from_bytes(&b[4..], &files).as_ref(), Some(&e));
                // A cut entry is refused, never read as another.
                assert_eq!(
                    Entry::from_bytes(&b[4..b.len() - 1], &files).filter(|c| *c == e),
                    None
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check_game;
    use crate::pdn::read_all;
    use crate::replay::Options;

    fn found(text: &str, min_plies: u32) -> Found {
        let opts = Options::default().keep_moves(true);
        let mut finder = Finder::new(min_plies);
        for g in read_all(text.as_bytes()) {
            finder.add(&g, Some(&check_game(&g, &opts)));
        }
        finder.find().expect("the spill reads back")
    }

    const G: &str = "[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n";
    const PREFIX: &str = "[GameType \"20\"]\n1. 32-28 19-23 *\n\n";
    const OTHER: &str = "[GameType \"20\"]\n1. 33-28 19-23 *\n\n";

    #[test]
    fn the_same_moves_are_one_group_whatever_the_tags() {
        let tagged =
            "[GameType \"20\"]\n[Event \"another\"]\n1. 32-28 19-23 2. 28x19 14x23 1-1\n\n";
        let f = found(&format!("{G}{OTHER}{tagged}"), 2);
        assert_eq!(f.groups, vec![vec![0, 2]]);
    }

    #[test]
    fn a_chain_of_fragments_gives_one_prefix_per_game_with_its_longest_container() {
        // Game k is the first k+2 plies of one line: every shorter one starts
        // every longer one (N²/2 pairs); each is reported once, with the longest.
        let line = [
            "32-28", "19-23", "28x19", "14x23", "37-32", "10-14", "41-37", "5-10",
        ];
        let text: String = (2..=line.len())
            .map(|k| format!("[GameType \"20\"]\n{} *\n\n", line[..k].join(" ")))
            .collect();
        let f = found(&text, 2);
        let last = line.len() - 2;
        assert_eq!(f.prefixes, (0..last).map(|i| (i, last)).collect::<Vec<_>>());
    }

    #[test]
    fn a_game_that_starts_another_is_a_prefix() {
        let f = found(&format!("{PREFIX}{G}"), 2);
        assert!(f.groups.is_empty());
        assert_eq!(f.prefixes, vec![(0, 1)]);
        // Shorter than the minimum: not counted at all.
        let f = found(&format!("{PREFIX}{G}"), 3);
        assert!(f.prefixes.is_empty());
    }

    /// The finder and what it found among the games of `files`.
    fn entries(files: &[(&str, String)]) -> (Finder, Found) {
        let opts = Options::default().keep_moves(true);
        let mut finder = Finder::new(2);
        for (name, text) in files {
            for g in read_all(text.as_bytes()) {
                let r = check_game(&g, &opts);
                finder.add_game(name, &g, &r);
            }
        }
        let found = finder.find().expect("the spill reads back");
        (finder, found)
    }

    fn owned(v: Vec<(&str, usize, &str)>) -> Vec<(String, usize, String)> {
        v.into_iter()
            .map(|(a, n, b)| (a.to_string(), n, b.to_string()))
            .collect()
    }

    #[test]
    fn a_file_whose_games_are_all_in_another_is_contained() {
        let named = "[White \"Sijbrands\"]\n[Black \"Baba\"]\n[Event \"WK\"]\n[Date \"1998.??.??\"]\n[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 2-0\n\n";
        let (e, f) = entries(&[
            ("a.pdn", format!("{G}{PREFIX}")),
            ("b.pdn", format!("{OTHER}{PREFIX}{named}")),
            ("c.pdn", format!("{G}{OTHER}")),
        ]);
        // a: G and PREFIX, both in b (G as `named`); c: OTHER in b, G in b.
        assert_eq!(
            contained_files(&f, &e),
            owned(vec![("a.pdn", 2, "b.pdn"), ("c.pdn", 2, "b.pdn")])
        );
        #[cfg(feature = "serde")]
        {
            let json: Vec<String> = f
                .records(&e)
                .map(|r| serde_json::to_string(&r.expect("read back")).expect("json"))
                .collect();
            assert!(json.contains(
                &r#"{"file":"a.pdn","games":2,"in":"b.pdn","type":"contained"}"#.to_string()
            ));
            assert_eq!(
                json.last().map(String::as_str),
                Some(
                    r#"{"contained_files":2,"duplicate_groups":3,"games":7,"prefixes":2,"type":"summary"}"#
                )
            );
        }
        // Each game says who played it, where and when, and the result, read
        // back from the temporary file as it was.
        let b = e.entry(4).expect("read back");
        assert_eq!((b.file.as_str(), b.game, b.line), ("b.pdn", 3, 7));
        assert_eq!(b.who(), "Sijbrands – Baba, WK, 1998.??.??, 2-0");
        assert_eq!(b.tag("white"), Some("Sijbrands"));
        assert_eq!(e.entry(0).expect("read back").who(), "? – ?, *");
        assert!(e.entry(7).is_err());
        // A game with no moves matches nothing: its file is never contained
        // (b's one game is in a; a's setup is nowhere else).
        let (e, f) = entries(&[
            (
                "a.pdn",
                format!("{G}[GameType \"20\"]\n[FEN \"W:W31:B1\"]\n*\n\n"),
            ),
            ("b.pdn", G.to_string()),
        ]);
        assert_eq!(contained_files(&f, &e), owned(vec![("b.pdn", 1, "a.pdn")]));
        // The first by name of the files that hold them all; a file named
        // twice is one file.
        let (e, f) = entries(&[
            ("z.pdn", G.to_string()),
            ("m.pdn", G.to_string()),
            ("a.pdn", format!("{G}{OTHER}")),
            ("m.pdn", OTHER.to_string()),
        ]);
        assert_eq!(
            contained_files(&f, &e),
            owned(vec![
                ("z.pdn", 1, "a.pdn"),
                ("m.pdn", 2, "a.pdn"),
                ("a.pdn", 2, "m.pdn")
            ])
        );
    }

    #[test]
    fn the_variant_is_part_of_the_moves() {
        // The same squares under another variant's rules are another game.
        let brazilian = "[GameType \"26\"]\n1. 22-18 11-15 *\n\n";
        let russian = "[GameType \"25\"]\n1. 22-18 11-15 *\n\n";
        assert!(found(&format!("{brazilian}{russian}"), 2).groups.is_empty());
        assert_eq!(
            found(&format!("{brazilian}{brazilian}"), 2).groups,
            vec![vec![0, 1]]
        );
    }
}
