//! `-j N` changes nothing but the speed: every command, in every format,
//! writes the same bytes, the same standard error and the same status with
//! one worker as with two or three, on files cut into many pieces
//! (`PDNKIT_PIECE_BYTES`) and on whole corpora.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// One run: its status, standard output, standard error, and the bytes of
/// the file it wrote (`-o`), if any.
#[derive(Debug, PartialEq)]
struct Run {
    status: Option<i32>,
    stdout: Vec<u8>,
    stderr: String,
    written: Option<Vec<u8>>,
}

fn run(args: &[&str], jobs: usize, piece: Option<usize>, out: Option<&Path>) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pdnkit"));
    cmd.args(args).arg("--no-progress").arg(format!("-j{jobs}"));
    if let Some(p) = out {
        let _ = std::fs::remove_file(p);
        let _ = std::fs::remove_dir_all(p);
        cmd.arg("-o").arg(p);
    }
    match piece {
        Some(n) => cmd.env("PDNKIT_PIECE_BYTES", n.to_string()),
        None => cmd.env_remove("PDNKIT_PIECE_BYTES"),
    };
    let o = cmd.output().expect("pdnkit runs");
    let written = out.and_then(|p| {
        if p.is_dir() {
            // A partitioned Parquet folder: every file's bytes, in name order.
            let mut files: Vec<PathBuf> = walk(p);
            files.sort();
            Some(
                files
                    .iter()
                    .flat_map(|f| std::fs::read(f).unwrap_or_default())
                    .collect(),
            )
        } else {
            std::fs::read(p).ok()
        }
    });
    Run {
        status: o.status.code(),
        stdout: o.stdout,
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        written,
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// The commands compared: arguments, and whether they write a file (`-o`).
fn commands(input: &str) -> Vec<(Vec<String>, Option<&'static str>)> {
    let c = |args: &[&str], out: Option<&'static str>| {
        let mut v: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        v.push(input.to_string());
        (v, out)
    };
    let mut all = vec![
        c(&["check"], None),
        c(&["check", "--format", "json"], None),
        c(&["check", "-q"], None),
        c(&["check", "--syntax-only", "--format", "json"], None),
        // Games too large for the limit are skipped the same way, wherever cut.
        c(
            &["check", "--format", "json", "--max-game-bytes", "100"],
            None,
        ),
        c(
            &["check", "--format", "json", "--max-game-bytes", "150"],
            None,
        ),
        c(&["convert", "--to", "csv"], None),
        c(&["convert", "--to", "jsonl", "--moves", "--fen"], None),
        c(&["convert", "--to", "pdn"], None),
        c(&["stats"], None),
        c(&["stats", "--format", "json"], None),
        c(&["dupes"], None),
        c(&["dupes", "--format", "json"], None),
        c(&["select", "--valid"], None),
        c(&["tournament"], None),
        c(&["tournament", "--format", "json"], None),
        c(&["report"], Some("report.html")),
    ];
    if cfg!(feature = "parquet") {
        all.push(c(
            &["convert", "--to", "parquet", "--moves"],
            Some("plies.parquet"),
        ));
        all.push(c(
            &["convert", "--to", "parquet", "--partition-by", "variant"],
            Some("parts"),
        ));
    }
    all
}

