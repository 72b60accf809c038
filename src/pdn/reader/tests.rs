//! Unit tests of the reader: per grammar production, per tolerated form, and
//! the buffer refills.
use crate::diag::Code;
use crate::pdn::{read_all, Game, Locator, Node, Outcome, Sep, SquareText};

fn one(text: &str) -> Game {
    let games = read_all(text.as_bytes());
    assert_eq!(games.len(), 1, "{text:?} gave {} games", games.len());
    games.into_iter().next().unwrap()
}

fn codes(g: &Game) -> Vec<&'static str> {
    g.diagnostics.iter().map(|d| d.code.as_str()).collect()
}

fn moves(g: &Game) -> Vec<String> {
    g.main_line()
        .map(|m| String::from_utf8_lossy(g.bytes(&m.span)).into_owned())
        .collect()
}

#[test]
fn tags_with_escapes_padding_and_several_per_line() {
    let g = one("[Event     \"x \\\"y\\\" \\\\ z\"] [White \"A\"][Black \"B\"]\n1. 32-28 *");
    assert_eq!(g.tag("Event").as_deref(), Some("x \"y\" \\ z"));
    assert_eq!(g.tag("white").as_deref(), Some("A"));
    assert_eq!(g.tag("Black").as_deref(), Some("B"));
    assert!(codes(&g).is_empty(), "{:?}", g.diagnostics);
    let g = one("[White \"This is a string with an escaped character \\\"\"] 32-28");
    assert_eq!(
        g.tag("White").as_deref(),
        Some("This is a string with an escaped character \"")
    );
    assert_eq!(moves(&g), vec!["32-28"]);
}

#[test]
fn move_numbers_and_forms() {
    let g = one("1. 32-28 19-23 2... 28x19 3. ... 14x23 01. 06-11 12.1- 6 4. 32 - 28 5. c3-d4 C3xE5 c3:e5 a3b4 28x19x10 *");
    assert_eq!(
        moves(&g),
        vec![
            "32-28", "19-23", "28x19", "14x23", "06-11", "1- 6", "32 - 28", "c3-d4", "C3xE5",
            "c3:e5", "a3b4", "28x19x10"
        ]
    );
    let ms: Vec<_> = g.main_line().collect();
    assert_eq!(ms[2].sep, Sep::Capture);
    assert_eq!(ms[9].sep, Sep::Colon);
    assert_eq!(ms[10].sep, Sep::None);
    assert_eq!(
        g.squares(ms[7]),
        &[
            SquareText::Alg { file: 2, rank: 3 },
            SquareText::Alg { file: 3, rank: 4 }
        ]
    );
    assert_eq!(ms[11].squares.len(), 3);
    assert_eq!(g.squares(ms[11]).len(), 3);
    assert!(codes(&g).is_empty(), "{:?}", g.diagnostics);
    // Squares up to 72 (12x12).
    let g = one("1. 72-66 *");
    assert_eq!(
        g.squares(g.main_line().next().unwrap())[0],
        SquareText::Num(72)
    );
}

#[test]
fn strengths_and_nags() {
    let g = one("1.32-28!? 19-23(!?!!!) 2.28x19 $14 (?) 3. 33-29?? *");
    assert_eq!(moves(&g), vec!["32-28", "19-23", "28x19", "33-29"]);
    assert!(g.nodes.iter().any(|n| matches!(n, Node::Nag(14, _))));
    assert!(
        !g.nodes.iter().any(|n| matches!(n, Node::Open(_))),
        "(!?!!!) is not a variation"
    );
}

#[test]
fn comments_hold_anything() {
    let g = one("1. 32-28 {a [bracket] 1-0 and [%clock w0:04:58 B0:05:00]} 19-23 ; to end of line 2-0\n2. 28x19 *");
    assert_eq!(moves(&g), vec!["32-28", "19-23", "28x19"]);
    let comments: Vec<String> = g
        .nodes
        .iter()
        .filter_map(|n| {
            if let Node::Comment(s) = n {
                Some(g.decode(s).into_owned())
            } else {
                None
            }
        })
        .collect();
    assert_eq!(
        comments[0],
        "a [bracket] 1-0 and [%clock w0:04:58 B0:05:00]"
    );
    assert_eq!(comments[1], " to end of line 2-0");
    assert_eq!(g.result.as_ref().map(|r| r.0), Some(Outcome::Unknown));
}

