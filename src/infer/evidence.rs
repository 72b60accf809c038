//! The evidence of a file's games for their variant, and the decision it
//! gives before any replay: the file's tagged games, the board the squares
//! need, what the text shows, the file's name, the board's default.

use crate::board::BoardSize;
use crate::infer::{tag_choice_raw, variant_word, Inference, TagChoice, Untagged, VariantSource};
use crate::pdn::visit::RawGame;
use crate::pdn::{Game, Node, Sep, SquareText};
use crate::position::Setup;
use crate::variant::{GameKind, Variant};
use std::collections::BTreeMap;

/// Evidence gathered from a file's games.
#[derive(Clone, Debug, Default)]
pub(crate) struct Evidence {
    tagged: BTreeMap<GameKind, u32>,
    /// Untagged games needing an 8x8, 10x10, 12x12 board (a name within
    /// a1-h8 of either colour needs 8x8: the 64-square board is no evidence
    /// of its own, Turkish is tried among the 8x8 variants, RULES.md 12).
    boards: [u32; 3],
    /// Untagged games that write a square number (in a move or the FEN):
    /// they do not fit the 64-square board, whose squares are only named.
    numbers: u32,
    /// Untagged games from the start position opening from 9-12 (Black first),
    /// and opening with a White man (21-24, or rank 3).
    black_first: u32,
    white_first: u32,
    colon: u32,
    cyrillic: u32,
    italian: u32,
    /// Untagged games with a player named `Red` (English and American checkers).
    red: u32,
    with_moves: u32,
    untagged: u32,
    /// Variants named by whole words of the file's name and folders, with the word.
    words: Vec<(Variant, String)>,
}

/// What a decision for a file's untagged games rests on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Basis {
    /// Other games of the file carry a GameType.
    Tagged,
    /// What the text or the file's name shows.
    Positive,
    /// Nothing: brazilian, the default of the 8x8 board.
    Default,
    /// No moves and no evidence on an 8x8 board: undecided.
    Nothing,
}

const ITALIAN_TAGS: [&str; 3] = ["Bianco", "Nero", "Risultato"];

/// The board the squares seen so far need: the highest number and the
/// largest file or rank of a name.
#[derive(Default)]
struct Need {
    numbered: bool,
    highest: u16,
    named: u32,
}

impl Need {
    #[inline]
    fn see_all(&mut self, squares: &[SquareText]) {
        for s in squares {
            match *s {
                SquareText::Num(n) => {
                    self.numbered = true;
                    self.highest = self.highest.max(n);
                }
                SquareText::Alg { file, rank } => {
                    self.named = self.named.max((u32::from(file) + 1).max(u32::from(rank)))
                }
            }
        }
    }

    /// A FEN's squares: numbers, or names (`Wa2`, `Kd4`: the side's and a
    /// king's letter before the name), in its runs of ASCII letters and
    /// digits; read as bytes (issue 65).
    fn see_fen(&mut self, fen: &[u8]) {
        /// The value of a run of digits, if at most `max`.
        fn value(digits: &[u8], max: u64) -> Option<u64> {
            if digits.is_empty() {
                return None;
            }
            digits.iter().try_fold(0u64, |v, &d| {
                let v = v * 10 + u64::from(d.wrapping_sub(b'0'));
                (d.is_ascii_digit() && v <= max).then_some(v)
            })
        }
        for token in fen.split(|b| !b.is_ascii_alphanumeric()) {
            let mut t = token;
            while let [b'W' | b'B' | b'K', rest @ ..] = t {
                t = rest;
            }
            if let Some(n) = value(t, u64::from(u32::MAX)) {
                self.see_all(&[SquareText::Num(n.min(999) as u16)]);
            } else if let [f @ b'a'..=b'z', rank @ ..] = t {
                if let Some(r) = value(rank, u64::from(u8::MAX)) {
                    self.see_all(&[SquareText::Alg {
                        file: f - b'a',
                        rank: r as u8,
                    }]);
                }
            }
        }
    }

