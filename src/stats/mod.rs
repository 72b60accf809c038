//! Archive statistics as counters that merge across files and threads:
//! [`Summary`], what `check` counts (findings per code and severity, results
//! declared against computed), and [`Stats`], a summary with lengths,
//! captures, results and openings. Both have records for JSON and CSV.
//! [`Explorer`] counts the moves played from positions (`pdnkit explore`).

mod explore;
mod explore_index;
#[cfg(feature = "serde")]
mod explore_json;
mod explore_model;
mod figures;
mod groups;
mod summary;

pub use explore::Explorer;
pub use figures::{LineScore, Stats};
pub use groups::{Group, GroupBy, Groups};
pub use summary::Summary;
