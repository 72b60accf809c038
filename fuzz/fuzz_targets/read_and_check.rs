//! Any bytes: read every game, replay it under every variant and rule set,
//! locate and show every finding.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pdnkit::draw::DrawRules;
use pdnkit::pdn::{read_all, Locator};
use pdnkit::check::check_game;
use pdnkit::replay::Options;
use pdnkit::variant::Variant;

fuzz_target!(|data: &[u8]| {
    for g in read_all(data) {
        let variants = std::iter::once(None).chain(Variant::ALL.into_iter().map(Some));
        for variant in variants {
            for rules in [DrawRules::Cbjd, DrawRules::Fmjd] {
                let opts = Options::default()
                    .force_variant(variant)
                    .draw_rules(Some(rules))
                    .keep_moves(true);
                let r = check_game(&g, &opts);
                let mut loc = Locator::new(&g);
                for d in &r.diagnostics {
                    assert_eq!(loc.locate(d.span.start), g.location(d.span.start));
                    let _ = g.snippet(&d.span, 60);
                }
            }
        }
    }
});
