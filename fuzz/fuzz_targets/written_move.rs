//! Any text as the moves of a game from a set of positions (start positions
//! and crowded ones), under every variant: read, resolved, replayed.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::written_move(data));
