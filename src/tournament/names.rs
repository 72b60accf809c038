//! Players' names: the key a name is matched by, placeholders, names one
//! letter apart or with letters lost to broken bytes, and an event's players.

use crate::players::{name_key, PLACEHOLDERS};
use crate::tournament::games::Table;
use crate::tournament::model::Settings;
use hashbrown::HashMap;
use std::collections::{BTreeMap, BTreeSet};

/// Whether two keys are one edit (a letter added, dropped or changed) apart.
pub(super) fn one_apart(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let (short, long) = if a.len() <= b.len() {
        (&a, &b)
    } else {
        (&b, &a)
    };
    match long.len() - short.len() {
        0 => {
            short
                .iter()
                .zip(long.iter())
                .filter(|(x, y)| x != y)
                .count()
                == 1
        }
        1 => {
            let i = short
                .iter()
                .zip(long.iter())
                .take_while(|(x, y)| x == y)
                .count();
            short[i..] == long[i + 1..]
        }
        _ => false,
    }
}

/// The longest name key compared for a letter apart (characters).
const LONGEST_COMPARED: usize = 100;

/// The pairs `(a, b)`, `a < b`, of `keys` that are one letter apart
/// ([`one_apart`]), among those `compared` accepts; in order. Never pairwise
/// (issue 51: an event of thousands of players): each key is indexed by
/// itself with one letter taken out, at each place, and two keys one letter
/// apart share such an entry (a letter changed: the same place taken out of
/// both; a letter added: the shorter one is the longer one with one taken out).
pub(super) fn one_apart_pairs(
    keys: &[String],
    compared: impl Fn(usize) -> bool,
) -> Vec<(usize, usize)> {
    // (the key with the letter at `at` taken out, `at`) -> keys.
    let mut taken: HashMap<(String, usize), Vec<usize>> = HashMap::new();
    let mut pairs: BTreeSet<(usize, usize)> = BTreeSet::new();
    let chars: Vec<Vec<char>> = keys.iter().map(|k| k.chars().collect()).collect();
    // A key longer than any name is not compared: its index would be the
    // square of its length (a hostile 100,000-character name).
    let compared = |i: usize| compared(i) && chars[i].len() <= LONGEST_COMPARED;
    for (i, c) in chars.iter().enumerate().filter(|(i, _)| compared(*i)) {
        for at in 0..c.len() {
            let rest: String = c[..at].iter().chain(&c[at + 1..]).collect();
            taken.entry((rest, at)).or_default().push(i);
        }
    }
    // A letter changed: both keys in one entry.
    for list in taken.values().filter(|l| l.len() > 1) {
        for (n, &a) in list.iter().enumerate() {
            for &b in &list[n + 1..] {
                pairs.insert((a.min(b), a.max(b)));
            }
        }
    }
    // A letter added: the shorter key is an entry of the longer one.
    let by_rest: HashMap<&str, Vec<usize>> = taken.iter().fold(
        HashMap::new(),
        |mut m: HashMap<&str, Vec<usize>>, ((rest, _), l)| {
            m.entry(rest.as_str()).or_default().extend(l);
            m
        },
    );
    for (a, k) in keys.iter().enumerate().filter(|(a, _)| compared(*a)) {
        for &b in by_rest.get(k.as_str()).into_iter().flatten() {
            if a != b {
                pairs.insert((a.min(b), a.max(b)));
            }
        }
    }
    pairs
        .into_iter()
        .filter(|&(a, b)| one_apart(&keys[a], &keys[b]))
        .collect()
}

/// A piece of a name pattern: a letter, or a run of `n` characters lost to
/// broken bytes (`?`, U+FFFD), which stands for one to `n` letters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Pat {
    Letter(char),
    Lost(usize),
}

/// The key of a name with letters lost to broken bytes, as a pattern; `None`
/// for a name with none, or with fewer than four letters kept.
pub(super) fn wild_pattern(name: &str) -> Option<Vec<Pat>> {
    // A letter no name is written with stands for each lost one through
    // the folding of [`name_key`].
    const LOST: char = '\u{0298}';
    if !name.contains(['?', '\u{FFFD}']) || name.contains(LOST) {
        return None;
    }
    let marked: String = name
        .chars()
        .map(|c| if c == '?' || c == '\u{FFFD}' { LOST } else { c })
        .collect();
    let mut out: Vec<Pat> = Vec::new();
    for c in name_key(&marked).chars() {
        match (c, out.last_mut()) {
            (LOST, Some(Pat::Lost(n))) => *n += 1,
            (LOST, _) => out.push(Pat::Lost(1)),
            (c, _) => out.push(Pat::Letter(c)),
        }
    }
    let letters = out
        .iter()
        .filter(|p| matches!(p, Pat::Letter(c) if *c != ' '))
        .count();
    (letters >= 4 && out.iter().any(|p| matches!(p, Pat::Lost(_)))).then_some(out)
}

