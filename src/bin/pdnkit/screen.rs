//! What is drawn on the terminal now (the bottom of the binary): the
//! progress bar of a run, which text written to the terminal clears first.

use indicatif::ProgressBar;
use std::sync::Mutex;

/// The bar drawn now, if any.
static DRAWN: Mutex<Option<ProgressBar>> = Mutex::new(None);

fn bar() -> std::sync::MutexGuard<'static, Option<ProgressBar>> {
    DRAWN.lock().unwrap_or_else(|e| e.into_inner())
}

/// The bar now drawn on standard error (`None`: none any more).
pub fn drawn(now: Option<ProgressBar>) {
    *bar() = now;
}

/// Runs `f`, which writes to the terminal, with the progress bar cleared
/// while it runs (and drawn again after), when one is drawn.
pub fn above<T>(f: impl FnOnce() -> T) -> T {
    let drawn = bar().clone();
    match drawn {
        Some(b) => b.suspend(f),
        None => f(),
    }
}
