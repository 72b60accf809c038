//! What `convert --to pdn` writes reads back as the same games: the same
//! number of games, the same moves as written, the same tags.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pdnkit::pdn::write::write_game;
use pdnkit::pdn::{read_all, Node};

fuzz_target!(|data: &[u8]| {
    let games = read_all(data);
    // Text the reader could not read (a syntax error, a bad tag line) is not
    // written back: the promise holds for input read without such findings.
    let clean = games.iter().all(|g| {
        g.diagnostics()
            .iter()
            .all(|d| d.severity == pdnkit::diag::Severity::Note)
    });
    if !clean {
        for g in &games {
            let _ = write_game(g, Default::default());
        }
        return;
    }
    let text: String = games.iter().map(|g| write_game(g, Default::default())).collect();
    let again = read_all(text.as_bytes());
    assert_eq!(games.len(), again.len(), "game count");
    for (a, b) in games.iter().zip(&again) {
        let moves = |g: &pdnkit::pdn::Game| -> Vec<Vec<pdnkit::pdn::SquareText>> {
            g.nodes()
                .iter()
                .filter_map(|n| match n {
                    Node::Move(m) => Some(g.squares(m).to_vec()),
                    _ => None,
                })
                .collect()
        };
        assert_eq!(moves(a), moves(b), "moves");
        assert_eq!(a.tags().len(), b.tags().len(), "tags");
    }
});
