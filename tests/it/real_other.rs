//! The real Russian, English checkers, Italian and Czech archives of
//! ../shared/corpus/real/other/ (by nobody here), checked under their own
//! rules: every flagged game is named here with the reason.
use crate::common;

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
    // Ballots (no moves) take the variant their file's name gives (issue
    // 37): never brazilian by default.
    for (name, v) in [
        ("checkerboard__11_man_english.pdn", "english"),
        ("checkerboard__11_man_italian.pdn", "italian"),
    ] {
        assert_eq!(t[name].3, BTreeSet::from([v.to_string()]), "{name}");
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
            format!("{failing} of {with_moves} games with moves fail under brazilian, the default");
        assert!(message.contains(&counts), "{name}: {message}");
        assert!(message.contains(&format!("{games} games without a GameType tag not checked")));
        assert!(
            message.contains(&format!("all {with_moves} are legal under czech")),
            "{message}"
        );
        // The option it names, for that file alone.
        let option = format!("--variant '{name}=czech'");
        assert!(message.ends_with(&option), "{message}");
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
            assert!(
                v["variant_source"] == "refused" || v["variant_source"] == "undecided",
                "{file} game {}",
                v["game"]
            );
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

/// A game's (variant, variant_source, valid, error codes with their plies).
type Verdict = (String, String, String, Vec<String>);

/// Per game of the whole real tree, by (file, game): its verdict.
fn verdicts(lines: &[Value]) -> BTreeMap<(String, u64), Verdict> {
    lines
        .iter()
        .filter(|v| v["type"] == "game")
        .map(|v| {
            let codes = v["diagnostics"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|d| d["severity"] == "error")
                .map(|d| format!("{}@{}", d["code"], d["ply"]))
                .collect();
            (
                (
                    v["file"].as_str().unwrap_or("").to_string(),
                    v["game"].as_u64().unwrap_or(0),
                ),
                (
                    v["variant"].to_string(),
                    v["variant_source"].to_string(),
                    v["valid"].to_string(),
                    codes,
                ),
            )
        })
        .collect()
}

/// Issue 37: the option a refusal names applies to that file alone. Over the
/// whole real tree, `--variant 'GLOB=czech'` checks the Czech files as
/// czech (all 298 games valid) and leaves every other game's verdict as it
/// was; a bare `--variant czech` leaves the 10x10 files as they are, with
/// the warning that it was not applied to them.
#[test]
fn a_variant_named_for_some_files_leaves_the_rest_alone() {
    let Some(dir) = common::shared("corpus/real") else {
        return;
    };
    let root = dir.to_str().unwrap();
    let (plain, _) = check(&[root]);
    let before = verdicts(&plain);
    let (named, t) = check(&[
        "--variant",
        "*mrcd*=czech",
        "--variant",
        "*mrdrcd0?.pdn=czech",
        root,
    ]);
    let after = verdicts(&named);
    assert_eq!(before.len(), after.len());
    let mut czech = 0;
    for (key, verdict) in &after {
        let name = key.0.rsplit('/').next().unwrap_or("");
        if CZECH.iter().any(|(n, ..)| *n == name) {
            assert_eq!(verdict.0, "\"czech\"", "{key:?}");
            assert_eq!(verdict.1, "\"named\"", "{key:?}");
            assert_eq!(verdict.2, "true", "{key:?}");
            czech += 1;
        } else {
            assert_eq!(Some(verdict), before.get(key), "{key:?}");
        }
    }
    assert_eq!(czech, 298);
    for (n, ..) in CZECH {
        assert_eq!(t[n].3, BTreeSet::from(["czech".to_string()]));
    }
    // The bare name: never applied across boards.
    let (bare, _) = check(&["--variant", "czech", root]);
    let bare_verdicts = verdicts(&bare);
    for (key, verdict) in &bare_verdicts {
        if key.0.contains("/international/") {
            assert_eq!(Some(verdict), before.get(key), "{key:?}");
        }
    }
    let warned = bare
        .iter()
        .filter(|v| {
            v["type"] == "file" && v["file"].as_str().unwrap_or("").contains("/international/")
        })
        .flat_map(|v| v["diagnostics"].as_array().into_iter().flatten())
        .filter(|d| {
            d["message"]
                .as_str()
                .unwrap_or("")
                .contains("--variant czech was not applied")
        })
        .count();
    assert!(warned > 20, "{warned}");
}

/// Issue 37: no game of the real archives is read as brazilian by a default
/// that another variant beats; the only brazilian game is the one-move
/// snippet legal under every 8x8 variant, with the tie named.
#[test]
fn no_real_game_is_brazilian_by_default() {
    let Some(dir) = common::shared("corpus/real") else {
        return;
    };
    let (lines, t) = check(&[dir.to_str().unwrap()]);
    let brazilian: Vec<&String> = t
        .iter()
        .filter(|(_, e)| e.3.contains("brazilian"))
        .map(|(n, _)| n)
        .collect();
    assert_eq!(brazilian, vec!["wiegerw-snippet__alphanumeric.pdn"]);
    let tie = lines
        .iter()
        .filter(|v| {
            v["type"] == "file" && file_name(&v["file"]) == "wiegerw-snippet__alphanumeric.pdn"
        })
        .flat_map(|v| v["diagnostics"].as_array().into_iter().flatten())
        .filter_map(|d| d["message"].as_str())
        .any(|m| m.contains("also legal under russian and czech"));
    assert!(tie);
    // The English problem files: english, or undecided with their results as written.
    for name in ENGLISH_PROBLEMS {
        let games: Vec<&Value> = lines
            .iter()
            .filter(|v| v["type"] == "game" && file_name(&v["file"]) == name)
            .collect();
        assert!(!games.is_empty(), "{name}");
        for g in games {
            match g["variant"].as_str() {
                Some("english") => {}
                None => {
                    assert_eq!(g["variant_source"], "undecided", "{name}");
                    let text = g["declared_result_text"].as_str().unwrap_or("");
                    if text == "1-0" || text == "0-1" {
                        assert!(g["declared_result"].is_null(), "{name} {g}");
                    }
                }
                other => panic!("{name}: {other:?}"),
            }
        }
    }
}

/// The Result tag values and final tokens of a file, in order, as written.
fn written_results(path: &std::path::Path) -> Vec<String> {
    let text = String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
    let mut out = Vec::new();
    for line in text.lines() {
        let l = line.trim();
        if let Some(v) = l.strip_prefix("[Result \"") {
            out.push(format!("tag {}", v.trim_end_matches("\"]")));
        } else if !l.starts_with('[') {
            for w in l.split_whitespace() {
                if ["1-0", "0-1", "2-0", "0-2", "1-1", "0-0", "1/2-1/2", "*"].contains(&w) {
                    out.push(format!("token {w}"));
                }
            }
        }
    }
    out
}

/// Issue 37: a result is rewritten only where its meaning is known. On copies
/// of the five English problem files, `--in-place --normalise` and
/// `--in-place --fix-results` leave every `1-0`/`0-1` of the undecided files
/// as written, and keep the English order (`0-1`: White won) in the files
/// whose `Red` players make them english; named english, the winners stay.
#[test]
fn results_whose_meaning_is_not_known_are_never_rewritten() {
    let Some(dir) = common::shared("corpus/real/other") else {
        return;
    };
    for mode in [
        &["--normalise"][..],
        &["--fix-results"][..],
        &["--normalise", "--variant", "english"][..],
    ] {
        let tmp = common::tempdir(&format!("english-problems-{}", mode.join("")));
        let copies: Vec<std::path::PathBuf> = ENGLISH_PROBLEMS
            .iter()
            .map(|n| {
                let to = tmp.join(n);
                std::fs::copy(dir.join(n), &to).unwrap();
                to
            })
            .collect();
        let before: Vec<Vec<String>> = copies.iter().map(|p| written_results(p)).collect();
        let (lines_before, _) = check(
            &[
                &["--variant"],
                &[if mode.contains(&"english") {
                    "english"
                } else {
                    "auto"
                }][..],
                &[tmp.to_str().unwrap()][..],
            ]
            .concat(),
        );
        let mut args = vec!["convert", "--to", "pdn", "--in-place"];
        args.extend_from_slice(mode);
        args.push(tmp.to_str().unwrap());
        let o = common::pdnkit(&args);
        assert!(
            o.status.success(),
            "{mode:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let after: Vec<Vec<String>> = copies.iter().map(|p| written_results(p)).collect();
        let (lines_after, _) = check(
            &[
                &["--variant"],
                &[if mode.contains(&"english") {
                    "english"
                } else {
                    "auto"
                }][..],
                &[tmp.to_str().unwrap()][..],
            ]
            .concat(),
        );
        for ((name, b), a) in ENGLISH_PROBLEMS.iter().zip(&before).zip(&after) {
            let undecided = lines_before.iter().any(|v| {
                v["type"] == "game"
                    && file_name(&v["file"]) == *name
                    && v["variant_source"] == "undecided"
            });
            if undecided {
                // Byte for byte: every `1-0`/`0-1` tag value and token as it
                // was (a draw may be written in the normalised family).
                assert_eq!(a.len(), b.len(), "{mode:?} {name}");
                let changed: Vec<(&String, &String)> = b
                    .iter()
                    .zip(a)
                    .filter(|(b, a)| (b.ends_with(" 1-0") || b.ends_with(" 0-1")) && a != b)
                    .collect();
                assert!(
                    changed.is_empty(),
                    "{mode:?} {name}: {:?}",
                    &changed[..changed.len().min(5)]
                );
            }
        }
        // Every game's declared meaning is what it was.
        let meaning = |lines: &[Value]| -> Vec<(String, String, String)> {
            lines
                .iter()
                .filter(|v| v["type"] == "game")
                .map(|v| {
                    (
                        file_name(&v["file"]),
                        v["declared_result"].to_string(),
                        v["variant"].to_string(),
                    )
                })
                .collect()
        };
        assert_eq!(meaning(&lines_before), meaning(&lines_after), "{mode:?}");
        // No `0-2` where the source wrote an English `0-1` (White won).
        let decisive = lines_after
            .iter()
            .filter(|v| v["type"] == "game" && v["declared_result"] == "2-0")
            .count();
        assert!(decisive > 0, "{mode:?}");
    }
}

/// The Belarus Russian championships replayed as Brazilian with
/// `--irregularities stand` (issue 42): a Russian capture that takes fewer
/// than the most stands under Brazilian rules, so a game whose only faults
/// are such captures replays to its end; a man that crowned in passing and
/// went on capturing as a king has no Brazilian reading, so its game stops
/// at that move, or at the first later move that needs the piece to be a
/// king.
#[test]
fn russian_games_replayed_as_brazilian_with_irregularities_standing() {
    let Some(dir) = common::shared("corpus/real/other") else {
        return;
    };
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("the folder")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| file_name(&Value::from(p.to_string_lossy())).starts_with("jpalaz"))
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    files.sort();
    let args = |mode: &str| -> Vec<String> {
        ["--force-variant", "brazilian", "--irregularities", mode]
            .iter()
            .map(|s| s.to_string())
            .chain(files.iter().cloned())
            .collect()
    };
    let games = |mode: &str| -> Vec<Value> {
        let a = args(mode);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        check(&a)
            .0
            .into_iter()
            .filter(|v| v["type"] == "game")
            .collect()
    };
    let (stop, stand) = (games("stop"), games("stand"));
    assert_eq!(stop.len(), stand.len());
    // The Russian reading of every move: who moved, what piece, whether it
    // crowned, where it ended.
    let mut conv: Vec<String> = [
        "convert",
        "--to",
        "jsonl",
        "--moves",
        "--force-variant",
        "russian",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    conv.extend(files.iter().cloned());
    let conv: Vec<&str> = conv.iter().map(String::as_str).collect();
    let mut russian: BTreeMap<(String, u64, u64), Value> = BTreeMap::new();
    for row in common::json_lines(&common::pdnkit(&conv)) {
        let key = (
            row["file"].as_str().unwrap_or("").to_string(),
            row["game"].as_u64().unwrap_or(0),
            row["ply"].as_u64().unwrap_or(0),
        );
        russian.insert(key, row);
    }
    let (mut to_the_end, mut stopped, mut stood_moves) = (0, 0, 0);
    for (s, g) in stop.iter().zip(&stand) {
        assert_eq!((&s["file"], &s["game"]), (&g["file"], &g["game"]));
        let errors: Vec<&Value> = g["diagnostics"]
            .as_array()
            .expect("diagnostics")
            .iter()
            .filter(|d| d["severity"] == "error")
            .collect();
        let stood = |d: &&&Value| {
            d["message"]
                .as_str()
                .is_some_and(|m| m.contains("it stood: the game goes on"))
        };
        let (standing, stopping): (Vec<&&Value>, Vec<&&Value>) = errors.iter().partition(stood);
        stood_moves += standing.len();
        assert_eq!(g["irregularities"], Value::from(standing.len()));
        for d in &standing {
            assert_eq!(d["code"], "non-maximal-capture", "{g}");
        }
        match stopping.as_slice() {
            [] => {
                // Every fault stood: the whole record was replayed.
                assert_eq!(g["plies_unchecked"], 0, "{g}");
                if !standing.is_empty() {
                    to_the_end += 1;
                    // Under stop the same game ended at its first fault.
                    assert!(s["plies"].as_u64() < g["plies"].as_u64(), "{s}");
                }
            }
            [d] => {
                stopped += 1;
                assert_eq!(d["code"], "illegal-move", "{g}");
                let ply = d["ply"].as_u64().expect("ply");
                let key = (
                    g["file"].as_str().unwrap_or("").to_string(),
                    g["game"].as_u64().unwrap_or(0),
                    ply,
                );
                let row = &russian[&key];
                // The far row of the side that moved: 1-4 for White, 29-32 for Black.
                let far = |to: u64| {
                    if row["side"] == "white" {
                        to <= 4
                    } else {
                        to >= 29
                    }
                };
                let in_passing = row["crowned"] == true && !far(row["to"].as_u64().unwrap_or(0));
                let needs_a_king = row["piece"] == "king";
                assert!(
                    in_passing || needs_a_king,
                    "stopped at ply {ply} by a move a Brazilian man can make: {row}"
                );
                // Nothing after the stop was replayed; everything before was.
                assert_eq!(g["plies"].as_u64(), Some(ply - 1), "{g}");
            }
            more => panic!("one move stops a replay: {more:?}"),
        }
    }
    eprintln!(
        "{} games: {to_the_end} replayed to their end past {stood_moves} moves that stood, {stopped} stopped",
        stand.len()
    );
    assert!(to_the_end >= 50 && stopped >= 10, "{to_the_end} {stopped}");
}
