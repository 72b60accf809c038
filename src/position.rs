//! Pieces, side to move, and FEN as PDN uses it.
//!
//! [`Setup`] is what a FEN says, unvalidated; [`Position`] is a position the
//! rules engine can play from. [`Position::from_fen`] goes through both and
//! reports a [`FenError`] with the byte offset in the FEN text of what is wrong.

use crate::board::{Bitboard, BoardSize, Geometry, Square, SquareError};
use crate::piece::{Color, Kind, Piece};
use crate::variant::Variant;
use smallvec::SmallVec;

pub(crate) mod fen;
use std::fmt::{self, Write as _};

impl Variant {
    /// The start position.
    pub fn start(self) -> Position {
        Position::start(self)
    }
}

/// A position: pieces on a board, the side to move and, in Frisian, the
/// king-move counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    variant: Variant,
    white: Bitboard,
    black: Bitboard,
    kings: Bitboard,
    side: Color,
    /// Per side (White, Black): the king that made the side's last plain
    /// moves in a row and how many (Frisian's limit, RULES.md 10 rule 6;
    /// zero everywhere else and after a FEN).
    king_run: [KingRun; 2],
}

/// The plain moves in a row of one king of a side: where it stands, how many.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct KingRun {
    pub(crate) square: u8,
    pub(crate) count: u8,
}

/// What is wrong with a FEN; `at` is the byte offset in the FEN text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FenError {
    #[error("FEN is empty")]
    /// Nothing at all.
    Empty,
    /// The side to move is missing or unknown.
    #[error("missing or unknown side to move '{found}' at byte {at} (expected W or B)")]
    SideToMove {
        /// What was found there.
        found: String,
        /// Byte offset in the FEN.
        at: usize,
    },
    /// A field that is no piece list.
    #[error("unexpected '{found}' at byte {at} (expected a W or B piece list)")]
    Field {
        /// What was found there.
        found: String,
        /// Byte offset in the FEN.
        at: usize,
    },
    /// A square that cannot be read or is off the board.
    #[error("bad square at byte {at}: {source}")]
    Square {
        /// Why the square is wrong.
        source: SquareError,
        /// Byte offset in the FEN.
        at: usize,
    },
    /// A range whose end comes before its start.
    #[error("bad range '{text}' at byte {at}")]
    Range {
        /// The text as written.
        text: String,
        /// Byte offset in the FEN.
        at: usize,
    },
    /// A square given twice.
    #[error("square {square} is given twice (byte {at})")]
    Duplicate {
        /// The square: its number, or its name on the 64-square board.
        square: String,
        /// Byte offset in the FEN.
        at: usize,
    },
    #[error("a {color} man on square {square} stands on its crowning row (byte {at})")]
    /// A man on the row where it would have crowned.
    ManOnCrowningRow {
        /// Its color.
        color: Color,
        /// The square: its number, or its name on the 64-square board.
        square: String,
        /// Byte offset in the FEN.
        at: usize,
    },
}

impl FenError {
    /// Byte offset of the problem in the FEN text.
    pub fn offset(&self) -> usize {
        match self {
            FenError::Empty => 0,
            FenError::SideToMove { at, .. }
            | FenError::Field { at, .. }
            | FenError::Square { at, .. }
            | FenError::Range { at, .. }
            | FenError::Duplicate { at, .. }
            | FenError::ManOnCrowningRow { at, .. } => *at,
        }
    }
}

/// A position as written, not yet checked: side to move, pieces (each with
/// the byte offset of its square in the FEN it came from), and extra fields
/// kept verbatim. Read from a FEN ([`Setup::parse`]) or built piece by piece
/// ([`Setup::new`], [`Setup::put`]); [`Setup::into_position`] checks it and
/// gives a [`Position`] (the only way to one other than the start position).
///
/// ```
/// use pdnkit::piece::{Color, Kind, Piece};
/// use pdnkit::position::Setup;
/// use pdnkit::variant::Variant;
/// let size = Variant::Brazilian.board();
/// let mut s = Setup::new(Color::White);
/// s.put(size.square(22).unwrap(), Piece { color: Color::White, kind: Kind::King });
/// s.put(size.square(18).unwrap(), Piece { color: Color::Black, kind: Kind::Man });
/// assert_eq!(s.into_position(Variant::Brazilian).unwrap().to_fen(), "W:WK22:B18");
/// // A man on its crowning row is refused.
/// let mut s = Setup::new(Color::White);
/// s.put(size.square(1).unwrap(), Piece { color: Color::White, kind: Kind::Man });
/// assert!(s.into_position(Variant::Brazilian).is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub(crate) side: Color,
    pub(crate) pieces: Vec<(Square, Piece, usize)>,
    pub(crate) extra: Vec<String>,
}

