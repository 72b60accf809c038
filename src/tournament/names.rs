//! Players' names: the key a name is matched by, placeholders, names one
//! letter apart or with letters lost to broken bytes, and an event's players.

use crate::players::{name_key, PLACEHOLDERS};
use crate::tournament::games::Table;
use crate::tournament::model::Settings;
use hashbrown::HashMap;
use std::collections::BTreeMap;

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
    // Each compared key's characters, as numbers, one run after another.
    let (mut chars, mut runs) = (Vec::new(), Vec::new());
    for (i, k) in keys.iter().enumerate() {
        let start = chars.len();
        chars.extend(k.chars().map(u64::from));
        // A key longer than any name is not compared: its index would be the
        // square of its length (a hostile 100,000-character name).
        if chars.len() - start > LONGEST_COMPARED || !compared(i) {
            chars.truncate(start);
        } else {
            runs.push((i, start..chars.len()));
        }
    }
    // (the hash of the key with the letter at `at` taken out, `at`, the
    // key): no string is made (issue 65). Hashes that are equal by chance
    // only add candidates, which `one_apart` turns away.
    let mut taken: Vec<(u64, usize, usize)> = Vec::new();
    let power: Vec<u64> = std::iter::successors(Some(1u64), |p| Some(p.wrapping_mul(BASE)))
        .take(LONGEST_COMPARED + 1)
        .collect();
    let mut whole = Vec::with_capacity(runs.len());
    let mut prefix = Vec::new();
    for (i, run) in &runs {
        let c = &chars[run.clone()];
        prefix.clear();
        prefix.push(0u64);
        for &x in c {
            prefix.push(roll(prefix[prefix.len() - 1], x));
        }
        let n = c.len();
        let full = prefix[n];
        for at in 0..n {
            // The key without c[at]: its head, shifted past its tail, plus its tail.
            let tail_len = n - at - 1;
            let tail = full.wrapping_sub(prefix[at + 1].wrapping_mul(power[tail_len]));
            let rest = prefix[at].wrapping_mul(power[tail_len]).wrapping_add(tail);
            taken.push((rest, at, *i));
        }
        whole.push((full, *i));
    }
    taken.sort_unstable();
    let mut pairs = Vec::new();
    // A letter changed: both keys in one entry.
    for same in taken.chunk_by(|x, y| (x.0, x.1) == (y.0, y.1)) {
        for (n, &(_, _, a)) in same.iter().enumerate() {
            pairs.extend(same[n + 1..].iter().map(|&(_, _, b)| (a.min(b), a.max(b))));
        }
    }
    // A letter added: the shorter key is an entry of the longer one.
    for &(h, a) in &whole {
        let from = taken.partition_point(|t| t.0 < h);
        let same = taken[from..].iter().take_while(|t| t.0 == h);
        pairs.extend(same.filter(|t| t.2 != a).map(|t| (a.min(t.2), a.max(t.2))));
    }
    pairs.sort_unstable();
    pairs.dedup();
    pairs.retain(|&(a, b)| one_apart(&keys[a], &keys[b]));
    pairs
}

/// The base of the keys' rolling hash (odd; keys are at most
/// [`LONGEST_COMPARED`] characters, far too short for the strings known to
/// collide under a hash modulo 2^64).
const BASE: u64 = 0x9e37_79b9_7f4a_7c15;

/// The hash of a key's characters so far, `h`, followed by `x`.
fn roll(h: u64, x: u64) -> u64 {
    h.wrapping_mul(BASE).wrapping_add(x.wrapping_add(1))
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

#[cfg(test)]
mod pair_tests {
    use super::{one_apart, one_apart_pairs, LONGEST_COMPARED};

    /// Issue 65: the pairs found through hashes of the keys with a letter
    /// taken out are exactly the pairs one letter apart, checked pairwise,
    /// on random keys over a small alphabet (so that many are one apart),
    /// with repeats, empty keys, multi-byte letters, a key too long to be
    /// compared and keys left out by `compared`.
    #[test]
    fn the_pairs_a_letter_apart_are_those_found_pairwise() {
        const LETTERS: [char; 4] = ['a', 'b', 'й', ' '];
        let mut seed = 11u64;
        let mut next = |n: usize| {
            seed = crate::position::splitmix(seed);
            (seed % n as u64) as usize
        };
        let mut found = 0;
        for round in 0..300 {
            let mut keys: Vec<String> = (0..next(30))
                .map(|_| (0..next(6)).map(|_| LETTERS[next(4)]).collect())
                .collect();
            if round % 7 == 0 {
                keys.push("a".repeat(LONGEST_COMPARED + 1));
                keys.push("a".repeat(LONGEST_COMPARED));
            }
            let skip = next(5);
            let compared = |i: usize| i % 5 != skip;
            let mut want = Vec::new();
            for a in 0..keys.len() {
                for b in a + 1..keys.len() {
                    let fits =
                        |i: usize| compared(i) && keys[i].chars().count() <= LONGEST_COMPARED;
                    if fits(a) && fits(b) && one_apart(&keys[a], &keys[b]) {
                        want.push((a, b));
                    }
                }
            }
            found += want.len();
            assert_eq!(one_apart_pairs(&keys, compared), want, "{keys:?}");
        }
        assert!(found > 1000, "{found} pairs");
    }
}
