//! The vocabulary of the variant decision: where a variant came from, what
//! the file's evidence decided, what the tags and the file name say.

use crate::pdn::visit::RawGame;
use crate::pdn::{game_type, Game, MARKER_TAG};
use crate::variant::{GameKind, Unsupported, Variant};

/// What the games of a file without a GameType are read as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Untagged {
    /// Checked under this variant's rules.
    Variant(Variant),
    /// Of a variant pdnkit names but does not check.
    Unsupported(Unsupported),
    /// Not checked: the evidence pointed at a variant the games do not follow.
    NotChecked,
    /// Not checked: an 8x8 file whose games have no moves and no evidence of
    /// their variant (ballots, problem sets): no variant is decided.
    Undecided,
}

/// What a game's variant was decided by (the `variant_source` of JSON and CSV).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum VariantSource {
    /// The game's own GameType (or Variant) tag.
    Tag,
    /// Another game of the file has a GameType tag.
    File,
    /// Inferred from what the file's text shows.
    Inferred,
    /// Named by the user for games without a GameType (`--variant`).
    Named,
    /// Imposed by the user on every game (`--force-variant`).
    Forced,
    /// A variant pdnkit names but does not check.
    Unsupported,
    /// A file whose untagged games no variant explains: not checked.
    Refused,
    /// An 8x8 file whose games have no moves and no evidence: not checked.
    Undecided,
}

impl VariantSource {
    /// `tag`, `file`, `inferred`, `named`, `forced`, `unsupported`, `refused`, `undecided`.
    pub const fn as_str(self) -> &'static str {
        match self {
            VariantSource::Tag => "tag",
            VariantSource::File => "file",
            VariantSource::Inferred => "inferred",
            VariantSource::Named => "named",
            VariantSource::Forced => "forced",
            VariantSource::Unsupported => "unsupported",
            VariantSource::Refused => "refused",
            VariantSource::Undecided => "undecided",
        }
    }
}

impl std::fmt::Display for VariantSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The decision for a file's untagged games, with the evidence for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Inference {
    /// How games without GameType are read.
    pub untagged: Untagged,
    /// What the decision rests on: another game's tag ([`VariantSource::File`]),
    /// the file's text ([`VariantSource::Inferred`]), the user
    /// ([`VariantSource::Named`]), or nothing that explains the games
    /// ([`VariantSource::Refused`]).
    pub source: VariantSource,
    /// What the decision rests on, for a person (`captures written with ':' in 12 games`).
    pub evidence: String,
    /// Whether `1-0` and `0-1` of the untagged games have a known meaning:
    /// false when the variants that could explain them disagree on who
    /// scores first (english against the others), or nothing was decided.
    /// Their results are then kept as written, never compared or rewritten.
    pub order_known: bool,
    /// Said once for the file beside the decision (a `--variant` that was
    /// not applied because the file's board does not fit it).
    pub note: Option<String>,
    /// The decision rests on the file's path (a word of its name or
    /// folders): a copy of its games under another name would not read back
    /// the same without pdnkit's marker.
    pub from_path: bool,
    /// The file names its squares as seen from the other side (PDN-REAL-WORLD.md
    /// 8.2): every square of its moves and FENs is read turned. The games of
    /// the decision that stopped at ply 1 upright, and those that replayed
    /// to their end turned.
    pub turned: Option<(u32, u32)>,
}

impl Inference {
    /// The decision when nothing is known: brazilian.
    pub fn default_brazilian() -> Inference {
        Inference::inferred(
            Variant::Brazilian,
            "no evidence: brazilian by default".to_string(),
        )
    }
    /// A variant inferred from the evidence described.
    pub fn inferred(v: Variant, evidence: String) -> Inference {
        Inference {
            untagged: Untagged::Variant(v),
            source: VariantSource::Inferred,
            evidence,
            order_known: true,
            note: None,
            from_path: false,
            turned: None,
        }
    }
    /// The variant the user named for games without a GameType (`--variant`).
    pub fn named(v: Variant) -> Inference {
        Inference {
            untagged: Untagged::Variant(v),
            source: VariantSource::Named,
            evidence: format!("named {v}"),
            order_known: true,
            note: None,
            from_path: false,
            turned: None,
        }
    }
    /// No variant decided: an 8x8 file with no moves and no evidence.
    pub fn undecided(evidence: String) -> Inference {
        Inference {
            untagged: Untagged::Undecided,
            source: VariantSource::Undecided,
            evidence,
            order_known: false,
            note: None,
            from_path: false,
            turned: None,
        }
    }
}

