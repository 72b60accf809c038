//! What `convert --to pdn` writes reads back as the same games with the same
//! meaning (`export::Meaning`): tags, the moves played, each variation's
//! anchor and squares, comments, NAGs, setups, `%` lines, the verdict and the
//! findings; with `--fix-results`, the same moves and no result-conflict.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::pdn_roundtrip(data));
