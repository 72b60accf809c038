//! Players and pieces: the bottom of the library with the board, below the
//! variants (which name who moves first) and positions.

use std::fmt;

/// A player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// White (moves up the board).
    White,
    /// Black (starts at the top).
    Black,
}

impl Color {
    /// The other player.
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
    /// `W` or `B`.
    pub const fn letter(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "White",
            Color::Black => "Black",
        })
    }
}

/// Man or king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A man.
    Man,
    /// A king.
    King,
}

/// A piece: colour and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its color.
    pub color: Color,
    /// Man or king.
    pub kind: Kind,
}

impl Piece {
    /// `W`, `WK`, `B`, `BK`: as a FEN writes it (and the pictures label it).
    pub const fn code(self) -> &'static str {
        match (self.color, self.kind) {
            (Color::White, Kind::Man) => "W",
            (Color::White, Kind::King) => "WK",
            (Color::Black, Kind::Man) => "B",
            (Color::Black, Kind::King) => "BK",
        }
    }
}
