//! `pdnkit report` as scripts use it (issue 23): what it says, its exit
//! status, what it replaces, and the data its page is drawn from. The page
//! itself is tested in a real browser (tests/browser.rs).
use crate::common;

use common::{pdnkit, tempdir};
use serde_json::Value;
use std::path::Path;

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The JSON data of a written report.
fn page_data(html: &Path) -> Value {
    let page = std::fs::read_to_string(html).expect("the report");
    let start = r#"<script type="application/json" id="pdnkit-data">"#;
    let a = page.find(start).expect("the data script") + start.len();
    let b = a + page[a..].find("</script>").expect("its end");
    serde_json::from_str(&page[a..b]).expect("JSON data")
}

#[test]
fn it_says_where_it_wrote_and_exits_0_unless_strict() {
    let d = tempdir("report-exit");
    let out = d.join("r.html");
    let o = pdnkit(&[
        "report",
        "corpus/brazilian/faults.pdn",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let said = stderr(&o);
    assert!(
        said.contains(&format!("wrote {}:", out.display())) && said.contains("with errors"),
        "{said}"
    );
    // --strict: check's exit status (the file has error findings).
    let o = pdnkit(&[
        "report",
        "--strict",
        "corpus/brazilian/faults.pdn",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let o = pdnkit(&[
        "report",
        "--strict",
        "corpus/brazilian/clean.pdn",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn it_replaces_its_own_reports_and_nothing_else_without_force() {
    let d = tempdir("report-force");
    let out = d.join("notes.html");
    std::fs::write(&out, "<html>my notes</html>").unwrap();
    let args = [
        "report",
        "corpus/russian/clean.pdn",
        "-o",
        out.to_str().unwrap(),
    ];
    let o = pdnkit(&args);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("not a pdnkit report") && stderr(&o).contains("--force"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "<html>my notes</html>"
    );
    // --force replaces it; then a report replaces its own report freely.
    let o = pdnkit(&[&args[..], &["--force"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = pdnkit(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(page_data(&out)["games"]
        .as_array()
        .is_some_and(|g| !g.is_empty()));
}

#[test]
fn open_without_a_browser_says_so_and_still_succeeds() {
    let d = tempdir("report-open");
    let out = d.join("r.html");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_pdnkit"))
        .args([
            "report",
            "--no-progress",
            "--open",
            "corpus/russian/clean.pdn",
            "-o",
        ])
        .arg(&out)
        .env("PATH", &d)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("cannot open"), "{}", stderr(&o));
    assert!(out.exists());
}

/// Decodes a square list of the page's alphabet.
fn squares(text: &str, alphabet: &str) -> Vec<u64> {
    text.chars()
        .map(|c| alphabet.find(c).expect("a square of the alphabet") as u64)
        .collect()
}

#[test]
fn the_page_data_holds_every_move_as_convert_gives_it() {
    let d = tempdir("report-data");
    let out = d.join("r.html");
    let o = pdnkit(&["report", "corpus/", "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let data = page_data(&out);
    let alphabet = data["alphabet"].as_str().unwrap();
    let plies = common::json_lines(&pdnkit(&["convert", "--to", "jsonl", "--moves", "corpus/"]));
    let games = common::json_lines(&pdnkit(&["check", "--format", "json", "corpus/"]));
    let games: Vec<&Value> = games.iter().filter(|g| g["type"] == "game").collect();
    let rows = data["games"].as_array().unwrap();
    assert_eq!(rows.len(), games.len());
    let (mut checked, mut openings) = (0, 0);
    for (row, game) in rows.iter().zip(&games) {
        let file = data["files"][row[0].as_u64().unwrap() as usize]
            .as_str()
            .unwrap();
        assert_eq!(file, game["file"].as_str().unwrap());
        assert_eq!(row[1], game["game"]);
        assert_eq!(row[11], game["plies"]);
        // The opening column: the game's opening as check gives it.
        let o = &game["opening"];
        let text = row[17].as_str().unwrap_or("?");
        if o.is_null() {
            assert_eq!(text, "", "{file} game {}", row[1]);
        } else {
            let head = format!(
                "{} {}",
                o["table"].as_str().unwrap(),
                o["code"].as_str().unwrap()
            );
            assert!(text.starts_with(&head), "{text} / {o}");
            let tail = match (o["via"].as_str(), o["plies"].as_u64()) {
                (Some("setup"), _) => "(set up)".to_string(),
                (_, Some(1)) => "(1 ply)".to_string(),
                (_, Some(p)) => format!("({p} plies)"),
                _ => unreachable!("an opening has plies"),
            };
            assert!(text.contains(&tail), "{text} / {o}");
            openings += 1;
        }
        let Some(board) = row[16].as_object() else {
            continue;
        };
        let moves: Vec<&str> = board["m"]
            .as_str()
            .unwrap()
            .split(' ')
            .filter(|m| !m.is_empty())
            .collect();
        let want: Vec<&Value> = plies
            .iter()
            .filter(|p| p["file"] == game["file"] && p["game"] == game["game"])
            .collect();
        assert_eq!(moves.len(), want.len(), "{file} game {}", row[1]);
        for (m, p) in moves.iter().zip(&want) {
            let crowned = m.ends_with('~');
            let sq = squares(m.trim_end_matches('~'), alphabet);
            let mut taken: Vec<u64> = p["captured_squares"]
                .as_str()
                .unwrap()
                .split(|c: char| !c.is_ascii_digit())
                .filter(|s| !s.is_empty())
                .map(|s| s.parse().unwrap())
                .collect();
            taken.sort_unstable();
            let mut got = sq[2..].to_vec();
            got.sort_unstable();
            assert_eq!(
                (sq[0], sq[1], got, crowned),
                (
                    p["from"].as_u64().unwrap(),
                    p["to"].as_u64().unwrap(),
                    taken,
                    p["crowned"].as_bool().unwrap()
                ),
                "{file} game {} ply {}",
                row[1],
                p["ply"]
            );
            checked += 1;
        }
        // The moves as written, where they differ from the numbers.
        if let Some(w) = board.get("w") {
            let written: Vec<&Value> = want.iter().map(|p| &p["written"]).collect();
            let w: Vec<&Value> = w.as_array().unwrap().iter().take(written.len()).collect();
            assert_eq!(w, written, "{file} game {}", row[1]);
        }
    }
    assert!(checked > 500, "{checked}");
    assert!(openings >= 20, "{openings} games with an opening");
    // Every finding of a game is in the data, in order.
    let findings: usize = games
        .iter()
        .map(|g| g["diagnostics"].as_array().unwrap().len())
        .sum();
    assert_eq!(data["findings"].as_array().unwrap().len(), findings);
}

/// Issue 62 item 11: the findings about whole files are grouped by
/// severity and code (errors open, the rest folded, each group with its
/// files), not written out one by one; and the counts by code are shown
/// once (their table), not again as a chart of the same numbers.
#[test]
fn file_findings_are_grouped_by_code_and_counts_shown_once() {
    let d = common::tempdir("report-file-groups");
    for name in ["a", "b", "c"] {
        // No GameType: `variant-inferred`, a warning about the whole file.
        std::fs::write(
            d.join(format!("{name}.pdn")),
            "[Event \"x\"]\n1. 33-28 18-23 *\n",
        )
        .unwrap();
    }
    // Refused: `unknown-variant`, an error about the whole file (8x8
    // moves no variant explains).
    std::fs::write(d.join("z.pdn"), "[Event \"y\"]\n1. 32-28 19-23 *\n").unwrap();
    let out = d.join("r.html");
    let o = common::pdnkit(&["report", d.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let html = std::fs::read_to_string(&out).unwrap();
    let section = html
        .split("<div id=\"file-findings\">")
        .nth(1)
        .and_then(|s| s.split("</div>").next())
        .expect("the file findings");
    let groups: Vec<&str> = section.split("<details").skip(1).collect();
    let inferred: Vec<&&str> = groups
        .iter()
        .filter(|g| g.contains("warning[variant-inferred]"))
        .collect();
    assert_eq!(inferred.len(), 1, "one group: {section}");
    assert!(inferred[0].contains("3 in 3 files"), "{section}");
    assert!(
        groups[0].contains("error[unknown-variant]"),
        "errors first: {section}"
    );
    assert!(
        !inferred[0].starts_with(" class=\"file-group\" open"),
        "folded"
    );
    assert_eq!(inferred[0].matches("<li>").count(), 3);
    // Errors first, and open.
    if let Some(first) = groups.first().filter(|g| g.contains("error[")) {
        assert!(first.contains(" open>"), "{first}");
    }
    assert!(!html.contains("chart-findings"), "the counts by code once");
    assert!(html.contains("<table id=\"codes\">"));
}
