//! The variants pdnkit plays, as rows of one table of rules (docs/rules.md),
//! and the GameType numbers of PDN, including the variants it refuses.
//!
//! The rules engine ([`crate::rules`]) reads a variant's [`Rules`] and nothing
//! else: the board and its orientation, who moves first, men capturing
//! backward or not and kings or not, flying or short kings, the capture
//! priority rule, and what a man reaching the far row during a capture does.

use crate::board::{BoardSize, Geometry, Orientation};
use crate::piece::Color;
use std::fmt;
use std::str::FromStr;

/// A variant whose rules pdnkit implements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Variant {
    /// 8x8, 12 men each, maximum capture (GameType 26).
    Brazilian,
    /// 10x10, 20 men each, maximum capture (GameType 20).
    International,
    /// 12x12, 30 men each, maximum capture (GameType 27).
    Canadian,
    /// 8x8, free capture, crowned during a capture (GameType 25).
    Russian,
    /// 8x8 English checkers: short kings, men capture forward only, Black first (GameType 21).
    English,
    /// 8x8 Czech draughts: men capture forward only, flying kings, a king must
    /// capture when a king can, otherwise free capture; crowning ends the
    /// move (GameType 29).
    Czech,
    /// 8x8 Italian draughts on the mirrored board: men capture forward only
    /// and never kings, short kings, the FID's capture precedence (most
    /// pieces, with the king, most kings, kings first); crowning ends the
    /// move (GameType 22).
    Italian,
    /// 10x10 Frisian draughts: men and kings also capture along rows and
    /// columns, the capture of the greatest value (a man 100, a king 199)
    /// with a king first, three plain moves in a row at most with one king
    /// while men remain, its own draws (GameType 40).
    Frisian,
    /// Frysk!: Frisian with five men each (lidraughts; GameType 97).
    Frysk,
    /// Antidraughts (lidraughts; GameType 98): international draughts in
    /// which the side to move with no legal move wins; no draw by rule.
    Antidraughts,
    /// Breakthrough (lidraughts; GameType 96): international draughts won
    /// by the first king (or by leaving the opponent no move); no draw by rule.
    Breakthrough,
    /// Turkish draughts (GameType 30): all 64 squares, men moving forward and
    /// sideways, flying kings on ranks and files, captured pieces removed as
    /// they are jumped, maximum capture; no draw by rule (RULES.md 12).
    Turkish,
}

/// How far a king moves and captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KingRange {
    /// Any distance along an open diagonal (flying king).
    Flying,
    /// One square; it captures an adjacent piece.
    Short,
}

/// Which captures the player may choose among (docs/rules.md sections 2, 6, 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureRule {
    /// Any capture (each still goes on while it can): Russian, English.
    Any,
    /// Only those that take the greatest number of pieces: the international family.
    Maximum,
    /// The FID's precedence (art. 6.6-6.9): the most pieces, then with the
    /// king, then the most kings, then the kings met earliest.
    Italian,
    /// A king must capture when a king can; otherwise, and among the kings'
    /// captures, any capture (ČFD).
    Czech,
    /// The capture of the greatest value (a man 100, a king 199), and among
    /// those a king's before a man's (Frisian, DFS 10-11).
    Value,
}

impl CaptureRule {
    /// Whether only the captures ranked highest are legal (the most pieces:
    /// maximum and Italian; the greatest value: Frisian), so that
    /// `non-maximal-capture` applies.
    #[inline]
    pub const fn takes_most(self) -> bool {
        matches!(
            self,
            CaptureRule::Maximum | CaptureRule::Italian | CaptureRule::Value
        )
    }
}

/// What a man that reaches the far row during a capture does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Crowning {
    /// Goes on capturing as a man; crowned only if the move ends there.
    GoesOnAsMan,
    /// Is crowned at once and goes on capturing as a king.
    GoesOnAsKing,
    /// Is crowned and the move ends there.
    Stops,
}