    /// The side of the board needed: 12, 10, 8 for numbers over 50, over 32,
    /// any; a name's file or rank; 0 for no square.
    fn board(&self) -> u32 {
        let by_number = match self.highest {
            _ if !self.numbered => 0,
            51.. => 12,
            33.. => 10,
            _ => 8,
        };
        by_number.max(self.named)
    }
}

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
            TagChoice::Invalid | TagChoice::Marked(_) => return,
            TagChoice::Untagged => {}
        }
        self.untagged += 1;
        // One pass over the tags, their names compared as bytes (issue 65).
        let (mut italian, mut red, mut cyrillic) = (false, false, false);
        for t in g.tags() {
            let name = g.tag_name_bytes(t);
            italian |= ITALIAN_TAGS
                .iter()
                .any(|n| name.eq_ignore_ascii_case(n.as_bytes()));
            red |= !red
                && (name.eq_ignore_ascii_case(b"White") || name.eq_ignore_ascii_case(b"Black"))
                && g.tag_text(t).trim().eq_ignore_ascii_case("red");
            cyrillic |= !cyrillic
                && g.bytes(&t.value).iter().any(|b| *b >= 0x80)
                && g.tag_text(t)
                    .chars()
                    .any(|c| ('\u{0400}'..='\u{04ff}').contains(&c));
        }
        self.italian += u32::from(italian);
        self.red += u32::from(red);
        self.cyrillic += u32::from(cyrillic);
        let fen = g.find_tag("FEN").map(|t| g.tag_text(t));
        let (moves, colon) = self.add_squares(g, fen.as_deref());
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

    /// The board an untagged game's squares need (moves and FEN), counted;
    /// its moves, and whether one writes a capture with `:`.
    fn add_squares(&mut self, g: &RawGame<'_>, fen: Option<&str>) -> (u32, bool) {
        let mut moves = 0u32;
        let mut colon = false;
        // The moves' squares are ranges of the game's squares; where they
        // follow one another from the first and cover them all (a game as
        // the reader holds it), the squares are read in one pass (issue 65).
        let mut covered = 0usize;
        for node in g.nodes() {
            if let Node::Move(m) = node {
                moves += 1;
                colon |= m.sep == Sep::Colon;
                let r = m.squares.range();
                covered = if r.start == covered {
                    r.end
                } else {
                    usize::MAX
                };
            }
        }
        let mut need = Need::default();
        if covered == g.squares.len() {
            need.see_all(g.squares);
        } else {
            for node in g.nodes() {
                if let Node::Move(m) = node {
                    need.see_all(g.squares(m));
                }
            }
        }
        need.see_fen(fen.unwrap_or("").as_bytes());
        self.numbers += u32::from(need.numbered);
        let need = need.board();
        if need > 0 {
            let i = match need {
                0..=8 => 0,
                9..=10 => 1,
                _ => 2,
            };
            self.boards[i] += 1;
        }
        (moves, colon)
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

    /// Adds the words of a file's name and of its folders below the PATH
    /// named on the command line (`czech/mrcd2006.pdn`): a word that names a
    /// variant is evidence for it, the weakest.
    pub fn add_name(&mut self, below: &str) {
        let stem = below
            .rsplit_once('.')
            .filter(|(_, ext)| !ext.contains(['/', '\\', '!']))
            .map_or(below, |(s, _)| s);
        for word in stem.split(|c: char| !c.is_alphanumeric()) {
            if let Some(v) = variant_word(word) {
                if !self.words.iter().any(|(w, _)| *w == v) {
                    self.words.push((v, word.to_string()));
                }
            }
        }
    }

    /// The board most untagged games need (the larger on a tie), if any
    /// shows squares: one garbled game does not move a file to another board.
    pub fn board(&self) -> Option<BoardSize> {
        let (i, &n) = self
            .boards
            .iter()
            .enumerate()
            .max_by_key(|(i, n)| (**n, *i))?;
        (n > 0).then_some([BoardSize::Eight, BoardSize::Ten, BoardSize::Twelve][i])
    }

    /// Whether the squares of the file's untagged games fit `v`'s board:
    /// no larger board, and the 64-square board (Turkish) only for names
    /// within a1-h8, never numbers (RULES.md 12).
    pub fn fits(&self, v: Variant) -> bool {
        match (self.board(), v.board()) {
            (b, BoardSize::Full) => self.numbers == 0 && b.is_none_or(|b| b == BoardSize::Eight),
            (Some(b), on) => b.n() <= on.n(),
            (None, _) => true,
        }
    }

    /// The decision for the file's untagged games.
    pub fn decide(&self) -> Inference {
        self.decision().0
    }

    /// The decision for the file's untagged games, and what it rests on: the
    /// first of these steps that decides, strongest evidence first.
    pub fn decision(&self) -> (Inference, Basis) {
        self.by_tagged_games()
            .or_else(|| self.by_name_on_board())
            .or_else(|| self.by_board())
            .or_else(|| self.by_text())
            .or_else(|| self.by_name())
            .unwrap_or_else(|| self.by_default())
    }

    /// The GameType most of the file's other games carry.
    fn by_tagged_games(&self) -> Option<(Inference, Basis)> {
        let (&kind, &n) = self
            .tagged
            .iter()
            .max_by_key(|(k, n)| (**n, std::cmp::Reverse(**k)))?;
        let (untagged, number) = match kind {
            GameKind::Known(v) => (Untagged::Variant(v), v.game_type()),
            GameKind::Unsupported(u) => (Untagged::Unsupported(u), u.0),
        };
        let inference = Inference {
            untagged,
            source: VariantSource::File,
            evidence: format!(
                "{n} other {} of the file {} GameType {number} ({})",
                plural(n),
                if n == 1 { "has" } else { "have" },
                kind.name()
            ),
            order_known: true,
            note: None,
            from_path: false,
            turned: None,
        };
        Some((inference, Basis::Tagged))
    }

    /// A 10x10 or 12x12 board: the one variant pdnkit checks there (of
    /// those an untagged file is tried as).
    fn by_board(&self) -> Option<(Inference, Basis)> {
        let (v, i) = match self.board()? {
            BoardSize::Ten => (Variant::International, 1),
            BoardSize::Twelve => (Variant::Canadian, 2),
            BoardSize::Eight | BoardSize::Full => return None,
        };
        Some(positive(
            v,
            format!(
                "squares of a {} board in {} {}",
                v.board(),
                self.boards[i],
                plural(self.boards[i])
            ),
        ))
    }

    /// What the text shows on an 8x8 board, in this order: who opens from
    /// the start position, `:` captures, Cyrillic, Italian tag names, a
    /// player named Red.
    fn by_text(&self) -> Option<(Inference, Basis)> {
        let games = |n: u32| format!("{n} {}", plural(n));
        let (v, evidence) = if self.black_first > self.white_first {
            (
                Variant::English,
                format!(
                    "{} from the start position open from squares 9-12 (Black moves first)",
                    games(self.black_first)
                ),
            )
        } else if self.colon > 0 {
            (
                Variant::Russian,
                format!("captures written with ':' in {}", games(self.colon)),
            )
        } else if self.cyrillic > 0 {
            (
                Variant::Russian,
                format!("Cyrillic tag values in {}", games(self.cyrillic)),
            )
        } else if self.italian > 0 {
            (
                Variant::Italian,
                format!(
                    "Italian tag names (Bianco, Nero, Risultato) in {}",
                    games(self.italian)
                ),
            )
        } else if self.red > 0 {
            (
                Variant::English,
                format!("a player named Red (checkers) in {}", games(self.red)),
            )
        } else {
            return None;
        };
        Some(positive(v, evidence))
    }

    /// On a 10x10 or 12x12 board, a word of the file's name that names a
    /// variant of that board (`frisian`, `frysk`) before the board's first
    /// variant (issue 62 item 11: a Frisian archive was read as
    /// international).
    fn by_name_on_board(&self) -> Option<(Inference, Basis)> {
        match self.board()? {
            BoardSize::Eight => None,
            _ => self.by_name(),
        }
    }

    /// The file's name: the first word whose variant fits the board.
    fn by_name(&self) -> Option<(Inference, Basis)> {
        let board = self.board();
        let (v, word) = self
            .words
            .iter()
            .find(|(v, _)| board.is_none_or(|b| b == v.board()))?;
        let (mut inference, basis) = positive(
            *v,
            format!("the word '{word}' in the file's name or folders"),
        );
        inference.from_path = true;
        Some((inference, basis))
    }

    /// No evidence: undecided without moves, else the 8x8 board's default.
    fn by_default(&self) -> (Inference, Basis) {
        if self.with_moves == 0 {
            let on = match self.board() {
                Some(_) => {
                    "games with no moves on an 8x8 board, where five variants share the board"
                }
                None => "games with no moves and no squares",
            };
            return (
                Inference::undecided(format!("{on}, and no other evidence of their variant")),
                Basis::Nothing,
            );
        }
        (
            Inference::inferred(
                Variant::Brazilian,
                "no GameType and no other evidence: brazilian, the default of the 8x8 board"
                    .to_string(),
            ),
            Basis::Default,
        )
    }
}

