//! Games stored more than once, and games whose moves are the start of
//! another's. Linear in the number of plies: every game's moves are hashed
//! ply by ply from its start position (which includes the variant), identical
//! games share their final hash, and a game is a prefix of another when its
//! final hash is one of the other's hashes after as many plies. Never
//! pairwise, and never a list of pairs: each game that starts others is
//! reported once, with the longest of them.
//!
//! ```
//! use pdnkit::dupes::{Fingerprint, Finder};
//! use pdnkit::pdn::read_all;
//! use pdnkit::check::check_game;
//! use pdnkit::replay::Options;
//! let text = b"[GameType \"20\"] 1. 32-28 19-23 2. 28x19 14x23 *\n\n[GameType \"20\"] 1. 32-28 19-23 2. 28x19 14x23 *\n";
//! let opts = Options::default().keep_moves(true);
//! let mut finder = Finder::new(2);
//! for g in read_all(text) {
//!     finder.add(Fingerprint::of(&check_game(&g, &opts), 2));
//! }
//! let found = finder.find();
//! assert_eq!(found.groups, vec![vec![0, 1]]);
//! ```

use crate::pdn::Game;
use crate::replay::GameReport;
use std::collections::{BTreeSet, HashMap};
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

use crate::draw::splitmix;

/// Mixes `x` into the hash `h`.
fn mix(h: u64, x: u64) -> u64 {
    splitmix(h ^ x)
}

impl Fingerprint {
    /// The fingerprint of a game replayed with `keep_moves` (`None` when its
    /// start position is not known).
    pub fn of(r: &GameReport, min_plies: u32) -> Option<Fingerprint> {
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
    /// `(a, b)`: game `a` is the start of game `b`, the longest game it
    /// starts (the first of them when several are as long): one entry per
    /// game `a`, in the order of `a`, never one per pair (a chain of N
    /// fragments of one line of play has N²/2 pairs).
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
        // Per game, the longest game it starts: memory by the games, not the pairs.
        let mut longest: Vec<Option<(u32, usize)>> = vec![None; self.games.len()];
        for (j, b) in self.games.iter().enumerate() {
            let Some(b) = b else { continue };
            for (k, h) in b.prefixes.iter().enumerate() {
                let plies = self.min_plies + k as u32;
                if plies >= b.plies {
                    break;
                }
                let Some(list) = by_full.get(h) else { continue };
                for &i in list {
                    if self.games[i].as_ref().is_some_and(|g| g.plies == plies)
                        && longest[i].is_none_or(|(n, _)| b.plies > n)
                    {
                        longest[i] = Some((b.plies, j));
                    }
                }
            }
        }
        let prefixes = longest
            .iter()
            .enumerate()
            .filter_map(|(i, l)| l.map(|(_, j)| (i, j)))
            .collect();
        Found { groups, prefixes }
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
    /// Tags (name, decoded value), in order.
    pub tags: Vec<(String, String)>,
    /// The declared result, normalised (`2-0`, `1-1`, `0-2`, `0-0`, `*`).
    pub result: Option<&'static str>,
}

impl Entry {
    /// Names of the tags whose values differ between `games` (or that some
    /// lack).
    pub fn differing_tags(games: &[&Entry]) -> Vec<String> {
        differing_tags(games)
    }
    /// The entry of a game of `file` and its report.
    pub fn new(file: &str, g: &Game, r: &GameReport) -> Entry {
        Entry {
            file: file.to_string(),
            game: g.index,
            line: g.start_line(),
            plies: r.played.len() as u32,
            tags: g
                .tags
                .iter()
                .map(|t| (g.tag_name(t).to_string(), g.tag_value(t)))
                .collect(),
            result: r.declared.map(|o| o.normalised()),
        }
    }
    /// The value of the first tag named `name` (any case).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
    /// The first of the tags `names` that the game has.
    fn first_tag(&self, names: &[&str]) -> Option<&str> {
        names.iter().find_map(|n| self.tag(n))
    }
    /// "White – Black, Event, Date, result" as far as the tags tell
    /// (the Italian and French tag names count as White and Black).
    pub fn who(&self) -> String {
        let side = |names: &[&str]| self.first_tag(names).unwrap_or("?").to_string();
        let mut parts = vec![format!(
            "{} – {}",
            side(&crate::select::WHITE_TAGS),
            side(&crate::select::BLACK_TAGS)
        )];
        parts.extend(
            [self.tag("Event"), self.tag("Date")]
                .into_iter()
                .flatten()
                .filter(|v| {
                    !v.trim().is_empty() && !v.chars().all(|c| matches!(c, '?' | '.' | '-'))
                })
                .map(str::to_string),
        );
        if let Some(r) = self.result {
            parts.push(r.to_string());
        }
        parts.join(", ")
    }
    /// "FILE game N (line L)".
    pub fn name(&self) -> String {
        format!("{} game {} (line {})", self.file, self.game, self.line)
    }
    #[cfg(feature = "serde")]
    fn place(&self) -> Place<'_> {
        Place {
            black: self.first_tag(&crate::select::BLACK_TAGS),
            date: self.tag("Date"),
            event: self.tag("Event"),
            file: &self.file,
            game: self.game,
            line: self.line,
            plies: None,
            result: self.result,
            white: self.first_tag(&crate::select::WHITE_TAGS),
        }
    }
}

