//! The rules engine against ../shared/conformance (perft.jsonl, positions.jsonl).
use crate::common;

use pdnkit::board::Square;
use pdnkit::position::Position;

use pdnkit::variant::Variant;

fn variant(v: &serde_json::Value) -> Variant {
    v["variant"].as_str().unwrap().parse().unwrap()
}

#[test]
fn every_position_has_exactly_the_listed_moves() {
    positions("conformance/positions.jsonl", 600);
}

#[test]
fn every_russian_and_english_position_has_exactly_the_listed_moves() {
    positions("conformance/russian-english/positions.jsonl", 200);
}

/// Italian and Czech (RULES.md section 7): every position and every perft
/// entry of up to 2,000,000 leaves of ../shared/conformance/italian-czech,
/// counted per variant so that neither is missed silently.
#[test]
fn every_italian_and_czech_position_and_perft_entry_agrees() {
    let Some(dir) = common::shared("conformance/italian-czech") else {
        return;
    };
    for v in ["italian", "czech"] {
        let only = |c: &serde_json::Value| c["variant"] == v;
        let n = positions_where(&dir.join("positions.jsonl"), 100, only);
        assert_eq!(n, 100, "{v} positions");
        let n = perft_where(&dir.join("perft.jsonl"), 2_000_000, only);
        assert!(n >= 10, "{n} {v} perft entries");
    }
}

/// Frisian and Frysk! (RULES.md section 10): every position of
/// ../shared/conformance/frisian and every perft entry of up to 2,000,000
/// leaves, counted per variant.
#[test]
fn every_frisian_and_frysk_position_and_perft_entry_agrees() {
    let Some(dir) = common::shared("conformance/frisian") else {
        return;
    };
    for (v, at_least) in [("frisian", 129), ("frysk", 99)] {
        let only = |c: &serde_json::Value| c["variant"] == v;
        let n = positions_where(&dir.join("positions.jsonl"), at_least, only);
        assert_eq!(n, at_least, "{v} positions");
        let n = perft_where(&dir.join("perft.jsonl"), 2_000_000, only);
        assert!(n >= 40, "{n} {v} perft entries");
    }
}

/// The subset vendored in tests/data: runs on every clone.
#[test]
fn vendored_positions_and_perft() {
    let data = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    positions_in(&data.join("positions.jsonl"), 280);
    let n = perft_in(&data.join("perft.jsonl"), u64::MAX);
    assert!(n >= 120, "{n} perft entries");
    positions_in(&data.join("frisian/positions.jsonl"), 228);
    let n = perft_in(&data.join("frisian/perft.jsonl"), u64::MAX);
    assert!(n >= 130, "{n} Frisian perft entries");
}

/// Antidraughts and breakthrough (RULES.md 13): their moves are
/// international's, and each position's status (over or not, how, and the
/// result) is the variant's own, read by `check` from a game of no moves.
#[test]
fn antidraughts_and_breakthrough_positions_and_their_ends() {
    let vendored = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/anti-breakthrough/positions.jsonl");
    let shared = common::shared("conformance/anti-breakthrough/positions.jsonl");
    for path in std::iter::once(vendored).chain(shared) {
        positions_in(&path, 182);
        let cases = common::jsonl(&path);
        let mut text = String::new();
        for c in &cases {
            let gt = if c["variant"] == "antidraughts" {
                98
            } else {
                96
            };
            text.push_str(&format!(
                "[GameType \"{gt}\"]\n[FEN \"{}\"]\n\n*\n\n",
                c["fen"].as_str().unwrap()
            ));
        }
        let dir = common::tempdir("anti-breakthrough-ends");
        let file = dir.join("ends.pdn");
        std::fs::write(&file, text).unwrap();
        let out = common::pdnkit(&["check", "--format", "json", file.to_str().unwrap()]);
        let games: Vec<serde_json::Value> = common::json_lines(&out)
            .into_iter()
            .filter(|v| v["type"] == "game")
            .collect();
        assert_eq!(games.len(), cases.len());
        let mut over = 0;
        for (c, g) in cases.iter().zip(&games) {
            let st = &c["status"];
            let want_term = st["termination"].as_str().unwrap_or("unfinished");
            assert_eq!(g["variant"], c["variant"], "{}", c["fen"]);
            assert_eq!(
                (g["termination"].as_str(), g["computed_result"].as_str()),
                (Some(want_term), st["result"].as_str()),
                "{} {}",
                c["variant"],
                c["fen"]
            );
            over += usize::from(st["over"] == true);
        }
        assert!(over >= 40, "{over} positions are game ends");
    }
}

