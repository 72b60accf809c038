//! Openings and ballots (shared/spec/OPENINGS.md, docs/openings.md): the
//! federations' ballot tables shipped as data, and a game's opening found by
//! its positions after each ply against them.
//!
//! A table is rows of a code, a name, the variants it serves and a position
//! (the board and the side to move), reached by the row's moves or given
//! directly. A game matches a row at ply `j` when its position after `j`
//! plies is the row's; its opening is the deepest match in the first table
//! of its variant's list that has one. Positions are compared by a 64-bit
//! key of the board and the side to move, so a ballot reached by another
//! order of moves is found (`transposed`).
//!
//! The tables are read once, when a game of their variant is first
//! classified; a test replays every row and compares its position
//! (`replay`'s tests).

mod fen_key;
mod load;
mod table;

pub(crate) use load::MAX_TABLE_BYTES;
pub use load::{RowWarning, TableError, TableSpec};
pub(crate) use table::{
    classify, idle_names_tables, is_initial, plies_needed, section_table, shipped_names,
    table_named, tables_with_code, Chosen,
};
pub use table::{Opening, Table};
