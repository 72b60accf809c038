//! `pdnkit select PATH...`: the games the selection options choose, written
//! byte for byte as they stand in their source (or as normalised PDN), one
//! blank line between games; with `--unique`, one game of each group of
//! identical games (and, `--unique=prefixes`, none that is the start of
//! another). The counts go to standard error.

use crate::common::{InputArgs, SelectArgs, TagSelectArgs};
use crate::output::{Out, Stop};
use pdnkit::batch::Input;
use pdnkit::batch::Sink;
use pdnkit::dupes::Finder;
use pdnkit::export::Normalise;
use pdnkit::pdn::Game;
use pdnkit::replay::GameReport;
use pdnkit::select::Selection;
use std::ops::ControlFlow;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    select: SelectArgs,
    #[command(flatten)]
    tag_select: TagSelectArgs,
    /// Write to FILE (atomically, only after a complete run) instead of
    /// standard output.
    #[arg(short = 'o', long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Write normalised PDN (moves in their shortest form, tags one per
    /// line) instead of each game as it stands.
    #[arg(long)]
    normalise: bool,
    /// Keep one game of each group of copies (same start, same moves, same
    /// White, Black and Round); `prefixes` also drops games that are the
    /// start of another of the same players and Round.
    #[arg(long, value_enum, num_args = 0..=1, require_equals = true, default_missing_value = "games", value_name = "WHAT")]
    unique: Option<Unique>,
    /// Which copy --unique keeps: the first in input order (the default), or
    /// the one with the most tags and plies (the first of those on a tie).
    /// Copies whose results differ are all kept unless --keep is given.
    #[arg(long, value_enum, requires = "unique")]
    keep: Option<Keep>,
    /// With --unique=prefixes: shortest game dropped as the start of another.
    #[arg(long, default_value_t = 10, value_name = "PLIES")]
    min_plies: u32,
    /// Exit 1 when a selected game has an error finding.
    #[arg(long)]
    strict: bool,
    /// List every file on standard error, also those that gave no game
    /// (by default only the files that gave games, and the total).
    #[arg(short = 'v', long)]
    verbose: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Unique {
    /// One game of each group of identical games.
    Games,
    /// And no game that is the start of another.
    Prefixes,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Keep {
    First,
    MostComplete,
}

/// Per file: games read and games selected.
#[derive(Default)]
struct Counts {
    files: Vec<(String, u64, u64)>,
}

impl Counts {
    fn game(&mut self, file: &str, selected: bool) {
        if self.files.last().is_none_or(|(f, _, _)| f != file) {
            self.files.push((file.to_string(), 0, 0));
        }
        if let Some(last) = self.files.last_mut() {
            last.1 += 1;
            last.2 += u64::from(selected);
        }
    }
    /// The files that gave games (every file with `verbose`), then the total.
    fn report(&self, verbose: bool) {
        let (mut read, mut selected) = (0, 0);
        for (file, r, s) in &self.files {
            if verbose || *s > 0 {
                eprintln!("{}: {s} of {r} games selected", crate::render::name(file));
            }
            read += r;
            selected += s;
        }
        let n = self.files.len();
        eprintln!(
            "selected {selected} of {read} games in {n} {}",
            if n == 1 { "file" } else { "files" }
        );
    }
}

/// The first pass of `--unique`: per game, whether the selection keeps it,
/// its fingerprint and how complete it is.
struct Survey<'a> {
    selection: &'a Selection,
    finder: Finder,
    /// Per game in input order: how complete it is (tags and plies).
    games: Vec<u32>,
    /// Per game in input order: its result (computed where the rules
    /// decided it, else declared): a byte a game.
    results: Vec<pdnkit::pdn::Outcome>,
}

impl Sink for Survey<'_> {
    type Error = Stop;
    fn game(&mut self, _file: &str, g: &Game, r: &GameReport) -> ControlFlow<Stop> {
        let selected = self.selection.matches(g, r);
        self.finder.add(g, selected.then_some(r));
        let result = match r.computed {
            pdnkit::pdn::Outcome::Unknown => r.declared.unwrap_or(pdnkit::pdn::Outcome::Unknown),
            c => c,
        };
        self.results.push(result);
        let complete = (g.tags().len() as u64 + u64::from(r.plies)).min(u64::from(u32::MAX));
        self.games.push(complete as u32);
        ControlFlow::Continue(())
    }
    fn file_done(&mut self, _file: &str, _findings: &[pdnkit::diag::FileDiagnostic]) {}
    fn file_skipped(&mut self, _file: &str, _why: &str) {}
}

