//! A file checked the way `pdnkit check` checks it: its games replayed under
//! their variants, the variant of its untagged games decided once for the
//! file, and the findings about the file as a whole.
//!
//! A game's own GameType decides its variant. The games without one take one
//! decision per file ([`crate::infer`]): the variant the user named
//! ([`Options::variant`]), else what the file's evidence gives. An inferred
//! guess must explain the games: when more than half of the untagged games
//! with moves among the file's first megabyte have a move error
//! under it, the file is refused. Its untagged games are then not checked
//! (never valid, never invalid), and one `unknown-variant` error for the file
//! gives the counts and names the implemented variants, if any, that replay
//! them all: a hint, never applied.
//!
//! [`FileCheck`] does it all in order on one thread:
//!
//! ```
//! use pdnkit::check::FileCheck;
//! use pdnkit::pdn::Reader;
//! use pdnkit::replay::Options;
//! let text = b"[Event \"a\"]\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 *\n";
//! let opts = Options::default();
//! let mut file = FileCheck::new(&opts);
//! let mut checked = Vec::new();
//! for game in Reader::new(&text[..]) {
//!     checked.extend(file.push(game.unwrap()));
//! }
//! let (rest, findings) = file.finish();
//! checked.extend(rest);
//! assert!(checked[0].report.valid());
//! // The file's finding: the variant inferred for the game without a GameType.
//! assert_eq!(findings[0].code.as_str(), "variant-inferred");
//! ```
//!
//! A program that checks files on several threads uses the pipeline
//! (`pdnkit::batch`, feature `batch`), which does the same per file with the
//! two halves of this module kept inside the crate: one on the reading side
//! hands out games with their file's decision (the games it replays to
//! decide are replayed on the pipeline's pool, and their reports kept, so no
//! game is replayed twice), one on the output side counts the reports and
//! gives the file's findings.

use crate::diag::{Code, FileDiagnostic, Severity};
use crate::infer::{named_for, Asked, FileName, Inference, Untagged, VariantSource};
use crate::pdn::{Game, Reader};
use crate::replay::{check_game_with, GameReport, Options};
use crate::variant::{GameKind, Unsupported, Variant};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The games of a file read before the variant of its untagged games is
/// decided: the whole file up to this much game text (docs/limits.md).
pub(crate) const EVIDENCE_BYTES: usize = 1 << 20;

/// Whether a report has an error about a move of the main line.
fn has_move_error(r: &GameReport) -> bool {
    r.diagnostics
        .iter()
        .any(|d| d.severity == Severity::Error && d.ply.is_some())
}

/// Replays games under a decision and options: the caller's way (a thread
/// pool) or in turn. The decision replays with the rules' own verdicts
/// (default levels), whatever `-A/-W/-D` say (issue 55).
pub(crate) type Checker<'o> =
    Box<dyn Fn(&[&Game], &Inference, &Options) -> Vec<GameReport> + Send + 'o>;

/// A game whose file's decision is made, ready to be checked (its report may
/// already be there, from the replay that made the decision).
#[derive(Debug)]
pub(crate) struct Pending {
    game: Game,
    inference: Arc<Inference>,
    /// Boxed: most games have none, and a pending game stays small.
    report: Option<Box<GameReport>>,
}

impl Pending {
    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }
    /// The game's report: the one made while deciding, or a replay now.
    pub fn check(&mut self, opts: &Options) -> GameReport {
        match self.report.take() {
            Some(r) => *r,
            None => check_game_with(&self.game, opts, &self.inference),
        }
    }
    /// The game, given back.
    pub fn into_game(self) -> Game {
        self.game
    }
}

/// The games [`Decider::push`] makes ready, in order: an iterator.
#[derive(Debug)]
pub(crate) enum Ready {
    /// No game, or one (the usual case once the file's decision is made).
    One(Option<Pending>),
    /// The games held until the decision, released at once.
    Many(std::vec::IntoIter<Pending>),
}

impl Iterator for Ready {
    type Item = Pending;
    fn next(&mut self) -> Option<Pending> {
        match self {
            Ready::One(p) => p.take(),
            Ready::Many(it) => it.next(),
        }
    }
}

/// The reading side of a file's check: holds the file's first games until
/// the variant of its untagged games is decided, then hands out every game
/// with that decision.
pub(crate) struct Decider<'o> {
    opts: &'o Options,
    name: Option<FileName>,
    held: Vec<Game>,
    held_bytes: usize,
    decided: Option<Arc<Inference>>,
    checker: Checker<'o>,
}

