//! Issue 66: records as their producers wrote them (PDN-REAL-WORLD.md
//! section 8, docs/dialect.md). The synthetic examples of that section, each
//! with the answer it gives, and the cases that must not be read otherwise.

use crate::common;
use crate::common::Rng;
use pdnkit::{check_file, Options, Variant};
use serde_json::Value;

/// 8.1: the international game whose ply 14 is `27x38x29`, written
/// `27x38 38x29`, followed by `tail`.
fn split(tail: &str) -> String {
    format!(
        "[GameType \"20\"]\n\n1. 31-26 17-21 2. 26x17 12x21 3. 33-28 21-27 4. 32x21 16x27 5. 38-33 11-17 6. 42-38 6-11\n7. 38-32 {tail}\n\n"
    )
}

/// The files of `texts` written to a fresh folder, one per text.
fn files(name: &str, texts: &[&str]) -> Vec<String> {
    let dir = common::tempdir(name);
    texts
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let p = dir.join(format!("f{i}.pdn"));
            std::fs::write(&p, t).expect("written");
            p.display().to_string()
        })
        .collect()
}

/// `check --format json` of `paths` with `extra`: the game records and the
/// file findings, by their `type`.
fn check(extra: &[&str], paths: &[String]) -> (Vec<Value>, Vec<Value>) {
    let mut args = vec!["check", "--format", "json"];
    args.extend_from_slice(extra);
    args.extend(paths.iter().map(String::as_str));
    let lines = common::json_lines(&common::pdnkit(&args));
    let of = |t: &str| lines.iter().filter(|l| l["type"] == t).cloned().collect();
    let files: Vec<Value> = of("file");
    let findings = files
        .iter()
        .flat_map(|f| f["diagnostics"].as_array().cloned().unwrap_or_default())
        .collect();
    (of("game"), findings)
}

/// Each game's (plies, first finding's code and ply).
fn verdicts(games: &[Value]) -> Vec<(u64, Option<(String, u64)>)> {
    games
        .iter()
        .map(|g| {
            let first = g["diagnostics"].as_array().and_then(|d| {
                d.iter().find(|d| d["severity"] == "error").map(|d| {
                    (
                        d["code"].as_str().unwrap_or("").to_string(),
                        d["ply"].as_u64().unwrap_or(0),
                    )
                })
            });
            (g["plies"].as_u64().unwrap_or(0), first)
        })
        .collect()
}

fn codes(findings: &[Value], code: &str) -> Vec<String> {
    findings
        .iter()
        .filter(|d| d["code"] == code)
        .map(|d| d["message"].as_str().unwrap_or("").to_string())
        .collect()
}

