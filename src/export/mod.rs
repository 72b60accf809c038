//! What is written of a game: the games table and the moves table (CSV,
//! JSON Lines, Parquet, Python's Arrow), the records of `check --format
//! json`, normalised PDN, and the result fixes patched into a file.

mod json;
mod normalise;
mod patch;
mod records;
mod rows;
mod table;
mod value;

pub use normalise::{Normalise, Normalised, NotRewritable};
pub use patch::{Patch, ResultFix};
pub use records::{FileRecord, GameRecord};
pub(crate) use rows::spreadsheet_safe;
pub use rows::PlyRow;
pub use table::{Column, ColumnType, GameRow};
pub use value::Value;

#[cfg(test)]
mod tests {
    use super::patch::apply_patches;
    use super::*;
    use crate::export::normalise::normalised_pdn;

    #[test]
    fn cells_a_spreadsheet_would_evaluate_are_quoted() {
        for (cell, want) in [
            ("=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"),
            ("@SUM(1+1)", "'@SUM(1+1)"),
            ("+cmd", "'+cmd"),
            ("-2+3", "'-2+3"),
            ("\tx", "'\tx"),
            ("\rx", "'\rx"),
            ("-", "-"),
            ("-1", "-1"),
            ("+3.5", "+3.5"),
            ("2-0", "2-0"),
            ("Sijbrands, Ton", "Sijbrands, Ton"),
            ("", ""),
        ] {
            assert_eq!(spreadsheet_safe(cell), want, "{cell}");
        }
    }

    /// The normalised text of the first game of `pdn`.
    fn normalised(pdn: &[u8]) -> String {
        let g = &crate::pdn::read_all(pdn)[0];
        let r = crate::check::check_game(g, &crate::Options::default().keep_moves(true));
        normalised_pdn(g, &r, Normalise::default()).text
    }

    #[test]
    fn italian_games_are_written_in_numbers_of_the_mirrored_board() {
        // b3-a4 is 21-17 on the Italian board (on the usual one: 21-17 is a3-b4).
        let text = normalised(b"[GameType \"22\"]\n\n1. b3-a4 c6-b5 2. a4xc6 *\n");
        assert!(text.contains("1. 21-17 10-13 2. 17x10 *"), "{text}");
        // A path the record wrote is kept, in numbers.
        let text =
            normalised(b"[GameType \"22\"]\n[FEN \"W:WK26:B5,15,K22,K14,K7\"]\n1. c2xe4xc6xa8 *\n");
        assert!(text.contains("1. 26x19x10x1 *"), "{text}");
        // The usual board keeps the record's own algebraic style.
        let text = normalised(b"[GameType \"26\"]\n\n1. c3-d4 f6-e5 *\n");
        assert!(text.contains("1. c3-d4 f6-e5 *"), "{text}");
    }

    #[test]
    fn patches_apply_in_place_and_refuse_what_moved() {
        let text = b"[Result \"1-1\"]\n1. 32-28 *\n";
        let p = [
            Patch {
                offset: 9,
                old: b"1-1".to_vec(),
                new: "2-0".into(),
            },
            Patch {
                offset: 24,
                old: b"*".to_vec(),
                new: "2-0".into(),
            },
        ];
        assert_eq!(
            apply_patches(text, &p).unwrap(),
            b"[Result \"2-0\"]\n1. 32-28 2-0\n".to_vec()
        );
        let moved = [Patch {
            offset: 10,
            old: b"1-1".to_vec(),
            new: "2-0".into(),
        }];
        assert_eq!(apply_patches(text, &moved), Err(NotRewritable::Changed(10)));
    }
}
