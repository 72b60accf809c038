//! Board geometry: sizes, square numbering, algebraic names and bitboards.
//!
//! Only dark squares exist. Squares are numbered 1..n²/2 row by row from the top
//! row (Black's side as White sees the board), left to right, exactly as
//! docs/rules.md section 2 says. Internally a [`Square`] is the 0-based index
//! (number - 1) so it can index tables and bitboards directly.
//!
//! # Why one `u128` bitboard for every size
//! The 8x8 board has 32 squares and the 10x10 board 50, so both fit a `u64`;
//! the 12x12 board has 72 squares and does not. We use a single `u128`
//! bitboard type for all three sizes instead of a generic parameter or a pair
//! of words: on x86-64 a `u128` `and`/`or`/`andn` is two instructions, population
//! count is two `popcnt`s, and move generation here is dominated by ray walks
//! over precomputed neighbour tables, not by bitboard arithmetic. One type keeps
//! one code path for the three variants (no monomorphised copies, no
//! trait plumbing), and a `Position` stays a small `Copy` value. Where measuring
//! showed it pays, operations take a 64-bit path inside the one type: single
//! squares (`has`, `with`, `without`) work on the half that holds them, and
//! whole-set steps on boards of at most 64 squares shift a `u64`
//! (`Geometry::shift_const`).
//!
//! All geometry tables are built at compile time by `const fn`.

use std::fmt;

/// The value of a string of ASCII digits, as square numbers, counts and move
/// numbers are written; from its first nine digits only (never overflows).
pub(crate) fn decimal(digits: &[u8]) -> u32 {
    digits
        .iter()
        .take(9)
        .fold(0u32, |a, d| a * 10 + u32::from(d.wrapping_sub(b'0') % 10))
}

/// A board size supported by the rules engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BoardSize {
    /// 8x8, 32 squares (Brazilian).
    Eight,
    /// 10x10, 50 squares (international).
    Ten,
    /// 12x12, 72 squares (Canadian).
    Twelve,
    /// 8x8 with all 64 squares played, named a1..h8 and never numbered
    /// (Turkish, RULES.md 12): a board of its own, whose pieces move along
    /// ranks and files (`N`, `S`, `W`, `E` are the adjacent squares).
    Full,
}

/// Direction of a diagonal step. "North" is toward the top row (rank n), the
/// direction White's men move.
pub(crate) type Direction = usize;
/// Up and to the left (toward rank n, file a).
pub(crate) const NW: Direction = 0;
/// Up and to the right.
pub(crate) const NE: Direction = 1;
/// Down and to the left (toward rank 1).
pub(crate) const SW: Direction = 2;
/// Down and to the right.
pub(crate) const SE: Direction = 3;
/// The four directions.
pub(crate) const DIRECTIONS: [Direction; 4] = [NW, NE, SW, SE];
/// Up the column: the next dark square in the same file, two ranks up
/// (Frisian captures, RULES.md 10); on the [`BoardSize::Full`] board, the
/// square right above.
pub(crate) const N: Direction = 4;
/// Down the column, two ranks.
pub(crate) const S: Direction = 5;
/// Along the row to the left: the next dark square of the row, two files away.
pub(crate) const W: Direction = 6;
/// Along the row to the right.
pub(crate) const E: Direction = 7;
/// The four directions along ranks and files.
pub(crate) const ORTHOGONAL: [Direction; 4] = [N, S, W, E];
/// The eight directions a Frisian piece captures in: the diagonals, then
/// rows and columns.
pub(crate) const EIGHT_DIRECTIONS: [Direction; 8] = [NW, NE, SW, SE, N, S, W, E];

/// The direction opposite to `d`.
#[inline]
pub(crate) const fn opposite(d: Direction) -> Direction {
    const OPPOSITE: [Direction; 8] = [SE, SW, NE, NW, S, N, E, W];
    OPPOSITE[d]
}

/// The largest number of squares on any supported board.
pub(crate) const MAX_SQUARES: usize = 72;
const NONE: u8 = u8::MAX;

/// A dark square as a 0-based index (its PDN number minus one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl std::fmt::Display for Square {
    /// The square's number (1-based).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.number())
    }
}

impl Square {
    /// The square with 0-based index `index`, without checking it against a board.
    #[inline]
    pub const fn from_index(index: u8) -> Square {
        Square(index)
    }
    /// 0-based index.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// PDN number (1-based).
    #[inline]
    pub const fn number(self) -> u32 {
        self.0 as u32 + 1
    }
    /// The bitboard holding only this square.
    #[inline]
    pub const fn bit(self) -> Bitboard {
        Bitboard(1u128 << self.0)
    }
}

