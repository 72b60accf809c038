//! The real Russian, English checkers, Italian and Czech archives of
//! ../shared/corpus/real/other/ (by nobody here), checked under their own
//! rules: every flagged game is named here with the reason.
mod common;

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Per file name: (games, valid, unchecked, variants used).
type Tally = BTreeMap<String, (u64, u64, u64, BTreeSet<String>)>;

fn check(args: &[&str]) -> (Vec<Value>, Tally) {
    let o = common::pdnkit(&[&["check", "--format", "json"], args].concat());
    let lines = common::json_lines(&o);
    let mut t = Tally::new();
    for v in &lines {
        if v["type"] != "game" {
            continue;
        }
        let name = file_name(&v["file"]);
        let e = t.entry(name).or_default();
        e.0 += 1;
        match v["valid"].as_bool() {
            Some(true) => e.1 += 1,
            Some(false) => {}
            None => e.2 += 1,
        }
        e.3.insert(v["variant"].as_str().unwrap_or("null").to_string());
    }
    (lines, t)
}

fn file_name(v: &Value) -> String {
    let f = v.as_str().unwrap_or("");
    f.rsplit('/').next().unwrap_or(f).to_string()
}

/// Move errors as (file, game, ply, code).
fn move_errors(lines: &[Value]) -> Vec<(String, u64, u64, String)> {
    let mut out = Vec::new();
    for v in lines.iter().filter(|v| v["type"] == "game") {
        for d in v["diagnostics"].as_array().into_iter().flatten() {
            if d["severity"] == "error" {
                out.push((
                    file_name(&v["file"]),
                    v["game"].as_u64().unwrap_or(0),
                    d["ply"].as_u64().unwrap_or(0),
                    d["code"].as_str().unwrap_or("").to_string(),
                ));
            }
        }
    }
    out
}

const RUSSIAN: [&str; 4] = [
    "wiegerw__ussr1947.pdn",
    "wiegerw-zip__ussr1947.pdn",
    "wiegerw-fail__abatsiev.pdn",
    "wiegerw-zip-fail__abatsiev.pdn",
];

const ENGLISH_GAMES: [&str; 6] = [
    "checkerboard__tinsley.pdn",
    "wiegerw__OCA_2.0.pdn",
    "wiegerw__Principles of Strategy.pdn",
    "wiegerw__Tricks traps and shots.pdn",
    "wiegerw__borderclassics.pdn",
    "wiegerw__inferno.pdn",
];

/// Czech draughts (RULES.md section 7): every game of the five Czech files is
/// legal under Czech rules when the variant is named.
#[test]
fn czech_archives_are_legal_under_czech_rules() {
    let Some(dir) = common::shared("corpus/real/other") else {
        return;
    };
    let paths: Vec<String> = CZECH
        .iter()
        .map(|(n, ..)| dir.join(n).display().to_string())
        .collect();
    let mut args = vec!["--variant", "czech"];
    args.extend(paths.iter().map(String::as_str));
    let (lines, t) = check(&args);
    let mut games = 0;
    for (name, n, ..) in CZECH {
        let (g, valid, unchecked, variants) = &t[name];
        assert_eq!((*g, *valid, *unchecked), (n, n, 0), "{name}");
        assert_eq!(variants, &BTreeSet::from(["czech".to_string()]));
        games += g;
    }
    assert_eq!(games, 298);
    assert!(move_errors(&lines).is_empty());
}

/// The Czech files: games, and of the games with moves those that fail under
/// brazilian rules (what the evidence gives them).
const CZECH: [(&str, u64, u64, u64); 5] = [
    ("wiegerw__mrcd2006.pdn", 44, 35, 44),
    ("wiegerw__mrcd2007.pdn", 102, 84, 94),
    ("wiegerw__mrcd2000kval.pdn", 40, 34, 40),
    ("wiegerw-fail__mrdrcd07.pdn", 72, 65, 69),
    ("wiegerw-fail__mrdrcd08.pdn", 40, 36, 39),
];

/// English problem collections: positions (FEN) and results, no moves.
const ENGLISH_PROBLEMS: [&str; 5] = [
    "wiegerw__beginner.pdn",
    "wiegerw__bridges.pdn",
    "wiegerw__gem.pdn",
    "wiegerw__goulds.pdn",
    "wiegerw__lpc.pdn",
];

