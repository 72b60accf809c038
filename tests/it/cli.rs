//! The `pdnkit` binary as users run it: exit codes, JSON shape, ordering, directories.
use crate::common;

use common::{corpus, json_lines, pdnkit, tempdir};

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};

#[test]
fn exit_codes() {
    assert_eq!(
        pdnkit(&["check", &corpus("brazilian/clean.pdn")])
            .status
            .code(),
        Some(0)
    );
    assert_eq!(
        pdnkit(&["check", &corpus("brazilian/faults.pdn")])
            .status
            .code(),
        Some(1)
    );
    assert_eq!(
        pdnkit(&["check", "/no/such/file.pdn"]).status.code(),
        Some(2)
    );
    assert_eq!(
        pdnkit(&[
            "check",
            "--variant",
            "chess",
            &corpus("brazilian/clean.pdn")
        ])
        .status
        .code(),
        Some(2)
    );
    assert_eq!(
        pdnkit(&[
            "check",
            "--draw-rules",
            "xyz",
            &corpus("brazilian/clean.pdn")
        ])
        .status
        .code(),
        Some(2)
    );
    // No PATH and standard input not a terminal (here: empty): standard input is read.
    let o = pdnkit(&["check"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("checked 1 file, 0 games"));
    assert_eq!(pdnkit(&["frobnicate"]).status.code(), Some(2));
}

#[test]
fn json_shape_and_summary_add_up() {
    let o = pdnkit(&["check", "--format", "json", &corpus("")]);
    assert_eq!(o.status.code(), Some(1));
    let lines = json_lines(&o);
    let (summary, records) = lines.split_last().unwrap();
    assert_eq!(summary["type"], "summary");
    let (games, files): (Vec<&serde_json::Value>, Vec<&serde_json::Value>) =
        records.iter().partition(|r| r["type"] == "game");
    assert!(files.iter().all(|f| f["type"] == "file"));
    assert_eq!(summary["games"].as_u64().unwrap() as usize, games.len());
    let mut valid = 0;
    let mut errors = 0;
    let mut unchecked = 0;
    // Findings about whole files (the variant of untagged games, unsupported variants).
    for f in &files {
        for d in f["diagnostics"].as_array().unwrap() {
            assert!(d["code"].is_string() && d["line"].is_u64() && d["column"].is_u64());
            if d["severity"] == "error" {
                errors += 1;
            }
        }
    }
    for g in games {
        for k in ["file", "computed_result", "termination"] {
            assert!(g[k].is_string(), "{k} in {g}");
        }
        // The variant is null only for a game of a refused file (CLI.md).
        assert!(
            g["variant"].is_string() || g["variant_source"] == "refused",
            "variant in {g}"
        );
        if g["checked"] == false {
            // A game of a variant pdnkit does not check: no verdict, no draw rules.
            assert!(g["valid"].is_null() && g["draw_rules"].is_null(), "{g}");
            unchecked += 1;
            continue;
        }
        assert!(g["draw_rules"].is_string(), "{g}");
        for k in ["game", "line", "plies"] {
            assert!(g[k].is_u64(), "{k} in {g}");
        }
        assert!(g["tags"].is_object() && g["valid"].is_boolean() && g["diagnostics"].is_array());
        assert!(g["declared_result"].is_string() || g["declared_result"].is_null());
        assert!(g["termination_ply"].is_u64() || g["termination_ply"].is_null());
        for d in g["diagnostics"].as_array().unwrap() {
            assert!(["error", "warning", "note"].contains(&d["severity"].as_str().unwrap()));
            assert!(
                d["code"].is_string()
                    && d["message"].is_string()
                    && d["line"].is_u64()
                    && d["column"].is_u64()
            );
            if d["severity"] == "error" {
                errors += 1;
            }
            if d["code"] == "result-mismatch" {
                assert!(d.get("ply").is_none());
            }
        }
        let has_error = g["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["severity"] == "error");
        assert_eq!(g["valid"].as_bool().unwrap(), !has_error);
        if !has_error {
            valid += 1;
        }
    }
    assert_eq!(summary["valid_games"], valid);
    assert_eq!(summary["unchecked_games"], unchecked);
    assert!(
        unchecked > 0,
        "corpus/other holds games of unsupported variants, corpus/czech a refused file"
    );
    assert_eq!(summary["errors"], errors);
    let by_code: u64 = summary["by_code"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(
        by_code,
        summary["errors"].as_u64().unwrap()
            + summary["warnings"].as_u64().unwrap()
            + summary["notes"].as_u64().unwrap()
    );
}

#[test]
fn output_order_does_not_depend_on_threads() {
    let mut dirs = vec![corpus("")];
    if let Some(d) = common::shared("conformance/games") {
        dirs.push(d.display().to_string());
    }
    for d in dirs {
        let one = pdnkit(&["check", "--format", "json", "-j1", &d]);
        let four = pdnkit(&["check", "--format", "json", "-j4", &d]);
        assert!(!one.stdout.is_empty());
        assert_eq!(one.stdout, four.stdout, "{d}");
        let human1 = pdnkit(&["check", "-j1", &d]);
        let human4 = pdnkit(&["check", "-j4", &d]);
        assert_eq!(human1.stdout, human4.stdout, "{d}");
    }
}

/// Enough games for many batches (and more than the reader may read ahead), in
/// two files: order, counts and game numbers must not depend on `-j`.
#[test]
fn order_holds_across_many_batches() {
    let mut one_copy = Vec::new();
    let mut files: Vec<_> = walk(Path::new(&corpus("")));
    files.sort();
    for f in &files {
        one_copy.extend(std::fs::read(f).unwrap());
        one_copy.push(b'\n');
    }
    let games_per_copy = one_copy.windows(6).filter(|w| w == b"[Event").count();
    assert!(games_per_copy > 0);
    let d = tempdir("batches");
    let copies = [200usize, 90];
    for (i, n) in copies.iter().enumerate() {
        std::fs::write(d.join(format!("{i}.pdn")), one_copy.repeat(*n)).unwrap();
    }
    let d = d.display().to_string();
    let one = pdnkit(&["check", "--format", "json", "-j1", &d]);
    let four = pdnkit(&["check", "--format", "json", "-j4", &d]);
    assert_eq!(one.stdout, four.stdout);
    let lines: Vec<serde_json::Value> = json_lines(&one)
        .into_iter()
        .filter(|l| l["type"] != "file")
        .collect();
    let (games, summary) = lines.split_at(lines.len() - 1);
    let total: usize = copies.iter().map(|n| n * games_per_copy).sum();
    assert!(
        total > 16 * 512,
        "the test must span more batches than the read-ahead"
    );
    assert_eq!(games.len(), total);
    assert_eq!(summary[0]["games"].as_u64(), Some(total as u64));
    // Within each file, games are numbered 1, 2, 3, ... in output order.
    let mut expect = std::collections::HashMap::<String, u64>::new();
    for g in games {
        let next = expect
            .entry(g["file"].as_str().unwrap().to_string())
            .or_insert(1);
        assert_eq!(g["game"].as_u64(), Some(*next));
        *next += 1;
    }
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else if p.extension().is_some_and(|x| x == "pdn") {
            out.push(p);
        }
    }
    out
}

#[test]
fn a_directory_with_a_bad_file_and_a_good_file() {
    let d = tempdir("dir");
    std::fs::copy(corpus("brazilian/clean.pdn"), d.join("good.pdn")).unwrap();
    std::fs::write(
        d.join("bad.pdn"),
        b"[Event \"broken\"]\n[GameType \"26\"]\n1. c3-d4 @@@ garbage {never closed\n",
    )
    .unwrap();
    std::fs::write(d.join("notes.md"), b"not a game file").unwrap();
    let o = pdnkit(&["check", "--format", "json", d.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let lines = json_lines(&o);
    let files: Vec<&str> = lines
        .iter()
        .filter(|l| l["type"] == "game")
        .map(|l| l["file"].as_str().unwrap())
        .collect();
    assert!(files.iter().any(|f| f.ends_with("bad.pdn")));
    assert!(files.iter().any(|f| f.ends_with("good.pdn")));
    assert!(
        !files.iter().any(|f| f.ends_with("notes.md")),
        "only .pdn/.pgn/.txt are walked"
    );
    // Sorted walk: bad.pdn first, and its finding did not stop the good file.
    assert!(files[0].ends_with("bad.pdn"));
    let bad = &lines[0];
    assert_eq!(bad["valid"], false);
    assert_eq!(bad["diagnostics"][0]["code"], "syntax");
    assert_eq!(bad["diagnostics"][0]["line"], 3);
    assert_eq!(bad["diagnostics"][0]["column"], 10);
    let good: Vec<&Value> = lines
        .iter()
        .filter(|l| l["file"].as_str().is_some_and(|f| f.ends_with("good.pdn")))
        .collect();
    assert!(!good.is_empty() && good.iter().all(|g| g["valid"] == true));
    let summary = lines.last().unwrap();
    assert_eq!(summary["files"], 2);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn reads_standard_input() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_pdnkit"))
        .args(["check", "--format", "json", "--no-progress", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"[GameType \"20\"]\n[Result \"1-1\"]\n1. 32-28 19-23 2. 28x19 14x23 1-1\n")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    let lines = json_lines(&o);
    assert_eq!(lines[0]["file"], "<stdin>");
    assert_eq!(lines[0]["plies"], 4);
    assert_eq!(lines[0]["variant"], "international");
}

#[test]
fn human_output_points_at_the_move() {
    let o = pdnkit(&["check", &corpus("brazilian/faults.pdn")]);
    let text = String::from_utf8(o.stdout).unwrap();
    // The game's header, then its findings.
    assert!(text
        .lines()
        .next()
        .unwrap()
        .contains("game 1 (line 1): Random, White – Random, Black"));
    let first = text.lines().nth(1).unwrap();
    assert!(
        first.contains("faults.pdn:") && first.contains(": error[non-maximal-capture]: "),
        "{first}"
    );
    assert!(
        first.contains("takes 1 piece, but the maximum capture takes"),
        "{first}"
    );
    assert!(text.contains("= note: position before the move: "));
    assert!(text.contains("checked 1 file, "));
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let Some(d) = common::shared("conformance/games") else {
        return;
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_pdnkit"))
        .args(["check", "--format", "json", "--no-progress"])
        .arg(&d)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read one line, then close the pipe.
    let mut out = child.stdout.take().unwrap();
    let mut buf = [0u8; 64];
    let _ = std::io::Read::read(&mut out, &mut buf);
    drop(out);
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(matches!(o.status.code(), Some(0 | 1)), "{:?}", o.status);
}

/// Every game of the real international corpus, checked as international.
/// Games flagged with an error were looked at one by one: each is a faulty record.
#[test]
fn real_international_corpus_is_explained_game_by_game() {
    let Some(dir) = common::shared("corpus/real/international") else {
        return;
    };
    let o = pdnkit(&[
        "check",
        "--format",
        "json",
        "--variant",
        "international",
        dir.to_str().unwrap(),
    ]);
    let lines = json_lines(&o);
    let (summary, games) = lines.split_last().unwrap();
    // (file name, game, first error code, why the record is faulty)
    let expected: [(&str, u64, &str, &str); 2] = [
        (
            "bruno__BrunoVsScan31.pdn",
            11,
            "empty-source",
            "from ply 64 the moves are garbled: Black plays 17-11 (upwards, from an empty square) and White later 12-18; \
             the older copy in bruno-hist__ lacks this game",
        ),
        (
            "wiegerw-fail__Cat.C1.pdn",
            46,
            "illegal-move",
            "an orphan fragment `36x27 1-0` after game 45's result, with no tags or FEN; from the start position it \
             jumps over White's own man",
        ),
    ];
    let mut invalid: Vec<(String, u64, String)> = games
        .iter()
        .filter(|g| g["valid"] == false)
        .map(|g| {
            let name = Path::new(g["file"].as_str().unwrap())
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let code = g["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .find(|d| d["severity"] == "error")
                .unwrap()["code"]
                .as_str()
                .unwrap()
                .to_string();
            (name, g["game"].as_u64().unwrap(), code)
        })
        .collect();
    invalid.sort();
    let mut want: Vec<(String, u64, String)> = expected
        .iter()
        .map(|e| (e.0.to_string(), e.1, e.2.to_string()))
        .collect();
    want.sort();
    assert_eq!(
        invalid,
        want,
        "reasons: {:?}",
        expected.iter().map(|e| e.3).collect::<Vec<_>>()
    );
    eprintln!(
        "real international corpus: {} games, {} valid, {} faulty records",
        summary["games"],
        summary["valid_games"],
        invalid.len()
    );
    assert!(summary["games"].as_u64().unwrap() > 1400);
}

#[test]
fn one_exit_rule_for_every_subcommand() {
    let d = tempdir("exit");
    let empty = d.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let binary = d.join("binary.pdn");
    std::fs::write(&binary, b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00").unwrap();
    let good = corpus("brazilian/clean.pdn");
    let bad = corpus("brazilian/faults.pdn");
    let missing = d.join("missing.pdn").display().to_string();
    let (empty, binary) = (empty.display().to_string(), binary.display().to_string());
    let cases: [(&str, Vec<&str>); 5] = [
        ("good", vec![&good]),
        ("bad", vec![&bad]),
        ("missing beside good", vec![&missing, &good]),
        ("empty folder", vec![&empty]),
        ("binary", vec![&binary]),
    ];
    for (cmd, extra, want) in [
        ("check", vec![], [0, 1, 2, 2, 2]),
        ("convert", vec!["--to", "csv"], [0, 0, 2, 2, 2]),
        ("convert", vec!["--to", "csv", "--strict"], [0, 1, 2, 2, 2]),
        ("stats", vec![], [0, 0, 2, 2, 2]),
        ("dupes", vec![], [0, 0, 2, 2, 2]),
    ] {
        for ((name, paths), want) in cases.iter().zip(want) {
            let mut args = vec![cmd];
            args.extend(&extra);
            args.extend(paths);
            let o = pdnkit(&args);
            assert_eq!(
                o.status.code(),
                Some(want),
                "{cmd} {extra:?} on {name}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            if name.starts_with("missing") {
                // The good file was still processed.
                assert!(!o.stdout.is_empty(), "{cmd} on {name}");
            }
        }
    }
}

#[test]
fn stats_and_check_agree_on_the_counts_they_both_print() {
    let c = corpus("");
    let check = json_lines(&pdnkit(&["check", "--format", "json", &c]));
    let summary = check.last().unwrap();
    let stats: Value =
        serde_json::from_slice(&pdnkit(&["stats", "--format", "json", &c]).stdout).unwrap();
    let all = &stats["all"];
    assert_eq!(all["games"], summary["games"]);
    assert_eq!(all["valid"], summary["valid_games"]);
    assert_eq!(all["unchecked"], summary["unchecked_games"]);
    assert_eq!(all["findings"], summary["by_code"]);
    assert_eq!(all["findings_by_severity"], summary["by_severity"]);
}

#[test]
fn completions_and_manual_are_generated() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let o = Command::new(env!("CARGO_BIN_EXE_pdnkit"))
            .args(["completions", shell])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{shell}");
        assert!(
            String::from_utf8_lossy(&o.stdout).contains("pdnkit"),
            "{shell}"
        );
    }
    let o = Command::new(env!("CARGO_BIN_EXE_pdnkit"))
        .arg("man")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let man = String::from_utf8_lossy(&o.stdout);
    assert!(man.starts_with(".ie") && man.contains(".TH pdnkit 1"));
}

#[test]
fn every_help_page_has_examples_and_exit_status() {
    for cmd in ["check", "convert", "stats", "dupes", "perft"] {
        let o = Command::new(env!("CARGO_BIN_EXE_pdnkit"))
            .args([cmd, "--help"])
            .output()
            .unwrap();
        let help = String::from_utf8_lossy(&o.stdout);
        assert!(
            help.contains("Examples:") && help.contains("Exit status:"),
            "{cmd}"
        );
    }
}
