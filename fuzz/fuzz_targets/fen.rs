//! Any text as a FEN for every variant: read, and when it is a position,
//! written and read back to the same position.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::fen(data));