/// One variant's rules: a row of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The board.
    pub board: BoardSize,
    /// Which corner is dark (Italian: mirrored, square 1 = a8).
    pub orientation: Orientation,
    /// Who moves first from the start position.
    pub first: Color,
    /// Whether men capture backward as well as forward.
    pub men_capture_backward: bool,
    /// Whether men may capture kings (not in Italian).
    pub men_capture_kings: bool,
    /// Flying or short kings.
    pub kings: KingRange,
    /// Which captures are legal when several are possible.
    pub capture: CaptureRule,
    /// A man reaching the far row during a capture.
    pub crowning: Crowning,
    /// Men each at the start, on the first rows of each side.
    pub men: u8,
    /// Whether pieces also capture along rows and columns (Frisian).
    pub orthogonal_captures: bool,
    /// Plain moves in a row one king may make while its side has a man
    /// (Frisian: 3; 0 for no limit).
    pub king_move_limit: u8,
    /// Whether every piece moves and captures only along ranks and files,
    /// with captured pieces leaving the board as they are jumped and no
    /// 180-degree turn between two captures (Turkish, on the 64-square board).
    pub orthogonal_moves: bool,
}

impl Rules {
    /// Whether these are the international family's rules (men capture
    /// backward, flying kings, maximum capture, a man goes on as a man),
    /// whatever the board.
    #[inline]
    pub const fn is_family(&self) -> bool {
        self.men_capture_backward
            && self.men_capture_kings
            && matches!(self.orientation, Orientation::Standard)
            && matches!(self.kings, KingRange::Flying)
            && matches!(self.capture, CaptureRule::Maximum)
            && matches!(self.crowning, Crowning::GoesOnAsMan)
            && !self.orthogonal_captures
            && !self.orthogonal_moves
            && self.king_move_limit == 0
    }
}

/// Which draw rules apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DrawRules {
    /// Brazilian confederation (docs/rules.md).
    Cbjd,
    /// FMJD: article 6 on 10x10 and 12x12, FMJD-64 article 7.2 on 8x8.
    Fmjd,
    /// No draw by rule (English checkers: draws are claimed, docs/rules.md section 1).
    None,
    /// Frisian's own draws (two kings against one, one against one; RULES.md
    /// 10): part of the variant, whatever is asked.
    Frisian,
}

/// The international family's rules on 8x8 (the base the others change).
const FAMILY: Rules = Rules {
    board: BoardSize::Eight,
    orientation: Orientation::Standard,
    first: Color::White,
    men_capture_backward: true,
    men_capture_kings: true,
    kings: KingRange::Flying,
    capture: CaptureRule::Maximum,
    crowning: Crowning::GoesOnAsMan,
    men: 12,
    orthogonal_captures: false,
    king_move_limit: 0,
    orthogonal_moves: false,
};

/// How a game of the variant ends, besides the draw rules (RULES.md 3, 13).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GameEnd {
    /// The side to move with no legal move has lost.
    NoMovesLoses,
    /// The side to move with no legal move has won (antidraughts).
    NoMovesWins,
    /// No legal move loses; otherwise a king on the board wins for its
    /// owner (breakthrough).
    FirstKingWins,
}

/// Everything pdnkit knows of one variant: its row of the table. Adding a
/// variant is adding its row here, its arm in [`Variant::row`], its rules
/// code where it moves as no other does, and its tests (docs/architecture.md).
#[derive(Debug)]
pub(crate) struct Row {
    /// Lower-case name (command line, JSON).
    pub name: &'static str,
    /// PDN GameType number.
    pub game_type: u32,
    /// Its names in a GameType or Variant tag, folded to lower-case letters
    /// and digits (`Russian draughts` is `russiandraughts`).
    pub tag_names: &'static [&'static str],
    /// Whole words of a file or folder name that name it (lower case).
    pub words: &'static [&'static str],
    /// Whether records name squares algebraically (`c3-d4`).
    pub algebraic: bool,
    /// Whether result tokens give the first player's score first (`1-0`:
    /// Black won), as checkers records do.
    pub first_player_scores_first: bool,
    /// The draw rules a game gets when none are asked for.
    pub draws: DrawRules,
    /// Whether those are its only draw rules, whatever is asked.
    pub draws_fixed: bool,
    /// How its games end, besides the draw rules.
    pub end: GameEnd,
    /// Whether an untagged file of its board is replayed against it when
    /// the evidence decides the file's variant (not the lidraughts variants
    /// whose moves are international's: nothing in a record tells them apart).
    pub tried: bool,
    /// How its pieces move and capture.
    pub rules: Rules,
}