impl Setup {
    /// Reads a FEN such as `W:W31-50:B1-20`, `B:WK4,K7:B2.`, `W:Wc3,e3:B..`,
    /// with algebraic squares named on the standard board of `size`
    /// ([`Setup::parse_for`] names them as a variant does).
    pub fn parse(fen: &str, size: BoardSize) -> Result<Setup, FenError> {
        Setup::parse_on(fen, size.geometry())
    }

    /// Reads a FEN of a game of `variant`: numbers as everywhere, algebraic
    /// squares on the variant's board (Italian: `b1` is 29, `h1` is 32).
    pub fn parse_for(fen: &str, variant: Variant) -> Result<Setup, FenError> {
        Setup::parse_on(fen, variant.geometry())
    }

    fn parse_on(fen: &str, g: &Geometry) -> Result<Setup, FenError> {
        let base = fen.len() - fen.trim_start().len();
        let text = fen.trim();
        if text.is_empty() {
            return Err(FenError::Empty);
        }
        // ':'-separated fields with their offsets.
        let mut fields: SmallVec<[(usize, &str); 4]> = SmallVec::new();
        let mut start = 0;
        for f in fen::fields(text) {
            fields.push((base + start, f));
            start += f.len() + 1;
        }
        let (side_at, side_text) = fields[0];
        let side = match side_text.trim() {
            "W" | "w" => Color::White,
            "B" | "b" => Color::Black,
            other => {
                return Err(FenError::SideToMove {
                    found: other.to_string(),
                    at: side_at,
                });
            }
        };
        let mut setup = Setup {
            side,
            pieces: Vec::with_capacity(usize::from(g.squares())),
            extra: Vec::new(),
        };
        for &(at, field) in &fields[1..] {
            setup.piece_field(at, field, g)?;
        }
        Ok(setup)
    }

    /// Reads one field after the side to move: `W` or `B` and a list of
    /// squares, or an `H`/`F` counter (kept as written); `at` is its offset.
    fn piece_field(&mut self, at: usize, field: &str, g: &Geometry) -> Result<(), FenError> {
        let lead = field.len() - field.trim_start().len();
        let body = field.trim();
        let at = at + lead;
        if body.is_empty() {
            return Ok(());
        }
        let (color, list) = match fen::field(body) {
            Ok((_, fen::Field::Pieces { white, list })) => {
                (if white { Color::White } else { Color::Black }, list)
            }
            Ok((_, fen::Field::Counter(c))) => {
                self.extra.push(c.to_string());
                return Ok(());
            }
            Err(_) => {
                return Err(FenError::Field {
                    found: body.to_string(),
                    at,
                })
            }
        };
        let mut off = at + 1;
        for item in fen::list(list) {
            // Fast path: a plain square number.
            if !item.is_empty() && item.len() <= 3 && item.bytes().all(|b| b.is_ascii_digit()) {
                let n = crate::board::decimal(item.as_bytes());
                let sq = g
                    .square(n)
                    .map_err(|source| FenError::Square { source, at: off })?;
                let man = Piece {
                    color,
                    kind: Kind::Man,
                };
                self.pieces.push((sq, man, off));
            } else {
                self.piece_item(item, off, color, g)?;
            }
            off += item.len() + 1;
        }
        Ok(())
    }

