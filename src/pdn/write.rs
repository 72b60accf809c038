//! PDN out: tags in the conventional order, movetext wrapped at 80 columns,
//! comments and variations kept, results in the chosen family.

use super::{Game, Node, Outcome, Sep, SquareText};
use crate::position::Color;
use crate::variant::Variant;

/// Which family of result tokens to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ResultStyle {
    /// `2-0`, `0-2`, `1-1` (default).
    #[default]
    Draughts,
    /// `1-0`, `0-1`, `1/2-1/2`.
    Classic,
}

impl ResultStyle {
    /// The token for `o`.
    pub fn token(self, o: Outcome) -> &'static str {
        match self {
            ResultStyle::Draughts => o.normalised(),
            ResultStyle::Classic => o.classic(),
        }
    }
    /// The token for `o` in a game of `variant`: English games are written
    /// in the checkers order (`1-0`: Black, the first player, won) whatever
    /// the style, as checkers programs read them.
    pub fn token_for(self, o: Outcome, variant: Option<Variant>) -> &'static str {
        match variant {
            Some(v) if v.first_player_scores_first() => o.classic_for(Some(v)),
            _ => self.token(o),
        }
    }
}

/// The seven-tag roster, then GameType and FEN.
const ORDER: [&str; 9] = [
    "Event", "Site", "Date", "Round", "White", "Black", "Result", "GameType", "FEN",
];

/// Options for [`write_game`].
#[derive(Clone, Copy, Debug, Default)]
pub struct WriteOptions {
    /// The result family to write.
    pub results: ResultStyle,
    /// Side to move at the start (for move numbers); White if `None`.
    pub first: Option<Color>,
    /// The game's variant, when known: results are read and written its way.
    pub variant: Option<Variant>,
}

/// Escapes a tag value.
pub fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

fn move_text(squares: &[SquareText], sep: Sep) -> String {
    let sep = match sep {
        Sep::Move => "-",
        Sep::Capture | Sep::Mixed => "x",
        Sep::Colon => ":",
        Sep::None => "",
    };
    squares
        .iter()
        .map(SquareText::to_string)
        .collect::<Vec<_>>()
        .join(sep)
}

struct Wrap {
    out: String,
    col: usize,
}

impl Wrap {
    fn word(&mut self, w: &str) {
        let width = w.chars().count();
        if self.col > 0 && self.col + 1 + width > 80 {
            self.out.push('\n');
            self.col = 0;
        } else if self.col > 0 {
            self.out.push(' ');
            self.col += 1;
        }
        self.out.push_str(w);
        self.col += width;
    }
    /// A line of its own.
    fn line(&mut self, text: &str) {
        if self.col > 0 {
            self.out.push('\n');
        }
        self.out.push_str(text);
        self.out.push('\n');
        self.col = 0;
    }
}

/// Changes to a game made while writing it (normalised output).
#[derive(Clone, Debug, Default)]
pub struct Overrides<'a> {
    /// Text for the first main-line moves, in order (the rest as read).
    pub main_moves: &'a [String],
    /// A result replacing the Result tag and the final token.
    pub result: Option<Outcome>,
    /// A GameType to write when the game has none (the variant it was read as).
    pub game_type: Option<u32>,
}

/// Writes one game as PDN text (ending with a blank line).
pub fn write_game(g: &Game, opts: WriteOptions) -> String {
    write_game_with(g, opts, &Overrides::default())
}

/// [`write_game`] with moves or the result replaced.
pub fn write_game_with(g: &Game, opts: WriteOptions, ov: &Overrides) -> String {
    let v = opts.variant;
    let token = g.result.as_ref().map(|(o, span)| {
        Outcome::parse_for(&String::from_utf8_lossy(g.bytes(span)), v).unwrap_or(*o)
    });
    let result = ov
        .result
        .or(token)
        .or_else(|| g.tag("Result").and_then(|t| Outcome::parse_for(&t, v)));
    let mut out = tag_section(g, opts, ov);
    let mut w = Wrap {
        out: String::new(),
        col: 0,
    };
    write_movetext(&mut w, g, opts, ov);
    w.word(
        opts.results
            .token_for(result.unwrap_or(Outcome::Unknown), v),
    );
    out.push_str(&w.out);
    out.push_str("\n\n");
    out
}

