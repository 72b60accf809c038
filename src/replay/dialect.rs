//! Producers' dialects (PDN-REAL-WORLD.md section 8, docs/dialect.md): what
//! a file's games show of a convention of their producer, said once per
//! file and dialect in a `dialect` warning. The reading itself is the
//! replay's (a capture written one jump per token is joined in
//! `main_line`); this counts what was read and what only the file's
//! games together show (English results in chess order, a private set-up
//! tag).

use crate::diag::{Code, FileDiagnostic, Severity};
use crate::pdn::{Game, Outcome};
use crate::replay::report::GameReport;
use std::collections::BTreeSet;

/// What a file's games show of their producers' dialects.
#[derive(Clone, Debug, Default)]
pub(crate) struct Dialects {
    /// Captures written one jump per token and joined, the games with one,
    /// and where the first such game starts.
    joined: (u32, u32, Option<(u32, u32)>),
    /// English games decided on the board with a decisive declared result:
    /// those declaring the other side's win, those declaring the winner,
    /// and where the first of the first kind starts.
    reversed: (u32, u32, Option<(u32, u32)>),
    /// Private set-up tags of games with no FEN.
    private: Private,
}

/// Private set-up tags (by name) of games with no FEN, the side-to-move
/// tags beside them, the games, and where the first starts.
type Private = (BTreeSet<String>, BTreeSet<String>, u32, Option<(u32, u32)>);

/// Private tag names a warning names at most.
const NAMES_KEPT: usize = 8;

/// Tags that give the side to move beside a private set-up tag.
const SIDE_TAGS: [&str; 3] = ["Turn", "ToMove", "SideToMove"];

impl Dialects {
    /// Counts one game and its report.
    pub(crate) fn add(&mut self, g: &Game, r: &GameReport) {
        let at = || (g.start_line(), 1);
        if r.joined > 0 {
            self.joined.0 += r.joined;
            self.joined.1 += 1;
            self.joined.2.get_or_insert_with(at);
        }
        let decisive =
            |o: Option<Outcome>| matches!(o, Some(Outcome::WhiteWins | Outcome::BlackWins));
        if r.checked
            && r.variant.is_some_and(|v| v.first_player_scores_first())
            && decisive(Some(r.computed))
            && decisive(r.declared)
        {
            if r.declared == Some(r.computed) {
                self.reversed.1 += 1;
            } else {
                self.reversed.0 += 1;
                self.reversed.2.get_or_insert_with(at);
            }
        }
        self.private_tags(g);
    }

    /// PDN-REAL-WORLD.md 8.4: a game with no FEN whose position-like tag
    /// holds squares next to a colour letter.
    fn private_tags(&mut self, g: &Game) {
        // Cheap for the usual tags: a name is looked at byte by byte once,
        // and the FEN tag only looked for when a name sounds like a set-up.
        let tags = g.tags();
        let text = &g.text[..];
        if !tags
            .iter()
            .any(|t| private_setup_name(crate::pdn::tag_name_bytes(text, t)))
            || g.find_tag("FEN").is_some()
        {
            return;
        }
        let mut found = false;
        for t in tags {
            let name = g.tag_name(t);
            if private_setup_name(name.as_bytes()) && squares_by_colour(&g.tag_text(t)) {
                found = true;
                // A few names are enough to say it: a hostile file of
                // endless distinct names does not grow the tally.
                if self.private.0.len() < NAMES_KEPT {
                    self.private.0.insert(name.to_string());
                }
            }
        }
        if found {
            for t in tags {
                let name = g.tag_name(t);
                if SIDE_TAGS.iter().any(|s| s.eq_ignore_ascii_case(name))
                    && self.private.1.len() < NAMES_KEPT
                {
                    self.private.1.insert(name.to_string());
                }
            }
            self.private.2 += 1;
            self.private.3.get_or_insert((g.start_line(), 1));
        }
    }