impl<'o> Decider<'o> {
    /// A decider for one file, replaying what it needs in turn.
    pub fn new(opts: &'o Options) -> Decider<'o> {
        Decider::for_file(opts, None)
    }
    /// A decider for the file `name` (its path for `--variant 'GLOB=NAME'`
    /// and for the option a refusal suggests; its words are evidence).
    pub fn for_file(opts: &'o Options, name: Option<FileName>) -> Decider<'o> {
        let sequential: Checker<'o> =
            Box::new(move |games: &[&Game], inference: &Inference, o: &Options| {
                games
                    .iter()
                    .map(|g| check_game_with(g, o, inference))
                    .collect()
            });
        // Read only (`syntax_only`): nothing is decided for untagged games,
        // so none is held and no evidence is gathered. A variant named with
        // `--variant` waits for the file's board (it applies only where it fits).
        let decided = match opts.force_variant {
            Some(v) => Some(Arc::new(Inference::named(v))),
            None if opts.syntax_only => Some(Arc::new(Inference::default_brazilian())),
            None => None,
        };
        Decider {
            opts,
            name,
            held: Vec::new(),
            held_bytes: 0,
            decided,
            checker: sequential,
        }
    }
    /// Replays the games the decision needs with `checker` (one report per
    /// game, in order), for example on a thread pool (the pipeline's).
    #[cfg(feature = "batch")]
    pub fn with_checker(mut self, checker: Checker<'o>) -> Decider<'o> {
        self.checker = checker;
        self
    }
    /// Adds the file's next game; returns the games now ready, in order
    /// (none while the first games are held).
    pub fn push(&mut self, g: Game) -> Ready {
        if let Some(inference) = &self.decided {
            return Ready::One(Some(Pending {
                game: g,
                inference: Arc::clone(inference),
                report: None,
            }));
        }
        self.held_bytes += g.text().len();
        self.held.push(g);
        if self.held_bytes < EVIDENCE_BYTES {
            return Ready::One(None);
        }
        Ready::Many(self.release().into_iter())
    }
    /// The end of the file: the games still held, and the file's decision.
    pub fn finish(mut self) -> (Vec<Pending>, Arc<Inference>) {
        let rest = if self.decided.is_none() {
            self.release()
        } else {
            Vec::new()
        };
        let inference = self
            .decided
            .unwrap_or_else(|| Arc::new(Inference::default_brazilian()));
        (rest, inference)
    }
    fn release(&mut self) -> Vec<Pending> {
        let held = std::mem::take(&mut self.held);
        let (inference, mut reports) = decide(&held, self.opts, &self.checker, self.name.as_ref());
        let inference = Arc::new(inference);
        self.decided = Some(Arc::clone(&inference));
        held.into_iter()
            .enumerate()
            .map(|(i, game)| Pending {
                game,
                inference: Arc::clone(&inference),
                report: reports.get_mut(i).and_then(Option::take).map(Box::new),
            })
            .collect()
    }
}

/// The file check's replay, as the decision's trial asks for it: the
/// checker, with the rules' own severities (issue 55).
struct Trial<'c, 'o> {
    checker: &'c Checker<'o>,
    raw: Options,
}

impl crate::infer::Replay for Trial<'_, '_> {
    type Report = GameReport;
    fn replay(&self, games: &[&Game], under: &Inference) -> Vec<GameReport> {
        (self.checker)(games, under, &self.raw)
    }
    fn fails(r: &GameReport) -> bool {
        has_move_error(r)
    }
}

/// PDN-REAL-WORLD.md 8.2, on the file's first `games` (those its variant
/// is decided on), after its variant is decided: a file whose every game
/// with moves stops at ply 1 read upright (its first move fits no legal
/// move), and whose those games read turned all get past ply 1, at least
/// half of them to their end with no move error, names its squares from
/// the other side. The games that stopped, and those that replayed whole.
/// Cheap on every other file: it ends at the first game whose first move
/// fits.
fn turned_file(games: &[Game], inference: &Inference, trial: &Trial<'_, '_>) -> Option<(u32, u32)> {
    let mut stopped: Vec<&Game> = Vec::new();
    for g in games {
        match crate::replay::first_move_fits(g, &trial.raw, inference) {
            Some(true) => return None,
            Some(false) => stopped.push(g),
            None => {}
        }
    }
    if stopped.is_empty() {
        return None;
    }
    let turned = Inference {
        turned: Some((0, 0)),
        ..inference.clone()
    };
    let reports = (trial.checker)(&stopped, &turned, &trial.raw);
    let past_first = reports.iter().all(|r| {
        r.checked
            && r.plies >= 1
            && !r
                .diagnostics
                .iter()
                .any(|d| d.severity == Severity::Error && d.ply == Some(1))
    });
    let whole = reports.iter().filter(|r| !has_move_error(r)).count();
    (past_first && whole * 2 >= stopped.len()).then_some((stopped.len() as u32, whole as u32))
}

/// The decision for a file's untagged games from its first games
/// ([`crate::infer::decide`]), and the reports of those replayed to make it
/// (by index in `games`), with the user's levels.
fn decide(
    games: &[Game],
    opts: &Options,
    checker: &Checker<'_>,
    name: Option<&FileName>,
) -> (Inference, Vec<Option<GameReport>>) {
    let asked = Asked {
        named: named_for(&opts.variants, name.map(|n| n.path.as_str()))
            .or(opts.variant.map(|v| (Some(v), false)))
            .and_then(|(v, by_glob)| v.map(|v| (v, by_glob))),
        syntax_only: opts.syntax_only,
        name,
    };
    let trial = Trial {
        checker,
        raw: Options {
            levels: crate::diag::Levels::default(),
            ..opts.clone()
        },
    };
    let (mut inference, mut kept) = crate::infer::decide(games, asked, &trial);
    // Never where the decision itself is in doubt (a named variant the
    // file's evidence contradicts): the games' trouble is their variant,
    // and turning never stands in for another variant (PDN-REAL-WORLD.md 8.2).
    if !opts.strict_dialects && !opts.syntax_only && inference.note.is_none() {
        if let Some(turned) = turned_file(games, &inference, &trial) {
            inference.turned = Some(turned);
            // Replayed upright to decide the variant: the pipeline replays
            // them turned.
            kept.clear();
        }
    }
    let mut out: Vec<Option<GameReport>> = Vec::new();
    if !kept.is_empty() {
        out.resize_with(games.len(), || None);
        for (i, mut r) in kept {
            opts.levels.apply(&mut r.diagnostics);
            out[i] = Some(r);
        }
    }
    (inference, out)
}

/// The fewest games with moves for which a file is said not to follow its
/// inferred variant beyond the games that decided it (below that, each
/// game's own findings say enough).
const NET_MIN_GAMES: u32 = 3;

/// The output side of a file's check: counts what the reports say, for the
/// findings about the whole file.
#[derive(Clone, Debug, Default)]
pub(crate) struct FileTally {
    /// Untagged games that took the file's decision, and where the first one starts.
    untagged: u32,
    first_untagged: Option<(u32, u32)>,
    /// Untagged games with moves checked under the inferred variant, and those with a move error.
    inferred_with_moves: u32,
    inferred_move_errors: u32,
    /// Games per unsupported variant, and where the first one says so.
    unsupported: BTreeMap<Unsupported, (u32, (u32, u32))>,
    /// Games a merged output marked refused or undecided in their source
    /// (and with no GameType of their own): how many, and where the first is.
    marked: BTreeMap<bool, (u32, (u32, u32))>,
    /// What the games show of their producers' dialects.
    dialects: crate::replay::Dialects,
}

impl FileTally {
    /// Adds one game and its report.
    pub fn add(&mut self, g: &Game, r: &GameReport) {
        self.dialects.add(g, r);
        if r.inferred {
            self.untagged += 1;
            // The line of its first tag or move, not of the blank lines before it.
            self.first_untagged.get_or_insert((g.start_line(), 1));
            if r.checked && g.main_line().next().is_some() {
                self.inferred_with_moves += 1;
                if has_move_error(r) {
                    self.inferred_move_errors += 1;
                }
            }
        }
        // Marked refused or undecided by the output it was written from: not
        // checked here either, and said for the file as its source said it
        // (issue 55: a merged output read back as "not checked, 0 errors").
        if !r.inferred
            && !r.checked
            && matches!(r.source, VariantSource::Refused | VariantSource::Undecided)
        {
            let refused = r.source == VariantSource::Refused;
            self.marked
                .entry(refused)
                .or_insert((0, (g.start_line(), 1)))
                .0 += 1;
        }
        if let Some(GameKind::Unsupported(u)) = r.kind {
            let at = g
                .find_tag("GameType")
                .map_or((g.start_line(), 1), |t| g.location(t.span.start));
            self.unsupported.entry(u).or_insert((0, at)).0 += 1;
        }
    }

    /// The findings about the file, in line order: the variant inferred for
    /// its untagged games, a refusal, games of unsupported variants, and the
    /// warning for a file whose later games mostly fail under the inferred
    /// variant. The levels of `opts` apply; a read-only run (`syntax_only`)
    /// has none.
    pub fn finish(&self, inference: &Inference, opts: &Options) -> Vec<FileDiagnostic> {
        let mut out = if opts.syntax_only {
            Vec::new()
        } else {
            self.findings(inference)
        };
        // A producer's dialect, said once per file and dialect (issue 66).
        if !opts.strict_dialects {
            out.extend(self.dialects.findings(!opts.syntax_only, inference.turned));
            out.sort_by_key(|d| (d.line, d.column));
        }
        opts.levels.apply_file(&mut out);
        out
    }

    fn findings(&self, inference: &Inference) -> Vec<FileDiagnostic> {
        let at = self.first_untagged.unwrap_or((1, 1));
        let mut out = Vec::new();
        out.extend(self.untagged_finding(inference).map(|f| f.at(at)));
        if let Some(note) = &inference.note {
            out.push(Finding(Code::VariantInferred, Severity::Warning, note.clone()).at(at));
        }
        out.extend(self.marked_findings());
        out.extend(self.unsupported_findings());
        out.extend(self.failing_finding(inference).map(|f| f.at(at)));
        // In the order of the file (a stable sort: findings about one place
        // keep the order above).
        out.sort_by_key(|d| (d.line, d.column));
        out
    }

    /// What became of the file's untagged games.
    fn untagged_finding(&self, inference: &Inference) -> Option<Finding> {
        let n = self.untagged;
        if n == 0 {
            return None;
        }
        let (games, why) = (plural(n), &inference.evidence);
        Some(match inference.untagged {
            Untagged::Variant(v) => Finding(
                Code::VariantInferred,
                Severity::Warning,
                format!("{n} {games} without a GameType tag read as {v}: {why} (use --variant to choose)"),
            ),
            Untagged::Unsupported(u) => Finding(
                Code::VariantInferred,
                Severity::Warning,
                format!("{n} {games} without a GameType tag read as {}: {why}", u.describe()),
            ),
            Untagged::NotChecked => Finding(
                Code::UnknownVariant,
                Severity::Error,
                format!("{n} {games} without a GameType tag not checked: {why}"),
            ),
            Untagged::Undecided => Finding(
                Code::VariantInferred,
                Severity::Warning,
                format!("{n} {games} without a GameType tag not checked: {why}; name it with --variant"),
            ),
        })
    }

    /// The games a merged output marks as refused or undecided by their source.
    fn marked_findings(&self) -> impl Iterator<Item = FileDiagnostic> + '_ {
        self.marked.iter().rev().map(|(&refused, &(n, loc))| {
            let (code, severity, why) = if refused {
                (
                    Code::UnknownVariant,
                    Severity::Error,
                    "refused: the variant their source's evidence gave did not explain their moves",
                )
            } else {
                (
                    Code::VariantInferred,
                    Severity::Warning,
                    "undecided: no moves and no evidence of their variant",
                )
            };
            Finding(
                code,
                severity,
                format!(
                    "{n} {} marked {why}, by the check of the files {} merged from (its {} tag): not checked; name the variant with --variant, or give {} a GameType",
                    plural(n),
                    if n == 1 { "it was" } else { "they were" },
                    crate::pdn::MARKER_TAG,
                    if n == 1 { "it" } else { "them" }
                ),
            )
            .at(loc)
        })
    }

    /// The games of variants pdnkit names but does not check.
    fn unsupported_findings(&self) -> impl Iterator<Item = FileDiagnostic> + '_ {
        self.unsupported.iter().map(|(u, &(n, loc))| {
            Finding(
                Code::UnsupportedVariant,
                Severity::Warning,
                format!(
                    "{n} {} of {} (GameType {}): not checked — pdnkit checks {}",
                    plural(n),
                    u.describe(),
                    u.0,
                    Variant::ALL.map(Variant::name).join(", ")
                ),
            )
            .at(loc)
        })
    }

    /// An inferred variant under which most of the file's games fail.
    fn failing_finding(&self, inference: &Inference) -> Option<Finding> {
        let (Untagged::Variant(v), VariantSource::Inferred | VariantSource::File) =
            (inference.untagged, inference.source)
        else {
            return None;
        };
        let (e, m) = (self.inferred_move_errors, self.inferred_with_moves);
        (m >= NET_MIN_GAMES && e * 2 > m).then(|| {
            Finding(
                Code::VariantInferred,
                Severity::Warning,
                format!(
                    "{e} of the {m} games with moves have a move error under {v}, which was inferred ({}): they may be of another variant; name it with --variant",
                    inference.evidence
                ),
            )
        })
    }
}

/// `game` or `games`.
fn plural(n: u32) -> &'static str {
    if n == 1 {
        "game"
    } else {
        "games"
    }
}