/// Why a square could not be read or placed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SquareError {
    /// A number outside 1..=n²/2.
    #[error("square {} is not on the {size} board (squares are 1-{max})", if *number >= u32::from(u16::MAX) { "number 65535 or more".to_string() } else { number.to_string() })]
    NumberOffBoard {
        /// The square number.
        number: u32,
        /// The board.
        size: BoardSize,
        /// The highest square number of that board.
        max: u32,
    },
    /// An algebraic name whose file or rank is outside the board.
    #[error("square {name} is not on the {size} board")]
    NameOffBoard {
        /// The name as written.
        name: String,
        /// The board.
        size: BoardSize,
    },
    /// An algebraic name of a light square.
    #[error("square {name} is a light square; only dark squares are played on")]
    LightSquare {
        /// The name as written.
        name: String,
    },
    /// A number on a board whose squares are only named (Turkish: a1-h8).
    #[error("square {number}: the squares of Turkish draughts are named a1-h8, never numbered")]
    NotNumbered {
        /// The number as written.
        number: u32,
    },
    /// Text that is not a square at all.
    #[error("'{text}' is not a square")]
    NotASquare {
        /// The text as written.
        text: String,
    },
}

/// Which corner is dark, and so how the dark squares are numbered.
///
/// Every variant but Italian has a dark near-left corner (a1). Italian is
/// played on the mirror image: h1 is dark, square 1 is a8, 32 is h1
/// (docs/rules.md section 7). The same number is then another square with
/// other neighbours, so a mirrored board has its own geometry tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Orientation {
    /// a1 is dark; square 1 is the second square of the top row (b8 on 8x8).
    Standard,
    /// h1 is dark; square 1 is the top-left corner (a8 on 8x8).
    Mirrored,
}

/// Precomputed geometry of one board: its size and its orientation.
#[derive(Debug)]
pub(crate) struct Geometry {
    /// The board size.
    size: BoardSize,
    /// Which corner is dark.
    orientation: Orientation,
    /// Side length n.
    pub(crate) n: u8,
    /// Number of dark squares, n²/2.
    pub(crate) squares: u8,
    /// `neighbour[sq][dir]`: the adjacent square in `dir` (the next dark
    /// square of the row or column for orthogonal directions (`N`, `S`, `W`, `E`)), or 255
    /// off the board.
    neighbour: [[u8; 8]; MAX_SQUARES],
    /// Every square of the board.
    pub(crate) all: Bitboard,
    /// The top row (White crowns here).
    pub(crate) top_row: Bitboard,
    /// The bottom row (Black crowns here).
    pub(crate) bottom_row: Bitboard,
    /// `step_masks[dir]`: the squares of even rows (0, 2, ...) and of odd rows
    /// that have a neighbour in `dir`. With h = n/2 squares per row, that
    /// neighbour's index differs by [`EVEN_DELTA`] on even rows and by
    /// [`ODD_DELTA`] on odd rows, so a whole set steps by two masked shifts.
    step_masks: [[Bitboard; 2]; 4],
    /// `step2_masks[dir]`: the squares two steps from the edge in `dir` (with a
    /// square two steps away). Two steps cross one even and one odd row, so a
    /// whole set moves two steps by one masked shift.
    step2_masks: [Bitboard; 4],
}

/// Index difference to the neighbour in each direction, from an even row, as
/// multiples of h plus a constant: `(h factor, constant)`.
const EVEN_DELTA: [(i8, i8); 4] = [(-1, 0), (-1, 1), (1, 0), (1, 1)];
/// The same from an odd row.
const ODD_DELTA: [(i8, i8); 4] = [(-1, -1), (-1, 0), (1, -1), (1, 0)];

const fn build(size: BoardSize, orientation: Orientation) -> Geometry {
    let n = size.n();
    let mirrored = matches!(orientation, Orientation::Mirrored);
    let h = n / 2;
    let squares = n * h;
    let mut neighbour = [[NONE; 8]; MAX_SQUARES];
    let mut all = 0u128;
    let mut top = 0u128;
    let mut bottom = 0u128;
    let mut step_masks = [[Bitboard(0); 2]; 4];
    let mut s = 0u8;
    while s < squares {
        let r = (s / h) as i32;
        // Standard: even rows use files b, d, ...; mirrored: a, c, ...
        let f = (2 * (s % h) + if (r % 2 == 0) != mirrored { 1 } else { 0 }) as i32;
        all |= 1u128 << s;
        if r == 0 {
            top |= 1u128 << s;
        }
        if r == n as i32 - 1 {
            bottom |= 1u128 << s;
        }
        let deltas: [(i32, i32); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];
        let mut d = 0;
        while d < 4 {
            let nr = r + deltas[d].0;
            let nf = f + deltas[d].1;
            if nr >= 0 && nr < n as i32 && nf >= 0 && nf < n as i32 {
                let t = (nr * h as i32 + nf / 2) as u8;
                neighbour[s as usize][d] = t;
                // Which index deltas apply: a mirrored even row steps as a
                // standard odd row does, and the other way round.
                let parity = ((r % 2) as usize) ^ (mirrored as usize);
                step_masks[d][parity] = Bitboard(step_masks[d][parity].0 | 1u128 << s);
            }
            d += 1;
        }
        // Rows and columns: the next dark square two files or two ranks away
        // (N, S, W, E).
        let ortho: [(i32, i32); 4] = [(-2, 0), (2, 0), (0, -2), (0, 2)];
        let mut o = 0;
        while o < 4 {
            let nr = r + ortho[o].0;
            let nf = f + ortho[o].1;
            if nr >= 0 && nr < n as i32 && nf >= 0 && nf < n as i32 {
                neighbour[s as usize][4 + o] = (nr * h as i32 + nf / 2) as u8;
            }
            o += 1;
        }
        s += 1;
    }
    let mut step2_masks = [Bitboard(0); 4];
    let mut s = 0u8;
    while s < squares {
        let mut d = 0;
        while d < 4 {
            let t = neighbour[s as usize][d];
            if t != NONE && neighbour[t as usize][d] != NONE {
                step2_masks[d] = Bitboard(step2_masks[d].0 | 1u128 << s);
            }
            d += 1;
        }
        s += 1;
    }
    Geometry {
        size,
        orientation,
        n,
        squares,
        neighbour,
        all: Bitboard(all),
        top_row: Bitboard(top),
        bottom_row: Bitboard(bottom),
        step_masks,
        step2_masks,
    }
}

