//! The trial of a file's decision: the variant its evidence names stands
//! when it explains (replays without a move error) every untagged game with
//! moves. Otherwise every other variant of the board is tried: the
//! evidence's variant stands only when none explains more games and it
//! explains at least half; else the file is refused, with the counts and the
//! option that names the best variants. A variant is never chosen because
//! its rules excuse a file's faults.
//!
//! The games are replayed by the caller ([`Replay`]: the file check's replay,
//! on the pipeline's pool), so this module stays below the replay.

use crate::board::BoardSize;
use crate::diag::Code;
use crate::infer::evidence::{Basis, Evidence};
use crate::infer::{tag_choice, FileName, Inference, TagChoice, Untagged, VariantSource};
use crate::pdn::Game;
use crate::variant::Variant;
use std::collections::BTreeMap;

/// How the trial replays games.
pub(crate) trait Replay {
    /// A game's report.
    type Report;
    /// The reports of `games` replayed under `under`, in order, with the
    /// rules' own verdicts (how findings are reported never changes a
    /// verdict, issue 55).
    fn replay(&self, games: &[&Game], under: &Inference) -> Vec<Self::Report>;
    /// Whether a report has an error about a move of the main line.
    fn fails(r: &Self::Report) -> bool;
}

/// What the user asked for a file's untagged games.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Asked<'a> {
    /// The variant named for the file (`--variant`, or `GLOB=NAME` when the
    /// flag is true), if any.
    pub named: Option<(Variant, bool)>,
    /// Only reading: nothing is replayed.
    pub syntax_only: bool,
    /// The file's name (its words are evidence; a refusal names the option
    /// for it).
    pub name: Option<&'a FileName>,
}

/// The decision, and the reports of the games replayed to make it when they
/// are the check's own (by index in the games).
pub(crate) type Decided<R> = (Inference, Vec<(usize, R)>);

/// Whether a game takes its file's decision and has moves to replay.
fn replayable_untagged(g: &Game) -> bool {
    tag_choice(g) == TagChoice::Untagged
        && g.main_line().next().is_some()
        && !g.diagnostics().iter().any(|d| d.code == Code::GameTooLarge)
}

/// The implemented variants of a board that an untagged file is tried as,
/// in the table's order: on 8x8, the 64-square board's Turkish too when the
/// file names its squares (`names_only`: no square number; RULES.md 12).
fn variants_of(board: BoardSize, names_only: bool) -> impl Iterator<Item = Variant> {
    Variant::ALL.into_iter().filter(move |v| {
        v.tried()
            && (v.board() == board
                || (names_only && board == BoardSize::Eight && v.board() == BoardSize::Full))
    })
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

/// `game` or `games`.
fn games_word(k: usize) -> &'static str {
    if k == 1 {
        "game"
    } else {
        "games"
    }
}

/// `fails` or `fail`.
fn fail_word(k: usize) -> &'static str {
    if k == 1 {
        "fails"
    } else {
        "fail"
    }
}

/// Games replayed per call of the replay while a variant is tried: it is
/// dropped as soon as it cannot win.
const TRIAL_CHUNK: usize = 32;

/// How many of `games` fail under `v` (exactly), or `None` once more than
/// `bound` do (the variant cannot win).
fn failures_under<P: Replay>(
    games: &[&Game],
    v: Variant,
    bound: usize,
    replay: &P,
) -> Option<usize> {
    let trial = Inference::inferred(v, String::new());
    let mut fail = 0;
    for chunk in games.chunks(TRIAL_CHUNK) {
        fail += replay
            .replay(chunk, &trial)
            .iter()
            .filter(|r| P::fails(r))
            .count();
        if fail > bound {
            return None;
        }
    }
    Some(fail)
}

/// The untagged games with moves of a file: their indices and the games.
fn tried(games: &[Game]) -> (Vec<usize>, Vec<&Game>) {
    let tried: Vec<usize> = (0..games.len())
        .filter(|&i| replayable_untagged(&games[i]))
        .collect();
    let subset = tried.iter().map(|&i| &games[i]).collect();
    (tried, subset)
}

