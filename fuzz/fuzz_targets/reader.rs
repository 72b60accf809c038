//! Any bytes through the streaming reader, in small reads and with a small
//! game limit: never a panic, games numbered in order, every finding placed.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::reader(data));
