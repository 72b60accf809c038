//! Turkish draughts (RULES.md 12) through the library and the commands: the
//! 64-square board, named squares, the start, captures removed as they are
//! jumped, the end of the game with no draw rule, and a file's variant from
//! its evidence.
use crate::common;

use pdnkit::board::BoardSize;
use pdnkit::notation::Style;
use pdnkit::{Position, Variant};

fn names(pos: &Position) -> Vec<String> {
    let style = Style {
        algebraic: true,
        colon: false,
    };
    pos.legal_moves()
        .iter()
        .map(|m| style.write(pos, m))
        .collect()
}

#[test]
fn the_start_and_the_moves_of_men_and_kings() {
    let start = Variant::Turkish.start();
    assert_eq!(start.size(), BoardSize::Full);
    assert_eq!(
        start.to_fen(),
        "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7"
    );
    assert_eq!(
        Position::from_fen(&start.to_fen(), Variant::Turkish),
        Ok(start)
    );
    // Men step forward or sideways, never back or diagonally.
    let man = Position::from_fen("W:Wd4:Ba8", Variant::Turkish).unwrap();
    let mut steps = names(&man);
    steps.sort();
    assert_eq!(steps, ["d4-c4", "d4-d5", "d4-e4"]);
    // A king flies along ranks and files and stops before a piece.
    let king = Position::from_fen("W:WKa1,a3:Bh8", Variant::Turkish).unwrap();
    let moves = names(&king);
    assert!(moves.contains(&"a1-h1".to_string()) && moves.contains(&"a1-a2".to_string()));
    assert!(!moves
        .iter()
        .any(|m| m.starts_with("a1-a4") || m.starts_with("a1-b2")));
}

#[test]
fn captured_pieces_leave_as_they_are_jumped() {
    // d4xd6, c6 then leaves the way to b6, and b7 to b8: the maximum, three.
    let p = Position::from_fen("W:Wd4,Ke1:Bd5,c6,b7", Variant::Turkish).unwrap();
    assert_eq!(names(&p), ["d4xb8"]);
    let m = p.legal_moves()[0];
    assert_eq!(m.capture_count(), 3);
    // The man reached rank 8 where the move ended: crowned.
    let after = p.play_unchecked(&m);
    assert_eq!(after.to_fen(), "B:WKe1,Kb8:B");
    // A king may cross a square freed earlier in the same move, never turn
    // back 180 degrees: from a1 up the file over a3, right along rank 5
    // over c5, then down over e3 crosses nothing taken twice.
    let k = Position::from_fen("W:WKa1:Ba3,c5,e3", Variant::Turkish).unwrap();
    let best = k.legal_moves().iter().map(|m| m.capture_count()).max();
    assert_eq!(best, Some(3), "{:?}", names(&k));
    // No draw by rule: a king each is unfinished, whatever --draw-rules says.
    let dir = common::tempdir("turkish-draws");
    let f = dir.join("k.pdn");
    std::fs::write(
        &f,
        "[GameType \"30\"]\n[FEN \"W:WKa1:BKh8\"]\n[Result \"1/2-1/2\"]\n\n1. a1-a2 h8-h7 2. a2-a1 h7-h8 3. a1-a2 h8-h7 4. a2-a1 h7-h8 1/2-1/2\n",
    )
    .unwrap();
    for rules in ["cbjd", "fmjd"] {
        let o = common::pdnkit(&[
            "check",
            "--format",
            "json",
            "--draw-rules",
            rules,
            f.to_str().unwrap(),
        ]);
        let g = &common::json_lines(&o)[0];
        assert_eq!(
            (&g["draw_rules"], &g["termination"], &g["valid"]),
            (&"none".into(), &"unfinished".into(), &true.into()),
            "{g}"
        );
    }
}

