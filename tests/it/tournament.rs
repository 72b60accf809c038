//! `pdnkit tournament`: hand-made events (tests/data/tournament) as whole
//! outputs, and the real Belarus championship 2016 (../shared): the same
//! crosstable from the eleven round files as from the whole-event file, and
//! its real faults named.
use crate::common;

use serde_json::Value;

fn data(name: &str) -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/tournament")
        .join(name)
        .display()
        .to_string()
}

/// Output with the repository path taken out, so the snapshot holds on any clone.
fn run(args: &[&str]) -> (String, Option<i32>) {
    let o = common::pdnkit(args);
    let dir = format!(
        "{}/",
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).display()
    );
    (
        String::from_utf8(o.stdout).unwrap().replace(&dir, ""),
        o.status.code(),
    )
}

#[test]
fn a_clean_round_robin() {
    let (out, code) = run(&["tournament", &data("club.pdn")]);
    assert_eq!(code, Some(0));
    insta::assert_snapshot!("club", out);
    // Every player met every other once: 5 games each, 30 points in all (2-1-0).
    let (json, _) = run(&["tournament", "--format", "json", &data("club.pdn")]);
    let e: Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    assert_eq!(e["type"], "event");
    let players = e["players"].as_array().unwrap();
    assert_eq!(players.len(), 6);
    assert!(players.iter().all(|p| p["games"] == 5));
    let total: f64 = players.iter().map(|p| p["points"].as_f64().unwrap()).sum();
    assert_eq!(total, 30.0);
    assert_eq!(e["rounds"], serde_json::json!([1, 2, 3, 4, 5]));
    assert_eq!(e["findings"], serde_json::json!([]));
    // 1-½-0 halves it; CSV has a row per player.
    let (json, _) = run(&[
        "tournament",
        "--format",
        "json",
        "--scoring",
        "1-half-0",
        &data("club.pdn"),
    ]);
    let e: Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    let total: f64 = e["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["points"].as_f64().unwrap())
        .sum();
    assert_eq!(total, 15.0);
    let (csv, _) = run(&[
        "tournament",
        "--format",
        "csv",
        "--tiebreak",
        "sb,wins",
        &data("club.pdn"),
    ]);
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("event,site,year,rank,player,points,games,wins,draws,losses,tb_sb,tb_wins")
    );
    assert_eq!(lines.count(), 6);
}

#[test]
fn every_finding_of_the_faulty_copy() {
    let (out, code) = run(&["tournament", &data("club-faults.pdn")]);
    assert_eq!(
        code,
        Some(1),
        "missing-game, double-booked and repeated-pairing are errors"
    );
    insta::assert_snapshot!("club_faults", out);
    for code in [
        "missing-game",
        "double-booked",
        "repeated-pairing",
        "name-variant",
        "colour-imbalance",
        "date-outside-event",
        "forfeit",
    ] {
        assert!(out.contains(&format!("[{code}]")), "{code}");
    }
    // -A and -W apply: with the errors allowed or made warnings, exit 0.
    let (_, code) = run(&[
        "tournament",
        "-A",
        "missing-game,double-booked",
        "-W",
        "repeated-pairing",
        &data("club-faults.pdn"),
    ]);
    assert_eq!(code, Some(0));
    // --alias merges by hand.
    let (out, _) = run(&[
        "tournament",
        "--alias",
        "Bram  de vries=Bram de Vries",
        &data("club-faults.pdn"),
    ]);
    assert!(
        out.contains("[name-variant]"),
        "a spelling merged by its key is still named"
    );
}

#[test]
fn the_belarus_championship_2016() {
    let Some(dir) = common::shared("corpus/real/other") else {
        return;
    };
    let rounds: Vec<String> = (1..=11)
        .map(|r| {
            dir.join(format!("jpalaz_belarus64M2016_round{r}__index.pdn"))
                .display()
                .to_string()
        })
        .collect();
    let whole = dir.join("jpalaz__ЧБ-64 2016.pdn").display().to_string();
    let event = |args: &[&str]| -> Vec<Value> {
        let mut a = vec!["tournament", "--format", "json"];
        a.extend_from_slice(args);
        common::json_lines(&common::pdnkit(&a))
    };
    let mut args: Vec<&str> = rounds.iter().map(String::as_str).collect();
    let from_rounds = event(&args);
    assert_eq!(from_rounds.len(), 1);
    let from_whole: Vec<Value> = event(&[&whole])
        .into_iter()
        .filter(|e| e["event"] == "Чемпионат Беларуси 2016")
        .collect();
    assert_eq!(from_whole.len(), 1, "the men's event, beside the women's");
    let (a, b) = (&from_rounds[0], &from_whole[0]);
    assert_eq!(
        a["players"], b["players"],
        "the same crosstable from both sources"
    );
    let codes = |e: &Value| -> Vec<String> {
        e["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["code"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(codes(a), codes(b));
    let messages: Vec<&str> = a["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["message"].as_str().unwrap())
        .collect();
    let has = |s: &str| messages.iter().any(|m| m.contains(s));
    // The name variants of the issue: a Latin C and two spaces, merged.
    assert!(has("\"Cеменюк  Михаил\""), "{messages:?}");
    assert!(has("\"Cадовский Сергей\""));
    assert!(has("\"Немец  Дмитрий\""));
    // One letter apart: named, not merged.
    assert!(has(
        "\"Кондраченко Евгений\" and \"Кодраченко Евгений\" are one letter apart"
    ));
    // Rounds 2 and 3 hold 10 games, not 12: a match missing in each.
    assert!(has("round 2: no games of"));
    assert!(has("round 3: no games of"));
    // Немец Дмитрий as "Немец  Дима" in round 5: Беляевский double-booked.
    assert!(has(
        "round 5: Беляевский Владимир plays Немец Дмитрий and Немец  Дима"
    ));
    // The twelve players of the event, with the spellings merged by hand.
    args.extend([
        "--alias",
        "Кодраченко Евгений=Кондраченко Евгений",
        "--alias",
        "Немец  Дима=Немец Дмитрий",
        "--alias",
        "Новиков Евгений=Новиков Виталий",
    ]);
    let fixed = &event(&args)[0];
    assert_eq!(fixed["players"].as_array().unwrap().len(), 12);
    let left: Vec<String> = codes(fixed);
    assert_eq!(
        left.iter().filter(|c| *c == "missing-game").count(),
        2,
        "{left:?}"
    );
    assert!(!left.contains(&"double-booked".to_string()));
    // Match points: each round a two-game match.
    let mp = &event(&[&["--match-points"], &args[..]].concat())[0];
    let total: f64 = mp["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["points"].as_f64().unwrap())
        .sum();
    assert_eq!(total, 2.0 * 64.0, "64 matches, 2 points each");
}

#[test]
fn the_report_shows_each_event() {
    let dir = common::tempdir("tournament-report");
    let out = dir.join("r.html");
    let o = common::pdnkit(&[
        "report",
        &data("club-faults.pdn"),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(out.exists(), "{}", String::from_utf8_lossy(&o.stderr));
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(html.contains("<section id=\"events\">"));
    assert!(
        html.contains("Club Championship 2024, Utrecht, 2024: round robin, 6 players, 5 rounds")
    );
    assert!(
        html.contains("[missing-game]</span> round 3: no games of Emil Sørensen – Chidi Okafor")
    );
    let section = &html[html.find("<section id=\"events\">").unwrap()..];
    let section = &section[..section.find("</section>").unwrap()];
    assert_eq!(section.matches("<tr><td>").count(), 6, "a row per player");
}
