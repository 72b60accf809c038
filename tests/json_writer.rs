//! The JSON line `check --format json` writes for a game
//! (`export::write_game_json`, written by hand into a reused buffer) is byte
//! for byte `serde_json`'s serialization of the library's `GameRecord`, for
//! every game of every corpus, replayed and read only.

mod common;

use pdnkit::check::check_file;
use pdnkit::export::{write_game_json, GameRecord};
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
            let (games, _) = check_file(&bytes[..], &opts).expect("memory reads");
            for c in &games {
                out.clear();
                write_game_json(&mut out, &name, &c.game, &c.report);
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

#[test]
fn this_repository_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["corpus", "tests/data", "fuzz/corpus"] {
        files.extend(common::pdn_files(&root.join(dir)));
    }
    let n = compare(&files);
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
