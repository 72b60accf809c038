//! `pdnkit check --irregularities stop|stand` over the games of
//! ../shared/conformance/irregularities/ (and the subset vendored in
//! tests/data/irregularities) against their manifest: every game under both
//! modes and both draw rule sets (RULES.md section 9).
use crate::common;

use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

/// The game objects of `check --format json` over `dir`, by (file, game).
fn run(dir: &Path, mode: &str, rules: &str) -> HashMap<(String, u64), Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_pdnkit"))
        .args(["check", "--format", "json", "--no-progress"])
        .args(["--irregularities", mode, "--draw-rules", rules])
        .arg(dir)
        .output()
        .expect("pdnkit runs");
    assert_eq!(out.status.code(), Some(1), "every game holds an error");
    let prefix = format!("{}/", dir.display());
    let mut games = HashMap::new();
    for line in String::from_utf8(out.stdout).expect("UTF-8").lines() {
        let v: Value = serde_json::from_str(line).expect("JSON Lines");
        if v["type"] == "game" {
            let file = v["file"].as_str().expect("file");
            let file = file.trim_start_matches(&prefix).to_string();
            games.insert((file, v["game"].as_u64().expect("game")), v);
        }
    }
    games
}

/// What one game reports against what the manifest expects (`exp`: the
/// top-level object under `stop`, its `stand` object under `stand`).
fn differences(g: &Value, exp: &Value, rules: &str, stand: bool) -> Vec<String> {
    let diags = g["diagnostics"].as_array().expect("diagnostics");
    let errors: Vec<&Value> = diags
        .iter()
        .filter(|d| d["severity"] == "error" && d.get("ply").is_some())
        .collect();
    let mut probs = Vec::new();
    let first = errors.first();
    let ply = first.map_or(Value::Null, |d| d["ply"].clone());
    if ply != exp["first_error_ply"] {
        probs.push(format!(
            "first error ply {ply} want {}",
            exp["first_error_ply"]
        ));
    }
    if let (Some(d), Some(codes)) = (first, exp["acceptable_codes"].as_array()) {
        if !codes.contains(&d["code"]) {
            probs.push(format!("code {} want one of {codes:?}", d["code"]));
        }
    }
    let x = &exp[rules];
    for k in ["valid", "computed_result", "termination", "termination_ply"] {
        if g[k] != x[k] {
            probs.push(format!("{k} {} want {}", g[k], x[k]));
        }
    }
    for k in ["irregularities", "plies_unchecked"] {
        if g[k] != exp[k] {
            probs.push(format!("{k} {} want {}", g[k], exp[k]));
        }
    }
    let mismatch = diags
        .iter()
        .any(|d| d["code"] == "result-mismatch" && d["severity"] == "error");
    if Value::Bool(mismatch) != x["result_mismatch"] {
        probs.push(format!(
            "result-mismatch {mismatch} want {}",
            x["result_mismatch"]
        ));
    }
    if stand {
        if g["plies"] != exp["plies"] {
            probs.push(format!("plies {} want {}", g["plies"], exp["plies"]));
        }
        // Each move that stood: its ply, its code, and the words that say so.
        let stood: Vec<(Value, Value)> = errors
            .iter()
            .filter(|d| {
                d["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("it stood: the game goes on"))
            })
            .map(|d| (d["ply"].clone(), d["code"].clone()))
            .collect();
        let want: Vec<(Value, Value)> = exp["irregular_plies"]
            .as_array()
            .expect("irregular_plies")
            .iter()
            .cloned()
            .zip(
                exp["irregular_codes"]
                    .as_array()
                    .expect("codes")
                    .iter()
                    .cloned(),
            )
            .collect();
        if stood != want {
            probs.push(format!("stood {stood:?} want {want:?}"));
        }
        // The move that stopped the replay: the last error about a move.
        let stop = errors
            .iter()
            .rev()
            .find(|d| {
                !d["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("it stood"))
            })
            .map(|d| (d["ply"].clone(), d["code"].clone()));
        let want = (!exp["stopped_ply"].is_null())
            .then(|| (exp["stopped_ply"].clone(), exp["stop_code"].clone()));
        if stop != want {
            probs.push(format!("stopped at {stop:?} want {want:?}"));
        }
    }
    probs
}

fn agree(dir: &Path, at_least: usize) {
    let manifest = common::jsonl(&dir.join("manifest.jsonl"));
    assert!(manifest.len() >= at_least, "{} games", manifest.len());
    let mut failures = Vec::new();
    let mut compared = 0;
    for mode in ["stop", "stand"] {
        for rules in ["cbjd", "fmjd"] {
            let got = run(dir, mode, rules);
            for m in &manifest {
                let key = (
                    m["file"].as_str().expect("file").to_string(),
                    m["game"].as_u64().expect("game"),
                );
                let exp = if mode == "stand" { &m["stand"] } else { m };
                if exp[rules]["ending_restart_sensitive"] == true {
                    continue;
                }
                let Some(g) = got.get(&key) else {
                    failures.push(format!("{mode} {rules} {key:?}: not reported"));
                    continue;
                };
                compared += 1;
                let probs = differences(g, exp, rules, mode == "stand");
                if !probs.is_empty() {
                    failures.push(format!(
                        "{mode} {rules} {}#{} ({}): {}",
                        key.0,
                        key.1,
                        m["id"],
                        probs.join("; ")
                    ));
                }
            }
        }
    }
    eprintln!("{compared} game readings compared");
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every game of the public set, under both modes and both rule sets.
#[test]
fn every_irregularities_game_agrees_under_both_modes() {
    let Some(dir) = common::shared("conformance/irregularities/games") else {
        return;
    };
    agree(&dir, 204);
}

/// The subset vendored in tests/data/irregularities: runs on every clone.
#[test]
fn vendored_irregularities_games_agree_under_both_modes() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/irregularities");
    agree(&dir, 170);
}