#[test]
fn russian_and_english_archives_under_their_own_rules() {
    let Some(dir) = common::shared("corpus/real/other") else {
        return;
    };
    let (lines, t) = check(&[dir.to_str().unwrap()]);
    // Russian: every game of the Belarus championships (GameType 25) and of
    // the untagged Soviet collections (read as russian from ':' captures or
    // Cyrillic tags) is legal under Russian rules.
    let mut russian_games = 0;
    for (name, (games, valid, unchecked, variants)) in &t {
        if name.starts_with("jpalaz") || RUSSIAN.contains(&name.as_str()) {
            assert_eq!(variants, &BTreeSet::from(["russian".to_string()]), "{name}");
            assert_eq!((valid, unchecked), (games, &0), "{name}");
            russian_games += games;
        }
    }
    assert_eq!(russian_games, 1070, "Russian games in the folder");
    // English checkers with moves: read as english from their openings; all
    // legal except one transcription fault in Tinsley's games.
    for name in ENGLISH_GAMES {
        let (games, valid, _, variants) = &t[name];
        assert_eq!(variants, &BTreeSet::from(["english".to_string()]), "{name}");
        let faulty = u64::from(name == "checkerboard__tinsley.pdn");
        assert_eq!(games - valid, faulty, "{name}");
    }
    // Tinsley game 541 (Petal 1981 game 18): the record has 60. 32-28, then
    // 62. 32-28 again, with the king already on 28: square 32 is empty.
    let errors = move_errors(&lines);
    assert!(errors.contains(&(
        "checkerboard__tinsley.pdn".into(),
        541,
        123,
        "empty-source".into()
    )));
    // Italian: read as italian from the Italian tag names; every game legal
    // but game 46 of each copy, whose last move 3x26 fits 3x10x19x26 and
    // 3x10x17x26 (three men each, equal under art. 6): ambiguous-capture by
    // RULES.md 5.3, at ply 26.
    for name in [
        "wiegerw__Campionato Assoluto 2005.pdn",
        "wiegerw-zip__Campionato Assoluto 2005.pdn",
    ] {
        let (games, valid, unchecked, variants) = &t[name];
        assert_eq!((*games, *valid, *unchecked), (53, 52, 0), "{name}");
        assert_eq!(variants, &BTreeSet::from(["italian".to_string()]));
        let faults: Vec<_> = errors.iter().filter(|e| e.0 == name).collect();
        assert_eq!(
            faults,
            [&(name.to_string(), 46, 26, "ambiguous-capture".to_string())]
        );
        let game46 = lines
            .iter()
            .find(|v| v["type"] == "game" && file_name(&v["file"]) == name && v["game"] == 46)
            .expect("game 46");
        let message = game46["diagnostics"][0]["message"].as_str().unwrap();
        assert!(
            message.contains("3x10x17x26") && message.contains("3x10x19x26"),
            "{message}"
        );
        assert_eq!(game46["variant_source"], "inferred");
    }
    // No game of this folder is of a variant pdnkit refuses.
    let refusals = lines
        .iter()
        .filter(|v| v["type"] == "file")
        .flat_map(|v| v["diagnostics"].as_array().into_iter().flatten())
        .filter(|d| d["code"] == "unsupported-variant")
        .count();
    assert_eq!(refusals, 0);
    // Ballots (no moves) keep the default; the Czech files (no GameType, no
    // evidence, rules not implemented) get the warning that names the problem.
    for name in [
        "checkerboard__11_man_english.pdn",
        "checkerboard__11_man_italian.pdn",
    ] {
        assert_eq!(t[name].3, BTreeSet::from(["brazilian".to_string()]));
    }
    // The Czech files (no GameType; their moves are not Brazilian, which is
    // what the evidence gives) are refused: one unknown-variant error each,
    // with the counts, and not one game judged.
    for (name, games, failing, with_moves) in CZECH {
        let (n, valid, unchecked, variants) = &t[name];
        assert_eq!((*n, *valid, *unchecked), (games, 0, games), "{name}");
        assert_eq!(variants, &BTreeSet::from(["null".to_string()]), "{name}");
        let findings: Vec<&Value> = lines
            .iter()
            .filter(|v| v["type"] == "file" && file_name(&v["file"]) == name)
            .flat_map(|v| v["diagnostics"].as_array().into_iter().flatten())
            .filter(|d| d["severity"] == "error")
            .collect();
        assert_eq!(findings.len(), 1, "{name}: {findings:?}");
        assert_eq!(findings[0]["code"], "unknown-variant");
        let message = findings[0]["message"].as_str().unwrap();
        let counts =
            format!("{failing} of {with_moves} games with moves fail under brazilian rules");
        assert!(message.contains(&counts), "{name}: {message}");
        assert!(message.contains(&format!(
            "its {games} games without a GameType tag are not checked"
        )));
        assert!(
            message.contains(&format!("all {with_moves} are legal under czech rules")),
            "{message}"
        );
        for v in lines
            .iter()
            .filter(|v| v["type"] == "game" && file_name(&v["file"]) == name)
        {
            assert_eq!(v["variant_source"], "refused");
            assert_eq!(v["checked"], false);
            assert_eq!(
                v["diagnostics"]
                    .as_array()
                    .map_or(0, |d| d.iter().filter(|d| d.get("ply").is_some()).count()),
                0
            );
        }
    }
    // non-maximal-capture never appears in a Russian or English game.
    for (file, game, _, code) in &errors {
        let ru_en = file.starts_with("jpalaz")
            || RUSSIAN.contains(&file.as_str())
            || ENGLISH_GAMES.contains(&file.as_str());
        assert!(
            !(ru_en && code == "non-maximal-capture"),
            "{file} game {game}"
        );
    }
}