static GEO8: Geometry = build(BoardSize::Eight, Orientation::Standard);
static GEO10: Geometry = build(BoardSize::Ten, Orientation::Standard);
static GEO12: Geometry = build(BoardSize::Twelve, Orientation::Standard);
static GEO8_MIRRORED: Geometry = build(BoardSize::Eight, Orientation::Mirrored);
static GEO_FULL: Geometry = build_full();

/// The 64-square board (RULES.md 12): index = row from the top x 8 + file,
/// so that row 0 is rank 8 (White crowns there) as on the other boards; only
/// the four orthogonal directions have neighbours, the adjacent squares.
/// The dark-square boards' masked whole-set shifts are never used on it
/// (their masks stay empty): its move generator walks the neighbours.
const fn build_full() -> Geometry {
    let mut neighbour = [[NONE; 8]; MAX_SQUARES];
    let mut s = 0u8;
    while s < 64 {
        let (r, f) = (s / 8, s % 8);
        if r > 0 {
            neighbour[s as usize][N] = s - 8;
        }
        if r < 7 {
            neighbour[s as usize][S] = s + 8;
        }
        if f > 0 {
            neighbour[s as usize][W] = s - 1;
        }
        if f < 7 {
            neighbour[s as usize][E] = s + 1;
        }
        s += 1;
    }
    Geometry {
        size: BoardSize::Full,
        orientation: Orientation::Standard,
        n: 8,
        squares: 64,
        neighbour,
        all: Bitboard(u64::MAX as u128),
        top_row: Bitboard(0xFF),
        bottom_row: Bitboard(0xFF << 56),
        step_masks: [[Bitboard(0); 2]; 4],
        step2_masks: [Bitboard(0); 4],
    }
}

impl BoardSize {
    /// Side length.
    pub const fn n(self) -> u8 {
        match self {
            BoardSize::Eight | BoardSize::Full => 8,
            BoardSize::Ten => 10,
            BoardSize::Twelve => 12,
        }
    }
    /// The size with side length `n`, if supported.
    pub fn from_n(n: u32) -> Option<BoardSize> {
        match n {
            8 => Some(BoardSize::Eight),
            10 => Some(BoardSize::Ten),
            12 => Some(BoardSize::Twelve),
            _ => None,
        }
    }
    /// Number of squares played on: the dark ones, or 64 on [`BoardSize::Full`].
    pub const fn squares(self) -> u8 {
        self.geometry().squares
    }
    /// The compile-time geometry tables of the standard orientation.
    #[inline]
    pub(crate) const fn geometry(self) -> &'static Geometry {
        match self {
            BoardSize::Eight => &GEO8,
            BoardSize::Ten => &GEO10,
            BoardSize::Twelve => &GEO12,
            BoardSize::Full => &GEO_FULL,
        }
    }

    /// The geometry tables of this size in `orientation` (only 8x8 is
    /// played mirrored; a mirrored 10x10 or 12x12 is the standard board).
    #[inline]
    pub(crate) const fn oriented(self, orientation: Orientation) -> &'static Geometry {
        match (self, orientation) {
            (BoardSize::Eight, Orientation::Mirrored) => &GEO8_MIRRORED,
            _ => self.geometry(),
        }
    }

    /// The square with PDN number `number` (1-based).
    pub fn square(self, number: u32) -> Result<Square, SquareError> {
        self.geometry().square(number)
    }

    /// The square numbered `number`, if on the board ([`BoardSize::square`]
    /// without the error: the replay's fast path).
    #[inline]
    pub(crate) fn numbered(self, number: u32) -> Option<Square> {
        (number >= 1 && number <= u32::from(self.squares()) && self != BoardSize::Full)
            .then(|| Square((number - 1) as u8))
    }

    /// Row from the top (0-based) and file (0 = a) of a square on the
    /// standard board (on the mirrored 8x8 board they differ).
    pub fn coords(self, sq: Square) -> (u8, u8) {
        self.geometry().coords(sq)
    }

    /// The square at 0-based row from the top and file, if dark and on the
    /// standard board.
    pub fn at(self, row: u8, file: u8) -> Option<Square> {
        self.geometry().at(row, file)
    }

    /// Algebraic name such as `c3` on the standard board.
    pub fn algebraic(self, sq: Square) -> String {
        self.geometry().algebraic(sq)
    }

    /// Reads an algebraic name (`c3`, `C3`, `l12`) on the standard board.
    pub fn parse_algebraic(self, text: &str) -> Result<Square, SquareError> {
        self.geometry().parse_algebraic(text)
    }

    /// Reads a square written either as a number or as an algebraic name, on
    /// the standard board.
    pub fn parse_square(self, text: &str) -> Result<Square, SquareError> {
        self.geometry().parse_square(text)
    }

    /// The neighbour of `sq` in direction `d`, if on the board.
    #[inline]
    pub fn neighbour(self, sq: Square, d: Direction) -> Option<Square> {
        self.geometry().step(sq, d)
    }

    /// The squares from `sq` (exclusive) to the edge in direction `d`.
    pub fn ray(self, sq: Square, d: Direction) -> impl Iterator<Item = Square> {
        self.geometry().ray(sq, d)
    }
}

