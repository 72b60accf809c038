//! convert, stats and dupes as users run them.
use crate::common;

use common::{corpus, json_lines, pdnkit, tempdir};

use serde_json::Value;
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Output;

#[test]
fn csv_reads_back_to_the_same_values_as_json_lines() {
    for moves in [false, true] {
        let mut args = vec!["convert", "--tag", "GameType", "--tag", "Opening"];
        if moves {
            args.extend(["--moves", "--fen"]);
        }
        let path = corpus("");
        let csv_out = pdnkit(&[&args[..], &["--to", "csv", &path]].concat());
        let json_out = pdnkit(&[&args[..], &["--to", "jsonl", &path]].concat());
        let mut rdr = csv::Reader::from_reader(csv_out.stdout.as_slice());
        let headers = rdr.headers().unwrap().clone();
        let rows: Vec<csv::StringRecord> = rdr.records().map(|r| r.unwrap()).collect();
        let objs = json_lines(&json_out);
        // The columns are the library's one list (and the --tag columns after it).
        if !moves {
            let mut want: Vec<&str> = pdnkit::export::GameRow::columns();
            // GameType is a column already (variant): --tag does not repeat it.
            want.push("Opening");
            assert_eq!(headers.iter().collect::<Vec<_>>(), want);
        }
        assert_eq!(rows.len(), objs.len());
        assert!(rows.len() > if moves { 300 } else { 20 });
        for (r, o) in rows.iter().zip(&objs) {
            for (h, cell) in headers.iter().zip(r.iter()) {
                // A column must be a field of the JSON row: a misspelt name cannot
                // pass by comparing an empty cell with a missing field.
                let v = o
                    .get(h)
                    .unwrap_or_else(|| panic!("column {h} is no JSON field"));
                let want = match v {
                    Value::Null => String::new(),
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                assert_eq!(cell, want, "column {h}");
            }
        }
    }
}

#[test]
fn stats_counts_known_by_construction() {
    let d = tempdir("stats");
    let f = d.join("three.pdn");
    std::fs::write(
        &f,
        "[GameType \"20\"][Result \"2-0\"]\n1. 32-28 19-23 2. 28x19 14x23 2-0\n\
         [GameType \"20\"][Result \"0-2\"]\n1. 32-28 19-23 0-2\n\
         [GameType \"20\"][Result \"*\"]\n1. 33-28 *\n",
    )
    .unwrap();
    let o = pdnkit(&["stats", "--format", "json", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let all = &v["all"];
    assert_eq!(all["games"], 3);
    assert_eq!(all["valid"], 3);
    assert_eq!(all["plies"]["min"], 1);
    assert_eq!(all["plies"]["median"], 2.0);
    assert!((all["plies"]["mean"].as_f64().unwrap() - 7.0 / 3.0).abs() < 1e-9);
    assert_eq!(all["plies"]["max"], 4);
    assert_eq!(all["captures"], 2);
    assert_eq!(all["longest_capture"], 1);
    assert_eq!(all["declared_results"]["2-0"], 1);
    assert_eq!(all["declared_results"]["0-2"], 1);
    assert_eq!(all["declared_results"]["*"], 1);
    let top = &all["openings_2"][0];
    assert_eq!(top["moves"], "international: 32-28 19-23");
    assert_eq!(top["games"], 2);
    assert_eq!(top["white_score"], 0.5);
    assert_eq!(
        all["openings_4"][0]["moves"],
        "international: 32-28 19-23 28x19 14x23"
    );
    assert_eq!(v["variant:international"]["games"], 3);
    // CSV and per-file forms agree with the JSON.
    let o = pdnkit(&[
        "stats",
        "--format",
        "csv",
        "--per-file",
        f.to_str().unwrap(),
    ]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("all,games,,3"));
    assert!(text.contains(&format!("file:{},captures,,2", f.display())));
    let _ = std::fs::remove_dir_all(&d);
}

/// Per game (file order): plies, computed result, termination and the move errors
/// (normalising rewrites ambiguous short captures and wrong separators, so their warnings go).
type Outcome = (u64, String, String, Vec<(String, u64)>);

fn outcome(o: &Output) -> Vec<Outcome> {
    json_lines(o)
        .into_iter()
        .filter(|v| v["type"] == "game")
        .map(|v| {
            let moves = v["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| d.get("ply").is_some() && d["severity"] == "error")
                .map(|d| {
                    (
                        d["code"].as_str().unwrap().to_string(),
                        d["ply"].as_u64().unwrap(),
                    )
                })
                .collect();
            (
                v["plies"].as_u64().unwrap(),
                v["computed_result"].to_string(),
                v["termination"].to_string(),
                moves,
            )
        })
        .collect()
}

/// Per game: whether its variant does not come from its own GameType.
fn sources(o: &Output) -> Vec<bool> {
    json_lines(o)
        .into_iter()
        .filter(|v| v["type"] == "game")
        .map(|v| v["variant_source"] != "tag")
        .collect()
}

#[test]
fn normalised_pdn_replays_the_same_and_fix_results_fixes_only_results() {
    let mut roots: Vec<PathBuf> = Vec::new();
    roots.extend(common::shared("conformance/games"));
    roots.extend(common::shared("corpus/real"));
    roots.push(PathBuf::from(corpus("")));
    let d = tempdir("pdn");
    for (n, root) in roots.iter().enumerate() {
        let out = d.join(format!("out{n}.pdn"));
        let root = root.to_str().unwrap();
        pdnkit(&["convert", "--to", "pdn", "-o", out.to_str().unwrap(), root]);
        let before = pdnkit(&["check", "--format", "json", root]);
        let after = pdnkit(&["check", "--format", "json", out.to_str().unwrap()]);
        let (b, a) = (outcome(&before), outcome(&after));
        assert_eq!(b.len(), a.len(), "{root}: game count");
        // Written into one output with other files' games, a game without
        // GameType takes that output's decision, not its own file's (an
        // inferred variant is never written as a tag): only the games with
        // their own GameType are compared here. Each file on its own keeps
        // every game's meaning (tests/roundtrip.rs).
        let not_own_tag = sources(&before);
        assert_eq!(not_own_tag.len(), b.len());
        let mut compared = 0;
        for (i, (x, y)) in b.iter().zip(&a).enumerate() {
            if not_own_tag[i] {
                continue;
            }
            compared += 1;
            assert_eq!(x, y, "{root}: game {} of the whole run", i + 1);
        }
        assert!(compared * 10 > b.len(), "{root}: {compared} of {}", b.len());
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(
            !text.contains('\u{fffd}') || root.contains("real"),
            "UTF-8 output"
        );
    }
    // --fix-results on the conformance games: every result-mismatch disappears, nothing else changes.
    if let Some(games) = common::shared("conformance/games") {
        let fixed = d.join("fixed.pdn");
        let o = pdnkit(&[
            "convert",
            "--to",
            "pdn",
            "--fix-results",
            "-o",
            fixed.to_str().unwrap(),
            games.to_str().unwrap(),
        ]);
        let listed = String::from_utf8_lossy(&o.stderr)
            .lines()
            .filter(|l| l.contains(": Result "))
            .count();
        let before = pdnkit(&["check", "--format", "json", games.to_str().unwrap()]);
        let after = pdnkit(&["check", "--format", "json", fixed.to_str().unwrap()]);
        let count = |o: &Output| {
            json_lines(o)
                .iter()
                .filter(|v| v["type"] == "game")
                .flat_map(|v| v["diagnostics"].as_array().unwrap().clone())
                .filter(|d| d["code"] == "result-mismatch")
                .count()
        };
        assert!(count(&before) > 0);
        assert_eq!(count(&after), 0);
        assert_eq!(
            listed,
            count(&before),
            "each changed game is listed on stderr"
        );
        assert_eq!(outcome(&before), outcome(&after));
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn outputs_never_overwrite_inputs_and_in_place_keeps_a_backup() {
    let d = tempdir("inplace");
    let f = d.join("g.pdn");
    std::fs::copy(corpus("brazilian/faults.pdn"), &f).unwrap();
    let original = std::fs::read(&f).unwrap();
    // -o naming an input is refused, the input untouched.
    let o = pdnkit(&[
        "convert",
        "--to",
        "pdn",
        "-o",
        f.to_str().unwrap(),
        f.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read(&f).unwrap(), original);
    // --in-place rewrites, keeping NAME.bak; a second run refuses to overwrite the .bak.
    let o = pdnkit(&[
        "convert",
        "--to",
        "pdn",
        "--fix-results",
        "--in-place",
        f.to_str().unwrap(),
    ]);
    assert!(
        o.status.code() != Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let bak = d.join("g.pdn.bak");
    assert_eq!(std::fs::read(&bak).unwrap(), original);
    assert_ne!(std::fs::read(&f).unwrap(), original);
    let o = pdnkit(&["convert", "--to", "pdn", "--in-place", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read(&bak).unwrap(), original);
    // No temporary files are left behind.
    let names: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.contains(".tmp")), "{names:?}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn dupes_finds_the_games_stored_twice_in_the_real_corpus() {
    let Some(dir) = common::shared("corpus/real/international") else {
        return;
    };
    let o = pdnkit(&[
        "dupes",
        "--json",
        "--variant",
        "international",
        dir.to_str().unwrap(),
    ]);
    let v = json_lines(&o);
    let groups: Vec<&Value> = v.iter().filter(|x| x["type"] == "duplicates").collect();
    // SOURCES.md: syb-andr holds the same 20 games as Sijbrands_vs_Andreiko; the
    // bruno-hist copy of BrunoVsScan31 holds 9 of its 11 games.
    let mut pairs: HashMap<(&str, &str), usize> = HashMap::new();
    for g in &groups {
        let files: Vec<&str> = g["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["file"].as_str().unwrap())
            .collect();
        let has = |n: &str| files.iter().any(|f| f.ends_with(n));
        if has("bruno-hist__syb-andr.pdn") && has("bruno__Sijbrands_vs_Andreiko.pdn") {
            *pairs.entry(("syb", "sij")).or_default() += 1;
        }
        if has("bruno-hist__BrunoVsScan31.pdn") && has("bruno__BrunoVsScan31.pdn") {
            *pairs.entry(("hist", "scan")).or_default() += 1;
        }
    }
    assert_eq!(pairs.get(&("syb", "sij")), Some(&20));
    assert_eq!(pairs.get(&("hist", "scan")), Some(&9));
    let summary = v.last().unwrap();
    assert_eq!(summary["type"], "summary");
    assert_eq!(
        summary["duplicate_groups"].as_u64().unwrap() as usize,
        groups.len()
    );
}