    /// Reads one item of a piece list other than a plain number: `K12`,
    /// a range `1-12`, an algebraic square, with spaces around; `off` is its offset.
    fn piece_item(
        &mut self,
        item: &str,
        off: usize,
        color: Color,
        g: &Geometry,
    ) -> Result<(), FenError> {
        let item_at = off + (item.len() - item.trim_start().len());
        let item = item.trim();
        if item.is_empty() {
            return Ok(());
        }
        let Ok((_, it)) = fen::item(item) else {
            return Ok(());
        };
        let (kind, sq_at) = if it.king {
            (Kind::King, item_at + 1)
        } else {
            (Kind::Man, item_at)
        };
        let piece = Piece { color, kind };
        let parse = |t: &str, a: usize| {
            g.parse_square(t)
                .map_err(|source| FenError::Square { source, at: a })
        };
        match it.last {
            // The 64-square board's FEN lists each square (RULES.md 12).
            Some(_) if g.size() == BoardSize::Full => {
                return Err(FenError::Range {
                    text: item.to_string(),
                    at: item_at,
                })
            }
            Some(hi) => {
                let a = parse(it.first, sq_at)?;
                let b = parse(hi, sq_at + it.first.len() + 1)?;
                if a > b {
                    return Err(FenError::Range {
                        text: item.to_string(),
                        at: item_at,
                    });
                }
                for i in a.index()..=b.index() {
                    self.pieces
                        .push((Square::from_index(i as u8), piece, item_at));
                }
            }
            None => self.pieces.push((parse(it.first, sq_at)?, piece, item_at)),
        }
        Ok(())
    }

    /// An empty board with `side` to move.
    pub fn new(side: Color) -> Setup {
        Setup {
            side,
            pieces: Vec::new(),
            extra: Vec::new(),
        }
    }
    /// Adds `piece` on `sq` (checked by [`Setup::into_position`]).
    pub fn put(&mut self, sq: Square, piece: Piece) {
        self.pieces.push((sq, piece, 0));
    }
    /// Takes every piece off `sq`.
    pub fn remove(&mut self, sq: Square) {
        self.pieces.retain(|p| p.0 != sq);
    }
    /// The side to move.
    pub fn side(&self) -> Color {
        self.side
    }
    /// Sets the side to move.
    pub fn set_side(&mut self, side: Color) {
        self.side = side;
    }
    /// The pieces, in the order given.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.pieces.iter().map(|&(sq, p, _)| (sq, p))
    }
    /// Fields after the piece lists (lidraughts' `H0`, `F1`), as written.
    pub fn extra(&self) -> &[String] {
        &self.extra
    }

    /// Checks the setup and makes it a position of `variant`: every square on
    /// the board and given once, no man on its crowning row.
    pub fn into_position(self, variant: Variant) -> Result<Position, FenError> {
        let mut p = Position::empty(variant, self.side);
        let size = variant.board();
        let g = variant.geometry();
        for (sq, piece, at) in self.pieces {
            if sq.index() >= usize::from(size.squares()) {
                return Err(FenError::Square {
                    source: SquareError::NumberOffBoard {
                        number: sq.number(),
                        size,
                        max: u32::from(size.squares()),
                    },
                    at,
                });
            }
            if (p.white | p.black).has(sq) {
                return Err(FenError::Duplicate {
                    square: square_text(g, sq),
                    at,
                });
            }
            if piece.kind == Kind::Man {
                let row = match piece.color {
                    Color::White => g.top_row,
                    Color::Black => g.bottom_row,
                };
                if row.has(sq) {
                    return Err(FenError::ManOnCrowningRow {
                        color: piece.color,
                        square: square_text(g, sq),
                        at,
                    });
                }
            }
            p.put(sq, piece);
        }
        Ok(p)
    }
}

/// A square as a FEN of the board `g` writes it: its number, or its name on
/// the 64-square board (RULES.md 12).
fn square_text(g: &Geometry, sq: Square) -> String {
    if g.size() == BoardSize::Full {
        g.algebraic(sq)
    } else {
        sq.number().to_string()
    }
}

