//! A file read in pieces (`pdn::split`, as `check -j N` reads it) gives
//! exactly the games of one reader of the whole file: every corpus file, cut
//! where the splitter cuts it for several block sizes, and at random line
//! starts and random bytes.

use crate::common;

use crate::checks;

use checks::{stitched, Rng};
use pdnkit::pdn::split;
use pdnkit::pdn::{Game, Reader};
use std::path::Path;

const MAX: usize = pdnkit::pdn::DEFAULT_MAX_GAME_BYTES;

fn whole(file: &[u8], max: usize) -> Vec<Game> {
    Reader::new(file)
        .max_game_bytes(max)
        .collect::<Result<_, _>>()
        .expect("memory reads")
}

/// The splitter's cuts for blocks of `block` bytes (as the pipeline cuts).
fn splitter_cuts(file: &[u8], block: usize) -> Vec<usize> {
    let mut cuts = Vec::new();
    let mut from = 0;
    while file.len() - from > block {
        let window = &file[from..from + block];
        match split::cut(window).or_else(|| split::cut_anywhere(window)) {
            Some(at) => {
                from += at;
                cuts.push(from);
            }
            None => from += block,
        }
    }
    cuts
}

/// Random cuts: at line starts (`lines`) or anywhere but inside a line
/// break pair.
fn random_cuts(file: &[u8], rng: &mut Rng, count: usize, lines: bool) -> Vec<usize> {
    let mut cuts: Vec<usize> = (0..count)
        .filter_map(|_| {
            let at = 1 + rng.below(file.len().saturating_sub(1));
            if lines {
                split::cut_anywhere(&file[..at])
            } else {
                let pair = |a: u8, b: u8| matches!((a, b), (b'\r', b'\n') | (b'\n', b'\r'));
                (at < file.len() && !pair(file[at - 1], file[at])).then_some(at)
            }
        })
        .collect();
    cuts.sort_unstable();
    cuts.dedup();
    cuts
}

fn check_file(path: &Path, rng: &mut Rng) -> usize {
    let file = std::fs::read(path).expect("readable");
    let max = MAX;
    let expected = whole(&file, max);
    let mut tries = 0;
    for block in [64, 512, 4096, 65536] {
        let cuts = splitter_cuts(&file, block);
        for guess in [false, true] {
            let got = stitched(&file, &cuts, max, guess);
            assert_eq!(got, expected, "{} in blocks of {block}", path.display());
        }
        tries += 1;
    }
    for lines in [true, false] {
        for _ in 0..3 {
            let cuts = random_cuts(&file, rng, 1 + file.len() / 2000, lines);
            let got = stitched(&file, &cuts, max, lines);
            assert_eq!(got, expected, "{} cut at {cuts:?}", path.display());
            tries += 1;
        }
    }
    tries
}

#[test]
fn pieces_of_this_repository_files_read_as_the_whole_file() {
    let files = common::repository_pdn_files();
    assert!(files.len() > 20, "the repository's own files are found");
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for f in &files {
        check_file(f, &mut rng);
    }
}

#[test]
fn pieces_of_the_real_corpus_read_as_the_whole_file() {
    let Some(real) = common::shared("corpus/real") else {
        return;
    };
    let mut files = Vec::new();
    files.extend(common::pdn_files(&real));
    assert!(!files.is_empty());
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for f in &files {
        check_file(f, &mut rng);
    }
}

#[test]
fn a_small_game_limit_and_odd_files_read_as_the_whole_file() {
    let cases: Vec<Vec<u8>> = vec![
        b"\xEF\xBB\xBF[Event \"a\"]\r\n1. 32-28 *\r\n\r\n[Event \"b\"]\r\n1. 33-29 *\r\n".to_vec(),
        b"[Event \"a\"]\n1. 32-28 {a comment\n\n[Event \"b\"]\n} 1-0\n\n[Event \"c\"]\n1. 31-27 *\n".to_vec(),
        b"1. 32-28 \\r\\n 1-0\n\n[Event \"b\"]\n1. 33-29 \\r\\n *\n\n[E \"c\"]\n1. 34-30 \\r\\n *\n".to_vec(),
        b"[Event \"caf\xe9\"]\n1. 32-28 *\n\n[Event \"b\"]\n1. 33-29 *\n\n[Event \"\xe0\"]\n1. 31-27 *\n".to_vec(),
        b"[Event \"a\"]\n1. 32-28\n[Event \"b\"]\n1. 33-29\n\n\n[Event \"c\"]\n(1. 34-30\n\n[Event \"d\"]\n*".to_vec(),
        b"\n\n\r\n\r[Event \"a\"]\n\r1. 32-28 *\n\r\n\r[Event \"b\"]\n\r*\n\r".to_vec(),
    ];
    let mut rng = Rng(7);
    for (i, file) in cases.iter().enumerate() {
        for max in [8, 40, MAX] {
            let expected = whole(file, max);
            for _ in 0..200 {
                let n = 1 + rng.below(6);
                for lines in [true, false] {
                    let cuts = random_cuts(file, &mut rng, n, lines);
                    for guess in [false, true] {
                        let got = stitched(file, &cuts, max, guess);
                        assert_eq!(got, expected, "case {i}, max {max}, cuts {cuts:?}");
                    }
                }
            }
        }
    }
}