    /// The `dialect` warnings of the file, in line order; `replayed`: the
    /// games were replayed (not `--syntax-only`, which shows only 8.4);
    /// `turned`: the file was read turned (8.2), with its counts.
    pub(crate) fn findings(
        &self,
        replayed: bool,
        turned: Option<(u32, u32)>,
    ) -> Vec<FileDiagnostic> {
        let mut out = Vec::new();
        let warn = |message: String, (line, column): (u32, u32)| FileDiagnostic {
            code: Code::Dialect,
            severity: Severity::Warning,
            message,
            line,
            column,
        };
        if let (true, Some((stopped, whole))) = (replayed, turned) {
            out.push(warn(
                format!(
                    "the file names its squares as seen from the other side (the board turned 180 degrees): {stopped} {} with moves {} at ply 1 read upright, and {whole} replay to the end read turned; every square of its moves and FENs is read turned, colours and results as written (PDN-REAL-WORLD.md 8.2; --strict-dialects reads them upright)",
                    if stopped == 1 { "game" } else { "games" },
                    if stopped == 1 { "stops" } else { "stop" },
                ),
                (1, 1),
            ));
        }
        let (captures, games, at) = self.joined;
        if let (true, Some(at)) = (replayed, at) {
            out.push(warn(
                format!(
                    "{captures} {} written one jump per token (`27x38 38x29` for `27x38x29`) read as one move each, in {games} {}: plies and move numbers count moves (PDN-REAL-WORLD.md 8.1; --strict-dialects reads every token as a move)",
                    if captures == 1 { "capture" } else { "captures" },
                    if games == 1 { "game" } else { "games" },
                ),
                at,
            ));
        }
        let (reversed, agreeing, at) = self.reversed;
        if let (true, 0, Some(at)) = (replayed, agreeing, at) {
            out.push(warn(
                format!(
                    "{} of the English games decided on the board {} the other side's win: the file may write White's score first (chess order), where English PDN gives the first player's (Black's); the results are kept as written and each keeps its result-mismatch (PDN-REAL-WORLD.md 8.3; -W result-mismatch demotes them, --fix-results writes the board's)",
                    if reversed == 1 { "the one".to_string() } else { format!("all {reversed}") },
                    if reversed == 1 { "declares" } else { "declare" },
                ),
                at,
            ));
        }
        let (tags, side, games, at) = &self.private;
        if let Some(&at) = at.as_ref() {
            let list = |s: &BTreeSet<String>| {
                s.iter()
                    .map(|n| format!("[{n}]"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let beside = if side.is_empty() {
                String::new()
            } else {
                format!(", with {}", list(side))
            };
            out.push(warn(
                format!(
                    "{games} {} a start position in a private tag ({}{beside}) and no FEN: it is not applied, and {} read from the start position; write it as [Setup \"1\"] [FEN \"...\"] (PDN-REAL-WORLD.md 8.4)",
                    if *games == 1 { "game gives" } else { "games give" },
                    list(tags),
                    if *games == 1 { "it is" } else { "they are" },
                ),
                at,
            ));
        }
        out.sort_by_key(|d| (d.line, d.column));
        out
    }
}

/// A tag name that sounds like a set-up (`StartPosition`, `BoardPosition`,
/// `InitialFen`), other than the standard `Setup`/`SetUp` and `FEN`: one
/// pass over its bytes, each word compared only where its first letter is.
#[inline]
fn private_setup_name(name: &[u8]) -> bool {
    // Most names are the usual ones (PDN's and the servers' exports'):
    // told by their length and bytes.
    if name.len() < 3
        || matches!(
            name,
            b"Event"
                | b"Site"
                | b"Date"
                | b"Round"
                | b"White"
                | b"Black"
                | b"Result"
                | b"GameType"
                | b"FEN"
                | b"SetUp"
                | b"Setup"
                | b"WhiteElo"
                | b"BlackElo"
                | b"WhiteTime"
                | b"BlackTime"
                | b"WhiteRating"
                | b"BlackRating"
                | b"WhiteTitle"
                | b"BlackTitle"
                | b"WhiteUrl"
                | b"BlackUrl"
                | b"TimeControl"
                | b"PlyCount"
                | b"Annotator"
                | b"Opening"
                | b"Termination"
        )
    {
        return false;
    }
    // Every name of every game goes through here: first one pass that
    // looks for the words' first three letters, lower-cased, as a number.
    const fn three(w: &[u8; 3]) -> u32 {
        (w[0] as u32) << 16 | (w[1] as u32) << 8 | w[2] as u32
    }
    const STARTS: [u32; 4] = [three(b"pos"), three(b"boa"), three(b"set"), three(b"fen")];
    let mut h = 0u32;
    let mut start = false;
    for &b in name {
        h = (h << 8 | u32::from(b | 0x20)) & 0xFF_FFFF;
        if h == STARTS[0] || h == STARTS[1] || h == STARTS[2] || h == STARTS[3] {
            start = true;
            break;
        }
    }
    if !start || name.eq_ignore_ascii_case(b"setup") || name.eq_ignore_ascii_case(b"fen") {
        return false;
    }
    let at = |i: usize, w: &[u8]| {
        name.get(i..i + w.len())
            .is_some_and(|s| s.eq_ignore_ascii_case(w))
    };
    (0..name.len()).any(|i| {
        ["position", "board", "setup", "set-up", "fen"]
            .iter()
            .any(|w| at(i, w.as_bytes()))
    })
}

/// Whether a value holds square numbers or names next to a colour letter
/// (`W:W28,33:B19`, `w 28 33 b 19`).
fn squares_by_colour(value: &str) -> bool {
    let b = value.as_bytes();
    b.iter().enumerate().any(|(i, &c)| {
        if !matches!(c, b'W' | b'B' | b'w' | b'b') {
            return false;
        }
        // The colour letter starts its own word.
        if i > 0 && b[i - 1].is_ascii_alphanumeric() {
            return false;
        }
        let mut j = i + 1;
        while j < b.len() && matches!(b[j], b':' | b' ' | b'=') {
            j += 1;
        }
        match b.get(j) {
            Some(d) if d.is_ascii_digit() => true,
            Some(f) if (b'a'..=b'h').contains(&f.to_ascii_lowercase()) => {
                b.get(j + 1).is_some_and(u8::is_ascii_digit)
            }
            Some(b'K') => b.get(j + 1).is_some_and(u8::is_ascii_digit),
            _ => false,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_set_up_tags_are_told_by_name_and_value() {
        assert!(private_setup_name(b"StartPosition"));
        assert!(private_setup_name(b"BoardPosition"));
        assert!(private_setup_name(b"InitialFEN"));
        assert!(private_setup_name(b"Set-Up-Board"));
        assert!(!private_setup_name(b"SetUp"));
        assert!(!private_setup_name(b"FEN"));
        assert!(!private_setup_name(b"Event"));
        assert!(!private_setup_name(b"Site"));
        assert!(squares_by_colour("W:W28,33:B19"));
        assert!(squares_by_colour("w 28 33 b 19"));
        assert!(squares_by_colour("B:Wc3,e3"));
        assert!(!squares_by_colour("White to move"));
        assert!(!squares_by_colour("Board 3"));
        assert!(!squares_by_colour(""));
    }
}
