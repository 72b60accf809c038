//! PDN out: tags in the conventional order, movetext wrapped at 80 columns,
//! comments and variations kept, results in the chosen family.

use super::game::Game;
use super::vocab::{Node, Outcome, Sep, SquareText};
use crate::piece::Color;
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
    /// Write the Result tag and the final token exactly as the record has
    /// them (a `1-0` or `0-1` whose meaning is not known), whatever
    /// [`WriteOptions::results`] and the overrides say.
    pub keep_results: bool,
}

/// Escapes a tag value.
pub(crate) fn escape(v: &str) -> String {
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
    /// A `;` comment: to the end of the line, as written.
    fn line_comment(&mut self, text: &str) {
        if self.col > 0 {
            self.out.push(' ');
        }
        self.out.push(';');
        self.out.push_str(text);
        self.out.push('\n');
        self.col = 0;
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
pub(crate) struct Overrides<'a> {
    /// Text for the first main-line moves, in order (the rest as read); an
    /// empty text leaves its token out (a leg of a capture written one jump
    /// per token, written whole with the token before it).
    pub main_moves: &'a [String],
    /// A result replacing the Result tag and the final token.
    pub result: Option<Outcome>,
    /// A GameType to write when the game has none (a variant the user named).
    pub game_type: Option<u32>,
    /// Whether [`Overrides::game_type`] replaces the game's own GameType too
    /// (a variant the user imposed on every game).
    pub replace_game_type: bool,
    /// The value of pdnkit's marker tag ([`super::vocab::MARKER_TAG`]) to
    /// write (it replaces one the game has).
    pub marker: Option<String>,
    /// Make the Result tag and the final token agree (`--fix-results`): the
    /// result replacing both, else the tag's, else the token's.
    pub agree: bool,
    /// A FEN replacing the game's own (its position named upright, where
    /// the record named it from the other side).
    pub fen: Option<String>,
}

/// Writes one game as PDN text (ending with a blank line).
pub fn write_game(g: &Game, opts: WriteOptions) -> String {
    write_game_with(g, opts, &Overrides::default())
}

/// [`write_game`] with moves or the result replaced.
pub(crate) fn write_game_with(g: &Game, opts: WriteOptions, ov: &Overrides) -> String {
    let v = opts.variant;
    let token = g.result.as_ref().map(|(o, span)| {
        Outcome::parse_for(&String::from_utf8_lossy(g.bytes(span)), v).unwrap_or(*o)
    });
    let tag = g.tag("Result").and_then(|t| Outcome::parse_for(&t, v));
    let result = match (ov.result, ov.agree) {
        (Some(r), _) => Some(r),
        (None, true) => tag.or(token),
        (None, false) => token.or(tag),
    };
    let tag_result = ov.result.or(if ov.agree { result } else { None });
    let (result, tag_result) = if opts.keep_results {
        (None, None)
    } else {
        (result, tag_result)
    };
    // `%` lines written before the tags stay before them.
    let first_tag = g.tags.first().map_or(usize::MAX, |t| t.span.start);
    let mut out = String::new();
    for n in &g.nodes {
        if let Node::Escape(s) = n {
            if s.start < first_tag {
                out.push_str(g.decode(s).trim_end());
                out.push('\n');
            }
        }
    }
    out.push_str(&tag_section(g, opts, ov, tag_result));
    let mut w = Wrap {
        out: String::new(),
        col: 0,
    };
    write_movetext(&mut w, g, opts, ov, first_tag);
    let written_token = g
        .result
        .as_ref()
        .map(|(_, span)| String::from_utf8_lossy(g.bytes(span)).trim().to_string());
    match written_token.filter(|_| opts.keep_results) {
        Some(token) => w.word(&token),
        None => w.word(
            opts.results
                .token_for(result.unwrap_or(Outcome::Unknown), v),
        ),
    }
    out.push_str(&w.out);
    out.push_str("\n\n");
    out
}

/// The tag pairs, one per line, in the usual order, with the result and the
/// GameType the overrides ask for.
fn tag_section(g: &Game, opts: WriteOptions, ov: &Overrides, result: Option<Outcome>) -> String {
    let v = opts.variant;
    let mut tags: Vec<(String, String)> = g
        .tags
        .iter()
        .map(|t| (g.tag_name(t).to_string(), g.tag_value(t)))
        .collect();
    if let Some(r) = result {
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
        match tags
            .iter_mut()
            .find(|(t, _)| t.eq_ignore_ascii_case("GameType"))
        {
            Some(t) if ov.replace_game_type => t.1 = n.to_string(),
            Some(_) => {}
            None => tags.push(("GameType".to_string(), n.to_string())),
        }
    }
    if let Some(fen) = &ov.fen {
        if let Some(t) = tags.iter_mut().find(|(t, _)| t.eq_ignore_ascii_case("FEN")) {
            t.1 = fen.clone();
        }
    }
    if let Some(m) = &ov.marker {
        let name = super::vocab::MARKER_TAG;
        match tags.iter_mut().find(|(t, _)| t.eq_ignore_ascii_case(name)) {
            Some(t) => t.1 = m.clone(),
            None => tags.push((name.to_string(), m.clone())),
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
        let value = if name.eq_ignore_ascii_case("Result") && !opts.keep_results {
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

/// The first move of the variation that opens just before `rest`, if it has one.
fn variation_first_move(rest: &[Node]) -> Option<&super::vocab::WrittenMove> {
    let mut depth = 0usize;
    for n in rest {
        match n {
            Node::Open(_) => depth += 1,
            Node::Close(_) if depth == 0 => return None,
            Node::Close(_) => depth -= 1,
            Node::Move(m) if depth == 0 => return Some(m),
            Node::Unknown(_) if depth == 0 => return None,
            _ => {}
        }
    }
    None
}

/// The movetext, with move numbers that place every move where the reader
/// put it. The main line is numbered from the record's own first number
/// (`30. 32-28` stays 30), or else from White's first move (`1...` when
/// Black starts; checkers records number from whoever moves first). A
/// variation of the main line replaces the main move its first move's number
/// names, else the main move before it, as the reader reads it: its first
/// move is written with the number of that main move. A nested variation
/// replaces its parent's last move.
fn write_movetext(w: &mut Wrap, g: &Game, opts: WriteOptions, ov: &Overrides, first_tag: usize) {
    let mut n = Numbers::new(g, opts);
    for (i, node) in g.nodes.iter().enumerate() {
        match node {
            Node::Move(m) => {
                let replaced = if n.stack.is_empty() {
                    n.main_index += 1;
                    ov.main_moves.get(n.main_index - 1)
                } else {
                    None
                };
                if replaced.is_some_and(String::is_empty) {
                    n.joined += 1;
                    continue;
                }
                n.number_move(w);
                let mut t = replaced
                    .cloned()
                    .unwrap_or_else(|| move_text(g.squares(m), m.sep));
                t.push_str(&String::from_utf8_lossy(g.bytes(&m.suffix.range())));
                w.word(&t);
                n.ply += 1;
                n.need_number = false;
            }
            Node::Unknown(_) => n.placeholder(w),
            Node::Comment(s) => {
                let line = s.start > 0 && g.text.get(s.start - 1) == Some(&b';');
                if line {
                    w.line_comment(g.decode(s).trim_end_matches('\r'));
                } else {
                    w.word(&format!("{{{}}}", comment_text(g.decode(s).trim())));
                }
                n.need_number = true;
            }
            Node::Nag(v, _) => w.word(&format!("${v}")),
            Node::Open(_) => {
                n.open(&g.nodes[i + 1..]);
                w.word("(");
            }
            Node::Close(_) => {
                n.close();
                w.word(")");
            }
            Node::Setup(s) => {
                w.word(&format!("/{}/", g.decode(s)));
                n.need_number = true;
            }
            Node::Escape(s) => {
                if s.start >= first_tag {
                    // An escape line stays a line of its own, as written.
                    w.line(g.decode(s).trim_end());
                    n.need_number = true;
                }
            }
        }
    }
}

/// The numbering of the moves [`write_movetext`] writes.
struct Numbers {
    /// Main-line moves.
    main_moves: usize,
    /// The ply label (`1.` = 0, `1...` = 1) of the first main-line move.
    anchor: usize,
    /// The reader's own anchor for variations (`replay`): the first main
    /// move's label, else Black's first ply when Black starts.
    read_anchor: usize,
    /// The label of the move before each open variation.
    stack: Vec<usize>,
    /// The label of the next move.
    ply: usize,
    need_number: bool,
    /// No number for the first move of the variation at this depth (a
    /// variation before any main move, which the reader anchors nowhere).
    no_number: Option<usize>,
    /// Main-line moves (and placeholders) written so far.
    main_index: usize,
    /// Main-line tokens left out so far, each a leg joined to the move
    /// before it ([`Overrides::main_moves`]).
    joined: usize,
}

impl Numbers {
    fn new(g: &Game, opts: WriteOptions) -> Numbers {
        let first_black = opts.first == Some(Color::Black)
            && !opts.variant.is_some_and(|v| v.first_player_scores_first());
        let first_number = g.main_line().next().and_then(|m| m.numbered_ply());
        let anchor = first_number.map_or(usize::from(first_black), |l| l as usize);
        let read_anchor = first_number.map_or(usize::from(opts.first == Some(Color::Black)), |l| {
            l as usize
        });
        Numbers {
            main_moves: g.main_line().count(),
            anchor,
            read_anchor,
            stack: Vec::new(),
            ply: anchor,
            need_number: true,
            no_number: None,
            main_index: 0,
            joined: 0,
        }
    }

    /// The number before a move, where one is needed.
    fn number_move(&mut self, w: &mut Wrap) {
        let number = self.ply / 2 + 1;
        if self.no_number == Some(self.stack.len()) {
            self.no_number = None;
        } else if self.ply.is_multiple_of(2) {
            w.word(&format!("{number}."));
        } else if self.need_number {
            w.word(&format!("{number}..."));
        }
    }

    /// A placeholder is numbered like a move, and the move after it too:
    /// written bare after a move (`15-20 - 41-36`) it would read as a
    /// separator of one move.
    fn placeholder(&mut self, w: &mut Wrap) {
        let number = self.ply / 2 + 1;
        if self.ply.is_multiple_of(2) {
            w.word(&format!("{number}."));
        } else {
            w.word(&format!("{number}..."));
        }
        w.word("-");
        self.ply += 1;
        self.need_number = true;
        if self.stack.is_empty() {
            self.main_index += 1;
        }
    }

    /// A variation opens; `after` is what follows its `(`.
    fn open(&mut self, after: &[Node]) {
        self.stack.push(self.ply);
        if self.stack.len() == 1 {
            // A variation of the main line: the main move it replaces.
            let named = variation_first_move(after)
                .and_then(|m| m.numbered_ply())
                .and_then(|l| (l as usize).checked_sub(self.read_anchor))
                .filter(|&k| k <= self.main_moves);
            match (named, self.main_index.checked_sub(1)) {
                (Some(k), _) | (None, Some(k)) => {
                    self.ply = self.anchor + k.saturating_sub(self.joined)
                }
                (None, None) => self.no_number = Some(1),
            }
        } else {
            self.ply = self.ply.saturating_sub(1);
        }
        self.need_number = true;
    }

    /// A variation closes: the numbering goes on from before it.
    fn close(&mut self) {
        if self.no_number == Some(self.stack.len()) {
            self.no_number = None;
        }
        self.ply = self.stack.pop().unwrap_or(self.ply);
        self.need_number = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdn::read_all;

    fn write(text: &str) -> String {
        write_game(&read_all(text.as_bytes())[0], WriteOptions::default())
    }

    #[test]
    fn variations_keep_the_number_of_the_move_they_replace() {
        // Written before Black's move it replaces, numbered 1...: stays 1....
        assert_eq!(
            write("1. 32-28 (1... 19-23) 1... 18-23 *"),
            "1. 32-28 ( 1... 19-23 ) 1... 18-23 *\n\n"
        );
        // A variation that names an earlier main move keeps that number.
        assert!(
            write("1. 32-28 18-23 2. 37-32 12-18 (1... 19-24) 3. 41-37 *")
                .contains("( 1... 19-24 )")
        );
        // A number past the main line names nothing: the move before it, as read.
        assert!(write("1. 32-28 18-23 (9. 34-29) 2. 37-32 *").contains("( 1... 34-29 )"));
        // Unnumbered, it replaces the main move before it.
        assert!(write("1. 32-28 18-23 (19-24) 2. 37-32 *").contains("( 1... 19-24 )"));
        // Before any main move, it stays unnumbered (the reader anchors it nowhere).
        assert!(write("(33-28) 1. 32-28 *").starts_with("( 33-28 )"));
    }

    #[test]
    fn a_placeholder_never_joins_the_moves_around_it() {
        // `15-2-`: a move and a placeholder; written apart and numbered, so
        // that `15-2 - 41-36` does not read as one move.
        let out = write("[GameType \"20\"]\n11. 35-30 15-2- 12. 41-36 *");
        assert!(out.contains("11. 35-30 15-2 12. - 12... 41-36 *"), "{out}");
        let again = &read_all(out.as_bytes())[0];
        assert_eq!(again.nodes().len(), 4);
    }

    #[test]
    fn numbers_continue_from_the_records_own() {
        assert_eq!(
            write("[FEN \"W:W32,37:B2,12\"]\n30. 32-28 2-7 31. 28-22 *"),
            "[FEN \"W:W32,37:B2,12\"]\n30. 32-28 2-7 31. 28-22 *\n\n"
        );
    }

    #[test]
    fn line_comments_and_escape_lines_stay_in_place() {
        let out = write("% before the tags\n[Event \"e\"]\n1. 32-28 ; score {+1} or }\n19-23 *");
        assert_eq!(
            out,
            "% before the tags\n[Event \"e\"]\n1. 32-28 ; score {+1} or }\n1... 19-23 *\n\n"
        );
    }

    #[test]
    fn overrides_fix_and_agree() {
        let g = &read_all(b"[Result \"1-1\"]\n1. 32-28 *")[0];
        let ov = Overrides {
            agree: true,
            ..Overrides::default()
        };
        assert_eq!(
            write_game_with(g, WriteOptions::default(), &ov),
            "[Result \"1-1\"]\n1. 32-28 1-1\n\n"
        );
        let ov = Overrides {
            game_type: Some(25),
            replace_game_type: true,
            ..Overrides::default()
        };
        let g = &read_all(b"[GameType \"20\"]\n1. 32-28 *")[0];
        assert!(write_game_with(g, WriteOptions::default(), &ov).contains("[GameType \"25\"]"));
    }
}