const BRAZILIAN: Row = Row {
    name: "brazilian",
    game_type: 26,
    tag_names: &[
        "brazilian",
        "brazil",
        "braziliandraughts",
        "damasbrasileiras",
        "damabrasileira",
    ],
    words: &["brazil", "brazilian", "brasil", "brasileiras", "brasileira"],
    algebraic: true,
    first_player_scores_first: false,
    draws: DrawRules::Cbjd,
    draws_fixed: false,
    end: GameEnd::NoMovesLoses,
    tried: true,
    rules: FAMILY,
};
const INTERNATIONAL: Row = Row {
    name: "international",
    game_type: 20,
    tag_names: &[
        "international",
        "standard",
        "internationaldraughts",
        "fromposition",
    ],
    words: &["international"],
    algebraic: false,
    first_player_scores_first: false,
    draws: DrawRules::Fmjd,
    draws_fixed: false,
    end: GameEnd::NoMovesLoses,
    tried: true,
    rules: Rules {
        board: BoardSize::Ten,
        men: 20,
        ..FAMILY
    },
};
const CANADIAN: Row = Row {
    name: "canadian",
    game_type: 27,
    tag_names: &["canadian", "canadiandraughts"],
    words: &["canadian"],
    algebraic: false,
    first_player_scores_first: false,
    draws: DrawRules::Fmjd,
    draws_fixed: false,
    end: GameEnd::NoMovesLoses,
    tried: true,
    rules: Rules {
        board: BoardSize::Twelve,
        men: 30,
        ..FAMILY
    },
};
const RUSSIAN: Row = Row {
    name: "russian",
    game_type: 25,
    tag_names: &["russian", "russiandraughts", "shashki", "russianshashki"],
    words: &["russian", "russia", "shashki"],
    algebraic: true,
    first_player_scores_first: false,
    draws: DrawRules::Fmjd,
    draws_fixed: false,
    end: GameEnd::NoMovesLoses,
    tried: true,
    rules: Rules {
        capture: CaptureRule::Any,
        crowning: Crowning::GoesOnAsKing,
        ..FAMILY
    },
};
const ENGLISH: Row = Row {
    name: "english",
    game_type: 21,
    tag_names: &[
        "english",
        "checkers",
        "englishdraughts",
        "englishcheckers",
        "american",
        "americancheckers",
        "americanenglish",
        "englishamerican",
        "straightcheckers",
    ],
    words: &["english", "checkers", "american"],
    algebraic: false,
    first_player_scores_first: true,
    draws: DrawRules::None,
    draws_fixed: true,
    end: GameEnd::NoMovesLoses,
    tried: true,
    rules: Rules {
        first: Color::Black,
        men_capture_backward: false,
        kings: KingRange::Short,
        capture: CaptureRule::Any,
        crowning: Crowning::Stops,
        ..FAMILY
    },
};
const CZECH: Row = Row {
    name: "czech",
    game_type: 29,
    tag_names: &["czech", "czechdraughts", "ceskadama", "českádáma"],
    words: &["czech", "ceska", "česká", "cesky"],
    algebraic: true,
    first_player_scores_first: false,
    draws: DrawRules::None,
    draws_fixed: true,
    end: GameEnd::NoMovesLoses,
    tried: true,
    rules: Rules {
        men_capture_backward: false,
        capture: CaptureRule::Czech,
        crowning: Crowning::Stops,
        ..FAMILY
    },
};
const ITALIAN: Row = Row {
    name: "italian",
    game_type: 22,
    tag_names: &["italian", "italiandraughts", "damaitaliana"],
    words: &["italian", "italiana", "italia", "italy"],
    algebraic: false,
    first_player_scores_first: false,
    draws: DrawRules::None,
    draws_fixed: true,
    end: GameEnd::NoMovesLoses,
    tried: true,
    rules: Rules {
        orientation: Orientation::Mirrored,
        men_capture_backward: false,
        men_capture_kings: false,
        kings: KingRange::Short,
        capture: CaptureRule::Italian,
        crowning: Crowning::Stops,
        ..FAMILY
    },
};
const FRISIAN: Row = Row {
    name: "frisian",
    game_type: 40,
    tag_names: &[
        "frisian",
        "frisiandraughts",
        "fryskdamjen",
        "frieschdammen",
        "friesdammen",
    ],
    words: &["frisian", "fries", "friese"],
    algebraic: false,
    first_player_scores_first: false,
    draws: DrawRules::Frisian,
    draws_fixed: true,
    end: GameEnd::NoMovesLoses,
    tried: true,
    rules: Rules {
        board: BoardSize::Ten,
        men: 20,
        capture: CaptureRule::Value,
        orthogonal_captures: true,
        king_move_limit: 3,
        ..FAMILY
    },
};
const FRYSK: Row = Row {
    name: "frysk",
    game_type: 97,
    tag_names: &["frysk"],
    words: &["frysk"],
    rules: Rules {
        men: 5,
        ..FRISIAN.rules
    },
    ..FRISIAN
};
const TURKISH: Row = Row {
    name: "turkish",
    game_type: 30,
    tag_names: &["turkish", "turkishdraughts"],
    words: &["turkish"],
    algebraic: true,
    first_player_scores_first: false,
    draws: DrawRules::None,
    draws_fixed: true,
    end: GameEnd::NoMovesLoses,
    tried: true,
    rules: Rules {
        board: BoardSize::Full,
        men_capture_backward: false,
        men: 16,
        orthogonal_moves: true,
        ..FAMILY
    },
};
const ANTIDRAUGHTS: Row = Row {
    name: "antidraughts",
    game_type: 98,
    tag_names: &["antidraughts"],
    words: &[],
    draws: DrawRules::None,
    draws_fixed: true,
    end: GameEnd::NoMovesWins,
    tried: false,
    ..INTERNATIONAL
};
const BREAKTHROUGH: Row = Row {
    name: "breakthrough",
    game_type: 96,
    tag_names: &["breakthrough"],
    words: &[],
    draws: DrawRules::None,
    draws_fixed: true,
    end: GameEnd::FirstKingWins,
    tried: false,
    ..INTERNATIONAL
};