/// A finding about a file before its place is known.
struct Finding(Code, Severity, String);

impl Finding {
    /// The finding at (line, column).
    fn at(self, (line, column): (u32, u32)) -> FileDiagnostic {
        FileDiagnostic {
            code: self.0,
            severity: self.1,
            message: self.2,
            line,
            column,
        }
    }
}

/// A game with its report.
#[derive(Clone, Debug)]
pub struct CheckedGame {
    /// The game as read.
    pub game: Game,
    /// What the check says of it.
    pub report: GameReport,
}

/// A whole file checked in order on the calling thread: push its games, then
/// [`FileCheck::finish`] it (see the module's example).
pub struct FileCheck<'o> {
    opts: &'o Options,
    decider: Decider<'o>,
    tally: FileTally,
}

impl<'o> FileCheck<'o> {
    /// The check of one file.
    pub fn new(opts: &'o Options) -> FileCheck<'o> {
        FileCheck::for_file(opts, None)
    }
    /// The check of the file at `path` (as printed), found under the PATH
    /// `root` (`path` itself when it was named alone): the words of its
    /// folders below `root` and of its name are evidence of its variant,
    /// `--variant 'GLOB=NAME'` ([`Options::variants`]) is matched against
    /// `path`, and a refusal names the option for it.
    pub fn named(opts: &'o Options, path: &str, root: &str) -> FileCheck<'o> {
        FileCheck::for_file(opts, Some(FileName::new(path, root)))
    }
    pub(crate) fn for_file(opts: &'o Options, name: Option<FileName>) -> FileCheck<'o> {
        FileCheck {
            opts,
            decider: Decider::for_file(opts, name),
            tally: FileTally::default(),
        }
    }
    /// Adds the file's next game; returns the games checked by now, in order
    /// (none while the file's first games are held to decide its variant).
    pub fn push(&mut self, g: Game) -> Vec<CheckedGame> {
        let ready = self.decider.push(g);
        self.checked(ready)
    }
    /// The games still held, checked, and the findings about the file.
    pub fn finish(mut self) -> (Vec<CheckedGame>, Vec<FileDiagnostic>) {
        let decider = std::mem::replace(&mut self.decider, Decider::new(self.opts));
        let (rest, inference) = decider.finish();
        let rest = self.checked(rest.into_iter());
        let findings = self.tally.finish(&inference, self.opts);
        (rest, findings)
    }
    fn checked(&mut self, ready: impl Iterator<Item = Pending>) -> Vec<CheckedGame> {
        ready
            .map(|mut p| {
                let report = p.check(self.opts);
                self.tally.add(p.game(), &report);
                CheckedGame {
                    game: p.into_game(),
                    report,
                }
            })
            .collect()
    }
}

/// A source checked as one file by [`check_file`].
#[derive(Debug)]
pub struct CheckedFile {
    /// Every game read, with its report, in order.
    pub games: Vec<CheckedGame>,
    /// The findings about the file, in line order.
    pub findings: Vec<FileDiagnostic>,
    /// Why the source was not read to its end: a read error (the games
    /// before it are in `games`, checked), or a source that is not PDN text
    /// (compressed, an archive, binary: nothing is read; the pipeline,
    /// `pdnkit::batch` with feature `batch`, decodes the first two).
    pub error: Option<std::io::Error>,
}

/// Every game of a PDN text checked as one file on the calling thread, and
/// the findings about the file, as `pdnkit check` checks it (games are kept
/// in memory: for large inputs push them into a [`FileCheck`] one by one, or
/// run `pdnkit::batch::Batch` (feature `batch`), which reads paths, folders, archives and
/// compressed streams in parallel, as the command line does).
pub fn check_file(src: impl std::io::Read, opts: &Options) -> CheckedFile {
    FileCheck::new(opts).read(src)
}

impl FileCheck<'_> {
    /// Reads `src` to its end as this file: every game read, checked, and
    /// the findings about the file ([`check_file`] for a file with a name,
    /// from [`FileCheck::named`]). A read error ends the file; the games
    /// before it are kept.
    pub fn read(self, src: impl std::io::Read) -> CheckedFile {
        read_file(self, src)
    }
}

fn read_file(mut file: FileCheck<'_>, src: impl std::io::Read) -> CheckedFile {
    use std::io::Read as _;
    let opts = file.opts;
    let mut src = std::io::BufReader::new(src);
    let mut head = Vec::with_capacity(crate::pdn::sniff::BINARY_PROBE);
    // A read error here ends the text after the bytes read before it.
    let head_error = (&mut src)
        .take(crate::pdn::sniff::BINARY_PROBE as u64)
        .read_to_end(&mut head)
        .err();
    let not_pdn = crate::pdn::sniff::packed(&head)
        .map(|what| format!("{what}: not read as PDN (pdnkit::batch, feature `batch`, decodes it)"))
        .or_else(|| crate::pdn::sniff::not_text(&head));
    if let Some(why) = not_pdn {
        return CheckedFile {
            games: Vec::new(),
            findings: Vec::new(),
            error: Some(std::io::Error::new(std::io::ErrorKind::InvalidData, why)),
        };
    }
    let rest = if head_error.is_some() { 0 } else { u64::MAX };
    // An error in the first bytes comes after them, to the reader as to the
    // source: the game it cuts is marked.
    let after_head = Then(head_error);
    let mut reader = Reader::new(
        std::io::Cursor::new(head)
            .chain(after_head)
            .chain(src.take(rest)),
    )
    .error_ends_input()
    .max_game_bytes(
        opts.max_game_bytes
            .unwrap_or(crate::pdn::DEFAULT_MAX_GAME_BYTES),
    );
    let mut games = Vec::new();
    let error = loop {
        match reader.next_game() {
            Ok(Some(mut g)) => {
                if reader.at_break() {
                    g.cut_by_break();
                }
                games.extend(file.push(g));
            }
            Ok(None) => break None,
            // The games before the break are kept, as the command line keeps them.
            Err(e) => break Some(e),
        }
    };
    let (rest, findings) = file.finish();
    games.extend(rest);
    CheckedFile {
        games,
        findings,
        error,
    }
}

/// No bytes, then the error it holds (once), else the end.
struct Then(Option<std::io::Error>);

impl std::io::Read for Then {
    fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
        match self.0.take() {
            Some(e) => Err(e),
            None => Ok(0),
        }
    }
}

/// Checks one game as a file of its own, the way `pdnkit check` checks a
/// file that holds only this game: without a GameType its variant is
/// inferred from the game, and refused when it does not explain its moves.
pub fn check_game(g: &Game, opts: &Options) -> GameReport {
    if let Some(v) = opts.force_variant {
        return check_game_with(g, opts, &Inference::named(v));
    }
    let checker = Decider::new(opts).checker;
    let (inference, mut reports) = decide(std::slice::from_ref(g), opts, &checker, None);
    match reports.pop().flatten() {
        Some(r) => r,
        None => check_game_with(g, opts, &inference),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::infer::NamedVariant;
    use crate::pdn::read_all;

    fn run(text: &str, opts: &Options) -> (Vec<CheckedGame>, Vec<FileDiagnostic>) {
        let checked = check_file(text.as_bytes(), opts);
        assert!(checked.error.is_none(), "{:?}", checked.error);
        (checked.games, checked.findings)
    }

    /// Bytes, then a read error.
    struct Broken<'a>(&'a [u8]);
    impl std::io::Read for Broken<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.0.is_empty() {
                return Err(std::io::Error::other("the disk went away"));
            }
            let n = buf.len().min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn a_read_error_keeps_the_games_before_it() {
        let game = "[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n";
        let text = game.repeat(3);
        let checked = check_file(Broken(text.as_bytes()), &Options::default());
        assert_eq!(checked.games.len(), 3);
        assert!(checked.games.iter().all(|c| c.report.valid()));
        let e = checked.error.expect("the read error is kept");
        assert_eq!(e.to_string(), "the disk went away");
    }

    #[test]
    fn a_game_cut_by_a_read_error_is_not_valid() {
        // Issue 55: the game the break falls in was counted valid.
        let game = "[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n";
        let text = format!("{game}{game}[GameType \"20\"]\n1. 32-28 19-23 2. 28x19");
        let checked = check_file(Broken(text.as_bytes()), &Options::default());
        assert_eq!(checked.games.len(), 3);
        assert!(checked.games[..2].iter().all(|c| c.report.valid()));
        let cut = &checked.games[2].report;
        assert!(!cut.valid());
        assert!(cut
            .diagnostics
            .iter()
            .any(|d| d.code == Code::Syntax && d.message.contains("the input broke off")));
        // Whole, the same text's last game is valid (no result is no fault).
        let whole = check_file(text.as_bytes(), &Options::default());
        assert!(whole.games[2].report.valid());
    }

    #[test]
    fn compressed_archived_and_binary_sources_are_refused_not_read_as_pdn() {
        let gzip = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, b'x', b'y'];
        let zip = b"PK\x03\x04rest of a zip".to_vec();
        let binary = [0u8; 100];
        for (bytes, what) in [
            (&gzip[..], "gzip compressed"),
            (&zip[..], "a zip archive"),
            (&binary[..], "binary file"),
        ] {
            let checked = check_file(bytes, &Options::default());
            assert!(checked.games.is_empty() && checked.findings.is_empty());
            let e = checked.error.expect("refused");
            assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
            assert!(e.to_string().starts_with(what), "{e}");
        }
        // UTF-16 text has NUL bytes and is text.
        let wide: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain(
                "[GameType \"20\"]\n1. 32-28 *\n"
                    .encode_utf16()
                    .flat_map(u16::to_le_bytes),
            )
            .collect();
        let checked = check_file(&wide[..], &Options::default());
        assert!(checked.error.is_none());
        assert_eq!(checked.games.len(), 1);
    }