impl Position {
    /// Bytes of [`Position::write_bytes`].
    pub(crate) const BYTES: usize = 50;
    /// The position as bytes (its variant, sides and pieces; not Frisian's
    /// king runs, as after a FEN): what [`Position::from_bytes`] reads.
    pub(crate) fn write_bytes(&self, out: &mut Vec<u8>) {
        let v = Variant::ALL
            .iter()
            .position(|&w| w == self.variant)
            .unwrap_or(0);
        out.push(v as u8);
        out.push(u8::from(self.side == Color::Black));
        for b in [self.white, self.black, self.kings] {
            out.extend_from_slice(&b.0.to_le_bytes());
        }
    }
    /// The position [`Position::write_bytes`] wrote at the start of `b`;
    /// `None` for bytes that are no position of their variant.
    pub(crate) fn from_bytes(b: &[u8]) -> Option<Position> {
        let b = b.get(..Self::BYTES)?;
        let variant = *Variant::ALL.get(usize::from(b[0]))?;
        let side = if b[1] == 0 {
            Color::White
        } else {
            Color::Black
        };
        let set = |i: usize| {
            let mut a = [0u8; 16];
            a.copy_from_slice(&b[2 + 16 * i..18 + 16 * i]);
            Bitboard(u128::from_le_bytes(a))
        };
        let (white, black, kings) = (set(0), set(1), set(2));
        let n = u32::from(variant.board().squares());
        let board = if n >= 128 {
            u128::MAX
        } else {
            (1u128 << n) - 1
        };
        let pieces = white.0 | black.0;
        if pieces & !board != 0 || white.0 & black.0 != 0 || kings.0 & !pieces != 0 {
            return None;
        }
        Some(Position {
            white,
            black,
            kings,
            ..Position::empty(variant, side)
        })
    }

    /// An empty board.
    pub fn empty(variant: Variant, side: Color) -> Position {
        Position {
            variant,
            white: Bitboard::EMPTY,
            black: Bitboard::EMPTY,
            kings: Bitboard::EMPTY,
            side,
            king_run: [KingRun {
                square: 0,
                count: 0,
            }; 2],
        }
    }

    /// The start position: Black's men on the first rows, two empty rows,
    /// the variant's first player to move.
    pub fn start(variant: Variant) -> Position {
        let size = variant.board();
        let men = u32::from(variant.rules().men);
        let total = u32::from(size.squares());
        let mut p = Position::empty(variant, variant.rules().first);
        if size == BoardSize::Full {
            // Turkish (RULES.md 12): ranks 2-3 and 6-7, the far ranks empty.
            p.black = Bitboard(0xFFFF << 8);
            p.white = Bitboard(0xFFFF << 40);
            return p;
        }
        for i in 0..men {
            p.black = p.black.with(Square::from_index(i as u8));
            p.white = p.white.with(Square::from_index((total - 1 - i) as u8));
        }
        p
    }

    /// The position as a [`Setup`], to change and check again.
    pub fn to_setup(&self) -> Setup {
        let mut s = Setup::new(self.side);
        for sq in self.occupied().squares() {
            if let Some(piece) = self.piece_at(sq) {
                s.put(sq, piece);
            }
        }
        s
    }

    /// A 64-bit key of the board and the side to move: the same for one
    /// position however it was reached (move counters aside), so a ballot
    /// reached by another order of moves, a copy of a game and a repeated
    /// position are found by it. Three multiplications and one SplitMix
    /// finaliser over the piece sets.
    ///
    /// ```
    /// use pdnkit::{Position, Variant};
    /// let start = Variant::International.start();
    /// let same = Position::from_fen("W:W31-50:B1-20", Variant::International).unwrap();
    /// assert_eq!(same.key(), start.key());
    /// let black = Position::from_fen("B:W31-50:B1-20", Variant::International).unwrap();
    /// assert_ne!(black.key(), start.key());
    /// ```
    pub fn key(&self) -> u64 {
        key_of(
            self.white.0,
            self.black.0,
            self.kings.0,
            u64::from(self.side == Color::Black),
        )
    }

    /// Reads and validates a FEN for a game of `variant`.
    pub fn from_fen(fen: &str, variant: Variant) -> Result<Position, FenError> {
        if let Some(p) = Position::from_plain_fen(fen.as_bytes(), variant) {
            return Ok(p);
        }
        Setup::parse_for(fen, variant)?.into_position(variant)
    }

