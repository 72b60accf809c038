//! Board diagrams as SVG: a position, seen from White or from Black, with
//! moves drawn on it (an arrow along the landing path, the pieces taken
//! crossed out).
//!
//! Men are discs, kings are discs with a ring and a dot inside; White's pieces
//! are light with a dark outline and Black's dark with a light ring, so the
//! four kinds stay apart in greyscale print. Algebraic variants (brazilian,
//! russian, czech) have files and ranks on the edges; numeric ones have each
//! empty dark square's number in its middle, white on the dark square (a
//! contrast of 5.9:1). The side to move is written under the board. Every
//! piece is an element with
//! `data-square` and `data-piece` (`W`, `WK`, `B`, `BK`) so that a program
//! can read the position back from the picture.

use crate::board::{Bitboard, Geometry, Square};
use crate::piece::{Color, Kind};
use crate::position::Position;
use std::fmt::Write as _;

/// Pixels per square.
const SQ: u32 = 40;
/// Margin around the board for the edge labels.
const MARGIN: u32 = 18;
/// The dark squares' colour: white numbers on it have a contrast of 5.9:1.
const DARK: &str = "#6b675c";
/// The 64-square board's second shade: white names on it have a contrast
/// above 7:1.
const SHADE: &str = "#4f4c43";
/// Room under the board for the side to move.
const FOOT: u32 = 24;

/// How a move drawn on a diagram is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveStyle {
    /// The move as the record wrote it (solid red arrow).
    Written,
    /// Another move, such as a maximal capture the record missed (dashed blue arrow).
    Alternative,
}

/// A move to draw: the squares the piece lands on, from first to last, and
/// the squares of the pieces it takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrow {
    /// The squares the move lands on, in order.
    pub path: Vec<Square>,
    /// The squares of the pieces it takes.
    pub captured: Bitboard,
    /// How to draw it.
    pub style: MoveStyle,
}

