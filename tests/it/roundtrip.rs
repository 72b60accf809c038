//! PDN writer round trip: read, write, read again gives the same tags, moves,
//! comments, variations and result.
use crate::common;

use pdnkit::pdn::write::{write_game, ResultStyle, WriteOptions};
use pdnkit::pdn::{read_all, Game, Node, Outcome, Sep, SquareText};
use proptest::prelude::*;

#[derive(Debug, PartialEq)]
enum N {
    Move(Vec<SquareText>, Sep),
    Comment(String),
    Nag(u32),
    Open,
    Close,
    Setup(String),
    Unknown,
    Escape(String),
}

fn shape(g: &Game) -> (Vec<(String, String)>, Vec<N>, Option<Outcome>) {
    // The Result tag is written in the chosen family, so compare it normalised.
    let mut tags: Vec<(String, String)> = g
        .tags()
        .iter()
        .map(|t| {
            let v = g.tag_value(t);
            let v = if g.tag_name(t) == "Result" {
                Outcome::parse(&v).map_or(v, |o| o.normalised().to_string())
            } else {
                v
            };
            (g.tag_name(t).to_string(), v)
        })
        .collect();
    tags.sort();
    let nodes = g
        .nodes()
        .iter()
        .map(|n| match n {
            Node::Move(m) => N::Move(
                g.squares(m).to_vec(),
                if m.sep() == Sep::Mixed {
                    Sep::Capture
                } else {
                    m.sep()
                },
            ),
            Node::Comment(s) => N::Comment(g.decode(s).trim().to_string()),
            Node::Nag(v, _) => N::Nag(*v),
            Node::Open(_) => N::Open,
            Node::Close(_) => N::Close,
            Node::Setup(s) => N::Setup(g.decode(s).into_owned()),
            Node::Unknown(_) => N::Unknown,
            Node::Escape(s) => N::Escape(g.decode(s).trim_end().to_string()),
            other => panic!("a node kind this test does not know: {other:?}"),
        })
        .collect();
    let result = g
        .result()
        .as_ref()
        .map(|r| r.0)
        .or_else(|| g.tag("Result").and_then(|v| Outcome::parse(&v)));
    (tags, nodes, result)
}

fn round_trip(bytes: &[u8], what: &str) -> usize {
    let games = read_all(bytes);
    let mut out = String::new();
    for g in &games {
        out.push_str(&write_game(
            g,
            WriteOptions {
                results: ResultStyle::Draughts,
                first: None,
                variant: None,
                keep_results: false,
            },
        ));
    }
    let again = read_all(out.as_bytes());
    assert_eq!(games.len(), again.len(), "{what}: game count changed");
    for (a, b) in games.iter().zip(&again) {
        let (sa, sb) = (shape(a), shape(b));
        // Games whose comments were damaged beyond repair (unbalanced braces) compare without comments.
        assert_eq!(sa.0, sb.0, "{what} game {}: tags", a.index());
        assert_eq!(
            sa.2.unwrap_or(Outcome::Unknown),
            sb.2.unwrap_or(Outcome::Unknown),
            "{what} game {}: result",
            a.index()
        );
        let moves = |n: &Vec<N>| n.iter().filter(|x| !matches!(x, N::Comment(_))).count();
        assert_eq!(moves(&sa.1), moves(&sb.1), "{what} game {}", a.index());
        assert_eq!(
            sa.1.iter()
                .filter(|x| !matches!(x, N::Comment(_)))
                .collect::<Vec<_>>(),
            sb.1.iter()
                .filter(|x| !matches!(x, N::Comment(_)))
                .collect::<Vec<_>>(),
            "{what} game {}: moves and variations",
            a.index()
        );
        let comments = |n: &Vec<N>| n.iter().filter(|x| matches!(x, N::Comment(_))).count();
        assert_eq!(
            comments(&sa.1),
            comments(&sb.1),
            "{what} game {}: comments",
            a.index()
        );
        for (x, y) in sa.1.iter().zip(&sb.1) {
            if let (N::Comment(c), N::Comment(d)) = (x, y) {
                let balanced = c.matches('{').count() == c.matches('}').count();
                if balanced {
                    assert_eq!(c, d, "{what} game {}: comment", a.index());
                }
            }
        }
        // Writing is stable: the second writing equals the first.
        assert_eq!(
            write_game(b, WriteOptions::default()),
            write_game(a, WriteOptions::default())
        );
    }
    games.len()
}

#[test]
fn every_real_and_conformance_file_round_trips() {
    let mut roots = Vec::new();
    roots.extend(common::shared("corpus/real"));
    roots.extend(common::shared("conformance/games"));
    roots.push(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus"));
    let mut games = 0;
    let mut files = 0;
    for root in roots {
        for e in walkdir::WalkDir::new(&root)
            .into_iter()
            .filter_map(Result::ok)
        {
            if e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "pdn") {
                let bytes = std::fs::read(e.path()).unwrap();
                games += round_trip(&bytes, &e.path().display().to_string());
                files += 1;
            }
        }
    }
    eprintln!("{files} files, {games} games round-tripped");
}

