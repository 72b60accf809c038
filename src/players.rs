//! The players of a game as every whole-archive command reads them: the tags
//! that name each side, the key two spellings of one name share, and the
//! names that stand for no one. Below `dupes`, `tournament` and `stats`,
//! which all group games by their players.

/// Lower-case, punctuation and repeated spaces gone, and letters that look
/// alike written in the name's own script: in a name mostly Cyrillic, a Latin
/// `C` is `С`; in a name mostly Latin, a Cyrillic `о` is `o`.
pub(crate) fn name_key(name: &str) -> String {
    if name.is_ascii() {
        return ascii_name_key(name);
    }
    general_name_key(name)
}

/// [`name_key`] of an ASCII name, in one pass with one allocation (issue
/// 65: the general reading below cost `stats --by player` 6 % of its
/// instructions). ASCII has no Cyrillic letter, so no look-alike is mapped
/// and the name is never read as Cyrillic; what is left is the same
/// lower-casing, filtering and joining.
fn ascii_name_key(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut gap = false;
    for b in name.bytes() {
        let c = char::from(b);
        if c.is_whitespace() || c == ',' || c == '.' {
            gap = !out.is_empty();
        } else if c.is_ascii_alphanumeric() || c == '-' {
            if gap {
                out.push(' ');
                gap = false;
            }
            out.push(c.to_ascii_lowercase());
        }
    }
    out
}

/// [`name_key`] of any name.
fn general_name_key(name: &str) -> String {
    const PAIRS: [(char, char); 22] = [
        ('A', 'А'),
        ('B', 'В'),
        ('C', 'С'),
        ('E', 'Е'),
        ('H', 'Н'),
        ('K', 'К'),
        ('M', 'М'),
        ('O', 'О'),
        ('P', 'Р'),
        ('T', 'Т'),
        ('X', 'Х'),
        ('Y', 'У'),
        ('a', 'а'),
        ('c', 'с'),
        ('e', 'е'),
        ('o', 'о'),
        ('p', 'р'),
        ('x', 'х'),
        ('y', 'у'),
        ('i', 'і'),
        ('I', 'І'),
        ('j', 'ј'),
    ];
    let cyrillic = name
        .chars()
        .filter(|c| ('\u{0400}'..='\u{04ff}').contains(c))
        .count();
    let latin = name.chars().filter(char::is_ascii_alphabetic).count();
    let to_cyrillic = cyrillic > latin;
    let mut words: Vec<String> = Vec::new();
    for word in name.split(|c: char| c.is_whitespace() || c == ',' || c == '.') {
        let w: String = word
            .chars()
            .map(|c| {
                PAIRS
                    .iter()
                    .find_map(|&(l, k)| match (to_cyrillic, c == l, c == k) {
                        (true, true, _) => Some(k),
                        (false, _, true) => Some(l),
                        _ => None,
                    })
                    .unwrap_or(c)
            })
            .flat_map(char::to_lowercase)
            .map(|c| if c == 'ё' { 'е' } else { c })
            .filter(|c| c.is_alphanumeric() || *c == '-')
            .collect();
        if !w.is_empty() {
            words.push(w);
        }
    }
    words.join(" ")
}

/// The keys ([`name_key`]) of names that stand for no one: the side's own
/// name (`White`, `Black`, `Red`, in the languages the archives use),
/// `NN`/`N.N.`, `?`, `-`, an empty name.
pub(crate) const PLACEHOLDERS: [&str; 22] = [
    "",
    "-",
    "white",
    "black",
    "red",
    "nn",
    "n n",
    "unknown",
    "blanc",
    "blancs",
    "noir",
    "noirs",
    "bianco",
    "nero",
    "wit",
    "zwart",
    "weiss",
    "schwarz",
    "branco",
    "preto",
    "белые",
    "черные",
];

/// Whether a player's name is a placeholder, not a player: `White`,
/// `Black`, `Red` (in the languages the archives use), `?`, `-`, `NN`,
/// `N.N.`, an empty name.
pub(crate) fn is_placeholder(name: &str) -> bool {
    is_placeholder_key(&name_key(name))
}

/// [`is_placeholder`] of a name whose [`name_key`] is `key`.
pub(crate) fn is_placeholder_key(key: &str) -> bool {
    PLACEHOLDERS.contains(&key)
}

/// The tags that name White: PDN's, and the Italian and French names real
/// archives use (`[Bianco]`, `[Blanc]`).
pub(crate) const WHITE_TAGS: [&str; 3] = ["White", "Bianco", "Blanc"];

/// The tags that name Black (`[Nero]`, `[Noir]`).
pub(crate) const BLACK_TAGS: [&str; 3] = ["Black", "Nero", "Noir"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ascii_key_is_the_general_key() {
        // Every string of up to 5 characters over letters of both cases,
        // digits, the separators, other punctuation and control spaces.
        let alphabet = [
            'A', 'z', '7', ' ', ',', '.', '-', '\'', '\t', '\x0b', '?', '_',
        ];
        let mut strings = vec![String::new()];
        let mut last = strings.clone();
        for _ in 0..5 {
            last = last
                .iter()
                .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
                .collect();
            strings.extend_from_slice(&last);
        }
        assert!(strings.len() > 200_000);
        for s in &strings {
            assert_eq!(ascii_name_key(s), general_name_key(s), "{s:?}");
        }
        for s in [
            "  Sijbrands,  Ton ",
            "N.N.",
            "van der Wal, A.",
            "Baba-Sy",
            "Tsinman Sr.",
        ] {
            assert_eq!(ascii_name_key(s), general_name_key(s), "{s:?}");
        }
    }

    #[test]
    fn names_outside_ascii_keep_their_scripts_reading() {
        // A Cyrillic name written with a Latin `C` reads as Cyrillic.
        assert_eq!(name_key("Cорокин  Иван"), name_key("Сорокин Иван"));
        assert_eq!(name_key("Göbel, Jörg"), "göbel jörg");
    }
}
