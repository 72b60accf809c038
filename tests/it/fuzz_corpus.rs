//! The fuzz targets' corpora, kept in `fuzz/corpus/<target>/`, replayed through
//! the same checks the targets make (`fuzz/checks.rs`): every input that once
//! found a defect, and the seeds, stay tested without a fuzzer. The `split`
//! target's corpus is replayed by the unit tests of `src/pdn/split.rs`, which
//! reach the pieces the pipeline reads.

use crate::checks;

use std::path::Path;

/// Runs `check` on every file of `fuzz/corpus/<target>/`; returns how many.
fn replay(target: &str, check: fn(&[u8])) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    files.sort();
    for f in &files {
        let data = std::fs::read(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let outcome = std::panic::catch_unwind(|| check(&data));
        assert!(outcome.is_ok(), "{target}: {} fails its check", f.display());
    }
    files.len()
}

#[test]
fn reader_corpus() {
    assert!(replay("reader", checks::reader) >= 20);
}

#[test]
fn read_and_check_corpus() {
    assert!(replay("read_and_check", checks::read_and_check) >= 20);
}

#[test]
fn fen_corpus() {
    assert!(replay("fen", checks::fen) >= 20);
}

#[test]
fn written_move_corpus() {
    assert!(replay("written_move", checks::written_move) >= 20);
}

#[test]
fn pdn_roundtrip_corpus() {
    assert!(replay("pdn_roundtrip", checks::pdn_roundtrip) >= 20);
}