    #[test]
    fn a_guess_that_explains_the_games_is_kept() {
        let (games, findings) = run(
            "[Event \"a\"]\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 *\n",
            &Options::default(),
        );
        assert!(games[0].report.valid());
        assert_eq!(games[0].report.source, VariantSource::Inferred);
        assert_eq!(findings.len(), 1);
        assert_eq!(findings[0].code, Code::VariantInferred);
    }

    #[test]
    fn a_guess_most_games_fail_under_is_refused_with_a_hint() {
        // Two untagged games written in international squares up to 32:
        // read as brazilian (the 8x8 default) both fail at once.
        let text = "[E \"1\"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n[E \"2\"]\n1. 31-27 19-23 *\n";
        let (games, findings) = run(text, &Options::default());
        assert!(games
            .iter()
            .all(|g| !g.report.checked && g.report.source == VariantSource::Refused));
        assert!(games.iter().all(|g| g.report.verdict().is_none()));
        assert_eq!(findings.len(), 1);
        assert_eq!(findings[0].code, Code::UnknownVariant);
        assert!(
            findings[0]
                .message
                .contains("2 of 2 games with moves fail under brazilian, the default"),
            "{}",
            findings[0].message
        );
        assert!(
            findings[0]
                .message
                .contains("all 2 are legal under international"),
            "{}",
            findings[0].message
        );
        // Named, the variant applies; the tally says nothing about inference.
        let named = Options {
            variant: Some(Variant::International),
            ..Options::default()
        };
        assert!(findings[0].message.contains("--variant international"));
        let (games, findings) = run(text, &named);
        assert!(games.iter().all(|g| g.report.valid()));
        assert!(findings.is_empty());
    }