/// The tag pairs, one per line, in the usual order, with the result and the
/// GameType the overrides ask for.
fn tag_section(g: &Game, opts: WriteOptions, ov: &Overrides) -> String {
    let v = opts.variant;
    let mut tags: Vec<(String, String)> = g
        .tags
        .iter()
        .map(|t| (g.tag_name(t).to_string(), g.tag_value(t)))
        .collect();
    if let Some(r) = ov.result {
        let token = opts.results.token_for(r, v).to_string();
        match tags
            .iter_mut()
            .find(|(n, _)| n.eq_ignore_ascii_case("Result"))
        {
            Some(t) => t.1 = token,
            None => tags.push(("Result".to_string(), token)),
        }
    }
    if let Some(n) = ov.game_type {
        if !tags.iter().any(|(t, _)| t.eq_ignore_ascii_case("GameType")) {
            tags.push(("GameType".to_string(), n.to_string()));
        }
    }
    tags.sort_by_key(|(n, _)| {
        ORDER
            .iter()
            .position(|o| o.eq_ignore_ascii_case(n))
            .unwrap_or(ORDER.len())
    });
    let mut out = String::new();
    for (name, value) in &tags {
        let value = if name.eq_ignore_ascii_case("Result") {
            Outcome::parse_for(value, v).map_or_else(
                || value.clone(),
                |o| opts.results.token_for(o, v).to_string(),
            )
        } else {
            value.clone()
        };
        out.push_str(&format!("[{name} \"{}\"]\n", escape(&value)));
    }
    out
}

/// A comment's text for `{...}`: nested braces kept when balanced (the reader
/// reads them back), removed otherwise.
fn comment_text(text: &str) -> String {
    let mut depth = 0i32;
    let balanced = text.chars().all(|c| {
        depth += match c {
            '{' => 1,
            '}' => -1,
            _ => 0,
        };
        depth >= 0
    }) && depth == 0;
    if balanced {
        text.to_string()
    } else {
        text.replace(['{', '}'], "")
    }
}

/// The movetext, with move numbers: counted from White's first move, written
/// `1...` when Black starts; checkers records number from whoever moves first
/// (`1. 11-15`). One ply counter per open variation.
fn write_movetext(w: &mut Wrap, g: &Game, opts: WriteOptions, ov: &Overrides) {
    let first_black = opts.first == Some(Color::Black)
        && !opts.variant.is_some_and(|v| v.first_player_scores_first());
    let mut stack: Vec<usize> = Vec::new();
    let mut ply = usize::from(first_black); // plies before the next move, from White's first
    let mut need_number = true;
    let mut main_index = 0usize;
    for node in &g.nodes {
        match node {
            Node::Move(m) => {
                let replaced = if stack.is_empty() {
                    main_index += 1;
                    ov.main_moves.get(main_index - 1)
                } else {
                    None
                };
                let number = ply / 2 + 1;
                if ply % 2 == 0 {
                    w.word(&format!("{number}."));
                } else if need_number {
                    w.word(&format!("{number}..."));
                }
                let mut t = replaced
                    .cloned()
                    .unwrap_or_else(|| move_text(g.squares(m), m.sep));
                t.push_str(&String::from_utf8_lossy(g.bytes(&m.suffix.range())));
                w.word(&t);
                ply += 1;
                need_number = false;
            }
            Node::Unknown(_) => {
                w.word("-");
                ply += 1;
            }
            Node::Comment(s) => {
                w.word(&format!("{{{}}}", comment_text(g.decode(s).trim())));
                need_number = true;
            }
            Node::Nag(n, _) => w.word(&format!("${n}")),
            Node::Open(_) => {
                stack.push(ply);
                ply = ply.saturating_sub(1);
                w.word("(");
                need_number = true;
            }
            Node::Close(_) => {
                ply = stack.pop().unwrap_or(ply);
                w.word(")");
                need_number = true;
            }
            Node::Setup(s) => {
                w.word(&format!("/{}/", g.decode(s)));
                need_number = true;
            }
            Node::Escape(s) => {
                // An escape line stays a line of its own, as written.
                w.line(g.decode(s).trim_end());
                need_number = true;
            }
        }
    }
}