impl Survey<'_> {
    /// The games (by input order) that `--unique` drops: a flag a game;
    /// and the groups of copies whose results differ, kept whole (without
    /// `--keep`).
    fn dropped(
        &mut self,
        unique: Unique,
        keep: Option<Keep>,
    ) -> std::io::Result<(Vec<bool>, usize)> {
        let found = self.finder.find()?;
        let mut out = vec![false; self.games.len()];
        let mut whole = 0;
        for group in &found.groups {
            let agree = group
                .iter()
                .all(|&i| self.results[i] == self.results[group[0]]);
            if !agree && keep.is_none() {
                whole += 1;
                continue;
            }
            let kept = match keep.unwrap_or(Keep::First) {
                Keep::First => group.first().copied(),
                Keep::MostComplete => group
                    .iter()
                    .copied()
                    .max_by_key(|&i| (self.games[i], std::cmp::Reverse(i))),
            };
            for &i in group.iter().filter(|&&i| Some(i) != kept) {
                out[i] = true;
            }
        }
        if unique == Unique::Prefixes {
            for &(a, _) in &found.prefixes {
                out[a] = true;
            }
        }
        Ok((out, whole))
    }
}

/// The second pass: writes the chosen games.
struct Writer<'a> {
    selection: &'a Selection,
    /// Games `--unique` drops, by input order.
    dropped: Vec<bool>,
    index: usize,
    normalise: bool,
    out: Out,
    counts: Counts,
    errors: u64,
    first: bool,
    /// Games of several files go into the output: games not in UTF-8 are
    /// written transcoded to UTF-8, so that the output has one encoding.
    merged: bool,
    /// The encodings of the games written (by name), and how many were transcoded.
    encodings: std::collections::BTreeSet<&'static str>,
    transcoded: u64,
    /// Games read as UTF-8 whose bytes were not all UTF-8, written with U+FFFD.
    not_utf8: u64,
    /// The terminator the last game written lacks, written before the next
    /// game if that one has no tags (it would run into it); and how many were.
    pending_terminator: Option<(String, &'static [u8])>,
    terminators_added: u64,
}

/// The terminator a game needs to stay apart from a next game without tags:
/// its Result tag's value when that is a result, else `*`; `None` when it
/// ends with one.
fn missing_terminator(g: &Game) -> Option<String> {
    if g.result().is_some() {
        return None;
    }
    let tag = g
        .tag("Result")
        .map(|t| t.trim().to_string())
        .filter(|t| pdnkit::pdn::Outcome::parse(t).is_some());
    Some(tag.unwrap_or_else(|| "*".to_string()))
}

/// The game's own bytes: its text without the space before and after it
/// (nor a byte-order mark), and the line break it uses.
fn own_bytes(g: &Game) -> (&[u8], &'static [u8]) {
    let mut t = g.text();
    t = t.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(t);
    let start = t
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(t.len());
    let end = t
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(start, |e| e + 1);
    let t = &t[start..end.max(start)];
    let eol: &[u8] = if memchr_crlf(t) { b"\r\n" } else { b"\n" };
    (t, eol)
}

fn memchr_crlf(t: &[u8]) -> bool {
    t.windows(2).any(|w| w == b"\r\n")
}