/// Squares: numbers, names and places on this board.
impl Geometry {
    /// The board size.
    #[inline]
    pub const fn size(&self) -> BoardSize {
        self.size
    }
    #[inline]
    const fn mirrored(&self) -> bool {
        matches!(self.orientation, Orientation::Mirrored)
    }

    /// The square with PDN number `number` (1-based).
    pub fn square(&self, number: u32) -> Result<Square, SquareError> {
        let max = self.squares() as u32;
        if self.size == BoardSize::Full {
            return Err(SquareError::NotNumbered { number });
        }
        if let Some(sq) = self.size.numbered(number) {
            Ok(sq)
        } else {
            Err(SquareError::NumberOffBoard {
                number,
                size: self.size,
                max,
            })
        }
    }

    /// Row from the top (0-based) and file (0 = a) of a square, as this
    /// board's orientation places it.
    pub fn coords(&self, sq: Square) -> (u8, u8) {
        if self.size == BoardSize::Full {
            return (sq.0 / 8, sq.0 % 8);
        }
        let h = self.n() / 2;
        let r = sq.0 / h;
        let f = 2 * (sq.0 % h) + u8::from(r.is_multiple_of(2) != self.mirrored());
        (r, f)
    }

    /// The square at 0-based row from the top and file, if dark and on the board.
    pub fn at(&self, row: u8, file: u8) -> Option<Square> {
        let n = self.n();
        if self.size == BoardSize::Full {
            return (row < 8 && file < 8).then(|| Square(row * 8 + file));
        }
        if row >= n || file >= n || (row + file).is_multiple_of(2) != self.mirrored() {
            return None;
        }
        Some(Square(row * (n / 2) + file / 2))
    }

    /// Algebraic name such as `c3` (files a.., ranks 1.. from White's side).
    pub fn algebraic(&self, sq: Square) -> String {
        let (r, f) = self.coords(sq);
        format!("{}{}", (b'a' + f) as char, self.n() - r)
    }

    /// Reads an algebraic name (`c3`, `C3`, `l12`).
    pub fn parse_algebraic(&self, text: &str) -> Result<Square, SquareError> {
        let bytes = text.as_bytes();
        let not = || SquareError::NotASquare {
            text: text.to_string(),
        };
        let (&file, rank) = bytes.split_first().ok_or_else(not)?;
        let file = file.to_ascii_lowercase();
        if !file.is_ascii_lowercase()
            || rank.is_empty()
            || rank.len() > 2
            || !rank.iter().all(u8::is_ascii_digit)
        {
            return Err(not());
        }
        let rank = decimal(rank);
        let n = u32::from(self.n());
        let f = u32::from(file - b'a');
        if f >= n || rank == 0 || rank > n {
            return Err(SquareError::NameOffBoard {
                name: text.to_string(),
                size: self.size,
            });
        }
        self.at((n - rank) as u8, f as u8)
            .ok_or_else(|| SquareError::LightSquare {
                name: text.to_string(),
            })
    }

    /// Reads a square written either as a number or as an algebraic name.
    pub fn parse_square(&self, text: &str) -> Result<Square, SquareError> {
        let t = text.trim();
        if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
            let number = decimal(t.as_bytes());
            if t.len() > 6 {
                // Too long for a number of any board: say it as written.
                return Err(SquareError::NameOffBoard {
                    name: t.to_string(),
                    size: self.size,
                });
            }
            self.square(number)
        } else {
            self.parse_algebraic(t)
        }
    }

    /// The squares from `sq` (exclusive) to the edge in direction `d`.
    pub fn ray(&self, sq: Square, d: Direction) -> impl Iterator<Item = Square> + '_ {
        std::iter::successors(self.step(sq, d), move |&s| self.step(s, d))
    }
}

impl Geometry {
    /// Side length n.
    pub fn n(&self) -> u8 {
        self.n
    }
    /// Number of dark squares, n²/2.
    pub fn squares(&self) -> u8 {
        self.squares
    }
    /// The top row (White crowns here).
    pub fn top_row(&self) -> Bitboard {
        self.top_row
    }
    /// The bottom row (Black crowns here).
    pub fn bottom_row(&self) -> Bitboard {
        self.bottom_row
    }

    /// Whether `to` is the neighbour of `sq` in direction `d`
    /// ([`Geometry::step`] compared, without the `Option`).
    #[inline(always)]
    pub(crate) fn steps_to(&self, sq: Square, d: Direction, to: Square) -> bool {
        self.neighbour[sq.index()][d] == to.0 && to.0 != NONE
    }

