//! The integration tests, one binary (issue 39): each file of this folder is a
//! module, so that the crate and its dependencies (arrow, parquet) are linked
//! once, not once per file.

/// The checks the fuzz targets make (fuzz/checks.rs), replayed by fuzz_corpus.
#[path = "../../fuzz/checks.rs"]
mod checks;
mod common;

mod archives;
mod browser;
mod cli;
mod cli_polish;
mod conformance_games;
mod conformance_irregularities;
mod conformance_rules;
mod diagrams;
mod dialects;
mod doors;
mod explore;
mod export;
mod facts;
mod fuzz_corpus;
mod hostile;
mod jobs;
mod json_writer;
mod layers;
mod no_panic;
mod openings;
#[cfg(feature = "parquet")]
mod parquet;
mod readback;
mod real_corpus;
mod real_other;
mod real_verdicts;
mod records;
mod report;
mod roundtrip;
mod rules_props;
mod select;
mod snapshots;
mod tournament;
mod turkish;
mod variants;
mod verdicts;
mod visitor;
