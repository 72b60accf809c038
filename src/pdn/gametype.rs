//! The GameType tag read field by field.

use crate::variant::{GameKind, Unsupported, Variant};

/// What a GameType tag says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameType {
    /// A variant this tool implements.
    Known(Variant),
    /// A GameType number it names but does not implement (40 Frisian, 99, ...).
    Unsupported(Unsupported),
    /// Not a game type at all (or a long form whose board contradicts the number).
    Invalid(String),
}

impl GameType {
    /// The game's kind, when the value names one.
    pub fn kind(&self) -> Option<GameKind> {
        match self {
            GameType::Known(v) => Some(GameKind::Known(*v)),
            GameType::Unsupported(u) => Some(GameKind::Unsupported(*u)),
            GameType::Invalid(_) => None,
        }
    }
}

/// Reads a GameType value in its short (`26`) or long (`26,W,8,8,A0,0`,
/// `21,B,8,8,N1,0`) form.
pub(crate) fn game_type(value: &str) -> GameType {
    read_game_type(value).0
}

/// A GameType value read field by field (the PDN standard's
/// `doc/gametype.rst`): number, first colour (`W`/`B`), board width and
/// height, notation (`A`, `N` or `S` and the corner of square 1, `0`-`3`),
/// inverted board (`0`/`1`). A colour, board or orientation that contradicts
/// the variant, or a width or height that cannot be read, makes the value
/// invalid (the reason is returned); a notation field that cannot be read is
/// a warning.
pub(crate) fn read_game_type(value: &str) -> (GameType, Option<String>, Vec<String>) {
    let mut parts = value.split(',').map(str::trim);
    let first = parts.next().unwrap_or("");
    let Ok(n) = first.parse::<u32>() else {
        return (GameType::Invalid(value.to_string()), None, Vec::new());
    };
    let Some(v) = Variant::from_game_type(n) else {
        return (GameType::Unsupported(Unsupported(n)), None, Vec::new());
    };
    let invalid = |why: String| (GameType::Invalid(value.to_string()), Some(why), Vec::new());
    let mut warnings = Vec::new();
    let first_player = v.rules().first;
    if let Some(c) = parts.next() {
        let expected = match first_player {
            crate::piece::Color::White => "W",
            crate::piece::Color::Black => "B",
        };
        match c {
            "W" | "w" | "B" | "b" if c.eq_ignore_ascii_case(expected) => {}
            "W" | "w" | "B" | "b" => {
                return invalid(format!(
                    "the first-colour field says {c}, but in {v} {first_player} moves first"
                ))
            }
            _ => warnings.push(format!(
                "the first-colour field `{c}` of GameType cannot be read (W or B)"
            )),
        }
    }
    let size = u32::from(v.board().n());
    for what in ["width", "height"] {
        let Some(f) = parts.next() else { break };
        match f.parse::<u32>() {
            Ok(x) if x == size => {}
            Ok(x) => {
                return invalid(format!(
                    "the board {what} field says {x}, but {v} is played on {size}x{size}"
                ))
            }
            Err(_) => {
                return invalid(format!(
                    "the board {what} field `{f}` cannot be read as a number, so the board is not known"
                ))
            }
        }
    }
    if let Some(f) = parts.next() {
        let b = f.as_bytes();
        let ok = b.len() == 2
            && matches!(b[0].to_ascii_uppercase(), b'A' | b'N' | b'S')
            && (b'0'..=b'3').contains(&b[1]);
        if !ok {
            warnings.push(format!(
                "the notation field `{f}` of GameType cannot be read (A, N or S, then the corner of square 1, 0-3)"
            ));
        }
    }
    if let Some(f) = parts.next() {
        // 0: the near-left corner is dark; 1: it is not (Italian's mirrored board).
        let mirrored = v.rules().orientation == crate::board::Orientation::Mirrored;
        match f {
            "0" | "1" if (f == "1") == mirrored => {}
            "0" => {
                return invalid(format!(
                    "the orientation field says 0 (dark square at the near left), but {v} is played on the mirrored board, with the dark square at the near right"
                ))
            }
            "1" => {
                return invalid(format!(
                    "the orientation field says 1 (inverted board), but {v} is played with a dark square at the near left"
                ))
            }
            _ => warnings.push(format!(
                "the orientation field `{f}` of GameType cannot be read (0 or 1)"
            )),
        }
    }
    if let Some(extra) = parts.next() {
        warnings.push(format!(
            "GameType has more than six fields (`{extra}` and after are not read)"
        ));
    }
    (GameType::Known(v), None, warnings)
}
