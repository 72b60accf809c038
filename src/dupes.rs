//! Games stored more than once, and games whose moves are the start of
//! another's. Linear in the number of plies: every game's moves are hashed
//! ply by ply from its start position (which includes the variant), identical
//! games share their final hash, and a game is a prefix of another when its
//! final hash is one of the other's hashes after as many plies. Never pairwise.
//!
//! ```
//! use pdnkit::dupes::{Fingerprint, Finder};
//! use pdnkit::pdn::read_all;
//! use pdnkit::replay::{check_game, Options};
//! let text = b"[GameType \"20\"] 1. 32-28 19-23 2. 28x19 14x23 *\n\n[GameType \"20\"] 1. 32-28 19-23 2. 28x19 14x23 *\n";
//! let opts = Options { keep_moves: true, ..Options::default() };
//! let mut finder = Finder::new(2);
//! for g in read_all(text) {
//!     finder.add(Fingerprint::of(&check_game(&g, &opts), 2));
//! }
//! let found = finder.find();
//! assert_eq!(found.groups, vec![vec![0, 1]]);
//! ```

use crate::replay::Report;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// The hashes of one game's moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    /// Plies played.
    pub plies: u32,
    /// The hash after each ply from `min_plies` on (index 0: after `min_plies` plies).
    pub prefixes: Vec<u64>,
    /// The hash after the last ply.
    pub full: u64,
}

/// SplitMix64's finaliser: mixes `x` into `h`.
fn mix(h: u64, x: u64) -> u64 {
    let mut z = (h ^ x).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Fingerprint {
    /// The fingerprint of a game replayed with `keep_moves` (`None` when its
    /// start position is not known).
    pub fn of(r: &Report, min_plies: u32) -> Option<Fingerprint> {
        let start = r.start?;
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        start.hash(&mut hasher);
        let mut h = hasher.finish();
        let mut prefixes = Vec::new();
        for (i, p) in r.played.iter().enumerate() {
            let c = p.mv.captured.bits();
            let key = u64::from(p.mv.from.number())
                | u64::from(p.mv.to.number()) << 8
                | mix(0, c as u64 ^ (c >> 64) as u64) << 16;
            h = mix(h, key);
            if i as u32 + 1 >= min_plies {
                prefixes.push(h);
            }
        }
        Some(Fingerprint {
            plies: r.played.len() as u32,
            prefixes,
            full: h,
        })
    }
}

/// What [`Finder::find`] found, by the indices games were added in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Found {
    /// Groups of identical games (two or more each), in order.
    pub groups: Vec<Vec<usize>>,
    /// `(a, b)`: game `a` is the start of game `b`.
    pub prefixes: Vec<(usize, usize)>,
}

/// Collects fingerprints, then finds duplicates and prefixes.
#[derive(Clone, Debug)]
pub struct Finder {
    min_plies: u32,
    games: Vec<Option<Fingerprint>>,
}

impl Finder {
    /// Prefixes shorter than `min_plies` are not reported (short games are
    /// the start of too many others).
    pub fn new(min_plies: u32) -> Finder {
        Finder {
            min_plies: min_plies.max(1),
            games: Vec::new(),
        }
    }
    /// Adds the next game (`None`: not replayable; it matches nothing).
    pub fn add(&mut self, f: Option<Fingerprint>) {
        self.games.push(f);
    }
    /// Groups of identical games (games with no moves, such as setups and
    /// ballots, are left out) and prefixes.
    pub fn find(&self) -> Found {
        let mut by_full: HashMap<u64, Vec<usize>> = HashMap::new();
        for (i, g) in self.games.iter().enumerate() {
            if let Some(g) = g.as_ref().filter(|g| g.plies > 0) {
                by_full.entry(g.full).or_default().push(i);
            }
        }
        let mut groups: Vec<Vec<usize>> =
            by_full.values().filter(|v| v.len() > 1).cloned().collect();
        groups.sort();
        let mut prefixes = Vec::new();
        for (j, b) in self.games.iter().enumerate() {
            let Some(b) = b else { continue };
            for (k, h) in b.prefixes.iter().enumerate() {
                let plies = self.min_plies + k as u32;
                if plies >= b.plies {
                    break;
                }
                if let Some(list) = by_full.get(h) {
                    prefixes.extend(
                        list.iter()
                            .filter(|&&i| self.games[i].as_ref().is_some_and(|g| g.plies == plies))
                            .map(|&i| (i, j)),
                    );
                }
            }
        }
        Found { groups, prefixes }
    }
}
