//! The visitor interface: the games it builds equal the reader's, callbacks
//! come in the written order, and what is skipped is left out.

use crate::common;

use pdnkit::pdn::visit::{GameBuilder, Keep, MoveView, Skip, Visitor};
use pdnkit::pdn::{Game, Node, Outcome, Reader, TagValue};
use std::path::PathBuf;

fn read(bytes: &[u8]) -> Vec<Game> {
    Reader::new(bytes).map(|g| g.expect("in memory")).collect()
}

fn built(bytes: &[u8], keep: Keep) -> Vec<Option<Game>> {
    let mut b = GameBuilder::new(keep);
    let mut r = Reader::new(bytes);
    let games: Vec<_> = r
        .games_with(&mut b)
        .map(|g| g.expect("in memory"))
        .collect();
    games
}

fn corpus_files() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    files.extend(common::pdn_files(&root.join("corpus")));
    files.extend(common::pdn_files(&root.join("tests/data")));
    if let Some(real) = common::shared("corpus/real") {
        files.extend(common::pdn_files(&real));
    }
    files
}

/// The least a count must reach: over the real archives when they are here,
/// over this repository's own files otherwise (a fresh clone).
fn at_least(with_shared: usize, alone: usize) -> usize {
    let here = common::shared_root().join("corpus/real");
    if here.exists() {
        with_shared
    } else {
        alone
    }
}

#[test]
fn built_games_equal_the_readers_games() {
    let mut games = 0;
    for f in corpus_files() {
        let bytes = std::fs::read(&f).expect("readable");
        let direct = read(&bytes);
        let via: Vec<Game> = built(&bytes, Keep::default())
            .into_iter()
            .map(|g| g.expect("nothing filtered"))
            .collect();
        assert_eq!(direct.len(), via.len(), "{}", f.display());
        for (a, b) in direct.iter().zip(&via) {
            if a != b {
                let fields = [
                    ("text", a.text() == b.text()),
                    ("tags", a.tags() == b.tags()),
                    ("nodes", a.nodes() == b.nodes()),
                    ("result", a.result() == b.result()),
                    ("findings", a.diagnostics() == b.diagnostics()),
                    ("encoding", a.encoding() == b.encoding()),
                    (
                        "place",
                        (a.index(), a.offset(), a.line()) == (b.index(), b.offset(), b.line()),
                    ),
                ];
                panic!("{} game {}: {fields:?}", f.display(), a.index());
            }
        }
        games += direct.len();
    }
    let least = at_least(5000, 150);
    assert!(games > least, "{games} games, fewer than {least}");
}

#[test]
fn left_out_comments_and_variations_leave_the_main_line() {
    let mut checked = 0;
    for f in corpus_files() {
        let bytes = std::fs::read(&f).expect("readable");
        let keep = Keep {
            comments: false,
            variations: false,
        };
        for (full, lean) in read(&bytes).iter().zip(built(&bytes, keep)) {
            let lean = lean.expect("nothing filtered");
            let main: Vec<_> = full.main_line().map(|m| full.squares(m).to_vec()).collect();
            let kept: Vec<_> = lean.main_line().map(|m| lean.squares(m).to_vec()).collect();
            assert_eq!(main, kept, "{} game {}", f.display(), full.index());
            assert!(!lean
                .nodes()
                .iter()
                .any(|n| matches!(n, Node::Comment(_) | Node::Open(_) | Node::Close(_))));
            assert_eq!(
                (&lean.tags(), &lean.result()),
                (&full.tags(), &full.result())
            );
            checked += usize::from(lean.nodes().len() < full.nodes().len());
        }
    }
    let least = at_least(100, 3);
    assert!(
        checked > least,
        "{checked} games lost something, fewer than {least}"
    );
}

/// Writes every callback as a line.
#[derive(Default)]
struct Log {
    lines: Vec<String>,
    skip_games_of: Option<&'static str>,
    skip_variations: bool,
    event: String,
}

impl Visitor for Log {
    type Output = ();
    fn begin_game(&mut self) {
        self.lines.push("begin".into());
        self.event.clear();
    }
    fn tag(&mut self, name: &str, value: TagValue<'_>) {
        if name == "Event" {
            self.event = value.text().into_owned();
        }
        self.lines.push(format!("tag {name}={}", value.text()));
    }
    fn end_tags(&mut self) -> Skip {
        let skip = self.skip_games_of == Some(self.event.as_str());
        self.lines.push(format!("end_tags skip={skip}"));
        Skip(skip)
    }
    fn written_move(&mut self, m: MoveView<'_>) {
        let strength = String::from_utf8_lossy(m.strength);
        let text = String::from_utf8_lossy(m.text);
        self.lines.push(format!(
            "move {text}{strength} {:?} {}sq",
            m.mv.number(),
            m.squares.len()
        ));
    }
    fn unknown_move(&mut self) {
        self.lines.push("unknown".into());
    }
    fn nag(&mut self, nag: u32) {
        self.lines.push(format!("nag {nag}"));
    }
    fn comment(&mut self, text: &[u8]) {
        self.lines
            .push(format!("comment {}", String::from_utf8_lossy(text)));
    }
    fn setup(&mut self, fen: &[u8]) {
        self.lines
            .push(format!("setup {}", String::from_utf8_lossy(fen)));
    }
    fn escape(&mut self, line: &[u8]) {
        self.lines
            .push(format!("escape {}", String::from_utf8_lossy(line)));
    }
    fn begin_variation(&mut self) -> Skip {
        self.lines
            .push(format!("begin_variation skip={}", self.skip_variations));
        Skip(self.skip_variations)
    }
    fn end_variation(&mut self) {
        self.lines.push("end_variation".into());
    }
    fn outcome(&mut self, o: Option<Outcome>) {
        self.lines.push(format!("outcome {o:?}"));
    }
    fn diagnostic(&mut self, d: &pdnkit::diag::Diagnostic) {
        self.lines.push(format!("finding {}", d.code));
    }
    fn end_game(&mut self) {
        self.lines.push("end".into());
    }
}