/// Compares every command with `-j1` (whole files) against `-j2` and `-j3`
/// with pieces of `piece` bytes (and `-j2` whole).
fn compare(input: &Path, piece: usize) {
    let tmp = std::env::temp_dir().join(format!("pdnkit-jobs-{}-{piece}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temporary folder");
    let input = input.to_string_lossy().into_owned();
    for (args, out) in commands(&input) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = out.map(|o| tmp.join(o));
        let one = run(&args, 1, None, out.as_deref());
        assert!(
            one.status.is_some_and(|s| s <= 1),
            "{args:?}: {}",
            one.stderr
        );
        for (jobs, piece) in [
            (2, None),
            (2, Some(piece)),
            (3, Some(piece / 3 + 64)),
            (1, Some(piece)),
        ] {
            let other = run(&args, jobs, piece, out.as_deref());
            assert!(
                one == other,
                "{args:?}: -j{jobs} with pieces of {piece:?} bytes differs from -j1\n-j1 stderr: {}\nother stderr: {}",
                one.stderr,
                other.stderr
            );
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
}

#[test]
fn every_command_writes_the_same_with_any_number_of_jobs_on_corpus() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    compare(&corpus, 512);
}

#[test]
fn every_command_writes_the_same_with_any_number_of_jobs_on_the_real_corpus() {
    let Some(real) = common::shared("corpus/real") else {
        return;
    };
    compare(&real, 4096);
}

#[test]
fn every_command_writes_the_same_with_any_number_of_jobs_on_conformance_games() {
    let Some(games) = common::shared("conformance/games") else {
        return;
    };
    compare(&games, 20000);
}

/// Issue 54 item 13: the same findings wherever a file is cut into pieces.
/// A windows-1252 game, a UTF-8 game (either order), then a game past
/// `--max-game-bytes` holding bytes that are not UTF-8 (FF FE, é in
/// windows-1252, a broken sequence) in its tags or movetext, with or without
/// a game after it: `check` (human and JSON) writes the same bytes with
/// every piece size as when the file is read whole.
#[test]
fn an_oversized_game_of_another_encoding_reads_the_same_in_any_pieces() {
    let d = common::tempdir("pieces-encoding");
    let f = d.join("g.pdn");
    let f_str = f.to_str().unwrap();
    let latin: &[u8] = b"[Event \"Caf\xe9\"]\n[GameType \"20\"]\n1. 32-28 *\n\n";
    let utf8: &[u8] = "[Event \"Café\"]\n[GameType \"20\"]\n1. 32-28 *\n\n".as_bytes();
    let mut cases = 0;
    for bad in [&b"\xff\xfe"[..], b"\xe9", b"\xd0?"] {
        for at in 0..3 {
            for (first, second) in [(latin, utf8), (utf8, latin)] {
                for after in [false, true] {
                    let mut event = b"[Event \"big".to_vec();
                    let mut site = vec![b'x'; 120];
                    let mut body = b"1. 32-28 19-23 2. 28x19 14x23 {c} *\n".to_vec();
                    match at {
                        0 => event.extend_from_slice(bad),
                        1 => site.splice(60..60, bad.iter().copied()).for_each(drop),
                        _ => body.splice(30..30, bad.iter().copied()).for_each(drop),
                    }
                    event.extend_from_slice(b"\"]\n");
                    let mut text = [first, second, &event, b"[GameType \"20\"]\n[Site \""].concat();
                    text.extend_from_slice(&site);
                    text.extend_from_slice(b"\"]\n");
                    text.extend_from_slice(&body);
                    if after {
                        text.extend_from_slice(
                            b"\n[Event \"after\"]\n[GameType \"20\"]\n1. 32-28 *\n",
                        );
                    }
                    std::fs::write(&f, &text).unwrap();
                    for format in ["human", "json"] {
                        let args = [
                            "check",
                            "--max-game-bytes",
                            "150",
                            "--format",
                            format,
                            f_str,
                        ];
                        let whole = run(&args, 1, None, None);
                        assert!(whole.stdout.windows(14).any(|w| w == b"game-too-large"));
                        for piece in [64, 80, 100, 128, 200] {
                            let cut = run(&args, 2, Some(piece), None);
                            assert_eq!(
                                (cut.status, String::from_utf8_lossy(&cut.stdout)),
                                (whole.status, String::from_utf8_lossy(&whole.stdout)),
                                "pieces of {piece} bytes, case {cases}"
                            );
                        }
                    }
                    cases += 1;
                }
            }
        }
    }
    assert_eq!(cases, 36);
}

/// Issue 63 item 18: the fourth trial's 249-byte file (vendored as
/// tests/data/pieces-encoding-oversized.pdn: a windows-1251 tag and a UTF-8
/// one in one game, a stray UTF-16 byte order mark, then a game past the
/// limit). A game skipped as too large decides nothing about the encoding,
/// however the file is cut: every piece size from 64 bytes to past the
/// file's end gives the whole file's findings and summary, byte for byte.
#[test]
fn the_fourth_trials_file_reads_the_same_in_any_pieces() {
    let f = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/pieces-encoding-oversized.pdn");
    let f = f.to_string_lossy();
    for format in ["json", "human"] {
        let args = ["check", "--max-game-bytes", "150", "--format", format, &f];
        let whole = run(&args, 1, None, None);
        let text = String::from_utf8_lossy(&whole.stdout);
        assert!(text.contains("game-too-large"), "{text}");
        assert_eq!(whole.status, Some(1), "{}", whole.stderr);
        for piece in (64..=260).step_by(7) {
            for jobs in [1, 2] {
                let cut = run(&args, jobs, Some(piece), None);
                assert_eq!(
                    (cut.status, String::from_utf8_lossy(&cut.stdout)),
                    (whole.status, text.clone()),
                    "-j{jobs}, pieces of {piece} bytes, {format}"
                );
            }
        }
    }
}
