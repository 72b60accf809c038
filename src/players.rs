//! The players of a game as every whole-archive command reads them: the tags
//! that name each side, the key two spellings of one name share, and the
//! names that stand for no one. Below `dupes`, `tournament` and `stats`,
//! which all group games by their players.

/// Lower-case, punctuation and repeated spaces gone, and letters that look
/// alike written in the name's own script: in a name mostly Cyrillic, a Latin
/// `C` is `С`; in a name mostly Latin, a Cyrillic `о` is `o`.
pub(crate) fn name_key(name: &str) -> String {
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
    PLACEHOLDERS.contains(&name_key(name).as_str())
}

/// The tags that name White: PDN's, and the Italian and French names real
/// archives use (`[Bianco]`, `[Blanc]`).
pub(crate) const WHITE_TAGS: [&str; 3] = ["White", "Bianco", "Blanc"];

/// The tags that name Black (`[Nero]`, `[Noir]`).
pub(crate) const BLACK_TAGS: [&str; 3] = ["Black", "Nero", "Noir"];
