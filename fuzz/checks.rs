//! What each fuzz target checks, one function per target, shared by the
//! targets (`fuzz_targets/*.rs`) and by `tests/it/fuzz_corpus.rs`, which replays
//! the corpora kept in `fuzz/corpus/` on every `cargo test`.
#![allow(dead_code)]

use pdnkit::check::{check_file, check_game};
use pdnkit::diag::Severity;
use pdnkit::draw::DrawRules;
use pdnkit::export::Normalise;
use pdnkit::pdn::Outcome;
use pdnkit::pdn::{read_all, Locator, Reader};
use pdnkit::position::Position;
use pdnkit::replay::Options;
use pdnkit::variant::Variant;
use pdnkit::{Color, Game, GameReport};
use std::io::Read;

/// Hands out the input a few bytes at a time.
struct Trickle<'a>(&'a [u8], usize);

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.0.len().min(buf.len()).min(self.1);
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

const FENS: [&str; 4] = [
    "",
    "W:WK18,K22,K25,K28,K30:BK2,K6,K8,K11,K14,K20,K21,K26,K31,K32",
    "B:WK4,K7,9,K10,K15,17,19:BK2,K5,20,24,25",
    "W:W10,K15,K21,K32:B6,14,23,K28,K31",
];

/// Any bytes through the streaming reader, in small reads and with a small
/// game limit: never a panic, games numbered in order, every finding placed.
pub fn reader(data: &[u8]) {
    let step = 1 + usize::from(data.first().copied().unwrap_or(0) % 7);
    let mut r = Reader::new(Trickle(data, step)).max_game_bytes(512);
    let mut index = 0;
    while let Ok(Some(g)) = r.next_game() {
        index += 1;
        assert_eq!(g.index(), index);
        let mut loc = Locator::new(&g);
        for d in g.diagnostics() {
            let _ = loc.locate(d.span.start);
            let _ = g.snippet(&d.span, 40);
        }
        for t in g.tags() {
            let _ = g.tag_value(t);
        }
    }
}

/// Any bytes: read every game, replay it under every variant and rule set,
/// locate and show every finding.
pub fn read_and_check(data: &[u8]) {
    for g in read_all(data) {
        let variants = std::iter::once(None).chain(Variant::ALL.into_iter().map(Some));
        for variant in variants {
            for rules in [DrawRules::Cbjd, DrawRules::Fmjd] {
                let opts = Options::default()
                    .force_variant(variant)
                    .draw_rules(Some(rules))
                    .keep_moves(true);
                let r = check_game(&g, &opts);
                let mut loc = Locator::new(&g);
                for d in &r.diagnostics {
                    assert_eq!(loc.locate(d.span.start), g.location(d.span.start));
                    let _ = g.snippet(&d.span, 60);
                }
            }
        }
    }
}

/// Any text as a FEN for every variant: read, and when it is a position,
/// written and read back to the same position.
pub fn fen(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for v in Variant::ALL {
        match Position::from_fen(text, v) {
            Ok(p) => {
                let again = Position::from_fen(&p.to_fen(), v).expect("a written FEN reads back");
                assert_eq!(again, p);
                let _ = p.legal_moves();
            }
            Err(e) => assert!(e.offset() <= text.len()),
        }
    }
}

/// Any text as the moves of a game from a set of positions (start positions
/// and crowded ones), under every variant: read, resolved, replayed.
pub fn written_move(data: &[u8]) {
    let Some((&pick, text)) = data.split_first() else {
        return;
    };
    let v = Variant::ALL[usize::from(pick) % Variant::ALL.len()];
    let fen = FENS[usize::from(pick / 8) % FENS.len()];
    let mut game = format!("[GameType \"{}\"]\n", v.game_type()).into_bytes();
    if !fen.is_empty() && v.board().n() == 8 {
        game.extend_from_slice(format!("[FEN \"{fen}\"]\n").as_bytes());
    }
    game.extend_from_slice(b"\n1. ");
    game.extend_from_slice(text);
    for g in read_all(&game) {
        let _ = check_game(&g, &Options::default().keep_moves(true));
    }
}

