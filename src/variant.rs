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
}

impl Rules {
    /// Whether these are the international family's rules (men capture
    /// backward, flying kings, maximum capture, a man goes on as a man),
    /// whatever the board.
    #[inline]
    pub fn is_family(&self) -> bool {
        self.men_capture_backward
            && self.men_capture_kings
            && self.orientation == Orientation::Standard
            && self.kings == KingRange::Flying
            && self.capture == CaptureRule::Maximum
            && self.crowning == Crowning::GoesOnAsMan
            && !self.orthogonal_captures
            && self.king_move_limit == 0
    }
}

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
};

const BRAZILIAN: Rules = FAMILY;
const INTERNATIONAL: Rules = Rules {
    board: BoardSize::Ten,
    men: 20,
    ..FAMILY
};
const CANADIAN: Rules = Rules {
    board: BoardSize::Twelve,
    men: 30,
    ..FAMILY
};
const FRISIAN: Rules = Rules {
    board: BoardSize::Ten,
    men: 20,
    capture: CaptureRule::Value,
    orthogonal_captures: true,
    king_move_limit: 3,
    ..FAMILY
};
const FRYSK: Rules = Rules { men: 5, ..FRISIAN };
const RUSSIAN: Rules = Rules {
    capture: CaptureRule::Any,
    crowning: Crowning::GoesOnAsKing,
    ..FAMILY
};
const CZECH: Rules = Rules {
    men_capture_backward: false,
    capture: CaptureRule::Czech,
    crowning: Crowning::Stops,
    ..FAMILY
};
const ITALIAN: Rules = Rules {
    orientation: Orientation::Mirrored,
    men_capture_backward: false,
    men_capture_kings: false,
    kings: KingRange::Short,
    capture: CaptureRule::Italian,
    crowning: Crowning::Stops,
    ..FAMILY
};
const ENGLISH: Rules = Rules {
    first: Color::Black,
    men_capture_backward: false,
    kings: KingRange::Short,
    capture: CaptureRule::Any,
    crowning: Crowning::Stops,
    ..FAMILY
};

/// Each variant's geometry, in declaration order (a lookup, not a branch:
/// the move generator asks at every node).
static GEOMETRIES: [&Geometry; 9] = [
    BoardSize::Eight.geometry(),
    BoardSize::Ten.geometry(),
    BoardSize::Twelve.geometry(),
    BoardSize::Eight.geometry(),
    BoardSize::Eight.geometry(),
    BoardSize::Eight.geometry(),
    BoardSize::Eight.oriented(Orientation::Mirrored),
    BoardSize::Ten.geometry(),
    BoardSize::Ten.geometry(),
];

impl Variant {
    /// Every implemented variant.
    pub const ALL: [Variant; 9] = [
        Variant::Brazilian,
        Variant::International,
        Variant::Canadian,
        Variant::Russian,
        Variant::English,
        Variant::Czech,
        Variant::Italian,
        Variant::Frisian,
        Variant::Frysk,
    ];
    /// Whether the variant's records name squares algebraically (`c3-d4`):
    /// Brazilian, Russian and Czech records do; the others number them.
    pub fn algebraic(self) -> bool {
        matches!(self, Variant::Brazilian | Variant::Russian | Variant::Czech)
    }
    /// This variant's rules.
    #[inline]
    pub const fn rules(self) -> &'static Rules {
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
        }
    }
    /// The board this variant is played on (`rules().board`, read without
    /// the table: the move generator asks for it at every node).
    #[inline]
    pub const fn board(self) -> BoardSize {
        match self {
            Variant::Brazilian
            | Variant::Russian
            | Variant::English
            | Variant::Czech
            | Variant::Italian => BoardSize::Eight,
            Variant::International | Variant::Frisian | Variant::Frysk => BoardSize::Ten,
            Variant::Canadian => BoardSize::Twelve,
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
    /// Whether this variant's rules are the international family's
    /// (`rules().is_family()`, read without the table, for the same reason).
    #[inline]
    pub const fn is_family(self) -> bool {
        matches!(
            self,
            Variant::Brazilian | Variant::International | Variant::Canadian
        )
    }
    /// Whether one king's plain moves in a row are limited (`rules().king_move_limit
    /// > 0`, read without the table: every ply asks).
    #[inline]
    pub const fn limits_king_moves(self) -> bool {
        matches!(self, Variant::Frisian | Variant::Frysk)
    }
    /// The maximum-capture variant played on `size` (brazilian, international, canadian).
    pub const fn for_board(size: BoardSize) -> Variant {
        match size {
            BoardSize::Eight => Variant::Brazilian,
            BoardSize::Ten => Variant::International,
            BoardSize::Twelve => Variant::Canadian,
        }
    }
    /// PDN GameType number.
    pub const fn game_type(self) -> u32 {
        match self {
            Variant::Brazilian => 26,
            Variant::International => 20,
            Variant::Canadian => 27,
            Variant::Russian => 25,
            Variant::English => 21,
            Variant::Czech => 29,
            Variant::Italian => 22,
            Variant::Frisian => 40,
            Variant::Frysk => 97,
        }
    }
    /// The variant with GameType number `n`, if implemented.
    pub fn from_game_type(n: u32) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.game_type() == n)
    }
    /// Lower-case name as used on the command line and in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Brazilian => "brazilian",
            Variant::International => "international",
            Variant::Canadian => "canadian",
            Variant::Russian => "russian",
            Variant::English => "english",
            Variant::Czech => "czech",
            Variant::Italian => "italian",
            Variant::Frisian => "frisian",
            Variant::Frysk => "frysk",
        }
    }
    /// Whether result tokens give the first player's score first (`1-0`: Black
    /// won), as checkers records do (docs/rules.md section 1).
    pub const fn first_player_scores_first(self) -> bool {
        matches!(self, Variant::English)
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
            30 => "turkish",
            31 => "thai",
            40 => "frisian",
            41 => "spantsiretti",
            96 => "breakthrough",
            97 => "frysk",
            98 => "antidraughts",
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
