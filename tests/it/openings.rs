//! Openings and ballots (shared/spec/OPENINGS.md, docs/openings.md): every
//! game of the conformance file classified as an independent implementation
//! classifies it, and, on every clone, games made of the shipped tables' own
//! rows classified as those rows.
use crate::common;

use serde_json::Value;
use std::collections::BTreeMap;

/// The fields of an opening that are compared: table, code, name, plies,
/// via, transposed, also.
type Fields = (String, String, Value, u64, String, bool, Vec<String>);

fn fields(o: &Value) -> Option<Fields> {
    if o.is_null() {
        return None;
    }
    let s = |k: &str| o[k].as_str().unwrap_or_default().to_string();
    Some((
        s("table"),
        s("code"),
        o["name"].clone(),
        o["plies"].as_u64().unwrap_or(u64::MAX),
        s("via"),
        o["transposed"].as_bool().unwrap_or(false),
        o["also"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|v| v.as_str().unwrap_or("").to_string())
                    .collect()
            })
            .unwrap_or_default(),
    ))
}

#[test]
fn every_game_of_the_conformance_file_gets_its_opening() {
    let Some(expect) = common::shared("conformance/openings/real_expect.jsonl") else {
        return;
    };
    let lines = common::jsonl(&expect);
    // Per file (as the file names it, from `shared/`): game -> opening.
    let mut want: BTreeMap<String, BTreeMap<u64, Value>> = BTreeMap::new();
    for l in lines.iter().filter(|l| l["game"].is_u64()) {
        let file = l["file"].as_str().unwrap_or_default().to_string();
        let game = l["game"].as_u64().unwrap_or(0);
        want.entry(file)
            .or_default()
            .insert(game, l["opening"].clone());
    }
    assert!(want.values().map(|g| g.len()).sum::<usize>() >= 2_988);
    let root = expect
        .parent()
        .and_then(|p| p.parent())
        .and_then(|p| p.parent())
        .expect("shared/");
    let paths: Vec<String> = want
        .keys()
        .map(|f| {
            root.join(f.trim_start_matches("shared/"))
                .to_string_lossy()
                .to_string()
        })
        .collect();
    let mut args = vec!["check", "--format", "json"];
    args.extend(paths.iter().map(String::as_str));
    let out = common::pdnkit(&args);
    let mut got: BTreeMap<(String, u64), Value> = BTreeMap::new();
    for g in common::json_lines(&out)
        .into_iter()
        .filter(|g| g["type"] == "game")
    {
        let file = g["file"].as_str().unwrap_or_default();
        let rel = file
            .split_once("/corpus/real/")
            .map(|(_, r)| format!("shared/corpus/real/{r}"))
            .unwrap_or_default();
        got.insert((rel, g["game"].as_u64().unwrap_or(0)), g["opening"].clone());
    }
    let mut wrong = Vec::new();
    let mut n = 0;
    for (file, games) in &want {
        for (game, o) in games {
            n += 1;
            let g = got
                .get(&(file.clone(), *game))
                .cloned()
                .unwrap_or(Value::Null);
            if fields(o) != fields(&g) {
                wrong.push(format!("{file} game {game}: want {o}, got {g}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {n} games differ:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(10)].join("\n")
    );
}

/// Rows of a shipped table (src/openings/tables, in the repository): code,
/// variants, start FEN, moves, FEN.
fn rows(table: &str) -> Vec<(String, String, String, String)> {
    let path = format!(
        "{}/src/openings/tables/{table}.tsv",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).expect("a shipped table");
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let c = |i: usize| f.get(i).copied().unwrap_or("").to_string();
            (c(0), c(3), c(4), c(5))
        })
        .collect()
}

/// On every clone: a game that plays a row's moves (IDF 745, ACF 3-move)
/// has that row, or the first row of its position, as its opening, at the
/// row's length; a game set up in an 11-man position has that row, via the
/// set-up.
#[test]
fn games_of_the_tables_own_rows_get_those_rows() {
    let mut pdn = String::new();
    let mut want: Vec<(String, String, u64, &str)> = Vec::new();
    for (table, game_type) in [("idf-745", 25), ("acf-3move", 21)] {
        let all = rows(table);
        // Rows of moves from the initial position (not relocations).
        let from_start = all.iter().filter(|r| r.1.is_empty() && !r.2.is_empty());
        for (_, _, moves, fen) in from_start.step_by(23) {
            // The first row of the table with this position gives the code.
            let first = all.iter().find(|r| &r.3 == fen).map(|r| r.0.clone());
            pdn += &format!("[GameType \"{game_type}\"]\n\n{moves} *\n\n");
            let plies = moves.split_whitespace().count() as u64;
            want.push((table.into(), first.unwrap_or_default(), plies, "moves"));
        }
    }
    for (code, _, _, fen) in rows("italian-11man").iter().step_by(301) {
        pdn += &format!("[GameType \"22\"]\n[FEN \"{fen}\"]\n\n*\n\n");
        want.push(("italian-11man".into(), code.clone(), 0, "setup"));
    }
    let dir = common::tempdir("openings-rows");
    let path = dir.join("rows.pdn");
    std::fs::write(&path, pdn).expect("written");
    let out = common::pdnkit(&["check", "--format", "json", &path.to_string_lossy()]);
    let games: Vec<Value> = common::json_lines(&out)
        .into_iter()
        .filter(|g| g["type"] == "game")
        .collect();
    assert_eq!(games.len(), want.len());
    assert!(want.len() > 25);
    for (g, (table, code, plies, via)) in games.iter().zip(&want) {
        let o = &g["opening"];
        assert_eq!(
            (
                o["table"].as_str(),
                o["code"].as_str(),
                o["plies"].as_u64(),
                o["via"].as_str(),
                o["transposed"].as_bool()
            ),
            (
                Some(table.as_str()),
                Some(code.as_str()),
                Some(*plies),
                Some(*via),
                Some(false)
            ),
            "game {}",
            g["game"]
        );
    }
}

/// Four games: Russian I-2 (IDF 745), Russian XXVII-15 (which IDF 150 also
/// reaches, as 5-II), an English game of two moves (2-move ballot
/// 03, named Edinburgh by the names table), and a Russian game of no move
/// (no opening).
const FOUR: &str = "[GameType \"25\"][White \"A\"]\n\n21-17 9-13 *\n\n\
[GameType \"25\"][White \"B\"]\n\n24-20 9-14 23-18 14x23 27x18 10-15 *\n\n\
[GameType \"21\"][White \"C\"]\n\n9-13 22-18 *\n\n\
[GameType \"25\"][White \"D\"]\n\n*\n";

fn whites(args: &[&str], path: &str) -> Vec<String> {
    let mut all = vec!["select"];
    all.extend_from_slice(args);
    all.push(path);
    let out = common::pdnkit(&all);
    String::from_utf8_lossy(&out.stdout)
        .split("[White \"")
        .skip(1)
        .filter_map(|l| l.split_once('"').map(|(name, _)| name.to_string()))
        .collect()
}

#[test]
fn select_by_opening_code_spelling_table_name_and_none() {
    let dir = common::tempdir("openings-select");
    let path = dir.join("four.pdn");
    std::fs::write(&path, FOUR).expect("written");
    let p = path.to_string_lossy().to_string();
    let cases: [(&[&str], &[&str]); 9] = [
        (&["--opening", "I-2"], &["A"]),
        // Other spellings of the code (strategygames, early lidraughts);
        // `2-i` alone is also a spelling of codes of fmjd-736 and idf-150
        // (refused below), so its table is named.
        (&["--opening", "idf-745:2-i"], &["A"]),
        (&["--opening", "I.2"], &["A"]),
        (&["--opening", "XXVII-15"], &["B"]),
        // The match in a table that is not the game's opening.
        (&["--opening", "idf-150:5-II"], &["B"]),
        (&["--opening", "idf-745:5-II"], &[]),
        // A name, as --player compares one.
        (&["--opening", "edinburgh"], &["C"]),
        (&["--opening", "none"], &["D"]),
        // Repeated: OR.
        (&["--opening", "I-2", "--opening", "none"], &["A", "D"]),
    ];
    for (args, want) in cases {
        assert_eq!(whites(args, &p), want, "{args:?}");
    }
    let o = common::pdnkit(&["select", "--opening", "2-i", &p]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("idf-745:2-i"));
}

#[test]
fn stats_by_opening_groups_add_up_to_the_games() {
    let dir = common::tempdir("openings-stats");
    let path = dir.join("four.pdn");
    std::fs::write(&path, FOUR).expect("written");
    let out = common::pdnkit(&[
        "stats",
        "--by",
        "opening",
        "--format",
        "json",
        &path.to_string_lossy(),
    ]);
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let groups: Vec<(String, u64, Option<String>)> = v["groups"]
        .as_array()
        .expect("groups")
        .iter()
        .map(|g| {
            (
                g["name"].as_str().unwrap_or("").to_string(),
                g["games"].as_u64().unwrap_or(0),
                g["opening_name"].as_str().map(str::to_string),
            )
        })
        .collect();
    assert_eq!(
        groups,
        vec![
            ("(none)".to_string(), 1, None),
            (
                "english-2move 03".to_string(),
                1,
                Some("Edinburgh".to_string())
            ),
            ("idf-745 I-2".to_string(), 1, None),
            ("idf-745 XXVII-15".to_string(), 1, None),
        ]
    );
    // On the real archives: the groups add up to the games (every copy
    // counted).
    let Some(real) = common::shared("corpus/real") else {
        return;
    };
    let r = real.to_string_lossy().to_string();
    let out = common::pdnkit(&[
        "stats",
        "--by",
        "opening",
        "--keep-duplicates",
        "--format",
        "json",
        &r,
    ]);
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let sum: u64 = v["groups"]
        .as_array()
        .expect("groups")
        .iter()
        .map(|g| g["games"].as_u64().unwrap_or(0))
        .sum();
    let out = common::pdnkit(&["check", "--format", "json", &r]);
    let summary = common::json_lines(&out).pop().expect("a summary");
    assert_eq!(Some(sum), summary["games"].as_u64());
}

/// The groups of `stats --by KIND` as (name, games, JSON of the group).
fn stats_groups(by: &str, extra: &[&str], paths: &[String]) -> (Vec<Value>, String) {
    let mut args = vec!["stats", "--by", by, "--format", "json"];
    args.extend_from_slice(extra);
    args.extend(paths.iter().map(String::as_str));
    let out = common::pdnkit(&args);
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    (
        v["groups"].as_array().cloned().unwrap_or_default(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Issue 62 item 7: one counting rule for every `--by`. The Belarus files
/// hold each championship twice (the whole-event file beside the round
/// files): by event, year, variant and opening alike each game counts once
/// and the note says so; `--keep-duplicates` counts every copy, as `check`
/// does. Before, `--by year` said 534 for 2016 where `--by event` said 254,
/// and the plain summary counted every record.
#[test]
fn every_by_counts_a_game_stored_twice_once() {
    let Some(other) = common::shared("corpus/real/other") else {
        return;
    };
    let files: Vec<String> = std::fs::read_dir(&other)
        .expect("readable")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("jpalaz"))
        })
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    assert!(files.len() > 20, "{files:?}");
    let total = |groups: &[Value]| -> u64 {
        groups
            .iter()
            .map(|g| g["games"].as_u64().unwrap_or(0))
            .sum()
    };
    let (events, note) = stats_groups("event", &[], &files);
    let once = total(&events);
    assert!(note.contains("each game counted once"), "{note}");
    let check = common::json_lines(&common::pdnkit(
        &[
            &["check", "--format", "json"][..],
            &files.iter().map(String::as_str).collect::<Vec<_>>(),
        ]
        .concat(),
    ))
    .pop()
    .expect("a summary")["games"]
        .as_u64()
        .expect("games");
    assert!(
        once < check,
        "{once} of {check}: the copies are counted once"
    );
    for by in ["year", "variant", "opening"] {
        let (groups, note) = stats_groups(by, &[], &files);
        assert_eq!(total(&groups), once, "--by {by}");
        assert!(note.contains("each game counted once"), "--by {by}: {note}");
        let (all, note) = stats_groups(by, &["--keep-duplicates"], &files);
        assert_eq!(total(&all), check, "--by {by} --keep-duplicates");
        assert!(!note.contains("counted once"), "{note}");
    }
    // A player group counts each game for both its players.
    let (players, _) = stats_groups("player", &[], &files);
    assert_eq!(total(&players), 2 * once);
    // The plain summary too: every figure and every table of it, in all and
    // per variant and file (before, it counted the records, every copy).
    let summary = |extra: &[&str]| {
        let mut args = vec!["stats", "--format", "json", "--per-file"];
        args.extend_from_slice(extra);
        args.extend(files.iter().map(String::as_str));
        let out = common::pdnkit(&args);
        let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
        (v, String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let openings = |scope: &Value| -> u64 {
        scope["openings_2"].as_array().map_or(0, |a| {
            a.iter().map(|o| o["games"].as_u64().unwrap_or(0)).sum()
        })
    };
    for (extra, games, says) in [
        (&[][..], once, true),
        (&["--keep-duplicates"][..], check, false),
    ] {
        let (v, note) = summary(extra);
        let scopes = v.as_object().expect("scopes");
        assert_eq!(v["all"]["games"].as_u64(), Some(games), "{extra:?}");
        assert_eq!(note.contains("each game counted once"), says, "{note}");
        for prefix in ["variant:", "file:"] {
            let sum: u64 = scopes
                .iter()
                .filter(|(k, _)| k.starts_with(prefix))
                .map(|(_, s)| s["games"].as_u64().unwrap_or(0))
                .sum();
            assert_eq!(sum, games, "{prefix} {extra:?}");
        }
        let declared: u64 = v["all"]["declared_results"]
            .as_object()
            .map_or(0, |m| m.values().filter_map(Value::as_u64).sum());
        assert_eq!(declared, games, "{extra:?}");
        assert!(openings(&v["all"]) <= games && openings(&v["all"]) > 0);
    }
    let (once_all, _) = summary(&[]);
    let (every, _) = summary(&["--keep-duplicates"]);
    assert!(openings(&once_all["all"]) < openings(&every["all"]));
}

/// Issue 62 item 2: a group is named only by what all its games share.
/// ACF 3-move 128 has no name of its own; its 20 games reach Defiance,
/// Fife and Glasgow-Whilter of the names table, or no name, and the group
/// is not named after one of them. A name that every game of a code
/// reaches (104: Kelso) names the group. `select --opening NAME` means the
/// games the groups count under that name.
#[test]
fn an_opening_group_is_named_by_what_all_its_games_share() {
    let Some(other) = common::shared("corpus/real/other") else {
        return;
    };
    let files = vec![other.to_string_lossy().into_owned()];
    let (groups, _) = stats_groups("opening", &["--keep-duplicates"], &files);
    let group = |name: &str| {
        groups
            .iter()
            .find(|g| g["name"] == name)
            .unwrap_or_else(|| panic!("no group {name}"))
            .clone()
    };
    let g128 = group("acf-3move 128");
    assert!(g128.get("opening_name").is_none(), "{g128}");
    let reached = g128["names_reached"].as_object().expect("names reached");
    let named: u64 = reached.values().map(|n| n.as_u64().unwrap_or(0)).sum();
    assert!(
        reached.len() >= 2 && named < g128["games"].as_u64().unwrap_or(0),
        "{g128}"
    );
    assert_eq!(group("acf-3move 104")["opening_name"], "Kelso");
    for name in ["Glasgow-Whilter", "Defiance", "Kelso"] {
        let counted: u64 = groups
            .iter()
            .map(|g| {
                if g["opening_name"] == name {
                    g["games"].as_u64().unwrap_or(0)
                } else {
                    g["names_reached"][name].as_u64().unwrap_or(0)
                }
            })
            .sum();
        let o = common::pdnkit(&["select", "--opening", name, &files[0]]);
        let err = String::from_utf8_lossy(&o.stderr);
        let selected: u64 = err
            .lines()
            .find_map(|l| l.strip_prefix("selected "))
            .and_then(|l| l.split(' ').next())
            .and_then(|n| n.parse().ok())
            .expect("a count");
        assert_eq!(selected, counted, "{name}: {err}");
        assert!(counted > 0, "{name}");
    }
}

/// Issue 62 item 10: a user's table never fails quietly. A `.pdn` row
/// without a GameType serves the games of the variant its moves are read
/// as, and nothing else: said once per table, and `openings --table FILE`
/// writes each row with the variants it serves. The shipped
/// `names-international` names no game by default (international has no
/// ballot table): `openings` says so, `--opening chefneux` warns instead of
/// a quiet 0, and `--opening-table names-international` gives the games
/// their names.
#[test]
fn users_tables_and_names_tables_say_which_variants_they_serve() {
    let d = common::tempdir("openings-variants");
    let table = d.join("mine.pdn");
    std::fs::write(
        &table,
        "[Ballot \"A1\"]\n[Opening \"First\"]\n1. c3-d4 f6-g5 *\n\n\
         [Ballot \"A2\"]\n[GameType \"25\"]\n1. c3-d4 d6-c5 *\n\n\
         [Ballot \"A3\"]\n1. c3-b4 f6-g5 *\n",
    )
    .unwrap();
    let openings = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_pdnkit"))
            .arg("openings")
            .args(args)
            .output()
            .expect("pdnkit runs")
    };
    let o = openings(&["--table", table.to_str().unwrap()]);
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert_eq!(o.status.code(), Some(0), "{err}");
    let rows: Vec<(&str, &str)> = out
        .lines()
        .filter(|l| l.starts_with('A'))
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[0], f[2])
        })
        .collect();
    assert_eq!(rows.len(), 3, "{out}");
    let default = rows[0].1;
    assert_eq!(rows[1], ("A2", "russian"), "{out}");
    assert_eq!(rows[2].1, default, "{out}");
    assert_eq!(
        err.matches("no GameType tag").count(),
        1,
        "one warning for the table: {err}"
    );
    assert!(
        err.contains(&format!("2 rows have no GameType tag: read as {default}")),
        "{err}"
    );
    // The list says what each table is for.
    let o = openings(&[]);
    let list = String::from_utf8_lossy(&o.stdout);
    assert!(
        list.contains("default for brazilian (1st), russian (1st)"),
        "{list}"
    );
    assert!(
        list.contains("international: no ballot table, so it names no game unless chosen"),
        "{list}"
    );
    // An international game opening 32-28 18-23 (Chefneux).
    let game = d.join("int.pdn");
    std::fs::write(
        &game,
        "[GameType \"20\"]\n[White \"A\"]\n[Black \"B\"]\n1. 32-28 18-23 2. 33-29 23x32 3. 37x28 *\n",
    )
    .unwrap();
    let g = game.to_str().unwrap();
    let o = common::pdnkit(&["select", "--opening", "chefneux", g]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.stdout.is_empty());
    assert!(
        err.contains("a name of names-international, which names no game unless chosen"),
        "{err}"
    );
    let o = common::pdnkit(&[
        "select",
        "--opening",
        "chefneux",
        "--opening-table",
        "names-international",
        g,
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("selected 1 of 1 games"), "{err}");
    assert!(!err.contains("warning"), "{err}");
}

#[test]
fn opening_tables_replace_the_variants_lists() {
    let dir = common::tempdir("openings-tables");
    let path = dir.join("four.pdn");
    std::fs::write(&path, FOUR).expect("written");
    let p = path.to_string_lossy().to_string();
    let openings = |extra: &[&str]| -> Vec<Value> {
        let mut args = vec!["check", "--format", "json"];
        args.extend_from_slice(extra);
        args.push(&p);
        common::json_lines(&common::pdnkit(&args))
            .into_iter()
            .filter(|g| g["type"] == "game")
            .map(|g| g["opening"].clone())
            .collect()
    };
    let code = |o: &Value| {
        format!(
            "{} {}",
            o["table"].as_str().unwrap_or("-"),
            o["code"].as_str().unwrap_or("-")
        )
    };
    assert_eq!(
        openings(&[]).iter().map(code).collect::<Vec<_>>(),
        ["idf-745 I-2", "idf-745 XXVII-15", "english-2move 03", "- -"]
    );
    assert!(openings(&["--opening-table", "none"])
        .iter()
        .all(Value::is_null));
    // IDF 150: 11-VIII is two plies; the second game reaches 5-II; 5-VII
    // (free play) is the initial position, where a game of no move is at
    // ply 0; the English game has no table in this list.
    assert_eq!(
        openings(&["--opening-table", "idf-150"])
            .iter()
            .map(code)
            .collect::<Vec<_>>(),
        ["idf-150 11-VIII", "idf-150 5-II", "- -", "idf-150 5-VII"]
    );
    let out = common::pdnkit(&["check", "--opening-table", "eco", &p]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("'eco' is no opening table"));
}

/// `pdnkit openings ARGS` (it reads no games: no `--no-progress`).
fn openings_cmd(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_pdnkit"))
        .arg("openings")
        .args(args)
        .output()
        .expect("pdnkit runs")
}

#[test]
fn the_openings_command_lists_the_tables_and_writes_one_as_csv() {
    let out = openings_cmd(&[]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    for (name, rows) in [
        ("idf-745", 745),
        ("fmjd-736", 736),
        ("acf-3move", 174),
        ("italian-11man", 2400),
    ] {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("{name} is listed:\n{text}"));
        assert!(line.contains(&format!(" {rows} ")), "{line}");
    }
    let out = openings_cmd(&["--table", "acf-3move"]);
    let csv = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(csv.starts_with("# table: acf-3move\n"), "{csv}");
    let body: String = csv
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    let mut r = csv::Reader::from_reader(body.as_bytes());
    let codes: Vec<String> = r
        .records()
        .map(|rec| rec.expect("a CSV row")[0].to_string())
        .collect();
    // Every row, in table order, as the shipped table has them.
    let shipped: Vec<String> = rows("acf-3move").into_iter().map(|r| r.0).collect();
    assert_eq!(codes, shipped);
    let out = openings_cmd(&["--table", "eco"]);
    assert_eq!(out.status.code(), Some(2));
}

/// A pair or a lone game of a micro-match, by its games as (file from
/// `shared/`, game), sorted.
type PairKey = Vec<(String, u64)>;

/// (ballot, how, code, the micro-match findings about it), as the
/// conformance file writes them.
type PairVerdict = (Value, Value, Value, Vec<String>);

/// The micro-matches of `pdnkit tournament --format json` output: each
/// pair of `micro_match_list` and each game of a micro-match finding.
fn micro_matches(out: &std::process::Output, root: &str) -> BTreeMap<PairKey, PairVerdict> {
    let rel = |f: &Value| {
        f["file"]
            .as_str()
            .unwrap_or_default()
            .replace(root, "shared/")
    };
    let key = |games: &Value| -> PairKey {
        let mut k: PairKey = games
            .as_array()
            .into_iter()
            .flatten()
            .map(|g| (rel(g), g["game"].as_u64().unwrap_or(0)))
            .collect();
        k.sort();
        k
    };
    let mut got: BTreeMap<PairKey, PairVerdict> = BTreeMap::new();
    for e in common::json_lines(out)
        .into_iter()
        .filter(|e| e["type"] == "event")
    {
        for m in e["micro_match_list"].as_array().into_iter().flatten() {
            got.insert(
                key(&m["games"]),
                (
                    m["ballot"].clone(),
                    m["how"].clone(),
                    m["code"].clone(),
                    Vec::new(),
                ),
            );
        }
        for f in e["findings"].as_array().into_iter().flatten() {
            let code = f["code"].as_str().unwrap_or_default();
            if [
                "ballot-mismatch",
                "colours-not-swapped",
                "micro-match-incomplete",
            ]
            .contains(&code)
            {
                got.entry(key(&f["games"]))
                    .or_insert((Value::Null, Value::Null, Value::Null, Vec::new()))
                    .3
                    .push(code.to_string());
            }
        }
    }
    got
}

/// OPENINGS.md 3.4: every micro-match line of the conformance file (379),
/// each file's tournament on its own: the pair's ballot, how its games
/// start, the deepest row both reach, and its findings.
#[test]
fn every_micro_match_line_of_the_conformance_file_agrees() {
    let Some(expect) = common::shared("conformance/openings/real_expect.jsonl") else {
        return;
    };
    let shared = expect
        .parent()
        .and_then(|p| p.parent())
        .and_then(|p| p.parent())
        .expect("shared/")
        .to_string_lossy()
        .to_string();
    let mut want: BTreeMap<PairKey, PairVerdict> = BTreeMap::new();
    for l in common::jsonl(&expect)
        .into_iter()
        .filter(|l| l["type"] == "micromatch")
    {
        let mut k: PairKey = l["games"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|g| {
                (
                    g[0].as_str().unwrap_or("").to_string(),
                    g[1].as_u64().unwrap_or(0),
                )
            })
            .collect();
        k.sort();
        let mut findings: Vec<String> = l["findings"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|f| f.as_str().unwrap_or("").to_string())
            .collect();
        findings.sort();
        let field = |k: &str| l.get(k).cloned().unwrap_or(Value::Null);
        want.insert(k, (field("ballot"), field("how"), field("code"), findings));
    }
    assert!(want.len() >= 379, "{} micro-match lines", want.len());
    let files: std::collections::BTreeSet<String> =
        want.keys().flatten().map(|(f, _)| f.clone()).collect();
    let mut got = BTreeMap::new();
    let root = format!("{shared}/");
    for f in &files {
        let path = format!("{shared}/{}", f.trim_start_matches("shared/"));
        let out = common::pdnkit(&["tournament", "--format", "json", &path]);
        got.extend(micro_matches(&out, &root));
    }
    for v in got.values_mut() {
        v.3.sort();
    }
    let wrong: Vec<String> = want
        .iter()
        .filter(|(k, v)| got.get(*k) != Some(v))
        .map(|(k, v)| format!("{k:?}: want {v:?}, got {:?}", got.get(k)))
        .collect();
    assert!(
        wrong.is_empty(),
        "{} of {} micro-match lines differ:\n{}",
        wrong.len(),
        want.len(),
        wrong[..wrong.len().min(10)].join("\n")
    );
    let extra: Vec<&PairKey> = got.keys().filter(|k| !want.contains_key(*k)).collect();
    assert!(extra.is_empty(), "not in the conformance file: {extra:?}");
}

/// OPENINGS.md 3.4: the Belarus round files and the whole-event file
/// together count each game once; the men's events' micro-matches all start
/// from one set-up ballot (0 `ballot-mismatch`, 0 `colours-not-swapped`);
/// the women's show no ballot, and with `--ballots on` still none differs.
#[test]
fn the_belarus_events_count_each_game_once_and_the_mens_ballots_agree() {
    let Some(dir) = common::shared("corpus/real/other") else {
        return;
    };
    let files: Vec<String> = common::pdn_files(&dir)
        .into_iter()
        .filter(|p| p.to_string_lossy().contains("jpalaz_"))
        .map(|p| p.to_string_lossy().to_string())
        .collect();
    assert!(files.len() >= 40, "{} Belarus files", files.len());
    for ballots in ["auto", "on"] {
        let mut args = vec!["tournament", "--format", "json", "--ballots", ballots];
        args.extend(files.iter().map(String::as_str));
        let out = common::pdnkit(&args);
        let events: Vec<Value> = common::json_lines(&out)
            .into_iter()
            .filter(|e| e["type"] == "event")
            .collect();
        let mut seen = Vec::new();
        for e in &events {
            let name = format!("{} {}", e["event"], e["section"]);
            let count = |code: &str| {
                e["findings"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|f| f["code"] == code)
                    .count()
            };
            let games = e["players"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|p| p["games"].as_u64().unwrap_or(0))
                .sum::<u64>()
                / 2
                + e["conflicting_copies"].as_u64().unwrap_or(0);
            let women = name.contains("женщины");
            let year = e["year"].as_u64().unwrap_or(0);
            let pairs = e["micro_match_list"].as_array().map_or(0, Vec::len);
            seen.push((year, women, games, e["micro_matches"].as_u64()));
            assert_eq!(e["micro_matches"].as_u64(), Some(pairs as u64), "{name}");
            if ballots == "on" || !women {
                assert_eq!(count("ballot-mismatch"), 0, "{name} --ballots {ballots}");
            }
            if !women {
                assert_eq!(count("colours-not-swapped"), 0, "{name}");
                assert_eq!(e["ballots"], if ballots == "on" { "flag" } else { "setup" });
                assert!(e["micro_match_list"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .all(|m| m["ballot"] == "same" && m["how"] == "setup/setup"
                        || m["how"] == "moves/moves" && m["ballot"] != "differs"));
            } else if ballots == "auto" {
                assert!(e["ballots"].is_null(), "{name}");
            }
        }
        seen.sort();
        // Each game once: 2015 men 128, women 89; 2016 men 128 (a pairing
        // whose copies conflict counted once), women 127 (not 138: round 3
        // stored as `3` and as `3.1`/`3.2`).
        let counts: Vec<(u64, bool, u64)> = seen.iter().map(|s| (s.0, s.1, s.2)).collect();
        assert_eq!(
            counts,
            [
                (2015, false, 128),
                (2015, true, 89),
                (2016, false, 128),
                (2016, true, 127)
            ],
            "{seen:?}"
        );
    }
}

/// On every clone: the micro-matches of `corpus/russian/micro-matches.pdn`,
/// written to hold each verdict and finding once.
#[test]
fn the_corpus_micro_matches_get_their_verdicts_and_findings() {
    let file = common::corpus("russian/micro-matches.pdn");
    let run = |ballots: &str| {
        let out = common::pdnkit(&[
            "tournament",
            "--format",
            "json",
            "--ballots",
            ballots,
            &file,
        ]);
        let root = file
            .trim_end_matches("russian/micro-matches.pdn")
            .to_string();
        micro_matches(&out, &root)
            .into_iter()
            .map(|(k, v)| {
                let games: Vec<u64> = k.iter().map(|g| g.1).collect();
                let s = |v: &Value| v.as_str().unwrap_or("-").to_string();
                (games, [s(&v.0), s(&v.1), s(&v.2)], v.3)
            })
            .collect::<Vec<_>>()
    };
    let (s, f) = (
        |x: &str| x.to_string(),
        |x: &[&str]| -> Vec<String> { x.iter().map(|c| c.to_string()).collect() },
    );
    let want = |mismatch: &[&str]| {
        vec![
            (vec![1, 2], [s("same"), s("setup/setup"), s("-")], f(&[])),
            (vec![3, 4], [s("same"), s("moves/moves"), s("I-12")], f(&[])),
            (
                vec![5, 6],
                [s("differs"), s("moves/moves"), s("-")],
                f(mismatch),
            ),
            (
                vec![7, 8],
                [s("same"), s("moves/moves"), s("I-2")],
                f(&["colours-not-swapped"]),
            ),
            (
                vec![9],
                [s("-"), s("-"), s("-")],
                f(&["micro-match-incomplete"]),
            ),
            (
                vec![10, 11],
                [s("shared"), s("moves/moves"), s("I-2")],
                f(&[]),
            ),
        ]
    };
    // Set-up games: the section uses ballots; `--ballots off`: never.
    assert_eq!(run("auto"), want(&["ballot-mismatch"]));
    assert_eq!(run("on"), want(&["ballot-mismatch"]));
    assert_eq!(run("off"), want(&[]));
    let out = common::pdnkit(&["tournament", &file]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "5 micro-matches, ballots checked (set-up games): 3 same, 1 shared, 1 differs"
        ),
        "{text}"
    );
    assert!(text.contains("micro-matches.pdn game 5 reaches idf-745 I-2 after 2 plies"));
}

/// OPENINGS.md 3.1: a user's table in CSV (the shipped format) and in PDN
/// (`Ballot`, `Opening`, a game per row): its good rows classify games,
/// each bad row is left out with a warning naming the file, the row and
/// why, and a table that cannot be read stops the run (exit 2).
#[test]
fn users_tables_in_csv_and_pdn_classify_and_their_bad_rows_are_named() {
    let dir = common::tempdir("openings-user");
    let games = common::corpus("russian/micro-matches.pdn");
    let csv = dir.join("mine.csv");
    std::fs::write(
        &csv,
        "# table: my-ballots\n# variants: russian\ncode,name,moves,fen\n\
         A1,Kol,21-17 9-13,\n\
         A2,,c3-d4 f6-g5,\n\
         BAD1,,21-17 21-17,\n\
         BAD2,,21-17,\"W:W17,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\"\n\
         ,,21-17,\n\
         F1,,,\"B:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\"\n",
    )
    .expect("written");
    let pdn = dir.join("mine.pdn");
    std::fs::write(
        &pdn,
        "[Ballot \"P1\"]\n[Opening \"Kol\"]\n[GameType \"25\"]\n\n1. 21-17 9-13 *\n\n\
         [GameType \"25\"]\n\n1. 22-18 *\n\n\
         [Ballot \"P3\"]\n[GameType \"25\"]\n\n1. 22-19 *\n",
    )
    .expect("written");
    let (csv, pdn) = (
        csv.to_string_lossy().to_string(),
        pdn.to_string_lossy().to_string(),
    );
    let run = |table: &str| {
        let out = common::pdnkit(&[
            "check",
            "--format",
            "json",
            "--opening-table",
            table,
            &games,
        ]);
        let codes: Vec<String> = common::json_lines(&out)
            .into_iter()
            .filter(|g| g["type"] == "game")
            .map(|g| {
                let o = &g["opening"];
                format!(
                    "{} {} {}",
                    o["table"].as_str().unwrap_or("-"),
                    o["code"].as_str().unwrap_or("-"),
                    o["name"].as_str().unwrap_or("-")
                )
            })
            .collect();
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        (out.status.code(), codes, err)
    };
    let (code, codes, err) = run(&csv);
    assert_eq!(code, Some(0), "{err}");
    // Games 5-8 and 10-11 play 21-17 9-13 (A1); game 9 only 21-17; game 6
    // opens 22-18 11-15 (no row), the set-up games none.
    let a1 = "my-ballots A1 Kol";
    let want: Vec<&str> = [
        "- - -", "- - -", a1, a1, a1, "- - -", a1, a1, "- - -", a1, a1,
    ]
    .to_vec();
    assert_eq!(codes, want);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 3, "{err}");
    assert!(
        lines[0].contains("mine.csv: row 3 (line 6): its moves do not replay"),
        "{err}"
    );
    assert!(
        lines[1].contains("mine.csv: row 4 (line 7): its moves reach B:W17"),
        "{err}"
    );
    assert!(
        lines[2].contains("mine.csv: row 5 (line 8): no code"),
        "{err}"
    );
    let (code, codes, err) = run(&pdn);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(codes.iter().filter(|c| *c == "mine P1 Kol").count(), 7);
    assert!(
        err.contains("mine.pdn: row 2 (game 2, line 5): no Ballot tag"),
        "{err}"
    );
    assert!(
        err.contains("mine.pdn: row 3 (game 3, line 9): its moves do not replay"),
        "{err}"
    );
    // Selected by the user's table and code.
    let out = common::pdnkit(&[
        "select",
        "--opening-table",
        &csv,
        "--opening",
        "my-ballots:A1",
        &games,
    ]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout)
            .matches("[Event ")
            .count(),
        7
    );
    // Tables that cannot be used stop the run.
    let bad = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).expect("written");
        let out = common::pdnkit(&["check", "--opening-table", &p.to_string_lossy(), &games]);
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    for (name, text, why) in [
        ("none.csv", "name,moves\nx,21-17\n", "no 'code' column"),
        (
            "empty.csv",
            "# variants: russian\ncode,moves\nX,21-17 21-17\n",
            "no row of the table",
        ),
        (
            "taken.csv",
            "# table: idf-745\ncode,moves,variants\nX,21-17,russian\n",
            "shipped table",
        ),
    ] {
        let (code, err) = bad(name, text);
        assert_eq!(code, Some(2), "{name}: {err}");
        assert!(err.contains(why), "{name}: {err}");
    }
    let out = common::pdnkit(&["check", "--opening-table", "no-such-file.csv", &games]);
    assert_eq!(out.status.code(), Some(2));
}