/// What `convert --to pdn` writes reads back as the same games with the same
/// meaning (`export::Meaning`): tags, the moves played, each variation's
/// anchor and squares, comments, NAGs, setups, `%` lines, the verdict and the
/// findings; with `--fix-results`, the same moves and no result-conflict.
pub fn pdn_roundtrip(data: &[u8]) {
    let opts = Options::default().keep_moves(true);
    let checked = check_file(data, &opts);
    let Some(before) = checked.error.is_none().then_some(checked.games) else {
        return;
    };
    // Text the reader could not read whole (a syntax error, an unterminated
    // comment) can merge or split games when written: --in-place refuses such
    // files, and the promise is for files read whole.
    if before
        .iter()
        .any(|c| Normalise::rewritable(&c.game).is_err())
    {
        for c in &before {
            let _ = Normalise::default().apply(&c.game, &c.report);
        }
        return;
    }
    for fix_results in [false, true] {
        let text: String = before
            .iter()
            .map(|c| {
                Normalise {
                    fix_results,
                    ..Normalise::default()
                }
                .apply(&c.game, &c.report)
                .text
            })
            .collect();
        let checked = check_file(text.as_bytes(), &opts);
        let Some(after) = checked.error.is_none().then_some(checked.games) else {
            panic!("the output reads back");
        };
        assert_eq!(before.len(), after.len(), "game count");
        for (a, b) in before.iter().zip(&after) {
            let (ma, mb) = (
                Meaning::of(&a.game, &a.report),
                Meaning::of(&b.game, &b.report),
            );
            if fix_results {
                assert_eq!(ma.moves, mb.moves, "moves");
                assert!(!b
                    .report
                    .diagnostics
                    .iter()
                    .any(|d| d.code == pdnkit::diag::Code::ResultConflict));
            } else {
                assert_eq!(ma, mb, "meaning");
            }
        }
    }
}

/// What a record says, as far as a rewriting must keep it: compare the
/// `Meaning` of a game read from a file with that of the same game read
/// back from its normalised PDN (`Normalise::apply`). The round-trip
/// tests' and the `pdn_roundtrip` fuzz target's oracle.
///
/// It holds the tags (sorted; the Result tag by the outcome it names), the
/// moves the main line plays, each variation of the main line with the main
/// move it replaces (by the reader's rule: its first move's number, else the
/// main move before it) and its squares as written, the comments (and whether
/// each is a `;` comment), NAGs, setups and `%` lines, the verdict, and the
/// findings that are not about how the record was written (notation, tolerated
/// syntax, encoding and a missing result go when a record is normalised).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Meaning {
    /// Tag name and value, sorted.
    pub tags: Vec<(String, String)>,
    /// The moves the main line plays, in order.
    pub moves: Vec<pdnkit::Move>,
    /// Plies read, and plies not checked after the first move error.
    pub plies: (u32, u32),
    /// Per variation of the main line: the main-line index of the move it
    /// replaces (`None`: anchored nowhere), and the squares of its moves.
    pub variations: Vec<(Option<usize>, Vec<Vec<pdnkit::pdn::SquareText>>)>,
    /// Comments: whether a `;` comment, and the text.
    pub comments: Vec<(bool, String)>,
    /// NAGs, setups and `%` lines, in order.
    pub nags: Vec<u32>,
    /// `/FEN/` setups.
    pub setups: Vec<String>,
    /// `%` escape lines.
    pub escapes: Vec<String>,
    /// Checked, verdict, declared result (no result at all counts as `*`),
    /// computed result, termination.
    pub verdict: (bool, Option<bool>, Outcome, Outcome, &'static str),
    /// Findings (code, severity, ply) that do not depend on how the record is written.
    pub findings: Vec<(pdnkit::diag::Code, Severity, Option<u32>)>,
}

