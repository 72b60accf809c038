//! Verdicts a user can trust, on inputs this repository holds: refused
//! files, --variant against --force-variant, true counts and exit statuses,
//! no silent acceptance, what was not checked, and what exports rest on.
use crate::common;

use common::{json_lines, pdnkit, tempdir};
use serde_json::Value;

fn data(rel: &str) -> String {
    format!("{}/tests/data/{rel}", env!("CARGO_MANIFEST_DIR"))
}

fn game_records(args: &[&str]) -> (Vec<Value>, Vec<Value>, i32) {
    let o = pdnkit(&[&["check", "--format", "json"], args].concat());
    let lines = json_lines(&o);
    let games = lines
        .iter()
        .filter(|v| v["type"] == "game")
        .cloned()
        .collect();
    let rest = lines
        .iter()
        .filter(|v| v["type"] != "game")
        .cloned()
        .collect();
    (games, rest, o.status.code().unwrap_or(-1))
}

fn file_codes(rest: &[Value]) -> Vec<String> {
    rest.iter()
        .filter(|v| v["type"] == "file")
        .flat_map(|v| v["diagnostics"].as_array().cloned().unwrap_or_default())
        .map(|d| d["code"].as_str().unwrap_or("").to_string())
        .collect()
}

fn summary(rest: &[Value]) -> &Value {
    rest.iter()
        .find(|v| v["type"] == "summary")
        .expect("a summary")
}