// What the move generator asks of a variant at every node, worked out from
// each row when the program is compiled, by the variant's discriminant (from
// `Variant::ALL` and the rows: no order to keep in step): a bit test or one
// load, not a walk of the row.

/// The variants whose rules are the international family's, a bit each.
const FAMILY_SET: u32 = each_bit(false);
/// The variants that limit one king's plain moves in a row, a bit each.
const LIMITED_SET: u32 = each_bit(true);
/// Each variant's board, two bits each (0: 8x8, 1: 10x10, 2: 12x12).
const BOARDS: u64 = {
    let (mut bits, mut i) = (0u64, 0);
    while i < Variant::ALL.len() {
        let v = Variant::ALL[i];
        let b: u64 = match v.row().rules.board {
            BoardSize::Eight => 0,
            BoardSize::Ten => 1,
            BoardSize::Twelve => 2,
            BoardSize::Full => 3,
        };
        bits |= b << (2 * v as u32);
        i += 1;
    }
    bits
};
/// Each variant's geometry.
static GEOMETRIES: [&Geometry; Variant::ALL.len()] = {
    let mut table = [BoardSize::Eight.geometry(); Variant::ALL.len()];
    let mut i = 0;
    while i < Variant::ALL.len() {
        let v = Variant::ALL[i];
        let r = &v.row().rules;
        table[v as usize] = r.board.oriented(r.orientation);
        i += 1;
    }
    table
};

/// The set of the variants whose rules are the family's (`limited`: that
/// limit one king's plain moves), a bit each.
const fn each_bit(limited: bool) -> u32 {
    let (mut bits, mut i) = (0u32, 0);
    while i < Variant::ALL.len() {
        let r = &Variant::ALL[i].row().rules;
        let holds = if limited {
            r.king_move_limit > 0
        } else {
            r.is_family()
        };
        if holds {
            bits |= 1 << Variant::ALL[i] as u32;
        }
        i += 1;
    }
    bits
}

