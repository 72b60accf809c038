//! Helpers shared by integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// Where `../shared` is: beside the checkout, or `PDNKIT_TEST_SHARED` when set.
/// CI sets it to a missing folder to run the tests as a user's clone without
/// `../shared` sees them, without compiling a second copy of the crate.
pub fn shared_root() -> PathBuf {
    std::env::var_os("PDNKIT_TEST_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"))
}

/// `../shared/<rel>` if present; otherwise prints why the caller skips and
/// returns None. Under `CI=true` a missing `../shared` is a failure, not a skip.
pub fn shared(rel: &str) -> Option<PathBuf> {
    let p = shared_root().join(rel);
    if p.exists() {
        Some(p)
    } else if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!(
            "{} is absent, and CI=true: the checks that need it cannot be skipped",
            p.display()
        );
    } else {
        // Written to stderr directly, not through `eprintln!`, so that the test
        // harness does not capture it: a skipped check is always visible.
        let msg = format!(
            "SKIP: {} is absent (the ../shared checkout is not here)\n",
            p.display()
        );
        let _ = std::io::Write::write_all(&mut std::io::stderr(), msg.as_bytes());
        None
    }
}

/// Reads a JSON Lines file into values.
pub fn jsonl(path: &std::path::Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(path).expect("readable conformance file");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("valid JSON line"))
        .collect()
}

/// Runs the built `pdnkit` with `args` and `--no-progress`.
pub fn pdnkit(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_pdnkit"))
        .args(args)
        .arg("--no-progress")
        .output()
        .expect("pdnkit runs")
}

/// Standard output parsed as JSON Lines.
pub fn json_lines(o: &std::process::Output) -> Vec<serde_json::Value> {
    String::from_utf8(o.stdout.clone())
        .expect("UTF-8 output")
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect()
}

/// A path under this repository's `corpus/`.
pub fn corpus(rel: &str) -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus")
        .join(rel)
        .display()
        .to_string()
}

/// A fresh, empty temporary directory for one test.
pub fn tempdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pdnkit-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temporary directory");
    d
}

/// The `.pdn`, `.pgn` and `.txt` files under `dir`, in path order.
pub fn pdn_files(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            out.extend(pdn_files(&p));
        } else if p
            .extension()
            .is_some_and(|e| e == "pdn" || e == "pgn" || e == "txt")
        {
            out.push(p);
        }
    }
    out
}

/// The PDN files this repository holds itself: `corpus/`, `tests/data/`
/// and the fuzz corpora.
pub fn repository_pdn_files() -> Vec<PathBuf> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    ["corpus", "tests/data", "fuzz/corpus"]
        .iter()
        .flat_map(|dir| pdn_files(&root.join(dir)))
        .collect()
}

/// A small xorshift generator for property tests that must not depend on a
/// crate's random streams.
pub struct Rng(pub u64);
impl Rng {
    /// A number below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}