    fn run_named(
        text: &str,
        opts: &Options,
        path: &str,
    ) -> (Vec<CheckedGame>, Vec<FileDiagnostic>) {
        let mut file = FileCheck::for_file(opts, Some(FileName::new(path, path)));
        let mut games = Vec::new();
        for g in read_all(text.as_bytes()) {
            games.extend(file.push(g));
        }
        let (rest, findings) = file.finish();
        games.extend(rest);
        (games, findings)
    }

    /// A position where white can take one piece (31x24) or two (26x10):
    /// the one-piece capture is legal under russian, not under brazilian.
    const TWO_WAYS: &str = "[FEN \"W:W26,31:B22,27,14\"]\n1. ";

    #[test]
    fn a_default_that_another_variant_beats_is_refused_with_the_option() {
        // One of three untagged games fails under brazilian (below half),
        // all three are legal under russian: russian explains more.
        let text = format!("{TWO_WAYS}31x24 *\n\n{TWO_WAYS}26x10 *\n\n{TWO_WAYS}26x10 *\n");
        let (games, findings) = run_named(&text, &Options::default(), "lidraughts movetexts.pdn");
        assert!(games
            .iter()
            .all(|g| g.report.source == VariantSource::Refused));
        let m = &findings[0].message;
        assert_eq!(findings[0].code, Code::UnknownVariant);
        assert!(
            m.contains("1 of 3 games with moves fails under brazilian, the default"),
            "{m}"
        );
        assert!(m.contains("all 3 are legal under russian"), "{m}");
        assert!(
            m.contains("--variant 'lidraughts movetexts.pdn=russian'"),
            "{m}"
        );
        // The option it gives, applied: every game valid under russian.
        let opts = Options::default().variants(vec![NamedVariant::parse(
            "lidraughts movetexts.pdn=russian",
        )
        .unwrap()]);
        let (games, findings) = run_named(&text, &opts, "lidraughts movetexts.pdn");
        assert!(games
            .iter()
            .all(|g| g.report.valid() && g.report.variant == Some(Variant::Russian)));
        assert!(findings.is_empty(), "{findings:?}");
    }

