//! `pdnkit select` and the selection options of the other commands, run as a
//! user would: every option, byte-identical output in UTF-8 and cp1251
//! sources, `--position` against `convert --moves --fen`, `--unique` against
//! `dupes`.
use crate::common;

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Games as (file, game number).
type Keys = BTreeSet<(String, u64)>;

fn stdout(o: &std::process::Output) -> &[u8] {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    &o.stdout
}

/// (file, game) of every game `check --format json` reports, with its record.
fn games(args: &[&str]) -> BTreeMap<(String, u64), Value> {
    let mut a = vec!["check", "--format", "json"];
    a.extend_from_slice(args);
    common::json_lines(&common::pdnkit(&a))
        .into_iter()
        .filter(|v| v["type"] == "game")
        .map(|v| {
            (
                (
                    v["file"].as_str().unwrap().to_string(),
                    v["game"].as_u64().unwrap(),
                ),
                v,
            )
        })
        .collect()
}

/// The games `check` reports with the selection `sel` on `paths`, as keys.
fn selected(sel: &[&str], paths: &[&str]) -> BTreeSet<(String, u64)> {
    let mut a: Vec<&str> = sel.to_vec();
    a.extend_from_slice(paths);
    games(&a).into_keys().collect()
}

/// The keys of `all` whose record passes `keep`.
fn expected(
    all: &BTreeMap<(String, u64), Value>,
    keep: impl Fn(&Value) -> bool,
) -> BTreeSet<(String, u64)> {
    all.iter()
        .filter(|(_, v)| keep(v))
        .map(|(k, _)| k.clone())
        .collect()
}

fn tag<'a>(v: &'a Value, name: &str) -> &'a str {
    v["tags"][name].as_str().unwrap_or("")
}

#[test]
fn every_option_selects_what_the_json_says() {
    let corpus = common::corpus("");
    let paths = [corpus.as_str()];
    let all = games(&paths);
    assert!(all.len() > 100);
    let lower = |s: &str| s.to_lowercase();
    let cases: Vec<(Vec<&str>, Keys)> = vec![
        (
            vec!["--player", "ROOZENBURG"],
            expected(&all, |v| {
                lower(tag(v, "White")).contains("roozenburg")
                    || lower(tag(v, "Black")).contains("roozenburg")
            }),
        ),
        (
            vec!["--white", "roozenburg"],
            expected(&all, |v| lower(tag(v, "White")).contains("roozenburg")),
        ),
        (
            vec!["--black", "roozenburg", "--black", "zoet"],
            expected(&all, |v| {
                let b = lower(tag(v, "Black"));
                b.contains("roozenburg") || b.contains("zoet")
            }),
        ),
        (
            vec!["--event", "fault"],
            expected(&all, |v| lower(tag(v, "Event")).contains("fault")),
        ),
        (
            vec!["--tag", "GameType=22"],
            expected(&all, |v| tag(v, "GameType") == "22"),
        ),
        (
            vec!["--tag", "Event~^Fault: (missed|non)"],
            expected(&all, |v| {
                let e = tag(v, "Event");
                e.starts_with("Fault: missed") || e.starts_with("Fault: non")
            }),
        ),
        (
            vec!["--date", "2000..2009.12"],
            expected(&all, |v| {
                let d = tag(v, "Date");
                d.len() >= 4 && ("2000".."2010").contains(&&d[..4])
            }),
        ),
        (
            vec!["--result", "white"],
            expected(&all, |v| v["declared_result"] == "2-0"),
        ),
        (
            // In each game's own order: a Black win in English records.
            vec!["--result", "1-0"],
            expected(&all, |v| {
                if v["declared_result"].is_null() {
                    v["declared_result_text"] == "1-0"
                } else if v["variant"] == "english" {
                    v["declared_result"] == "0-2"
                } else {
                    v["declared_result"] == "2-0"
                }
            }),
        ),
        (
            vec!["--variant-is", "italian", "--variant-is", "czech"],
            expected(&all, |v| {
                v["variant"] == "italian" || v["variant"] == "czech"
            }),
        ),
        (vec!["--valid"], expected(&all, |v| v["valid"] == true)),
        (vec!["--invalid"], expected(&all, |v| v["valid"] == false)),
        (
            vec!["--code", "missed-capture"],
            expected(&all, |v| {
                v["diagnostics"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|d| d["code"] == "missed-capture")
            }),
        ),
        (
            vec!["--plies", "10..20"],
            expected(&all, |v| (10..=20).contains(&v["plies"].as_u64().unwrap())),
        ),
        (
            // AND across options, OR within one.
            vec!["--variant-is", "italian", "--invalid"],
            expected(&all, |v| v["variant"] == "italian" && v["valid"] == false),
        ),
        (
            vec!["--variant-is", "italian", "--invert"],
            expected(&all, |v| v["variant"] != "italian"),
        ),
    ];
    for (sel, want) in cases {
        assert!(
            !want.is_empty() && want.len() < all.len(),
            "{sel:?} selects something, not everything"
        );
        assert_eq!(selected(&sel, &paths), want, "{sel:?}");
        // `select` writes the same games: check its output again.
        let mut a = vec!["select"];
        a.extend_from_slice(&sel);
        a.push(&corpus);
        let out = common::pdnkit(&a);
        let text = stdout(&out);
        let games_out = text
            .split(|&b| b == b'\n')
            .filter(|l| l.starts_with(b"[Event "))
            .count();
        assert_eq!(games_out, want.len(), "{sel:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!("selected {} of {} games", want.len(), all.len())),
            "{stderr}"
        );
    }
}