impl Arrow {
    /// The move `text` (as a record writes it: `32-28`, `c3xe5`, `19x30x39`,
    /// a strength suffix allowed)
    /// drawn on `pos`: its landing path and the pieces it takes when it
    /// reads as a legal move (the first candidate of an ambiguous one), else
    /// the squares as written. An error when it is no move or names a square
    /// off the board.
    ///
    /// ```
    /// use pdnkit::diagram::Arrow;
    /// use pdnkit::position::Position;
    /// use pdnkit::variant::Variant;
    /// let pos = Position::from_fen("W:W27:B23,14", Variant::Brazilian).unwrap();
    /// let d = Arrow::written(&pos, "27x18x9").unwrap();
    /// assert_eq!(d.path.iter().map(|s| s.number()).collect::<Vec<_>>(), [27, 18, 9]);
    /// assert_eq!(d.captured.count(), 2);
    /// assert!(Arrow::written(&pos, "27 and so on").is_err());
    /// ```
    pub fn written(pos: &Position, text: &str) -> Result<Arrow, WrittenError> {
        let m = parse_written(text)?;
        let drawn = |mv: &crate::rules::Move| Arrow {
            path: crate::rules::landing_path(pos, mv).to_vec(),
            captured: mv.captured(),
            style: MoveStyle::Written,
        };
        match crate::notation::resolve(pos, &m.squares, m.sep) {
            Ok(crate::notation::Reading::Move { mv, .. }) => Ok(drawn(&mv)),
            Ok(crate::notation::Reading::Ambiguous(c)) => Ok(drawn(&c[0])),
            Err(_) => {
                let path = m
                    .squares
                    .iter()
                    .map(|&s| crate::notation::square_of(pos.geometry(), s))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|e| WrittenError::Square(text.to_string(), e))?;
                Ok(Arrow {
                    path,
                    captured: Bitboard::EMPTY,
                    style: MoveStyle::Written,
                })
            }
        }
    }

    /// The move `text` drawn on `pos` only if it is a legal move there (the
    /// first candidate of an ambiguous one); else why not, in the words of
    /// the rules (`WrittenError::Illegal`).
    ///
    /// ```
    /// use pdnkit::diagram::Arrow;
    /// use pdnkit::position::Position;
    /// use pdnkit::variant::Variant;
    /// let pos = Position::from_fen("W:W27:B23,14", Variant::Brazilian).unwrap();
    /// assert!(Arrow::legal(&pos, "27x18x9").is_ok());
    /// let why = Arrow::legal(&pos, "27-24").unwrap_err().to_string();
    /// assert!(why.contains("capturing is compulsory"), "{why}");
    /// // Two captures fit `2x6`: refused, each named in full.
    /// let pos = Position::from_fen("B:WK4,K7,9,K10,K15,17,19:BK2,K5,20,24,25", Variant::Brazilian).unwrap();
    /// let why = Arrow::legal(&pos, "2x6").unwrap_err().to_string();
    /// assert!(why.contains("is ambiguous: it fits"), "{why}");
    /// ```
    pub fn legal(pos: &Position, text: &str) -> Result<Arrow, WrittenError> {
        let m = parse_written(text)?;
        let mv = match crate::notation::resolve(pos, &m.squares, m.sep) {
            Ok(crate::notation::Reading::Move { mv, .. }) => mv,
            // Several captures fit: none is taken by guess (issue 55), but a
            // move written as one candidate's whole landing path is that one
            // (`15x6`, a direct capture, beside 15x22x31x24x15x6: the
            // shortest writing of each, as `legal_moves` gives them).
            Ok(crate::notation::Reading::Ambiguous(c)) => {
                let geometry = pos.geometry();
                let written: Vec<_> = m
                    .squares
                    .iter()
                    .map(|&s| crate::notation::square_of(geometry, s).ok())
                    .collect();
                let whole: Vec<crate::rules::Move> = c
                    .iter()
                    .copied()
                    .filter(|mv| {
                        let path = crate::rules::landing_path(pos, mv);
                        path.len() == written.len()
                            && path.iter().zip(&written).all(|(a, b)| Some(*a) == *b)
                    })
                    .collect();
                if let [mv] = whole[..] {
                    return Ok(Arrow {
                        path: crate::rules::landing_path(pos, &mv).to_vec(),
                        captured: mv.captured(),
                        style: MoveStyle::Written,
                    });
                }
                let style = crate::notation::Style::of(&m.squares, m.sep);
                let fits: Vec<String> = c.iter().map(|mv| style.write(pos, mv)).collect();
                return Err(WrittenError::Ambiguous(
                    text.to_string(),
                    fits.join(" and "),
                ));
            }
            Err(why) => return Err(WrittenError::Illegal(text.to_string(), why.to_string())),
        };
        Ok(Arrow {
            path: crate::rules::landing_path(pos, &mv).to_vec(),
            captured: mv.captured(),
            style: MoveStyle::Written,
        })
    }

    /// A capture of `pos` that takes the most pieces (the first such), drawn as
    /// an alternative; `None` when there is no capture.
    pub fn maximal_capture(pos: &Position) -> Option<Arrow> {
        let best = crate::rules::legal_moves(pos)
            .into_iter()
            .filter(|m| m.is_capture())
            .max_by_key(|m| m.capture_count())?;
        Some(Arrow {
            path: crate::rules::landing_path(pos, &best).to_vec(),
            captured: best.captured(),
            style: MoveStyle::Alternative,
        })
    }
}

/// A move as a record writes it, and at most a strength suffix after it
/// (`22x13!`): its squares and separator.
fn parse_written(text: &str) -> Result<crate::pdn::grammar::MoveText, WrittenError> {
    match crate::pdn::grammar::written_move(text.trim().as_bytes()) {
        Ok((rest, m))
            if rest.is_empty()
                || crate::pdn::grammar::strength(rest).is_ok_and(|(r, _)| r.is_empty()) =>
        {
            Ok(m)
        }
        _ => Err(WrittenError::NotAMove(text.to_string())),
    }
}

/// Why [`Arrow::written`] cannot draw a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WrittenError {
    /// The text is not a move.
    #[error("'{0}' is not a move")]
    NotAMove(String),
    /// A square of it is off the board.
    #[error("'{0}': {1}")]
    Square(String, crate::board::SquareError),
    /// It is no legal move of the position: why.
    #[error("'{0}' is not a legal move here: {1}")]
    Illegal(String, String),
    /// Several legal captures fit it (each written in full).
    #[error("'{0}' is ambiguous: it fits {1}; write the squares the capture passes through")]
    Ambiguous(String, String),
}

/// What to draw.
#[derive(Clone, Debug, Default)]
pub struct DiagramOptions {
    /// Seen from Black (Black's side at the bottom).
    pub flip: bool,
    /// Moves to draw, in order.
    pub moves: Vec<Arrow>,
    /// A title for the picture (`<title>`), escaped.
    pub title: Option<String>,
}