/// `game` or `games`.
fn plural(n: u32) -> &'static str {
    if n == 1 {
        "game"
    } else {
        "games"
    }
}

/// A decision on positive evidence.
fn positive(v: Variant, evidence: String) -> (Inference, Basis) {
    (Inference::inferred(v, evidence), Basis::Positive)
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
    p.pieces(crate::piece::Color::White) == start.pieces(crate::piece::Color::White)
        && p.pieces(crate::piece::Color::Black) == start.pieces(crate::piece::Color::Black)
        && p.kings().is_empty()
}

#[cfg(test)]
mod tests {
    use super::{Need, SquareText};

    /// The reading of a FEN's squares as text, before it was read as bytes.
    fn by_text(fen: &str) -> Need {
        let mut need = Need::default();
        for tok in fen.split(|c: char| !c.is_ascii_alphanumeric()) {
            let t = tok.trim_start_matches(['W', 'B', 'K']);
            if let Ok(n) = t.parse::<u32>() {
                need.see_all(&[SquareText::Num(n.min(999) as u16)]);
            } else if let [f @ b'a'..=b'z', rank @ ..] = t.as_bytes() {
                if let Ok(r) = std::str::from_utf8(rank).unwrap_or("").parse::<u8>() {
                    need.see_all(&[SquareText::Alg {
                        file: f - b'a',
                        rank: r,
                    }]);
                }
            }
        }
        need
    }

