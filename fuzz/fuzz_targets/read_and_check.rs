//! Any bytes: read every game, replay it under every variant, write it back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pdnkit::pdn::read_all;
use pdnkit::replay::{check_game, Options};
use pdnkit::rules::Variant;

fuzz_target!(|data: &[u8]| {
    for g in read_all(data) {
        for variant in [None, Some(Variant::Brazilian), Some(Variant::International), Some(Variant::Canadian)] {
            let r = check_game(&g, &Options { variant, keep_moves: true, ..Options::default() });
            for d in &r.diagnostics {
                let _ = g.location(d.span.start);
                let _ = g.source_line(&d.span);
            }
        }
        let _ = pdnkit::pdn::write::write_game(&g, Default::default());
    }
});