    /// [`Position::from_fen`] for a FEN in the plain form ([`fen::plain_sets`])
    /// that sets up a valid position of `variant` on a numbered board: its
    /// squares straight into the sets (issue 65: a set-up read by the grammar
    /// and checked piece by piece cost 4,700 instructions, 5 % of `check` on
    /// the real tree). `None` for anything else (a square off the board, a
    /// man on its crowning row, the 64-square board, any other form), which
    /// the grammar then reads and reports; the test holds it to the
    /// grammar's position on random FENs of every numbered board and their
    /// mutations.
    fn from_plain_fen(fen: &[u8], variant: Variant) -> Option<Position> {
        let g = variant.geometry();
        if g.size() == BoardSize::Full {
            return None;
        }
        // A final `.` (`W:W21,22:B1,2.`, over a quarter of the real
        // set-ups) ends the FEN for the grammar too.
        let fen = fen.strip_suffix(b".").unwrap_or(fen);
        let (black, s) = fen::plain_sets(fen)?;
        let squares = u32::from(g.squares());
        if (s.w | s.b) >> squares != 0 {
            return None;
        }
        let men = !s.k;
        if s.w & men & g.top_row.0 != 0 || s.b & men & g.bottom_row.0 != 0 {
            return None;
        }
        let side = if black { Color::Black } else { Color::White };
        let mut p = Position::empty(variant, side);
        p.white = Bitboard(s.w);
        p.black = Bitboard(s.b);
        p.kings = Bitboard(s.k);
        Some(p)
    }

    /// Board size.
    #[inline]
    pub fn size(&self) -> BoardSize {
        self.variant.board()
    }
    /// The board's geometry in the variant's orientation (Italian: mirrored).
    #[inline]
    pub(crate) fn geometry(&self) -> &'static crate::board::Geometry {
        self.variant.geometry()
    }
    /// The variant whose rules apply.
    #[inline]
    pub fn variant(&self) -> Variant {
        self.variant
    }
    /// Side to move.
    #[inline]
    pub fn side(&self) -> Color {
        self.side
    }
    /// Squares of `color`'s pieces.
    #[inline]
    pub fn pieces(&self, color: Color) -> Bitboard {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }
    /// Squares holding kings (either colour).
    #[inline]
    pub fn kings(&self) -> Bitboard {
        self.kings
    }
    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.white | self.black
    }
    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let kind = if self.kings.has(sq) {
            Kind::King
        } else {
            Kind::Man
        };
        if self.white.has(sq) {
            Some(Piece {
                color: Color::White,
                kind,
            })
        } else if self.black.has(sq) {
            Some(Piece {
                color: Color::Black,
                kind,
            })
        } else {
            None
        }
    }
    /// Number of (men, kings) of `color`.
    pub fn material(&self, color: Color) -> (u32, u32) {
        let bb = self.pieces(color);
        let kings = (bb & self.kings).count();
        (bb.count() - kings, kings)
    }

    /// Puts `piece` on `sq`, replacing whatever stood there (unchecked: a
    /// position is built through [`Setup`]).
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        self.remove(sq);
        match piece.color {
            Color::White => self.white = self.white.with(sq),
            Color::Black => self.black = self.black.with(sq),
        }
        if piece.kind == Kind::King {
            self.kings = self.kings.with(sq);
        }
    }
    /// Empties `sq`.
    pub(crate) fn remove(&mut self, sq: Square) {
        self.white = self.white.without(sq);
        self.black = self.black.without(sq);
        self.kings = self.kings.without(sq);
    }
    /// Writes the FEN: `W:W31,32,K45:B1,2`.
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(64);
        s.push(self.side.letter());
        for color in [Color::White, Color::Black] {
            s.push(':');
            s.push(color.letter());
            let mut first = true;
            let mut squares: SmallVec<[Square; 32]> = self.pieces(color).squares().collect();
            if self.size() == BoardSize::Full {
                // By rank from White's side, then by file: a1, b1, ..., h8.
                squares.sort_by_key(|&q| {
                    let (row, file) = self.geometry().coords(q);
                    (7 - row, file)
                });
            }
            for sq in squares {
                if !first {
                    s.push(',');
                }
                first = false;
                if self.kings.has(sq) {
                    s.push('K');
                }
                if self.size() == BoardSize::Full {
                    // Named, never numbered (RULES.md 12).
                    s.push_str(&self.geometry().algebraic(sq));
                    continue;
                }
                // At most 72: one or two digits.
                let n = sq.number();
                if n >= 10 {
                    s.push(char::from(b'0' + (n / 10) as u8));
                }
                s.push(char::from(b'0' + (n % 10) as u8));
            }
        }
        s
    }
}

