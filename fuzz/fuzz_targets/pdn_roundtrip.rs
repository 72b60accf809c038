//! What `convert --to pdn` writes reads back as the same games with the same
//! meaning (`export::Meaning`): tags, the moves played, each variation's
//! anchor and squares, comments, NAGs, setups, `%` lines, the verdict and the
//! findings; with `--fix-results`, the same moves and no result-conflict.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pdnkit::check::check_file;
use pdnkit::export::{normalised_pdn, rewritable, Meaning, Normalise};
use pdnkit::replay::Options;

fuzz_target!(|data: &[u8]| {
    let opts = Options::default().keep_moves(true);
    let Ok((before, _)) = check_file(data, &opts) else {
        return;
    };
    // Text the reader could not read whole (a syntax error, an unterminated
    // comment) can merge or split games when written: --in-place refuses such
    // files, and the promise is for files read whole.
    if before.iter().any(|c| rewritable(&c.game).is_err()) {
        for c in &before {
            let _ = normalised_pdn(&c.game, &c.report, Normalise::default());
        }
        return;
    }
    for fix_results in [false, true] {
        let text: String = before
            .iter()
            .map(|c| {
                normalised_pdn(&c.game, &c.report, Normalise { fix_results, ..Normalise::default() })
                    .text
            })
            .collect();
        let Ok((after, _)) = check_file(text.as_bytes(), &opts) else {
            panic!("the output reads back");
        };
        assert_eq!(before.len(), after.len(), "game count");
        for (a, b) in before.iter().zip(&after) {
            let (ma, mb) = (Meaning::of(&a.game, &a.report), Meaning::of(&b.game, &b.report));
            if fix_results {
                assert_eq!(ma.moves, mb.moves, "moves");
                assert!(!b.report.diagnostics.iter().any(|d| d.code == pdnkit::diag::Code::ResultConflict));
            } else {
                assert_eq!(ma, mb, "meaning");
            }
        }
    }
});