    /// Neighbour in direction `d`, if on the board.
    #[inline(always)]
    pub fn step(&self, sq: Square, d: Direction) -> Option<Square> {
        let t = self.neighbour[sq.index()][d];
        if t == NONE {
            None
        } else {
            Some(Square(t))
        }
    }
}

impl Geometry {
    /// Every square of `b` moved one step in direction `d` (squares with no
    /// neighbour there drop out).
    #[cfg(test)]
    pub fn shift(&self, b: Bitboard, d: Direction) -> Bitboard {
        self.step_set(b, d, (self.n / 2) as i8)
    }

    /// `Geometry::shift` with the row length `H` (= n/2) and the direction
    /// `D` known at compile time, so both shifts are by constants.
    #[inline(always)]
    pub fn shift_const<const H: i8, const D: usize>(&self, b: Bitboard) -> Bitboard {
        self.step_set(b, D, H)
    }

    /// Two steps of a whole set in direction `D` (the squares two steps away,
    /// [`Geometry::shift_const`] twice), by one masked shift: `H` = n/2.
    #[inline(always)]
    pub fn shift2_const<const H: i8, const D: usize>(&self, b: Bitboard) -> Bitboard {
        let m = self.step2_masks[D];
        let delta = (EVEN_DELTA[D].0 + ODD_DELTA[D].0) * H + EVEN_DELTA[D].1 + ODD_DELTA[D].1;
        if H <= 5 {
            Bitboard(u128::from(shift64(b.0 as u64 & m.0 as u64, delta)))
        } else {
            Bitboard(shift_by(b.0 & m.0, delta))
        }
    }

    /// The step of a whole set, with `h` = n/2 squares per row.
    #[inline(always)]
    fn step_set(&self, b: Bitboard, d: Direction, h: i8) -> Bitboard {
        let [even, odd] = self.step_masks[d];
        let de = EVEN_DELTA[d].0 * h + EVEN_DELTA[d].1;
        let dodd = ODD_DELTA[d].0 * h + ODD_DELTA[d].1;
        if h <= 5 {
            // 8x8 and 10x10 have at most 50 squares: 64-bit arithmetic is enough
            // (the masks keep every result on the board, below bit 50).
            let (x, e, o) = (b.0 as u64, even.0 as u64, odd.0 as u64);
            Bitboard(u128::from(shift64(x & e, de) | shift64(x & o, dodd)))
        } else {
            Bitboard(shift_by(b.0 & even.0, de) | shift_by(b.0 & odd.0, dodd))
        }
    }
}

#[inline(always)]
const fn shift64(x: u64, delta: i8) -> u64 {
    if delta >= 0 {
        x << delta
    } else {
        x >> -delta
    }
}

#[inline(always)]
const fn shift_by(x: u128, delta: i8) -> u128 {
    if delta >= 0 {
        x << delta
    } else {
        x >> -delta
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.n();
        write!(f, "{n}x{n}")?;
        if *self == BoardSize::Full {
            f.write_str(" (all 64 squares)")?;
        }
        Ok(())
    }
}

/// A set of squares (bit `i` is the square with index `i`, number `i + 1`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bitboard(pub(crate) u128);

/// The one-square set of `sq`, built from a 64-bit shift into one half
/// (cheaper than a 128-bit shift).
#[inline(always)]
const fn bit(sq: Square) -> u128 {
    let b = (1u64 << (sq.0 & 63)) as u128;
    if sq.0 < 64 {
        b
    } else {
        b << 64
    }
}

impl Bitboard {
    /// The set as bits: bit `i` is the square with index `i` (number `i + 1`).
    pub const fn bits(self) -> u128 {
        self.0
    }
    /// The set of the bits of `bits` ([`Bitboard::bits`] back).
    pub const fn from_bits(bits: u128) -> Bitboard {
        Bitboard(bits)
    }
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Whether `sq` is in the set.
    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        // One 64-bit half and one shift, not a 128-bit shift.
        let half = if sq.0 < 64 {
            self.0 as u64
        } else {
            (self.0 >> 64) as u64
        };
        half >> (sq.0 & 63) & 1 != 0
    }
    /// Number of squares.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }
    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// The set with `sq` added.
    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | bit(sq))
    }
    /// The set with `sq` removed.
    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !bit(sq))
    }
    /// The squares in increasing order.
    #[inline]
    pub fn squares(self) -> impl Iterator<Item = Square> {
        BitIter(self.0)
    }
}

impl std::ops::BitOr for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitor(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 | o.0)
    }
}
impl std::ops::BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitand(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 & o.0)
    }
}
impl std::ops::Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}
impl std::ops::BitOrAssign for Bitboard {
    #[inline(always)]
    fn bitor_assign(&mut self, o: Bitboard) {
        self.0 |= o.0
    }
}

/// Iterator over the squares of a bitboard, lowest first.
pub(crate) struct BitIter(u128);