/// 8.1 as the section gives it: the split capture read as one ply (the
/// game valid with 17 plies), a real fault after the join at the move's
/// ply (16, not the tokens' 17), a stopped capture with no continuation
/// keeping its `non-maximal-capture` at ply 14, legs written with `-`
/// joined with the `notation` warning; one `dialect` warning for the file
/// with the counts. `--strict-dialects` reads every token as a move, as
/// before; `-A dialect` silences the warning and reads the same.
#[test]
fn a_capture_written_one_jump_per_token_is_one_move() {
    let text = [
        split("27x38 8. 38x29 34x21 9. 19-23 28x19 *"),
        split("27x38 8. 38x29 34x21 9. 6-1 *"),
        split("27x38 8. 34x21 *"),
        split("27-38 8. 38-29 34x21 9. 19-23 28x19 *"),
    ]
    .concat();
    let paths = files("dialect-split", &[&text]);
    let (games, findings) = check(&[], &paths);
    let nonmax = Some(("non-maximal-capture".to_string(), 14));
    assert_eq!(
        verdicts(&games),
        [
            (17, None),
            (15, Some(("empty-source".to_string(), 16))),
            (13, nonmax.clone()),
            (17, None)
        ]
    );
    let dialect = codes(&findings, "dialect");
    assert_eq!(dialect.len(), 1, "{findings:?}");
    assert!(
        dialect[0].starts_with("3 captures written one jump per token"),
        "{dialect:?}"
    );
    assert!(dialect[0].contains("in 3 games"), "{dialect:?}");
    // The real fault's move number counts moves: ply 16 is Black's 8th.
    let fault = &games[1]["diagnostics"][0];
    assert_eq!(
        (fault["move_number"].as_str(), fault["move"].as_str()),
        (Some("8..."), Some("6-1"))
    );
    let notation: Vec<&Value> = games[3]["diagnostics"]
        .as_array()
        .expect("list")
        .iter()
        .collect();
    assert_eq!(notation.len(), 1, "{notation:?}");
    assert_eq!(
        (notation[0]["code"].as_str(), notation[0]["ply"].as_u64()),
        (Some("notation"), Some(14))
    );

    // As standard PDN: every token a move.
    let (strict, findings) = check(&["--strict-dialects"], &paths);
    assert!(codes(&findings, "dialect").is_empty());
    for g in &strict {
        assert_eq!(verdicts(std::slice::from_ref(g))[0].1, nonmax, "{g}");
    }
    // -A dialect: not said, read the same.
    let (allowed, findings) = check(&["-A", "dialect"], &paths);
    assert!(codes(&findings, "dialect").is_empty());
    assert_eq!(verdicts(&allowed), verdicts(&games));
}

/// `convert --to pdn` writes the moves as read (the capture whole), so the
/// output reads back with the same verdicts and no `dialect` finding;
/// `select` copies the bytes, which read back as the source.
#[test]
fn a_joined_capture_is_written_whole_and_reads_back() {
    let text = [
        split("27x38 8. 38x29 34x21 9. 19-23 28x19 *"),
        split("27x38 8. 38x29 34x21 9. 6-1 *"),
    ]
    .concat();
    let paths = files("dialect-convert", &[&text]);
    let out = common::pdnkit(&["convert", "--to", "pdn", &paths[0]]);
    let written = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(written.contains("27x29"), "{written}");
    assert!(!written.contains("38x29"), "{written}");
    let back = files("dialect-convert-back", &[&written]);
    let (source, _) = check(&[], &paths);
    let (read_back, findings) = check(&[], &back);
    assert_eq!(verdicts(&read_back), verdicts(&source));
    assert!(codes(&findings, "dialect").is_empty(), "{findings:?}");
    // The moves table: one row for the joined capture, its tokens as written.
    let out = common::pdnkit(&["convert", "--to", "csv", "--moves", &paths[0]]);
    let csv = String::from_utf8_lossy(&out.stdout);
    let rows: Vec<&str> = csv.lines().filter(|l| l.contains("27x38 38x29")).collect();
    assert_eq!(rows.len(), 2, "{csv}");
    assert_eq!(csv.lines().count(), 1 + 17 + 15, "{csv}");
    let out = common::pdnkit(&["select", &paths[0]]);
    let copied = files("dialect-select", &[&String::from_utf8_lossy(&out.stdout)]);
    let (copy, findings) = check(&[], &copied);
    assert_eq!(verdicts(&copy), verdicts(&source));
    assert_eq!(codes(&findings, "dialect").len(), 1);
}