impl Meaning {
    /// The meaning of a game and its report.
    pub fn of(g: &Game, r: &GameReport) -> Meaning {
        use pdnkit::diag::Code;
        use pdnkit::pdn::Node;
        let v = r.variant;
        let mut tags: Vec<(String, String)> = g
            .tags()
            .iter()
            .map(|t| {
                let value = g.tag_value(t);
                let value = if g.tag_name(t).eq_ignore_ascii_case("Result") {
                    Outcome::parse_for(&value, v).map_or(value, |o| o.normalised().to_string())
                } else {
                    value
                };
                (g.tag_name(t).to_string(), value)
            })
            .collect();
        tags.sort();
        // The reader's anchor for variations: the first main move's label,
        // else Black's first ply when Black starts.
        let main: Vec<_> = g.main_line().collect();
        let anchor = main.first().and_then(|m| m.numbered_ply()).map_or(
            u32::from(r.start.is_some_and(|p| p.side() == Color::Black)),
            |l| l,
        ) as usize;
        let mut variations = Vec::new();
        let mut comments = Vec::new();
        let (mut nags, mut setups, mut escapes) = (Vec::new(), Vec::new(), Vec::new());
        let mut depth = 0usize;
        let mut main_count = 0usize;
        let mut fresh = false;
        for n in g.nodes() {
            match n {
                Node::Open(_) => {
                    if depth == 0 {
                        variations.push((main_count.checked_sub(1), Vec::new()));
                        fresh = true;
                    }
                    depth += 1;
                }
                Node::Close(_) => depth = depth.saturating_sub(1),
                Node::Move(_) if depth == 0 => main_count += 1,
                Node::Unknown(_) if depth == 0 => main_count += 1,
                Node::Move(m) => {
                    if let Some((at, squares)) = variations.last_mut() {
                        if std::mem::take(&mut fresh) {
                            if let Some(k) = m
                                .numbered_ply()
                                .and_then(|l| (l as usize).checked_sub(anchor))
                                .filter(|&k| k <= r.plies as usize)
                            {
                                *at = Some(k);
                            }
                        }
                        squares.push(g.squares(m).to_vec());
                    }
                }
                Node::Comment(s) => comments.push((
                    s.start > 0 && g.text().get(s.start - 1) == Some(&b';'),
                    g.decode(s).trim().to_string(),
                )),
                Node::Nag(n, _) => nags.push(*n),
                Node::Setup(s) => setups.push(g.decode(s).into_owned()),
                Node::Escape(s) => escapes.push(g.decode(s).trim_end().to_string()),
                _ => {}
            }
        }
        let findings = r
            .diagnostics
            .iter()
            .filter(|d| {
                let how_written = matches!(
                    d.code,
                    Code::Notation
                        | Code::Nonstandard
                        | Code::Encoding
                        | Code::BadTag
                        | Code::MissingResult
                        | Code::VariantInferred
                );
                // A resolved ambiguity is written in full when normalised.
                let resolved = d.code == Code::AmbiguousCapture && d.severity != Severity::Error;
                // No result written and `*` say the same (a normalised record
                // ends with `*`); only `*` draws the warning that the game ended.
                let unknown = d.code == Code::ResultMismatch
                    && d.severity != Severity::Error
                    && r.declared.is_none_or(|o| o == Outcome::Unknown);
                !how_written && !resolved && !unknown
            })
            .map(|d| (d.code, d.severity, d.ply))
            .collect();
        Meaning {
            tags,
            moves: r.played.iter().map(|p| p.mv).collect(),
            plies: (r.plies, r.plies_unchecked),
            variations,
            comments,
            nags,
            setups,
            escapes,
            verdict: (
                r.checked,
                r.verdict(),
                r.declared.unwrap_or(Outcome::Unknown),
                r.computed,
                r.termination.name(),
            ),
            findings,
        }
    }
}
