//! One place per fact (issue 52): the help, the README, the crate's docs and
//! the docs name the variants and codes the library has, no fewer and no
//! others. Each test fails when a copy drifts from its table.
use crate::common;

use pdnkit::diag::Code;
use pdnkit::Variant;

fn root(rel: &str) -> String {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn names_every_variant(text: &str, what: &str) {
    let lower = text.to_lowercase();
    for v in Variant::ALL {
        assert!(
            lower.contains(v.name()),
            "{what} does not name {}",
            v.name()
        );
    }
}

#[test]
fn the_help_and_the_crate_name_every_variant() {
    let top = common::pdnkit(&["--help"]);
    names_every_variant(&String::from_utf8_lossy(&top.stdout), "pdnkit --help");
    let check = common::pdnkit(&["check", "--help"]);
    let text = String::from_utf8_lossy(&check.stdout);
    let variant = text
        .split("--variant")
        .nth(1)
        .expect("check --help has --variant");
    names_every_variant(&variant[..variant.len().min(800)], "--variant's help");
    names_every_variant(&root("src/lib.rs")[..1200], "src/lib.rs");
    let description = root("Cargo.toml")
        .lines()
        .find(|l| l.starts_with("description"))
        .unwrap_or("")
        .to_string();
    names_every_variant(&description, "Cargo.toml's description");
    let o = common::pdnkit(&["perft", "--variant", "nosuch", "1"]);
    names_every_variant(
        &String::from_utf8_lossy(&o.stderr),
        "an unknown variant's message",
    );
}

/// The README's table of codes is `Code::ALL`: every code once, in its
/// order, with its usual severity first.
#[test]
fn the_readme_names_every_code_with_its_severity() {
    let readme = root("README.md");
    let section = readme
        .split("## Diagnostic codes")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("README has its table of codes");
    let mut listed: Vec<(String, String)> = Vec::new();
    for line in section.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
        for code in cells[0].split(", ") {
            listed.push((code.trim_matches('`').to_string(), cells[1].to_string()));
        }
    }
    let codes: Vec<&str> = listed.iter().map(|(c, _)| c.as_str()).collect();
    let all: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(codes, all, "the README's codes are not Code::ALL");
    for ((_, severity), code) in listed.iter().zip(Code::ALL) {
        assert!(
            severity.starts_with(code.severity().as_str()),
            "{}: the README says {severity}, the code {}",
            code.as_str(),
            code.severity()
        );
    }
}

/// The code of a Markdown text: its fenced blocks and its `spans`, a line
/// each (prose may say "--variant if ...").
fn code_spans(md: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in md.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 1 {
                out.push_str(part);
                out.push('\n');
            }
        }
    }
    out
}

/// Every code and variant a doc names in a finding (`error[CODE]`), an
/// option (`-A CODE`, `--code CODE`, `--variant NAME`) or a JSON field
/// (`"code": "..."`, `"variant": "..."`) exists.
#[test]
fn the_docs_name_no_code_or_variant_that_does_not_exist() {
    let codes: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
    let variants: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
    let groups = ["errors", "warnings", "notes"];
    let code_re = regex::Regex::new(
        r#"(?:\b(?:error|warning|note)\[([a-z-]+)\]|(?:-[AWD]|--code)[ =]([a-z,-]+)|"code": ?"([a-z-]+)")"#,
    )
    .unwrap();
    let variant_re = regex::Regex::new(
        r#"(?:--variant(?:-is)?|--force-variant)[ =]'?(?:[^'\s=]*=)?([a-z]+)\b|"variant": ?"([a-z]+)""#,
    )
    .unwrap();
    let mut files: Vec<std::path::PathBuf> = vec!["README.md".into()];
    let docs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    for e in std::fs::read_dir(&docs).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "md") {
            files.push(
                p.strip_prefix(env!("CARGO_MANIFEST_DIR"))
                    .unwrap()
                    .to_path_buf(),
            );
        }
    }
    let mut bad = Vec::new();
    let mut seen = 0;
    for f in &files {
        let text = code_spans(&root(&f.display().to_string()));
        for c in code_re.captures_iter(&text) {
            let named = c.get(1).or(c.get(2)).or(c.get(3)).unwrap().as_str();
            for one in named.split(',').filter(|s| !s.is_empty()) {
                seen += 1;
                if !codes.contains(&one) && !groups.contains(&one) {
                    bad.push(format!("{}: code {one}", f.display()));
                }
            }
        }
        for c in variant_re.captures_iter(&text) {
            let named = c.get(1).or(c.get(2)).unwrap().as_str();
            seen += 1;
            if !variants.contains(&named) && named != "auto" {
                bad.push(format!("{}: variant {named}", f.display()));
            }
        }
    }
    assert!(seen > 50, "{seen} names found: the patterns find nothing");
    assert!(bad.is_empty(), "{bad:#?}");
}