/// A table written by `pdnkit openings --table NAME`, renamed, is read
/// back as a user's table with no row left out, and classifies every game
/// as the shipped one does.
#[test]
fn a_shipped_table_written_and_read_back_classifies_the_same() {
    let dir = common::tempdir("openings-readback");
    let games = common::corpus("");
    for table in ["idf-745", "acf-3move"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_pdnkit"))
            .args(["openings", "--table", table])
            .output()
            .expect("pdnkit runs");
        let text = String::from_utf8_lossy(&out.stdout).replace(
            &format!("# table: {table}"),
            &format!("# table: copy-of-{table}"),
        );
        let path = dir.join(format!("{table}.csv"));
        std::fs::write(&path, text).expect("written");
        let openings = |t: &str| {
            let out = common::pdnkit(&["check", "--format", "json", "--opening-table", t, &games]);
            let err = String::from_utf8_lossy(&out.stderr).to_string();
            let list: Vec<String> = common::json_lines(&out)
                .into_iter()
                .filter(|g| g["type"] == "game")
                .map(|g| {
                    let o = &g["opening"];
                    format!("{} {} {}", o["code"], o["plies"], o["via"])
                })
                .collect();
            (list, err)
        };
        let (shipped, _) = openings(table);
        let (copy, err) = openings(&path.to_string_lossy());
        assert!(!err.contains("warning"), "{table}: {err}");
        assert_eq!(copy, shipped, "{table}");
        assert!(
            shipped.iter().any(|o| !o.starts_with("null")),
            "{table}: no opening"
        );
    }
}

