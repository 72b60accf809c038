//! What a replay says about a game: [`GameReport`], its plies, and the
//! [`Replay`] that walks them.

use crate::diag::{Code, Diagnostic, Severity, Span};
use crate::draw::{Clause, DrawRules, Termination};
use crate::infer::VariantSource;
use crate::pdn::Outcome;
use crate::piece::Color;
use crate::position::Position;
use crate::rules::{play_unchecked, Move};
use crate::variant::{GameKind, Variant};

/// One ply of the main line as played.
#[derive(Clone, Debug)]
pub struct Played {
    /// The move played.
    pub mv: Move,
    /// The position before the move.
    pub before: Position,
    /// Span of the written move.
    pub span: Span,
    /// Whether the move was an irregularity that stood
    /// ([`Irregularities::Stand`](crate::replay::Irregularities::Stand)).
    pub stood: bool,
}

/// Everything `check` says about one game.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct GameReport {
    /// The variant whose rules the game was checked under (`None`: not checked).
    pub variant: Option<Variant>,
    /// The game's kind: a variant checked, or one named and refused.
    pub kind: Option<GameKind>,
    /// Whether the game was replayed under a variant's rules.
    pub checked: bool,
    /// Whether the game was only read, never replayed ([`Options::syntax_only`](crate::replay::Options::syntax_only)).
    pub read_only: bool,
    /// Whether the game had no GameType and took the file's decision.
    pub inferred: bool,
    /// Whether that decision rests on the file's path (a word of its name
    /// or folders): an output of the game under another name carries the
    /// decided GameType and pdnkit's marker, so that it reads back the same.
    pub from_path: bool,
    /// What decided the game's variant.
    pub source: VariantSource,
    /// The draw rules applied, when replayed.
    pub draw_rules: Option<DrawRules>,
    /// Plies of the main line read before the first error.
    pub plies: u32,
    /// Plies of the main line after the move that stopped the replay, not replayed.
    pub plies_unchecked: u32,
    /// Moves that stood ([`Irregularities::Stand`](crate::replay::Irregularities::Stand); 0 under `Stop`).
    pub irregularities: u32,
    /// Captures written one jump per token and read as one move each
    /// (PDN-REAL-WORLD.md 8.1, docs/dialect.md): the tokens after the first
    /// of each are part of its ply.
    pub joined: u32,
    /// Whether its squares were read turned: its file names them from the
    /// other side (PDN-REAL-WORLD.md 8.2, docs/dialect.md).
    pub turned: bool,
    /// The result the record declares (Result tag or final token), if any:
    /// `None` too for a `1-0` or `0-1` whose meaning is not known
    /// ([`GameReport::result_as_written`]).
    pub declared: Option<Outcome>,
    /// Whether the declared result is a `1-0` or `0-1` whose meaning is not
    /// known (the variants that could explain the game disagree on who
    /// scores first, or none was decided): it is kept as written, never
    /// compared or rewritten.
    pub result_as_written: bool,
    /// `WhiteWins`, `BlackWins`, `Draw` or `Unknown`.
    pub computed: Outcome,
    /// How the game ended (or `Unfinished`).
    pub termination: Termination,
    /// The ply after which it ended (0: the start position).
    pub termination_ply: Option<u32>,
    /// The rule that ended the game (`no-moves`, `repetition`, `ending-16`, `7.2.7`, ...).
    pub clause: Option<Clause>,
    /// Reader findings, then replay findings, then result findings.
    pub diagnostics: Vec<Diagnostic>,
    /// The start position, when known.
    pub start: Option<Position>,
    /// Main-line plies (only with [`Options::keep_moves`](crate::replay::Options::keep_moves)).
    pub played: Vec<Played>,
    /// The ballot or opening the game's positions reach in its variant's
    /// tables (docs/openings.md); `None` when it reaches none, was not
    /// replayed, or its variant has no table.
    pub opening: Option<crate::openings::Opening>,
}