    #[test]
    fn how_a_finding_is_reported_never_changes_the_variant() {
        // Issue 55: -W, -A and -D on the codes that decide (or on all errors)
        // fed the decision: the refused file became brazilian and valid.
        let text = format!("{TWO_WAYS}31x24 *\n\n{TWO_WAYS}26x10 *\n\n{TWO_WAYS}26x10 *\n");
        use crate::diag::{Level, Levels};
        let mut cases = Vec::new();
        for level in [Level::Allow, Level::Warn, Level::Deny] {
            let mut by_code = Levels::default();
            by_code.set(Code::NonMaximalCapture, level);
            let mut by_group = Levels::default();
            by_group.set_group(Severity::Error, level);
            cases.extend([by_code, by_group]);
        }
        for levels in cases {
            let opts = Options::default().levels(levels.clone());
            let (games, findings) = run_named(&text, &opts, "games.pdn");
            assert!(
                games
                    .iter()
                    .all(|g| g.report.source == VariantSource::Refused),
                "{levels:?}"
            );
            // The file's finding itself obeys the levels (allowed: not shown).
            let shown = findings.iter().any(|f| f.code == Code::UnknownVariant);
            assert_eq!(
                shown,
                levels
                    .severity(Code::UnknownVariant, Severity::Error)
                    .is_some()
            );
        }
        // A decided file's reports get the levels: allowed, the finding is gone.
        let mut allow = Levels::default();
        allow.set(Code::NonMaximalCapture, Level::Allow);
        let opts = Options::default()
            .levels(allow)
            .variants(vec![NamedVariant::parse("games.pdn=brazilian").unwrap()]);
        let (games, _) = run_named(&text, &opts, "games.pdn");
        assert!(games.iter().all(|g| g
            .report
            .diagnostics
            .iter()
            .all(|d| d.code != Code::NonMaximalCapture)));
    }