/// `&`, `<`, `>`, `"` and `'` escaped for XML and HTML text and attributes.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() && c != '\n' && c != '\t' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// The picture of `pos`.
pub fn svg(pos: &Position, opts: &DiagramOptions) -> String {
    let g = pos.geometry();
    let n = u32::from(g.n());
    let side = n * SQ + 2 * MARGIN;
    let alg = pos.variant().algebraic();
    let height = side + FOOT + if alg { 8 } else { 0 };
    let mut c = Canvas {
        s: String::with_capacity(8 * 1024),
        g,
        n,
        flip: opts.flip,
    };
    let _ = write!(
        c.s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="pdnkit-diagram" viewBox="0 0 {side} {height}" width="{side}" height="{height}" data-variant="{}" data-fen="{}" data-side="{}" role="img">"#,
        pos.variant().name(),
        escape(&pos.to_fen()),
        if pos.side() == Color::White { "W" } else { "B" },
    );
    if let Some(t) = &opts.title {
        let _ = write!(c.s, "<title>{}</title>", escape(t));
    }
    c.s.push_str(concat!(
        "<defs>",
        r##"<marker id="ah-w" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#d22"/></marker>"##,
        r##"<marker id="ah-a" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#1565c0"/></marker>"##,
        "</defs>"
    ));
    let _ = write!(
        c.s,
        r##"<rect x="0" y="0" width="{side}" height="{height}" fill="#fff"/>"##
    );
    c.board(alg, pos.occupied());
    if alg {
        c.coordinates(side);
    }
    for sq in pos.occupied().squares() {
        if let Some(p) = pos.piece_at(sq) {
            c.piece(sq, p);
        }
    }
    for m in &opts.moves {
        c.drawn_move(m);
    }
    c.side_to_move(pos.side(), height);
    c.s.push_str("</svg>");
    c.s
}

/// An SVG being written for a board of `n` x `n`.
struct Canvas {
    s: String,
    /// The board in the variant's orientation (Italian: h1 dark).
    g: &'static Geometry,
    n: u32,
    flip: bool,
}

impl Canvas {
    /// Top-left corner of a square's cell.
    fn corner(&self, sq: Square) -> (u32, u32) {
        let (r, f) = self.g.coords(sq);
        cell(u32::from(r), u32::from(f), self.n, self.flip)
    }

