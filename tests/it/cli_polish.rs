//! Command-line manners: noise control by group and list, completions that
//! offer the codes, full manual pages, one message per fault, a progress bar
//! that knows its terminal, no duplicate columns, carets on the text meant.
use crate::common;

use common::{corpus, json_lines, pdnkit, tempdir};
use std::process::Command;

fn codes_in(o: &std::process::Output) -> Vec<(String, String)> {
    json_lines(o)
        .iter()
        .flat_map(|v| v["diagnostics"].as_array().cloned().unwrap_or_default())
        .map(|d| {
            (
                d["code"].as_str().unwrap_or("").to_string(),
                d["severity"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn noise_control_takes_groups_lists_and_order() {
    let all = corpus("");
    let plain = codes_in(&pdnkit(&["check", "--format", "json", &all]));
    assert!(plain.iter().any(|(_, s)| s == "warning"));
    // A group.
    let o = pdnkit(&["check", "--format", "json", "-A", "warnings", &all]);
    let got = codes_in(&o);
    assert!(!got.iter().any(|(_, s)| s == "warning"), "{got:?}");
    assert!(got.iter().any(|(_, s)| s == "error"));
    // A list.
    let o = pdnkit(&[
        "check",
        "--format",
        "json",
        "-A",
        "missing-result,result-conflict",
        &all,
    ]);
    let got = codes_in(&o);
    assert!(
        !got.iter()
            .any(|(c, _)| c == "missing-result" || c == "result-conflict"),
        "{got:?}"
    );
    assert!(plain.iter().any(|(c, _)| c == "missing-result"));
    // Errors only.
    let o = pdnkit(&["check", "--format", "json", "-e", &all]);
    let got = codes_in(&o);
    assert!(
        got.iter().all(|(_, s)| s == "error") && !got.is_empty(),
        "{got:?}"
    );
    // A code beats its group, whatever the order; a later flag beats an earlier one.
    let o = pdnkit(&[
        "check",
        "--format",
        "json",
        "-W",
        "missing-result",
        "-A",
        "warnings",
        &all,
    ]);
    let got = codes_in(&o);
    assert!(
        got.iter()
            .any(|(c, s)| c == "missing-result" && s == "warning"),
        "{got:?}"
    );
    assert!(!got.iter().any(|(c, _)| c == "result-conflict"), "{got:?}");
    let o = pdnkit(&[
        "check",
        "--format",
        "json",
        "-D",
        "missing-result",
        "-A",
        "missing-result",
        &all,
    ]);
    assert!(!codes_in(&o).iter().any(|(c, _)| c == "missing-result"));
    let o = pdnkit(&[
        "check",
        "--format",
        "json",
        "-A",
        "missing-result",
        "-D",
        "missing-result",
        &all,
    ]);
    assert!(codes_in(&o)
        .iter()
        .any(|(c, s)| c == "missing-result" && s == "error"));
    // -D warnings still works; an unknown name is refused with the list.
    let o = pdnkit(&["check", "--format", "json", "-D", "warnings", &all]);
    assert!(codes_in(&o).iter().all(|(_, s)| s != "warning"));
    let o = pdnkit(&["check", "-A", "bogus", &all]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("non-maximal-capture"));
}

#[test]
fn completions_offer_the_codes() {
    for shell in ["bash", "zsh"] {
        let o = Command::new(env!("CARGO_BIN_EXE_pdnkit"))
            .args(["completions", shell])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&o.stdout);
        for code in [
            "non-maximal-capture",
            "result-conflict",
            "warnings",
            "notes",
        ] {
            assert!(text.contains(code), "{shell}: {code}");
        }
    }
}

#[test]
fn the_manual_is_whole_and_valid_roff() {
    let man = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_pdnkit"))
            .args(args)
            .output()
            .unwrap()
    };
    let o = man(&["man"]);
    assert_eq!(o.status.code(), Some(0));
    let page = String::from_utf8_lossy(&o.stdout).into_owned();
    for section in [
        ".SH \"PDNKIT CHECK\"",
        ".SH \"PDNKIT CONVERT\"",
        ".SS Options",
        ".SH \"EXIT STATUS\"",
        ".SH \"DIAGNOSTIC CODES\"",
        ".SH EXAMPLES",
        ".SH \"SEE ALSO\"",
    ] {
        assert!(page.contains(section), "{section}");
    }
    assert!(page.contains("non\\-maximal\\-capture"));
    assert!(page.contains("\\-\\-force\\-variant"));
    let d = tempdir("man");
    let o = man(&["man", "--dir", d.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    let mut pages: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    pages.sort();
    assert_eq!(pages.len(), 15, "{pages:?}");
    assert!(pages.contains(&"pdnkit-openings.1".to_string()));
    assert!(pages.contains(&"pdnkit-explore.1".to_string()));
    assert!(pages.contains(&"pdnkit-tournament.1".to_string()));
    assert!(pages.contains(&"pdnkit-select.1".to_string()));
    assert!(pages.contains(&"pdnkit-check.1".to_string()));
    let groff = Command::new("groff").arg("--version").output().is_ok();
    if !groff {
        eprintln!("SKIP: groff is not installed: the pages are not checked as roff");
        return;
    }
    std::fs::write(d.join("main.roff"), &page).unwrap();
    for p in pages.iter().map(|p| d.join(p)).chain([d.join("main.roff")]) {
        let o = Command::new("groff")
            .args(["-man", "-Tutf8", "-ww", "-z"])
            .arg(&p)
            .output()
            .unwrap();
        assert!(
            o.status.success() && o.stderr.is_empty(),
            "{}: {}",
            p.display(),
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

#[test]
fn one_message_per_fault() {
    let o = pdnkit(&["check", "nosuch.pdn"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("No such file"), "{err}");
    // An empty folder: nothing read at all, said once.
    let d = tempdir("empty");
    let o = pdnkit(&["check", d.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("no PDN file found"), "{err}");
}

#[test]
fn tag_adds_no_duplicate_columns() {
    let o = pdnkit(&[
        "convert",
        "--to",
        "jsonl",
        "--tag",
        "Event",
        "--tag",
        "Round",
        "--tag",
        "round",
        "--tag",
        "Opening",
        &corpus("brazilian/clean.pdn"),
    ]);
    let v = &json_lines(&o)[0];
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(
        keys.iter()
            .filter(|k| k.eq_ignore_ascii_case("round"))
            .count(),
        1,
        "{keys:?}"
    );
    assert_eq!(
        keys.iter()
            .filter(|k| k.eq_ignore_ascii_case("event"))
            .count(),
        1,
        "{keys:?}"
    );
    assert!(keys.iter().any(|k| *k == "Opening"));
    let o = pdnkit(&[
        "convert",
        "--to",
        "csv",
        "--tag",
        "White",
        "--tag",
        "Opening",
        &corpus("brazilian/clean.pdn"),
    ]);
    let head = String::from_utf8_lossy(&o.stdout)
        .lines()
        .next()
        .unwrap()
        .to_string();
    assert!(head.ends_with(",opening_via,Opening"), "{head}");
}

/// Runs `pdnkit ARGS` under `script`, in a pseudo-terminal of 80 columns,
/// with TERM set; what the terminal received. None without `script`.
fn in_terminal(term: &str, args: &str) -> Option<String> {
    let cmd = format!(
        "stty cols 80 2>/dev/null; {} {args}",
        env!("CARGO_BIN_EXE_pdnkit")
    );
    let o = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .env("TERM", term)
        .output()
        .ok()?;
    Some(String::from_utf8_lossy(&o.stdout).into_owned())
}

#[test]
fn the_progress_bar_knows_its_terminal() {
    let Some(fast) = in_terminal(
        "xterm",
        &format!("check -q {}", corpus("brazilian/clean.pdn")),
    ) else {
        eprintln!("SKIP: `script` is not installed: no pseudo-terminal to draw a bar on");
        return;
    };
    assert!(
        !fast.contains("\u{1b}[2K") && !fast.contains('%'),
        "a quick run draws no bar: {fast:?}"
    );
    // A run long enough for the bar: many games.
    let d = tempdir("bar");
    let f = d.join("many.pdn");
    let game = std::fs::read_to_string(corpus("russian/clean.pdn")).unwrap();
    std::fs::write(&f, game.repeat(30_000)).unwrap();
    let slow = in_terminal("xterm", &format!("check -q -j1 {}", f.display())).unwrap();
    assert!(slow.contains("100%"), "the bar ends at 100 %: {slow:?}");
    let frames: Vec<&str> = slow
        .split(['\r', '\n'])
        .filter(|l| l.contains('%'))
        .collect();
    assert!(!frames.is_empty());
    for frame in &frames {
        let text: String = frame.replace("\u{1b}[2K", "");
        assert!(text.chars().count() <= 80, "fits 80 columns: {text:?}");
        assert!(
            !text.contains(" 1 games") && !text.contains("(6"),
            "{text:?}"
        );
        // Whole words only: the message ends with a word, not a cut one.
        assert!(
            text.trim_end().ends_with("errors") || text.trim_end().ends_with("pdn"),
            "{text:?}"
        );
    }
    let dumb = in_terminal("dumb", &format!("check -q -j1 {}", f.display())).unwrap();
    assert!(
        !dumb.contains('\u{1b}') && !dumb.contains('%'),
        "no bar on a dumb terminal: {dumb:?}"
    );
}

#[test]
fn carets_point_at_the_text_they_mean() {
    let d = tempdir("carets");
    let f = d.join("c.pdn");
    std::fs::write(
        &f,
        "[Event \"no terminator\"]\n[GameType \"20\"]\n1. 32-28 19-23 {a comment}\n\n[Event \"next\"]\n[GameType \"20\"]\n1. 32-28 19-23 (19-24)\n\n\n",
    )
    .unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_pdnkit"))
        .args(["check", "--no-progress", "c.pdn"])
        .current_dir(&d)
        .output()
        .unwrap();
    insta::assert_snapshot!("carets", String::from_utf8_lossy(&o.stdout));
}

/// Each subcommand in the top-level help has its own one-line description
/// (a doc comment on a shared option group once stood in for three of them).
#[test]
fn every_subcommand_is_described_in_the_help() {
    let o = common::pdnkit(&["--help"]);
    let help = String::from_utf8_lossy(&o.stdout);
    let commands: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .collect();
    for name in [
        "check",
        "convert",
        "stats",
        "select",
        "dupes",
        "tournament",
        "report",
        "diagram",
    ] {
        let line = commands
            .iter()
            .find(|l| l.trim_start().starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("{name} is listed:\n{help}"));
        let about = line.trim_start()[name.len()..].trim();
        assert!(
            about.chars().next().is_some_and(char::is_uppercase),
            "{name}: {about:?}"
        );
    }
    let about_of = |name: &str| {
        commands
            .iter()
            .find(|l| l.trim_start().starts_with(&format!("{name} ")))
            .map(|l| l.trim_start()[name.len()..].trim().to_string())
    };
    assert_ne!(about_of("select"), about_of("dupes"));
    assert_ne!(about_of("dupes"), about_of("tournament"));
}

/// File-level findings come in the order of the file, each at the line of
/// what it is about (a game's first tag, not the blank lines before it).
#[test]
fn file_findings_are_in_line_order() {
    let dir = crate::common::tempdir("file-findings-order");
    let f = dir.join("mixed.pdn");
    std::fs::write(
        &f,
        "[GameType \"31\"]\n1. c3-d4 *\n\n[Event \"x\"]\n1. 32-28 *\n\n[GameType \"24\"]\n1. c3-d4 *\n",
    )
    .unwrap();
    let o = crate::common::pdnkit(&["check", "--format", "json", &f.to_string_lossy()]);
    let lines = crate::common::json_lines(&o);
    let file = lines
        .iter()
        .find(|v| v["type"] == "file")
        .expect("file findings");
    let found: Vec<(String, u64)> = file["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or("").to_string(),
                d["line"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("unsupported-variant".to_string(), 1),
            ("variant-inferred".to_string(), 4),
            ("unsupported-variant".to_string(), 4)
        ]
    );
}

/// Issue 44: a known variant pdnkit does not implement is named as such by
/// `--variant` (pool checkers was "did you mean russian?"), and `diagram`'s
/// option that overrides a game's own tag says so in its name.
#[test]
fn an_unsupported_variant_is_named_as_such() {
    for name in ["pool", "thai"] {
        let o = common::pdnkit(&["check", "--variant", name, "corpus/"]);
        assert_eq!(o.status.code(), Some(2), "{name}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains(&format!(
                "{name} is a variant pdnkit names but does not check"
            )),
            "{name}: {err}"
        );
        assert!(!err.contains("did you mean"), "{err}");
    }
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_pdnkit"))
        .args(["diagram", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("--force-variant <NAME>"), "{help}");
    assert!(help.contains("whatever their GameType says"), "{help}");
}