/// 8.3: English results in chess order. Each game keeps its
/// `result-mismatch`, whose message quotes the written token and the order
/// it was read in; the file gets one `dialect` warning. With the second
/// game written `0-1`, as English PDN has it, nothing is reversed against
/// the others: no `dialect` warning, and the first game keeps its error.
#[test]
fn english_results_in_chess_order_are_said_once_and_kept() {
    let game = |fen: &str, result: &str, moves: &str| {
        format!("[GameType \"21\"]\n[Setup \"1\"]\n[FEN \"{fen}\"]\n[Result \"{result}\"]\n\n{moves} {result}\n\n")
    };
    let first = game(
        "B:W18,30,31:B14,5,6",
        "0-1",
        "1. 14x23 30-25 2. 5-9 31-26 3. 23x30 25-22 4. 9-14 22-17 5. 14x21",
    );
    let second = |r: &str| {
        game(
            "W:W23,28,27:B18,1,2",
            r,
            "1... 23x14 2. 1-6 27-23 3. 6-10 14x7 4. 2x11 28-24 5. 11-15 24-20 6. 15-19 23x16",
        )
    };
    let paths = files(
        "dialect-results",
        &[&(first.clone() + &second("1-0")), &(first + &second("0-1"))],
    );
    let (games, findings) = check(&[], &paths[..1]);
    let messages: Vec<String> = games
        .iter()
        .map(|g| {
            g["diagnostics"][0]["message"]
                .as_str()
                .unwrap_or("")
                .to_string()
        })
        .collect();
    assert_eq!(
        messages,
        [
            "the record says `0-1` (English order: White won), but the game ended 0-2 (Black won) by no-moves after ply 9",
            "the record says `1-0` (English order: Black won), but the game ended 2-0 (White won) by no-moves after ply 11",
        ]
    );
    assert!(games.iter().all(|g| g["valid"] == false));
    let dialect = codes(&findings, "dialect");
    assert_eq!(dialect.len(), 1, "{findings:?}");
    assert!(
        dialect[0].starts_with("all 2 of the English games"),
        "{dialect:?}"
    );

    // Human output says it once, before the file's games; the other file's
    // output follows, and its own error stays where it was.
    let out = common::pdnkit(&["check", "--color", "never", &paths[0], &paths[1]]);
    let text = String::from_utf8_lossy(&out.stdout);
    let at = |needle: &str| text.find(needle).unwrap_or(usize::MAX);
    let warning = at("warning[dialect]");
    assert_eq!(text.matches("warning[dialect]").count(), 1, "{text}");
    assert!(warning < at("English order: White won"), "{text}");
    let second_file = text.rfind(paths[1].as_str()).unwrap_or(0);
    assert!(warning < at(&paths[1]) && warning < second_file, "{text}");
    assert_eq!(text.matches("error[result-mismatch]").count(), 3, "{text}");

    let (games, findings) = check(&[], &paths[1..]);
    assert!(codes(&findings, "dialect").is_empty(), "{findings:?}");
    assert_eq!(games[0]["diagnostics"][0]["code"], "result-mismatch");
    assert_eq!(games[1]["valid"], true);
    // Nothing rewritten without --fix-results.
    let out = common::pdnkit(&["convert", "--to", "pdn", &paths[0]]);
    let written = String::from_utf8_lossy(&out.stdout);
    assert!(
        written.contains("[Result \"0-1\"]") && written.contains("[Result \"1-0\"]"),
        "{written}"
    );
}

/// 8.4: a start position in a private tag is named in a `dialect` warning
/// and not applied; the standard `[Setup "1"] [FEN ...]` gets none.
#[test]
fn a_private_set_up_tag_is_named_and_not_applied() {
    let paths = files(
        "dialect-private",
        &[
            "[GameType \"20\"] [StartPosition \"W:W28,33:B19\"] [ToMove \"W\"] *\n",
            "[GameType \"20\"] [Setup \"1\"] [FEN \"W:W28,33:B19\"] *\n",
        ],
    );
    let (_, findings) = check(&[], &paths[..1]);
    let dialect = codes(&findings, "dialect");
    assert_eq!(dialect.len(), 1, "{findings:?}");
    assert!(
        dialect[0].contains("[StartPosition], with [ToMove]"),
        "{dialect:?}"
    );
    assert!(dialect[0].contains("not applied"), "{dialect:?}");
    let (_, findings) = check(&[], &paths[1..]);
    assert!(findings.is_empty(), "{findings:?}");
    // --syntax-only replays nothing, and still sees the tag.
    let (_, findings) = check(&["--syntax-only"], &paths[..1]);
    assert_eq!(codes(&findings, "dialect").len(), 1, "{findings:?}");
}

