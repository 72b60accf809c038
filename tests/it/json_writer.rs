//! The JSON lines written by hand into a reused buffer are byte for byte
//! what `serde_json` gives, for every game of every corpus:
//! - `check --format json` (`export::write_game_json`): the library's
//!   `GameRecord`, replayed and read only;
//! - `convert --to jsonl` (`export::write_game_row_json`,
//!   `write_ply_row_json`): the row turned into a `serde_json::Value` with the
//!   `--tag` columns added, keys in alphabetical order.

use crate::common;

use pdnkit::check::check_file;
use pdnkit::export::GameRecord;
use pdnkit::replay::Options;
use std::path::{Path, PathBuf};

/// Compares both writings for every game of `files`; returns the games seen.
fn compare(files: &[PathBuf]) -> usize {
    let mut seen = 0;
    let mut out = String::new();
    for f in files {
        let bytes = std::fs::read(f).expect("readable file");
        let name = f.display().to_string();
        for syntax_only in [false, true] {
            let opts = Options::default().syntax_only(syntax_only);
            let games = check_file(&bytes[..], &opts).games;
            for c in &games {
                out.clear();
                pdnkit::export::GameRecord::write_json(&mut out, &name, &c.game, &c.report);
                let record = GameRecord::new(&name, &c.game, &c.report);
                let want = serde_json::to_string(&record).expect("a record serializes") + "\n";
                assert_eq!(
                    out,
                    want,
                    "{name}, game {} (syntax only: {syntax_only})",
                    c.game.index()
                );
                seen += 1;
            }
        }
    }
    seen
}

/// The `Value` way `convert --to jsonl` wrote a row: the record as a map, the
/// tags added.
fn by_value<T: serde::Serialize>(row: &T, tags: &[(&str, Option<&str>)]) -> String {
    let mut v = serde_json::to_value(row).expect("a row serializes");
    let o = v.as_object_mut().expect("a row is an object");
    for (name, value) in tags {
        let value = value.map_or(serde_json::Value::Null, |s| s.into());
        o.insert(name.to_string(), value);
    }
    v.to_string() + "\n"
}

/// Compares the row writers with the `Value` way for every game and ply of
/// `files`, under several `--tag` lists; returns the rows seen.
fn compare_rows(files: &[PathBuf]) -> usize {
    let tag_lists: [&[&str]; 4] = [
        &[],
        &["GameType", "Opening"],
        &["event", "Event", "file", "move"],
        &["Result", "x\"y", "Zé"],
    ];
    let opts = Options::default().keep_moves(true);
    let mut seen = 0;
    let mut out = String::new();
    for f in files {
        let bytes = std::fs::read(f).expect("readable file");
        let name = f.display().to_string();
        let games = check_file(&bytes[..], &opts).games;
        for c in &games {
            for names in tag_lists {
                let values: Vec<Option<String>> = names.iter().map(|t| c.game.tag(t)).collect();
                let tags: Vec<(&str, Option<&str>)> = names
                    .iter()
                    .zip(&values)
                    .map(|(t, v)| (*t, v.as_deref()))
                    .collect();
                let row = pdnkit::export::GameRow::new(&name, &c.game, &c.report);
                out.clear();
                row.write_json(&mut out, &tags);
                assert_eq!(
                    out,
                    by_value(&row, &tags),
                    "{name}, game {}",
                    c.game.index()
                );
                seen += 1;
                for fen in [false, true] {
                    for row in pdnkit::export::PlyRow::rows(&name, &c.game, &c.report, fen) {
                        out.clear();
                        row.write_json(&mut out, &tags);
                        assert_eq!(out, by_value(&row, &tags), "{name}, ply {}", row.ply);
                        seen += 1;
                    }
                }
            }
        }
    }
    seen
}

#[test]
fn rows_of_this_repository_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = common::pdn_files(&root.join("corpus"));
    let n = compare_rows(&files);
    assert!(n > 2000, "the repository's rows are found: {n}");
}

#[test]
fn rows_of_the_real_corpus() {
    let Some(real) = common::shared("corpus/real") else {
        return;
    };
    let n = compare_rows(&common::pdn_files(&real));
    assert!(n > 100_000, "the real corpus's rows are found: {n}");
}

#[test]
fn this_repository_files() {
    let n = compare(&common::repository_pdn_files());
    assert!(n > 800, "the repository's games are found: {n}");
}

#[test]
fn strings_that_need_escapes() {
    // Quotes, backslashes, control characters and non-ASCII in tags, in a
    // file name, in findings (an unknown move quotes its text) and in notes.
    let dir = common::tempdir("json-writer");
    let f = dir.join("a \"quoted\"\\name\t.pdn");
    let text = "[Event \"a \\\"quote\\\" and \\\\ back\u{1}slash\tTab\u{7f}\"]\n\
                [White \"Zé 💡\"]\n[White \"second\"]\n[B\u{e9} \"x\"]\n[A \"first\"]\n\
                [Result \"2-0\"]\n1. 32-28 19x23 {comment \"x\"} 2. 28x19 *\n\n\
                [GameType \"20\"]\n1. 33-29 \u{2}\u{3} 2-0\n";
    std::fs::write(&f, text).expect("written");
    assert!(compare(&[f]) >= 4);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_real_corpus_and_the_conformance_games() {
    let (Some(real), Some(games)) = (
        common::shared("corpus/real"),
        common::shared("conformance/games"),
    ) else {
        return;
    };
    let mut files = common::pdn_files(&real);
    files.extend(common::pdn_files(&games));
    assert!(compare(&files) > 10_000, "the shared games are found");
}