impl Sink for Writer<'_> {
    type Error = Stop;
    fn file_done(&mut self, _file: &str, _findings: &[pdnkit::diag::FileDiagnostic]) {}
    /// The games read before a break are written (issue 55); the run
    /// still fails (exit 2), as every file error does.
    fn game(&mut self, file: &str, g: &Game, r: &GameReport) -> ControlFlow<Stop> {
        let i = self.index;
        self.index += 1;
        let mut chosen =
            self.selection.matches(g, r) && !self.dropped.get(i).copied().unwrap_or(false);
        if chosen && g.is_cut() {
            // A fragment: the games before it are written (issue 55).
            eprintln!("{}", crate::common::cut_game_note(file, g));
            chosen = false;
        }
        self.counts.game(file, chosen);
        if !chosen {
            return ControlFlow::Continue(());
        }
        if r.verdict() == Some(false) {
            self.errors += 1;
        }
        // The last game lacked a terminator and this one has no tags: they
        // would read back as one game.
        let mut text: Vec<u8> = match self.pending_terminator.take() {
            Some((t, eol)) if g.tags().is_empty() => {
                self.terminators_added += 1;
                [t.as_bytes(), eol].concat()
            }
            _ => Vec::new(),
        };
        if self.normalise {
            let normal = Normalise {
                merged: true,
                ..Normalise::default()
            }
            .apply(g, r)
            .text;
            self.encodings.insert("UTF-8");
            if !self.first {
                text.push(b'\n');
            }
            text.extend_from_slice(normal.trim_end().as_bytes());
            text.push(b'\n');
        } else {
            let (bytes, eol) = own_bytes(g);
            let bytes = self.one_encoding(g, r, bytes);
            self.pending_terminator = missing_terminator(g).map(|t| (t, eol));
            if !self.first {
                text.extend_from_slice(eol);
            }
            text.extend_from_slice(&bytes);
            text.extend_from_slice(eol);
        }
        self.first = false;
        self.out.put(&text)
    }
}

impl Writer<'_> {
    /// The game's bytes as written: with the variant its file decided
    /// marked (a selection is a new context), and in one encoding per
    /// output (games not in UTF-8 transcoded when games of several files
    /// are written).
    fn one_encoding<'g>(
        &mut self,
        g: &'g Game,
        r: &GameReport,
        bytes: &'g [u8],
    ) -> std::borrow::Cow<'g, [u8]> {
        let bytes = r.marked(g, bytes);
        let encoding = g.encoding();
        match encoding {
            pdnkit::pdn::TextEncoding::Legacy(_) if self.merged && !bytes.is_ascii() => {
                self.transcoded += 1;
                self.encodings.insert(encoding.name());
                std::borrow::Cow::Owned(encoding.decode(&bytes).into_owned().into_bytes())
            }
            // Read as UTF-8 but not valid UTF-8 (a letter lost in a
            // source): in an output written as UTF-8 the bad bytes are
            // U+FFFD, so that every reader of UTF-8 reads it (issue 54).
            pdnkit::pdn::TextEncoding::Utf8
                if self.merged && std::str::from_utf8(&bytes).is_err() =>
            {
                self.not_utf8 += 1;
                self.encodings.insert(encoding.name());
                std::borrow::Cow::Owned(String::from_utf8_lossy(&bytes).into_owned().into_bytes())
            }
            _ => {
                if !bytes.is_ascii() {
                    self.encodings.insert(encoding.name());
                }
                bytes
            }
        }
    }
}

pub fn run(a: Args) -> u8 {
    let selection = match a.select.selection(&a.tag_select.tag, &a.input) {
        Ok(s) => s,
        Err(why) => return crate::exit::fail(why),
    };
    let keep_moves = a.normalise || a.unique.is_some() || selection.needs_moves();
    let prepared = match a.input.prepare(keep_moves) {
        Ok(p) => p,
        Err(code) => return code,
    };
    if a.unique.is_some() {
        if let Err(why) = readable_twice(prepared.inputs()) {
            return crate::exit::fail(why);
        }
    }
    // --unique: a first pass finds the copies among the selected games.
    let dropped = match a.unique {
        None => Vec::new(),
        Some(unique) => match first_pass(&a, &prepared, &selection, unique) {
            Ok(d) => d,
            Err(code) => return code,
        },
    };
    let out = match crate::output::open_output(a.output.as_deref(), prepared.inputs(), "") {
        Ok(o) => o,
        Err(why) => return crate::exit::fail(why),
    };
    let mut w = Writer {
        selection: &selection,
        dropped,
        index: 0,
        normalise: a.normalise,
        out,
        counts: Counts::default(),
        errors: 0,
        first: true,
        merged: pdnkit::batch::merged(prepared.inputs()),
        encodings: std::collections::BTreeSet::new(),
        transcoded: 0,
        not_utf8: 0,
        pending_terminator: None,
        terminators_added: 0,
    };
    let done = prepared.run(!a.input.no_progress, &mut w);
    w.counts.report(a.verbose);
    w.notes();
    // An input read up to a break does not stop the output (its games
    // before the break are written); the run fails (exit 2) all the same.
    let done = done.map(|info| {
        let complete = info.completed && prepared.all_read(&info);
        if complete && info.unreadable > 0 {
            eprintln!(
                "{}",
                crate::common::read_errors_note(info.unreadable as u64)
            );
        }
        complete
    });
    let answer = u8::from(a.strict && w.errors > 0);
    crate::output::conclude(w.out, done, a.output.is_some());
    answer
}