fn arb_game() -> impl Strategy<Value = String> {
    let tag = (
        "[A-Z][a-z]{0,6}",
        "[ -~&&[^\"\\\\]]{0,12}|[a-z\"\\\\ ]{0,8}",
    )
        .prop_map(|(n, v)| {
            let v = v.replace('\\', "\\\\").replace('"', "\\\"");
            format!("[{n} \"{v}\"]\n")
        });
    let mv = (1u32..=50, 1u32..=50, prop::bool::ANY)
        .prop_map(|(a, b, x)| format!("{a}{}{b}", if x { "x" } else { "-" }));
    let item = prop_oneof![
        4 => mv,
        1 => "[a-z ]{0,10}".prop_map(|c| format!("{{{c}}}")),
        1 => (1u32..300).prop_map(|n| format!("${n}")),
    ];
    let body = prop::collection::vec((item, 0u8..8), 0..30).prop_map(|items| {
        let mut s = String::new();
        let mut depth = 0;
        for (it, r) in items {
            if r == 0 {
                s.push_str("( ");
                depth += 1;
            } else if r == 1 && depth > 0 {
                s.push_str(") ");
                depth -= 1;
            }
            s.push_str(&it);
            s.push(' ');
        }
        for _ in 0..depth {
            s.push_str(") ");
        }
        s
    });
    let result = prop_oneof![
        Just("2-0"),
        Just("0-2"),
        Just("1-1"),
        Just("1-0"),
        Just("1/2-1/2"),
        Just("*"),
        Just("0-0")
    ];
    (prop::collection::vec(tag, 0..5), body, result)
        .prop_map(|(tags, body, r)| format!("{}{body}{r}\n", tags.concat()))
}

proptest! {
    #[test]
    fn random_games_round_trip(text in arb_game()) {
        round_trip(text.as_bytes(), &text);
    }
}

/// Checks `bytes` as one file, writes every game as normalised PDN (with
/// `fix` results fixed), checks the output as one file, and compares each
/// game's meaning. Games the reader could not read whole (reader errors) are
/// not rewritten by --in-place and are left out. Returns the games compared.
fn meaning_kept(bytes: &[u8], what: &str, fix: bool) -> usize {
    use crate::checks::Meaning;
    use pdnkit::check::check_file;
    use pdnkit::export::Normalise;
    use pdnkit::replay::Options;
    let opts = Options::default().keep_moves(true);
    let before = check_file(bytes, &opts).games;
    let mut out = String::new();
    for c in &before {
        out.push_str(
            &Normalise {
                fix_results: fix,
                ..Normalise::default()
            }
            .apply(&c.game, &c.report)
            .text,
        );
    }
    let after = check_file(out.as_bytes(), &opts).games;
    assert_eq!(before.len(), after.len(), "{what}: game count");
    let mut compared = 0;
    for (a, b) in before.iter().zip(&after) {
        if pdnkit::export::Normalise::rewritable(&a.game).is_err() {
            continue;
        }
        let (mut ma, mut mb) = (
            Meaning::of(&a.game, &a.report),
            Meaning::of(&b.game, &b.report),
        );
        if a.report.turned {
            // Read turned (PDN-REAL-WORLD.md 8.2) and written upright: its
            // FEN names the same position from the other side.
            assert_eq!(a.report.start, b.report.start, "{what}: the position");
            for m in [&mut ma, &mut mb] {
                m.tags.retain(|(n, _)| !n.eq_ignore_ascii_case("FEN"));
            }
        }
        if fix {
            // Only the results may change, and the tag and the token agree.
            assert_eq!(
                (&ma.moves, &ma.variations, &ma.comments),
                (&mb.moves, &mb.variations, &mb.comments),
                "{what} game {}",
                a.game.index()
            );
            assert!(
                !b.report
                    .diagnostics
                    .iter()
                    .any(|d| d.code == pdnkit::diag::Code::ResultConflict),
                "{what} game {}: result-conflict left after --fix-results",
                a.game.index()
            );
        } else {
            assert_eq!(ma, mb, "{what} game {}", a.game.index());
        }
        compared += 1;
    }
    compared
}

#[test]
fn normalised_pdn_keeps_every_games_meaning() {
    let mut roots = Vec::new();
    roots.extend(common::shared("corpus/real"));
    roots.push(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus"));
    roots.push(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data"));
    let mut games = 0;
    for root in roots {
        for e in walkdir::WalkDir::new(&root)
            .sort_by_file_name()
            .into_iter()
            .filter_map(Result::ok)
        {
            if e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "pdn") {
                let bytes = std::fs::read(e.path()).unwrap();
                let what = e.path().display().to_string();
                games += meaning_kept(&bytes, &what, false);
                meaning_kept(&bytes, &what, true);
            }
        }
    }
    assert!(games > 150, "{games} games compared");
}

#[test]
fn rewriting_keeps_the_cases_that_changed_meaning() {
    // Each of these was written with another meaning before.
    for text in [
        // A variation numbered for the move it replaces (Black's), written before it.
        "[GameType \"20\"]\n1. 32-28 (1... 19-23) 1... 18-23 2. 28x19 14x23 *\n",
        // A variation that names a later move, and one that names none.
        "[GameType \"20\"]\n1. 32-28 18-23 (9. 34-29 19-24) 2. 37-32 (19-24) 12-18 *\n",
        // Numbers continuing from the record's own first number.
        "[GameType \"20\"]\n[FEN \"W:W32,37:B2,12\"]\n30. 32-28 2-7 31. 28-22 *\n",
        // A `;` comment with braces, a `%` line before the tags.
        "% escaped\n[GameType \"20\"]\n1. 32-28 ; score {+1} or }\n19-23 *\n",
        // No result written, and the game ended by rule (found by the fuzz
        // target): written with `*`, which says the same.
        "[GameType \"20\"]\n[FEN \"W:W28:B23\"]\n1. 28x19\n",
        // A written capture path (a Black man's, backwards upright: the
        // file is read turned, issue 66, and written upright).
        "[GameType \"21\"]\n[FEN \"B:W6,14,15,23:B26\"]\n1. 26x19x10x1 *\n",
        // The same path upright.
        "[GameType \"21\"]\n[FEN \"B:W27,19,18,10:B7\"]\n1. 7x14x23x32 *\n",
    ] {
        assert!(meaning_kept(text.as_bytes(), text, false) > 0, "{text}");
    }
}