#[test]
fn an_untagged_turkish_file_is_refused_with_the_hint_and_numbers_never_fit() {
    let dir = common::tempdir("turkish-untagged");
    let named = dir.join("games.pdn");
    std::fs::write(
        &named,
        "[Event \"a\"]\n1. d3-d4 e6-e5 2. d4-d5 d6xd4 3. c3-c4 d4xb4 4. b3xb5 b6xb4 *\n\n[Event \"b\"]\n1. a3-a4 h6-h5 *\n",
    )
    .unwrap();
    // Refused with the hint that names turkish (RULES.md 12, the evidence
    // rule: a variant is never chosen because its rules excuse a file's
    // faults), and read as Turkish when named.
    let o = common::pdnkit(&["check", "--format", "json", named.to_str().unwrap()]);
    let lines = common::json_lines(&o);
    let file = lines
        .iter()
        .find(|v| v["type"] == "file")
        .expect("a file finding");
    let refusal = &file["diagnostics"][0];
    assert_eq!(refusal["code"], "unknown-variant", "{file}");
    assert!(
        refusal["message"]
            .as_str()
            .unwrap_or("")
            .contains("--variant 'games.pdn=turkish'"),
        "{refusal}"
    );
    let o = common::pdnkit(&[
        "check",
        "--format",
        "json",
        "--variant",
        "turkish",
        named.to_str().unwrap(),
    ]);
    let lines = common::json_lines(&o);
    let games: Vec<_> = lines.iter().filter(|v| v["type"] == "game").collect();
    assert_eq!(games.len(), 2);
    assert!(
        games
            .iter()
            .all(|g| g["variant"] == "turkish" && g["valid"] == true),
        "{lines:?}"
    );
    // A numbered 8x8 file is never read as Turkish, and Turkish named for
    // it is not applied.
    let numbered = common::corpus("brazilian/clean.pdn");
    let o = common::pdnkit(&["check", "--format", "json", &numbered]);
    assert!(common::json_lines(&o)
        .iter()
        .all(|v| v["variant"] != "turkish"));
    let o = common::pdnkit(&[
        "check",
        "--format",
        "json",
        "--variant",
        "turkish",
        &common::corpus("english/untagged.pdn"),
    ]);
    let lines = common::json_lines(&o);
    assert!(lines.iter().all(|v| v["variant"] != "turkish"), "{lines:?}");
    let text = format!("{lines:?}");
    assert!(text.contains("turkish squares are only named"), "{text}");
    // A number is no Turkish square: in a move and in a FEN.
    let o = common::pdnkit(&[
        "check",
        "--format",
        "json",
        &common::corpus("turkish/faults.pdn"),
    ]);
    let codes: Vec<String> = common::json_lines(&o)
        .iter()
        .filter(|v| v["type"] == "game")
        .map(|g| {
            g["diagnostics"][0]["code"]
                .as_str()
                .unwrap_or("")
                .to_string()
        })
        .collect();
    assert_eq!(codes, ["missed-capture", "illegal-move", "no-such-square"]);
    assert!(Position::from_fen("W:W20:Ba7", Variant::Turkish).is_err());
    assert!(Position::from_fen("W:Wa2-h2:Ba7", Variant::Turkish).is_err());
    assert!(Position::from_fen("W:Wa8:Ba7", Variant::Turkish).is_err());
}

#[test]
fn every_command_takes_turkish_games() {
    let clean = common::corpus("turkish/clean.pdn");
    for args in [
        &["stats", "--format", "json"][..],
        &["dupes"][..],
        &["select", "--variant-is", "turkish"][..],
        &["convert", "--to", "csv"][..],
        &["tournament"][..],
    ] {
        let o = common::pdnkit(&[args, &[clean.as_str()]].concat());
        assert!(
            o.status.code().is_some_and(|c| c < 2),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_pdnkit"))
        .args(["perft", "--variant", "turkish", "5"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "85090");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_pdnkit"))
        .args([
            "diagram",
            "--variant",
            "turkish",
            "--fen",
            "W:Wd4,Ke1:Bd5,c6,b7",
            "--move",
            "d4xd6xb6xb8",
        ])
        .output()
        .unwrap();
    let svg = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success() && svg.contains(">h8<") && svg.contains(">a1<"),
        "{svg}"
    );
}
