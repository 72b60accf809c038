//! Whole-output snapshots of `pdnkit check` on the example corpus (insta):
//! what a user reads is compared in full, not by `contains`.
use std::process::Command;

/// Runs pdnkit from the repository root (so paths in the output are relative)
/// with `args`, a clean colour environment, and `env` set.
fn run(args: &[&str], env: &[(&str, &str)]) -> (String, i32) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_pdnkit"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env("TERM", "xterm");
    for (k, v) in env {
        c.env(k, v);
    }
    let o = c.output().expect("pdnkit runs");
    (
        String::from_utf8(o.stdout).expect("UTF-8 output"),
        o.status.code().unwrap_or(-1),
    )
}

#[test]
fn check_corpus_human() {
    let (out, code) = run(&["check", "--no-progress", "corpus/"], &[]);
    assert_eq!(code, 1);
    insta::assert_snapshot!("check_corpus", out);
}

#[test]
fn check_corpus_in_colour() {
    let (out, _) = run(
        &[
            "check",
            "--no-progress",
            "--color",
            "always",
            "corpus/brazilian/faults.pdn",
        ],
        &[],
    );
    assert!(out.contains("\u{1b}["));
    insta::assert_snapshot!("check_faults_colour", out);
    // NO_COLOR turns colour off for auto (and output to a pipe never has it).
    let (plain, _) = run(
        &["check", "--no-progress", "corpus/brazilian/faults.pdn"],
        &[("NO_COLOR", "1")],
    );
    assert!(!plain.contains('\u{1b}'));
    let (forced, _) = run(
        &["check", "--no-progress", "corpus/brazilian/faults.pdn"],
        &[("CLICOLOR_FORCE", "1")],
    );
    assert_eq!(forced, out);
    let (never, _) = run(
        &[
            "check",
            "--no-progress",
            "--color",
            "never",
            "corpus/brazilian/faults.pdn",
        ],
        &[("CLICOLOR_FORCE", "1")],
    );
    assert_eq!(never, plain);
}

#[test]
fn check_corpus_quiet() {
    let (out, code) = run(&["check", "--no-progress", "-q", "corpus/"], &[]);
    assert_eq!(code, 1);
    insta::assert_snapshot!("check_corpus_quiet", out);
}

#[test]
fn check_corpus_allowing_codes() {
    let (out, code) = run(
        &[
            "check",
            "--no-progress",
            "-q",
            "-A",
            "illegal-move",
            "-A",
            "missing-result",
            "-W",
            "result-mismatch",
            "corpus/brazilian",
        ],
        &[],
    );
    assert_eq!(code, 1);
    insta::assert_snapshot!("check_brazilian_allow", out);
}

#[test]
fn check_deny_warnings() {
    let (out, code) = run(
        &[
            "check",
            "--no-progress",
            "-D",
            "warnings",
            "corpus/english/untagged.pdn",
        ],
        &[],
    );
    assert_eq!(code, 1, "a warning made an error fails the check");
    insta::assert_snapshot!("check_english_deny_warnings", out);
    let (_, code) = run(
        &["check", "--no-progress", "corpus/english/untagged.pdn"],
        &[],
    );
    assert_eq!(code, 0);
}

#[test]
fn check_json_records() {
    // The JSON records of a file with faults (plies_unchecked, variant_source,
    // declared_result_text) and of an untagged file (variant_source inferred).
    let (out, code) = run(
        &[
            "check",
            "--no-progress",
            "--format",
            "json",
            "corpus/english/faults.pdn",
            "corpus/russian/untagged.pdn",
        ],
        &[],
    );
    assert_eq!(code, 1);
    insta::assert_snapshot!("check_json_records", out);
}

#[test]
fn check_syntax_only_is_read_only() {
    let (out, code) = run(
        &["check", "--no-progress", "--syntax-only", "-q", "corpus/"],
        &[],
    );
    assert_eq!(code, 0);
    insta::assert_snapshot!("check_syntax_only", out);
}

/// `stats` on a refused file (issue 44): its games are not checked, and
/// count nowhere but there (no lengths, computed results or endings); the
/// CSV leaves their `valid` empty.
#[test]
fn stats_of_a_refused_file() {
    let (out, code) = run(
        &[
            "stats",
            "--no-progress",
            "tests/data/verdicts/refused-single.pdn",
        ],
        &[],
    );
    assert_eq!(code, 0);
    insta::assert_snapshot!("stats_refused", out);
    let (csv, _) = run(
        &[
            "convert",
            "--to",
            "csv",
            "--no-progress",
            "tests/data/verdicts/refused-single.pdn",
        ],
        &[],
    );
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let header = reader.headers().expect("a header").clone();
    let valid = header
        .iter()
        .position(|c| c == "valid")
        .expect("a valid column");
    let mut rows = 0;
    for row in reader.records() {
        let row = row.expect("a CSV row");
        assert_eq!(row.get(valid), Some(""), "{row:?}");
        rows += 1;
    }
    assert_eq!(rows, 1);
}

/// A truncated `.gz` (issue 44): its file is counted as read, with the game
/// before the break and the file's finding kept, and the summary says the
/// file could not be read to its end.
#[test]
fn check_a_truncated_gzip() {
    use std::io::Write as _;
    let text = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/russian/untagged.pdn"),
    )
    .expect("the corpus file");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&text).expect("compressed");
    let whole = gz.finish().expect("compressed");
    let dir = crate::common::tempdir("truncated-gz");
    let f = dir.join("untagged.pdn.gz");
    std::fs::write(&f, &whole[..whole.len() - 20]).expect("written");
    let (out, code) = run(&["check", "--no-progress", &f.to_string_lossy()], &[]);
    assert_eq!(code, 2, "a file not read to its end fails the run");
    let out = out.replace(&dir.to_string_lossy().into_owned(), "TMP");
    insta::assert_snapshot!("check_truncated_gzip", out);
}
