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

use crate::board::BoardSize;
use crate::diag::{Code, FileDiagnostic, Severity};
use crate::infer::{
    named_for, tag_choice, Basis, Evidence, FileName, Inference, TagChoice, Untagged, VariantSource,
};
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

/// Whether a game takes its file's decision and has moves to replay.
fn replayable_untagged(g: &Game) -> bool {
    tag_choice(g) == TagChoice::Untagged
        && g.main_line().next().is_some()
        && !g.diagnostics().iter().any(|d| d.code == Code::GameTooLarge)
}

/// The implemented variants of a board, in the table's order.
fn variants_of(board: BoardSize) -> impl Iterator<Item = Variant> {
    Variant::ALL.into_iter().filter(move |v| v.board() == board)
}

/// The variant the user named for a file's untagged games, said to
/// contradict the file's own evidence when that evidence names another
/// variant and most of the games with moves fail under the named one (issue
/// 55: a bare `--variant czech` on English checkers games failed them all at
/// ply 1 with no word). The option still applies: the user asked. The games
/// are replayed under it only when the evidence names another variant, and
/// their reports are kept (they are the check's own).
fn as_named(
    games: &[Game],
    opts: &Options,
    checker: &Checker<'_>,
    v: Variant,
    evidence: &Evidence,
) -> (Inference, Vec<Option<GameReport>>) {
    let mut inference = Inference::named(v);
    let (own, basis) = evidence.decision();
    let Untagged::Variant(w) = own.untagged else {
        return (inference, Vec::new());
    };
    if w == v || !matches!(basis, Basis::Positive | Basis::Tagged) || opts.syntax_only {
        return (inference, Vec::new());
    }
    let tried: Vec<usize> = (0..games.len())
        .filter(|&i| replayable_untagged(&games[i]))
        .collect();
    let subset: Vec<&Game> = tried.iter().map(|&i| &games[i]).collect();
    let raw = Options {
        levels: crate::diag::Levels::default(),
        ..opts.clone()
    };
    let reports = checker(&subset, &inference, &raw);
    let failing = reports.iter().filter(|r| has_move_error(r)).count();
    let n = tried.len();
    if n > 0 && failing * 2 > n {
        inference.note = Some(format!(
            "--variant {v} applied to the games without a GameType, but {failing} of {n} {} with moves {} under it, and the file's own evidence ({}) names {w}",
            if n == 1 { "game" } else { "games" },
            if failing == 1 { "fails" } else { "fail" },
            own.evidence
        ));
    }
    let mut out: Vec<Option<GameReport>> = (0..games.len()).map(|_| None).collect();
    for (i, mut r) in tried.into_iter().zip(reports) {
        opts.levels.apply(&mut r.diagnostics);
        out[i] = Some(r);
    }
    (inference, out)
}

/// Games replayed per call of the checker while a variant is tried: it is
/// dropped as soon as it cannot win.
const TRIAL_CHUNK: usize = 32;

/// How many of `games` fail under `v` (exactly), or `None` once more than
/// `bound` do (the variant cannot win).
fn failures_under(
    games: &[&Game],
    v: Variant,
    bound: usize,
    checker: &Checker<'_>,
    raw: &Options,
) -> Option<usize> {
    let trial = Inference::inferred(v, String::new());
    let mut fail = 0;
    for chunk in games.chunks(TRIAL_CHUNK) {
        fail += checker(chunk, &trial, raw)
            .iter()
            .filter(|r| has_move_error(r))
            .count();
        if fail > bound {
            return None;
        }
    }
    Some(fail)
}

