//! Whatever pdnkit writes as PDN reads back as its sources (issue 38): `check`
//! of the output gives, for every game written, the same variant, how it was
//! decided, validity, error findings (codes and plies), declared result (its
//! meaning), computed result and plies as the same game in its source.
use crate::common;

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// What must read back the same: variant, variant_source, valid, error
/// codes with their plies, declared result (none and `*` are equal),
/// computed result, plies and plies unchecked.
type Fields = (
    String,
    String,
    String,
    Vec<String>,
    String,
    String,
    u64,
    u64,
);

fn fields(v: &Value) -> Fields {
    let mut errors: Vec<String> = v["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|d| d["severity"] == "error")
        .map(|d| format!("{}@{}", d["code"], d["ply"]))
        .collect();
    errors.sort();
    let declared = match (&v["declared_result"], v["declared_result_text"].as_str()) {
        (Value::Null, None | Some("*")) => "\"*\"".to_string(),
        (d, _) => d.to_string(),
    };
    (
        v["variant"].to_string(),
        v["variant_source"].to_string(),
        v["valid"].to_string(),
        errors,
        declared,
        v["computed_result"].to_string(),
        v["plies"].as_u64().unwrap_or(0),
        v["plies_unchecked"].as_u64().unwrap_or(0),
    )
}

/// A game's identity across files: its tags (but the GameType and the
/// marker a merged output adds) and its plies.
fn key(v: &Value) -> String {
    let mut tags = v["tags"].clone();
    if let Some(t) = tags.as_object_mut() {
        t.remove("GameType");
        t.remove("VariantSource");
        // --normalise writes the result in its family.
        t.remove("Result");
    }
    format!("{tags}|{}|{}", v["plies"], v["plies_unchecked"])
}

fn games(args: &[&str]) -> Vec<Value> {
    let o = common::pdnkit(&[&["check", "--format", "json"], args].concat());
    common::json_lines(&o)
        .into_iter()
        .filter(|v| v["type"] == "game")
        .collect()
}

/// Every game of `out` is a game of `src` (by its tags and plies) with the
/// same fields; returns how many games `out` has.
fn reads_back_as(src: &[Value], out: &[Value], what: &str) -> usize {
    let mut by_key: BTreeMap<String, Vec<Fields>> = BTreeMap::new();
    for g in src {
        by_key.entry(key(g)).or_default().push(fields(g));
    }
    let mut bad = Vec::new();
    for g in out {
        let f = fields(g);
        if !by_key.get(&key(g)).is_some_and(|fs| fs.contains(&f)) {
            bad.push(format!("{} game {}: {f:?}", g["file"], g["game"]));
        }
    }
    assert!(
        bad.is_empty(),
        "{what}: {} games differ, first: {:?}",
        bad.len(),
        &bad[..bad.len().min(3)]
    );
    out.len()
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// The number in "selected N of M games" on standard error.
fn selected(o: &std::process::Output) -> usize {
    let err = String::from_utf8_lossy(&o.stderr);
    err.lines()
        .find_map(|l| l.strip_prefix("selected "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count in {err}"))
}

#[test]
fn every_writer_reads_back_as_its_sources_on_the_real_tree() {
    let Some(real) = common::shared("corpus/real") else {
        return;
    };
    let tmp = common::tempdir("readback");
    // `check` runs from inside the tree, so that the names are the same.
    let tree = tmp.join("tree");
    std::fs::create_dir_all(&tree).unwrap();
    copy_tree(&real, &tree);
    let src = games(&[tree.to_str().unwrap()]);
    assert!(src.len() > 9000);

    // The whole tree converted into one file: every game, in order.
    let one = tmp.join("one.pdn");
    let o = common::pdnkit(&[
        "convert",
        "--to",
        "pdn",
        "-o",
        one.to_str().unwrap(),
        tree.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = games(&[one.to_str().unwrap()]);
    assert_eq!(out.len(), src.len());
    for (s, o) in src.iter().zip(&out) {
        assert_eq!(fields(s), fields(o), "{} game {}", s["file"], s["game"]);
    }

    // select --unique and select --invalid: as many games as selected, each
    // as in its source, in one encoding.
    for args in [
        &["--unique"][..],
        &["--invalid"][..],
        &["--unique", "--normalise"][..],
    ] {
        let file = tmp.join("selected.pdn");
        let o = common::pdnkit(
            &[
                &["select"],
                args,
                &["-o", file.to_str().unwrap(), tree.to_str().unwrap()],
            ]
            .concat(),
        );
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let out = games(&[file.to_str().unwrap()]);
        assert_eq!(
            reads_back_as(&src, &out, &format!("select {args:?}")),
            selected(&o),
            "{args:?}"
        );
        let bytes = std::fs::read(&file).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        // Legacy encodings were transcoded: no Cyrillic name reads as Latin-1 mojibake.
        assert!(!text.contains("Ð§ÐµÐ¼Ð¿Ð¸Ð¾Ð½Ð°Ñ‚"), "{args:?}");
    }

    // In place: every game reads back the same, but the fixed results.
    for (mode, exceptions) in [("--normalise", 0), ("--fix-results", 2)] {
        let copy = tmp.join(format!("copy{mode}"));
        std::fs::create_dir_all(&copy).unwrap();
        copy_tree(&real, &copy);
        let before = games(&[copy.to_str().unwrap()]);
        let o = common::pdnkit(&[
            "convert",
            "--to",
            "pdn",
            "--in-place",
            mode,
            copy.to_str().unwrap(),
        ]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{mode}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let after = games(&[copy.to_str().unwrap()]);
        assert_eq!(before.len(), after.len());
        let differ: Vec<String> = before
            .iter()
            .zip(&after)
            .filter(|(b, a)| fields(b) != fields(a))
            .map(|(b, a)| {
                format!(
                    "{} game {}: {:?} -> {:?}",
                    b["file"],
                    b["game"],
                    fields(b),
                    fields(a)
                )
            })
            .collect();
        assert_eq!(differ.len(), exceptions, "{mode}: {differ:#?}");
        // The exceptions are fixed results: the declared result is now the computed one.
        for (b, a) in before
            .iter()
            .zip(&after)
            .filter(|(b, a)| fields(b) != fields(a))
        {
            assert_eq!(a["declared_result"], b["computed_result"]);
            assert_eq!((fields(b).0, fields(b).3), (fields(a).0, fields(a).3));
        }
    }
}

/// Writes `files` (name, bytes) into a fresh folder.
fn folder(name: &str, files: &[(&str, &[u8])]) -> std::path::PathBuf {
    let dir = common::tempdir(name);
    for (n, b) in files {
        std::fs::write(dir.join(n), b).unwrap();
    }
    dir
}

#[test]
fn a_selection_from_several_encodings_is_written_in_utf8() {
    // "Иванов" in windows-1251, "Müller" in windows-1252, each in a file
    // long enough for its encoding to be told.
    let cp1251: &[u8] = b"[Event \"a\"]\n[White \"\xc8\xe2\xe0\xed\xee\xe2\"]\n[Black \"\xcf\xe5\xf2\xf0\xee\xe2\"]\n[GameType \"25\"]\n1. c3-d4 *\n";
    let cp1252: &[u8] = b"[Event \"b\"]\n[White \"M\xfcller\"]\n[Black \"G\xe9rard\"]\n[GameType \"20\"]\n1. 32-28 *\n";
    let dir = folder("encodings", &[("a.pdn", cp1251), ("b.pdn", cp1252)]);
    let src = games(&[dir.to_str().unwrap()]);
    let names: Vec<String> = src.iter().map(|g| g["tags"]["White"].to_string()).collect();
    assert_eq!(names, ["\"Иванов\"", "\"Müller\""]);
    let out = dir.join("out.pdn");
    let o = common::pdnkit(&[
        "select",
        "-o",
        out.to_str().unwrap(),
        dir.join("a.pdn").to_str().unwrap(),
        dir.join("b.pdn").to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("games from 2 encodings written as UTF-8 (2 games transcoded from windows-1251, windows-1252)"), "{err}");
    let text = String::from_utf8(std::fs::read(&out).unwrap()).expect("the output is UTF-8");
    assert!(text.contains("Иванов") && text.contains("Müller"));
    let back = games(&[out.to_str().unwrap()]);
    assert_eq!(reads_back_as(&src, &back, "encodings"), 2);
    // One file in one encoding: its bytes as they stand.
    let o = common::pdnkit(&["select", dir.join("a.pdn").to_str().unwrap()]);
    assert_eq!(o.stdout, cp1251);
}

#[test]
fn a_game_without_a_terminator_stays_apart_from_a_next_game_without_tags() {
    let a: &[u8] = b"[Event \"a\"]\n[Result \"1-1\"]\n[GameType \"20\"]\n1. 32-28 19-23\n";
    let b: &[u8] = b"1. 33-29 18-22 *\n";
    let dir = folder("terminator", &[("a.pdn", a), ("b.pdn", b)]);
    let out = dir.join("out.pdn");
    let o = common::pdnkit(&[
        "select",
        "--variant",
        "international",
        "-o",
        out.to_str().unwrap(),
        dir.join("a.pdn").to_str().unwrap(),
        dir.join("b.pdn").to_str().unwrap(),
    ]);
    assert!(o.status.success());
    assert_eq!(selected(&o), 2);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("1 game given a terminator so that it stays apart"),
        "{err}"
    );
    let text = std::fs::read_to_string(&out).unwrap();
    // The Result tag's token, so that no result-conflict is made.
    assert!(text.contains("1. 32-28 19-23\n1-1\n"), "{text}");
    let back = games(&["--variant", "international", out.to_str().unwrap()]);
    assert_eq!(back.len(), 2);
    assert!(back.iter().all(|g| g["valid"] == true), "{back:?}");
}

#[test]
fn merged_outputs_keep_each_games_variant_with_the_marker() {
    // An untagged Russian file (`:` captures) and an untagged international one.
    let ru: &[u8] = b"[Event \"ru\"]\n1. c3-d4 f6-e5 2. d4:f6 g7:e5 *\n";
    let int: &[u8] = b"[Event \"int\"]\n1. 32-28 19-23 2. 28x19 14x23 3. 37-32 *\n";
    let dir = folder("marker", &[("ru.pdn", ru), ("int.pdn", int)]);
    let src = games(&[dir.to_str().unwrap()]);
    let o = common::pdnkit(&["convert", "--to", "pdn", dir.to_str().unwrap()]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.contains("[GameType \"25\"]\n[VariantSource \"inferred\"]"),
        "{text}"
    );
    let out = dir.join("merged.pdn");
    std::fs::write(&out, &text).unwrap();
    let back = games(&[out.to_str().unwrap()]);
    assert_eq!(reads_back_as(&src, &back, "marker"), 2);
    assert!(back.iter().all(|g| g["variant_source"] == "inferred"));
    // One file into one file: no GameType, no marker (the file is its own context).
    let o = common::pdnkit(&[
        "convert",
        "--to",
        "pdn",
        dir.join("ru.pdn").to_str().unwrap(),
    ]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        !text.contains("GameType") && !text.contains("VariantSource"),
        "{text}"
    );
}

#[test]
fn fix_results_says_exactly_what_it_changed() {
    // 1: a wrong tag and terminator (White takes Black's last piece: 2-0),
    //    in the 1-0 family.
    // 2: a terminator that disagrees with the tag; the replay cannot decide: left alone.
    // 3: a tag and no terminator: the tag's token added.
    // 4: a game with tags only: the terminator on a line of its own.
    let text =
        "[Event \"1\"]\n[GameType \"20\"]\n[FEN \"W:W32:B27\"]\n[Result \"0-1\"]\n1. 32x21 0-1\n\n\
                [Event \"2\"]\n[GameType \"20\"]\n[Result \"0-1\"]\n1. 32-28 1/2-1/2\n\n\
                [Event \"3\"]\n[GameType \"20\"]\n[Result \"1/2-1/2\"]\n1. 32-28\n\n\
                [Event \"4\"]\n[GameType \"20\"]\n[Result \"2-0\"]\n";
    let dir = folder("fix", &[("f.pdn", text.as_bytes())]);
    let f = dir.join("f.pdn");
    let o = common::pdnkit(&[
        "convert",
        "--to",
        "pdn",
        "--in-place",
        "--fix-results",
        f.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    let err = String::from_utf8_lossy(&o.stderr).replace(f.to_str().unwrap(), "f.pdn");
    insta::assert_snapshot!("fix_results_stderr", err);
    let after = std::fs::read_to_string(&f).unwrap();
    insta::assert_snapshot!("fix_results_file", after);
    // Never a terminator on a tag line.
    assert!(
        after
            .lines()
            .all(|l| !(l.starts_with('[') && l.ends_with("2-0"))),
        "{after}"
    );
}

#[test]
fn in_place_leaves_a_snippet_alone_and_succeeds() {
    let dir = folder(
        "snippet",
        &[
            ("snippet.pdn", b"1. 32-28 19-23 *\n"),
            (
                "game.pdn",
                b"[Event \"a\"]\n[GameType \"20\"]\n1. 32-28 19-23 *\n",
            ),
        ],
    );
    let o = common::pdnkit(&[
        "convert",
        "--to",
        "pdn",
        "--in-place",
        "--normalise",
        dir.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("1 file left as it was (a documented reason, not a failure)"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(dir.join("snippet.pdn")).unwrap(),
        b"1. 32-28 19-23 *\n"
    );
    assert!(
        std::fs::read_to_string(dir.join("game.pdn"))
            .unwrap()
            .contains("[Result \"*\"]")
            || dir.join("game.pdn.bak").exists()
    );
}

/// Issue 55: the marker of a merged output never silences a check. Read
/// back, games marked refused give the source's `unknown-variant` error and
/// exit status (once for the file); a game's own GameType decides its variant,
/// marker or not; a variant the user names settles marked games.
#[test]
fn a_marker_never_silences_a_check() {
    let d = common::tempdir("marker-readback");
    let f = d.join("merged.pdn");
    std::fs::write(
        &f,
        "[VariantSource \"refused\"]\n[FEN \"W:W26,31:B22,27,14\"]\n1. 31x24 *\n\n\
         [VariantSource \"refused\"]\n[FEN \"W:W26,31:B22,27,14\"]\n1. 26x10 *\n\n\
         [GameType \"26\"]\n[VariantSource \"undecided\"]\n1. c3-d4 f6-g5 *\n",
    )
    .unwrap();
    let o = common::pdnkit(&["check", "--format", "json", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let lines = common::json_lines(&o);
    let games: Vec<&serde_json::Value> = lines.iter().filter(|l| l["type"] == "game").collect();
    assert_eq!(games[0]["checked"], false);
    assert_eq!(
        (games[2]["checked"].as_bool(), games[2]["valid"].as_bool()),
        (Some(true), Some(true))
    );
    assert_eq!(games[2]["variant"], "brazilian");
    let file: Vec<&serde_json::Value> = lines
        .iter()
        .filter(|l| l["type"] == "file")
        .flat_map(|l| l["diagnostics"].as_array().unwrap())
        .collect();
    assert_eq!(file.len(), 1, "{file:?}");
    assert_eq!(file[0]["code"], "unknown-variant");
    assert!(
        file[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("2 games marked refused"),
        "{}",
        file[0]
    );
    // Named, the marked games are checked under it.
    let o = common::pdnkit(&[
        "check",
        "--format",
        "json",
        "--variant",
        "russian",
        f.to_str().unwrap(),
    ]);
    let summary = common::json_lines(&o).pop().unwrap();
    assert_eq!(
        (
            summary["valid_games"].as_u64(),
            summary["unchecked_games"].as_u64()
        ),
        (Some(3), Some(0)),
        "{summary}"
    );
    // The real case: two refused Czech files merged, read back as their sources.
    let (Some(a), Some(b)) = (
        common::shared("corpus/real/other/wiegerw__mrcd2006.pdn"),
        common::shared("corpus/real/other/wiegerw__mrcd2007.pdn"),
    ) else {
        return;
    };
    let merged = d.join("czech.pdn");
    let o = common::pdnkit(&[
        "convert",
        "--to",
        "pdn",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "-o",
        merged.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    let o = common::pdnkit(&["check", merged.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(String::from_utf8_lossy(&o.stdout)
        .contains("error[unknown-variant]: 146 games marked refused"));
}

/// Issue 54 (item 17): an archive is several files whatever its name: a zip
/// saved as `games.pdn` and converted into one PDN output is a merge, so its
/// untagged games carry the decided GameType and pdnkit's marker, and read
/// back as their own variant (the English games came back as international,
/// from the other member's GameType).
#[test]
fn an_archive_under_any_name_is_merged() {
    let d = common::tempdir("archive-named-pdn");
    let zip = d.join("games.pdn");
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, text) in [
        (
            "eng.pdn",
            "1. 11-15 23-19 2. 8-11 22-17 0-1\n\n1. 9-13 22-18 *\n",
        ),
        ("intl.pdn", "[GameType \"20\"]\n1. 32-28 19-23 *\n"),
    ] {
        z.start_file(name, zip::write::SimpleFileOptions::default())
            .unwrap();
        std::io::Write::write_all(&mut z, text.as_bytes()).unwrap();
    }
    std::fs::write(&zip, z.finish().unwrap().into_inner()).unwrap();
    let out = d.join("out.pdn");
    let o = common::pdnkit(&[
        "convert",
        "--to",
        "pdn",
        zip.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let games: Vec<serde_json::Value> = common::json_lines(&common::pdnkit(&[
        "check",
        "--format",
        "json",
        out.to_str().unwrap(),
    ]))
    .into_iter()
    .filter(|l| l["type"] == "game")
    .collect();
    assert_eq!(games.len(), 3);
    for g in &games[..2] {
        assert_eq!(
            (g["variant"].as_str(), g["valid"].as_bool()),
            (Some("english"), Some(true)),
            "{g}"
        );
    }
    assert_eq!(
        games[0]["declared_result_text"], "0-1",
        "an English 0-1 stays as written"
    );
    assert_eq!(games[2]["variant"], "international");
}

/// Issue 54 item 12: a single file whose games' variant came from its path
/// (a word of its name) written elsewhere carries the decided GameType and
/// the marker, so it reads back the same: english, checked, valid. On the
/// real tree, every file converted alone reads back as its source.
#[test]
fn a_single_file_decided_by_its_path_reads_back() {
    let d = common::tempdir("readback-path");
    let f = d.join("old_english.pdn");
    // No moves, no tags but a position: only the name tells the variant.
    let game = "[FEN \"B:W19,23,22,21,27,26,25,32,31,30,29:B4,3,2,1,7,6,5,12,11,10,9\"]\n*\n\n";
    std::fs::write(&f, game.repeat(3)).unwrap();
    let out = d.join("out.pdn");
    let o = common::pdnkit(&[
        "convert",
        "--to",
        "pdn",
        f.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let src = games(&[f.to_str().unwrap()]);
    assert!(
        src.iter().all(|g| g["variant"] == "english"),
        "{:?}",
        src[0]
    );
    let back = games(&[out.to_str().unwrap()]);
    assert_eq!(reads_back_as(&src, &back, "old_english.pdn -o out.pdn"), 3);
    let Some(real) = common::shared("corpus/real") else {
        return;
    };
    let mut n = 0;
    for file in common::pdn_files(&real) {
        let out = d.join("one.pdn");
        let o = common::pdnkit(&[
            "convert",
            "--to",
            "pdn",
            file.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        assert!(
            o.status.success(),
            "{}: {}",
            file.display(),
            String::from_utf8_lossy(&o.stderr)
        );
        let src = games(&[file.to_str().unwrap()]);
        let back = games(&[out.to_str().unwrap()]);
        assert_eq!(
            reads_back_as(&src, &back, &file.display().to_string()),
            src.len()
        );
        n += 1;
    }
    assert!(n > 50, "{n} files");
}

/// The variants of RULES.md 12 and 13 (vendored in tests/data): `convert
/// --to pdn` (Turkish squares and FEN by name, captures written out) and
/// `select --normalise` read back game by game as their sources.
#[test]
fn turkish_antidraughts_and_breakthrough_read_back() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let tmp = common::tempdir("readback-new-variants");
    for dir in ["turkish/games", "anti-breakthrough/games"] {
        let dir = root.join(dir);
        let src = games(&[dir.to_str().unwrap()]);
        assert!(src.len() > 100, "{}", dir.display());
        for args in [
            &["convert", "--to", "pdn"][..],
            &["select", "--normalise"][..],
        ] {
            let one = tmp.join("one.pdn");
            let o = common::pdnkit(
                &[args, &["-o", one.to_str().unwrap(), dir.to_str().unwrap()]].concat(),
            );
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            let out = games(&[one.to_str().unwrap()]);
            assert_eq!(out.len(), src.len(), "{args:?} {}", dir.display());
            for (s, o) in src.iter().zip(&out) {
                assert_eq!(
                    fields(s),
                    fields(o),
                    "{args:?} {} game {}",
                    s["file"],
                    s["game"]
                );
            }
        }
    }
}