#[test]
fn a_file_no_variant_explains_is_refused_with_a_hint() {
    let (games, rest, code) = game_records(&[&data("verdicts/refused-single.pdn")]);
    assert_eq!(code, 1, "an unknown-variant error");
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!(
        (
            &g["variant"],
            &g["variant_source"],
            &g["checked"],
            &g["valid"]
        ),
        (
            &Value::Null,
            &Value::from("refused"),
            &Value::from(false),
            &Value::Null
        )
    );
    assert_eq!(file_codes(&rest), ["unknown-variant"]);
    let message = rest[0]["diagnostics"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("1 of 1 game with moves fails under brazilian, the default")
            && message.contains("it is legal under international and frisian")
            && message.contains("--variant 'refused-single.pdn=international'")
            && message.ends_with("--variant 'refused-single.pdn=frisian'"),
        "{message}"
    );
    let s = summary(&rest);
    assert_eq!(
        (&s["valid_games"], &s["unchecked_games"]),
        (&Value::from(0), &Value::from(1))
    );
    // Named, the variant applies: the same game is valid.
    let (games, rest, code) = game_records(&[
        "--variant",
        "international",
        &data("verdicts/refused-single.pdn"),
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        (&games[0]["valid"], &games[0]["variant_source"]),
        (&Value::from(true), &Value::from("named"))
    );
    assert!(
        file_codes(&rest).is_empty(),
        "no variant-inferred for a named variant"
    );
    // No variant at all: the hint says so.
    let (_, rest, _) = game_records(&[&data("verdicts/refused-nothing.pdn")]);
    let message = rest[0]["diagnostics"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("No variant pdnkit checks explains half of it")
            && !message.contains("--variant '"),
        "{message}"
    );
}

/// Per game: its variant, what decided it, and whether it is valid.
fn variants_seen(games: &[Value]) -> Vec<(&str, &str, bool)> {
    games
        .iter()
        .map(|g| {
            (
                g["variant"].as_str().unwrap(),
                g["variant_source"].as_str().unwrap(),
                g["valid"] == true,
            )
        })
        .collect()
}

#[test]
fn variant_names_untagged_games_and_force_variant_every_game() {
    let d = tempdir("verdicts-variant");
    let f = d.join("mixed.pdn");
    std::fs::write(
        &f,
        "[GameType \"20\"]\n1. 32-28 19-23 *\n\n[Event \"untagged\"]\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 *\n",
    )
    .unwrap();
    let f = f.to_str().unwrap();
    let (games, _, code) = game_records(&["--variant", "russian", f]);
    assert_eq!(code, 0);
    let seen = variants_seen(&games);
    assert_eq!(
        seen,
        [("international", "tag", true), ("russian", "named", true)]
    );
    let (games, _, code) = game_records(&["--force-variant", "russian", f]);
    assert_eq!(code, 1, "32-28 is not a Russian move");
    let seen = variants_seen(&games);
    assert_eq!(
        seen,
        [("russian", "forced", false), ("russian", "forced", true)]
    );
    let codes: Vec<&str> = games[0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(
        codes[0], "variant-inferred",
        "the differing GameType is warned about"
    );
    // Both at once is a usage error.
    let o = pdnkit(&[
        "check",
        "--variant",
        "russian",
        "--force-variant",
        "english",
        f,
    ]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn syntax_only_counts_games_as_read_only() {
    let (games, rest, code) =
        game_records(&["--syntax-only", &common::corpus("brazilian/faults.pdn")]);
    assert_eq!(code, 0);
    assert!(games
        .iter()
        .all(|g| g["checked"] == false && g["valid"].is_null()));
    let s = summary(&rest);
    assert_eq!(
        (&s["games"], &s["valid_games"], &s["unchecked_games"]),
        (
            &Value::from(games.len()),
            &Value::from(0),
            &Value::from(games.len())
        )
    );
    let o = pdnkit(&[
        "check",
        "--syntax-only",
        "-q",
        &common::corpus("brazilian/faults.pdn"),
    ]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.starts_with(&format!(
            "read 1 file, {} games: read only, no game replayed\n",
            games.len()
        )),
        "{text}"
    );
    assert!(!text.contains("with errors"), "{text}");
}

#[test]
fn an_over_limit_game_is_one_game_numbered_as_it_is() {
    let d = tempdir("verdicts-limit");
    let f = d.join("three.pdn");
    let first = "[Event \"a\"]\n[White \"x\"]\n[Black \"y\"]\n[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 *";
    std::fs::write(
        &f,
        format!("{first}\n\n[Event \"b\"]\n[GameType \"20\"]\n1. 32-28 *\n\n[Event \"c\"]\n[GameType \"20\"]\n1. 32-28 *\n"),
    )
    .unwrap();
    let f = f.to_str().unwrap();
    for (limit, too_large) in [
        (first.len() - 1, true),
        (first.len(), false),
        (60, true),
        (1000, false),
    ] {
        let (games, _, code) = game_records(&["--max-game-bytes", &limit.to_string(), f]);
        let numbers: Vec<u64> = games.iter().map(|g| g["game"].as_u64().unwrap()).collect();
        assert_eq!(numbers, [1, 2, 3], "limit {limit}");
        assert_eq!(games[2]["tags"]["Event"], "c", "limit {limit}");
        let first_codes: Vec<&str> = games[0]["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["code"].as_str().unwrap())
            .collect();
        assert_eq!(
            first_codes.contains(&"game-too-large"),
            too_large,
            "limit {limit}"
        );
        assert_eq!(code, i32::from(too_large), "limit {limit}");
    }
}

#[test]
fn a_named_path_that_is_skipped_fails_the_run() {
    let d = tempdir("verdicts-skipped");
    let ok = d.join("ok.pdn");
    std::fs::write(&ok, "[GameType \"20\"]\n1. 32-28 19-23 *\n").unwrap();
    // UTF-16LE without a byte order mark, holding an illegal move: skipped as binary.
    let bad: Vec<u8> = "[GameType \"20\"]\n1. 32-27 *\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let sub = d.join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::write(d.join("bad16.pdn"), &bad).unwrap();
    std::fs::write(sub.join("bad16.pdn"), &bad).unwrap();
    std::fs::write(sub.join("ok.pdn"), "[GameType \"20\"]\n1. 32-28 19-23 *\n").unwrap();
    let o = pdnkit(&[
        "check",
        ok.to_str().unwrap(),
        d.join("bad16.pdn").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "named and skipped");
    assert!(String::from_utf8_lossy(&o.stderr).contains("bad16.pdn: skipped"));
    let o = pdnkit(&["check", ok.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    // Inside a walked folder a skipped file is said, and the run is not failed.
    let o = pdnkit(&["check", sub.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stderr).contains("skipped"));
}

#[test]
fn a_square_number_off_the_board_is_never_a_comment() {
    let d = tempdir("verdicts-square");
    for (text, ply) in [
        ("[GameType \"20\"]\n1. 32x28x4294967296 *\n", 1),
        ("[GameType \"20\"]\n1. 32x28x60 *\n", 1),
        ("[GameType \"20\"]\n1. 32-28 70000-3 *\n", 2),
        ("[GameType \"20\"]\n1. 32-28 1234-3 *\n", 2),
    ] {
        let f = d.join("square.pdn");
        std::fs::write(&f, text).unwrap();
        let (games, _, code) = game_records(&[f.to_str().unwrap()]);
        assert_eq!(code, 1, "{text}");
        let d0 = &games[0]["diagnostics"][0];
        assert_eq!(
            (d0["code"].as_str(), d0["ply"].as_u64()),
            (Some("no-such-square"), Some(ply)),
            "{text}"
        );
        assert_eq!(d0["line"], 2);
    }
}

#[test]
fn game_type_long_forms_are_read_field_by_field() {
    let d = tempdir("verdicts-gametype");
    let cases: [(&str, Option<&str>, bool); 9] = [
        ("20,W,10,10,N2,0", None, true),
        ("21,B,8,8,N1,0", None, true),
        ("20,B,10,10,N2,0", Some("unknown-variant"), false),
        (
            "20,W,99999999999999999999,10,N2,0",
            Some("unknown-variant"),
            false,
        ),
        ("20,W,-5,10,N2,0", Some("unknown-variant"), false),
        ("20,W,x,y,N2,0", Some("unknown-variant"), false),
        ("20,W,8,8,N2,0", Some("unknown-variant"), false),
        ("20,W,10,10,Q9,0", Some("bad-tag"), true),
        ("20,W,10,10,N2,1", Some("unknown-variant"), false),
    ];
    for (value, code, checked) in cases {
        let f = d.join("gt.pdn");
        let moves = if value.starts_with("21") {
            "1. 11-15 *"
        } else {
            "1. 32-28 *"
        };
        std::fs::write(&f, format!("[GameType \"{value}\"]\n{moves}\n")).unwrap();
        let (games, _, _) = game_records(&[f.to_str().unwrap()]);
        let g = &games[0];
        let codes: Vec<&str> = g["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["code"].as_str().unwrap())
            .collect();
        assert_eq!(codes.first().copied(), code, "{value}: {codes:?}");
        assert_eq!(g["checked"], checked, "{value}");
        if let Some(c) = code {
            let message = g["diagnostics"][0]["message"].as_str().unwrap();
            assert!(message.contains("field"), "{value}: {c}: {message}");
        }
    }
}

#[test]
fn a_stopped_replay_says_how_much_was_not_checked() {
    let d = tempdir("verdicts-stopped");
    let f = d.join("stop.pdn");
    // The third ply misses a capture; four plies follow it.
    std::fs::write(
        &f,
        "[GameType \"20\"]\n1. 32-28 19-23 2. 28-22 18-22 3. 37-32 12-18 4. 31-27 *\n",
    )
    .unwrap();
    let (games, rest, _) = game_records(&[f.to_str().unwrap()]);
    assert_eq!(
        (&games[0]["plies"], &games[0]["plies_unchecked"]),
        (&Value::from(2), &Value::from(4))
    );
    let notes = games[0]["diagnostics"][0]["notes"].as_array().unwrap();
    assert!(
        notes
            .iter()
            .any(|n| n == "4 plies after this move were not checked"),
        "{notes:?}"
    );
    assert_eq!(summary(&rest)["plies_unchecked"], 4);
    let o = pdnkit(&["check", "-q", f.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&o.stdout)
        .contains("4 plies after a game's first move error not checked"));
}

#[test]
fn exports_say_what_a_verdict_rests_on() {
    let d = tempdir("verdicts-export");
    let f = d.join("e.pdn");
    std::fs::write(
        &f,
        "[GameType \"21\"]\n[Result \"0-1\"]\n1. 11-15 23-19 0-1\n\n[Event \"untagged\"]\n[Result \"1-0\"]\n1. 11-15 23-19 *\n",
    )
    .unwrap();
    let csv_out = d.join("e.csv");
    let o = pdnkit(&[
        "convert",
        "--to",
        "csv",
        "-o",
        csv_out.to_str().unwrap(),
        f.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    let mut r = csv::Reader::from_path(&csv_out).unwrap();
    let head = r.headers().unwrap().clone();
    let col = |name: &str| {
        head.iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("{name}"))
    };
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    let cells = |row: &csv::StringRecord| {
        (
            row[col("variant")].to_string(),
            row[col("variant_source")].to_string(),
            row[col("declared_result")].to_string(),
            row[col("declared_result_text")].to_string(),
        )
    };
    assert_eq!(
        cells(&rows[0]),
        ("english".into(), "tag".into(), "2-0".into(), "0-1".into())
    );
    assert_eq!(
        cells(&rows[1]),
        ("english".into(), "file".into(), "0-2".into(), "1-0".into())
    );
    // A refused file exports no variant and no validity.
    let o = pdnkit(&[
        "convert",
        "--to",
        "csv",
        &data("verdicts/refused-single.pdn"),
    ]);
    let mut r = csv::Reader::from_reader(&o.stdout[..]);
    let head = r.headers().unwrap().clone();
    let row = r.records().next().unwrap().unwrap();
    let at = |name: &str| row[head.iter().position(|h| h == name).unwrap()].to_string();
    assert_eq!(
        (at("variant"), at("variant_source"), at("valid")),
        ("".into(), "refused".into(), "".into())
    );
}
