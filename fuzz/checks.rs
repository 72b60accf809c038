//! What each fuzz target checks, one function per target, shared by the
//! targets (`fuzz_targets/*.rs`) and by `tests/it/fuzz_corpus.rs`, which replays
//! the corpora kept in `fuzz/corpus/` on every `cargo test`.
#![allow(dead_code)]

use pdnkit::check::{check_file, check_game};
use pdnkit::draw::DrawRules;
use pdnkit::export::{rewritable, Meaning, Normalise};
use pdnkit::pdn::{read_all, Locator, Reader};
use pdnkit::position::Position;
use pdnkit::replay::Options;
use pdnkit::variant::Variant;
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
    if before.iter().any(|c| rewritable(&c.game).is_err()) {
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