#[test]
fn percent_lines_are_skipped() {
    let g = one("% Board game: International Draughts 10x10\r\n[Event \"e\"]\r\n1. 32-28 *");
    assert_eq!(g.tag("Event").as_deref(), Some("e"));
    assert!(codes(&g).is_empty());
}

#[test]
fn deep_variations_do_not_recurse() {
    let depth = 100_000;
    let text = format!(
        "1. 32-28 {} 19-23 {} *",
        "(".repeat(depth),
        ")".repeat(depth)
    );
    let g = one(&text);
    assert_eq!(
        g.nodes
            .iter()
            .filter(|n| matches!(n, Node::Open(_)))
            .count(),
        depth
    );
    assert_eq!(moves(&g), vec!["32-28"]);
    assert!(codes(&g).is_empty());
}

#[test]
fn variations_nested() {
    let g = one("32-28 19-23 (18-23 38-32 (37-32? 23-29! { Black wins }) 12-18) 28x19 14x23");
    assert_eq!(moves(&g), vec!["32-28", "19-23", "28x19", "14x23"]);
    assert_eq!(
        g.nodes
            .iter()
            .filter(|n| matches!(n, Node::Move(_)))
            .count(),
        9
    );
}

#[test]
fn setup_in_movetext() {
    let g = one("/W:W31-50:B1-20/ 1. 32-28 *");
    assert!(matches!(&g.nodes[0], Node::Setup(s) if g.decode(s) == "W:W31-50:B1-20"));
}

#[test]
fn a_setup_without_its_closing_slash_is_judged_by_its_line_alone() {
    let message = |g: &Game| {
        g.diagnostics
            .iter()
            .find(|d| d.code == Code::Syntax)
            .map(|d| d.message.to_string())
    };
    // A `/` further on (in a later game, near or beyond what the reader has
    // in its buffer) does not change the finding.
    for filler in [0usize, 300_000] {
        let mut text = b"[Event \"a\"]\n1. 32-28 /W:W31\n\n".to_vec();
        while text.len() < filler {
            text.extend_from_slice(b"[Event \"b\"]\n1. 32-28 *\n\n");
        }
        text.extend_from_slice(b"[Event \"c\"]\n1. 32-28 19-23 1/2-1/2\n");
        let games = read_all(&text);
        assert_eq!(
            message(&games[0]).as_deref(),
            Some("setup `/` with no closing `/` on its line: `/W:W31` (skipped to the next game)"),
            "a `/` {} bytes on",
            text.len()
        );
    }
    // The input ends on the setup's line.
    let g = one("1. 32-28 /W:W31");
    assert_eq!(
        message(&g).as_deref(),
        Some("setup `/` with no closing `/`: `/W:W31` (skipped to the next game)")
    );
}

#[test]
fn results_and_separators() {
    for (tok, o) in [
        ("2-0", Outcome::WhiteWins),
        ("0-2", Outcome::BlackWins),
        ("1-1", Outcome::Draw),
        ("1-0", Outcome::WhiteWins),
        ("0-1", Outcome::BlackWins),
        ("1/2-1/2", Outcome::Draw),
        ("0-0", Outcome::BothLose),
        ("*", Outcome::Unknown),
    ] {
        let g = one(&format!("1. 32-28 {tok}"));
        assert_eq!(g.result.as_ref().map(|r| r.0), Some(o), "{tok}");
    }
    // `1-1` followed by a digit is a move.
    let g = one("1. 1-10 2-0");
    assert_eq!(moves(&g), vec!["1-10"]);
    // Games separated by results, by `*`, by new tags.
    let games =
        read_all(b"1. 32-28 2-0 1. 33-29 * [Event \"a\"] 1. 31-27 [Event \"b\"] 1. 34-30 1-1");
    assert_eq!(games.len(), 4);
    assert_eq!(games[3].tag("Event").as_deref(), Some("b"));
    assert_eq!(codes(&games[2]), vec!["nonstandard"]);
}