/// Why a `--variant [GLOB=]NAME` cannot be read ([`NamedVariant::parse`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NamedVariantError {
    /// A variant pdnkit names but does not check (pool, Spanish, ...).
    #[error(
        "{name} is a variant pdnkit names but does not check ({what}); pdnkit checks {checked}"
    )]
    Unsupported {
        /// The name given.
        name: String,
        /// What the variant is.
        what: String,
        /// The variants pdnkit checks.
        checked: String,
    },
    /// No variant of that name.
    #[error(transparent)]
    Unknown(#[from] crate::diag::UnknownName),
    /// `=NAME`: a GLOB was meant and none is written.
    #[error("'{0}': no GLOB before '='")]
    NoGlob(String),
    /// A GLOB that cannot be read.
    #[error("'{glob}': {why}")]
    Glob {
        /// The GLOB as written.
        glob: String,
        /// What is wrong with it.
        why: String,
    },
}

/// A variant named for the files whose path matches a glob
/// (`--variant 'GLOB=NAME'`), or for every other file (a bare `NAME`).
#[derive(Clone, Debug)]
pub struct NamedVariant {
    glob: Option<(String, globset::GlobMatcher)>,
    /// `None`: `auto`, the file's own evidence.
    variant: Option<Variant>,
}

impl NamedVariant {
    /// Reads `NAME` or `GLOB=NAME` (split at the last `=`; NAME a variant or
    /// `auto`). A GLOB without `/` matches the file's (or member's) name; one
    /// with `/` the path as printed, as if it began with `**/`; `*` does not
    /// cross `/`, `**` does.
    pub fn parse(text: &str) -> Result<NamedVariant, NamedVariantError> {
        let (glob, name) = match text.rfind('=') {
            Some(i) => (Some(&text[..i]), &text[i + 1..]),
            None => (None, text),
        };
        let variant = match name.trim() {
            n if n.eq_ignore_ascii_case("auto") => None,
            n => Some(n.parse::<Variant>().map_err(|e| match variant_name(n) {
                Some(GameKind::Unsupported(u)) => NamedVariantError::Unsupported {
                    name: n.to_string(),
                    what: u.describe(),
                    checked: Variant::ALL.map(Variant::name).join(", "),
                },
                _ => NamedVariantError::Unknown(e),
            })?),
        };
        let glob = match glob {
            None => None,
            Some("") => return Err(NamedVariantError::NoGlob(text.to_string())),
            Some(g) => {
                let pattern = match g.strip_prefix("./") {
                    Some(rest) if rest.contains('/') => format!("**/{rest}"),
                    Some(rest) => rest.to_string(),
                    None if g.contains('/') && !g.starts_with('/') && !g.starts_with("**/") => {
                        format!("**/{g}")
                    }
                    None => g.to_string(),
                };
                let m = globset::GlobBuilder::new(&pattern)
                    .literal_separator(true)
                    .backslash_escape(true)
                    .build()
                    .map_err(|e| NamedVariantError::Glob {
                        glob: g.to_string(),
                        why: e.to_string(),
                    })?
                    .compile_matcher();
                Some((g.to_string(), m))
            }
        };
        Ok(NamedVariant { glob, variant })
    }
    /// The variant named (`None`: auto).
    pub fn variant(&self) -> Option<Variant> {
        self.variant
    }
    /// The GLOB, if any.
    pub fn glob(&self) -> Option<&str> {
        self.glob.as_ref().map(|(g, _)| g.as_str())
    }
    /// Whether this GLOB matches the file printed as `path`.
    fn matches(&self, path: &str) -> bool {
        let Some((g, m)) = &self.glob else {
            return false;
        };
        let path = path.strip_prefix("./").unwrap_or(path);
        if g.contains('/') {
            // An archive member is matched as a path inside its archive too.
            m.is_match(path)
                || path
                    .split_once('!')
                    .is_some_and(|(_, inner)| m.is_match(inner))
        } else {
            m.is_match(file_name(path))
        }
    }
}

