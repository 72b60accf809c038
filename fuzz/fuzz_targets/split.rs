//! Any bytes cut into pieces at random points, each piece read on its own
//! and stitched (as `check -j N` reads one file): the games must be exactly
//! those of one reader of the whole input.
#![no_main]

use libfuzzer_sys::fuzz_target;

// `fuzz_split` exists only under `cfg(fuzzing)`, which `cargo fuzz` sets: the
// pieces it drives are the pipeline's own, not public API.
fuzz_target!(|data: &[u8]| pdnkit::pdn::fuzz_split(data));