impl Iterator for BitIter {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(Square(i as u8))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_square_operations_match_128_bit_shifts() {
        // `has`, `with` and `without` work on one 64-bit half: the same sets
        // as plain 128-bit shifts, on both halves and across the boundary.
        let sets = [
            0u128,
            u128::MAX,
            0x5555_5555_5555_5555_5555_5555_5555_5555,
            1 << 63 | 1 << 64,
        ];
        for &raw in &sets {
            for i in 0..128u8 {
                let (b, sq) = (Bitboard(raw), Square::from_index(i));
                assert_eq!(b.has(sq), raw >> i & 1 != 0, "{raw:x} {i}");
                assert_eq!(b.with(sq).0, raw | 1u128 << i, "{raw:x} {i}");
                assert_eq!(b.without(sq).0, raw & !(1u128 << i), "{raw:x} {i}");
            }
        }
    }

    /// [`Geometry::shift_const`] with its parameters chosen at run time.
    fn shift_const_any(g: &Geometry, size: BoardSize, d: Direction, b: Bitboard) -> Bitboard {
        match (size, d) {
            (BoardSize::Eight, 0) => g.shift_const::<4, 0>(b),
            (BoardSize::Eight, 1) => g.shift_const::<4, 1>(b),
            (BoardSize::Eight, 2) => g.shift_const::<4, 2>(b),
            (BoardSize::Eight, _) => g.shift_const::<4, 3>(b),
            (BoardSize::Ten, 0) => g.shift_const::<5, 0>(b),
            (BoardSize::Ten, 1) => g.shift_const::<5, 1>(b),
            (BoardSize::Ten, 2) => g.shift_const::<5, 2>(b),
            (BoardSize::Ten, _) => g.shift_const::<5, 3>(b),
            (BoardSize::Twelve, 0) => g.shift_const::<6, 0>(b),
            (BoardSize::Twelve, 1) => g.shift_const::<6, 1>(b),
            (BoardSize::Twelve, 2) => g.shift_const::<6, 2>(b),
            (BoardSize::Twelve, _) => g.shift_const::<6, 3>(b),
            (BoardSize::Full, _) => unreachable!("no whole-set steps on the 64-square board"),
        }
    }

    #[test]
    fn set_shift_agrees_with_single_steps() {
        for size in [BoardSize::Eight, BoardSize::Ten, BoardSize::Twelve] {
            let g = size.geometry();
            for d in DIRECTIONS {
                for i in 0..size.squares() {
                    let sq = Square::from_index(i);
                    let want = g.step(sq, d).map_or(Bitboard::EMPTY, Square::bit);
                    assert_eq!(
                        g.shift(sq.bit(), d),
                        want,
                        "{size} square {} dir {d}",
                        sq.number()
                    );
                }
                for b in [
                    g.all,
                    g.top_row,
                    g.bottom_row,
                    Bitboard(0x5555_5555_5555_5555_5555 & g.all.0),
                ] {
                    assert_eq!(
                        shift_const_any(g, size, d, b),
                        g.shift(b, d),
                        "{size} dir {d}"
                    );
                }
                // A whole set moves as the union of its squares.
                let all = g.all;
                let want = all
                    .squares()
                    .filter_map(|q| g.step(q, d))
                    .fold(Bitboard::EMPTY, |b, q| b | q.bit());
                assert_eq!(g.shift(all, d), want);
            }
        }
    }

    #[test]
    fn a_double_step_is_two_single_steps() {
        // On every board, both orientations, every direction, over sets built
        // from a simple generator: `shift2_const` is `shift_const` twice.
        fn two<const H: i8, const D: usize>(g: &Geometry, b: Bitboard) -> (Bitboard, Bitboard) {
            (
                g.shift2_const::<H, D>(b),
                g.shift_const::<H, D>(g.shift_const::<H, D>(b)),
            )
        }
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        let mut sets = 0;
        for size in [BoardSize::Eight, BoardSize::Ten, BoardSize::Twelve] {
            for orientation in [Orientation::Standard, Orientation::Mirrored] {
                let g = size.oriented(orientation);
                for k in 0..300 {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    let wide = u128::from(x) << 64 | u128::from(x.rotate_left(23));
                    let b = match k {
                        0 => g.all,
                        1 => g.top_row,
                        2 => g.bottom_row,
                        _ => Bitboard(wide & g.all.0),
                    };
                    let pairs = match size {
                        BoardSize::Eight => [
                            two::<4, 0>(g, b),
                            two::<4, 1>(g, b),
                            two::<4, 2>(g, b),
                            two::<4, 3>(g, b),
                        ],
                        BoardSize::Ten => [
                            two::<5, 0>(g, b),
                            two::<5, 1>(g, b),
                            two::<5, 2>(g, b),
                            two::<5, 3>(g, b),
                        ],
                        BoardSize::Twelve => [
                            two::<6, 0>(g, b),
                            two::<6, 1>(g, b),
                            two::<6, 2>(g, b),
                            two::<6, 3>(g, b),
                        ],
                        BoardSize::Full => unreachable!("only the dark-square boards"),
                    };
                    for (d, (fast, slow)) in pairs.into_iter().enumerate() {
                        assert_eq!(fast, slow, "{size} {orientation:?} dir {d} set {:x}", b.0);
                        sets += 1;
                    }
                }
            }
        }
        assert_eq!(sets, 3 * 2 * 300 * 4);
    }