/// The last component of a printed path (of an archive member: of its name).
fn file_name(path: &str) -> &str {
    let inner = path.rsplit_once('!').map_or(path, |(_, m)| m);
    inner.rsplit(['/', '\\']).next().unwrap_or(inner)
}

/// What the user named for a file: the last GLOB that matches it, else the
/// bare NAME (`Some(None)` is `auto`); `None` when nothing was named.
pub(crate) fn named_for(
    rules: &[NamedVariant],
    path: Option<&str>,
) -> Option<(Option<Variant>, bool)> {
    if let Some(path) = path {
        if let Some(r) = rules.iter().rev().find(|r| r.matches(path)) {
            return Some((r.variant, true));
        }
    }
    rules
        .iter()
        .rev()
        .find(|r| r.glob.is_none())
        .map(|r| (r.variant, false))
}

/// Where a file comes from: its path as printed (for `--variant GLOB=NAME`
/// and the option a refusal suggests), and the part of it below the PATH
/// named on the command line (whose words are evidence of the variant).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct FileName {
    /// The path as printed (`dir/a.pdn`, `a.zip!games.pdn`).
    pub(crate) path: String,
    /// The folders below the named PATH and the file's name (`czech/a.pdn`).
    pub(crate) below: String,
}

impl FileName {
    /// A file named `path`, found under the PATH `root` (itself when named).
    pub fn new(path: &str, root: &str) -> FileName {
        let below = if path == root {
            file_name(path).to_string()
        } else {
            path.strip_prefix(root)
                .map(|r| r.trim_start_matches(['/', '\\']))
                .unwrap_or(path)
                .to_string()
        };
        FileName {
            path: path.to_string(),
            below,
        }
    }
    /// The `--variant 'GLOB=NAME'` that names `v` for this file alone,
    /// shell-quoted, its glob characters escaped.
    pub fn option_for(&self, v: Variant) -> String {
        let name = file_name(&self.path);
        let mut glob = String::new();
        for c in name.chars() {
            if matches!(c, '*' | '?' | '[' | ']' | '{' | '}' | '\\') {
                glob.push('\\');
            }
            glob.push(c);
        }
        let value = format!("{glob}={v}");
        format!("--variant '{}'", value.replace('\'', "'\\''"))
    }
}

/// What a [`MARKER_TAG`] says of its game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Marker {
    /// How the variant was decided in the game's source.
    pub source: VariantSource,
    /// Whether its `1-0` and `0-1` have a known meaning.
    pub order_known: bool,
}

impl Marker {
    /// The marker's value (`inferred`, `undecided; results as written`).
    pub fn value(self) -> String {
        format!(
            "{}{}",
            self.source.as_str(),
            if self.order_known {
                ""
            } else {
                "; results as written"
            }
        )
    }
    /// Reads a marker's value; `None` when it names no kind of decision.
    pub fn parse(value: &str) -> Option<Marker> {
        let v = value.trim().to_ascii_lowercase();
        let word: String = v.chars().take_while(|c| c.is_ascii_lowercase()).collect();
        let source = match word.as_str() {
            "inferred" => VariantSource::Inferred,
            "file" => VariantSource::File,
            "named" => VariantSource::Named,
            "refused" => VariantSource::Refused,
            "undecided" => VariantSource::Undecided,
            _ => return None,
        };
        Some(Marker {
            source,
            order_known: !v.contains("results as written"),
        })
    }
}

/// The marker of a game as the reader holds it, if it has one.
pub(crate) fn marker_raw(g: &RawGame<'_>) -> Option<Marker> {
    g.find_tag(MARKER_TAG)
        .and_then(|t| Marker::parse(&g.tag_text(t)))
}

