//! The variant of games that carry no GameType, decided once per file from
//! evidence (docs/rules.md, "Which rules a game is read under").
//!
//! A game's GameType tag (or a `Variant` tag naming one) decides for that game.
//! The games without one take the file's decision: the variant of the file's
//! tagged games if it has any, else what the text shows (board size from the
//! squares and FEN, English when games from the start position open from
//! 9-12, Russian when captures are written with `:` or tag values are
//! Cyrillic, Italian when the tag names are Italian), else Brazilian on 8x8.
//! Never a variant chosen because its rules make the file's faults legal.
//!
//! This module only gathers the evidence and reads the tags; replaying a
//! file's games under the guess, and refusing a file whose games the guess
//! does not explain, is [`crate::check::FileCheck`]'s work.

use crate::board::BoardSize;
use crate::pdn::visit::RawGame;
use crate::pdn::{game_type, Game, Node, Sep, SquareText};
use crate::position::Setup;
use crate::variant::{GameKind, Unsupported, Variant};
use std::collections::BTreeMap;

/// What the games of a file without a GameType are read as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Untagged {
    /// Checked under this variant's rules.
    Variant(Variant),
    /// Of a variant pdnkit names but does not check.
    Unsupported(Unsupported),
    /// Not checked: the evidence pointed at a variant the games do not follow.
    NotChecked,
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
}