    /// The light board, the dark squares as one path, the numbers of the
    /// empty ones as one text (numeric boards), and the frame.
    fn board(&mut self, alg: bool, occupied: Bitboard) {
        let n = self.n;
        let _ = write!(
            self.s,
            r##"<rect x="{MARGIN}" y="{MARGIN}" width="{0}" height="{0}" fill="#eeeed2"/>"##,
            n * SQ
        );
        let mut dark = String::new();
        // The 64-square board (Turkish) plays on every square: every other
        // one in a second shade, so that each is seen, and each empty one
        // named (it has no number).
        let full = self.g.size() == crate::board::BoardSize::Full;
        let mut shade = String::new();
        let mut numbers = String::new();
        for r in 0..n {
            for f in 0..n {
                let Some(sq) = self.g.at(r as u8, f as u8) else {
                    continue;
                };
                let (x, y) = cell(r, f, n, self.flip);
                let path = if full && (r + f) % 2 == 1 {
                    &mut shade
                } else {
                    &mut dark
                };
                let _ = write!(path, "M{x} {y}h{SQ}v{SQ}h-{SQ}z");
                if (full || !alg) && !occupied.has(sq) {
                    let label = if full {
                        self.g.algebraic(sq)
                    } else {
                        sq.number().to_string()
                    };
                    let _ = write!(
                        numbers,
                        r#"<tspan x="{}" y="{}">{label}</tspan>"#,
                        x + SQ / 2,
                        y + SQ / 2 + 5,
                    );
                }
            }
        }
        let _ = write!(self.s, r##"<path d="{dark}" fill="{DARK}"/>"##);
        if !shade.is_empty() {
            let _ = write!(self.s, r##"<path d="{shade}" fill="{SHADE}"/>"##);
        }
        if !numbers.is_empty() {
            let _ = write!(
                self.s,
                r##"<text class="numbers" font-size="14" font-family="sans-serif" text-anchor="middle" fill="#fff">{numbers}</text>"##
            );
        }
        let _ = write!(
            self.s,
            r##"<rect x="{MARGIN}" y="{MARGIN}" width="{}" height="{}" fill="none" stroke="#333" stroke-width="1.5"/>"##,
            n * SQ,
            n * SQ
        );
    }

    /// Files a-h and ranks 1-8 on the edges (algebraic boards).
    fn coordinates(&mut self, side: u32) {
        let n = self.n;
        for i in 0..n {
            let file = if self.flip { n - 1 - i } else { i };
            let rank = if self.flip { i + 1 } else { n - i };
            let c = MARGIN + i * SQ + SQ / 2;
            let _ = write!(
                self.s,
                r##"<text x="{c}" y="{}" font-size="11" font-family="sans-serif" text-anchor="middle" fill="#333">{}</text>"##,
                side - 5,
                (b'a' + file as u8) as char
            );
            let _ = write!(
                self.s,
                r##"<text x="{}" y="{}" font-size="11" font-family="sans-serif" text-anchor="middle" fill="#333">{rank}</text>"##,
                MARGIN / 2,
                c + 4
            );
        }
    }

    /// "White to move" or "Black to move" under the board, with a disc of
    /// that side's colour.
    fn side_to_move(&mut self, side: Color, height: u32) {
        let y = height - 8;
        let (fill, name) = match side {
            Color::White => ("#fafafa", "White"),
            Color::Black => ("#1e1e1e", "Black"),
        };
        let _ = write!(
            self.s,
            r##"<g class="side-to-move"><circle cx="{}" cy="{}" r="6" fill="{fill}" stroke="#111" stroke-width="1.5"/><text x="{}" y="{y}" font-size="13" font-family="sans-serif" fill="#222">{name} to move</text></g>"##,
            MARGIN + 7,
            y - 4,
            MARGIN + 18
        );
    }

    /// A piece: a disc, and for a king a ring and a dot.
    fn piece(&mut self, sq: Square, p: crate::piece::Piece) {
        let (x, y) = self.corner(sq);
        let (cx, cy) = (x + SQ / 2, y + SQ / 2);
        let code = p.code();
        let (fill, line) = match p.color {
            Color::White => ("#fafafa", "#111"),
            Color::Black => ("#1e1e1e", "#e8e8e8"),
        };
        let _ = write!(
            self.s,
            r##"<g class="piece" data-square="{}" data-piece="{code}"><circle cx="{cx}" cy="{cy}" r="15" fill="{fill}" stroke="#111" stroke-width="2"/>"##,
            sq.number()
        );
        if p.kind == Kind::King {
            let _ = write!(
                self.s,
                r#"<circle cx="{cx}" cy="{cy}" r="9" fill="none" stroke="{line}" stroke-width="2.5"/><circle cx="{cx}" cy="{cy}" r="3" fill="{line}"/>"#
            );
        }
        self.s.push_str("</g>");
    }

    /// A move: the pieces it takes crossed out, then an arrow along its landing path.
    fn drawn_move(&mut self, m: &Arrow) {
        let (color, marker, dash) = match m.style {
            MoveStyle::Written => ("#d22", "ah-w", ""),
            MoveStyle::Alternative => ("#1565c0", "ah-a", r#" stroke-dasharray="6 4""#),
        };
        let kind = match m.style {
            MoveStyle::Written => "written",
            MoveStyle::Alternative => "alternative",
        };
        let _ = write!(self.s, r#"<g class="move" data-move="{kind}">"#);
        for c in m.captured.squares() {
            let (x, y) = self.corner(c);
            let _ = write!(
                self.s,
                r#"<path class="taken" data-square="{}" d="M{} {} L{} {} M{} {} L{} {}" stroke="{color}" stroke-width="3"/>"#,
                c.number(),
                x + 9,
                y + 9,
                x + SQ - 9,
                y + SQ - 9,
                x + SQ - 9,
                y + 9,
                x + 9,
                y + SQ - 9
            );
        }
        let points: Vec<String> = m
            .path
            .iter()
            .map(|&q| {
                let (x, y) = self.corner(q);
                format!("{},{}", x + SQ / 2, y + SQ / 2)
            })
            .collect();
        if points.len() >= 2 {
            let _ = write!(
                self.s,
                r#"<polyline points="{}" fill="none" stroke="{color}" stroke-width="4" stroke-linejoin="round" stroke-opacity="0.85"{dash} marker-end="url(#{marker})"/>"#,
                points.join(" ")
            );
        }
        self.s.push_str("</g>");
    }
}

/// Top-left corner of the cell in row `r`, file `f` (from White's top left).
fn cell(r: u32, f: u32, n: u32, flip: bool) -> (u32, u32) {
    let (r, f) = if flip { (n - 1 - r, n - 1 - f) } else { (r, f) };
    (MARGIN + f * SQ, MARGIN + r * SQ)
}

impl DiagramOptions {
    /// `&`, `<`, `>`, `"` and `'` escaped for XML and HTML text and
    /// attributes, as the pictures escape every text they hold (a control
    /// character but a line end or a tab becomes U+FFFD).
    pub fn escape(text: &str) -> String {
        escape(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    #[test]
    fn every_legal_move_as_written_reads_back_as_itself() {
        // Issue 55: an ambiguous short capture is refused, but the shortest
        // writing of every legal move (`15x6` for a direct capture beside a
        // longer one with the same ends) reads back as that move: Python's
        // Position.play of each of legal_moves().
        let data = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/positions.jsonl"),
        )
        .expect("the vendored positions");
        let mut moves = 0;
        for line in data.lines() {
            let case: serde_json::Value = serde_json::from_str(line).expect("JSON");
            let field = |name: &str| case[name].as_str().expect("a string").to_string();
            let v: Variant = field("variant").parse().expect("a variant");
            let pos = Position::from_fen(&field("fen"), v).expect("a position");
            let style = crate::notation::Style {
                algebraic: v.algebraic(),
                colon: false,
            };
            for m in pos.legal_moves().iter() {
                let text = style.write(&pos, m);
                let arrow = Arrow::legal(&pos, &text).unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(
                    arrow.path,
                    crate::rules::landing_path(&pos, m).to_vec(),
                    "{text}"
                );
                assert_eq!(arrow.captured, m.captured(), "{text}");
                moves += 1;
            }
        }
        assert!(moves > 1000, "{moves}");
    }

    #[test]
    fn escape_covers_markup() {
        assert_eq!(
            escape(r#"<script>alert('x') & "y"</script>"#),
            "&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt;"
        );
    }

    #[test]
    fn italian_boards_are_drawn_mirrored() {
        // The number of an empty square is drawn in its cell's middle.
        let label = |v: Variant, number: u32| {
            let svg = svg(
                &Position::empty(v, Color::White),
                &DiagramOptions::default(),
            );
            let at = svg
                .find(&format!(">{number}</tspan>"))
                .expect("a numbered board");
            let tag = &svg[svg[..at].rfind("<tspan").unwrap_or(0)..at];
            let num = |k: &str| -> u32 {
                let v = &tag[tag.find(k).unwrap_or(0) + k.len()..];
                v[..v.find('"').unwrap_or(0)].parse().unwrap_or(0)
            };
            (
                (num("x=\"") - SQ / 2 - MARGIN) / SQ,
                (num("y=\"") - SQ / 2 - 5 - MARGIN) / SQ,
            )
        };
        // Italian: 1 = a8 (top-left corner), 32 = h1 (bottom-right corner).
        assert_eq!(label(Variant::Italian, 1), (0, 0));
        assert_eq!(label(Variant::Italian, 32), (7, 7));
        assert_eq!(label(Variant::Italian, 29), (1, 7));
        // The usual 8x8 board of English: 1 = b8, 32 = g1, 29 = a1.
        assert_eq!(label(Variant::English, 1), (1, 0));
        assert_eq!(label(Variant::English, 32), (6, 7));
        assert_eq!(label(Variant::English, 29), (0, 7));
    }

    #[test]
    fn numbers_on_the_empty_dark_squares_and_the_side_to_move() {
        let p = Position::from_fen("B:W31,32:B1", Variant::English).unwrap();
        let text = svg(&p, &DiagramOptions::default());
        let numbers: Vec<&str> = text
            .split("</tspan>")
            .filter_map(|t| t.rsplit('>').next())
            .filter(|n| n.parse::<u32>().is_ok())
            .collect();
        assert_eq!(numbers.len(), 29);
        assert!(!numbers.contains(&"1") && !numbers.contains(&"31") && numbers.contains(&"2"));
        assert!(text.contains(">Black to move</text>") && text.contains(r#"data-side="B""#));
        // Algebraic boards have files and ranks instead.
        let text = svg(&Variant::Russian.start(), &DiagramOptions::default());
        assert!(!text.contains("<tspan") && text.contains(">White to move</text>"));
    }

    #[test]
    fn one_piece_element_per_piece() {
        for v in Variant::ALL {
            let p = v.start();
            let s = svg(&p, &DiagramOptions::default());
            assert_eq!(
                s.matches(r#"class="piece""#).count() as u32,
                p.occupied().count(),
                "{v}"
            );
        }
    }
}