/// What a game's own tags say of its variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum TagChoice {
    /// The marker pdnkit writes in merged outputs ([`MARKER_TAG`]): the game
    /// keeps the decision its source made, and is no evidence for others.
    Marked(Marker),
    /// A GameType or Variant tag naming a kind.
    Tagged(GameKind),
    /// A GameType or Variant tag that names nothing pdnkit knows.
    Invalid,
    /// No such tag.
    Untagged,
}

/// The variant a `Variant` tag names, read case- and punctuation-insensitively
/// (lidraughts writes `Standard`, `Frisian`, `Frysk!`, `Russian`, ...;
/// PlayStrategy `American/English`): docs/rules.md lists the spellings.
pub(crate) fn variant_name(name: &str) -> Option<GameKind> {
    let key: String = name
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect();
    if let Some(v) = Variant::ALL
        .into_iter()
        .find(|v| v.row().tag_names.contains(&key.as_str()))
    {
        return Some(GameKind::Known(v));
    }
    let n = match key.as_str() {
        "pool" | "poolcheckers" | "americanpool" => 23,
        "spanish" | "spanishdraughts" => 24,
        "portuguese" | "portuguesedraughts" => 28,
        "turkish" | "turkishdraughts" => 30,
        "thai" | "thaidraughts" => 31,
        "spantsiretti" => 41,
        _ => return None,
    };
    Some(GameKind::Unsupported(Unsupported(n)))
}

/// The variant a GameType `v` names, read with the game's Variant tag:
/// GameType 20 names the board and moves that international draughts shares
/// with lidraughts' antidraughts and breakthrough, and a Variant tag naming
/// one of them says which (RULES.md 13; py-draughts writes the pair).
pub(crate) fn same_moves<S: AsRef<str>>(
    v: Variant,
    variant_tag: impl FnOnce() -> Option<S>,
) -> Variant {
    if v != Variant::International {
        return v;
    }
    match variant_tag().and_then(|t| variant_name(t.as_ref())) {
        Some(GameKind::Known(w)) if !w.tried() && w.rules() == v.rules() => w,
        _ => v,
    }
}

/// The variant a whole word of a file or folder name names (`italian`,
/// `russian`, `czech`, `brazil`, `english`, `checkers`, ...): the weakest
/// evidence, before the default.
pub(crate) fn variant_word(word: &str) -> Option<Variant> {
    let word = word.to_lowercase();
    Variant::ALL
        .into_iter()
        .find(|v| v.row().words.contains(&word.as_str()))
}

/// What a game's GameType (or Variant) tag says.
pub(crate) fn tag_choice(g: &Game) -> TagChoice {
    tag_choice_raw(&g.raw())
}