    /// The 64-square board (RULES.md 12): every square, named a1..h8 and
    /// never numbered; its neighbours are the adjacent squares along ranks
    /// and files, none diagonally.
    #[test]
    fn the_full_board_names_every_square_and_steps_orthogonally() {
        let b = BoardSize::Full;
        let g = b.geometry();
        assert_eq!((b.n(), b.squares(), g.all.count()), (8, 64, 64));
        let mut seen = std::collections::BTreeSet::new();
        for i in 0..64 {
            let sq = Square::from_index(i);
            let name = b.algebraic(sq);
            assert_eq!(b.parse_algebraic(&name), Ok(sq));
            assert_eq!(b.parse_square(&name), Ok(sq));
            seen.insert(name.clone());
            let (r, f) = b.coords(sq);
            for (d, dr, df) in [(N, -1, 0), (S, 1, 0), (W, 0, -1), (E, 0, 1)] {
                let want = b.at((r as i8 + dr) as u8, (f as i8 + df) as u8);
                let want = want.filter(|_| {
                    (0..8).contains(&(r as i8 + dr)) && (0..8).contains(&(f as i8 + df))
                });
                assert_eq!(g.step(sq, d), want, "{name} {d}");
            }
            assert!(DIRECTIONS.iter().all(|&d| g.step(sq, d).is_none()));
        }
        assert_eq!(seen.len(), 64);
        assert_eq!(b.algebraic(Square::from_index(0)), "a8");
        assert_eq!(b.parse_algebraic("a1").map(|s| s.index()), Ok(56));
        assert!(g.top_row.has(b.parse_algebraic("h8").unwrap()));
        assert!(g.bottom_row.has(b.parse_algebraic("c1").unwrap()));
        assert_eq!(
            b.parse_square("20"),
            Err(SquareError::NotNumbered { number: 20 })
        );
        assert!(b.parse_algebraic("i4").is_err() && b.parse_algebraic("a9").is_err());
        assert!(b.parse_algebraic("a0").is_err());
        assert_eq!(b.numbered(5), None);
    }

    #[test]
    fn orthogonal_steps_are_two_files_or_two_ranks() {
        // RULES.md 10: 33-34 is a row step, 5-15 a column step; 33x35 over
        // 34 and 5x25 over 15.
        let g = BoardSize::Ten.geometry();
        let sq = |n: u32| g.square(n).expect("a square");
        assert_eq!(g.step(sq(33), E), Some(sq(34)));
        assert_eq!(g.step(sq(34), E), Some(sq(35)));
        assert_eq!(g.step(sq(34), W), Some(sq(33)));
        assert_eq!(g.step(sq(5), S), Some(sq(15)));
        assert_eq!(g.step(sq(15), S), Some(sq(25)));
        assert_eq!(g.step(sq(15), N), Some(sq(5)));
        // Edges: 31 starts its row, 5 ends its row, 1 is on the top row.
        assert_eq!(g.step(sq(31), W), None);
        assert_eq!(g.step(sq(5), E), None);
        assert_eq!(g.step(sq(1), N), None);
        assert_eq!(g.step(sq(46), S), None);
        for d in EIGHT_DIRECTIONS {
            assert_eq!(opposite(opposite(d)), d);
            for s in (1..=50).map(sq) {
                if let Some(t) = g.step(s, d) {
                    assert_eq!(g.step(t, opposite(d)), Some(s), "{s} {d}");
                    let ((r, f), (tr, tf)) = (g.coords(s), g.coords(t));
                    let (dr, df) = (i32::from(tr) - i32::from(r), i32::from(tf) - i32::from(f));
                    match d {
                        N | S => assert_eq!((dr.abs(), df), (2, 0)),
                        W | E => assert_eq!((dr, df.abs()), (0, 2)),
                        _ => assert_eq!((dr.abs(), df.abs()), (1, 1)),
                    }
                }
            }
        }
    }

    #[test]
    fn examples_from_rules_section_1() {
        let cases: [(BoardSize, u32, &str); 10] = [
            (BoardSize::Eight, 1, "b8"),
            (BoardSize::Eight, 4, "h8"),
            (BoardSize::Eight, 5, "a7"),
            (BoardSize::Eight, 29, "a1"),
            (BoardSize::Eight, 32, "g1"),
            (BoardSize::Ten, 1, "b10"),
            (BoardSize::Ten, 46, "a1"),
            (BoardSize::Ten, 50, "i1"),
            (BoardSize::Twelve, 1, "b12"),
            (BoardSize::Twelve, 72, "k1"),
        ];
        for (size, number, name) in cases {
            let sq = size.square(number).unwrap();
            assert_eq!(size.algebraic(sq), name);
            assert_eq!(size.parse_algebraic(name), Ok(sq));
        }
        let b = BoardSize::Twelve;
        assert_eq!(b.algebraic(b.square(6).unwrap()), "l12");
        assert_eq!(b.algebraic(b.square(67).unwrap()), "a1");
        // c3-d4 is 22-18, a3-b4 is 21-17 on 8x8.
        let e = BoardSize::Eight;
        assert_eq!(e.parse_square("c3").unwrap().number(), 22);
        assert_eq!(e.parse_square("D4").unwrap().number(), 18);
        assert_eq!(e.parse_square("a3").unwrap().number(), 21);
        assert_eq!(e.parse_square("b4").unwrap().number(), 17);
    }