/// The names of `vs`, joined for a sentence (`russian and czech`).
fn names(vs: &[Variant]) -> String {
    let names: Vec<&str> = vs.iter().map(|v| v.name()).collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// Whether variants agree on who scores first in `1-0`.
fn same_order(vs: impl IntoIterator<Item = Variant>) -> bool {
    let mut it = vs.into_iter().map(Variant::first_player_scores_first);
    let first = it.next();
    it.all(|o| Some(o) == first)
}

/// The decision for a file's untagged games from its first games, and the
/// reports of those replayed to make it (by index in `games`).
///
/// The variant its evidence names stands when it explains (replays without
/// a move error) every untagged game with moves. Otherwise every other
/// variant of the board is tried: the evidence's variant stands only when
/// none explains more games and it explains at least half; else the file is
/// refused, with the counts and the option that names the best variants.
fn decide(
    games: &[Game],
    opts: &Options,
    checker: &Checker<'_>,
    name: Option<&FileName>,
) -> (Inference, Vec<Option<GameReport>>) {
    let mut evidence = Evidence::of(games);
    // A variant the user named for this file (or every file), where the board
    // fits: also for a file whose games are all tagged or marked (a marked
    // refused game takes it).
    let named = named_for(&opts.variants, name.map(|n| n.path.as_str()))
        .or(opts.variant.map(|v| (Some(v), false)));
    if !evidence.has_untagged() {
        return match named {
            Some((Some(v), _)) => (Inference::named(v), Vec::new()),
            _ => (Inference::default_brazilian(), Vec::new()),
        };
    }
    if let Some(n) = name {
        evidence.add_name(&n.below);
    }
    let mut note = None;
    if let Some((Some(v), by_glob)) = named {
        match evidence.board() {
            Some(b) if b > v.board() => {
                note = Some(format!(
                    "--variant {}{v} was not applied: the squares of the file's games need a {b} board, and {v} is played on {}",
                    if by_glob { "GLOB=" } else { "" },
                    v.board()
                ));
            }
            _ => return as_named(games, opts, checker, v, &evidence),
        }
    }
    let (mut inference, basis) = evidence.decision();
    inference.note = note;
    let Untagged::Variant(v) = inference.untagged else {
        return (inference, Vec::new());
    };
    if opts.syntax_only || !matches!(basis, Basis::Positive | Basis::Default) {
        return (inference, Vec::new());
    }
    let tried: Vec<usize> = (0..games.len())
        .filter(|&i| replayable_untagged(&games[i]))
        .collect();
    if tried.is_empty() {
        return (inference, Vec::new());
    }
    let subset: Vec<&Game> = tried.iter().map(|&i| &games[i]).collect();
    let n = tried.len();
    // How a finding is reported never changes a verdict (issue 55): the
    // games are replayed with the rules' own severities, and the reports
    // kept get the user's levels afterwards.
    let raw = Options {
        levels: crate::diag::Levels::default(),
        ..opts.clone()
    };
    let reports = checker(&subset, &inference, &raw);
    let failing = reports.iter().filter(|r| has_move_error(r)).count();
    let keep = |reports: Vec<GameReport>| {
        let mut out: Vec<Option<GameReport>> = (0..games.len()).map(|_| None).collect();
        for (i, mut r) in tried.iter().zip(reports) {
            opts.levels.apply(&mut r.diagnostics);
            out[*i] = Some(r);
        }
        out
    };
    let others: Vec<Variant> = variants_of(v.board()).filter(|&w| w != v).collect();
    if failing == 0 {
        if basis == Basis::Default {
            // The default stands; the variants tied with it are named.
            let tied: Vec<Variant> = others
                .iter()
                .copied()
                .filter(|&w| failures_under(&subset, w, 0, checker, &raw).is_some())
                .collect();
            if !tied.is_empty() {
                inference.evidence = format!(
                    "{}; {} also legal under {}",
                    inference.evidence,
                    if n == 1 { "it is" } else { "they are" },
                    names(&tied)
                );
                inference.order_known = same_order(tied.iter().copied().chain([v]));
            }
        }
        if !inference.order_known {
            // The reports were made with the results' meaning known: replayed again.
            return (inference, Vec::new());
        }
        return (inference, keep(reports));
    }
    // Every other variant of the board, each dropped once it cannot win.
    let mut best = failing;
    let mut tried_others: Vec<(Variant, Option<usize>)> = Vec::new();
    for &w in &others {
        let f = failures_under(&subset, w, best, checker, &raw);
        if let Some(f) = f {
            best = best.min(f);
        }
        tried_others.push((w, f));
    }
    let winners: Vec<Variant> = std::iter::once((v, Some(failing)))
        .chain(tried_others.iter().copied())
        .filter(|(_, f)| *f == Some(best))
        .map(|(w, _)| w)
        .collect();
    if best == failing && failing * 2 <= n {
        let tied: Vec<Variant> = winners.iter().copied().filter(|&w| w != v).collect();
        inference.evidence = format!(
            "{}; {failing} of {n} {} with moves {} under {v}, and no other variant explains more{}",
            inference.evidence,
            if n == 1 { "game" } else { "games" },
            if failing == 1 { "fails" } else { "fail" },
            if tied.is_empty() {
                String::new()
            } else {
                format!(
                    " ({} explain{} as many)",
                    names(&tied),
                    if tied.len() == 1 { "s" } else { "" }
                )
            }
        );
        if basis == Basis::Default {
            inference.order_known = same_order(winners.iter().copied());
            if !inference.order_known {
                return (inference, Vec::new());
            }
        }
        return (inference, keep(reports));
    }
    // Refused: the counts, and the option that names each best variant.
    let games_word = |k: usize| if k == 1 { "game" } else { "games" };
    let mut parts = Vec::new();
    parts.push(match basis {
        Basis::Default => format!(
            "no GameType and no other evidence; {failing} of {n} {} with moves {} under {v}, the default",
            games_word(n),
            if failing == 1 { "fails" } else { "fail" }
        ),
        _ => format!(
            "the evidence ({}) names {v}, under which {failing} of {n} {} with moves {}",
            inference.evidence,
            games_word(n),
            if failing == 1 { "fails" } else { "fail" }
        ),
    });
    let mut best_others: Vec<Variant> = winners.iter().copied().filter(|&w| w != v).collect();
    if best * 2 > n {
        // No variant of the board explains half: the variants of larger
        // boards (games written with low squares only), as a hint.
        let mut larger: Vec<(Variant, usize)> = Variant::ALL
            .into_iter()
            .filter(|w| w.board() > v.board())
            .filter_map(|w| {
                failures_under(&subset, w, best.saturating_sub(1), checker, &raw).map(|f| (w, f))
            })
            .collect();
        larger.sort_by_key(|&(w, f)| (f, w.board()));
        if let Some(&(_, f)) = larger.first() {
            best = f;
            best_others = larger
                .iter()
                .filter(|(_, g)| *g == f)
                .map(|(w, _)| *w)
                .collect();
        }
    }
    if !best_others.is_empty() && best < n {
        let legal = n - best;
        parts.push(if legal == n {
            format!(
                "{} legal under {}",
                if n == 1 {
                    "it is".to_string()
                } else {
                    format!("all {n} are")
                },
                names(&best_others)
            )
        } else {
            format!("{legal} of {n} are legal under {}", names(&best_others))
        });
    }
    // The other counts, variants with the same count together.
    let mut counted: BTreeMap<usize, Vec<Variant>> = BTreeMap::new();
    let mut dropped: Vec<Variant> = Vec::new();
    for (w, f) in &tried_others {
        match f {
            Some(f) if *f != best || !best_others.contains(w) => {
                counted.entry(*f).or_default().push(*w)
            }
            None => dropped.push(*w),
            _ => {}
        }
    }
    for (f, ws) in counted {
        parts.push(format!("{f} of {n} fail under {}", names(&ws)));
    }
    if !dropped.is_empty() {
        parts.push(format!(
            "{} {} at least {}",
            names(&dropped),
            if dropped.len() == 1 { "fails" } else { "fail" },
            failing.min(best + 1)
        ));
    }
    let mut message = parts.join("; ");
    if best * 2 > n {
        message.push_str(&format!(
            ". No variant pdnkit checks explains half of {}: give {} a GameType tag if you know the variant",
            if n == 1 { "it" } else { "them" },
            if n == 1 { "it" } else { "them" }
        ));
    } else {
        let options: Vec<String> = best_others
            .iter()
            .map(|&w| match name {
                Some(f) => f.option_for(w),
                None => format!("--variant {w}"),
            })
            .collect();
        message.push_str(&format!(
            ". A variant is never chosen because its rules excuse a file's faults: if that is its variant, name it with {}",
            options.join(" or ")
        ));
    }
    let refused = Inference {
        untagged: Untagged::NotChecked,
        source: VariantSource::Refused,
        evidence: message,
        order_known: same_order(winners.iter().copied().chain([v])),
        note: inference.note,
        from_path: false,
    };
    (refused, Vec::new())
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
}

impl FileTally {
    /// Adds one game and its report.
    pub fn add(&mut self, g: &Game, r: &GameReport) {
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
        if opts.syntax_only {
            return Vec::new();
        }
        let mut out = self.findings(inference);
        opts.levels.apply_file(&mut out);
        out
    }

    fn findings(&self, inference: &Inference) -> Vec<FileDiagnostic> {
        let mut out = Vec::new();
        let plural = |n: u32| if n == 1 { "game" } else { "games" };
        let (line, column) = self.first_untagged.unwrap_or((1, 1));
        let at = |code: Code, severity: Severity, message: String, (line, column): (u32, u32)| {
            FileDiagnostic {
                code,
                severity,
                message,
                line,
                column,
            }
        };
        if self.untagged > 0 {
            let n = self.untagged;
            match inference.untagged {
                Untagged::Variant(v) => out.push(at(
                    Code::VariantInferred,
                    Severity::Warning,
                    format!(
                        "{n} {} without a GameType tag read as {v}: {} (use --variant to choose)",
                        plural(n),
                        inference.evidence
                    ),
                    (line, column),
                )),
                Untagged::Unsupported(u) => out.push(at(
                    Code::VariantInferred,
                    Severity::Warning,
                    format!(
                        "{n} {} without a GameType tag read as {}: {}",
                        plural(n),
                        u.describe(),
                        inference.evidence
                    ),
                    (line, column),
                )),
                Untagged::NotChecked => out.push(at(
                    Code::UnknownVariant,
                    Severity::Error,
                    format!(
                        "{n} {} without a GameType tag not checked: {}",
                        plural(n),
                        inference.evidence
                    ),
                    (line, column),
                )),
                Untagged::Undecided => out.push(at(
                    Code::VariantInferred,
                    Severity::Warning,
                    format!(
                        "{n} {} without a GameType tag not checked: {}; name it with --variant",
                        plural(n),
                        inference.evidence
                    ),
                    (line, column),
                )),
            }
        }
        if let Some(note) = &inference.note {
            out.push(at(
                Code::VariantInferred,
                Severity::Warning,
                note.clone(),
                (line, column),
            ));
        }
        for (&refused, &(n, loc)) in self.marked.iter().rev() {
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
            out.push(at(
                code,
                severity,
                format!(
                    "{n} {} marked {why}, by the check of the files {} merged from (its {} tag): not checked; name the variant with --variant, or give {} a GameType",
                    plural(n),
                    if n == 1 { "it was" } else { "they were" },
                    crate::pdn::MARKER_TAG,
                    if n == 1 { "it" } else { "them" }
                ),
                loc,
            ));
        }
        for (u, (n, loc)) in &self.unsupported {
            out.push(at(
                Code::UnsupportedVariant,
                Severity::Warning,
                format!(
                    "{n} {} of {} (GameType {}): not checked — pdnkit checks {}",
                    plural(*n),
                    u.describe(),
                    u.0,
                    Variant::ALL.map(Variant::name).join(", ")
                ),
                *loc,
            ));
        }
        if let (Untagged::Variant(v), VariantSource::Inferred | VariantSource::File) =
            (inference.untagged, inference.source)
        {
            let (e, m) = (self.inferred_move_errors, self.inferred_with_moves);
            if m >= NET_MIN_GAMES && e * 2 > m {
                out.push(at(
                    Code::VariantInferred,
                    Severity::Warning,
                    format!(
                        "{e} of the {m} games with moves have a move error under {v}, which was inferred ({}): they may be of another variant; name it with --variant",
                        inference.evidence
                    ),
                    (line, column),
                ));
            }
        }
        // In the order of the file (a stable sort: findings about one place
        // keep the order above).
        out.sort_by_key(|d| (d.line, d.column));
        out
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
