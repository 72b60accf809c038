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
//! Two safety nets guard the guess: [`trial`] refuses the guess when most
//! games fail within their first two plies under it, and [`FileTally`] warns
//! when more than half of the games with moves have a move error under it
//! (both need at least 3 games with moves).

use crate::board::BoardSize;
use crate::diag::{Code, FileDiagnostic, Severity};
use crate::pdn::visit::RawGame;
use crate::pdn::{game_type, Game, Node, Sep, SquareText};
use crate::position::Setup;
use crate::replay::{check_game_in, Options, Report};
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

/// The decision for a file's untagged games, with the evidence for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inference {
    /// How games without GameType are read.
    pub untagged: Untagged,
    /// What the decision rests on, for a person (`captures written with ':' in 12 games`).
    pub evidence: String,
}

impl Inference {
    /// The decision when nothing is known: brazilian.
    pub fn default_brazilian() -> Inference {
        Inference {
            untagged: Untagged::Variant(Variant::Brazilian),
            evidence: "no evidence: brazilian by default".to_string(),
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
    let v = match name.trim().to_ascii_lowercase().as_str() {
        "brazilian" | "brazilian draughts" | "damas brasileiras" => Variant::Brazilian,
        "international" | "standard" | "international draughts" => Variant::International,
        "canadian" | "canadian draughts" => Variant::Canadian,
        "russian" | "russian draughts" | "shashki" => Variant::Russian,
        "english" | "checkers" | "english draughts" | "english checkers" => Variant::English,
        "italian" | "italian draughts" => return Some(GameKind::Unsupported(Unsupported(22))),
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
pub fn tag_choice_raw(g: &RawGame<'_>) -> TagChoice {
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
                untagged: Untagged::Unsupported(Unsupported(22)),
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
    p.pieces(crate::position::Color::White) == start.pieces(crate::position::Color::White)
        && p.pieces(crate::position::Color::Black) == start.pieces(crate::position::Color::Black)
        && p.kings().is_empty()
}

/// The fewest games with moves for which a file is said not to follow its
/// inferred variant (below that, each game's own findings say enough).
const NET_MIN_GAMES: u32 = 3;

/// Games of a sample tried by [`trial`].
const TRIAL_GAMES: usize = 64;

/// The first safety net: replays up to 64 untagged games with moves under the
/// inferred variant; when at least 3 were tried and most of them fail within
/// their first two plies, the file is not that variant and its untagged games
/// are not checked (the returned inference says so).
pub fn trial<'a>(
    games: impl IntoIterator<Item = &'a Game>,
    inference: &Inference,
    opts: &Options,
) -> Inference {
    let Untagged::Variant(v) = inference.untagged else {
        return inference.clone();
    };
    let mut tried = 0u32;
    let mut failed = 0u32;
    for g in games
        .into_iter()
        .filter(|g| tag_choice(g) == TagChoice::Untagged && g.main_line().next().is_some())
        .take(TRIAL_GAMES)
    {
        tried += 1;
        let r = check_game_in(g, opts, inference);
        if r.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error && d.ply.is_some_and(|p| p <= 2))
        {
            failed += 1;
        }
    }
    if tried >= NET_MIN_GAMES && failed * 2 > tried {
        Inference {
            untagged: Untagged::NotChecked,
            evidence: format!(
                "{v} was inferred ({}), but {failed} of the {tried} games tried fail within their first two plies under its rules",
                inference.evidence
            ),
        }
    } else {
        inference.clone()
    }
}

/// Counts what a file's reports say, for the findings about the whole file.
#[derive(Clone, Debug, Default)]
pub struct FileTally {
    /// Untagged games, and where the first one starts.
    untagged: u32,
    first_untagged: Option<(u32, u32)>,
    /// Untagged games with moves checked under the inferred variant, and those with a move error.
    inferred_with_moves: u32,
    inferred_move_errors: u32,
    /// Games per unsupported variant, and where the first one says so.
    unsupported: BTreeMap<Unsupported, (u32, (u32, u32))>,
}

impl FileTally {
    /// Adds one game and its report.
    pub fn add(&mut self, g: &Game, r: &Report) {
        if r.inferred {
            self.untagged += 1;
            self.first_untagged.get_or_insert((g.line, 1));
            if r.checked && g.main_line().next().is_some() {
                self.inferred_with_moves += 1;
                if r.diagnostics
                    .iter()
                    .any(|d| d.severity == Severity::Error && d.ply.is_some())
                {
                    self.inferred_move_errors += 1;
                }
            }
        }
        if let Some(GameKind::Unsupported(u)) = r.kind {
            let at = g
                .find_tag("GameType")
                .map_or((g.line, 1), |t| g.location(t.span.start));
            self.unsupported.entry(u).or_insert((0, at)).0 += 1;
        }
    }

    /// The findings about the file: the variant inferred for its untagged
    /// games, games of unsupported variants, and the safety nets.
    pub fn finish(&self, inference: &Inference) -> Vec<FileDiagnostic> {
        let mut out = Vec::new();
        let plural = |n: u32| if n == 1 { "game" } else { "games" };
        let (line, column) = self.first_untagged.unwrap_or((1, 1));
        let at = |code: Code, severity: Severity, message: String, (line, column): (u32, u32)| {
            FileDiagnostic {
                code,
                severity,
                message,
                line,
                column,
            }
        };
        if self.untagged > 0 {
            let n = self.untagged;
            match inference.untagged {
                Untagged::Variant(v) => out.push(at(
                    Code::VariantInferred,
                    Severity::Warning,
                    format!(
                        "{n} {} without a GameType tag read as {v}: {} (use --variant to choose)",
                        plural(n),
                        inference.evidence
                    ),
                    (line, column),
                )),
                Untagged::Unsupported(u) => out.push(at(
                    Code::VariantInferred,
                    Severity::Warning,
                    format!(
                        "{n} {} without a GameType tag read as {}: {}",
                        plural(n),
                        u.describe(),
                        inference.evidence
                    ),
                    (line, column),
                )),
                Untagged::NotChecked => out.push(at(
                    Code::UnknownVariant,
                    Severity::Error,
                    format!(
                        "{}: the file is not that variant; its {n} {} without a GameType tag are not checked (name their variant with --variant)",
                        inference.evidence,
                        plural(n)
                    ),
                    (line, column),
                )),
            }
        }
        for (u, (n, loc)) in &self.unsupported {
            out.push(at(
                Code::UnsupportedVariant,
                Severity::Error,
                format!(
                    "{n} {} of {} (GameType {}): not checked — pdnkit checks {}",
                    plural(*n),
                    u.describe(),
                    u.0,
                    Variant::ALL.map(Variant::name).join(", ")
                ),
                *loc,
            ));
        }
        if let Untagged::Variant(v) = inference.untagged {
            let (e, m) = (self.inferred_move_errors, self.inferred_with_moves);
            if m >= NET_MIN_GAMES && e * 2 > m {
                out.push(at(
                    Code::VariantInferred,
                    Severity::Warning,
                    format!(
                        "{e} of the {m} games with moves have a move error under {v}, which was inferred ({}): they may be of another variant; name it with --variant",
                        inference.evidence
                    ),
                    (line, column),
                ));
            }
        }
        out
    }
}
