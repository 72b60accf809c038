//! `convert --to parquet` read back with the `parquet` crate's reader: the
//! row counts, the types, and the values equal the CSV's (issue 24).
use crate::common;

use arrow_array::{
    Array, BooleanArray, Date32Array, Int32Array, Int64Array, ListArray, RecordBatch, StringArray,
};
use common::{pdnkit, tempdir};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use std::path::Path;

fn read(path: &Path) -> Vec<RecordBatch> {
    let f = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    ParquetRecordBatchReaderBuilder::try_new(f)
        .unwrap()
        .build()
        .unwrap()
        .map(|b| b.unwrap())
        .collect()
}

fn strings(b: &RecordBatch, name: &str) -> Vec<Option<String>> {
    let a = b
        .column_by_name(name)
        .unwrap_or_else(|| panic!("column {name}"));
    let a = a
        .as_any()
        .downcast_ref::<StringArray>()
        .unwrap_or_else(|| panic!("{name} is a string column"));
    (0..a.len())
        .map(|i| a.is_valid(i).then(|| a.value(i).to_string()))
        .collect()
}

fn ints(b: &RecordBatch, name: &str) -> Vec<Option<i64>> {
    let a = b
        .column_by_name(name)
        .unwrap_or_else(|| panic!("column {name}"));
    if let Some(a) = a.as_any().downcast_ref::<Int32Array>() {
        return (0..a.len())
            .map(|i| a.is_valid(i).then(|| i64::from(a.value(i))))
            .collect();
    }
    let a = a
        .as_any()
        .downcast_ref::<Int64Array>()
        .unwrap_or_else(|| panic!("{name} is an integer column"));
    (0..a.len())
        .map(|i| a.is_valid(i).then(|| a.value(i)))
        .collect()
}

/// The CSV game rows of `path`, as maps of column to cell.
fn csv_rows(args: &[&str]) -> Vec<std::collections::HashMap<String, String>> {
    let o = pdnkit(args);
    let mut r = csv::Reader::from_reader(&o.stdout[..]);
    let headers = r.headers().unwrap().clone();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            headers
                .iter()
                .map(String::from)
                .zip(rec.iter().map(String::from))
                .collect()
        })
        .collect()
}

