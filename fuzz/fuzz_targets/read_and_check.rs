//! Any bytes: read every game, replay it under every variant and rule set,
//! locate and show every finding.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::read_and_check(data));