/// The decision for a file's untagged games from its first games `games`.
pub(crate) fn decide<P: Replay>(
    games: &[Game],
    asked: Asked<'_>,
    replay: &P,
) -> Decided<P::Report> {
    let mut evidence = Evidence::of(games);
    // A variant the user named for this file (or every file), where the board
    // fits: also for a file whose games are all tagged or marked (a marked
    // refused game takes it).
    if !evidence.has_untagged() {
        return match asked.named {
            Some((v, _)) => (Inference::named(v), Vec::new()),
            None => (Inference::default_brazilian(), Vec::new()),
        };
    }
    if let Some(n) = asked.name {
        evidence.add_name(&n.below);
    }
    let mut note = None;
    if let Some((v, by_glob)) = asked.named {
        match evidence.board() {
            Some(b) if !evidence.fits(v) => {
                let glob = if by_glob { "GLOB=" } else { "" };
                note = Some(if v.board() == BoardSize::Full {
                    format!(
                        "--variant {glob}{v} was not applied: the file's games number their squares, and {v} squares are only named (a1-h8)"
                    )
                } else {
                    format!(
                        "--variant {glob}{v} was not applied: the squares of the file's games need a {b} board, and {v} is played on {}",
                        v.board()
                    )
                });
            }
            _ => return as_named(games, asked, replay, v, &evidence),
        }
    }
    let (mut inference, basis) = evidence.decision();
    inference.note = note;
    let Untagged::Variant(v) = inference.untagged else {
        return (inference, Vec::new());
    };
    if asked.syntax_only || !matches!(basis, Basis::Positive | Basis::Default) {
        return (inference, Vec::new());
    }
    let (tried, subset) = tried(games);
    if tried.is_empty() {
        return (inference, Vec::new());
    }
    let reports = replay.replay(&subset, &inference);
    let failing = reports.iter().filter(|r| P::fails(r)).count();
    let trial = Trial {
        subset: &subset,
        v,
        basis,
        failing,
        replay,
        names_only: evidence.fits(Variant::Turkish),
    };
    let stands = if failing == 0 {
        trial.all_explained(inference)
    } else {
        trial.against_the_others(inference, asked.name)
    };
    match stands {
        Ok(inference) if inference.order_known => {
            (inference, tried.into_iter().zip(reports).collect())
        }
        // The reports were made with the results' meaning known: replayed again.
        Ok(inference) | Err(inference) => (inference, Vec::new()),
    }
}

/// The evidence's variant `v` replayed on the untagged games with moves.
struct Trial<'t, 'g, P> {
    subset: &'t [&'g Game],
    v: Variant,
    basis: Basis,
    /// How many fail under `v`.
    failing: usize,
    replay: &'t P,
    /// Whether the games name their squares, never number them (then
    /// Turkish is one of the 8x8 variants tried).
    names_only: bool,
}