#[test]
fn bad_criteria_are_refused_with_the_option_named() {
    for (args, says) in [
        (vec!["--date", "2000..1999"], "--date"),
        (vec!["--tag", "Event"], "--tag"),
        (vec!["--tag", "Event~("], "--tag"),
        (vec!["--result", "3-0"], "--result"),
        (vec!["--plies", "x"], "--plies"),
        (vec!["--position", "W:W99"], "--position"),
        (vec!["--material", "3K"], "--material"),
        (vec!["--material", "3Q:1K"], "--material"),
        (vec!["--material-either"], "--material"),
    ] {
        let mut a = vec!["select"];
        a.extend_from_slice(&args);
        a.push("corpus/");
        let o = common::pdnkit(&a);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(says),
            "{args:?}"
        );
    }
    // A file rewritten in place keeps every game.
    let o = common::pdnkit(&[
        "convert",
        "--to",
        "pdn",
        "--normalise",
        "--in-place",
        "--player",
        "x",
        "corpus/",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--in-place"));
}

/// Each selected game is a byte-for-byte piece of its source (games are
/// split where a blank line is followed by a tag).
fn assert_pieces_of(out: &[u8], source: &[u8], eol: &[u8]) -> usize {
    let sep: Vec<u8> = [eol, eol, b"["].concat();
    let text = out.strip_suffix(eol).unwrap_or(out);
    let mut n = 0;
    let mut rest = text;
    loop {
        let (piece, next) = match rest.windows(sep.len()).position(|w| w == sep.as_slice()) {
            Some(i) => (&rest[..i], Some(&rest[i + sep.len() - 1..])),
            None => (rest, None),
        };
        assert!(
            source.windows(piece.len()).any(|w| w == piece),
            "not in the source: {}",
            String::from_utf8_lossy(piece)
        );
        n += 1;
        match next {
            Some(r) => rest = r,
            None => break,
        }
    }
    n
}

#[test]
fn games_are_written_byte_for_byte_in_their_own_encoding() {
    let dir = common::tempdir("select-bytes");
    // cp1251: "Немец Дмитрий" and "Семенюк Михаил", CRLF line ends.
    let cp1251 = |s: &str| -> Vec<u8> {
        s.chars()
            .map(|c| match c {
                'А'..='я' => (c as u32 - 'А' as u32 + 0xC0) as u8,
                c => c as u8,
            })
            .collect()
    };
    let mut source = Vec::new();
    for (w, b, r) in [
        ("Немец Дмитрий", "Семенюк Михаил", "1-1"),
        ("Валюк Андрей", "Немец Дмитрий", "2-0"),
        ("Чепа Олег", "Валюк Андрей", "0-2"),
    ] {
        source.extend(cp1251(&format!(
            "[White \"{w}\"]\r\n[Black \"{b}\"]\r\n[Result \"{r}\"]\r\n[GameType \"25\"]\r\n\r\n1. c3-d4 f6-e5 2. d4:f6 g7:e5 {r}\r\n\r\n\r\n"
        )));
    }
    let path = dir.join("cp1251.pdn");
    std::fs::write(&path, &source).unwrap();
    let o = common::pdnkit(&["select", "--player", "немец", path.to_str().unwrap()]);
    let out = stdout(&o).to_vec();
    assert_eq!(assert_pieces_of(&out, &source, b"\r\n"), 2);
    assert!(!out.contains(&0xD0), "still cp1251, not UTF-8");
    // UTF-8 sources, LF line ends: the repository's own corpus.
    let src = std::fs::read(common::corpus("english/faults.pdn")).unwrap();
    let o = common::pdnkit(&["select", "--invalid", &common::corpus("english/faults.pdn")]);
    assert_pieces_of(stdout(&o), &src, b"\n");
    // -o writes the same bytes.
    let to = dir.join("out.pdn");
    let o2 = common::pdnkit(&[
        "select",
        "--invalid",
        &common::corpus("english/faults.pdn"),
        "-o",
        to.to_str().unwrap(),
    ]);
    assert!(o2.status.success());
    assert_eq!(std::fs::read(&to).unwrap(), o.stdout);
    // The real cp1251 archive, when there.
    if let Some(real) = common::shared("corpus/real/other/jpalaz__ЧБ-64 2016.pdn") {
        let src = std::fs::read(&real).unwrap();
        let o = common::pdnkit(&["select", "--player", "немец", real.to_str().unwrap()]);
        assert!(assert_pieces_of(stdout(&o), &src, b"\n") > 1);
    }
}

#[test]
fn position_selects_the_games_that_reach_it() {
    let file = common::corpus("russian/clean.pdn");
    // The position after ply 6 of each game, as convert gives it.
    let plies = common::json_lines(&common::pdnkit(&[
        "convert", "--to", "jsonl", "--moves", "--fen", &file,
    ]));
    let all = games(&[&file]);
    for p in plies.iter().filter(|p| p["ply"] == 6) {
        let fen = p["fen"].as_str().unwrap();
        let want: BTreeSet<(String, u64)> = plies
            .iter()
            .filter(|q| q["fen"] == fen)
            .map(|q| {
                (
                    q["file"].as_str().unwrap().to_string(),
                    q["game"].as_u64().unwrap(),
                )
            })
            .collect();
        assert!(want.contains(&(
            p["file"].as_str().unwrap().to_string(),
            p["game"].as_u64().unwrap()
        )));
        assert_eq!(selected(&["--position", fen], &[&file]), want, "{fen}");
        // The same pieces listed in another order are the same position.
        let mut fields: Vec<&str> = fen.split(':').collect();
        fields[1..].reverse();
        assert_eq!(selected(&["--position", &fields.join(":")], &[&file]), want);
    }
    assert!(!all.is_empty());
}

#[test]
fn unique_keeps_one_game_of_each_duplicate_group() {
    let dir = common::tempdir("select-unique");
    let a = common::corpus("russian/clean.pdn");
    let copy = dir.join("copy.pdn");
    std::fs::copy(&a, &copy).unwrap();
    let paths = [a.as_str(), copy.to_str().unwrap()];
    let dupes = common::json_lines(&common::pdnkit(&[
        "dupes", "--format", "json", paths[0], paths[1],
    ]));
    let groups = dupes.iter().filter(|d| d["type"] == "duplicates").count();
    assert!(groups >= 5, "{dupes:?}");
    let mut args = vec!["select", "--unique", "-v"];
    args.extend_from_slice(&paths);
    let o = common::pdnkit(&args);
    let text = String::from_utf8(stdout(&o).to_vec()).unwrap();
    let n = text.matches("[Event ").count();
    assert_eq!(n, 5, "one of each pair");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("5 of 5 games selected") && stderr.contains("0 of 5 games selected"),
        "{stderr}"
    );
    // The written archive has no duplicate left.
    let out = dir.join("unique.pdn");
    std::fs::write(&out, &text).unwrap();
    let again = common::json_lines(&common::pdnkit(&[
        "dupes",
        "--format",
        "json",
        out.to_str().unwrap(),
    ]));
    assert_eq!(
        again.iter().filter(|d| d["type"] == "duplicates").count(),
        0
    );
    // --keep most-complete keeps the copy with more tags.
    let fuller = dir.join("fuller.pdn");
    let src = std::fs::read_to_string(&a).unwrap();
    std::fs::write(
        &fuller,
        src.replace("[Site \"-\"]", "[Site \"-\"]\n[Annotator \"x\"]"),
    )
    .unwrap();
    let o = common::pdnkit(&[
        "select",
        "--unique",
        "--keep",
        "most-complete",
        paths[0],
        fuller.to_str().unwrap(),
    ]);
    let text = String::from_utf8(stdout(&o).to_vec()).unwrap();
    assert_eq!(text.matches("[Annotator \"x\"]").count(), 5);
    // --unique=prefixes also drops a game that is the start of another.
    let long =
        "1. 32-28 19-23 2. 28x19 14x23 3. 37-32 10-14 4. 41-37 5-10 5. 31-27 17-21 6. 46-41 21-26";
    let short = "1. 32-28 19-23 2. 28x19 14x23 3. 37-32 10-14 4. 41-37 5-10 5. 31-27 17-21";
    let pre = dir.join("prefix.pdn");
    std::fs::write(&pre, format!("[Event \"short\"]\n[GameType \"20\"]\n{short} *\n\n[Event \"long\"]\n[GameType \"20\"]\n{long} *\n")).unwrap();
    let events = |args: &[&str]| -> Vec<String> {
        let mut a = vec!["select"];
        a.extend_from_slice(args);
        a.push(pre.to_str().unwrap());
        String::from_utf8(stdout(&common::pdnkit(&a)).to_vec())
            .unwrap()
            .lines()
            .filter(|l| l.starts_with("[Event"))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(events(&["--unique"]).len(), 2);
    assert_eq!(events(&["--unique=prefixes"]), ["[Event \"long\"]"]);
    assert_eq!(events(&["--unique=prefixes", "--min-plies", "11"]).len(), 2);
    // Standard input cannot be read twice.
    let o = common::pdnkit(&["select", "--unique", "-"]);
    assert_eq!(o.status.code(), Some(2));
}

/// Issue 55: `--unique` never deletes a real game. The two games of a
/// micro-match share a ballot: the same moves with the players swapped, or a
/// short draw that is the start of the return game, are other games. Copies
/// (same moves, players and Round) whose results differ are all kept, and
/// said, unless `--keep` names which.
#[test]
fn unique_never_drops_a_game_of_other_players_or_round() {
    let dir = common::tempdir("select-unique-players");
    let game = |w: &str, b: &str, round: &str, result: &str, moves: &str| {
        format!("[White \"{w}\"]\n[Black \"{b}\"]\n[Round \"{round}\"]\n[Result \"{result}\"]\n[GameType \"20\"]\n{moves} {result}\n\n")
    };
    let line =
        "1. 32-28 19-23 2. 28x19 14x23 3. 37-32 10-14 4. 41-37 5-10 5. 31-27 17-21 6. 46-41 21-26";
    let start = "1. 32-28 19-23 2. 28x19 14x23 3. 37-32 10-14 4. 41-37 5-10 5. 31-27 17-21";
    let f = dir.join("match.pdn");
    std::fs::write(
        &f,
        game("Ann", "Bob", "1.1", "1-1", line)
            // The return game: the same moves, colours swapped.
            + &game("Bob", "Ann", "1.2", "1-1", line)
            // A short draw of another round: the start of the games above.
            + &game("Ann", "Bob", "2.1", "1-1", start)
            // A copy of round 1.1 written with a space more: dropped.
            + &game("Ann ", "Bob", "1.1", "1-1", line),
    )
    .unwrap();
    let rounds = |args: &[&str], path: &std::path::Path| -> (Vec<String>, String) {
        let mut a = vec!["select"];
        a.extend_from_slice(args);
        a.push(path.to_str().unwrap());
        let o = common::pdnkit(&a);
        // Written in the source's own encoding (the real file is windows-1251).
        let rounds = String::from_utf8_lossy(stdout(&o))
            .lines()
            .filter(|l| l.starts_with("[Round"))
            .map(str::to_string)
            .collect();
        (rounds, String::from_utf8_lossy(&o.stderr).into_owned())
    };
    let three = ["[Round \"1.1\"]", "[Round \"1.2\"]", "[Round \"2.1\"]"];
    assert_eq!(rounds(&["--unique"], &f).0, three);
    assert_eq!(rounds(&["--unique=prefixes"], &f).0, three);
    // Copies that disagree in their result: both kept, and said; --keep chooses.
    let g = dir.join("disagree.pdn");
    std::fs::write(
        &g,
        game("Ann", "Bob", "3", "2-0", start) + &game("Ann", "Bob", "3", "1-1", start),
    )
    .unwrap();
    let (kept, said) = rounds(&["--unique"], &g);
    assert_eq!(kept.len(), 2);
    assert!(
        said.contains("1 group of copies whose results differ kept whole"),
        "{said}"
    );
    assert_eq!(rounds(&["--unique", "--keep", "first"], &g).0.len(), 1);
    // A real championship of micro-matches keeps its 255 games.
    let Some(real) = common::shared("corpus/real/other/jpalaz__ЧБ-64 2016.pdn") else {
        return;
    };
    for u in ["--unique", "--unique=prefixes"] {
        let (_, said) = rounds(&[u], &real);
        assert!(said.contains("selected 255 of 255 games"), "{u}: {said}");
    }
}

#[test]
fn stats_by_group_and_openings_per_variant() {
    let corpus = common::corpus("");
    let all = games(&[&corpus]);
    // --by variant: every game in one group, the groups add up.
    let o = common::pdnkit(&["stats", "--by", "variant", "--format", "json", &corpus]);
    let v: Value = serde_json::from_slice(stdout(&o)).unwrap();
    assert_eq!(v["by"], "variant");
    let groups = v["groups"].as_array().unwrap();
    let total: u64 = groups.iter().map(|g| g["games"].as_u64().unwrap()).sum();
    assert_eq!(total as usize, all.len());
    let italian = groups.iter().find(|g| g["name"] == "italian").unwrap();
    let want = all.values().filter(|g| g["variant"] == "italian").count();
    assert_eq!(italian["games"].as_u64().unwrap() as usize, want);
    // --by player: each game counts for both players.
    let o = common::pdnkit(&["stats", "--by", "player", "--format", "csv", &corpus]);
    let mut rows = csv::Reader::from_reader(stdout(&o));
    let games: u64 = rows
        .records()
        .map(|r| r.unwrap()[1].parse::<u64>().unwrap())
        .sum();
    assert_eq!(games as usize, 2 * all.len());
    // Openings are per variant, in the notation of its records, and only
    // from the start position.
    let o = common::pdnkit(&["stats", "--format", "json", &corpus]);
    let v: Value = serde_json::from_slice(stdout(&o)).unwrap();
    for o in v["all"]["openings_2"].as_array().unwrap() {
        let key = o["moves"].as_str().unwrap();
        let (variant, moves) = key.split_once(": ").expect("variant: moves");
        let algebraic = moves
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic());
        assert_eq!(
            algebraic,
            ["brazilian", "russian", "czech", "turkish"].contains(&variant),
            "{key}"
        );
    }
}