/// Runs pdnkit with `args`; it must succeed (status 0), or the test shows its stderr.
fn succeed(args: &[&str]) {
    let o = pdnkit(args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

fn cell(v: &Option<String>) -> String {
    v.clone().unwrap_or_default()
}

#[test]
fn the_games_table_has_real_types_and_the_csv_values() {
    let d = tempdir("parquet-games");
    let out = d.join("games.parquet");
    succeed(&[
        "convert",
        "--to",
        "parquet",
        "--tag",
        "Annotator",
        "-o",
        out.to_str().unwrap(),
        "corpus/",
    ]);
    let batches = read(&out);
    let schema = batches[0].schema();
    use arrow_schema::DataType::*;
    for (name, t) in [
        ("game", Int64),
        ("line", Int32),
        ("date", Date32),
        ("date_text", Utf8),
        ("plies", Int32),
        ("valid", Boolean),
        ("errors", Int32),
        ("Annotator", Utf8),
    ] {
        assert_eq!(
            schema.field_with_name(name).unwrap().data_type(),
            &t,
            "{name}"
        );
    }
    let csv = csv_rows(&[
        "convert",
        "--to",
        "csv",
        "--csv-raw",
        "--tag",
        "Annotator",
        "corpus/",
    ]);
    let rows: usize = batches.iter().map(RecordBatch::num_rows).sum();
    assert_eq!(rows, csv.len());
    let json = common::json_lines(&pdnkit(&["check", "--format", "json", "corpus/"]));
    let games: Vec<&serde_json::Value> = json.iter().filter(|v| v["type"] == "game").collect();
    let mut k = 0;
    let mut dated = 0;
    for b in &batches {
        let (file, game, plies, errors) = (
            strings(b, "file"),
            ints(b, "game"),
            ints(b, "plies"),
            ints(b, "errors"),
        );
        let (event, text, computed) = (
            strings(b, "event"),
            strings(b, "date_text"),
            strings(b, "computed_result"),
        );
        let valid = b
            .column_by_name("valid")
            .unwrap()
            .as_any()
            .downcast_ref::<BooleanArray>()
            .unwrap()
            .clone();
        let date = b
            .column_by_name("date")
            .unwrap()
            .as_any()
            .downcast_ref::<Date32Array>()
            .unwrap()
            .clone();
        let diags = b
            .column_by_name("diagnostics")
            .unwrap()
            .as_any()
            .downcast_ref::<ListArray>()
            .unwrap()
            .clone();
        for i in 0..b.num_rows() {
            let c = &csv[k];
            assert_eq!(cell(&file[i]), c["file"]);
            assert_eq!(game[i].unwrap().to_string(), c["game"]);
            assert_eq!(plies[i].unwrap().to_string(), c["plies"]);
            assert_eq!(errors[i].unwrap().to_string(), c["errors"]);
            assert_eq!(cell(&event[i]), c["event"]);
            assert_eq!(cell(&text[i]), c["date"]);
            assert_eq!(cell(&computed[i]), c["computed_result"]);
            let v = if valid.is_valid(i) {
                valid.value(i).to_string()
            } else {
                String::new()
            };
            assert_eq!(v, c["valid"], "{} game {}", c["file"], c["game"]);
            // A full date is a date32 beside its text.
            if date.is_valid(i) {
                dated += 1;
                let days = date.value(i) as i64;
                assert!(c["date"].len() == 10 && days > 0, "{}", c["date"]);
            }
            // Every finding of the game, in order.
            let want = games[k]["diagnostics"].as_array().unwrap();
            assert_eq!(
                diags.value(i).len(),
                want.len(),
                "{} game {}",
                c["file"],
                c["game"]
            );
            k += 1;
        }
    }
    assert!(dated > 10, "{dated} full dates");
}

#[test]
fn the_plies_table_and_partitions() {
    let d = tempdir("parquet-plies");
    let out = d.join("plies.parquet");
    succeed(&[
        "convert",
        "--to",
        "parquet",
        "--moves",
        "-o",
        out.to_str().unwrap(),
        "corpus/",
    ]);
    let batches = read(&out);
    let csv = csv_rows(&[
        "convert",
        "--to",
        "csv",
        "--csv-raw",
        "--moves",
        "--fen",
        "corpus/",
    ]);
    let mut k = 0;
    for b in &batches {
        let (mv, fen_after, fen_before) = (
            strings(b, "move"),
            strings(b, "fen_after"),
            strings(b, "fen_before"),
        );
        for i in 0..b.num_rows() {
            assert_eq!(cell(&mv[i]), csv[k]["move"]);
            assert_eq!(cell(&fen_after[i]), csv[k]["fen"]);
            // The FEN before a ply is the FEN after the one before it.
            if k > 0 && csv[k]["ply"] != "1" {
                assert_eq!(cell(&fen_before[i]), csv[k - 1]["fen"]);
            }
            k += 1;
        }
    }
    assert_eq!(k, csv.len());
    // Partitions: one folder per variant, every game in exactly one.
    let dir = d.join("by-variant");
    succeed(&[
        "convert",
        "--to",
        "parquet",
        "--partition-by",
        "variant",
        "-o",
        dir.to_str().unwrap(),
        "corpus/",
    ]);
    let mut total = 0;
    let mut folders = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let e = e.unwrap();
        folders.push(e.file_name().to_string_lossy().into_owned());
        let rows: usize = read(&e.path().join("part-0.parquet"))
            .iter()
            .map(RecordBatch::num_rows)
            .sum();
        total += rows;
    }
    folders.sort();
    assert!(
        folders.contains(&"variant=international".to_string())
            || folders.contains(&"variant=brazilian".to_string()),
        "{folders:?}"
    );
    assert!(folders.iter().all(|f| f.starts_with("variant=")));
    let games = csv_rows(&["convert", "--to", "csv", "corpus/"]).len();
    assert_eq!(total, games);
    // Parquet is never written to standard output.
    let o = pdnkit(&["convert", "--to", "parquet", "corpus/"]);
    assert_eq!(o.status.code(), Some(2));
}

/// Issue 40, defect 5: a partition value too long for a folder name (an
/// Event of 142 Cyrillic letters, 284 bytes) keeps its first bytes and a hash;
/// the full value stays in the data, and the run succeeds.
#[test]
fn a_long_partition_value_gets_a_short_folder_name() {
    let d = tempdir("parquet-long");
    let long = "Ч".repeat(142);
    let f = d.join("long.pdn");
    std::fs::write(
        &f,
        format!("[Event \"{long}\"]\n[GameType \"20\"]\n1. 32-28 *\n\n[Event \"short\"]\n[GameType \"20\"]\n1. 33-28 *\n"),
    )
    .unwrap();
    let out = d.join("parts");
    succeed(&[
        "convert",
        "--to",
        "parquet",
        "--partition-by",
        "event",
        "-o",
        out.to_str().unwrap(),
        f.to_str().unwrap(),
    ]);
    let dirs = folders(&out);
    assert_eq!(dirs.len(), 2, "{dirs:?}");
    let long_dir = dirs.iter().find(|n| n.contains('Ч')).unwrap();
    assert!(long_dir.len() <= 255, "{}", long_dir.len());
    assert!(
        long_dir.starts_with(&format!("event={}", "Ч".repeat(100))),
        "{long_dir}"
    );
    assert_eq!(long_dir.rsplit('~').next().map(str::len), Some(16));
    let batches = read(&out.join(long_dir).join("part-0.parquet"));
    assert_eq!(strings(&batches[0], "event"), vec![Some(long)]);
}

/// The partition folders of `dir`, sorted.
fn folders(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Percent-decodes a hive folder's value, as pyarrow and DuckDB read it.
fn decode(v: &str) -> String {
    let b = v.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let Ok(x) = u8::from_str_radix(&v[i + 1..i + 3], 16) {
                out.push(x);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap()
}

fn events_pdn(events: &[&str]) -> String {
    events
        .iter()
        .map(|e| format!("[Event \"{e}\"]\n[GameType \"20\"]\n1. 32-28 *\n\n"))
        .collect()
}

/// Issue 54 item 3: partition values are percent-encoded, so "A/B", "A:B",
/// "A=B" and "A_B" are four partitions whose folder names decode (as hive
/// readers decode them) to the exact values in the data.
#[test]
fn partition_values_read_back_as_written() {
    let d = tempdir("parquet-encoded");
    let events = ["A/B", "A_B", "A:B", "A=B", "50%", "a\\b", "1/2 final", "~"];
    let f = d.join("e.pdn");
    std::fs::write(&f, events_pdn(&events)).unwrap();
    let out = d.join("parts");
    let (f, o) = (f.to_str().unwrap(), out.to_str().unwrap());
    succeed(&[
        "convert",
        "--to",
        "parquet",
        "--partition-by",
        "event",
        "-o",
        o,
        f,
    ]);
    let dirs = folders(&out);
    assert_eq!(dirs.len(), events.len(), "{dirs:?}");
    let mut decoded = Vec::new();
    for dir in &dirs {
        let value = decode(dir.strip_prefix("event=").unwrap());
        let batches = read(&out.join(dir).join("part-0.parquet"));
        assert_eq!(strings(&batches[0], "event"), vec![Some(value.clone())]);
        decoded.push(value);
    }
    decoded.sort();
    let mut want: Vec<String> = events.iter().map(|e| e.to_string()).collect();
    want.sort();
    assert_eq!(decoded, want);
}

/// Issue 54 item 14: a folder holding an earlier run's partitions is refused
/// (exit 2, untouched) unless --force, which replaces them all: an event no
/// longer in the archive no longer reads back.
#[test]
fn a_partitioned_output_holds_exactly_this_runs_games() {
    let d = tempdir("parquet-force");
    let f = d.join("e.pdn");
    std::fs::write(&f, events_pdn(&["old", "kept"])).unwrap();
    let out = d.join("parts");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("README"), "mine\n").unwrap();
    let (fs, o) = (f.to_str().unwrap(), out.to_str().unwrap());
    let args = [
        "convert",
        "--to",
        "parquet",
        "--partition-by",
        "event",
        "-o",
        o,
        fs,
    ];
    succeed(&args);
    assert_eq!(folders(&out), ["README", "event=kept", "event=old"]);
    std::fs::write(&f, events_pdn(&["kept", "new"])).unwrap();
    let again = pdnkit(&args);
    assert_eq!(again.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("--force"),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert_eq!(folders(&out), ["README", "event=kept", "event=old"]);
    succeed(&[&args[..5], &["--force"], &args[5..]].concat());
    assert_eq!(folders(&out), ["README", "event=kept", "event=new"]);
    // Nothing of the staging is left beside it.
    assert_eq!(folders(&d), ["e.pdn", "parts"]);
    // --force is for partitions only.
    let o = pdnkit(&["convert", "--to", "csv", "--force", fs]);
    assert_eq!(o.status.code(), Some(2));
}

/// Issue 54 item 6: SIGINT or SIGTERM during a partitioned write leaves
/// nothing: neither DIR nor a partition folder nor the staging folder.
#[test]
fn an_interrupted_partitioned_write_leaves_nothing() {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    for signal in ["-INT", "-TERM"] {
        let d = tempdir(&format!("parquet-signal{signal}"));
        let out = d.join("parts");
        let mut child = Command::new(env!("CARGO_BIN_EXE_pdnkit"))
            .args([
                "convert",
                "--no-progress",
                "--to",
                "parquet",
                "--partition-by",
                "event",
                "-o",
            ])
            .arg(&out)
            .arg("-")
            .stdin(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Games arrive, and the input stays open: the run is under way.
        let mut stdin = child.stdin.take().unwrap();
        let games: String = (0..50).map(|i| events_pdn(&[&format!("E{i}")])).collect();
        stdin.write_all(games.as_bytes()).unwrap();
        let staged = || std::fs::read_dir(&d).unwrap().count() > 0;
        for _ in 0..400 {
            if staged() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert!(staged(), "the run never began");
        let _ = Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status();
        let status = child.wait().unwrap();
        drop(stdin);
        assert_eq!(status.code(), Some(130));
        assert_eq!(folders(&d), Vec::<String>::new(), "left behind");
    }
}

/// Issue 54 item 10: a `--tag` named like a column of the table (`game`,
/// `File`, `variant`; `tag_game` after `game`) is its own column `tag_NAME`,
/// never a second column of one name nor a replacement, in CSV, JSON Lines
/// and Parquet alike; with --moves, Event is a column of its own.
#[test]
fn a_tag_never_replaces_or_repeats_a_column() {
    let d = tempdir("parquet-tags");
    let f = d.join("t.pdn");
    std::fs::write(
        &f,
        "[Event \"E\"]\n[game \"g\"]\n[File \"f\"]\n[tag_game \"t\"]\n[variant \"v\"]\n[GameType \"20\"]\n1. 32-28 *\n",
    )
    .unwrap();
    let f = f.to_str().unwrap();
    let tags = [
        "--tag", "game", "--tag", "File", "--tag", "tag_game", "--tag", "variant",
    ];
    let want = [
        ("game", "1"),
        ("file", f),
        ("variant", "international"),
        ("tag_game", "g"),
        ("tag_File", "f"),
        ("tag_tag_game", "t"),
        ("tag_variant", "v"),
    ];
    let rows = csv_rows(&[&["convert", "--to", "csv", "--csv-raw"][..], &tags, &[f]].concat());
    let o = pdnkit(&["convert", "--to", "csv", "--csv-raw", "--tag", "game", f]);
    let header = String::from_utf8_lossy(&o.stdout)
        .lines()
        .next()
        .unwrap()
        .to_string();
    assert_eq!(
        header.split(',').filter(|c| *c == "game").count(),
        1,
        "{header}"
    );
    let o = pdnkit(&[&["convert", "--to", "jsonl"][..], &tags, &[f]].concat());
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let out = d.join("t.parquet");
    succeed(
        &[
            &["convert", "--to", "parquet", "-o", out.to_str().unwrap()][..],
            &tags,
            &[f],
        ]
        .concat(),
    );
    let b = &read(&out)[0];
    for (column, value) in want {
        assert_eq!(rows[0][column], value, "csv {column}");
        let j = &json[column];
        let j = j
            .as_str()
            .map(String::from)
            .unwrap_or_else(|| j.to_string());
        assert_eq!(j, value, "jsonl {column}");
        let p = match b.column_by_name(column).unwrap().data_type() {
            arrow_schema::DataType::Utf8 => cell(&strings(b, column)[0]),
            _ => ints(b, column)[0].unwrap().to_string(),
        };
        assert_eq!(p, value, "parquet {column}");
    }
    assert_eq!(
        b.schema()
            .fields()
            .iter()
            .filter(|x| x.name().eq_ignore_ascii_case("game"))
            .count(),
        1
    );
    // With --moves the plies table has no event column: the tag is one.
    let plies = csv_rows(&["convert", "--to", "csv", "--moves", "--tag", "Event", f]);
    assert_eq!(plies[0]["Event"], "E");
}

/// Issue 63 items 8, 11 and 15: a `--force` commit that fails half way
/// (a rename refused, here on purpose) leaves DIR as it was, the earlier
/// run's partitions in place and none of the new ones, and no staging
/// folder anywhere; a staging folder left by a killed run (the old naming,
/// with this process's id or another) never blocks a later run, and the
/// run stages inside DIR when DIR exists (nothing is made beside it).
#[test]
fn a_failed_commit_leaves_the_folder_as_it_was() {
    let d = tempdir("parquet-failed-commit");
    let f = d.join("e.pdn");
    std::fs::write(&f, events_pdn(&["old", "kept"])).unwrap();
    let out = d.join("parts");
    let (fs, o) = (f.to_str().unwrap(), out.to_str().unwrap());
    let args = [
        "convert",
        "--to",
        "parquet",
        "--partition-by",
        "event",
        "--force",
        "-o",
        o,
        fs,
    ];
    succeed(&args);
    let before = folders(&out);
    assert_eq!(before, ["event=kept", "event=old"]);
    // Leftovers of killed runs, in the old naming and the new.
    for stale in [
        d.join(".parts.pdnkit-1.tmp"),
        d.join(format!(".parts.pdnkit-{}.tmp", std::process::id())),
    ] {
        std::fs::create_dir(&stale).unwrap();
    }
    let leftovers = folders(&d);
    std::fs::write(&f, events_pdn(&["kept", "new"])).unwrap();
    for fail_after in [0, 1, 2, 3] {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_pdnkit"))
            .args(args)
            .arg("--no-progress")
            .env("PDNKIT_TEST_FAIL_RENAMES", fail_after.to_string())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "after {fail_after}: {err}");
        assert!(err.contains("PDNKIT_TEST_FAIL_RENAMES"), "{err}");
        assert_eq!(folders(&out), before, "after {fail_after} renames");
        assert_eq!(folders(&d), leftovers, "after {fail_after} renames");
    }
    succeed(&args);
    assert_eq!(folders(&out), ["event=kept", "event=new"]);
    assert_eq!(folders(&d), leftovers);
}