impl<P: Replay> Trial<'_, '_, P> {
    /// Every game replays under `v`: it stands, and the variants tied with
    /// the default are named.
    fn all_explained(&self, mut inference: Inference) -> Result<Inference, Inference> {
        let (v, n) = (self.v, self.subset.len());
        if self.basis == Basis::Default {
            let tied: Vec<Variant> = variants_of(v.board(), self.names_only)
                .filter(|&w| w != v)
                .filter(|&w| failures_under(self.subset, w, 0, self.replay).is_some())
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
        Ok(inference)
    }

    /// Some games fail under `v`: every other variant of the board, each
    /// dropped once it cannot win. `v` stands (Ok) when none explains more
    /// and it explains at least half; else the file is refused (Err).
    fn against_the_others(
        &self,
        mut inference: Inference,
        name: Option<&FileName>,
    ) -> Result<Inference, Inference> {
        let (v, n, failing) = (self.v, self.subset.len(), self.failing);
        let mut best = failing;
        let mut others: Vec<(Variant, Option<usize>)> = Vec::new();
        for w in variants_of(v.board(), self.names_only).filter(|&w| w != v) {
            let f = failures_under(self.subset, w, best, self.replay);
            if let Some(f) = f {
                best = best.min(f);
            }
            others.push((w, f));
        }
        let winners: Vec<Variant> = std::iter::once((v, Some(failing)))
            .chain(others.iter().copied())
            .filter(|(_, f)| *f == Some(best))
            .map(|(w, _)| w)
            .collect();
        if best == failing && failing * 2 <= n {
            let tied: Vec<Variant> = winners.iter().copied().filter(|&w| w != v).collect();
            inference.evidence = format!(
                "{}; {failing} of {n} {} with moves {} under {v}, and no other variant explains more{}",
                inference.evidence,
                games_word(n),
                fail_word(failing),
                if tied.is_empty() {
                    String::new()
                } else {
                    format!(" ({} explain{} as many)", names(&tied), if tied.len() == 1 { "s" } else { "" })
                }
            );
            if self.basis == Basis::Default {
                inference.order_known = same_order(winners.iter().copied());
            }
            return Ok(inference);
        }
        Err(self.refusal(inference, &others, &winners, best, name))
    }

    /// The refusal: the counts, and the option that names each best variant.
    fn refusal(
        &self,
        inference: Inference,
        others: &[(Variant, Option<usize>)],
        winners: &[Variant],
        mut best: usize,
        name: Option<&FileName>,
    ) -> Inference {
        let (v, n, failing) = (self.v, self.subset.len(), self.failing);
        let mut parts = vec![match self.basis {
            Basis::Default => format!(
                "no GameType and no other evidence; {failing} of {n} {} with moves {} under {v}, the default",
                games_word(n),
                fail_word(failing)
            ),
            _ => format!(
                "the evidence ({}) names {v}, under which {failing} of {n} {} with moves {}",
                inference.evidence,
                games_word(n),
                fail_word(failing)
            ),
        }];
        let mut best_others: Vec<Variant> = winners.iter().copied().filter(|&w| w != v).collect();
        if best * 2 > n {
            // No variant of the board explains half: the variants of larger
            // boards (games written with low squares only), as a hint.
            if let Some((f, larger)) = self.on_larger_boards(best) {
                best = f;
                best_others = larger;
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
        parts.extend(other_counts(others, &best_others, best, failing, n));
        let mut message = parts.join("; ");
        message.push_str(&advice(&best_others, best, n, name));
        Inference {
            untagged: Untagged::NotChecked,
            source: VariantSource::Refused,
            evidence: message,
            order_known: same_order(winners.iter().copied().chain([v])),
            note: inference.note,
            from_path: false,
            turned: None,
        }
    }

    /// The variants of larger boards that explain the most games, with
    /// their failures, when one explains more than `best` allows.
    fn on_larger_boards(&self, best: usize) -> Option<(usize, Vec<Variant>)> {
        let mut larger: Vec<(Variant, usize)> = Variant::ALL
            .into_iter()
            .filter(|w| w.board().n() > self.v.board().n() && w.tried())
            .filter_map(|w| {
                failures_under(self.subset, w, best.saturating_sub(1), self.replay).map(|f| (w, f))
            })
            .collect();
        larger.sort_by_key(|&(w, f)| (f, w.board().n()));
        let &(_, f) = larger.first()?;
        Some((
            f,
            larger
                .iter()
                .filter(|(_, g)| *g == f)
                .map(|(w, _)| *w)
                .collect(),
        ))
    }
}

/// The other counts of a refusal, variants with the same count together,
/// and the variants dropped early.
fn other_counts(
    others: &[(Variant, Option<usize>)],
    best_others: &[Variant],
    best: usize,
    failing: usize,
    n: usize,
) -> Vec<String> {
    let mut counted: BTreeMap<usize, Vec<Variant>> = BTreeMap::new();
    let mut dropped: Vec<Variant> = Vec::new();
    for (w, f) in others {
        match f {
            Some(f) if *f != best || !best_others.contains(w) => {
                counted.entry(*f).or_default().push(*w)
            }
            None => dropped.push(*w),
            _ => {}
        }
    }
    let mut parts: Vec<String> = counted
        .into_iter()
        .map(|(f, ws)| format!("{f} of {n} fail under {}", names(&ws)))
        .collect();
    if !dropped.is_empty() {
        parts.push(format!(
            "{} {} at least {}",
            names(&dropped),
            fail_word(dropped.len()),
            failing.min(best + 1)
        ));
    }
    parts
}

/// The end of a refusal: what the user can do.
fn advice(best_others: &[Variant], best: usize, n: usize, name: Option<&FileName>) -> String {
    if best * 2 > n {
        let them = if n == 1 { "it" } else { "them" };
        return format!(
            ". No variant pdnkit checks explains half of {them}: give {them} a GameType tag if you know the variant"
        );
    }
    let options: Vec<String> = best_others
        .iter()
        .map(|&w| match name {
            Some(f) => f.option_for(w),
            None => format!("--variant {w}"),
        })
        .collect();
    format!(
        ". A variant is never chosen because its rules excuse a file's faults: if that is its variant, name it with {}",
        options.join(" or ")
    )
}

/// The variant the user named for a file's untagged games, said to
/// contradict the file's own evidence when that evidence names another
/// variant and most of the games with moves fail under the named one (issue
/// 55: a bare `--variant czech` on English checkers games failed them all at
/// ply 1 with no word). The option still applies: the user asked. The games
/// are replayed under it only when the evidence names another variant, and
/// their reports are kept (they are the check's own).
fn as_named<P: Replay>(
    games: &[Game],
    asked: Asked<'_>,
    replay: &P,
    v: Variant,
    evidence: &Evidence,
) -> Decided<P::Report> {
    let mut inference = Inference::named(v);
    let (own, basis) = evidence.decision();
    let Untagged::Variant(w) = own.untagged else {
        return (inference, Vec::new());
    };
    if w == v || !matches!(basis, Basis::Positive | Basis::Tagged) || asked.syntax_only {
        return (inference, Vec::new());
    }
    let (tried, subset) = tried(games);
    let reports = replay.replay(&subset, &inference);
    let failing = reports.iter().filter(|r| P::fails(r)).count();
    let n = tried.len();
    if n > 0 && failing * 2 > n {
        inference.note = Some(format!(
            "--variant {v} applied to the games without a GameType, but {failing} of {n} {} with moves {} under it, and the file's own evidence ({}) names {w}",
            games_word(n),
            fail_word(failing),
            own.evidence
        ));
    }
    (inference, tried.into_iter().zip(reports).collect())
}