fn positions(rel: &str, at_least: usize) {
    let Some(path) = common::shared(rel) else {
        return;
    };
    positions_in(&path, at_least);
}

fn positions_in(path: &std::path::Path, at_least: usize) {
    positions_where(path, at_least, |_| true);
}

/// Checks the positions `keep` accepts (at least `at_least`); how many.
fn positions_where(
    path: &std::path::Path,
    at_least: usize,
    keep: impl Fn(&serde_json::Value) -> bool,
) -> usize {
    let cases: Vec<serde_json::Value> = common::jsonl(path)
        .into_iter()
        .filter(|c| keep(c))
        .collect();
    assert!(cases.len() >= at_least);
    let mut failures = Vec::new();
    for case in &cases {
        let v = variant(case);
        let fen = case["fen"].as_str().unwrap();
        let pos = Position::from_fen(fen, v).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let mut want: Vec<(u64, u64, Vec<u64>)> = case["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["from"].as_u64().unwrap(),
                    m["to"].as_u64().unwrap(),
                    m["captured"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|c| c.as_u64().unwrap())
                        .collect(),
                )
            })
            .collect();
        want.sort();
        let moves = pos.legal_moves();
        let mut got: Vec<(u64, u64, Vec<u64>)> = moves
            .iter()
            .map(|m| {
                (
                    u64::from(m.from().number()),
                    u64::from(m.to().number()),
                    m.captured()
                        .squares()
                        .map(|s| u64::from(s.number()))
                        .collect(),
                )
            })
            .collect();
        got.sort();
        if got != want {
            failures.push(format!("{v} {fen}\n  want {want:?}\n  got  {got:?}"));
        }
        assert_eq!(case["count"].as_u64().unwrap() as usize, want.len());
        // The kept landing path of each move is a real path of that move.
        for m in &moves {
            let p = pos.landing_path(m);
            assert_eq!(p.first().copied(), Some(m.from()));
            assert_eq!(p.last().copied(), Some(m.to()));
            if m.is_capture() {
                assert_eq!(p.len() as u32, m.capture_count() + 1, "{fen}");
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} positions differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    cases.len()
}

fn run_perft(max_nodes: u64) {
    for rel in [
        "conformance/perft.jsonl",
        "conformance/russian-english/perft.jsonl",
    ] {
        run_perft_file(rel, max_nodes);
    }
    run_perft_file("conformance/italian-czech/perft.jsonl", max_nodes);
    run_perft_file("conformance/frisian/perft.jsonl", max_nodes);
    run_perft_file("conformance/turkish/perft.jsonl", max_nodes);
}

fn run_perft_file(rel: &str, max_nodes: u64) {
    let Some(path) = common::shared(rel) else {
        return;
    };
    let checked = perft_in(&path, max_nodes);
    eprintln!("perft: {checked} entries of {rel} matched");
}

/// Checks every entry of up to `max_nodes` leaves; the number checked.
fn perft_in(path: &std::path::Path, max_nodes: u64) -> usize {
    perft_where(path, max_nodes, |_| true)
}