impl Variant {
    /// Every implemented variant.
    pub const ALL: [Variant; 12] = [
        Variant::Brazilian,
        Variant::International,
        Variant::Canadian,
        Variant::Russian,
        Variant::English,
        Variant::Czech,
        Variant::Italian,
        Variant::Frisian,
        Variant::Frysk,
        Variant::Antidraughts,
        Variant::Breakthrough,
        Variant::Turkish,
    ];
    /// Its row of the table: every fact about it.
    #[inline]
    pub(crate) const fn row(self) -> &'static Row {
        match self {
            Variant::Brazilian => &BRAZILIAN,
            Variant::International => &INTERNATIONAL,
            Variant::Canadian => &CANADIAN,
            Variant::Russian => &RUSSIAN,
            Variant::English => &ENGLISH,
            Variant::Czech => &CZECH,
            Variant::Italian => &ITALIAN,
            Variant::Frisian => &FRISIAN,
            Variant::Frysk => &FRYSK,
            Variant::Antidraughts => &ANTIDRAUGHTS,
            Variant::Breakthrough => &BREAKTHROUGH,
            Variant::Turkish => &TURKISH,
        }
    }
    /// Whether the variant's records name squares algebraically (`c3-d4`):
    /// Brazilian, Russian and Czech records do; the others number them.
    #[inline]
    pub const fn algebraic(self) -> bool {
        self.row().algebraic
    }
    /// This variant's rules.
    #[inline]
    pub const fn rules(self) -> &'static Rules {
        &self.row().rules
    }
    /// The board this variant is played on.
    #[inline]
    pub const fn board(self) -> BoardSize {
        match (BOARDS >> (2 * self as u32)) & 3 {
            0 => BoardSize::Eight,
            1 => BoardSize::Ten,
            2 => BoardSize::Twelve,
            _ => BoardSize::Full,
        }
    }
    /// The board's geometry in this variant's orientation: the tables the
    /// move generator walks and the names of its squares.
    #[inline]
    pub(crate) const fn geometry(self) -> &'static Geometry {
        GEOMETRIES[self as usize]
    }
    /// The far row where `side`'s men are crowned: the top row for White,
    /// the bottom row for Black.
    pub fn crown_row(self, side: crate::piece::Color) -> crate::board::Bitboard {
        match side {
            crate::piece::Color::White => self.geometry().top_row(),
            crate::piece::Color::Black => self.geometry().bottom_row(),
        }
    }
    /// Whether this variant's rules are the international family's.
    #[inline]
    pub const fn is_family(self) -> bool {
        FAMILY_SET & (1 << self as u32) != 0
    }
    /// Whether one king's plain moves in a row are limited.
    #[inline]
    pub const fn limits_king_moves(self) -> bool {
        LIMITED_SET & (1 << self as u32) != 0
    }
    /// The maximum-capture variant played on `size` (brazilian, international, canadian).
    pub const fn for_board(size: BoardSize) -> Variant {
        match size {
            BoardSize::Eight => Variant::Brazilian,
            BoardSize::Ten => Variant::International,
            BoardSize::Twelve => Variant::Canadian,
            BoardSize::Full => Variant::Turkish,
        }
    }
    /// PDN GameType number.
    pub const fn game_type(self) -> u32 {
        self.row().game_type
    }
    /// The variant with GameType number `n`, if implemented.
    pub fn from_game_type(n: u32) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.game_type() == n)
    }
    /// Lower-case name as used on the command line and in JSON.
    pub const fn name(self) -> &'static str {
        self.row().name
    }
    /// Who has won when the side to move, `stuck`, has no legal move:
    /// its opponent, or itself in antidraughts.
    #[inline]
    pub const fn no_moves_winner(self, stuck: Color) -> Color {
        match self.row().end {
            GameEnd::NoMovesWins => stuck,
            GameEnd::NoMovesLoses | GameEnd::FirstKingWins => stuck.other(),
        }
    }
    /// Whether a king on the board ends the game (breakthrough).
    #[inline]
    pub(crate) const fn first_king_wins(self) -> bool {
        matches!(self.row().end, GameEnd::FirstKingWins)
    }
    /// Whether an untagged file of its board is tried as this variant
    /// when the evidence decides the file's variant.
    pub(crate) const fn tried(self) -> bool {
        self.row().tried
    }
    /// Whether result tokens give the first player's score first (`1-0`: Black
    /// won), as checkers records do (docs/rules.md section 1).
    pub const fn first_player_scores_first(self) -> bool {
        self.row().first_player_scores_first
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = crate::diag::UnknownName;
    fn from_str(s: &str) -> Result<Variant, crate::diag::UnknownName> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| {
                let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
                crate::diag::UnknownName::new("variant", s, format!(" ({})", names.join(", ")))
            })
    }
}

/// A GameType of PDN that pdnkit names but does not implement (docs/rules.md section 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Unsupported(pub u32);

impl Unsupported {
    /// The variant's name (`italian`, `czech`, ...), or `other` for a number PDN does not define.
    pub fn name(self) -> &'static str {
        self.known_name().unwrap_or("other")
    }
    /// The name for GameType numbers the PDN standard defines.
    pub const fn known_name(self) -> Option<&'static str> {
        Some(match self.0 {
            23 => "pool",
            24 => "spanish",
            28 => "portuguese",
            31 => "thai",
            40 => "frisian",
            41 => "spantsiretti",
            97 => "frysk",
            _ => return None,
        })
    }
    /// How a person reads it: `Italian draughts`, `GameType 99`.
    pub fn describe(self) -> String {
        match self.known_name() {
            Some("pool") => "pool checkers".to_string(),
            Some(n) => {
                let mut c = n.chars();
                let first = c.next().map(|f| f.to_ascii_uppercase()).unwrap_or('?');
                format!("{first}{} draughts", c.as_str())
            }
            None => "an unknown variant".to_string(),
        }
    }
}

