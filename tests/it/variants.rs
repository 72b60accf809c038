//! Russian and English through every command, on the repository's own corpus.
use crate::common;

use common::{corpus, json_lines, pdnkit, tempdir};

#[test]
fn english_results_and_move_numbers_are_written_the_checkers_way() {
    let d = tempdir("english");
    let out = d.join("e.pdn");
    let o = pdnkit(&[
        "convert",
        "--to",
        "pdn",
        "--results",
        "2-0",
        "-o",
        out.to_str().unwrap(),
        &corpus("english/clean.pdn"),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = std::fs::read_to_string(&out).unwrap();
    // Game 1: White won, written `0-1` in the checkers order whatever --results says;
    // Black's first move is numbered `1.`.
    let first = text.split("\n\n").next().unwrap();
    assert!(first.contains("[Result \"0-1\"]"), "{first}");
    assert!(first.contains("\n1. 9-13 24-20 2. 5-9"), "{first}");
    assert!(first.trim_end().ends_with("0-1"), "{first}");
    // Checking the output gives the same verdicts and results.
    let summary = |path: &str| {
        let o = pdnkit(&["check", "--format", "json", path]);
        json_lines(&o)
            .into_iter()
            .filter(|v| v["type"] == "game")
            .map(|v| {
                (
                    v["valid"].clone(),
                    v["declared_result"].clone(),
                    v["computed_result"].clone(),
                    v["draw_rules"].clone(),
                )
            })
            .collect::<Vec<_>>()
    };
    let before = summary(&corpus("english/clean.pdn"));
    assert_eq!(before, summary(out.to_str().unwrap()));
    assert!(before.iter().all(|g| g.3 == "none"));
    assert_eq!(before[0].1, "2-0", "0-1 in an english game is White's win");
}

#[test]
fn english_games_have_no_draw_rules_whatever_is_asked() {
    for rules in ["cbjd", "fmjd", "auto"] {
        let o = pdnkit(&[
            "check",
            "--format",
            "json",
            "--draw-rules",
            rules,
            &corpus("english/clean.pdn"),
        ]);
        for g in json_lines(&o).iter().filter(|v| v["type"] == "game") {
            assert_eq!(g["draw_rules"], "none");
            assert_ne!(g["termination"], "repetition");
        }
    }
    // Russian: FMJD-64 by default, CBJD on request.
    let rules_of = |extra: &[&str]| {
        let mut args = vec!["check", "--format", "json"];
        args.extend_from_slice(extra);
        let path = corpus("russian/clean.pdn");
        args.push(&path);
        let o = pdnkit(&args);
        json_lines(&o)
            .into_iter()
            .filter(|v| v["type"] == "game")
            .map(|v| v["draw_rules"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert!(rules_of(&[]).iter().all(|r| r == "fmjd"));
    assert!(rules_of(&["--draw-rules", "cbjd"])
        .iter()
        .all(|r| r == "cbjd"));
}

#[test]
fn perft_from_the_command_line() {
    // The start-position entries of the conformance data.
    for (v, depth, nodes) in [("russian", "5", "7482"), ("english", "5", "7361")] {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_pdnkit"))
            .args(["perft", "--variant", v, depth])
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), nodes, "{v}");
    }
}

#[test]
fn faults_keep_their_codes_and_never_say_non_maximal() {
    for file in ["russian/faults.pdn", "english/faults.pdn"] {
        let o = pdnkit(&["check", "--format", "json", &corpus(file)]);
        let games: Vec<_> = json_lines(&o)
            .into_iter()
            .filter(|v| v["type"] == "game")
            .collect();
        assert!(games.iter().all(|g| g["valid"] == false), "{file}");
        for g in &games {
            for d in g["diagnostics"].as_array().unwrap() {
                assert_ne!(d["code"], "non-maximal-capture", "{file}");
            }
        }
        let goes_on = games
            .iter()
            .flat_map(|g| g["diagnostics"].as_array().unwrap())
            .filter(|d| {
                d["code"] == "illegal-move"
                    && d["message"]
                        .as_str()
                        .unwrap()
                        .contains("the capture can go on")
            })
            .count();
        assert!(goes_on >= 1, "{file}");
    }
}

/// Frisian by its evidence (issue 43): a GameType 40 or 97, lidraughts'
/// `Variant` spellings, and an untagged 10x10 file whose games replay under
/// frisian and not under international, refused with the option that names
/// it.
#[test]
fn frisian_games_by_tag_by_name_and_untagged() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/frisian/games/frisian/legal/legal-random-to-end-01.pdn");
    let text = std::fs::read_to_string(&src).expect("vendored Frisian games");
    let dir = common::tempdir("frisian-evidence");
    let untagged = dir.join("club.pdn");
    let without: String = text
        .lines()
        .filter(|l| !l.starts_with("[GameType"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&untagged, &without).unwrap();
    let named = dir.join("lidraughts.pdn");
    std::fs::write(
        &named,
        without.replace("[Event ", "[Variant \"Frisian\"]\n[Event "),
    )
    .unwrap();
    let path = |p: &std::path::Path| p.to_string_lossy().into_owned();
    // Tagged: every game replayed as frisian, with its own draw rules.
    let games = common::json_lines(&common::pdnkit(&["check", "--format", "json", &path(&src)]));
    let tagged: Vec<_> = games.iter().filter(|v| v["type"] == "game").collect();
    assert_eq!(tagged.len(), 5);
    for g in &tagged {
        assert_eq!(
            (&g["variant"], &g["draw_rules"], &g["valid"]),
            (&"frisian".into(), &"frisian".into(), &true.into())
        );
    }
    // lidraughts' Variant tag names it.
    let lines = common::json_lines(&common::pdnkit(&[
        "check",
        "--format",
        "json",
        &path(&named),
    ]));
    assert!(lines
        .iter()
        .filter(|v| v["type"] == "game")
        .all(|g| g["variant"] == "frisian" && g["valid"] == true));
    // Untagged: international is the evidence, frisian explains the games:
    // refused, with the option.
    let o = common::pdnkit(&["check", &path(&untagged)]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("error[unknown-variant]"), "{text}");
    assert!(text.contains("all 5 are legal under frisian"), "{text}");
    assert!(text.contains("--variant 'club.pdn=frisian'"), "{text}");
    // Named as the message says: valid.
    let lines = common::json_lines(&common::pdnkit(&[
        "check",
        "--format",
        "json",
        "--variant",
        "club.pdn=frisian",
        &path(&untagged),
    ]));
    let games: Vec<_> = lines.iter().filter(|v| v["type"] == "game").collect();
    assert_eq!(games.len(), 5);
    assert!(games
        .iter()
        .all(|g| g["valid"] == true && g["variant_source"] == "named"));
}

/// Issue 55: a named variant that the file's own evidence contradicts is
/// said, once, naming the evidence, when most games fail under it; the
/// option still applies. A variant the evidence agrees with says nothing.
#[test]
fn a_named_variant_the_evidence_contradicts_is_said() {
    let d = common::tempdir("named-contradicted");
    let f = d.join("eng.pdn");
    std::fs::write(
        &f,
        "1. 11-15 23-19 2. 8-11 22-17 *\n\n1. 9-13 22-18 *\n\n1. 10-14 24-20 *\n",
    )
    .unwrap();
    let run = |variant: &str| {
        let o = common::pdnkit(&[
            "check",
            "--format",
            "json",
            "--variant",
            variant,
            f.to_str().unwrap(),
        ]);
        common::json_lines(&o)
    };
    let lines = run("czech");
    let said: Vec<&serde_json::Value> = lines
        .iter()
        .flat_map(|l| l["diagnostics"].as_array().into_iter().flatten())
        .filter(|d| d["code"] == "variant-inferred")
        .collect();
    assert_eq!(said.len(), 1, "{lines:?}");
    let m = said[0]["message"].as_str().unwrap();
    assert!(
        m.contains("--variant czech applied")
            && m.contains("3 of 3 games with moves fail")
            && m.contains("names english"),
        "{m}"
    );
    let summary = lines.last().unwrap();
    assert_eq!(summary["valid_games"], 0, "the option still applies");
    let lines = run("english");
    assert_eq!(lines.last().unwrap()["valid_games"], 3);
    assert!(lines
        .iter()
        .flat_map(|l| l["diagnostics"].as_array().into_iter().flatten())
        .all(|d| d["code"] != "variant-inferred"));
}