#[test]
fn english_problem_collections_named_as_english() {
    let Some(dir) = common::shared("corpus/real/other") else {
        return;
    };
    let paths: Vec<String> = ENGLISH_PROBLEMS
        .iter()
        .map(|n| dir.join(n).display().to_string())
        .collect();
    let mut args = vec!["--variant", "english"];
    args.extend(paths.iter().map(String::as_str));
    let (lines, t) = check(&args);
    for name in ENGLISH_PROBLEMS {
        assert_eq!(t[name].3, BTreeSet::from(["english".to_string()]));
    }
    // Every fault is a FEN that cannot be a position: a man on its own
    // crowning row (beginner 10, goulds 93, lpc 36, 63, 65, 73) or an empty
    // FEN body (bridges 14).
    let mut faults: Vec<(String, u64, String)> = move_errors(&lines)
        .into_iter()
        .map(|(f, g, _, c)| (f, g, c))
        .collect();
    faults.sort();
    let want: Vec<(String, u64, String)> = [
        ("wiegerw__beginner.pdn", 10),
        ("wiegerw__bridges.pdn", 14),
        ("wiegerw__goulds.pdn", 93),
        ("wiegerw__lpc.pdn", 36),
        ("wiegerw__lpc.pdn", 63),
        ("wiegerw__lpc.pdn", 65),
        ("wiegerw__lpc.pdn", 73),
    ]
    .iter()
    .map(|(f, g)| (f.to_string(), *g, "bad-fen".to_string()))
    .collect();
    assert_eq!(faults, want);
}

#[test]
fn no_game_is_judged_by_another_variants_rules() {
    let Some(dir) = common::shared("corpus/real") else {
        return;
    };
    let (lines, _) = check(&[dir.to_str().unwrap()]);
    for v in lines.iter().filter(|v| v["type"] == "game") {
        let file = v["file"].as_str().unwrap();
        let name = file_name(&v["file"]);
        let variant = v["variant"].as_str().unwrap_or("null");
        let expected = if file.contains("/international/") {
            Some("international")
        } else if name.starts_with("jpalaz") || RUSSIAN.contains(&name.as_str()) {
            Some("russian")
        } else if ENGLISH_GAMES.contains(&name.as_str()) {
            Some("english")
        } else if name.contains("Campionato") {
            Some("italian")
        } else {
            None
        };
        if let Some(want) = expected {
            assert_eq!(variant, want, "{file} game {}", v["game"]);
        }
        // Nothing is refused as unsupported any more: every game is checked
        // under its own variant's rules, or its file is refused as a whole.
        if v["checked"] == false {
            assert_eq!(v["variant_source"], "refused", "{file} game {}", v["game"]);
        }
    }
}

/// The Italian ballots (FEN of the mirrored board, no tags but the FEN) keep
/// the default variant; named Italian, all 2,400 are positions of it.
#[test]
fn italian_ballots_named_as_italian() {
    let Some(dir) = common::shared("corpus/real/other") else {
        return;
    };
    let path = dir.join("checkerboard__11_man_italian.pdn");
    let (_, t) = check(&["--variant", "italian", path.to_str().unwrap()]);
    let (games, valid, unchecked, variants) = &t["checkerboard__11_man_italian.pdn"];
    assert_eq!((*games, *valid, *unchecked), (2400, 2400, 0));
    assert_eq!(variants, &BTreeSet::from(["italian".to_string()]));
}