/// A game's variant as far as pdnkit knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameKind {
    /// Checked under these rules.
    Known(Variant),
    /// Named and refused.
    Unsupported(Unsupported),
}

impl GameKind {
    /// The name reported in JSON's `variant` field.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Known(v) => v.name(),
            GameKind::Unsupported(u) => u.name(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_rows() {
        let r = Variant::Russian.rules();
        assert_eq!(
            (r.capture, r.crowning, r.kings),
            (CaptureRule::Any, Crowning::GoesOnAsKing, KingRange::Flying)
        );
        let e = Variant::English.rules();
        assert_eq!(
            (e.first, e.men_capture_backward, e.kings, e.crowning),
            (Color::Black, false, KingRange::Short, Crowning::Stops)
        );
        for v in [
            Variant::Brazilian,
            Variant::International,
            Variant::Canadian,
        ] {
            let r = v.rules();
            assert_eq!(
                r,
                &Rules {
                    board: r.board,
                    men: r.men,
                    ..FAMILY
                }
            );
            // Two empty rows between the men.
            let n = r.board.n();
            assert_eq!(u32::from(r.men), u32::from(n / 2) * u32::from((n - 2) / 2));
        }
        for v in [Variant::Frisian, Variant::Frysk] {
            let r = v.rules();
            assert_eq!(
                (r.board, r.capture, r.orthogonal_captures, r.king_move_limit),
                (BoardSize::Ten, CaptureRule::Value, true, 3)
            );
            assert!(!r.is_family());
        }
    }

    #[test]
    fn shortcuts_agree_with_the_table() {
        for v in Variant::ALL {
            assert_eq!(v.board(), v.rules().board, "{v}");
            assert_eq!(v.is_family(), v.rules().is_family(), "{v}");
            assert_eq!(v.limits_king_moves(), v.rules().king_move_limit > 0, "{v}");
            assert!(
                std::ptr::eq(v.geometry(), v.board().oriented(v.rules().orientation)),
                "{v}"
            );
        }
    }

    #[test]
    fn each_fact_of_a_row_is_its_own() {
        let mut seen: Vec<(&str, &str)> = Vec::new();
        for v in Variant::ALL {
            let r = v.row();
            // The row's facts are the variant's, whatever the enum's order.
            assert_eq!(r.name.parse::<Variant>(), Ok(v));
            assert_eq!(DrawRules::default_for(v), r.draws, "{v}");
            assert_eq!(v.algebraic(), r.algebraic, "{v}");
            for t in r.tag_names {
                assert!(
                    t.chars().all(|c| c.is_alphanumeric() && !c.is_uppercase()),
                    "{v}: tag name {t} is not folded"
                );
            }
            for (kind, list) in [("tag", r.tag_names), ("word", r.words)] {
                for t in list {
                    assert!(
                        !seen.contains(&(kind, t)),
                        "{v}: {kind} name {t} names two variants"
                    );
                    seen.push((kind, t));
                }
            }
            assert!(r.tag_names.contains(&r.name), "{v}: its name is a tag name");
            let fixed = DrawRules::for_variant(v, Some(DrawRules::Cbjd));
            assert_eq!(
                fixed == DrawRules::Cbjd,
                !r.draws_fixed || r.draws == DrawRules::Cbjd
            );
        }
        let numbers: std::collections::BTreeSet<u32> =
            Variant::ALL.iter().map(|v| v.game_type()).collect();
        assert_eq!(numbers.len(), Variant::ALL.len());
    }

    #[test]
    fn names_and_numbers_round_trip() {
        for v in Variant::ALL {
            assert_eq!(v.name().parse::<Variant>(), Ok(v));
            assert_eq!(Variant::from_game_type(v.game_type()), Some(v));
        }
        assert!("pool".parse::<Variant>().is_err());
        assert_eq!("Frysk".parse::<Variant>(), Ok(Variant::Frysk));
        assert_eq!(Variant::from_game_type(40), Some(Variant::Frisian));
        assert_eq!(Unsupported(23).name(), "pool");
        assert_eq!(Unsupported(24).describe(), "Spanish draughts");
        assert_eq!(Unsupported(99).name(), "other");
    }
}
