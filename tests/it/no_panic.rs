//! Nothing panics on any input: random bytes, PDN-like token soup, and real files
//! cut and spliced at random places, read and replayed under every variant and
//! both rule sets; FENs likewise.
use crate::common;

use pdnkit::check::check_game;
use pdnkit::draw::DrawRules;
use pdnkit::pdn::read_all;
use pdnkit::position::Position;
use pdnkit::replay::Options;
use pdnkit::variant::Variant;
use proptest::prelude::*;

fn check_everything(bytes: &[u8]) {
    for g in read_all(bytes) {
        for variant in [
            None,
            Some(Variant::Brazilian),
            Some(Variant::International),
            Some(Variant::Canadian),
            Some(Variant::Russian),
            Some(Variant::English),
            Some(Variant::Turkish),
            Some(Variant::Breakthrough),
        ] {
            for rules in [DrawRules::Cbjd, DrawRules::Fmjd] {
                let r = check_game(
                    &g,
                    &Options::default()
                        .force_variant(variant)
                        .draw_rules(Some(rules))
                        .keep_moves(true),
                );
                let mut loc = pdnkit::pdn::Locator::new(&g);
                for d in &r.diagnostics {
                    assert_eq!(loc.locate(d.span.start), g.location(d.span.start));
                    let _ = g.snippet(&d.span, 100);
                }
                let _ = pdnkit::pdn::write::write_game(&g, Default::default());
            }
        }
    }
}

fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        (1u32..80, 1u32..80).prop_map(|(a, b)| format!("{a}-{b} ")),
        (1u32..80, 1u32..80, 1u32..80).prop_map(|(a, b, c)| format!("{a}x{b}x{c} ")),
        "[a-m][0-9]{1,2}[-x:][a-m][0-9]{1,2} ",
        (1u32..60).prop_map(|n| format!("{n}. ")),
        (1u32..60).prop_map(|n| format!("{n}... ")),
        Just("{".to_string()),
        Just("}".to_string()),
        Just("(".to_string()),
        Just(")".to_string()),
        Just("[".to_string()),
        Just("]".to_string()),
        Just("\"".to_string()),
        Just("\\".to_string()),
        Just("\\r".to_string()),
        Just("\r".to_string()),
        Just("\n".to_string()),
        Just("/".to_string()),
        Just("$".to_string()),
        Just("%".to_string()),
        Just(";".to_string()),
        Just("*".to_string()),
        Just("- ".to_string()),
        Just(". ".to_string()),
        Just("1-1".to_string()),
        Just("1/2-1/2 ".to_string()),
        Just("2-0 ".to_string()),
        Just("!?".to_string()),
        Just("[FEN \"W:W31-50:B1-20\"]\n".to_string()),
        Just("[FEN \"B:WK4,K7:BK2,5.\"]\n".to_string()),
        Just("[FEN \"W:W3:B\"]\n".to_string()),
        Just("[GameType \"26\"]\n".to_string()),
        Just("[GameType \"27,W,12,12,N2,0\"]\n".to_string()),
        Just("[GameType \"25\"]\n".to_string()),
        Just("[GameType \"30\"]\n".to_string()),
        Just("[GameType \"96\"]\n".to_string()),
        Just("[GameType \"20\"]\n[Variant \"Antidraughts\"]\n".to_string()),
        Just("[FEN \"W:Wa2,Kd4,h8:Bh7,Ka1\"]\n".to_string()),
        Just("=K ".to_string()),
        Just("[Result \"2-0\"]\n".to_string()),
        Just("[Event \"x\"]\n".to_string()),
        "[\\x00-\\xff]{1,3}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        check_everything(&bytes);
    }

    #[test]
    fn token_soup(tokens in prop::collection::vec(token(), 0..60)) {
        check_everything(tokens.concat().as_bytes());
    }

    #[test]
    fn fens(text in "[WBwb?:K0-9a-i,. \\-HF]{0,40}") {
        for v in Variant::ALL {
            if let Ok(p) = Position::from_fen(&text, v) {
                let _ = p.legal_moves();
                prop_assert_eq!(Position::from_fen(&p.to_fen(), v).ok(), Some(p));
            }
        }
    }
}

/// Real files cut and spliced at pseudo-random byte offsets.
#[test]
fn spliced_real_files() {
    let Some(root) = common::shared("corpus/real") else {
        return;
    };
    let mut files: Vec<Vec<u8>> = walkdir::WalkDir::new(root)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "pdn"))
        .map(|e| std::fs::read(e.path()).unwrap())
        .collect();
    files.sort();
    let mut seed = 0x1234_5678_9abc_def0u64;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n.max(1) as u64) as usize
    };
    for _ in 0..300 {
        let a = &files[next(files.len())];
        let b = &files[next(files.len())];
        let (i, j) = (next(a.len()), next(b.len()));
        let len = next(3000);
        let mut spliced = a[i..(i + len).min(a.len())].to_vec();
        spliced.extend_from_slice(&b[j..(j + len).min(b.len())]);
        check_everything(&spliced);
    }
}