/// [`Entry::differing_tags`].
fn differing_tags(games: &[&Entry]) -> Vec<String> {
    let names: BTreeSet<&String> = games
        .iter()
        .flat_map(|g| g.tags.iter().map(|t| &t.0))
        .collect();
    names
        .into_iter()
        .filter(|n| {
            let vals: BTreeSet<Option<&String>> = games
                .iter()
                .map(|g| g.tags.iter().find(|t| &t.0 == *n).map(|t| &t.1))
                .collect();
            vals.len() > 1
        })
        .cloned()
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
    /// games, the other file), in the order files were added. A file with a
    /// game that has no moves (a setup, a ballot) is never contained: such a
    /// game cannot be matched.
    pub fn contained_files<'a>(&self, games: &'a [Entry]) -> Vec<(&'a str, usize, &'a str)> {
        contained_files(self, games)
    }

    /// The JSON records of `dupes --format json` (docs/json.md), one per
    /// line, of what was found among `games` (in the order they were added):
    /// each group of identical games, each prefix, each contained file, and
    /// the counts.
    #[cfg(feature = "serde")]
    pub fn records<'a>(&self, games: &'a [Entry]) -> Vec<impl serde::Serialize + 'a> {
        self.record_list(games)
    }

    #[cfg(feature = "serde")]
    fn record_list<'a>(&self, games: &'a [Entry]) -> Vec<DupesRecord<'a>> {
        let mut out = Vec::new();
        for grp in &self.groups {
            let members: Vec<&Entry> = grp.iter().map(|&i| &games[i]).collect();
            out.push(DupesRecord::Duplicates {
                differing_tags: differing_tags(&members),
                games: members.iter().map(|g| g.place()).collect(),
                plies: members.first().map_or(0, |g| g.plies),
                kind: "duplicates",
            });
        }
        for &(i, j) in &self.prefixes {
            let with_plies = |e: &'a Entry| Place {
                plies: Some(e.plies),
                ..e.place()
            };
            out.push(DupesRecord::Prefix {
                game: with_plies(&games[i]),
                of: with_plies(&games[j]),
                kind: "prefix",
            });
        }
        let contained = contained_files(self, games);
        for (file, n, within) in &contained {
            out.push(DupesRecord::Contained {
                file,
                games: *n,
                within,
                kind: "contained",
            });
        }
        out.push(DupesRecord::Summary {
            contained_files: contained.len(),
            duplicate_groups: self.groups.len(),
            games: games.len(),
            prefixes: self.prefixes.len(),
            kind: "summary",
        });
        out
    }
}

/// [`Found::contained_files`].
fn contained_files<'a>(found: &Found, games: &'a [Entry]) -> Vec<(&'a str, usize, &'a str)> {
    // Per game: the other files holding a copy.
    let mut copies: Vec<BTreeSet<&str>> = vec![BTreeSet::new(); games.len()];
    for grp in &found.groups {
        for &i in grp {
            for &j in grp {
                if games[j].file != games[i].file {
                    copies[i].insert(&games[j].file);
                }
            }
        }
    }
    let mut files: Vec<&str> = Vec::new();
    for g in games {
        if files.last() != Some(&g.file.as_str()) && !files.contains(&g.file.as_str()) {
            files.push(&g.file);
        }
    }
    let mut out = Vec::new();
    for f in files {
        let mine: Vec<usize> = (0..games.len()).filter(|&i| games[i].file == f).collect();
        let mut common: Option<BTreeSet<&str>> = None;
        for &i in &mine {
            common = Some(match common {
                None => copies[i].clone(),
                Some(c) => c.intersection(&copies[i]).copied().collect(),
            });
        }
        if let Some(within) = common.and_then(|c| c.into_iter().next()) {
            out.push((f, mine.len(), within));
        }
    }
    out
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
            finder.add(Fingerprint::of(&check_game(&g, &opts), min_plies));
        }
        finder.find()
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

    /// The entries and what was found among the games of `files`.
    fn entries(files: &[(&str, String)]) -> (Vec<Entry>, Found) {
        let opts = Options::default().keep_moves(true);
        let mut finder = Finder::new(2);
        let mut entries = Vec::new();
        for (name, text) in files {
            for g in read_all(text.as_bytes()) {
                let r = check_game(&g, &opts);
                finder.add(Fingerprint::of(&r, 2));
                entries.push(Entry::new(name, &g, &r));
            }
        }
        let found = finder.find();
        (entries, found)
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
            vec![("a.pdn", 2, "b.pdn"), ("c.pdn", 2, "b.pdn")]
        );
        let json = f.record_list(&e);
        assert!(json.contains(&DupesRecord::Contained {
            file: "a.pdn",
            games: 2,
            within: "b.pdn",
            kind: "contained"
        }));
        // Each game says who played it, where and when, and the result.
        let b = e.iter().find(|x| x.file == "b.pdn" && x.game == 3).unwrap();
        assert_eq!(b.who(), "Sijbrands – Baba, WK, 1998.??.??, 2-0");
        assert_eq!(e[0].who(), "? – ?, *");
        // A game with no moves matches nothing: its file is never contained
        // (b's one game is in a; a's setup is nowhere else).
        let (e, f) = entries(&[
            (
                "a.pdn",
                format!("{G}[GameType \"20\"]\n[FEN \"W:W31:B1\"]\n*\n\n"),
            ),
            ("b.pdn", G.to_string()),
        ]);
        assert_eq!(contained_files(&f, &e), vec![("b.pdn", 1, "a.pdn")]);
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