/// Property (issue 66): random legal games of every variant, each
/// multi-capture written one jump per token (and, for English, the board
/// turned too), read back with the same plies and verdicts as the games
/// written whole, with one `dialect` finding for the file per dialect;
/// written whole, none.
#[test]
fn random_games_written_one_jump_per_token_read_back_the_same() {
    let opts = Options::default();
    for (n, &v) in Variant::ALL.iter().enumerate() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ (n as u64 + 1));
        let (mut whole, mut split, mut turned) = (String::new(), String::new(), String::new());
        let squares = u32::from(v.board().squares());
        let turn = |t: &str| -> String {
            t.split('x')
                .map(|part| {
                    part.split('-')
                        .map(|n| {
                            n.parse::<u32>()
                                .map_or(n.to_string(), |n| (squares + 1 - n).to_string())
                        })
                        .collect::<Vec<_>>()
                        .join("-")
                })
                .collect::<Vec<_>>()
                .join("x")
        };
        let mut legs = 0;
        for _ in 0..12 {
            let mut pos = v.start();
            let (mut w, mut s) = (Vec::new(), Vec::new());
            for _ in 0..rng.below(120) + 1 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len())];
                // The squares the piece stands on: where it starts, then
                // where each jump lands.
                // Numbers, or names on Turkish's 64-square board.
                let squares = pos.landing_path(&m);
                let path: Vec<String> = squares
                    .iter()
                    .map(|&q| {
                        if v.algebraic() && v.board() == pdnkit::board::BoardSize::Full {
                            v.board().algebraic(q)
                        } else {
                            q.number().to_string()
                        }
                    })
                    .collect();
                let sep = if m.is_capture() { "x" } else { "-" };
                let text = path.join(sep);
                // Split only where the legs name this move alone, and the
                // first leg is no capture of its own.
                let alone = moves
                    .iter()
                    .filter(|o| o.from() == m.from() && pos.landing_path(o) == pos.landing_path(&m))
                    .count()
                    == 1;
                let first_leg_legal = moves
                    .iter()
                    .any(|o| o.from() == m.from() && o.to() == squares[1]);
                if path.len() > 2 && alone && !first_leg_legal {
                    legs += 1;
                    s.extend(path.windows(2).map(|p| format!("{}x{}", p[0], p[1])));
                } else {
                    s.push(text.clone());
                }
                w.push(text);
                pos = pos.play_unchecked(&m);
            }
            let head = format!("[GameType \"{}\"]\n", v.game_type());
            whole += &format!("{head}{} *\n\n", w.join(" "));
            split += &format!("{head}{} *\n\n", s.join(" "));
            let t: Vec<String> = s.iter().map(|m| turn(m)).collect();
            turned += &format!("{head}{} *\n\n", t.join(" "));
        }
        let a = check_file(whole.as_bytes(), &opts);
        let b = check_file(split.as_bytes(), &opts);
        let sum = |c: &pdnkit::CheckedFile| -> Vec<(u32, bool, Option<&'static str>)> {
            c.games
                .iter()
                .map(|g| {
                    (
                        g.report.plies,
                        g.report.valid(),
                        g.report.first_error().map(|d| d.code.as_str()),
                    )
                })
                .collect()
        };
        assert_eq!(sum(&a), sum(&b), "{v}: {split}");
        assert!(a.games.iter().all(|g| g.report.valid()), "{v}: {whole}");
        let dialect = |c: &pdnkit::CheckedFile| {
            c.findings
                .iter()
                .filter(|d| d.code.as_str() == "dialect")
                .count()
        };
        assert_eq!(dialect(&a), 0, "{v}");
        assert_eq!(dialect(&b), usize::from(legs > 0), "{v}: {legs} split");
        let joined: u32 = b.games.iter().map(|g| g.report.joined).sum();
        assert_eq!(joined, legs, "{v}");
        if v == Variant::English {
            let c = check_file(turned.as_bytes(), &opts);
            assert_eq!(sum(&a), sum(&c), "{v} turned: {turned}");
            assert_eq!(dialect(&c), 1 + usize::from(legs > 0), "{v} turned");
            assert!(c.games.iter().all(|g| g.report.turned));
        }
    }
}

