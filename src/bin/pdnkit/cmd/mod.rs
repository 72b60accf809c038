//! The subcommands, one module each: flags, a call of the library's
//! pipeline, rendering. None names another (tests/it/layers.rs).

pub mod check;
pub mod convert;
pub mod diagram;
pub mod dupes;
pub mod explore;
#[cfg(feature = "parquet")]
pub mod index;
pub mod man;
pub mod openings;
pub mod perft;
pub mod report;
pub mod select;
pub mod stats;
pub mod tournament;
