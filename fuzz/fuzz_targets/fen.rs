//! Any text as a FEN for every variant: read, and when it is a position,
//! written and read back to the same position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pdnkit::position::Position;
use pdnkit::rules::legal_moves;
use pdnkit::variant::Variant;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for v in Variant::ALL {
        match Position::from_fen(text, v) {
            Ok(p) => {
                let again = Position::from_fen(&p.to_fen(), v).expect("a written FEN reads back");
                assert_eq!(again, p);
                let _ = legal_moves(&p);
            }
            Err(e) => assert!(e.offset() <= text.len()),
        }
    }
});
