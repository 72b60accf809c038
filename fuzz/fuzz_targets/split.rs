//! Any bytes cut into pieces at random points, each piece read on its own
//! and stitched (as `check -j N` reads one file): the games must be exactly
//! those of one reader of the whole input.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::split(data));