/// Whether a name's key fits a pattern: letters equal, each run of lost
/// characters one to that many letters (never a space).
pub(super) fn fits(pattern: &[Pat], key: &[char]) -> bool {
    let n = key.len();
    let mut reach = vec![false; n + 1];
    reach[0] = true;
    for p in pattern {
        let mut next = vec![false; n + 1];
        for i in (0..=n).filter(|&i| reach[i]) {
            match *p {
                Pat::Letter(c) => {
                    if key.get(i) == Some(&c) {
                        next[i + 1] = true;
                    }
                }
                Pat::Lost(k) => {
                    for j in 1..=k {
                        if i + j > n || key[i + j - 1] == ' ' {
                            break;
                        }
                        next[i + j] = true;
                    }
                }
            }
        }
        reach = next;
    }
    reach[n]
}

/// [`name_key`] of each text met, worked out once: archives write the same
/// names, events and sites thousands of times.
#[derive(Default)]
pub(super) struct Keys(HashMap<String, String>);

impl Keys {
    pub(super) fn of(&mut self, text: &str) -> String {
        if let Some(k) = self.0.get(text) {
            return k.clone();
        }
        let k = name_key(text);
        self.0.insert(text.to_string(), k.clone());
        k
    }
    /// [`is_placeholder`], by the key worked out once.
    pub(super) fn placeholder(&mut self, name: &str) -> bool {
        match self.0.get(name) {
            Some(k) => PLACEHOLDERS.contains(&k.as_str()),
            None => PLACEHOLDERS.contains(&self.of(name).as_str()),
        }
    }
}

/// The players of an event: one key per name (aliases by hand), with every
/// spelling and the games it is written in.
pub(super) struct Names {
    pub(super) keys: Vec<String>,
    pub(super) index: HashMap<String, usize>,
    pub(super) alias: HashMap<String, String>,
    pub(super) spellings: BTreeMap<String, Vec<(String, Vec<usize>)>>,
    /// The player of each spelling met.
    pub(super) by_spelling: HashMap<String, usize>,
}

impl Names {
    pub(super) fn of(games: Table<'_>, ix: &[usize], s: &Settings, memo: &mut Keys) -> Names {
        let alias: HashMap<String, String> = s
            .aliases
            .iter()
            .map(|(a, b)| (name_key(a), name_key(b)))
            .collect();
        let mut names = Names {
            keys: Vec::new(),
            index: HashMap::new(),
            alias,
            spellings: BTreeMap::new(),
            by_spelling: HashMap::new(),
        };
        for &i in ix {
            for name in [games.text(games[i].white), games.text(games[i].black)] {
                let k = names.key_of(name, memo);
                if !names.index.contains_key(&k) {
                    names.index.insert(k.clone(), names.keys.len());
                    names.keys.push(k.clone());
                }
                if !names.by_spelling.contains_key(name) {
                    names.by_spelling.insert(name.to_string(), names.index[&k]);
                }
                let list = names.spellings.entry(k).or_default();
                match list.iter_mut().find(|(sp, _)| sp == name) {
                    Some((_, gs)) => gs.push(i),
                    None => list.push((name.to_string(), vec![i])),
                }
            }
        }
        for list in names.spellings.values_mut() {
            // Most used first; the first met on a tie; a spelling with
            // letters lost to broken bytes last.
            list.sort_by_key(|(sp, gs)| {
                (sp.contains(['?', '\u{FFFD}']), std::cmp::Reverse(gs.len()))
            });
        }
        names
    }
    pub(super) fn key_of(&self, name: &str, memo: &mut Keys) -> String {
        let k = memo.of(name);
        self.alias.get(&k).cloned().unwrap_or(k)
    }
    /// The player a name (a spelling met in the event) stands for.
    pub(super) fn player(&self, name: &str) -> usize {
        self.by_spelling.get(name).copied().unwrap_or(0)
    }
    pub(super) fn len(&self) -> usize {
        self.keys.len()
    }
}

/// `(spelling key, name key)` of the settings' aliases.
pub(super) fn alias_keys(s: &Settings) -> HashMap<String, String> {
    s.aliases
        .iter()
        .map(|(a, b)| (name_key(a), name_key(b)))
        .collect()
}
