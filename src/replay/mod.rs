//! A game replayed ply by ply under its variant's rules: findings collected,
//! draw rules applied, the true result worked out and compared with the record.

mod dialect;
mod game;
mod main_line;
mod options;
mod replayer;
mod report;
mod result;
mod tables;
mod variations;
pub use options::{Irregularities, Options};
pub use replayer::{Ply, Replay};
pub use report::{GameReport, Played};

pub(crate) use dialect::Dialects;
pub(crate) use game::{check_game_with, first_move_fits};
