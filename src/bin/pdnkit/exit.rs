//! Exit statuses (the bottom of the binary). As in ripgrep's `messages`,
//! the run is marked failed in one place, where the failure is said on
//! standard error ([`fail`], [`failed`]); every command returns its own
//! answer (0, or 1 for findings) to `main`, the one exit path, which gives
//! [`status`]: 2 when the run failed anywhere, else the command's answer.

use std::sync::atomic::{AtomicBool, Ordering};

/// Exit status 2: the run itself failed.
pub const FAILED: u8 = 2;

/// Whether the run failed somewhere (said on standard error where it did).
static RUN_FAILED: AtomicBool = AtomicBool::new(false);

/// Says why the run failed (`pdnkit: WHY` on standard error) and marks it
/// failed; returns [`FAILED`], for a command that ends here.
pub fn fail(why: impl std::fmt::Display) -> u8 {
    eprintln!("pdnkit: {why}");
    failed()
}

/// Marks the run failed where the failure was already said in its own
/// words (a PATH's problem, a file that could not be read); returns [`FAILED`].
pub fn failed() -> u8 {
    RUN_FAILED.store(true, Ordering::Relaxed);
    FAILED
}

/// Whether the run has failed so far.
pub fn has_failed() -> bool {
    RUN_FAILED.load(Ordering::Relaxed)
}

/// The exit status of a run whose command answered `answer`: [`FAILED`]
/// when the run failed anywhere, else the answer.
pub fn status(answer: u8) -> u8 {
    if has_failed() {
        FAILED
    } else {
        answer
    }
}

/// Exit status 130: interrupted (Ctrl-C, SIGTERM, SIGHUP).
pub const INTERRUPTED: u8 = 130;

/// Ends the process from a signal handler, which cannot return to `main`:
/// the only other way out (output::install_signal_cleanup).
pub fn interrupted() -> ! {
    eprintln!("pdnkit: interrupted");
    std::process::exit(i32::from(INTERRUPTED))
}

/// What one status means for a group of commands: the one table from which
/// each subcommand's help line (`after_help`), the man page's EXIT STATUS
/// section and the README's table (tied by a test) come.
pub struct Statuses {
    /// The commands it is for.
    pub commands: &'static [&'static str],
    /// Status 0.
    pub ok: &'static str,
    /// Status 1, where the command has it.
    pub findings: Option<&'static str>,
}

/// Every command's statuses 0 and 1; 2 is [`FAILED_MEANS`] for all.
pub const TABLE: [Statuses; 6] = [
    Statuses {
        commands: &["check"],
        ok: "no error finding",
        findings: Some("at least one error finding"),
    },
    Statuses {
        commands: &["convert"],
        ok: "the conversion was done, whatever the findings",
        findings: Some("with --strict: a game has an error finding"),
    },
    Statuses {
        commands: &["report"],
        ok: "the report was written, whatever the findings",
        findings: Some("with --strict: a game has an error finding"),
    },
    Statuses {
        commands: &["select"],
        ok: "the games were written, whatever the findings",
        findings: Some("with --strict: a selected game has an error finding"),
    },
    Statuses {
        commands: &["tournament"],
        ok: "no error finding",
        findings: Some("at least one error finding"),
    },
    Statuses {
        commands: &[
            "stats", "dupes", "explore", "index", "perft", "diagram", "openings",
        ],
        ok: "the job was done",
        findings: None,
    },
];

/// What status 2 means, for every command.
pub const FAILED_MEANS: &str = "the run failed: bad arguments, a PATH that does not exist or cannot be read (reported where it occurs; the other PATHs are still processed), no PDN file found, an input that breaks off (the games before the break are still written), or a write error";

/// The statuses of `command`.
fn of(command: &str) -> Option<&'static Statuses> {
    TABLE.iter().find(|s| s.commands.contains(&command))
}

/// A subcommand's help after its options: `examples`, then its exit status
/// from [`TABLE`].
pub fn after_help(command: &str, examples: &str) -> String {
    let mut s = format!("{examples}\n\nExit status: ");
    if let Some(st) = of(command) {
        s.push_str(&format!("0 {}; ", st.ok));
        if let Some(f) = st.findings {
            s.push_str(&format!("1 {f}; "));
        }
    }
    s.push_str(&format!(
        "2 {FAILED_MEANS}. A closed pipe ends the run quietly with the status so far."
    ));
    // Lines of at most 80 columns, as the examples above them.
    let (head, status) = s.split_at(examples.len() + 2);
    let mut out = head.to_string();
    let mut width = 0;
    for word in status.split(' ') {
        if width > 0 && width + 1 + word.chars().count() > 80 {
            out.push('\n');
            width = 0;
        } else if width > 0 {
            out.push(' ');
            width += 1;
        }
        out.push_str(word);
        width += word.chars().count();
    }
    out
}

/// The man page's EXIT STATUS section (roff), from [`TABLE`].
pub fn man_section(roff: impl Fn(&str) -> String) -> String {
    let mut s = String::from(".SH \"EXIT STATUS\"\n");
    for (code, pick) in [(0u8, 0usize), (1, 1)] {
        s.push_str(&format!(".TP\n.B {code}\n"));
        let lines: Vec<String> = TABLE
            .iter()
            .filter_map(|st| {
                let text = if pick == 0 { Some(st.ok) } else { st.findings };
                text.map(|t| format!("{}: {t}.", st.commands.join(", ")))
            })
            .collect();
        s.push_str(&roff(&lines.join(" ")));
        s.push('\n');
    }
    s.push_str(&format!(".TP\n.B 2\n{}.\n", roff(FAILED_MEANS)));
    s.push_str(&format!(
        ".TP\n.B {INTERRUPTED}\ninterrupted (Ctrl\\-C, SIGTERM, SIGHUP): no output file is left half written.\n"
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The README's exit-status table is this table (issue 52): a row per
    /// group of commands, the same words for 0, 1 and 2.
    #[test]
    fn the_readme_table_is_this_table() {
        let readme = include_str!("../../../README.md");
        let section = readme
            .split("## Exit status")
            .nth(1)
            .and_then(|s| s.split("\n## ").next())
            .unwrap_or("");
        let rows: Vec<Vec<String>> = section
            .lines()
            .filter(|l| l.starts_with("| `"))
            .map(|l| {
                l.trim_matches('|')
                    .split(" | ")
                    .map(|c| c.trim().to_string())
                    .collect()
            })
            .collect();
        assert_eq!(rows.len(), TABLE.len(), "{section}");
        for (row, st) in rows.iter().zip(&TABLE) {
            let commands: Vec<String> = st.commands.iter().map(|c| format!("`{c}`")).collect();
            assert_eq!(row[0], commands.join(", "));
            assert_eq!(row[1], st.ok, "{}", row[0]);
            assert_eq!(
                row[2],
                st.findings.unwrap_or("—").replace("--strict", "`--strict`")
            );
            assert_eq!(row[3], "the run failed");
        }
        let flat = section.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains(&FAILED_MEANS["the run failed: ".len()..]),
            "{flat}"
        );
        // Every subcommand with an exit status is in the table once.
        let all: Vec<&str> = TABLE
            .iter()
            .flat_map(|s| s.commands.iter().copied())
            .collect();
        let mut sorted = all.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), all.len());
    }
}