    #[test]
    fn a_real_fault_no_variant_excuses_keeps_the_default() {
        // 26x9 is illegal under every variant: brazilian explains two of
        // three, and no other variant explains more.
        let text = format!("{TWO_WAYS}26x9 *\n\n{TWO_WAYS}26x10 *\n\n{TWO_WAYS}26x10 *\n");
        let (games, findings) = run(&text, &Options::default());
        assert!(games
            .iter()
            .all(|g| g.report.variant == Some(Variant::Brazilian)));
        assert!(!games[0].report.valid() && games[1].report.valid());
        assert_eq!(findings[0].code, Code::VariantInferred);
        assert!(
            findings[0]
                .message
                .contains("no other variant explains more"),
            "{}",
            findings[0].message
        );
    }

    #[test]
    fn a_default_tied_with_english_keeps_results_as_written() {
        // 22-18 ... legal under brazilian, russian, czech; a position where
        // english explains it too makes `1-0` meaningless.
        let text = "[Result \"1-0\"]\n[FEN \"W:W22:B5\"]\n1. 22-18 1-0\n";
        let (games, findings) = run(text, &Options::default());
        let r = &games[0].report;
        assert_eq!(r.variant, Some(Variant::Brazilian));
        let m = &findings[0].message;
        assert!(
            m.contains("also legal under russian, english, czech and italian"),
            "{m}"
        );
        assert!(r.result_as_written && r.declared.is_none(), "{r:?}");
        assert!(!r.diagnostics.iter().any(|d| d.code == Code::ResultMismatch));
        // Named english: the checkers order (1-0: Black won).
        let opts = Options::default().variants(vec![NamedVariant::parse("english").unwrap()]);
        let (games, _) = run(text, &opts);
        assert_eq!(
            games[0].report.declared,
            Some(crate::pdn::Outcome::BlackWins)
        );
        // Undecided (no moves): the result is kept as written.
        let (games, findings) = run(
            "[Result \"0-1\"]\n[FEN \"W:W22:B5\"]\n0-1\n",
            &Options::default(),
        );
        assert_eq!(games[0].report.source, VariantSource::Undecided);
        assert!(games[0].report.result_as_written && games[0].report.declared.is_none());
        assert!(!games[0].report.checked);
        assert_eq!(findings[0].code, Code::VariantInferred);
    }

