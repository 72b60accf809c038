//! The PDN reader: bytes in, games out, with byte spans; never checks legality.
//!
//! # Design
//! [`Reader`] pulls bytes from any `Read` into one reused buffer and cuts it
//! into games. A game is parsed from the front of the buffer; when the parser
//! runs out of bytes before it can tell where the game ends, the reader reads
//! more (the buffer grows geometrically only for a game larger than the
//! buffer) and parses that game again from its start. Consumed games are
//! dropped from the front of the buffer, so memory is bounded by the largest
//! game plus one read chunk, not by the file, and every byte is scanned a
//! bounded number of times: reading is linear in the file size.
//!
//! Each [`Game`] owns a copy of its own bytes (one allocation) and flat
//! vectors of tags and movetext [`Node`]s holding byte spans into those bytes:
//! no allocation per token. Variations are `Open`/`Close` nodes, so nesting
//! depth never turns into recursion.
//!
//! Structure characters of PDN are ASCII, and every encoding met in real
//! archives (UTF-8, Windows-1252, Windows-1251, CP866) is an ASCII superset,
//! so the parser works on raw bytes; tag values and comments are decoded
//! lazily with the file's encoding ([`Game::decode`]). The encoding is decided
//! once per file at the first game that is not valid UTF-8 (see `src/pdn/decode.rs`).

mod date;
pub(crate) mod decode;
mod fast;
mod game;
mod gametype;
pub(crate) mod grammar;
mod lexer;
mod reader;
pub(crate) mod sniff;
#[cfg(any(feature = "batch", test, fuzzing))]
pub(crate) mod split;
mod text;
pub mod visit;
mod vocab;
pub mod write;

// The module only declares and re-exports (issue 52): the vocabulary is
// `vocab.rs`, and each file takes a name from the file that defines it
// (tests/it/layers.rs).
pub use date::PdnDate;
pub(crate) use decode::wide_bom;
pub(crate) use game::{tag_name, tag_name_bytes};
pub use game::{Game, Locator};
pub use gametype::GameType;
pub(crate) use gametype::{game_type, read_game_type};
pub(crate) use reader::DEFAULT_MAX_GAME_BYTES;
pub use reader::{read_all, Reader};
/// The `split` fuzz target: any bytes, cut at points their first bytes
/// choose, read in pieces and stitched, must give the whole-file reader's
/// games (built only under `cargo fuzz`, which sets `cfg(fuzzing)`).
#[cfg(fuzzing)]
pub use split::fuzz_split;
/// Line breaks counted, for the pipeline's stitching (feature `batch`).
#[cfg(feature = "batch")]
pub(crate) use text::count_breaks;
pub(crate) use text::visible;
pub use text::Snippet;
pub(crate) use vocab::MARKER_TAG;
pub use vocab::{Node, Outcome, Sep, SquareText, Tag, TagValue, TextEncoding, WrittenMove};

/// Where `../shared` is for the unit tests: beside the checkout, or
/// `PDNKIT_TEST_SHARED` when set (CI points it at a missing folder to test
/// what a user's clone without `../shared` sees).
#[cfg(test)]
pub(crate) fn shared_root() -> std::path::PathBuf {
    std::env::var_os("PDNKIT_TEST_SHARED")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"))
}

/// The PDN files the unit tests read: under the repository's `own` folders,
/// and under `shared` folders of `../shared`, which CI must have (`CI=true`)
/// and a user's clone may lack (a `SKIP:` line says so).
#[cfg(test)]
pub(crate) fn test_files(own: &[&str], shared: &[&str]) -> Vec<std::path::PathBuf> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut dirs: Vec<_> = own.iter().map(|d| root.join(d)).collect();
    let there = shared_root();
    if there.exists() {
        dirs.extend(shared.iter().map(|d| there.join(d)));
    } else if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{} is absent, and CI=true", there.display());
    } else if !shared.is_empty() {
        let msg = format!(
            "SKIP: {} is absent: the repository's files only\n",
            there.display()
        );
        let _ = std::io::Write::write_all(&mut std::io::stderr(), msg.as_bytes());
    }
    let mut files = Vec::new();
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "pdn") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}