impl fmt::Display for Position {
    /// A diagram, top row first: `w`/`b` men, `W`/`B` kings, `.` empty dark squares.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.size().n();
        for r in 0..n {
            for file in 0..n {
                let c = match self.geometry().at(r, file) {
                    None => ' ',
                    Some(sq) => match self.piece_at(sq) {
                        None => '.',
                        Some(Piece {
                            color: Color::White,
                            kind: Kind::Man,
                        }) => 'w',
                        Some(Piece {
                            color: Color::White,
                            kind: Kind::King,
                        }) => 'W',
                        Some(Piece {
                            color: Color::Black,
                            kind: Kind::Man,
                        }) => 'b',
                        Some(Piece {
                            color: Color::Black,
                            kind: Kind::King,
                        }) => 'B',
                    },
                };
                f.write_char(c)?;
            }
            f.write_char('\n')?;
        }
        Ok(())
    }
}

/// Internal access for the rules engine.
impl Position {
    /// The side's run of plain moves with one king (Frisian).
    #[inline(always)]
    pub(crate) fn king_run(&self, side: Color) -> KingRun {
        self.king_run[side as usize]
    }
    #[inline(always)]
    pub(crate) fn set_king_run(&mut self, side: Color, run: KingRun) {
        self.king_run[side as usize] = run;
    }
    /// The king of the side to move that may not make another plain move
    /// (Frisian: it made the limit of plain moves in a row and its side
    /// still has a man), if any.
    #[inline]
    pub(crate) fn king_held(&self) -> Option<Square> {
        if !self.variant.limits_king_moves() {
            return None;
        }
        let limit = self.variant.rules().king_move_limit;
        let run = self.king_run(self.side);
        let own = self.pieces(self.side);
        let sq = Square::from_index(run.square);
        (run.count >= limit && !(own & !self.kings).is_empty() && (own & self.kings).has(sq))
            .then_some(sq)
    }
    #[inline(always)]
    pub(crate) fn raw(&self) -> (Bitboard, Bitboard, Bitboard) {
        (self.white, self.black, self.kings)
    }
    #[inline(always)]
    pub(crate) fn set_raw(
        &mut self,
        white: Bitboard,
        black: Bitboard,
        kings: Bitboard,
        side: Color,
    ) {
        self.white = white;
        self.black = black;
        self.kings = kings;
        self.side = side;
    }
}

/// [`Position::key`] of its parts (White's, Black's and the kings' squares,
/// and 1 for Black to move): each set folded to 64 bits and multiplied by its
/// own odd constant, the three and the side mixed once.
pub(crate) fn key_of(w: u128, b: u128, k: u128, black_to_move: u64) -> u64 {
    let fold = |x: u128, m: u64| ((x as u64) ^ ((x >> 64) as u64).rotate_left(23)).wrapping_mul(m);
    splitmix(
        fold(w, 0x9e37_79b9_7f4a_7c15)
            ^ fold(b, 0xc2b2_ae3d_27d4_eb4f).rotate_left(21)
            ^ fold(k, 0x1656_67b1_9e37_79f9).rotate_left(42)
            ^ black_to_move,
    )
}