    /// Reading a FEN's squares as bytes gives what reading them as text
    /// gave, on FENs of every board and on their mutations.
    #[test]
    fn a_fen_read_as_bytes_needs_the_board_read_as_text() {
        let fens = [
            "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
            "B:W31-50:B1-20",
            "W:WK46,K47:BK5.",
            "W:Wa1,c1,e1,g1:Bb8,d8,f8,h8",
            "W:WKd4,h2:Bl12",
            "B:W72,60:B1",
            "W:W4294967295,4294967296:B256,a255,a256,z0",
            "W:W0012:Bb007 Gd4 \u{43a}33 é51",
            "",
            "W:W:B",
        ];
        let mut cases = Vec::new();
        for fen in fens {
            cases.push(fen.to_string());
            for at in (0..=fen.len()).filter(|&i| fen.is_char_boundary(i)) {
                for insert in ["9", "K", "x", "W", "0", "99", ":", "b"] {
                    let mut m = fen.to_string();
                    m.insert_str(at, insert);
                    cases.push(m);
                }
            }
        }
        for fen in &cases {
            let mut bytes = Need::default();
            bytes.see_fen(fen.as_bytes());
            let text = by_text(fen);
            assert_eq!(
                (bytes.numbered, bytes.board()),
                (text.numbered, text.board()),
                "{fen:?}"
            );
        }
    }
}
