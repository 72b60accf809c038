//! Exit statuses (the bottom of the binary): every command returns one to
//! `main`, the one exit path.

/// Exit status 2: the run itself failed.
pub const FAILED: u8 = 2;

/// Prints why the run failed; exit status 2.
pub fn fail(why: impl std::fmt::Display) -> u8 {
    eprintln!("pdnkit: {why}");
    FAILED
}

/// Exit status 130: interrupted (Ctrl-C, SIGTERM, SIGHUP).
pub const INTERRUPTED: u8 = 130;

/// Ends the process from a signal handler, which cannot return to `main`:
/// the only other way out (output::install_signal_cleanup).
pub fn interrupted() -> ! {
    eprintln!("pdnkit: interrupted");
    std::process::exit(i32::from(INTERRUPTED))
}
