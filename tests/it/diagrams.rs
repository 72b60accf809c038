//! Diagrams and the report as documents: every SVG is well-formed XML and
//! shows exactly the pieces of its FEN; input never reaches the page unescaped.
use crate::common;

use pdnkit::diagram::{svg, Arrow, DiagramOptions, MoveStyle};
use pdnkit::piece::{Color, Kind};
use pdnkit::position::Position;

use pdnkit::variant::Variant;

/// The pieces an SVG shows, as (square, code), sorted.
fn shown(doc: &roxmltree::Document) -> Vec<(u32, String)> {
    let mut v: Vec<(u32, String)> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("piece"))
        .map(|n| {
            (
                n.attribute("data-square").unwrap().parse().unwrap(),
                n.attribute("data-piece").unwrap().to_string(),
            )
        })
        .collect();
    v.sort();
    v
}

fn expected(p: &Position) -> Vec<(u32, String)> {
    let mut v: Vec<(u32, String)> = p
        .occupied()
        .squares()
        .map(|s| {
            let piece = p.piece_at(s).unwrap();
            let code = match (piece.color, piece.kind) {
                (Color::White, Kind::Man) => "W",
                (Color::White, Kind::King) => "WK",
                (Color::Black, Kind::Man) => "B",
                (Color::Black, Kind::King) => "BK",
            };
            (s.number(), code.to_string())
        })
        .collect();
    v.sort();
    v
}

#[test]
fn every_diagram_is_xml_with_exactly_the_pieces_of_its_fen() {
    // Positions along a few plies of every variant, flipped and not, with moves drawn.
    for v in Variant::ALL {
        let mut p = v.start();
        for ply in 0..12 {
            let moves = p.legal_moves();
            let Some(m) = moves.get(ply % moves.len().max(1)).copied() else {
                break;
            };
            for flip in [false, true] {
                let opts = DiagramOptions {
                    flip,
                    moves: vec![Arrow {
                        path: p.landing_path(&m).to_vec(),
                        captured: m.captured(),
                        style: if flip {
                            MoveStyle::Alternative
                        } else {
                            MoveStyle::Written
                        },
                    }],
                    title: Some(format!("<{v}> & \"ply\" {ply}")),
                };
                let text = svg(&p, &opts);
                let doc = roxmltree::Document::parse(&text)
                    .unwrap_or_else(|e| panic!("{v} ply {ply}: {e}\n{text}"));
                assert_eq!(shown(&doc), expected(&p), "{v} ply {ply}");
                // The FEN it says it shows reads back as the same position.
                let fen = doc.root_element().attribute("data-fen").unwrap();
                assert_eq!(Position::from_fen(fen, v).unwrap(), p);
                // The pieces taken are marked.
                let taken = doc
                    .descendants()
                    .filter(|n| n.attribute("class") == Some("taken"))
                    .count();
                assert_eq!(taken as u32, m.captured().count());
            }
            p = p.play_unchecked(&m);
        }
    }
    // Kings of both colours on every board.
    for (v, fen) in [
        (Variant::Brazilian, "W:WK29,10:BK4,25"),
        (Variant::International, "B:WK46,K5,30:BK1,K50,20"),
        (Variant::Canadian, "W:WK67,K6:BK1,K72"),
    ] {
        let p = Position::from_fen(fen, v).unwrap();
        let text = svg(&p, &DiagramOptions::default());
        let doc = roxmltree::Document::parse(&text).unwrap();
        assert_eq!(shown(&doc), expected(&p));
    }
}