    #[test]
    fn a_named_variant_is_applied_only_where_the_board_fits() {
        let ten = "[Event \"a\"]\n1. 33-28 18-23 *\n";
        let opts = Options::default().variants(vec![NamedVariant::parse("czech").unwrap()]);
        let (games, findings) = run(ten, &opts);
        assert_eq!(games[0].report.variant, Some(Variant::International));
        assert!(
            findings
                .iter()
                .any(|f| f.message.contains("--variant czech was not applied")),
            "{findings:?}"
        );
        // A GLOB that does not match leaves the file to its evidence.
        let opts = Options::default().variants(vec![NamedVariant::parse("*mrcd*=czech").unwrap()]);
        let (games, _) = run_named("[E \"a\"]\n1. 22-18 *\n", &opts, "other.pdn");
        assert_eq!(games[0].report.source, VariantSource::Inferred);
        let (games, _) = run_named("[E \"a\"]\n1. 22-18 *\n", &opts, "x/mrcd07.pdn");
        assert_eq!(
            (games[0].report.source, games[0].report.variant),
            (VariantSource::Named, Some(Variant::Czech))
        );
    }

    #[test]
    fn half_failing_is_not_refused() {
        // One of two fails: not more than half.
        let text = "[E \"1\"]\n1. c3-d4 f6-e5 *\n\n[E \"2\"]\n1. c3-d5 *\n";
        let (games, findings) = run(text, &Options::default());
        assert!(games.iter().all(|g| g.report.checked));
        assert!(!findings.iter().any(|f| f.code == Code::UnknownVariant));
    }

    #[test]
    fn tagged_games_never_take_part() {
        // The guess comes from the tagged game: no trial, and the tagged game's verdict stands.
        let text = "[GameType \"20\"]\n1. 32-28 *\n\n[E \"x\"]\n1. 99-1 *\n";
        let (games, findings) = run(text, &Options::default());
        assert_eq!(games[1].report.source, VariantSource::File);
        assert!(games[0].report.valid());
        assert!(!findings.iter().any(|f| f.code == Code::UnknownVariant));
    }

    #[test]
    fn check_game_reads_a_game_as_a_file_of_its_own() {
        let g = &read_all(b"[Event \"a\"]\n1. 32-28 19-23 2. 28x19 14x23 *\n")[0];
        let r = check_game(g, &Options::default());
        assert_eq!(r.source, VariantSource::Refused);
        let g = &read_all(b"[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 *\n")[0];
        assert!(check_game(g, &Options::default()).valid());
    }
}
