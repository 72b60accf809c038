//! `pdnkit explore` (issue 67): counts worked out by hand on
//! corpus/explore/hand.pdn, whole outputs as snapshots, and on the real
//! archives each position's count against `check --position`, which finds
//! the games reaching a position by another code path.

use crate::common::{corpus, json_lines, pdnkit, shared};

fn stdout(o: &std::process::Output) -> String {
    assert!(
        o.status.success(),
        "status {:?}: {}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).expect("UTF-8 output")
}

/// The position after 32-28 17-21 33-29, by hand: games 1 (2-0, then
/// 20-25), 2 (the same position by 33-29 17-21 32-28; 0-2, then 19-24), 3
/// (1-1, then 19-24), 4 (`*`, ends there) and 6 (1-1, its next move
/// illegal: it counts in the totals, with no move). Game 5 has an error
/// before it (33-30) and does not count.
#[test]
fn counts_by_hand_with_a_transposition_and_errors() {
    let hand = corpus("explore/hand.pdn");
    let o = pdnkit(&[
        "explore",
        "--play",
        "1. 32-28 17-21 2. 33-29",
        "--format",
        "json",
        &hand,
    ]);
    let lines = json_lines(&o);
    let pos = &lines[0];
    assert_eq!(pos["type"], "position");
    assert_eq!(pos["variant"], "international");
    let count = |v: &serde_json::Value, k: &str| v[k].as_u64().unwrap_or(u64::MAX);
    let totals: Vec<u64> = ["games", "white_wins", "draws", "black_wins", "unfinished"]
        .iter()
        .map(|k| count(pos, k))
        .collect();
    assert_eq!(totals, [5, 1, 2, 1, 1]);
    let moves: Vec<(&str, u64, f64)> = lines[1..]
        .iter()
        .map(|m| {
            (
                m["move"].as_str().unwrap_or(""),
                count(m, "games"),
                m["score"].as_f64().unwrap_or(-1.0),
            )
        })
        .collect();
    // Black to move: 19-24 lost once and drew once (0.75 for Black);
    // 20-25 lost (0 for Black).
    assert_eq!(moves, [("19-24", 2, 0.75), ("20-25", 1, 0.0)]);
    assert_eq!(lines[1]["first_year"], 2002);
    assert_eq!(lines[1]["last_year"], 2003);
    assert_eq!(lines[1]["latest"]["white"], "Bram");
    insta::assert_snapshot!("explore_hand_json", stdout(&o));
    let human = pdnkit(&["explore", "--play", "32-28 17-21 33-29", &hand]);
    insta::assert_snapshot!("explore_hand_human", stdout(&human));
}

/// A game that passes its start twice (kings back and forth) counts once,
/// with the move it played the first time.
#[test]
fn a_game_passing_a_position_twice_counts_once() {
    let hand = corpus("explore/hand.pdn");
    let o = pdnkit(&[
        "explore",
        "--position",
        "W:WK46:BK1",
        "--format",
        "json",
        &hand,
    ]);
    let lines = json_lines(&o);
    assert_eq!(lines[0]["games"], 2);
    let moves: Vec<(&str, u64)> = lines[1..]
        .iter()
        .map(|m| {
            (
                m["move"].as_str().unwrap_or(""),
                m["games"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(moves, [("46-28", 1), ("46-41", 1)]);
}

/// The tree three plies deep as CSV, whole: three levels of moves.
#[test]
fn a_tree_three_plies_deep() {
    let hand = corpus("explore/hand.pdn");
    let o = pdnkit(&["explore", "--depth", "3", "--format", "csv", &hand]);
    let text = stdout(&o);
    insta::assert_snapshot!("explore_hand_depth3_csv", text);
    let after_three: Vec<&str> = text
        .lines()
        .filter(|l| l.contains(",32-28 17-21 33-29,"))
        .collect();
    assert_eq!(
        after_three.len(),
        0,
        "depth 3 lists the moves of three levels, not four"
    );
    let at_two = text.lines().filter(|l| l.contains(",32-28 17-21,")).count();
    // After 32-28 17-21: 33-29 only (game 5's 33-30 is illegal: not a move).
    assert_eq!(at_two, 1, "{text}");
}

/// Bad arguments fail with status 2 and say which.
#[test]
fn a_move_or_position_that_does_not_fit_is_refused() {
    let hand = corpus("explore/hand.pdn");
    let o = pdnkit(&["explore", "--play", "32-28 99-1", &hand]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--play") && err.contains("99-1"), "{err}");
    let o = pdnkit(&["explore", "--position", "W:W99:B1", &hand]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--position"));
}

/// On the real international folder, every position of the tree two plies
/// deep counts as many games as `check --position` finds reaching it (every
/// copy counted, as check counts records), and its moves' games add up to
/// at most its own; by default each game stored twice in an event counts
/// once, as `stats` counts it.
#[test]
fn each_position_counts_the_games_check_position_finds() {
    let Some(dir) = shared("corpus/real/international") else {
        return;
    };
    let dir = dir.display().to_string();
    let o = pdnkit(&[
        "explore",
        "--depth",
        "2",
        "--keep-duplicates",
        "--format",
        "json",
        &dir,
    ]);
    let lines = json_lines(&o);
    let positions: Vec<&serde_json::Value> =
        lines.iter().filter(|l| l["type"] == "position").collect();
    assert!(positions.len() > 5, "{} positions", positions.len());
    for p in positions.iter().take(6) {
        let fen = p["position"].as_str().unwrap_or("");
        let o = pdnkit(&[
            "check",
            "--position",
            fen,
            "--variant-is",
            "international",
            "--format",
            "json",
            &dir,
        ]);
        let reaching = json_lines(&o)
            .iter()
            .filter(|l| l["type"] == "game" && l["checked"] == true)
            .count() as u64;
        assert_eq!(p["games"].as_u64(), Some(reaching), "{fen}");
        let moves: u64 = lines
            .iter()
            .filter(|l| l["type"] == "move" && l["position"] == p["position"])
            .map(|l| l["games"].as_u64().unwrap_or(0))
            .sum();
        assert!(
            moves <= reaching && moves > 0,
            "{fen}: {moves} of {reaching}"
        );
    }
}

/// Copies of a game in an event count once unless --keep-duplicates, and
/// the count says how many were left out; the games of `stats` agree.
#[test]
fn copies_count_once_as_stats_counts_them() {
    let Some(dir) = shared("corpus/real/international") else {
        return;
    };
    let dir = dir.display().to_string();
    let once = pdnkit(&["explore", "--format", "json", &dir]);
    let every = pdnkit(&["explore", "--keep-duplicates", "--format", "json", &dir]);
    let games = |o: &std::process::Output| json_lines(o)[0]["games"].as_u64().unwrap_or(0);
    assert!(
        games(&once) < games(&every),
        "{} {}",
        games(&once),
        games(&every)
    );
    assert!(String::from_utf8_lossy(&once.stderr).contains("extra copies"));
    // stats --by variant counts the games once too: those from the start.
    let stats = pdnkit(&["stats", "--by", "variant", "--format", "json", &dir]);
    let text = String::from_utf8_lossy(&stats.stdout).to_string();
    let v: serde_json::Value =
        serde_json::from_str(text.lines().next().unwrap_or("{}")).unwrap_or_default();
    let counted = v["groups"]
        .as_array()
        .and_then(|g| g.iter().find(|g| g["name"] == "international"))
        .and_then(|g| g["games"].as_u64());
    assert!(counted.is_some_and(|n| n >= games(&once)), "{text}");
}