/// `--unique` reads the games twice: standard input, a pipe, a FIFO or a
/// device gives its bytes once (the second pass would find nothing and
/// write "selected 0 of 0 games", issue 54: every game lost, or wait
/// forever).
fn readable_twice(inputs: &[Input]) -> Result<(), String> {
    if inputs.iter().any(|i| matches!(i, Input::Stdin)) {
        return Err(
            "--unique reads the games twice (once to find the copies, once to write): name files, not standard input".into(),
        );
    }
    for i in inputs {
        let (Input::File(p) | Input::Member(p, _)) = i else {
            continue;
        };
        if let Some(what) = read_once(p) {
            return Err(format!(
                "{}: is {what}: --unique reads the games twice (once to find the copies, once to write); save it to a file first",
                crate::render::path(p)
            ));
        }
    }
    Ok(())
}

/// `--unique`'s first pass: the games (by input order) to drop. Nothing
/// when the pass failed (the second pass reports what went wrong).
fn first_pass(
    a: &Args,
    prepared: &crate::common::Prepared,
    selection: &pdnkit::select::Selection,
    unique: Unique,
) -> Result<Vec<bool>, u8> {
    let mut survey = Survey {
        selection,
        finder: Finder::new(a.min_plies).same_players(true),
        games: Vec::new(),
        results: Vec::new(),
    };
    match prepared.run_first_pass(!a.input.no_progress, &mut survey) {
        Ok(info) if info.completed && !prepared.failed(&info) => {}
        _ => return Ok(Vec::new()),
    }
    match survey.dropped(unique, a.keep) {
        Ok((d, 0)) => Ok(d),
        Ok((d, whole)) => {
            eprintln!(
                "{whole} {} of copies whose results differ kept whole (--keep first|most-complete keeps one)",
                if whole == 1 { "group" } else { "groups" }
            );
            Ok(d)
        }
        Err(e) => Err(crate::exit::fail(format!("the temporary file: {e}"))),
    }
}

impl Writer<'_> {
    /// What the output did to the games' text, said on standard error.
    fn notes(&self) {
        if self.not_utf8 > 0 {
            eprintln!(
                "pdnkit: {} {} bytes that were not UTF-8: written as U+FFFD",
                self.not_utf8,
                if self.not_utf8 == 1 {
                    "game had"
                } else {
                    "games had"
                }
            );
        }
        if self.transcoded > 0 {
            eprintln!(
                "pdnkit: games from {} encodings written as UTF-8 ({} {} transcoded from {})",
                self.encodings.len().max(2),
                self.transcoded,
                if self.transcoded == 1 {
                    "game"
                } else {
                    "games"
                },
                self.encodings
                    .iter()
                    .filter(|e| **e != "UTF-8")
                    .copied()
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        if self.terminators_added > 0 {
            eprintln!(
                "pdnkit: {} {} given a terminator so that {} apart from the next (it had none, and the next has no tags)",
                self.terminators_added,
                if self.terminators_added == 1 { "game" } else { "games" },
                if self.terminators_added == 1 { "it stays" } else { "they stay" }
            );
        }
    }
}

/// What `p` is when it can be read only once (a pipe or FIFO, a character
/// device, a socket), following links (`/dev/stdin`, `/dev/fd/N`).
fn read_once(p: &std::path::Path) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    let t = std::fs::metadata(p).ok()?.file_type();
    if t.is_fifo() {
        Some("a pipe or FIFO")
    } else if t.is_char_device() {
        Some("a character device")
    } else if t.is_socket() {
        Some("a socket")
    } else {
        None
    }
}