    #[test]
    fn the_mirrored_board_of_rules_section_7() {
        let g = BoardSize::Eight.oriented(Orientation::Mirrored);
        for (number, name) in [
            (1, "a8"),
            (2, "c8"),
            (4, "g8"),
            (5, "b7"),
            (21, "b3"),
            (29, "b1"),
            (30, "d1"),
            (32, "h1"),
        ] {
            let sq = g.square(number).unwrap();
            assert_eq!(g.algebraic(sq), name);
            assert_eq!(g.parse_square(name), Ok(sq));
        }
        // a1 is light on the mirrored board; h8 too.
        assert!(matches!(
            g.parse_algebraic("a1"),
            Err(SquareError::LightSquare { .. })
        ));
        assert!(g.parse_algebraic("h8").is_err());
        // The long diagonal a8-h1 and the neighbours of 21 = b3.
        let mut s = g.square(1).unwrap();
        let mut diagonal = vec![1];
        while let Some(t) = g.step(s, SE) {
            diagonal.push(t.number());
            s = t;
        }
        assert_eq!(diagonal, [1, 5, 10, 14, 19, 23, 28, 32]);
        let b3 = g.square(21).unwrap();
        let up: Vec<u32> = [NW, NE]
            .iter()
            .filter_map(|&d| g.step(b3, d))
            .map(Square::number)
            .collect();
        assert_eq!(up, [17, 18]);
        // Whole-set shifts agree with single steps on the mirrored board too.
        for d in DIRECTIONS {
            for sq in g.all.squares() {
                let want = g.step(sq, d).map_or(Bitboard(0), Square::bit);
                assert_eq!(g.shift(sq.bit(), d), want, "{sq} {d}");
                assert_eq!(shift_const_any(g, BoardSize::Eight, d, sq.bit()), want);
            }
        }
        // Every square round-trips through its coordinates.
        for sq in g.all.squares() {
            let (r, f) = g.coords(sq);
            assert_eq!(g.at(r, f), Some(sq));
        }
        // Other sizes have no mirrored board of their own.
        assert!(std::ptr::eq(
            BoardSize::Ten.oriented(Orientation::Mirrored),
            BoardSize::Ten.geometry()
        ));
    }

    #[test]
    fn round_trip_every_square() {
        for size in [BoardSize::Eight, BoardSize::Ten, BoardSize::Twelve] {
            for number in 1..=size.squares() as u32 {
                let sq = size.square(number).unwrap();
                let name = size.algebraic(sq);
                assert_eq!(size.parse_square(&name).unwrap(), sq);
                assert_eq!(size.parse_square(&number.to_string()).unwrap(), sq);
                let (r, f) = size.coords(sq);
                assert_eq!(size.at(r, f), Some(sq));
            }
        }
    }

    #[test]
    fn off_board_is_an_error() {
        let e = BoardSize::Eight;
        assert!(matches!(
            e.square(0),
            Err(SquareError::NumberOffBoard { .. })
        ));
        assert!(matches!(
            e.square(33),
            Err(SquareError::NumberOffBoard { .. })
        ));
        // A number too long for any board is reported as written.
        assert_eq!(
            e.parse_square("99999999999999").map_err(|e| e.to_string()),
            Err("square 99999999999999 is not on the 8x8 board".to_string())
        );
        assert!(matches!(
            e.parse_algebraic("i1"),
            Err(SquareError::NameOffBoard { .. })
        ));
        assert!(matches!(
            e.parse_algebraic("a9"),
            Err(SquareError::NameOffBoard { .. })
        ));
        assert!(matches!(
            e.parse_algebraic("a2"),
            Err(SquareError::LightSquare { .. })
        ));
        assert!(matches!(
            e.parse_square("x"),
            Err(SquareError::NotASquare { .. })
        ));
        assert!(matches!(
            e.parse_square(""),
            Err(SquareError::NotASquare { .. })
        ));
        assert!(BoardSize::Twelve.parse_algebraic("l12").is_ok());
    }

    #[test]
    fn neighbours_and_rays() {
        let t = BoardSize::Ten;
        let s = |n| t.square(n).unwrap();
        // 32 moves up to 27 and 28 on 10x10.
        assert_eq!(t.neighbour(s(32), NW), Some(s(27)));
        assert_eq!(t.neighbour(s(32), NE), Some(s(28)));
        assert_eq!(t.neighbour(s(32), SW), Some(s(37)));
        assert_eq!(t.neighbour(s(32), SE), Some(s(38)));
        assert_eq!(t.neighbour(s(46), SW), None);
        assert_eq!(t.neighbour(s(5), NE), None);
        let diag: Vec<u32> = t.ray(s(46), NE).map(Square::number).collect();
        assert_eq!(diag, vec![41, 37, 32, 28, 23, 19, 14, 10, 5]);
        let e = BoardSize::Eight;
        let long: Vec<u32> = e
            .ray(e.square(29).unwrap(), NE)
            .map(Square::number)
            .collect();
        assert_eq!(long, vec![25, 22, 18, 15, 11, 8, 4]);
    }
}
