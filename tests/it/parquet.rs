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
    let mut dirs: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    dirs.sort();
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