#[test]
fn bytes_line_endings_and_bom() {
    let games = read_all(b"\xEF\xBB\xBF[Event \"a\"]\r\n1. 32-28 *\r[Event \"b\"]\r1. 33-29\n\n*\n[Event \"c\"]\n1. 34-30 x");
    assert_eq!(games.len(), 3);
    assert_eq!(games[0].tag("Event").as_deref(), Some("a"));
    assert_eq!(games[1].line, 2);
    let m = games[1].main_line().next().unwrap().span.clone();
    assert_eq!(games[1].location(m.start), (4, 4));
    // A syntax error is located and the next game still read.
    let d = &games[2].diagnostics[0];
    assert_eq!(d.code, Code::Syntax);
    assert_eq!(games[2].location(d.span.start), (8, 10));
}

#[test]
fn literal_backslash_r_is_dropped_with_one_warning() {
    let games = read_all(
        b"[Event \"a\"]\\r\n[Site \"\"]\\r\n1. 32-28 *\\r\n[Event \"b\"]\\r\n1. 33-29 *\\r\n",
    );
    assert_eq!(games.len(), 2);
    assert_eq!(codes(&games[0]), vec!["nonstandard"]);
    assert!(codes(&games[1]).is_empty());
}

#[test]
fn tolerated_forms_each_get_a_warning() {
    // Tag without a value, stray `[`, tag missing its `[`.
    let g = one("[Empty]\n[\n[[Event \"x\"]\nSite \"y\"]\n1. 32-28 *");
    assert_eq!(g.tag("Event").as_deref(), Some("x"));
    assert_eq!(g.tag("Site").as_deref(), Some("y"));
    assert_eq!(codes(&g), vec!["nonstandard"; 4]);
    // Entity-coded names.
    let g = one("[&#x00c9;v&#x00e9;nement \"F\"]\n[Type de jeu \"20\"]\n*");
    assert_eq!(g.tag("Événement").as_deref(), Some("F"));
    assert_eq!(g.tag("Type de jeu").as_deref(), Some("20"));
    // Placeholders, number + result, dangling number, stray dot.
    let g = one("1. - - 2. - - 1-1");
    assert_eq!(codes(&g), vec!["nonstandard"]);
    assert_eq!(g.main_line().count(), 0);
    let g = one("[Result \"0-2\"]\n1. 0-2");
    assert_eq!(codes(&g), vec!["nonstandard"]);
    assert_eq!(g.result.as_ref().map(|r| r.0), Some(Outcome::BlackWins));
    let g = one("1. 32-28 19-23 2. 28x19 3. 8-3 . 1-0");
    assert_eq!(codes(&g), vec!["nonstandard"]);
    let games = read_all(b"1. 32-28 19-23 6.\n\n[Event \"n\"] 1. 33-29 *");
    assert_eq!(games.len(), 2);
    assert_eq!(codes(&games[0]), vec!["nonstandard", "nonstandard"]);
    // Nested braces, glued text.
    let g = one("{ nested { comment } } 1. 32-28 *");
    assert_eq!(codes(&g), vec!["nonstandard"]);
    let g = one("1. 8-11Redoversteppedthetimecontrolonthismove. 2-0");
    assert_eq!(moves(&g), vec!["8-11"]);
    assert_eq!(codes(&g), vec!["nonstandard"]);
}

#[test]
fn unterminated_things_are_reported_where_they_open() {
    let games = read_all(b"[Event \"a\"]\n1. 32-28 {never closed 19-23\n[Event \"b\"]\n1. 33-29 *");
    assert_eq!(games.len(), 2);
    assert_eq!(codes(&games[0]), vec!["unterminated-comment"]);
    assert_eq!(
        games[0].location(games[0].diagnostics[0].span.start),
        (2, 10)
    );
    assert_eq!(games[1].tag("Event").as_deref(), Some("b"));
    let g = one("1. 32-28 (19-23 (28-22 2-0");
    assert_eq!(
        codes(&g),
        vec!["syntax", "unterminated-variation", "unterminated-variation"]
    );
    let g = one("1. 32-28 {open");
    assert_eq!(codes(&g), vec!["unterminated-comment"]);
}

