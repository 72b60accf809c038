//! `pdnkit check` over ../shared/conformance/games/ against manifest.jsonl,
//! under both rule sets (the built binary is run, as a user would).
use crate::common;

use serde_json::Value;
use std::collections::HashMap;
use std::process::Command;

fn run(dir: &std::path::Path, rules: &str) -> HashMap<(String, u64), Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_pdnkit"))
        .args([
            "check",
            "--format",
            "json",
            "--no-progress",
            "--draw-rules",
            rules,
        ])
        .arg(dir)
        .output()
        .expect("pdnkit runs");
    assert_eq!(
        out.status.code(),
        Some(1),
        "the conformance games hold errors, so exit 1"
    );
    let prefix = format!("{}/", dir.display());
    let mut games = HashMap::new();
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let v: Value = serde_json::from_str(line).expect("JSON Lines");
        if v["type"] == "game" {
            let file = v["file"]
                .as_str()
                .unwrap()
                .trim_start_matches(&prefix)
                .to_string();
            games.insert((file, v["game"].as_u64().unwrap()), v);
        }
    }
    games
}

#[test]
fn every_conformance_game_agrees_under_both_rule_sets() {
    agree("conformance/games", 489);
}

#[test]
fn every_russian_and_english_conformance_game_agrees() {
    agree("conformance/russian-english/games", 240);
}

/// The Italian and Czech games of ../shared/conformance/italian-czech.
#[test]
fn every_italian_and_czech_conformance_game_agrees() {
    agree("conformance/italian-czech/games", 230);
}

/// Frisian and Frysk! (RULES.md section 10): the same answers under every
/// `--draw-rules`, since their draws are their own (`draw_rules: frisian`).
#[test]
fn every_frisian_and_frysk_conformance_game_agrees() {
    agree("conformance/frisian/games", 208);
}

/// The Frisian games vendored in tests/data/frisian: runs on every clone;
/// every game reports its own draw rules.
#[test]
fn vendored_frisian_games_agree() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/frisian/games");
    agree_in(&dir, 208);
    for v in run(&dir, "cbjd").values() {
        assert_eq!(v["draw_rules"], "frisian", "{}", v["file"]);
        assert!(v["variant"] == "frisian" || v["variant"] == "frysk");
    }
}

/// Antidraughts and breakthrough (RULES.md 13), vendored whole in
/// tests/data/anti-breakthrough (runs on every clone): the same answers
/// under every `--draw-rules`, since neither has a draw by rule.
#[test]
fn vendored_antidraughts_and_breakthrough_games_agree() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/anti-breakthrough/games");
    agree_in(&dir, 128);
    for v in run(&dir, "fmjd").values() {
        assert_eq!(v["draw_rules"], "none", "{}", v["file"]);
        assert!(v["variant"] == "antidraughts" || v["variant"] == "breakthrough");
    }
}

/// Turkish draughts (RULES.md 12), vendored whole in tests/data/turkish:
/// no draw by rule, algebraic squares on the 64-square board.
#[test]
fn vendored_turkish_games_agree() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/turkish/games");
    agree_in(&dir, 121);
    for v in run(&dir, "cbjd").values() {
        assert_eq!(
            (&v["variant"], &v["draw_rules"]),
            (&"turkish".into(), &"none".into()),
            "{}",
            v["file"]
        );
    }
}

/// The same set in ../shared, where it is generated.
#[test]
fn every_turkish_conformance_game_agrees() {
    agree("conformance/turkish/games", 121);
}

/// The same set in ../shared, where it is generated.
#[test]
fn every_antidraughts_and_breakthrough_conformance_game_agrees() {
    agree("conformance/anti-breakthrough/games", 128);
}

/// The subset vendored in tests/data: runs on every clone.
#[test]
fn vendored_conformance_games_agree() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/games");
    agree_in(&dir, 240);
}

fn agree(rel: &str, at_least: usize) {
    let Some(dir) = common::shared(rel) else {
        return;
    };
    agree_in(&dir, at_least);
}

