//! Helpers shared by integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// `../shared/<rel>` if present; otherwise prints why the caller skips and returns None.
pub fn shared(rel: &str) -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared")
        .join(rel);
    if p.exists() {
        Some(p)
    } else {
        eprintln!(
            "SKIP: {} is absent (the ../shared checkout is not here)",
            p.display()
        );
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