#[test]
fn header_only_games_and_tags_repeated() {
    let games =
        read_all(b"[Event \"a\"]\n[FEN \"W:W31:B1\"]\n[Event \"b\"]\n[FEN \"W:W32:B2\"]\n*");
    assert_eq!(games.len(), 2);
    assert_eq!(games[1].tag("FEN").as_deref(), Some("W:W32:B2"));
}

#[test]
fn streaming_over_small_reads_gives_the_same_games() {
    struct Trickle<'a>(&'a [u8]);
    impl std::io::Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.0.len().min(buf.len()).min(7);
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }
    let mut text = String::new();
    for i in 0..3000 {
        text.push_str(&format!(
            "[Event \"g{i}\"]\n1. 32-28 {{c}} 19-23 (18-23) 1-1{}\n",
            if i % 2 == 0 { "0" } else { "" }
        ));
    }
    let all = read_all(text.as_bytes());
    let mut r = crate::pdn::Reader::new(Trickle(text.as_bytes()));
    let mut n = 0;
    while let Some(g) = r.next_game().unwrap() {
        assert_eq!(g.tag("Event"), all[n].tag("Event"));
        assert_eq!(g.nodes, all[n].nodes);
        assert_eq!(g.line, all[n].line);
        n += 1;
    }
    assert_eq!(n, all.len());
}

#[test]
fn movetext_nodes_stay_small() {
    // Every move of every game is one node: its size is memory traffic
    // between the reader and the replay threads.
    assert_eq!(std::mem::size_of::<SquareText>(), 4);
    assert!(
        std::mem::size_of::<Node>() <= 48,
        "{}",
        std::mem::size_of::<Node>()
    );
    // No heap data in a node: a game's nodes are freed without walking them.
    assert!(!std::mem::needs_drop::<Node>());
}

#[test]
fn a_move_of_very_many_squares() {
    // 70,000 squares in one written move (no legal move has more than a few
    // dozen): the move keeps them all, its span covers them, and the next move
    // still follows.
    let mut text = String::from("1. 1");
    for _ in 0..69_999 {
        text.push_str("-2");
    }
    text.push_str(" 9-13 *");
    let g = one(&text);
    let ms: Vec<_> = g.main_line().collect();
    assert_eq!(ms.len(), 2);
    assert_eq!(ms[0].squares.len(), 70_000);
    assert_eq!(g.squares(ms[0]).len(), 70_000);
    assert_eq!(g.squares(ms[0])[1], SquareText::Num(2));
    assert_eq!(ms[0].span, 3..3 + 1 + 2 * 69_999);
    assert_eq!(g.squares(ms[1]), &[SquareText::Num(9), SquareText::Num(13)]);
}

#[test]
fn snippets_never_panic_and_caret_stays_under_the_span() {
    // Every span of every short text made of a few interesting bytes.
    let alphabet: [&[u8]; 6] = [b"a", b" ", b"\n", b"\r", "é".as_bytes(), b"\x1b"];
    let mut texts: Vec<Vec<u8>> = vec![Vec::new()];
    for _ in 0..5 {
        let mut next = Vec::new();
        for t in &texts {
            for a in alphabet {
                let mut u = t.clone();
                u.extend_from_slice(a);
                next.push(u);
            }
        }
        texts = next;
    }
    for text in &texts {
        let mut g = one("[Event \"x\"]\n1. 32-28 *\n");
        g.text = text.clone();
        for a in 0..=text.len() {
            for b in a..=text.len() + 1 {
                for width in [1, 3, 100] {
                    let s = g.snippet(&(a..b), width);
                    let chars = s.text.chars().count();
                    assert!(s.caret.start < s.caret.end);
                    // The caret stands under text whenever there is text.
                    assert!(
                        chars == 0 || s.caret.end <= chars,
                        "{text:?} {a}..{b}: {s:?}"
                    );
                    assert!(!s.text.contains('\x1b') && !s.text.contains('\n'));
                }
            }
        }
    }
}