impl VariantSource {
    /// `tag`, `file`, `inferred`, `named`, `forced`, `unsupported`, `refused`.
    pub const fn as_str(self) -> &'static str {
        match self {
            VariantSource::Tag => "tag",
            VariantSource::File => "file",
            VariantSource::Inferred => "inferred",
            VariantSource::Named => "named",
            VariantSource::Forced => "forced",
            VariantSource::Unsupported => "unsupported",
            VariantSource::Refused => "refused",
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
pub struct Inference {
    /// How games without GameType are read.
    pub untagged: Untagged,
    /// What the decision rests on: another game's tag ([`VariantSource::File`]),
    /// the file's text ([`VariantSource::Inferred`]), the user
    /// ([`VariantSource::Named`]), or nothing that explains the games
    /// ([`VariantSource::Refused`]).
    pub source: VariantSource,
    /// What the decision rests on, for a person (`captures written with ':' in 12 games`).
    pub evidence: String,
}

impl Inference {
    /// The decision when nothing is known: brazilian.
    pub fn default_brazilian() -> Inference {
        Inference {
            untagged: Untagged::Variant(Variant::Brazilian),
            source: VariantSource::Inferred,
            evidence: "no evidence: brazilian by default".to_string(),
        }
    }
    /// The variant the user named for games without a GameType (`--variant`).
    pub fn named(v: Variant) -> Inference {
        Inference {
            untagged: Untagged::Variant(v),
            source: VariantSource::Named,
            evidence: format!("named {v}"),
        }
    }
}

/// What a game's own tags say of its variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TagChoice {
    /// A GameType or Variant tag naming a kind.
    Tagged(GameKind),
    /// A GameType or Variant tag that names nothing pdnkit knows.
    Invalid,
    /// No such tag.
    Untagged,
}

/// The variant a `Variant` tag names (lidraughts writes one).
pub fn variant_name(name: &str) -> Option<GameKind> {
    // The table's own names first (a new row is known at once), then aliases.
    if let Ok(v) = name.parse::<Variant>() {
        return Some(GameKind::Known(v));
    }
    let v = match name.trim().to_ascii_lowercase().as_str() {
        "brazilian" | "brazilian draughts" | "damas brasileiras" => Variant::Brazilian,
        "international" | "standard" | "international draughts" => Variant::International,
        "canadian" | "canadian draughts" => Variant::Canadian,
        "russian" | "russian draughts" | "shashki" => Variant::Russian,
        "english" | "checkers" | "english draughts" | "english checkers" => Variant::English,
        "czech" | "czech draughts" | "ceska dama" | "česká dáma" => Variant::Czech,
        "italian draughts" | "dama italiana" => Variant::Italian,
        "frisian" => return Some(GameKind::Unsupported(Unsupported(40))),
        _ => return None,
    };
    Some(GameKind::Known(v))
}

/// What a game's GameType (or Variant) tag says.
pub fn tag_choice(g: &Game) -> TagChoice {
    tag_choice_raw(&g.raw())
}

/// [`tag_choice`] of a game as the reader holds it.
pub(crate) fn tag_choice_raw(g: &RawGame<'_>) -> TagChoice {
    if let Some(t) = g.find_tag("GameType") {
        return match game_type(&g.tag_text(t)).kind() {
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

/// Evidence gathered from a file's games.
#[derive(Clone, Debug, Default)]
pub struct Evidence {
    tagged: BTreeMap<GameKind, u32>,
    /// Untagged games needing an 8x8, 10x10, 12x12 board.
    boards: [u32; 3],
    /// Untagged games from the start position opening from 9-12 (Black first),
    /// and opening with a White man (21-24, or rank 3).
    black_first: u32,
    white_first: u32,
    colon: u32,
    cyrillic: u32,
    italian: u32,
    with_moves: u32,
    untagged: u32,
}

const ITALIAN_TAGS: [&str; 3] = ["Bianco", "Nero", "Risultato"];

impl Evidence {
    /// Adds one game.
    pub fn add(&mut self, g: &Game) {
        self.add_raw(&g.raw());
    }

    /// Adds one game as the reader holds it (see [`crate::pdn::visit`]).
    pub fn add_raw(&mut self, g: &RawGame<'_>) {
        match tag_choice_raw(g) {
            TagChoice::Tagged(k) => {
                *self.tagged.entry(k).or_default() += 1;
                return;
            }
            TagChoice::Invalid => return,
            TagChoice::Untagged => {}
        }
        self.untagged += 1;
        if g.tags().iter().any(|t| {
            ITALIAN_TAGS
                .iter()
                .any(|n| g.tag_name(t).eq_ignore_ascii_case(n))
        }) {
            self.italian += 1;
        }
        if g.tags().iter().any(|t| {
            g.bytes(&t.value).iter().any(|b| *b >= 0x80)
                && g.tag_text(t)
                    .chars()
                    .any(|c| ('\u{0400}'..='\u{04ff}').contains(&c))
        }) {
            self.cyrillic += 1;
        }
        let mut need = 0u32;
        let mut see = |s: &SquareText| {
            let n = match *s {
                SquareText::Num(n) if n > 50 => 12,
                SquareText::Num(n) if n > 32 => 10,
                SquareText::Num(_) => 8,
                SquareText::Alg { file, rank } => u32::from(file + 1).max(u32::from(rank)),
            };
            need = need.max(n);
        };
        let mut moves = 0u32;
        let mut colon = false;
        for node in g.nodes() {
            if let Node::Move(m) = node {
                moves += 1;
                colon |= m.sep == Sep::Colon;
                g.squares(m).iter().for_each(&mut see);
            }
        }
        let fen = g.find_tag("FEN").map(|t| g.tag_text(t));
        if let Some(fen) = &fen {
            for tok in fen.split(|c: char| !c.is_ascii_digit()) {
                if let Ok(n) = tok.parse::<u32>() {
                    see(&SquareText::Num(n.min(999) as u16));
                }
            }
        }
        if need > 0 {
            let i = match need {
                0..=8 => 0,
                9..=10 => 1,
                _ => 2,
            };
            self.boards[i] += 1;
        }
        if moves == 0 {
            return;
        }
        self.with_moves += 1;
        self.colon += u32::from(colon);
        let from_start = match &fen {
            None => true,
            Some(f) if f.trim().is_empty() => true,
            Some(f) => is_8x8_start(f),
        };
        if !from_start {
            return;
        }
        let first = g
            .main_line()
            .next()
            .and_then(|m| g.squares(m).first().copied());
        match first {
            Some(SquareText::Num(9..=12)) | Some(SquareText::Alg { rank: 6, .. }) => {
                self.black_first += 1
            }
            Some(SquareText::Num(21..=24)) | Some(SquareText::Alg { rank: 3, .. }) => {
                self.white_first += 1
            }
            _ => {}
        }
    }

    /// Whether any game lacks a GameType (only then is a decision needed).
    pub fn has_untagged(&self) -> bool {
        self.untagged > 0
    }

    /// The evidence of a file's games.
    pub fn of<'g>(games: impl IntoIterator<Item = &'g Game>) -> Evidence {
        let mut e = Evidence::default();
        games.into_iter().for_each(|g| e.add(g));
        e
    }

    /// The decision for the file's untagged games.
    pub fn decide(&self) -> Inference {
        let plural = |n: u32| if n == 1 { "game" } else { "games" };
        if let Some((&kind, &n)) = self
            .tagged
            .iter()
            .max_by_key(|(k, n)| (**n, std::cmp::Reverse(**k)))
        {
            let untagged = match kind {
                GameKind::Known(v) => Untagged::Variant(v),
                GameKind::Unsupported(u) => Untagged::Unsupported(u),
            };
            let number = match kind {
                GameKind::Known(v) => v.game_type(),
                GameKind::Unsupported(u) => u.0,
            };
            return Inference {
                untagged,
                source: VariantSource::File,
                evidence: format!(
                    "{n} other {} of the file {} GameType {number} ({})",
                    plural(n),
                    if n == 1 { "has" } else { "have" },
                    kind.name()
                ),
            };
        }
        if self.italian > 0 {
            return Inference {
                untagged: Untagged::Variant(Variant::Italian),
                source: VariantSource::Inferred,
                evidence: format!(
                    "Italian tag names (Bianco, Nero, Risultato) in {} {}",
                    self.italian,
                    plural(self.italian)
                ),
            };
        }
        // The board most games need (the larger on a tie): one garbled game
        // does not move a file to another board.
        let (i, &n) = self
            .boards
            .iter()
            .enumerate()
            .max_by_key(|(i, n)| (**n, *i))
            .unwrap_or((0, &0));
        let with = |v: Variant, evidence: String| Inference {
            untagged: Untagged::Variant(v),
            source: VariantSource::Inferred,
            evidence,
        };
        if n > 0 && i > 0 {
            let (v, what) = if i == 1 {
                (Variant::International, "squares of a 10x10 board")
            } else {
                (Variant::Canadian, "squares of a 12x12 board")
            };
            return with(v, format!("{what} in {n} {}", plural(n)));
        }
        if self.black_first > self.white_first {
            return with(
                Variant::English,
                format!(
                    "{} {} from the start position open from squares 9-12 (Black moves first)",
                    self.black_first,
                    plural(self.black_first)
                ),
            );
        }
        if self.colon > 0 {
            return with(
                Variant::Russian,
                format!(
                    "captures written with ':' in {} {}",
                    self.colon,
                    plural(self.colon)
                ),
            );
        }
        if self.cyrillic > 0 {
            return with(
                Variant::Russian,
                format!(
                    "Cyrillic tag values in {} {}",
                    self.cyrillic,
                    plural(self.cyrillic)
                ),
            );
        }
        if self.with_moves == 0 {
            return with(
                Variant::Brazilian,
                "no moves to infer from: brazilian by default".to_string(),
            );
        }
        with(
            Variant::Brazilian,
            "8x8 squares and no sign of another variant: brazilian by default".to_string(),
        )
    }
}

/// Whether `fen` puts the pieces of the 8x8 start position (either side to move).
fn is_8x8_start(fen: &str) -> bool {
    let Ok(s) = Setup::parse(fen, BoardSize::Eight) else {
        return false;
    };
    let Ok(p) = s.into_position(Variant::Brazilian) else {
        return false;
    };
    let start = Variant::Brazilian.start();
    p.pieces(crate::piece::Color::White) == start.pieces(crate::piece::Color::White)
        && p.pieces(crate::piece::Color::Black) == start.pieces(crate::piece::Color::Black)
        && p.kings().is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
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
        assert!(e.contains("brazilian by default"));
        let (_, _, e) = decide("[FEN \"W:W21:B1\"]\n*\n");
        assert!(e.contains("no moves"), "{e}");
    }

    #[test]
    fn variant_tags_and_names() {
        assert_eq!(variant_name("Czech"), Some(GameKind::Known(Variant::Czech)));
        assert_eq!(
            variant_name("shashki"),
            Some(GameKind::Known(Variant::Russian))
        );
        assert_eq!(
            variant_name("frisian"),
            Some(GameKind::Unsupported(Unsupported(40)))
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