/// Issue 44: standard error lists the files that gave games and the total;
/// `-v` lists every file.
#[test]
fn select_lists_the_files_that_gave_games() {
    let a = common::corpus("russian/clean.pdn");
    let b = common::corpus("brazilian/clean.pdn");
    let quiet = common::pdnkit(&["select", "--variant-is", "russian", &a, &b]);
    let err = String::from_utf8_lossy(&quiet.stderr).into_owned();
    assert!(err.contains("russian/clean.pdn: "), "{err}");
    assert!(!err.contains("brazilian/clean.pdn"), "{err}");
    assert!(
        err.lines().last().unwrap_or("").starts_with("selected "),
        "{err}"
    );
    assert!(err.contains(" in 2 files"), "{err}");
    let verbose = common::pdnkit(&["select", "-v", "--variant-is", "russian", &a, &b]);
    let err = String::from_utf8_lossy(&verbose.stderr);
    assert!(err.contains("brazilian/clean.pdn: 0 of"), "{err}");
}

/// `--result` as CLI.md defines it (issue 44): words and the `2-0` family by
/// meaning in every variant; the `1-0` family in each game's own order (an
/// English record's `0-1` is White's win); the text alone where the order is
/// not known.
#[test]
fn result_by_meaning_and_in_the_games_own_order() {
    let count = |result: &str, file: &str| -> usize {
        let o = crate::common::pdnkit(&["select", "--result", result, file]);
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .filter(|l| l.starts_with("[Event"))
            .count()
    };
    let english = "corpus/english/clean.pdn"; // two White wins, written 0-1
    let russian = "corpus/russian/clean.pdn"; // two Black wins, written 0-2
    for (result, e, r) in [
        ("white", 2, 0),
        ("black", 0, 2),
        ("2-0", 2, 0),
        ("0-2", 0, 2),
        ("0-1", 2, 2),
        ("1-0", 0, 0),
        ("unfinished", 3, 3),
        ("*", 3, 3),
    ] {
        assert_eq!(count(result, english), e, "--result {result} on {english}");
        assert_eq!(count(result, russian), r, "--result {result} on {russian}");
    }
    // An 8x8 game with no moves and no evidence: its order is not known,
    // so `1-0` matches its text and `white` matches nothing.
    let dir = crate::common::tempdir("result-order");
    let f = dir.join("problem.pdn");
    std::fs::write(
        &f,
        "[Event \"problem\"]\n[Result \"1-0\"]\n[FEN \"W:W21:B5\"]\n1-0\n",
    )
    .unwrap();
    let f = f.to_string_lossy().into_owned();
    assert_eq!(count("1-0", &f), 1);
    assert_eq!(count("0-1", &f), 0);
    assert_eq!(count("white", &f), 0);
    let o = crate::common::pdnkit(&["select", "--result", "won", english]);
    assert_eq!(o.status.code(), Some(2));
}