/// 8.2: the English example, written as the first player sees the board:
/// `empty-source` at ply 1 upright, 14 legal plies turned, with one
/// `dialect` warning. Not turned: a file in which one game replays past
/// ply 1 upright (that game's errors and the others' stay), and a file
/// whose turned reading stops at ply 2 (`1. 22-18 23-19`). A FEN is read
/// turned too, and `convert` writes the file upright: it reads back with
/// the same verdicts and no `dialect` finding.
#[test]
fn a_board_named_from_the_other_side_is_read_turned() {
    let turned = "[GameType \"21\"]\n\n1. g3-f4 d6-c5 2. e3-d4 c5xe3 3. f2xd4 e7-d6 4. d4-c5 d6xb4 5. c3xa5 d8-e7 6. f4-g5 f6xh4\n7. d2-c3 h6-g5 *\n\n";
    let upright = "[GameType \"21\"]\n\n1. b6-c5 e3-f4 2. d6-e5 f4xd6 *\n\n";
    let fen = "[GameType \"21\"]\n[Setup \"1\"]\n[FEN \"W:W10,5,6:B15,32,31\"]\n\n1... 10x19 2. 32-27 6-10 3. 27-23 19x26 *\n\n";
    let paths = files(
        "dialect-turned",
        &[
            turned,
            &(upright.to_string() + turned),
            "[GameType \"21\"]\n\n1. 22-18 23-19 *\n",
            fen,
        ],
    );
    let (games, findings) = check(&[], &paths[..1]);
    assert_eq!(verdicts(&games), [(14, None)]);
    let dialect = codes(&findings, "dialect");
    assert_eq!(dialect.len(), 1, "{findings:?}");
    assert!(
        dialect[0].starts_with("the file names its squares as seen from the other side"),
        "{dialect:?}"
    );
    let (games, findings) = check(&["--strict-dialects"], &paths[..1]);
    assert_eq!(
        verdicts(&games),
        [(0, Some(("empty-source".to_string(), 1)))]
    );
    assert!(findings.is_empty());
    // One game upright: nothing turned.
    let (games, findings) = check(&[], &paths[1..2]);
    assert_eq!(
        verdicts(&games),
        [(4, None), (0, Some(("empty-source".to_string(), 1)))]
    );
    assert!(codes(&findings, "dialect").is_empty());
    // Ply 1 legal turned, ply 2 not: the record keeps its error at ply 1.
    let (games, findings) = check(&[], &paths[2..3]);
    assert_eq!(
        verdicts(&games),
        [(0, Some(("empty-source".to_string(), 1)))]
    );
    assert!(codes(&findings, "dialect").is_empty());
    // A FEN read turned; written upright by convert.
    let (games, findings) = check(&[], &paths[3..]);
    assert_eq!(verdicts(&games), [(5, None)]);
    assert_eq!(codes(&findings, "dialect").len(), 1);
    for p in [&paths[0], &paths[3]] {
        let out = common::pdnkit(&["convert", "--to", "pdn", p]);
        let written = String::from_utf8(out.stdout).expect("UTF-8");
        let back = files("dialect-turned-back", &[&written]);
        let (source, _) = check(&[], std::slice::from_ref(p));
        let (read_back, findings) = check(&[], &back);
        assert_eq!(verdicts(&read_back), verdicts(&source), "{written}");
        assert!(findings.is_empty(), "{findings:?}");
    }
}