#[test]
fn locator_agrees_with_location_and_counts_line_ends_once() {
    let text = b"[A \"1\"]\r\n[B \"2\"]\n\r1. 32-28\r\r2. 28-23\n\n*";
    let mut g = one("[Event \"x\"]\n1. 32-28 *\n");
    g.text = text.to_vec();
    g.line = 1;
    g.column0 = 0;
    let mut loc = Locator::new(&g);
    for i in 0..text.len() {
        assert_eq!(loc.locate(i), g.location(i), "offset {i}");
    }
    // CRLF and LFCR are one line end each; CR CR is two; LF LF two.
    assert_eq!(g.location(text.len() - 1).0, 7);
}

#[test]
fn a_skipped_game_ends_at_the_next_tags_wherever_the_buffer_is_cut() {
    // The next game's `[` right after a line break, placed around the points
    // where the reader refills its buffer while streaming past a long game.
    for target in [65536usize, 131072, 196608] {
        for shift in 0..8 {
            let mut text = b"[GameType \"20\"]\n".to_vec();
            let brk = target - 4 + shift;
            while text.len() < brk {
                text.extend_from_slice(b"32-28 ");
            }
            text.truncate(brk);
            text.extend_from_slice(b"\n[Event \"next\"]\n1. 32-28 *\n");
            let games: Vec<Game> = crate::pdn::Reader::new(text.as_slice())
                .max_game_bytes(1000)
                .collect::<Result<_, _>>()
                .unwrap();
            assert_eq!(games.len(), 2, "line break at {brk}");
            assert_eq!(
                games[1].tag("Event").as_deref(),
                Some("next"),
                "line break at {brk}"
            );
        }
    }
}

/// Reads `text` through a reader that hands out at most `chunk` bytes at a
/// time (so buffer refills fall everywhere), with a game-size limit.
fn read_chunked(text: &[u8], chunk: usize, limit: usize) -> Vec<Game> {
    struct Chunks<'a>(&'a [u8], usize);
    impl std::io::Read for Chunks<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.0.len().min(buf.len()).min(self.1);
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }
    crate::pdn::Reader::new(Chunks(text, chunk))
        .max_game_bytes(limit)
        .collect::<Result<_, _>>()
        .unwrap()
}

#[test]
fn an_over_limit_game_is_one_skipped_game_numbered_as_it_is() {
    // Three games; the first (tags on four lines) is `size` bytes long.
    let first = "[Event \"a\"]\n[White \"x\"]\n[Black \"y\"]\n[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 *";
    let size = first.len();
    let text = format!(
        "{first}\n\n[Event \"b\"]\n[GameType \"20\"]\n1. 32-28 *\n\n[Event \"c\"]\n1. 32-28 *\n"
    );
    for limit in [1, 10, 12, 13, 40, size - 1, size, size + 1, 1000] {
        for chunk in [1, 2, 3, 7, 64, 1 << 20] {
            let games = read_chunked(text.as_bytes(), chunk, limit);
            let events: Vec<Option<String>> = games.iter().map(|g| g.tag("Event")).collect();
            let too_large: Vec<usize> = games
                .iter()
                .filter(|g| g.diagnostics.iter().any(|d| d.code == Code::GameTooLarge))
                .map(|g| g.index)
                .collect();
            let at = format!("limit {limit}, reads of {chunk} bytes");
            assert_eq!(games.len(), 3, "{at}: {events:?}");
            assert_eq!(
                games.iter().map(|g| g.index).collect::<Vec<_>>(),
                [1, 2, 3],
                "{at}"
            );
            if limit >= 40 {
                // Games b and c fit: read whole.
                assert_eq!(events[1..], [Some("b".into()), Some("c".into())], "{at}");
            } else {
                assert_eq!(too_large, [1, 2, 3], "{at}");
            }
            if limit < size {
                assert!(too_large.contains(&1), "{at}: {too_large:?}");
                let message = &games[0].diagnostics[0].message;
                assert!(
                    message.starts_with(&format!("a game of {size} bytes")),
                    "{at}: {message}"
                );
            } else {
                assert!(too_large.is_empty(), "{at}: {too_large:?}");
            }
        }
    }
}