impl GameReport {
    /// Findings of one code listed per game; the rest are counted in one
    /// more finding.
    pub const FINDINGS_PER_CODE: usize = FINDINGS_PER_CODE;
    /// The number of ply `ply` (1-based) as the record counts it, and
    /// whether it is the second move of that number (`4...`): from the start
    /// position's side to move, in the variant's order (see
    /// docs/rules.md). `None` when the start position is not known.
    pub fn move_number(&self, ply: u32) -> Option<(u32, bool)> {
        self.start.map(|p| move_number(ply, p.side(), self.variant))
    }
    /// The position before ply `ply` (1-based) of a game replayed with
    /// `keep_moves`: `plies + 1` is the position after the last ply read.
    /// `None` beyond that, or when the game could not be replayed.
    pub fn position_before(&self, ply: u32) -> Option<Position> {
        let i = ply.checked_sub(1)? as usize;
        match self.played.get(i) {
            Some(p) => Some(p.before),
            None if i == self.played.len() => Some(
                self.played
                    .last()
                    .map_or(self.start?, |p| play_unchecked(&p.before, &p.mv)),
            ),
            None => None,
        }
    }
    /// No error-severity finding (`None` for a game that was not checked).
    pub fn verdict(&self) -> Option<bool> {
        self.checked.then(|| self.valid())
    }
    /// The error-severity findings, in order.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
    }
    /// The first error-severity finding.
    pub fn first_error(&self) -> Option<&Diagnostic> {
        self.errors().next()
    }
    /// The codes of the findings, each once, in code order.
    pub fn codes(&self) -> Vec<Code> {
        let mut c: Vec<Code> = self.diagnostics.iter().map(|d| d.code).collect();
        c.sort_unstable();
        c.dedup();
        c
    }
    /// The plies played that captured (with [`Options::keep_moves`](crate::replay::Options::keep_moves)).
    pub fn captures(&self) -> impl Iterator<Item = &Played> {
        self.played.iter().filter(|p| p.mv.is_capture())
    }
    /// The most pieces one ply took (0: no capture), of the plies kept.
    pub fn longest_capture(&self) -> u32 {
        self.played
            .iter()
            .map(|p| p.mv.capture_count())
            .max()
            .unwrap_or(0)
    }
    /// The plies that crowned a man, of the plies kept.
    pub fn crownings(&self) -> u32 {
        self.played.iter().filter(|p| p.mv.crowns).count() as u32
    }
    /// No error-severity finding.
    pub fn valid(&self) -> bool {
        self.first_error().is_none()
    }
}

/// The number of ply `ply` (1-based) as the record counts it, and whether it is
/// the second move of that number (`4...`). Draughts records number from
/// White's move (a game starting with Black to move begins `1...`); checkers
/// records number from whoever moves first.
pub(crate) fn move_number(ply: u32, first: Color, variant: Option<Variant>) -> (u32, bool) {
    let checkers = variant.is_some_and(|v| v.first_player_scores_first());
    let k = ply.saturating_sub(1) + u32::from(first == Color::Black && !checkers);
    (k / 2 + 1, k % 2 == 1)
}

/// Findings of one code listed per game; the rest are counted in one more finding.
pub(crate) const FINDINGS_PER_CODE: usize = 100;

/// Keeps the first [`FINDINGS_PER_CODE`] findings of each code and replaces the
/// rest by one finding of that code saying how many were left out (with the
/// gravest severity among them, so a game's validity never changes).
pub(super) fn cap_findings(diags: &mut Vec<Diagnostic>) {
    if diags.len() <= FINDINGS_PER_CODE {
        return;
    }
    let mut seen = [0usize; Code::ALL.len()];
    let mut dropped: Vec<Option<(usize, Severity, Span)>> = vec![None; Code::ALL.len()];
    diags.retain(|d| {
        let i = d.code as usize;
        seen[i] += 1;
        if seen[i] <= FINDINGS_PER_CODE {
            return true;
        }
        let e = dropped[i].get_or_insert((0, d.severity, d.span.clone()));
        e.0 += 1;
        e.1 = e.1.max(d.severity);
        false
    });
    for (i, e) in dropped.into_iter().enumerate() {
        if let Some((n, severity, span)) = e {
            let code = Code::ALL[i];
            diags.push(
                Diagnostic::new(
                    code,
                    span,
                    format!(
                        "{n} more {code} finding{} in this game not listed (the first {FINDINGS_PER_CODE} are)",
                        if n == 1 { "" } else { "s" }
                    ),
                )
                .with_severity(severity),
            );
        }
    }
}

pub(super) fn empty_report() -> GameReport {
    GameReport {
        variant: None,
        kind: None,
        checked: false,
        read_only: false,
        inferred: false,
        from_path: false,
        source: VariantSource::Tag,
        joined: 0,
        turned: false,
        draw_rules: None,
        plies: 0,
        plies_unchecked: 0,
        irregularities: 0,
        declared: None,
        result_as_written: false,
        computed: Outcome::Unknown,
        termination: Termination::Unfinished,
        termination_ply: None,
        clause: None,
        diagnostics: Vec::new(),
        start: None,
        played: Vec::new(),
        opening: None,
    }
}