/// Issue 63 items 3, 12, 13 and 17: a user's row of 66 plies matches a game
/// that plays it; a code beginning with `#` is a code; a table with lone-CR
/// line ends (Excel for Mac) reads; a table's file name is printed escaped.
#[test]
fn users_tables_long_rows_hash_codes_lone_cr_and_escaped_names() {
    let dir = common::tempdir("openings-user-edges");
    // The first 66 plies of a legal game of the corpus.
    let long = common::corpus("brazilian/clean.pdn");
    let out = common::pdnkit(&["check", "--format", "json", &long]);
    let game = common::json_lines(&out)
        .into_iter()
        .find(|g| g["type"] == "game" && g["plies"].as_u64().unwrap_or(0) >= 70)
        .expect("a game of 70 plies or more in corpus/brazilian/clean.pdn");
    let index = game["game"].as_u64().unwrap_or(0) as usize;
    // Its moves, by square numbers, from `convert --normalise`.
    let text = std::fs::read_to_string(&long).expect("read");
    let games = pdnkit::pdn::read_all(text.as_bytes());
    let g = &games[index - 1];
    let moves: Vec<String> = g
        .main_line()
        .take(66)
        .map(|m| String::from_utf8_lossy(g.bytes(&m.span())).into_owned())
        .collect();
    let csv = dir.join("long.csv");
    std::fs::write(
        &csv,
        format!(
            "# table: long\r# variants: brazilian\rcode,moves\r#66,{}\r",
            moves.join(" ")
        ),
    )
    .expect("written");
    let one = dir.join("one.pdn");
    std::fs::write(&one, g.text()).expect("written");
    let out = common::pdnkit(&[
        "check",
        "--format",
        "json",
        "--opening-table",
        &csv.to_string_lossy(),
        &one.to_string_lossy(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    let opening = common::json_lines(&out)
        .into_iter()
        .find(|g| g["type"] == "game")
        .map(|g| g["opening"].clone())
        .expect("a game");
    assert_eq!(opening["table"], "long", "{err}");
    assert_eq!(opening["code"], "#66", "{err}");
    assert_eq!(opening["plies"], 66, "{err}");
    // A file name with a control character is printed escaped.
    let odd = dir.join("evil\x1b[31m.csv");
    std::fs::write(&odd, "name\nx\n").expect("written");
    let out = common::pdnkit(&["check", "--opening-table", &odd.to_string_lossy(), &long]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(!err.contains('\x1b'), "{err:?}");
    assert!(err.contains("no 'code' column"), "{err}");
    let missing = dir.join("gone\x07.csv");
    let out = common::pdnkit(&[
        "check",
        "--opening-table",
        &missing.to_string_lossy(),
        &long,
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(!err.contains('\x07'), "{err:?}");
}

/// Issue 63 item 10: a user's table is read within a bound: a file past
/// 16 MiB is refused with the reason, exit 2, before it is parsed.
#[test]
fn a_users_table_is_read_within_a_bound() {
    let dir = common::tempdir("openings-user-bound");
    let big = dir.join("big.csv");
    let mut text = String::from("code,moves\n");
    while text.len() <= 17 << 20 {
        text.push_str("X,32-28 19-23 28x19 14x23\n");
    }
    std::fs::write(&big, text).expect("written");
    let games = common::corpus("brazilian/clean.pdn");
    let out = common::pdnkit(&["check", "--opening-table", &big.to_string_lossy(), &games]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("larger than 16777216 bytes"), "{err}");
}

/// Issue 61 item 2, issue 63 item 14: no table outlives its use. A table
/// loaded, its file edited and loaded again in one process gives the new
/// rows; a table loaded by one call is not known by name in the next.
#[test]
fn an_edited_table_loads_again_in_one_process() {
    use pdnkit::openings::{Table, TableSpec};
    use pdnkit::select::Criterion;
    let dir = common::tempdir("openings-reload");
    let path = dir.join("mine.csv");
    let games =
        std::fs::read_to_string(common::corpus("russian/micro-matches.pdn")).expect("the corpus");
    let opening_of = |table: &std::sync::Arc<Table>| {
        let opts = pdnkit::Options::default().opening_tables(Some(vec![table.clone()]));
        pdnkit::pdn::read_all(games.as_bytes())
            .iter()
            .map(|g| pdnkit::check_game(g, &opts))
            .filter_map(|r| r.opening.map(|o| format!("{} {}", o.table(), o.code())))
            .collect::<Vec<_>>()
    };
    std::fs::write(
        &path,
        "# table: mine\n# variants: russian\ncode,moves\nOLD,21-17 9-13\n",
    )
    .expect("written");
    let spec: TableSpec = path.to_string_lossy().parse().expect("a file");
    let (first, warnings) = spec.open().expect("read").expect("a table");
    assert!(warnings.is_empty());
    assert!(opening_of(&first).iter().any(|o| o == "mine OLD"));
    std::fs::write(
        &path,
        "# table: mine\n# variants: russian\ncode,moves\nNEW,21-17 9-13\n",
    )
    .expect("written");
    let (second, _) = spec.open().expect("read again").expect("a table");
    let after = opening_of(&second);
    assert!(after.iter().any(|o| o == "mine NEW"), "{after:?}");
    assert!(!after.iter().any(|o| o.contains("OLD")), "{after:?}");
    // The first table is its own, unchanged by the second.
    assert!(opening_of(&first).iter().any(|o| o == "mine OLD"));
    // Not nameable without being given: `mine:NEW` is no table's code.
    drop((first, second));
    let c = Criterion::parse_opening("mine:NEW").expect("a criterion");
    let g = &pdnkit::pdn::read_all(games.as_bytes())[4];
    let r = pdnkit::check_game(g, &pdnkit::Options::default());
    assert!(
        !c.matches(g, &r),
        "a table loaded before is still known by name"
    );
    assert!("no-such-table".parse::<TableSpec>().is_err());
    assert_eq!("NONE".parse::<TableSpec>().ok(), Some(TableSpec::None));
}

/// Issue 63 item 5: no formula reaches a spreadsheet through a user's
/// table: its table name, codes and names are made safe in CSV like every
/// other text cell.
#[test]
fn a_users_table_reaches_no_spreadsheet_as_a_formula() {
    let dir = common::tempdir("openings-user-formula");
    let csv = dir.join("f.csv");
    std::fs::write(
        &csv,
        "# table: @A2\n# variants: russian\ncode,name,moves\n=HYPERLINK(1),+SUM(1),21-17 9-13\n",
    )
    .expect("written");
    let games = common::corpus("russian/micro-matches.pdn");
    let out = common::pdnkit(&[
        "convert",
        "--to",
        "csv",
        "--opening-table",
        &csv.to_string_lossy(),
        &games,
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut rows = csv::Reader::from_reader(text.as_bytes());
    let head = rows.headers().expect("a header").clone();
    let col = |n: &str| head.iter().position(|h| h == n).expect("a column");
    let (t, c, n) = (
        col("opening_table"),
        col("opening_code"),
        col("opening_name"),
    );
    let mut seen = 0;
    for r in rows.records() {
        let r = r.expect("a row");
        if r[c].is_empty() {
            continue;
        }
        assert_eq!(
            (&r[t], &r[c], &r[n]),
            ("'@A2", "'=HYPERLINK(1)", "'+SUM(1)")
        );
        seen += 1;
    }
    assert!(seen > 0, "{text}");
}

/// Issue 62 item 6: a bare code means one thing. `108` is a code of ACF
/// 3-move and of the English and Italian 11-man tables: it is refused with
/// the `TABLE:CODE` forms to choose from (exit 2, nothing selected), and
/// `acf-3move:108` selects exactly the games of the `acf-3move 108` group of
/// `stats --by opening` (the Tinsley file: 15).
#[test]
fn a_bare_code_of_several_tables_is_refused_and_a_table_code_agrees_with_its_group() {
    let Some(real) = common::shared("corpus/real/other/checkerboard__tinsley.pdn") else {
        return;
    };
    let f = real.to_string_lossy().to_string();
    let o = common::pdnkit(&["select", "--opening", "108", &f]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    for form in ["acf-3move:108", "english-11man:108", "italian-11man:108"] {
        assert!(err.contains(form), "{err}");
    }
    assert!(o.stdout.is_empty());
    let picked = whites(&["--opening", "acf-3move:108"], &f).len();
    let o = common::pdnkit(&["stats", "--by", "opening", "--format", "json", &f]);
    let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let group = v["groups"]
        .as_array()
        .and_then(|g| g.iter().find(|g| g["name"] == "acf-3move 108"))
        .expect("the group acf-3move 108");
    assert_eq!(group["games"].as_u64(), Some(picked as u64));
    assert!(picked > 0);
}
