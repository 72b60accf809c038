//! `pdnkit explore` (issue 67): counts worked out by hand on
//! corpus/explore/hand.pdn, whole outputs as snapshots, and on the real
//! archives each position's count against `check --position`, which finds
//! the games reaching a position by another code path.

use crate::common::Rng;
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

/// `explore` and `explore --index` on the same games, in `format` with
/// `args`: the two outputs, byte for byte.
fn direct_and_indexed(paths: &[&str], index: &str, args: &[&str]) -> (String, String) {
    let mut direct = vec!["explore"];
    direct.extend_from_slice(args);
    direct.extend_from_slice(paths);
    let mut indexed = vec!["explore", "--index", index];
    indexed.extend_from_slice(args);
    (stdout(&pdnkit(&direct)), stdout(&pdnkit(&indexed)))
}

/// Builds the index of `paths` at `out`.
fn index(paths: &[&str], out: &str, plies: &str) {
    let mut args = vec!["index", "-o", out, "--index-plies", plies];
    args.extend_from_slice(paths);
    let o = pdnkit(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

const QUERIES: [&[&str]; 5] = [
    &["--depth", "4"],
    &["--depth", "3", "--format", "json"],
    &["--format", "csv", "--depth", "2"],
    &["--play", "32-28 17-21"],
    &["--position", "W:WK46:BK1", "--format", "json"],
];

/// The index answers as the direct run: the hand-counted file, then the
/// real archives, every query of [`QUERIES`].
#[test]
fn the_index_answers_as_the_direct_run() {
    let d = crate::common::tempdir("explore-index");
    let hand = corpus("explore/hand.pdn");
    let file = d.join("hand.parquet").display().to_string();
    index(&[&hand], &file, "40");
    for q in QUERIES {
        let (direct, indexed) = direct_and_indexed(&[&hand], &file, q);
        assert_eq!(direct, indexed, "{q:?}");
    }
    for dir in ["corpus/real/international", "corpus/real/other"] {
        let Some(path) = shared(dir) else {
            return;
        };
        let path = path.display().to_string();
        let file = d.join("real.parquet").display().to_string();
        index(&[&path], &file, "40");
        for q in QUERIES {
            let (direct, indexed) = direct_and_indexed(&[&path], &file, q);
            assert!(
                direct.lines().count() > 1 || q.contains(&"--position"),
                "{q:?}: {direct}"
            );
            assert_eq!(direct, indexed, "{dir} {q:?}");
        }
    }
}

/// Property: random legal games of every variant (their first moves drawn
/// from a few, so that lines meet and transpose), random results and years:
/// the index of them answers every position of the tree four plies deep
/// as the direct run does.
#[test]
fn random_games_are_indexed_as_explored() {
    let d = crate::common::tempdir("explore-random");
    let mut text = String::new();
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for (n, &v) in pdnkit::Variant::ALL.iter().enumerate() {
        let style = pdnkit::notation::Style {
            algebraic: v.algebraic(),
            colon: false,
        };
        for g in 0..25 {
            let mut pos = v.start();
            let mut moves = Vec::new();
            for ply in 0..rng.below(60) + 1 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let choice = if ply < 6 {
                    legal.len().min(2)
                } else {
                    legal.len()
                };
                let m = legal[rng.below(choice)];
                moves.push(style.write(&pos, &m));
                pos = pos.play(&m).expect("a legal move plays");
            }
            let result = ["2-0", "1-1", "0-2", "*"][rng.below(4)];
            text.push_str(&format!(
                "[Event \"random {n}\"]\n[White \"w{g}\"]\n[Black \"b{g}\"]\n[Date \"{}\"]\n[GameType \"{}\"]\n[Result \"{result}\"]\n{} {result}\n\n",
                1990 + rng.below(30),
                v.game_type(),
                moves.join(" "),
            ));
        }
    }
    let pdn = d.join("random.pdn");
    std::fs::write(&pdn, text).expect("written");
    let pdn = pdn.display().to_string();
    let file = d.join("random.parquet").display().to_string();
    index(&[&pdn], &file, "60");
    let (direct, indexed) =
        direct_and_indexed(&[&pdn], &file, &["--depth", "4", "--format", "json"]);
    assert!(direct.lines().count() > 100, "{direct}");
    assert_eq!(direct, indexed);
}

/// The index is a Parquet file DuckDB and pyarrow read as it is: its schema
/// and its key-value metadata, checked with the parquet crate.
#[test]
fn the_index_is_plain_parquet() {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let d = crate::common::tempdir("explore-parquet");
    let hand = corpus("explore/hand.pdn");
    let file = d.join("hand.parquet");
    index(&[&hand], &file.display().to_string(), "40");
    let reader =
        SerializedFileReader::new(std::fs::File::open(&file).expect("index")).expect("Parquet");
    let meta = reader.metadata().file_metadata();
    let fields: Vec<&str> = meta
        .schema_descr()
        .columns()
        .iter()
        .map(|c| c.name())
        .collect();
    assert_eq!(
        fields,
        [
            "variant",
            "key",
            "position",
            "move",
            "games",
            "white_wins",
            "draws",
            "black_wins",
            "unfinished",
            "first_year",
            "last_year",
            "recent"
        ]
    );
    let kv = meta.key_value_metadata().expect("metadata");
    let own = kv
        .iter()
        .find(|k| k.key == "pdnkit.index")
        .and_then(|k| k.value.clone());
    let own: serde_json::Value = serde_json::from_str(&own.unwrap_or_default()).unwrap_or_default();
    assert_eq!(own["plies"], 40);
    assert_eq!(own["variants"], serde_json::json!(["international"]));
    // A file that is not an index is refused with status 2.
    let o = pdnkit(&["explore", "--index", &hand]);
    assert_eq!(o.status.code(), Some(2));
    // And so is a selection with --index.
    let o = pdnkit(&[
        "explore",
        "--index",
        &file.display().to_string(),
        "--player",
        "anna",
    ]);
    assert_eq!(o.status.code(), Some(2));
}