#[test]
fn hostile_tag_values_never_reach_the_report_unescaped() {
    let d = common::tempdir("hostile-report");
    let pdn = d.join("hostile.pdn");
    let evil = r#"<script>alert("x")</script> & 'quotes' </script><img src=x onerror=alert(1)>"#;
    std::fs::write(
        &pdn,
        format!(
            "[Event \"{}\"]\n[White \"{}\"]\n[Black \"A&B <b>\"]\n[GameType \"20\"]\n\n1. 32-28 19-23 2. 28-19 *\n",
            evil.replace('"', "\\\""),
            evil.replace('"', "\\\"")
        ),
    )
    .unwrap();
    let html = d.join("report.html");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_pdnkit"))
        .args(["report", "--no-progress", "-o"])
        .arg(&html)
        .arg(&pdn)
        .output()
        .unwrap();
    assert!(html.exists(), "{}", String::from_utf8_lossy(&o.stderr));
    let page = std::fs::read_to_string(&html).unwrap();
    // Only the report's own two scripts, and no markup from the input.
    assert_eq!(page.matches("<script").count(), 2, "a script tag leaked");
    assert_eq!(
        page.matches("</script>").count(),
        2,
        "a closing script tag leaked"
    );
    assert!(!page.contains("<img"));
    assert!(!page.contains("<b>"));
    // The values travel as JSON data with `<` escaped (the page shows them
    // as text, never as markup).
    assert!(page.contains(r#"\u003cscript>alert(\"x\")\u003c/script>"#));
    assert!(page.contains(r#"A&B \u003cb>"#));
    // Nothing is fetched: no external URL in src or href.
    assert!(!page.contains("src=\"http") && !page.contains("href=\"http"));
}

fn diagram(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_pdnkit"))
        .arg("diagram")
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn a_move_to_draw_must_be_legal_and_a_fault_draws_itself() {
    // --move is checked against the position: exit 2 with the rules' reason.
    let fen = ["--variant", "brazilian", "--fen", "W:W27:B23,14"];
    let o = diagram(&[&fen[..], &["--move", "27-24"]].concat());
    assert_eq!(o.status.code(), Some(2));
    let why = String::from_utf8_lossy(&o.stderr);
    assert!(
        why.contains("not a legal move") && why.contains("capturing is compulsory"),
        "{why}"
    );
    let o = diagram(&[&fen[..], &["--move", "27x18x9"]].concat());
    assert_eq!(o.status.code(), Some(0));
    // The position before a move error shows the move as written and the
    // capture required, as the report does; and who is to move.
    let o = diagram(&["corpus/brazilian/faults.pdn", "--game", "1", "--ply", "8"]);
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8(o.stdout).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let moves: Vec<&str> = doc
        .descendants()
        .filter_map(|n| n.attribute("data-move"))
        .collect();
    assert_eq!(moves, ["written", "alternative"]);
    assert_eq!(doc.root_element().attribute("data-side"), Some("B"));
    assert!(text.contains(">Black to move</text>"));
    // Before a legal move: nothing drawn.
    let o = diagram(&["corpus/brazilian/faults.pdn", "--game", "1", "--ply", "3"]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(!text.contains("data-move="));
}

/// Frisian (RULES.md 10): a capture along a row is drawn along the row, the
/// piece taken crossed out, and a column capture down the column.
#[test]
fn a_frisian_capture_along_a_row_or_a_column_is_drawn_as_such() {
    for (fen, mv, taken, horizontal) in [
        ("W:W33:B34", "33x35", "34", true),
        ("B:W15:B5", "5x25", "15", false),
    ] {
        let o = diagram(&["--variant", "frisian", "--fen", fen, "--move", mv]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let text = String::from_utf8(o.stdout).unwrap();
        let doc = roxmltree::Document::parse(&text).unwrap();
        let line = doc
            .descendants()
            .find(|n| n.has_tag_name("polyline"))
            .and_then(|n| n.attribute("points"))
            .expect("the move's arrow");
        let points: Vec<(f64, f64)> = line
            .split(' ')
            .filter_map(|p| p.split_once(','))
            .map(|(x, y)| (x.parse().unwrap(), y.parse().unwrap()))
            .collect();
        assert_eq!(points.len(), 2, "{line}");
        let ((x0, y0), (x1, y1)) = (points[0], points[1]);
        if horizontal {
            assert!(y0 == y1 && x0 != x1, "{line}");
        } else {
            assert!(x0 == x1 && y0 != y1, "{line}");
        }
        let crossed: Vec<&str> = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("taken"))
            .filter_map(|n| n.attribute("data-square"))
            .collect();
        assert_eq!(crossed, [taken]);
        assert_eq!(
            doc.root_element().attribute("data-variant"),
            Some("frisian")
        );
    }
}

/// `diagram --variant` names the variant of untagged games, as everywhere;
/// `--force-variant` reads a game as another variant whatever its GameType
/// (issue 44).
#[test]
fn diagram_variant_and_force_variant_mean_what_they_say() {
    let variant_of = |args: &[&str]| -> Option<String> {
        let o = diagram(args);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let text = String::from_utf8(o.stdout).unwrap();
        let doc = roxmltree::Document::parse(&text).unwrap();
        doc.root_element()
            .attribute("data-variant")
            .map(str::to_string)
    };
    let file = ["corpus/brazilian/faults.pdn", "--game", "1", "--ply", "3"];
    assert_eq!(variant_of(&file).as_deref(), Some("brazilian"));
    // The game's GameType 26 decides: --variant does not change it.
    let named = [&file[..], &["--variant", "russian"]].concat();
    assert_eq!(variant_of(&named).as_deref(), Some("brazilian"));
    let forced = [&file[..], &["--force-variant", "russian"]].concat();
    assert_eq!(variant_of(&forced).as_deref(), Some("russian"));
}