/// Issue 55: a game that was not replayed (its file refused) has no length:
/// `stats --by` gives no mean length for a group of such games, never 0.0.
#[test]
fn stats_by_group_has_no_mean_length_of_games_not_replayed() {
    let d = common::tempdir("stats-refused");
    let f = d.join("refused.pdn");
    let two_ways = "[Event \"E\"]\n[FEN \"W:W26,31:B22,27,14\"]\n1. ";
    std::fs::write(
        &f,
        format!("{two_ways}31x24 *\n\n{two_ways}26x10 *\n\n{two_ways}26x10 *\n"),
    )
    .unwrap();
    let o = common::pdnkit(&[
        "stats",
        "--by",
        "event",
        "--format",
        "json",
        f.to_str().unwrap(),
    ]);
    let v: Value = serde_json::from_slice(stdout(&o)).unwrap();
    let g = &v["groups"][0];
    assert_eq!(g["games"], 3, "{v}");
    assert!(g["mean_plies"].is_null(), "{v}");
    let o = common::pdnkit(&["stats", "--by", "event", f.to_str().unwrap()]);
    let text = String::from_utf8_lossy(stdout(&o)).into_owned();
    assert!(!text.contains("0.0"), "{text}");
    // Named, the games are replayed: their mean length is known.
    let o = common::pdnkit(&[
        "stats",
        "--by",
        "event",
        "--format",
        "json",
        "--variant",
        "russian",
        f.to_str().unwrap(),
    ]);
    let v: Value = serde_json::from_slice(stdout(&o)).unwrap();
    assert_eq!(v["groups"][0]["mean_plies"], 1.0, "{v}");
}