/// [`perft_in`] of the entries `keep` accepts.
fn perft_where(
    path: &std::path::Path,
    max_nodes: u64,
    keep: impl Fn(&serde_json::Value) -> bool,
) -> usize {
    let mut checked = 0;
    for case in common::jsonl(path).into_iter().filter(|c| keep(c)) {
        let nodes = case["nodes"].as_u64().unwrap();
        if nodes > max_nodes {
            continue;
        }
        let v = variant(&case);
        let fen = case["fen"].as_str().unwrap();
        let depth = case["depth"].as_u64().unwrap() as u32;
        let pos = Position::from_fen(fen, v).unwrap();
        assert_eq!(pos.perft(depth), nodes, "{v} {fen} depth {depth}");
        checked += 1;
    }
    checked
}

#[test]
fn perft_shallow_entries() {
    run_perft(2_000_000);
}

/// Every entry, the deepest included (about 105 million leaves for Brazilian
/// depth 11). Ignored by default because it takes a while; `.ci/run` runs it
/// with `cargo test -- --ignored` (the test profile is optimised).
#[test]
#[ignore]
fn perft_every_entry() {
    run_perft(u64::MAX);
}

#[test]
fn square_type_round_trips_through_numbers() {
    for v in Variant::ALL {
        let b = v.board();
        for n in 1..=u32::from(b.squares()) {
            if b == pdnkit::board::BoardSize::Full {
                // Turkish squares are named, never numbered (RULES.md 12).
                assert!(b.square(n).is_err(), "{v} {n}");
            } else {
                assert_eq!(b.square(n).map(Square::number), Ok(n));
            }
        }
    }
}

/// Turkish draughts (RULES.md 12): every position of the set (vendored in
/// tests/data/turkish, and in ../shared) has exactly its listed moves, by
/// square names, with a landing path of each; every perft entry of up to
/// 2,000,000 leaves agrees (the deeper ones run with `--ignored`).
#[test]
fn turkish_positions_and_perft() {
    let vendored = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/turkish");
    for dir in std::iter::once(vendored).chain(common::shared("conformance/turkish")) {
        let cases = common::jsonl(&dir.join("positions.jsonl"));
        assert!(cases.len() >= 175);
        let mut failures = Vec::new();
        for case in &cases {
            let fen = case["fen"].as_str().unwrap();
            let pos =
                Position::from_fen(fen, Variant::Turkish).unwrap_or_else(|e| panic!("{fen}: {e}"));
            let b = pos.size();
            let names = |v: &serde_json::Value| -> Vec<String> {
                v.as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s.as_str().unwrap().to_string())
                    .collect()
            };
            let key = |s: &str| {
                let sq = b.parse_algebraic(s).unwrap();
                let (r, f) = b.coords(sq);
                (7 - r, f)
            };
            let mut want: Vec<(String, String, Vec<String>)> = case["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| {
                    let mut c = names(&m["captured"]);
                    c.sort_by_key(|s| key(s));
                    (
                        m["from"].as_str().unwrap().into(),
                        m["to"].as_str().unwrap().into(),
                        c,
                    )
                })
                .collect();
            want.sort();
            let moves = pos.legal_moves();
            let mut got: Vec<(String, String, Vec<String>)> = moves
                .iter()
                .map(|m| {
                    let mut c: Vec<String> =
                        m.captured().squares().map(|s| b.algebraic(s)).collect();
                    c.sort_by_key(|s| key(s));
                    (b.algebraic(m.from()), b.algebraic(m.to()), c)
                })
                .collect();
            got.sort();
            if got != want {
                failures.push(format!("{fen}\n  want {want:?}\n  got  {got:?}"));
            }
            for m in &moves {
                let p = pos.landing_path(m);
                assert_eq!(
                    (p.first().copied(), p.last().copied()),
                    (Some(m.from()), Some(m.to()))
                );
                if m.is_capture() {
                    assert_eq!(p.len() as u32, m.capture_count() + 1, "{fen}");
                }
            }
        }
        assert!(
            failures.is_empty(),
            "{} of {} positions differ:\n{}",
            failures.len(),
            cases.len(),
            failures.join("\n")
        );
        let n = perft_in(&dir.join("perft.jsonl"), 2_000_000);
        assert!(n >= 80, "{n} Turkish perft entries");
    }
}