/// [`tag_choice`] of a game as the reader holds it.
pub(crate) fn tag_choice_raw(g: &RawGame<'_>) -> TagChoice {
    if let Some(m) = marker_raw(g) {
        return TagChoice::Marked(m);
    }
    if let Some(t) = g.find_tag("GameType") {
        return match game_type(&g.tag_text(t)).kind() {
            Some(GameKind::Known(v)) => TagChoice::Tagged(GameKind::Known(same_moves(v, || {
                g.find_tag("Variant").map(|t| g.tag_text(t))
            }))),
            Some(k) => TagChoice::Tagged(k),
            None => TagChoice::Invalid,
        };
    }
    if let Some(t) = g.find_tag("Variant") {
        return match variant_name(&g.tag_text(t)) {
            Some(k) => TagChoice::Tagged(k),
            None => TagChoice::Invalid,
        };
    }
    TagChoice::Untagged
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::infer::evidence::Evidence;
    use crate::pdn::read_all;

    /// The decision for the games of `text`, and its source.
    fn decide(text: &str) -> (Untagged, VariantSource, String) {
        let games = read_all(text.as_bytes());
        let i = Evidence::of(&games).decide();
        (i.untagged, i.source, i.evidence)
    }

    #[test]
    fn the_files_tagged_games_decide_first() {
        let (u, s, e) = decide(
            "[GameType \"25\"]\n1. c3-d4 *\n\n[GameType \"25\"]\n1. c3-d4 *\n\n[Event \"x\"]\n1. 32-28 *\n",
        );
        assert_eq!(
            (u, s),
            (Untagged::Variant(Variant::Russian), VariantSource::File)
        );
        assert!(
            e.contains("2 other games of the file have GameType 25"),
            "{e}"
        );
        // A GameType that names nothing does not count as evidence.
        let (u, _, _) = decide("[GameType \"x\"]\n1. 32-28 *\n\n[Event \"y\"]\n1. 32-28 *\n");
        assert_eq!(u, Untagged::Variant(Variant::Brazilian));
    }

    #[test]
    fn italian_tag_names_name_italian() {
        let (u, s, _) = decide("[Bianco \"A\"]\n[Nero \"B\"]\n1. 22-18 *\n");
        assert_eq!(
            (u, s),
            (Untagged::Variant(Variant::Italian), VariantSource::Inferred)
        );
    }

    #[test]
    fn the_board_most_games_need() {
        let (u, _, e) = decide("[Event \"a\"]\n1. 32-28 19-23 2. 37-32 *\n");
        assert_eq!(u, Untagged::Variant(Variant::International), "{e}");
        let (u, _, _) = decide("[Event \"a\"]\n1. 55-50 *\n");
        assert_eq!(u, Untagged::Variant(Variant::Canadian));
        // One garbled 10x10 game does not move a file of 8x8 games.
        let (u, _, _) = decide(
            "[E \"1\"]\n1. 22-18 *\n\n[E \"2\"]\n1. 22-18 *\n\n[E \"3\"]\n1. 22-18 *\n\n[E \"4\"]\n1. 45-40 *\n",
        );
        assert_eq!(u, Untagged::Variant(Variant::Brazilian));
        // On a tie, the larger board.
        let (u, _, _) = decide("[E \"1\"]\n1. 22-18 *\n\n[E \"2\"]\n1. 45-40 *\n");
        assert_eq!(u, Untagged::Variant(Variant::International));
    }

    #[test]
    fn english_when_games_open_from_9_to_12() {
        let (u, _, e) = decide("[Event \"a\"]\n1. 11-15 23-19 *\n");
        assert_eq!(u, Untagged::Variant(Variant::English), "{e}");
        let (u, _, _) = decide("[Event \"a\"]\n1. 22-18 11-15 *\n");
        assert_eq!(u, Untagged::Variant(Variant::Brazilian));
    }

    #[test]
    fn russian_from_colon_captures_or_cyrillic_tags() {
        let (u, _, e) = decide("[Event \"a\"]\n1. c3-d4 f6-e5 2. d4:f6 g7:e5 *\n");
        assert_eq!(u, Untagged::Variant(Variant::Russian), "{e}");
        assert!(e.contains("':'"));
        let (u, _, e) = decide("[White \"Иванов\"]\n1. c3-d4 *\n");
        assert_eq!(u, Untagged::Variant(Variant::Russian), "{e}");
        assert!(e.contains("Cyrillic"));
    }

    #[test]
    fn brazilian_by_default() {
        let (u, s, e) = decide("[Event \"a\"]\n1. c3-d4 *\n");
        assert_eq!(
            (u, s),
            (
                Untagged::Variant(Variant::Brazilian),
                VariantSource::Inferred
            )
        );
        assert!(e.contains("the default of the 8x8 board"), "{e}");
        // No moves and no evidence on 8x8: undecided, never brazilian.
        let (u, s, e) = decide("[FEN \"W:W21:B1\"]\n*\n");
        assert_eq!((u, s), (Untagged::Undecided, VariantSource::Undecided));
        assert!(e.contains("no moves"), "{e}");
        // Board size is evidence even without moves.
        let (u, _, _) = decide("[FEN \"W:W31-50:B1-20\"]\n*\n");
        assert_eq!(u, Untagged::Variant(Variant::International));
    }

    #[test]
    fn red_players_name_english() {
        let (u, s, e) = decide("[White \"White\"]\n[Black \"Red\"]\n[FEN \"B:W21:B1\"]\n0-1\n");
        assert_eq!(
            (u, s),
            (Untagged::Variant(Variant::English), VariantSource::Inferred)
        );
        assert!(e.contains("Red"), "{e}");
    }

    #[test]
    fn words_of_the_file_name_are_the_weakest_evidence() {
        let games = read_all(b"[Event \"a\"]\n[FEN \"W:W21:B1\"]\n*\n");
        let mut e = Evidence::of(&games);
        e.add_name("archive/czech/mrcd2006.pdn");
        assert_eq!(e.decide().untagged, Untagged::Variant(Variant::Czech));
        let mut e = Evidence::of(&games);
        e.add_name("11_man_italian.pdn");
        assert_eq!(e.decide().untagged, Untagged::Variant(Variant::Italian));
        // Only whole words: `checkerboard` is not `checkers`.
        let mut e = Evidence::of(&games);
        e.add_name("checkerboard__lpc.pdn");
        assert_eq!(e.decide().untagged, Untagged::Undecided);
        // A word whose variant does not fit the board is ignored.
        let games = read_all(b"[Event \"a\"]\n1. 33-28 18-23 *\n");
        let mut e = Evidence::of(&games);
        e.add_name("russian/a.pdn");
        assert_eq!(
            e.decide().untagged,
            Untagged::Variant(Variant::International)
        );
        // Issue 62 item 11: on a 10x10 board, a word naming a variant of
        // that board names it before the board's first variant.
        for (name, v) in [
            ("frisian/a.pdn", Variant::Frisian),
            ("Friese partijen.pdn", Variant::Frisian),
            ("frysk-2019.pdn", Variant::Frysk),
            ("a.pdn", Variant::International),
        ] {
            let mut e = Evidence::of(&games);
            e.add_name(name);
            assert_eq!(e.decide().untagged, Untagged::Variant(v), "{name}");
        }
        // Any stronger evidence wins over the name.
        let games = read_all(b"[Event \"a\"]\n1. 11-15 23-19 *\n");
        let mut e = Evidence::of(&games);
        e.add_name("russian/a.pdn");
        assert_eq!(e.decide().untagged, Untagged::Variant(Variant::English));
    }

    #[test]
    fn every_name_and_word_of_a_row_names_its_variant() {
        for v in Variant::ALL {
            for t in v.row().tag_names {
                assert_eq!(variant_name(t), Some(GameKind::Known(v)), "{t}");
            }
            for w in v.row().words {
                assert_eq!(variant_word(w), Some(v), "{w}");
                assert_eq!(variant_word(&w.to_uppercase()), Some(v), "{w}");
            }
        }
    }

    #[test]
    fn variant_tag_spellings_of_real_producers() {
        for (text, v) in [
            ("American/English", Variant::English),
            ("american / english", Variant::English),
            ("Standard", Variant::International),
            ("From Position", Variant::International),
            ("Russian", Variant::Russian),
            ("BRAZILIAN", Variant::Brazilian),
            ("Česká dáma", Variant::Czech),
        ] {
            assert_eq!(variant_name(text), Some(GameKind::Known(v)), "{text}");
        }
        assert_eq!(
            variant_name("Frysk!"),
            Some(GameKind::Known(Variant::Frysk))
        );
        assert_eq!(
            variant_name("Frisian"),
            Some(GameKind::Known(Variant::Frisian))
        );
        assert_eq!(
            variant_name("Antidraughts"),
            Some(GameKind::Known(Variant::Antidraughts))
        );
        assert_eq!(
            variant_name("break-through"),
            Some(GameKind::Known(Variant::Breakthrough))
        );
        // GameType 20 with lidraughts' Variant names (py-draughts writes the pair).
        for (name, v) in [
            ("Antidraughts", Variant::Antidraughts),
            ("Breakthrough", Variant::Breakthrough),
            ("Standard", Variant::International),
            ("Russian", Variant::International),
        ] {
            let text = format!("[GameType \"20\"]\n[Variant \"{name}\"]\n1. 32-28 *\n");
            let g = &read_all(text.as_bytes())[0];
            assert_eq!(
                tag_choice(g),
                TagChoice::Tagged(GameKind::Known(v)),
                "{name}"
            );
        }
        assert_eq!(
            variant_name("Pool"),
            Some(GameKind::Unsupported(Unsupported(23)))
        );
        let g = &read_all(b"[Variant \"American/English\"]\n1. 11-15 *\n")[0];
        assert_eq!(
            tag_choice(g),
            TagChoice::Tagged(GameKind::Known(Variant::English))
        );
    }

    #[test]
    fn named_variants_by_glob() {
        let rules: Vec<NamedVariant> = [
            "czech",
            "archive/czech/**=czech",
            "*mrcd*=russian",
            "a*.pdn=auto",
        ]
        .iter()
        .map(|r| NamedVariant::parse(r).unwrap())
        .collect();
        // The last matching GLOB wins; a GLOB without `/` matches the name.
        assert_eq!(
            named_for(&rules, Some("x/archive/czech/y/mrcd.pdn")),
            Some((Some(Variant::Russian), true))
        );
        assert_eq!(
            named_for(&rules, Some("./archive/czech/b.pdn")),
            Some((Some(Variant::Czech), true))
        );
        // `*` does not cross `/`.
        let star = [NamedVariant::parse("archive/*.pdn=czech").unwrap()];
        assert_eq!(named_for(&star, Some("archive/x/b.pdn")), None);
        assert_eq!(
            named_for(&star, Some("top/archive/b.pdn")),
            Some((Some(Variant::Czech), true))
        );
        // `auto` named for some files; the bare NAME for the rest.
        assert_eq!(named_for(&rules, Some("dir/ab.pdn")), Some((None, true)));
        assert_eq!(
            named_for(&rules, Some("dir/other.pdn")),
            Some((Some(Variant::Czech), false))
        );
        // Archive members: by their own name.
        assert_eq!(
            named_for(&rules, Some("t.zip!in/mrcd07.pdn")),
            Some((Some(Variant::Russian), true))
        );
        // Split at the last `=`; an unsupported variant is named as such.
        assert_eq!(
            NamedVariant::parse("a=b=czech").unwrap().glob(),
            Some("a=b")
        );
        let e = NamedVariant::parse("pool").unwrap_err();
        assert!(e.to_string().contains("does not check"), "{e}");
        assert!(matches!(e, NamedVariantError::Unsupported { .. }));
        assert!(NamedVariant::parse("=czech").is_err());
    }

    #[test]
    fn the_option_for_a_file_is_quoted_and_escaped() {
        let f = FileName::new("dir/it's [1].pdn", "dir");
        assert_eq!(f.below, "it's [1].pdn");
        assert_eq!(
            f.option_for(Variant::Czech),
            "--variant 'it'\\''s \\[1\\].pdn=czech'"
        );
        // The option it prints names that file when read back.
        let rule = NamedVariant::parse("it's \\[1\\].pdn=czech").unwrap();
        assert_eq!(
            named_for(&[rule], Some("dir/it's [1].pdn")),
            Some((Some(Variant::Czech), true))
        );
    }

    #[test]
    fn variant_tags_and_names() {
        assert_eq!(variant_name("Czech"), Some(GameKind::Known(Variant::Czech)));
        assert_eq!(
            variant_name("shashki"),
            Some(GameKind::Known(Variant::Russian))
        );
        assert_eq!(
            variant_name("pool"),
            Some(GameKind::Unsupported(Unsupported(23)))
        );
        assert_eq!(variant_name("chess"), None);
        let g = &read_all(b"[Variant \"English\"]\n1. 11-15 *\n")[0];
        assert_eq!(
            tag_choice(g),
            TagChoice::Tagged(GameKind::Known(Variant::English))
        );
        let g = &read_all(b"[GameType \"99\"]\n*\n")[0];
        assert_eq!(
            tag_choice(g),
            TagChoice::Tagged(GameKind::Unsupported(Unsupported(99)))
        );
    }
}