const GAMES: &[u8] = b"[Event \"A \\\"x\\\"\"]\n[Site \"s\"]\n%escape line\n\
1. 32-28! $3 {c1} (1. 33-28 (1... 18-23) 19-24) 19-23?! ; rest\n2. - /W:W28:B19/ 1-0\n\n\
[Event \"B\"]\n1. 31-27 (1. 32-27) 1/2-1/2\n";

fn log(skip_games_of: Option<&'static str>, skip_variations: bool) -> Vec<String> {
    let mut v = Log {
        skip_games_of,
        skip_variations,
        ..Log::default()
    };
    let mut r = Reader::new(GAMES);
    while r.read_game(&mut v).expect("in memory").is_some() {}
    v.lines
}

/// The callbacks both logs end the first game and start the second with.
const FIRST_GAME_END: [&str; 3] = ["outcome Some(WhiteWins)", "finding nonstandard", "end"];
const SECOND_GAME_START: [&str; 4] = [
    "begin",
    "tag Event=B",
    "end_tags skip=false",
    "move 31-27 Some((1, false)) 2sq",
];

fn concat(parts: &[&[&'static str]]) -> Vec<&'static str> {
    parts.iter().flat_map(|p| p.iter().copied()).collect()
}

#[test]
fn callbacks_come_in_written_order() {
    let first = [
        "begin",
        "tag Event=A \"x\"",
        "tag Site=s",
        "end_tags skip=false",
        "escape %escape line",
        "move 32-28! Some((1, false)) 2sq",
        "nag 3",
        "comment c1",
        "begin_variation skip=false",
        "move 33-28 Some((1, false)) 2sq",
        "begin_variation skip=false",
        "move 18-23 Some((1, true)) 2sq",
        "end_variation",
        "move 19-24 None 2sq",
        "end_variation",
        "move 19-23?! None 2sq",
        "comment  rest",
        "unknown",
        "setup W:W28:B19",
    ];
    let second_rest = [
        "begin_variation skip=false",
        "move 32-27 Some((1, false)) 2sq",
        "end_variation",
        "outcome Some(Draw)",
        "end",
    ];
    let expected = concat(&[&first, &FIRST_GAME_END, &SECOND_GAME_START, &second_rest]);
    assert_eq!(log(None, false), expected);
}

#[test]
fn skipped_games_and_variations_get_no_callbacks() {
    let first = [
        "begin",
        "tag Event=A \"x\"",
        "tag Site=s",
        "end_tags skip=true",
    ];
    let second_rest = ["begin_variation skip=true", "outcome Some(Draw)", "end"];
    let expected = concat(&[&first, &FIRST_GAME_END, &SECOND_GAME_START, &second_rest]);
    assert_eq!(log(Some("A \"x\""), true), expected);
}

#[test]
fn a_filter_builds_only_the_games_it_keeps() {
    let mut b = GameBuilder::new(Keep::default())
        .filter(|tags| tags.iter().any(|(n, v)| n == "Event" && v == "B"));
    let mut r = Reader::new(GAMES);
    let out: Vec<Option<Game>> = r
        .games_with(&mut b)
        .map(|g| g.expect("in memory"))
        .collect();
    let all = read(GAMES);
    assert_eq!(out.len(), 2);
    assert!(out[0].is_none());
    assert!(out[1].as_ref() == Some(&all[1]));
}

#[test]
fn a_game_too_large_is_visited_with_its_finding() {
    let mut text = b"[Event \"big\"]\n1. ".to_vec();
    for _ in 0..2000 {
        text.extend_from_slice(b"32-28 28-32 ");
    }
    text.extend_from_slice(b"*\n\n[Event \"B\"]\n1. 31-27 *\n");
    let mut v = Log::default();
    let mut r = Reader::new(&text[..]).max_game_bytes(1000);
    while r.read_game(&mut v).expect("in memory").is_some() {}
    assert_eq!(
        v.lines,
        [
            "begin",
            "end_tags skip=false",
            "outcome None",
            "finding game-too-large",
            "end",
            "begin",
            "tag Event=B",
            "end_tags skip=false",
            "move 31-27 Some((1, false)) 2sq",
            "outcome Some(Unknown)",
            "end",
        ]
    );
}