/// SplitMix64's finaliser: a well-mixed 64-bit value of `x`; the one mixer of
/// the crate (position keys, the draw rules' Zobrist table, move hashes of
/// `dupes`).
pub(crate) const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain FEN's fast path ([`Position::from_plain_fen`]) sets up the
    /// position the grammar and the piece-by-piece checks set up, or
    /// declines: random FENs of every numbered board (squares on and off
    /// it, kings, men on their crowning rows, ranges, squares given twice,
    /// either side to move, a final `.` or none) and mutations of each.
    #[test]
    fn a_plain_fen_sets_up_the_grammars_position() {
        let by_grammar = |fen: &str, v| {
            Setup::parse_for(fen, v)
                .and_then(|s| s.into_position(v))
                .ok()
        };
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: u64| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) % n.max(1)
        };
        let (mut fast, mut declined, mut refused) = (0, 0, 0);
        for _ in 0..700 {
            for &v in Variant::ALL.iter() {
                let g = v.geometry();
                if g.size() == BoardSize::Full {
                    continue;
                }
                let n = u64::from(g.squares());
                let mut fen = String::from(if next(2) == 0 { "W" } else { "B" });
                for side in ["W", "B"] {
                    fen.push(':');
                    fen.push_str(side);
                    for k in 0..next(9) {
                        if k > 0 {
                            fen.push(',');
                        }
                        if next(3) == 0 {
                            fen.push('K');
                        }
                        let lo = 1 + next(n + 2);
                        fen.push_str(&lo.to_string());
                        if next(6) == 0 {
                            fen.push_str(&format!("-{}", lo + next(4)));
                        }
                    }
                }
                if next(3) == 0 {
                    fen.push('.');
                }
                let mut cases = vec![fen.clone()];
                for _ in 0..3 {
                    let at = next(fen.len() as u64) as usize;
                    let insert = [" ", ".", "K", ",", ":", "-", "0", "w", ":H0", "1"];
                    let mut m = fen.clone();
                    m.insert_str(at, insert[next(insert.len() as u64) as usize]);
                    cases.push(m);
                    cases.push(format!("{}{}", &fen[..at], &fen[at + 1..]));
                }
                for c in cases {
                    let grammar = by_grammar(&c, v);
                    match Position::from_plain_fen(c.as_bytes(), v) {
                        Some(p) => {
                            assert_eq!(Some(p), grammar, "{v:?} {c}");
                            fast += 1;
                        }
                        None if grammar.is_some() => declined += 1,
                        None => refused += 1,
                    }
                    assert_eq!(Position::from_fen(&c, v).ok(), grammar, "{v:?} {c}");
                }
            }
        }
        assert!(
            fast > 2000 && refused > 2000 && declined > 100,
            "{fast} {declined} {refused}"
        );
    }

    #[test]
    fn fen_lists_and_fields_split_like_str_split() {
        let same = |list: &str| {
            let split = |sep| list.split(sep).collect::<Vec<_>>();
            assert_eq!(fen::list(list).collect::<Vec<_>>(), split(','), "{list:?}");
            assert_eq!(
                fen::fields(list).collect::<Vec<_>>(),
                split(':'),
                "{list:?}"
            );
        };
        for list in [
            "",
            ",",
            "1",
            "1,2",
            ",1,,2,",
            "K12,a3-c5, 7 ",
            "é,ü",
            ":W1::B2:",
        ] {
            same(list);
        }
        // Every string of up to 5 characters over both separators, a
        // letter, a digit and a two-byte letter.
        let mut last = vec![String::new()];
        for _ in 0..5 {
            last = last
                .iter()
                .flat_map(|s| [',', ':', 'K', '7', 'é'].map(|c| format!("{s}{c}")))
                .collect();
            last.iter().for_each(|list| same(list));
        }
    }

    #[test]
    fn start_positions_match_rules_table() {
        for (size, fen) in [
            (Variant::Brazilian, "W:W21-32:B1-12"),
            (Variant::International, "W:W31-50:B1-20"),
            (Variant::Canadian, "W:W43-72:B1-30"),
            (Variant::Russian, "W:W21-32:B1-12"),
            (Variant::English, "B:W21-32:B1-12"),
        ] {
            assert_eq!(
                Position::start(size),
                Position::from_fen(fen, size).unwrap()
            );
        }
    }

    #[test]
    fn positions_read_back_from_their_bytes_and_nothing_else_does() {
        for &v in Variant::ALL.iter() {
            let mut p = v.start();
            for _ in 0..6 {
                let Some(m) = p.legal_moves().into_iter().next() else {
                    break;
                };
                p = p.play(&m).unwrap();
            }
            let mut b = Vec::new();
            p.write_bytes(&mut b);
            assert_eq!(b.len(), Position::BYTES);
            let back = Position::from_bytes(&b).unwrap();
            assert_eq!(
                (back.to_fen(), back.key(), back.variant()),
                (p.to_fen(), p.key(), v)
            );
            // A piece of both sides, a king of no piece, a bit off the board,
            // a variant past the table, bytes cut short: none is a position.
            let mut both = b.clone();
            both[18] |= b[2] | 1;
            both[2] |= 1;
            let mut lone_king = b.clone();
            lone_king[2 + 32] = 0xff;
            lone_king[2] = 0;
            lone_king[18] = 0;
            let mut off = b.clone();
            off[17] = 0x80;
            let mut variant = b.clone();
            variant[0] = 200;
            for bad in [both, lone_king, off, variant, b[..49].to_vec()] {
                assert_eq!(Position::from_bytes(&bad), None, "{v:?}");
            }
        }
    }

    #[test]
    fn fen_forms() {
        let t = Variant::International;
        let p = Position::from_fen("B:WK4,K7,9:BK2,5.", t).unwrap();
        assert_eq!(p.side(), Color::Black);
        assert_eq!(p.material(Color::White), (1, 2));
        assert_eq!(p.material(Color::Black), (1, 1));
        assert_eq!(p.to_fen(), "B:WK4,K7,9:BK2,5");
        // K before a range crowns the range; lower case; lidraughts fields.
        let q = Position::from_fen("w:wK1-3,40:b10:H0:F1", t).unwrap();
        assert_eq!(q.material(Color::White), (1, 3));
        // Empty piece list.
        let e = Position::from_fen("W:W:B5,9", Variant::Brazilian).unwrap();
        assert_eq!(e.pieces(Color::White), Bitboard::EMPTY);
        // Algebraic squares on 8x8.
        let a = Position::from_fen("W:Wc3,Kd4:Bb8", Variant::Brazilian).unwrap();
        assert_eq!(a.to_fen(), "W:WK18,22:B1");
        // Round trip.
        assert_eq!(Position::from_fen(&q.to_fen(), t).unwrap(), q);
    }

    #[test]
    fn fen_errors_say_where() {
        let t = Variant::International;
        assert!(matches!(Position::from_fen("", t), Err(FenError::Empty)));
        assert!(matches!(
            Position::from_fen("?:W29:B4", t),
            Err(FenError::SideToMove { at: 0, .. })
        ));
        assert!(matches!(
            Position::from_fen(":W29:B4", t),
            Err(FenError::SideToMove { .. })
        ));
        assert_eq!(
            Position::from_fen("W:W29,29:B4", t),
            Err(FenError::Duplicate {
                square: "29".into(),
                at: 6
            })
        );
        assert_eq!(
            Position::from_fen("W:W29:B4,29", t),
            Err(FenError::Duplicate {
                square: "29".into(),
                at: 9
            })
        );
        assert!(matches!(
            Position::from_fen("W:W51:B4", t),
            Err(FenError::Square { at: 3, .. })
        ));
        assert!(matches!(
            Position::from_fen("W:W3:B4", t),
            Err(FenError::ManOnCrowningRow { square, .. }) if square == "3"
        ));
        assert!(matches!(
            Position::from_fen("W:W13:B48", t),
            Err(FenError::ManOnCrowningRow { square, .. }) if square == "48"
        ));
        assert!(Position::from_fen("W:WK3:BK48", t).is_ok());
        assert!(matches!(
            Position::from_fen("W:W9-5:B1", t),
            Err(FenError::Range { .. })
        ));
        assert!(matches!(
            Position::from_fen("W:X9:B1", t),
            Err(FenError::Field { .. })
        ));
    }
}
