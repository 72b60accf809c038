//! The variant of games that carry no GameType, decided once per file from
//! evidence (docs/rules.md, "Which rules a game is read under").
//!
//! A game's GameType tag (or a `Variant` tag naming one) decides for that game.
//! The games without one take the file's decision: the variant of the file's
//! tagged games if it has any, else what the text shows (board size from the
//! squares and FEN, English when games from the start position open from
//! 9-12, Russian when captures are written with `:` or tag values are
//! Cyrillic, Italian when the tag names are Italian), else Brazilian on 8x8.
//! Never a variant chosen because its rules make the file's faults legal.
//!
//! The whole decision lives here, as named steps: the tags
//! (`tag_choice`), the evidence (`Evidence`, `evidence.rs`), the trial of
//! the evidence's variant against the board's others (`trial.rs`, replaying
//! through its caller's `Replay`), and the choice for one game (`choice.rs`,
//! which the replay asks once per game).

mod choice;
mod evidence;
mod model;
mod trial;
pub(crate) use choice::{choose, Choice, Chosen};
pub(crate) use evidence::Evidence;
pub(crate) use trial::{decide, Asked, Replay};

pub(crate) use model::{
    named_for, same_moves, tag_choice, tag_choice_raw, variant_name, variant_word, FileName,
    Inference, Marker, TagChoice, Untagged,
};
pub use model::{NamedVariant, NamedVariantError, VariantSource};