fn agree_in(dir: &std::path::Path, at_least: usize) {
    agree_where(dir, at_least, |_| true);
}

fn agree_where(dir: &std::path::Path, at_least: usize, keep: impl Fn(&Value) -> bool) {
    let dir = dir.to_path_buf();
    let manifest: Vec<Value> = common::jsonl(&dir.join("manifest.jsonl"))
        .into_iter()
        .filter(|m| keep(m))
        .collect();
    assert!(manifest.len() >= at_least);
    // The sets that list `moves-after-end` among a game's warnings (the
    // Frisian one) are compared on it too.
    let lists_after_end = manifest.iter().any(|m| {
        m["warnings"].as_array().is_some_and(|w| {
            w.iter()
                .any(|w| w == "moves-after-end" || w["code"] == "moves-after-end")
        })
    });
    let mut failures = Vec::new();
    let mut sensitive_differences = Vec::new();
    for rules in ["cbjd", "fmjd"] {
        let got = run(&dir, rules);
        for m in &manifest {
            let key = (
                m["file"].as_str().unwrap().to_string(),
                m["game"].as_u64().unwrap(),
            );
            let Some(g) = got.get(&key) else {
                failures.push(format!("{rules} {key:?}: not reported"));
                continue;
            };
            let exp = &m[rules];
            let diags = g["diagnostics"].as_array().unwrap();
            let first_err = diags
                .iter()
                .find(|d| d["severity"] == "error" && d.get("ply").is_some());
            let mut probs = Vec::new();
            if g["valid"] != exp["valid"] {
                probs.push(format!("valid {} want {}", g["valid"], exp["valid"]));
            }
            let ply = first_err.map_or(Value::Null, |d| d["ply"].clone());
            if ply != m["first_error_ply"] {
                probs.push(format!(
                    "first error ply {ply} want {}",
                    m["first_error_ply"]
                ));
            }
            if let (Some(d), Some(codes)) = (first_err, m["acceptable_codes"].as_array()) {
                if !codes.is_empty() && !codes.contains(&d["code"]) {
                    probs.push(format!("code {} want one of {codes:?}", d["code"]));
                }
            }
            for k in ["computed_result", "termination", "termination_ply"] {
                if g[k] != exp[k] {
                    probs.push(format!("{k} {} want {}", g[k], exp[k]));
                }
            }
            let mismatch = diags
                .iter()
                .any(|d| d["code"] == "result-mismatch" && d["severity"] == "error");
            if Value::Bool(mismatch) != exp["result_mismatch"] {
                probs.push(format!(
                    "result-mismatch error {mismatch} want {}",
                    exp["result_mismatch"]
                ));
            }
            // Expected move warnings (resolved ambiguous captures, notation, moves
            // after a draw by rule).
            let mut want: Vec<&str> = m["warnings"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|w| w.as_str().or(w["code"].as_str()))
                .collect();
            let mut have: Vec<&str> = diags
                .iter()
                .filter(|d| {
                    d["severity"] == "warning"
                        && (d["code"] == "notation"
                            || d["code"] == "ambiguous-capture"
                            || (lists_after_end && d["code"] == "moves-after-end"))
                })
                .filter_map(|d| d["code"].as_str())
                .collect();
            want.sort();
            have.sort();
            if want != have {
                probs.push(format!("move warnings {have:?} want {want:?}"));
            }
            if !probs.is_empty() {
                let line = format!("{rules} {}#{}: {}", key.0, key.1, probs.join("; "));
                if m["sensitive"].as_array().is_some_and(|s| !s.is_empty()) {
                    sensitive_differences.push(line);
                } else {
                    failures.push(line);
                }
            }
        }
    }
    for s in &sensitive_differences {
        eprintln!("sensitive (RULES.md 4.4 reading; not a failure): {s}");
    }
    eprintln!(
        "{} games x 2 rule sets checked, {} sensitive differences",
        manifest.len(),
        sensitive_differences.len()
    );
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
