//! Any text as the moves of a game from a set of positions (start positions
//! and crowded ones), under every variant: read, resolved, replayed.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pdnkit::pdn::read_all;
use pdnkit::check::check_game;
use pdnkit::replay::Options;
use pdnkit::variant::Variant;

const FENS: [&str; 4] = [
    "",
    "W:WK18,K22,K25,K28,K30:BK2,K6,K8,K11,K14,K20,K21,K26,K31,K32",
    "B:WK4,K7,9,K10,K15,17,19:BK2,K5,20,24,25",
    "W:W10,K15,K21,K32:B6,14,23,K28,K31",
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, text)) = data.split_first() else {
        return;
    };
    let v = Variant::ALL[usize::from(pick) % Variant::ALL.len()];
    let fen = FENS[usize::from(pick / 8) % FENS.len()];
    let mut game = format!("[GameType \"{}\"]\n", v.game_type()).into_bytes();
    if !fen.is_empty() && v.board().n() == 8 {
        game.extend_from_slice(format!("[FEN \"{fen}\"]\n").as_bytes());
    }
    game.extend_from_slice(b"\n1. ");
    game.extend_from_slice(text);
    for g in read_all(&game) {
        let _ = check_game(&g, &Options::default().keep_moves(true));
    }
});