/// Issue 54 item 11: a merged output is written as UTF-8, and is valid
/// UTF-8: a game read as UTF-8 whose bytes are not all UTF-8 (a letter lost
/// in the source: `\xd0?.`) is written with U+FFFD, counted in the message;
/// a windows-1252 game is transcoded. On the real tree too.
#[test]
fn a_merged_output_declared_utf8_is_valid_utf8() {
    let d = common::tempdir("select-utf8");
    let mut a = Vec::new();
    for i in 0..20 {
        if i == 2 {
            a.extend_from_slice("[Event \"Чемпионат Беларуси\"]\n[White \"Михальченко ".as_bytes());
            a.extend_from_slice(b"\xd0?.\"]\n[GameType \"25\"]\n1. c3-d4 *\n\n");
        }
        a.extend_from_slice(
            format!(
                "[Event \"Чемпионат {i}\"]\n[White \"Иванов\"]\n[GameType \"25\"]\n1. c3-d4 *\n\n"
            )
            .as_bytes(),
        );
    }
    std::fs::write(d.join("a.pdn"), &a).unwrap();
    std::fs::write(
        d.join("b.pdn"),
        b"[Event \"b\"]\n[White \"Jos\xe9\"]\n[GameType \"20\"]\n1. 32-28 *\n",
    )
    .unwrap();
    let out = d.join("out.pdn");
    let o = common::pdnkit(&["select", d.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("1 game had bytes that were not UTF-8: written as U+FFFD"),
        "{err}"
    );
    let text = String::from_utf8(std::fs::read(&out).unwrap()).expect("valid UTF-8");
    assert!(
        text.contains("Михальченко \u{fffd}?.") && text.contains("José"),
        "{text}"
    );
    assert_eq!(text.matches("[Event").count(), 22);
    let Some(real) = common::shared("corpus/real") else {
        return;
    };
    let out = d.join("real.pdn");
    let o = common::pdnkit(&[
        "select",
        "--unique",
        real.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        String::from_utf8(std::fs::read(&out).unwrap()).is_ok(),
        "the real tree's merge is not UTF-8"
    );
}

/// `--material` and `--material-either`, as `select` and `check` apply them:
/// the games that reach the material, whichever colour has it with
/// `--material-either`, the same games for both.
#[test]
fn material_selects_the_games_that_reach_it() {
    let dir = common::tempdir("material");
    let file = dir.join("endings.pdn");
    // 1: White crowns a third king against a lone king at ply 1.
    // 2: the same with the colours swapped (Black crowns at ply 2).
    // 3: three kings against a king only after an illegal move: never.
    // 4: a man each, never a king.
    std::fs::write(
        &file,
        "[Round \"1\"]\n[GameType \"20\"]\n[FEN \"W:W6,K20,K30:BK45\"]\n1. 6-1 45-50 *\n\n\
         [Round \"2\"]\n[GameType \"20\"]\n[FEN \"W:WK5:BK21,K31,45\"]\n1. 5-10 45-50 *\n\n\
         [Round \"3\"]\n[GameType \"20\"]\n[FEN \"W:W6,K20,K30:BK45\"]\n1. 6-11 45-50 *\n\n\
         [Round \"4\"]\n[GameType \"20\"]\n[FEN \"W:W28:B23\"]\n1. 28x19 *\n\n",
    )
    .expect("write");
    let path = file.to_str().expect("utf-8 path");
    let rounds = |args: &[&str]| -> Vec<String> {
        let mut a = vec!["select"];
        a.extend_from_slice(args);
        a.push(path);
        let o = common::pdnkit(&a);
        String::from_utf8_lossy(stdout(&o))
            .lines()
            .filter_map(|l| {
                l.strip_prefix("[Round \"")
                    .map(|r| r.trim_end_matches("\"]").to_string())
            })
            .collect()
    };
    assert_eq!(rounds(&["--material", "3K:1K"]), ["1"]);
    assert_eq!(
        rounds(&["--material", "3K:1K", "--material-either"]),
        ["1", "2"]
    );
    assert_eq!(rounds(&["--material", "1K:3K"]), ["2"]);
    // At least: White with a man or more and any kings, Black anything.
    assert_eq!(rounds(&["--material", "0K+1M+:0K+0M+"]), ["1", "3", "4"]);
    assert_eq!(rounds(&["--material", "0K+1M+:0K+1M+"]), ["4"]);
    // One option repeated: OR; another option: AND; --invert: the rest.
    assert_eq!(
        rounds(&["--material", "3K:1K", "--material", "1M:0"]),
        ["1", "4"]
    );
    assert_eq!(
        rounds(&[
            "--material",
            "3K:1K",
            "--material-either",
            "--tag",
            "Round=2"
        ]),
        ["2"]
    );
    assert_eq!(
        rounds(&["--material", "3K:1K", "--invert"]),
        ["2", "3", "4"]
    );
    // check and stats count the same games.
    let o = common::pdnkit(&[
        "check",
        "--format",
        "json",
        "--material",
        "3K:1K",
        "--material-either",
        path,
    ]);
    let games = common::json_lines(&o)
        .into_iter()
        .filter(|v| v["type"] == "game")
        .count();
    assert_eq!(games, 2);
}
