//! A game replayed ply by ply under its variant's rules: findings collected,
//! draw rules applied, the true result worked out and compared with the record.

mod tables;

use crate::board::Bitboard;
use crate::board::BoardSize;
use crate::diag::{Code, Diagnostic, Severity, Span};
use crate::draw::{Clause, DrawRules, DrawState, Termination};
use crate::infer::{
    tag_choice, variant_name, Evidence, Inference, Marker, TagChoice, Untagged, VariantSource,
};
use crate::notation::{resolve_in, square_of, write_move, Illegal, Reading, Style};
use crate::pdn::{game_type, Game, GameType, Node, Outcome, Sep, SquareText, WrittenMove};
use crate::piece::Color;
use crate::position::Position;
use crate::rules::{legal_moves, play_unchecked, Move, MoveList};
use crate::variant::{GameKind, Unsupported, Variant};

/// How to replay. Built with [`Options::default`] (every game under its own
/// or its file's variant, default draw rules) and the builder methods:
///
/// ```
/// use pdnkit::{Options, Variant};
/// let opts = Options::default().variant(Some(Variant::Russian)).keep_moves(true);
/// assert!(opts.keep_moves);
/// ```
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Options {
    /// The variant of games that carry no GameType tag (`--variant`); `None`:
    /// decided per file from its evidence ([`crate::check::FileCheck`]). A
    /// game's own GameType always decides its variant.
    pub variant: Option<Variant>,
    /// Variants named per file or folder (`--variant 'GLOB=NAME'`, repeatable;
    /// the last matching GLOB wins; a rule without GLOB is a bare NAME, and
    /// overrides [`Options::variant`]). A variant is applied only to a file
    /// whose board fits it.
    pub variants: Vec<crate::infer::NamedVariant>,
    /// A variant for every game, whatever its GameType says (`--force-variant`;
    /// a differing GameType gets a warning).
    pub force_variant: Option<Variant>,
    /// Draw rules; by default cbjd for brazilian, fmjd otherwise.
    pub draw_rules: Option<DrawRules>,
    /// Keep every played move and the position before it in the report.
    pub keep_moves: bool,
    /// Only read: report the reader's findings, replay nothing.
    pub syntax_only: bool,
    /// The reader's limit on a game's size in bytes (`None`: [`Options::DEFAULT_MAX_GAME_BYTES`]).
    pub max_game_bytes: Option<usize>,
    /// Levels of the codes (`-A`, `-W`, `-D`): they decide what is reported,
    /// with which severity, and so which games are valid.
    pub levels: crate::diag::Levels,
    /// Whether an irregularity that could stand stops the replay
    /// (`--irregularities`; docs/rules.md, "Irregularities that stood").
    pub irregularities: Irregularities,
    /// The opening tables a game is classified against, in this order,
    /// instead of its variant's list (`--opening-table NAME`, docs/openings.md);
    /// an empty list looks for none (`--opening-table none`: every
    /// [`GameReport::opening`] is `None`).
    pub opening_tables: Option<Vec<String>>,
    /// What reading the users' tables of [`Options::opening_tables`] left
    /// out: a line per row (its file, row and why), for the caller to show.
    pub opening_table_warnings: Vec<String>,
}

/// What an irregular move does to the replay of a game (`--irregularities`,
/// docs/rules.md "Irregularities that stood", FMJD Annex 1 art. 5.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Irregularities {
    /// The first move error stops the replay (archives of a server that
    /// enforced the rules).
    #[default]
    Stop,
    /// A missed capture, a capture taking too few pieces, one stopped early
    /// or one the precedence forbids stands when the written move fits
    /// exactly one relaxed move: it is reported, played, and the replay goes
    /// on (over-the-board records).
    Stand,
}

impl Irregularities {
    /// `stop` or `stand`, as the command line writes it.
    pub fn name(self) -> &'static str {
        match self {
            Irregularities::Stop => "stop",
            Irregularities::Stand => "stand",
        }
    }
}

impl std::str::FromStr for Irregularities {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "stop" => Ok(Irregularities::Stop),
            "stand" => Ok(Irregularities::Stand),
            other => Err(format!(
                "unknown irregularities mode {other:?} (stop or stand)"
            )),
        }
    }
}

impl Options {
    /// The reader's limit on a game's size in bytes when none is given
    /// (16 MiB; docs/limits.md).
    pub const DEFAULT_MAX_GAME_BYTES: usize = crate::pdn::DEFAULT_MAX_GAME_BYTES;
    /// The variant of games without a GameType tag (`--variant`).
    pub fn variant(mut self, v: Option<Variant>) -> Options {
        self.variant = v;
        self
    }
    /// Variants named per file or folder (`--variant 'GLOB=NAME'`).
    pub fn variants(mut self, v: Vec<crate::infer::NamedVariant>) -> Options {
        self.variants = v;
        self
    }
    /// A variant for every game, whatever its GameType says (`--force-variant`).
    pub fn force_variant(mut self, v: Option<Variant>) -> Options {
        self.force_variant = v;
        self
    }
    /// The draw rules (`None`: the variant's default).
    pub fn draw_rules(mut self, r: Option<DrawRules>) -> Options {
        self.draw_rules = r;
        self
    }
    /// Keep every played move and the position before it in the report.
    pub fn keep_moves(mut self, keep: bool) -> Options {
        self.keep_moves = keep;
        self
    }
    /// Only read: report the reader's findings, replay nothing.
    pub fn syntax_only(mut self, only: bool) -> Options {
        self.syntax_only = only;
        self
    }
    /// The reader's limit on a game's size in bytes.
    pub fn max_game_bytes(mut self, n: Option<usize>) -> Options {
        self.max_game_bytes = n;
        self
    }
    /// The levels of the codes (`-A`, `-W`, `-D`).
    pub fn levels(mut self, levels: crate::diag::Levels) -> Options {
        self.levels = levels;
        self
    }
    /// Whether irregularities that could stand stop the replay (`--irregularities`).
    pub fn irregularities(mut self, mode: Irregularities) -> Options {
        self.irregularities = mode;
        self
    }
    /// The opening tables, by name or file, instead of each variant's list
    /// (`None`: the variant's list; empty: no opening is looked for). A
    /// file (`.csv`, `.pdn`: a user's table, docs/openings.md) is read and
    /// each of its rows checked by replaying it: a row left out is a line
    /// of [`Options::opening_table_warnings`]; a file that cannot be read,
    /// or a name that is no table, is the error.
    pub fn opening_tables(mut self, tables: Option<Vec<String>>) -> Result<Options, String> {
        let mut tables = tables;
        for t in tables.iter_mut().flatten() {
            let lower = t.to_ascii_lowercase();
            let file = !crate::openings::is_table(t)
                && (lower.ends_with(".csv")
                    || lower.ends_with(".pdn")
                    || std::path::Path::new(t.as_str()).is_file());
            if file {
                let (name, warnings) = tables::load(t)?;
                self.opening_table_warnings.extend(warnings);
                *t = name;
            }
        }
        if let Some(bad) = tables
            .iter()
            .flatten()
            .find(|t| !crate::openings::is_table(t))
        {
            let names: Vec<&str> = crate::openings::shipped_names().collect();
            return Err(format!(
                "'{bad}' is no opening table (tables: {}, a file .csv or .pdn, or none)",
                names.join(", ")
            ));
        }
        self.opening_tables = tables;
        Ok(self)
    }
}

/// Whether the reader skipped `g` as too large (it holds only its start).
fn skipped_as_too_large(g: &Game) -> bool {
    g.diagnostics.iter().any(|d| d.code == Code::GameTooLarge)
}

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
    /// ([`Irregularities::Stand`]).
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
    /// Whether the game was only read, never replayed ([`Options::syntax_only`]).
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
    /// Moves that stood ([`Irregularities::Stand`]; 0 under `Stop`).
    pub irregularities: u32,
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
    /// Main-line plies (only with [`Options::keep_moves`]).
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
    /// The plies played that captured (with [`Options::keep_moves`]).
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

fn written_text(g: &Game, m: &WrittenMove) -> String {
    String::from_utf8_lossy(g.bytes(&m.span))
        .split_whitespace()
        .collect()
}

/// How a game is to be read: under a variant's rules, refused, or not at all.
enum Choice {
    Check(Variant),
    Refuse(Unsupported),
    Skip,
}

/// Chooses the variant of a game: `--force-variant`, else its GameType (or
/// Variant) tag, else the file's decision for untagged games. Returns the
/// choice, what decided it, and whether it came from the file's decision.
fn choose_variant(
    g: &Game,
    opts: &Options,
    file: &Inference,
    diags: &mut Vec<Diagnostic>,
) -> (Choice, VariantSource, bool) {
    if let Some(v) = opts.force_variant {
        if let Some(t) = g.find_tag("GameType") {
            if game_type(&g.tag_text(t)) != GameType::Known(v) {
                diags.push(
                    Diagnostic::new(
                        Code::VariantInferred,
                        t.span.clone(),
                        format!(
                            "GameType \"{}\" differs from --force-variant {v}; {v} applies",
                            g.tag_value(t)
                        ),
                    )
                    .with_severity(Severity::Warning),
                );
            }
        }
        return (Choice::Check(v), VariantSource::Forced, false);
    }
    // The marker of a merged output: the decision the game's source made.
    if let Some(m) = g
        .find_tag(crate::infer::MARKER_TAG)
        .and_then(|t| Marker::parse(&g.tag_text(t)))
    {
        match m.source {
            // A game's own GameType (or Variant) tag decides its variant,
            // marker or not (issue 55); without one, the marker's refusal
            // stands, and is said for the file (`FileTally`).
            VariantSource::Refused | VariantSource::Undecided => {
                if g.find_tag("GameType").is_none() {
                    let named = g
                        .find_tag("Variant")
                        .and_then(|t| variant_name(&g.tag_text(t)));
                    return match named {
                        Some(GameKind::Known(v)) => (Choice::Check(v), VariantSource::Tag, false),
                        Some(GameKind::Unsupported(u)) => {
                            (Choice::Refuse(u), VariantSource::Unsupported, false)
                        }
                        // A variant the user named for the file settles it.
                        None => match (file.source, file.untagged) {
                            (VariantSource::Named, Untagged::Variant(v)) => {
                                (Choice::Check(v), VariantSource::Named, false)
                            }
                            _ => (Choice::Skip, m.source, false),
                        },
                    };
                }
                // Read below as any GameType is.
            }
            source => {
                let kind = g
                    .find_tag("GameType")
                    .map(|t| game_type(&g.tag_text(t)))
                    .or_else(|| {
                        match g
                            .find_tag("Variant")
                            .and_then(|t| variant_name(&g.tag_text(t)))
                        {
                            Some(GameKind::Known(v)) => Some(GameType::Known(v)),
                            _ => None,
                        }
                    });
                if let Some(GameType::Known(v)) = kind {
                    return (Choice::Check(v), source, false);
                }
            }
        }
    }
    // The GameType tag, read once: its kind, why it names nothing, and the
    // fields that cannot be read.
    if let Some(t) = g.find_tag("GameType") {
        return match crate::pdn::read_game_type(&g.tag_text(t)) {
            (GameType::Known(v), _, warnings) => {
                for why in warnings {
                    diags.push(Diagnostic::new(Code::BadTag, t.span.clone(), why));
                }
                (Choice::Check(v), VariantSource::Tag, false)
            }
            (GameType::Unsupported(u), _, _) => {
                (Choice::Refuse(u), VariantSource::Unsupported, false)
            }
            (GameType::Invalid(_), why, _) => {
                diags.push(Diagnostic::new(
                    Code::UnknownVariant,
                    t.span.clone(),
                    match why {
                        Some(why) => format!("GameType \"{}\": {why}", g.tag_value(t)),
                        None => format!(
                            "GameType \"{}\" names no variant (GameType is a number such as 20, 21, 25, 26, 27)",
                            g.tag_value(t)
                        ),
                    },
                ));
                (Choice::Skip, VariantSource::Tag, false)
            }
        };
    }
    match tag_choice(g) {
        TagChoice::Tagged(GameKind::Known(v)) => (Choice::Check(v), VariantSource::Tag, false),
        TagChoice::Tagged(GameKind::Unsupported(u)) => {
            (Choice::Refuse(u), VariantSource::Unsupported, false)
        }
        TagChoice::Invalid => {
            if let Some(t) = g.find_tag("Variant") {
                diags.push(Diagnostic::new(
                    Code::UnknownVariant,
                    t.span.clone(),
                    format!(
                        "Variant \"{}\" names no variant (GameType is a number such as 20, 21, 25, 26, 27)",
                        g.tag_value(t)
                    ),
                ));
            }
            (Choice::Skip, VariantSource::Tag, false)
        }
        TagChoice::Untagged | TagChoice::Marked(_) => {
            // A variant the user named is not the file's decision.
            let decided = file.source != VariantSource::Named;
            match file.untagged {
                Untagged::Variant(v) => (Choice::Check(v), file.source, decided),
                Untagged::Unsupported(u) => {
                    (Choice::Refuse(u), VariantSource::Unsupported, decided)
                }
                Untagged::NotChecked => (Choice::Skip, VariantSource::Refused, decided),
                Untagged::Undecided => (Choice::Skip, VariantSource::Undecided, decided),
            }
        }
    }
}

/// One ply of a game's main line, as [`Replay`] gives it.
#[derive(Clone, Debug)]
pub struct Ply {
    /// 1-based in the main line.
    pub ply: u32,
    /// The move's number as the record counts it, and whether it is the second of that number (`4...`).
    pub number: (u32, bool),
    /// The position before the move.
    pub before: Position,
    /// The move played.
    pub mv: Move,
    /// The position after it.
    pub after: Position,
    /// The findings about this ply (notation warnings, a resolved ambiguity, ...).
    pub findings: Vec<Diagnostic>,
}

/// A game replayed ply by ply: an iterator of [`Ply`] over the main line up
/// to its first error, with the whole [`GameReport`] at hand.
///
/// ```
/// use pdnkit::pdn::read_all;
/// use pdnkit::replay::{Options, Replay};
/// let g = &read_all(b"[GameType \"20\"] 1. 32-28 19-23 2. 28x19 14x23 3. 31-26 *")[0];
/// let plies: Vec<_> = Replay::new(g, &Options::default()).collect();
/// assert_eq!(plies.len(), 5);
/// assert_eq!(plies[2].mv.captured().count(), 1);
/// assert_eq!(plies[4].number, (3, false));
/// ```
pub struct Replay {
    report: GameReport,
    next: usize,
}

impl Replay {
    /// Replays `g` under the variant its own evidence gives (its GameType, or
    /// what its text shows; see [`crate::check::check_game`]).
    pub fn new(g: &Game, opts: &Options) -> Replay {
        let opts = Options {
            keep_moves: true,
            ..opts.clone()
        };
        Replay {
            report: check_game_alone(g, &opts),
            next: 0,
        }
    }
    /// Everything `check` says about the game.
    pub fn report(&self) -> &GameReport {
        &self.report
    }
}

impl Iterator for Replay {
    type Item = Ply;
    fn next(&mut self) -> Option<Ply> {
        let p = self.report.played.get(self.next)?;
        self.next += 1;
        let ply = self.next as u32;
        let first = self.report.start.map_or(Color::White, |s| s.side());
        Some(Ply {
            ply,
            number: move_number(ply, first, self.report.variant),
            before: p.before,
            mv: p.mv,
            after: play_unchecked(&p.before, &p.mv),
            findings: self
                .report
                .diagnostics
                .iter()
                .filter(|d| d.ply == Some(ply))
                .cloned()
                .collect(),
        })
    }
}

/// Replays one game under the variant the evidence of this game alone gives
/// (its GameType, or what its text shows), without the check that the guess
/// explains the game: [`crate::check::check_game`] reads a game as a file of
/// its own, the way `pdnkit check` does.
pub(crate) fn check_game_alone(g: &Game, opts: &Options) -> GameReport {
    let mut e = Evidence::default();
    e.add(g);
    check_game_with(g, opts, &e.decide())
}

/// Replays one game of a file whose untagged games are read as `file` says
/// (the decision [`crate::check::FileCheck`] makes once per file).
pub(crate) fn check_game_with(g: &Game, opts: &Options, file: &Inference) -> GameReport {
    let mut diags = g.diagnostics.clone();
    let mut report = empty_report();
    if skipped_as_too_large(g) {
        report.diagnostics = diags;
        return report;
    }
    if let Some(t) = g.find_tag("Date") {
        let text = g.tag_text(t);
        if !crate::pdn::PdnDate::is_plain(&text) {
            if let Some(why) = crate::pdn::PdnDate::parse(&text).warning(&text) {
                diags.push(Diagnostic::new(Code::BadTag, t.span.clone(), why));
            }
        }
    }
    let (choice, source, inferred) = choose_variant(g, opts, file, &mut diags);
    // The meaning of `1-0` and `0-1` in a game that took its file's decision
    // (or, marked, its source's).
    let marker = g
        .find_tag(crate::infer::MARKER_TAG)
        .and_then(|t| Marker::parse(&g.tag_text(t)));
    let order_known = match marker {
        Some(m) => m.order_known,
        None => {
            !matches!(
                source,
                VariantSource::Inferred
                    | VariantSource::File
                    | VariantSource::Refused
                    | VariantSource::Undecided
            ) || file.order_known
        }
    };
    report.inferred = inferred;
    report.from_path = inferred && file.from_path;
    report.source = source;
    if opts.syntax_only {
        // Read only: the variant is named, nothing is replayed.
        report.read_only = true;
        // Only a game's own tag names its variant: nothing is decided for
        // the untagged ones.
        report.kind = match choice {
            _ if inferred => None,
            Choice::Check(v) => Some(GameKind::Known(v)),
            Choice::Refuse(u) => Some(GameKind::Unsupported(u)),
            Choice::Skip => None,
        };
        diags.retain(|d| d.code != Code::UnknownVariant && d.code != Code::VariantInferred);
        check_result(g, None, order_known, &mut report, &mut diags);
        opts.levels.apply(&mut diags);
        report.diagnostics = diags;
        return report;
    }
    let variant = match choice {
        Choice::Check(v) => Some(v),
        Choice::Refuse(u) => {
            report.kind = Some(GameKind::Unsupported(u));
            None
        }
        Choice::Skip => None,
    };
    report.variant = variant;
    if source == VariantSource::Undecided {
        // No variant, but the setup is read for a board: a FEN that no 8x8
        // variant can set up is reported (with the first variant's reason).
        let mut first = None;
        for v in Variant::ALL
            .into_iter()
            .filter(|v| v.board() == BoardSize::Eight)
        {
            let mut found = Vec::new();
            if start_position(g, v, &mut found).is_some() {
                first = None;
                break;
            }
            first.get_or_insert(found);
        }
        diags.extend(first.into_iter().flatten());
    }
    if let Some(v) = variant {
        report.kind = Some(GameKind::Known(v));
        report.checked = true;
        let rules = DrawRules::for_variant(v, opts.draw_rules);
        report.draw_rules = Some(rules);
        if let Some(start) = start_position(g, v, &mut diags) {
            report.start = Some(start);
            // Positions along the main line, kept only for variations to start from.
            let has_variations = g.nodes.iter().any(|n| matches!(n, Node::Open(_)));
            let mut line = Vec::new();
            let keep = has_variations.then_some(&mut line);
            let state = DrawState::new(v, rules, &start);
            let mut main = MainLine::new(g, &mut diags);
            // The opening: the start's and the first plies' positions.
            let list = opts.opening_tables.as_deref();
            let set_up = !crate::openings::is_initial(&start);
            main.early = crate::openings::plies_needed(v, set_up, list);
            main.replay(start, state, opts, &mut report, keep);
            if main.early > 0 {
                report.opening =
                    crate::openings::classify(v, &main.keys, &main.steps, set_up, list);
            }
            if has_variations {
                replay_variations(g, &line, &mut diags);
            }
        }
    }
    if report.checked || report.kind.is_none() {
        check_result(g, variant, order_known, &mut report, &mut diags);
    } else {
        report.declared = declared_only(g, None);
    }
    cap_findings(&mut diags);
    if let Some(start) = report.start {
        for d in &mut diags {
            if let Some(p) = d.ply {
                d.number = Some(move_number(p, start.side(), report.variant));
            }
        }
    }
    opts.levels.apply(&mut diags);
    report.diagnostics = diags;
    report
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
fn cap_findings(diags: &mut Vec<Diagnostic>) {
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

fn start_position(g: &Game, v: Variant, diags: &mut Vec<Diagnostic>) -> Option<Position> {
    let tag = g.find_tag("FEN").map(|t| (g.tag_text(t), t.value.start));
    if let Some((text, _)) = &tag {
        if text.trim().is_empty() {
            if let Some(t) = g.find_tag("FEN") {
                diags.push(
                    Diagnostic::new(
                        Code::Nonstandard,
                        t.span.clone(),
                        "empty FEN tag: the start position is used",
                    )
                    .with_severity(Severity::Warning),
                );
            }
        }
    }
    let (fen, base) = match tag {
        Some((text, at)) if !text.trim().is_empty() => (text, at),
        _ => {
            // A `/FEN/` setup before the first move.
            let setup = g
                .nodes
                .iter()
                .take_while(|n| !matches!(n, Node::Move(_)))
                .find_map(|n| match n {
                    Node::Setup(s) => Some(s.clone()),
                    _ => None,
                });
            match setup {
                Some(s) => (g.decode(&s), s.start),
                None => return Some(v.start()),
            }
        }
    };
    match Position::from_fen(&fen, v) {
        Ok(p) => Some(p),
        Err(e) => {
            let at = base + e.offset().min(fen.len());
            diags.push(Diagnostic::new(
                Code::BadFen,
                at..at + 1,
                format!("FEN \"{fen}\" cannot be used: {e}"),
            ));
            None
        }
    }
}

/// The moves of the main line up to the first unknown-move placeholder.
fn known_main_moves(g: &Game) -> Vec<&WrittenMove> {
    let mut depth = 0usize;
    let mut out = Vec::with_capacity(g.nodes.len());
    for n in &g.nodes {
        match n {
            Node::Open(_) => depth += 1,
            Node::Close(_) => depth = depth.saturating_sub(1),
            Node::Move(m) if depth == 0 => out.push(m),
            Node::Unknown(_) if depth == 0 => break,
            _ => {}
        }
    }
    out
}

/// The ended state: termination, ply, clause, and the winner if decisive.
struct End {
    termination: Termination,
    ply: u32,
    clause: Clause,
    winner: Option<Color>,
}

/// A game's main line being replayed: the game, its written moves, where the
/// findings go, and the move lists reused from ply to ply.
struct MainLine<'g, 'd> {
    game: &'g Game,
    moves: Vec<&'g WrittenMove>,
    diags: &'d mut Vec<Diagnostic>,
    /// The pieces of the position to move that can capture (none: plain
    /// moves are legal). Plain moves are checked directly, and a capture from
    /// its own piece ([`crate::rules::captures_between`]); the legal moves are
    /// listed only when a written move needs the list to be explained.
    capturers: Bitboard,
    /// Room for the captures a written move fits, or for every legal move.
    legal: MoveList,
    /// Whether irregularities that could stand are played ([`Irregularities::Stand`]).
    stand: bool,
    /// Whether the move [`MainLine::read_move`] last read stood.
    stood: bool,
    /// Positions kept for the opening: the start and this many plies after.
    early: usize,
    /// Their keys ([`crate::openings::key`]).
    keys: smallvec::SmallVec<[u64; 16]>,
    /// The (from, to) square numbers of those plies' moves.
    steps: smallvec::SmallVec<[(u32, u32); 16]>,
}

impl<'g, 'd> MainLine<'g, 'd> {
    fn new(game: &'g Game, diags: &'d mut Vec<Diagnostic>) -> Self {
        MainLine {
            game,
            moves: known_main_moves(game),
            diags,
            capturers: Bitboard::EMPTY,
            legal: MoveList::new(),
            stand: false,
            stood: false,
            early: 0,
            keys: smallvec::SmallVec::new(),
            steps: smallvec::SmallVec::new(),
        }
    }

    /// Replays the main line from `start` with the draw counters `state`,
    /// into `report`; `positions` keeps the position before every ply (for
    /// the variations to start from).
    fn replay(
        &mut self,
        start: Position,
        mut state: DrawState,
        opts: &Options,
        report: &mut GameReport,
        mut positions: Option<&mut Vec<Position>>,
    ) {
        let mut pos = start;
        // RULES.md 10: section 9 does not apply to Frisian and Frysk! yet.
        self.stand = opts.irregularities == Irregularities::Stand
            && start.variant().rules().capture != crate::variant::CaptureRule::Value;
        if let Some(p) = positions.as_mut() {
            p.push(start);
        }
        if self.early > 0 {
            self.keys.push(crate::openings::key(&start));
        }
        self.capturers = crate::rules::capturers(&pos);
        let mut end: Option<End> =
            (self.capturers.is_empty() && !crate::rules::has_plain_move(&pos)).then(|| End {
                termination: Termination::NoMoves,
                ply: 0,
                clause: Clause::NoMoves,
                winner: Some(pos.side().other()),
            });
        let mut after_end_warned = false;
        let mut plies = 0u32;
        // The last ply left the side to move without a capture: whether it has
        // no move at all is settled when the next move is read.
        let mut unsettled: Option<Unsettled> = None;
        for i in 0..self.moves.len() {
            let ply = i as u32 + 1;
            let wm = self.moves[i];
            let squares = self.game.squares(wm);
            let fast = fast_reading(&pos, self.capturers, squares, wm.sep, &mut self.legal);
            if let Some(u) = unsettled.take() {
                // A plain move read in the position shows it has one.
                end = u.settle(fast.is_some() || crate::rules::has_plain_move(&pos));
            }
            self.stood = false;
            let Some(mv) = fast.or_else(|| self.read_move(&pos, i, end.is_some())) else {
                self.unchecked_after(i, report);
                break;
            };
            report.irregularities += u32::from(self.stood);
            if let (Some(e), false) = (&end, after_end_warned) {
                after_end_warned = true;
                self.diags.push(
                    Diagnostic::new(
                        Code::MovesAfterEnd,
                        wm.span.clone(),
                        format!(
                            "the game ended by {} after ply {}; moves follow",
                            e.clause, e.ply
                        ),
                    )
                    .at_move(ply, written_text(self.game, wm)),
                );
            }
            let after = play_unchecked(&pos, &mv);
            if let Some(p) = positions.as_mut() {
                p.push(after);
            }
            if i < self.early {
                self.keys.push(crate::openings::key(&after));
                self.steps
                    .push((mv.from().index() as u32 + 1, mv.to().index() as u32 + 1));
            }
            if opts.keep_moves {
                report.played.push(Played {
                    mv,
                    before: pos,
                    span: wm.span.clone(),
                    stood: self.stood,
                });
            }
            self.capturers = crate::rules::capturers(&after);
            if end.is_none() {
                let draw = state.play(&pos, &mv, &after).map(|d| End {
                    termination: d.termination,
                    ply,
                    clause: d.clause,
                    winner: None,
                });
                if self.capturers.is_empty() {
                    unsettled = Some(Unsettled {
                        ply,
                        winner: pos.side(),
                        draw,
                    });
                } else {
                    end = draw;
                }
            }
            pos = after;
            plies = ply;
        }
        if let Some(u) = unsettled {
            end = u.settle(crate::rules::has_plain_move(&pos));
        }
        report.plies = plies;
        if let Some(e) = end {
            report.termination = e.termination;
            report.termination_ply = Some(e.ply);
            report.clause = Some(e.clause);
            report.computed = match e.winner {
                Some(Color::White) => Outcome::WhiteWins,
                Some(Color::Black) => Outcome::BlackWins,
                None => Outcome::Draw,
            };
        }
    }

    /// The reading stopped at `moves[i]`: the plies after it are counted as
    /// unchecked, in the report and in a note on the move's finding.
    #[cold]
    fn unchecked_after(&mut self, i: usize, report: &mut GameReport) {
        let ply = i as u32 + 1;
        let left = (self.moves.len() - i - 1) as u32;
        report.plies_unchecked = left;
        if left > 0 {
            if let Some(d) = self.diags.iter_mut().rev().find(|d| d.ply == Some(ply)) {
                d.notes.push(format!(
                    "{left} {} after this move {} not checked",
                    if left == 1 { "ply" } else { "plies" },
                    if left == 1 { "was" } else { "were" }
                ));
            }
        }
    }

    /// Reads the written move `moves[i]` in `pos` where [`fast_reading`]
    /// did not, from the list of legal moves: the move, with a finding where
    /// the reading was not plain; `None` (and an error) when no move or more
    /// than one fits. `ended`: the game had already ended.
    #[inline(never)]
    fn read_move(&mut self, pos: &Position, i: usize, ended: bool) -> Option<Move> {
        let g = self.game;
        let wm = self.moves[i];
        let ply = i as u32 + 1;
        let squares = g.squares(wm);
        if squares.len() > 2 && matches!(wm.sep, Sep::Capture | Sep::Colon) {
            if let Some(mv) = capture_in_full(pos, self.capturers, squares, &mut self.legal) {
                return Some(mv);
            }
        }
        crate::rules::generate(pos, &mut self.legal);
        let reading = resolve_in(pos, &self.legal, squares, wm.sep);
        match reading {
            Ok(Reading::Move { mv, notation }) => {
                if let Some(why) = notation {
                    self.notation(i, &why);
                }
                Some(mv)
            }
            Ok(Reading::Ambiguous(cands)) => self.disambiguate(pos, &cands, i),
            Err(illegal) => {
                let text = written_text(g, wm);
                let d = illegal_diag(g, pos, &illegal, wm, ply, &text, ended);
                if self.stand
                    && matches!(
                        d.code,
                        Code::MissedCapture | Code::NonMaximalCapture | Code::IllegalMove
                    )
                {
                    return self.stand_or_stop(pos, d, i);
                }
                self.diags.push(d);
                None
            }
        }
    }

    /// The `notation` warning for the written move `moves[i]`, accepted
    /// in a tolerated form (`why`).
    fn notation(&mut self, i: usize, why: &str) {
        let (wm, ply) = (self.moves[i], i as u32 + 1);
        let text = written_text(self.game, wm);
        self.diags.push(
            Diagnostic::new(
                Code::Notation,
                wm.span.clone(),
                format!("{text} accepted: {why}"),
            )
            .at_move(ply, text),
        );
    }

    /// Under [`Irregularities::Stand`], the written move `moves[i]`, refused
    /// by the variant's rules with the finding `d`, read against the relaxed
    /// moves: exactly one fits, so it stands (the finding says so, the move
    /// is played); several with different captured sets fit
    /// (`ambiguous-capture`, an error); none fits (`d`, and the replay stops).
    #[cold]
    fn stand_or_stop(&mut self, pos: &Position, mut d: Diagnostic, i: usize) -> Option<Move> {
        let (g, wm, ply) = (self.game, self.moves[i], i as u32 + 1);
        match crate::notation::resolve_relaxed(pos, g.squares(wm), wm.sep) {
            crate::notation::Relaxed::One { mv, notation } => {
                d.message
                    .to_mut()
                    .push_str("; it stood: the game goes on from the position it made");
                self.diags.push(d);
                if let Some(why) = notation {
                    self.notation(i, &why);
                }
                self.stood = true;
                Some(mv)
            }
            crate::notation::Relaxed::Several(cands) => {
                let text = written_text(g, wm);
                let style = Style::of(g.squares(wm), wm.sep);
                // Each with its whole landing path: the short form is what
                // fits them all.
                let sep = if style.colon { ":" } else { "x" };
                let list = cands
                    .iter()
                    .map(|(_, path)| {
                        path.iter()
                            .map(|&s| display_square(pos, s, style))
                            .collect::<Vec<_>>()
                            .join(sep)
                    })
                    .collect::<Vec<_>>()
                    .join(", ");
                self.diags.push(
                    Diagnostic::new(
                        Code::AmbiguousCapture,
                        wm.span.clone(),
                        format!(
                            "{text} is a {} under the rules of {} and fits {} moves that could stand, taking different pieces ({list}); it cannot stand",
                            d.code,
                            pos.variant(),
                            cands.len()
                        ),
                    )
                    .at_move(ply, text)
                    .with_note(format!("position before the move: {}", pos.to_fen())),
                );
                None
            }
            crate::notation::Relaxed::Nothing => {
                self.diags.push(d);
                None
            }
        }
    }

    /// A written move that fits several captures `cands`: the one that lets the
    /// rest of the game (`rest`) be read, with a warning; `None` (and an error)
    /// when none or more than one does.
    #[cold]
    fn disambiguate(&mut self, pos: &Position, cands: &[Move], i: usize) -> Option<Move> {
        let (g, wm, ply) = (self.game, self.moves[i], i as u32 + 1);
        let rest = &self.moves[i + 1..];
        let text = written_text(g, wm);
        // Linear in the rest of the game: every candidate may be read to the end,
        // with room for later ambiguities.
        let mut budget = LOOKAHEAD_STEPS
            .saturating_add((rest.len() as u64).saturating_mul(2 * (cands.len() as u64 + 1)));
        let outcomes: Vec<Lookahead> = cands
            .iter()
            .map(|c| readable(g, play_unchecked(pos, c), rest, &mut budget))
            .collect();
        let viable: Vec<Move> = cands
            .iter()
            .zip(&outcomes)
            .filter(|(_, o)| **o != Lookahead::Unreadable)
            .map(|(c, _)| *c)
            .collect();
        let cut_short = outcomes.contains(&Lookahead::CutShort);
        let style = Style::of(g.squares(wm), wm.sep);
        let list = cands
            .iter()
            .map(|c| write_move(pos, c, style))
            .collect::<Vec<_>>()
            .join(", ");
        if viable.len() == 1 || (cut_short && !viable.is_empty()) {
            let chosen = write_move(pos, &viable[0], style);
            let message = if cut_short {
                format!("{text} fits {} captures ({list}); the lookahead was cut short after {} steps before it could tell them apart, so {chosen} is taken (the first that was not ruled out)", cands.len(), LOOKAHEAD_STEPS)
            } else {
                format!(
                    "{text} fits {} captures ({list}); only {chosen} lets the rest of the game be read",
                    cands.len()
                )
            };
            self.diags.push(
                Diagnostic::new(Code::AmbiguousCapture, wm.span.clone(), message)
                    .with_severity(Severity::Warning)
                    .at_move(ply, text),
            );
            return Some(viable[0]);
        }
        let why = if viable.is_empty() {
            "none of them"
        } else {
            "more than one of them"
        };
        self.diags.push(
            Diagnostic::new(
                Code::AmbiguousCapture,
                wm.span.clone(),
                format!(
                    "{text} fits {} captures ({list}); {why} lets the rest of the game be read",
                    cands.len()
                ),
            )
            .at_move(ply, text)
            .with_note(format!("position before the move: {}", pos.to_fen())),
        );
        None
    }
}

/// The fast paths of reading a written move, in a position whose pieces that
/// can capture are `capturers`: a plain move written as one in a position
/// with no capture, and a capture written `from`x`to` that only one legal
/// capture fits, checked from its own piece (what `resolve_in` would read
/// from the list of legal moves, without listing them). `scratch` is room
/// for the captures it tries. A capture written in full is read by
/// [`capture_in_full`], out of this hot path.
#[inline]
fn fast_reading(
    pos: &Position,
    capturers: Bitboard,
    squares: &[SquareText],
    sep: Sep,
    scratch: &mut MoveList,
) -> Option<Move> {
    #[inline(always)]
    fn square(g: &crate::board::Geometry, t: SquareText) -> Option<crate::board::Square> {
        match t {
            SquareText::Num(n) => g.size().numbered(u32::from(n)),
            _ => square_of(g, t).ok(),
        }
    }
    /// The squares written `a` and `b`, if both are on the board.
    #[inline(always)]
    fn ends(
        g: &crate::board::Geometry,
        a: SquareText,
        b: SquareText,
    ) -> Option<(crate::board::Square, crate::board::Square)> {
        Some((square(g, a)?, square(g, b)?))
    }
    let g = pos.geometry();
    match (capturers.is_empty(), squares, sep) {
        (true, [a, b], Sep::Move | Sep::None) => {
            let (f, t) = ends(g, *a, *b)?;
            crate::rules::plain_move(pos, f, t)
        }
        (false, [a, b], Sep::Capture | Sep::Colon) => {
            let (f, t) = ends(g, *a, *b)?;
            crate::rules::captures_between(pos, capturers, f, t, scratch);
            match scratch.as_slice() {
                [m] => Some(*m),
                _ => None,
            }
        }
        _ => None,
    }
}

/// A capture written in full (`from`x`landing`x...x`to`), read as
/// `resolve_in` would read it from the list of legal moves, without listing
/// them: the captures from `from` to `to` ([`crate::rules::captures_between`]),
/// then the one the written landing squares fit, along each capture's path;
/// `None` where that is not exactly one (the general reading then explains).
fn capture_in_full(
    pos: &Position,
    capturers: Bitboard,
    squares: &[SquareText],
    scratch: &mut MoveList,
) -> Option<Move> {
    let g = pos.geometry();
    let path = squares
        .iter()
        .map(|&s| square_of(g, s).ok())
        .collect::<Option<smallvec::SmallVec<[crate::board::Square; 8]>>>()?;
    let (&from, &to) = (path.first()?, path.last()?);
    crate::rules::captures_between(pos, capturers, from, to, scratch);
    if scratch.is_empty() {
        return None;
    }
    // The captures with these ends that the written landings fit: the same
    // as among every legal move, which hold no other captures with these ends.
    match crate::notation::fitting_captures(pos, scratch, &path).as_slice() {
        [m] => Some(*m),
        _ => None,
    }
}

/// A ply after which the side to move has no capture: the game ends there
/// with no moves left (won by the side that played it, `winner`) unless the
/// side to move has a plain move; then by `draw`, the draw rules' answer, if
/// any.
struct Unsettled {
    ply: u32,
    winner: Color,
    draw: Option<End>,
}

impl Unsettled {
    /// How the game ends at this ply, `has_plain`: whether the side to move
    /// has a plain move.
    fn settle(self, has_plain: bool) -> Option<End> {
        if has_plain {
            return self.draw;
        }
        Some(End {
            termination: Termination::NoMoves,
            ply: self.ply,
            clause: Clause::NoMoves,
            winner: Some(self.winner),
        })
    }
}

/// Plies the ambiguity lookahead may read beyond what the game needs
/// (docs/rules.md section 3, "Move identity"); the budget grows with the rest of the game, so a long legal
/// game is always read to its end.
pub(crate) const LOOKAHEAD_STEPS: u64 = 200_000;

/// What reading the rest of a game after a candidate gave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lookahead {
    Readable,
    Unreadable,
    /// The budget ran out first: not a verdict.
    CutShort,
}

/// Whether every move of `rest` can be read as legal from `pos` (docs/rules.md section 3, "Move identity",
/// applied again to later ambiguous short forms). `budget` bounds the work.
fn readable(g: &Game, pos: Position, rest: &[&WrittenMove], budget: &mut u64) -> Lookahead {
    readable_at(g, pos, rest, budget, 0)
}

/// Later ambiguities nested this deep end the lookahead (as a cut, never a verdict):
/// each one is a level of recursion.
const LOOKAHEAD_DEPTH: u32 = 256;

fn readable_at(
    g: &Game,
    mut pos: Position,
    rest: &[&WrittenMove],
    budget: &mut u64,
    depth: u32,
) -> Lookahead {
    if depth > LOOKAHEAD_DEPTH {
        return Lookahead::CutShort;
    }
    let mut legal = MoveList::new();
    for (i, wm) in rest.iter().enumerate() {
        if *budget == 0 {
            return Lookahead::CutShort;
        }
        *budget -= 1;
        crate::rules::generate(&pos, &mut legal);
        match resolve_in(&pos, &legal, g.squares(wm), wm.sep) {
            Err(_) => return Lookahead::Unreadable,
            Ok(Reading::Move { mv, .. }) => pos = play_unchecked(&pos, &mv),
            Ok(Reading::Ambiguous(c)) => {
                let mut readable_count = 0;
                for m in &c {
                    match readable_at(
                        g,
                        play_unchecked(&pos, m),
                        &rest[i + 1..],
                        budget,
                        depth + 1,
                    ) {
                        Lookahead::Readable => readable_count += 1,
                        Lookahead::Unreadable => {}
                        Lookahead::CutShort => return Lookahead::CutShort,
                    }
                    if readable_count > 1 {
                        break;
                    }
                }
                return if readable_count == 1 {
                    Lookahead::Readable
                } else {
                    Lookahead::Unreadable
                };
            }
        }
    }
    Lookahead::Readable
}

fn illegal_diag(
    g: &Game,
    pos: &Position,
    illegal: &Illegal,
    wm: &WrittenMove,
    ply: u32,
    text: &str,
    after_end: bool,
) -> Diagnostic {
    let squares = g.squares(wm);
    let style = Style::of(squares, wm.sep);
    let side = match pos.side() {
        Color::White => "White",
        Color::Black => "Black",
    };
    let plural = |n: u32| if n == 1 { "piece" } else { "pieces" };
    let (code, msg) = match illegal {
        Illegal::NoSuchSquare(e) => (Code::NoSuchSquare, format!("{text}: {e}")),
        Illegal::EmptySource { square, found } => {
            let from = squares.first().map(|&s| square_of(pos.geometry(), s).map(|q| display_square(pos, q, style)).unwrap_or_default());
            let from = from.unwrap_or_else(|| square.to_string());
            let m = match found {
                None => format!("{text}: square {from} is empty ({side} to move)"),
                Some(_) => format!("{text}: square {from} holds a piece of the other side ({side} to move)"),
            };
            (Code::EmptySource, m)
        }
        Illegal::MissedCapture { example, .. }
            if !pos.variant().rules().capture.takes_most()
                || pos.variant().rules().capture == crate::variant::CaptureRule::Value =>
        {
            (
                Code::MissedCapture,
                format!(
                    "{text} is a plain move, but capturing is compulsory (for example {})",
                    write_move(pos, example, style)
                ),
            )
        }
        Illegal::MissedCapture { max, example } => (
            Code::MissedCapture,
            format!(
                "{text} is a plain move, but capturing is compulsory: the maximum takes {max} {} (for example {})",
                plural(*max),
                write_move(pos, example, style)
            ),
        ),
        Illegal::CaptureGoesOn { example } => (
            Code::IllegalMove,
            format!(
                "{text} is not legal: the capture can go on (for example {})",
                write_move(pos, example, style)
            ),
        ),
        Illegal::NonMaximalCapture { taken, max, example } => (
            Code::NonMaximalCapture,
            format!(
                "{text} takes {taken} {}, but the maximum capture takes {max} (for example {})",
                plural(*taken),
                write_move(pos, example, style)
            ),
        ),
        Illegal::LowerValue {
            value,
            best,
            example,
        } => (
            Code::NonMaximalCapture,
            format!(
                "{text} takes {value} (a man counts 100, a king 199); the greatest value is {best} (for example {})",
                write_move(pos, example, style)
            ),
        ),
        Illegal::Other(why) => (Code::IllegalMove, format!("{text} is not legal: {why}")),
    };
    let mut d = Diagnostic::new(code, wm.span.clone(), msg)
        .at_move(ply, text)
        .with_note(format!("position before the move: {}", pos.to_fen()));
    if after_end {
        d = d.with_note("this move comes after the game had already ended by rule");
    }
    d
}

fn display_square(pos: &Position, sq: crate::board::Square, style: Style) -> String {
    if style.algebraic {
        pos.geometry().algebraic(sq)
    } else {
        sq.number().to_string()
    }
}

/// Variations are replayed from their own position; their findings are warnings.
/// Replays the variations from their own positions; `main_positions` are the
/// start and the position after each main-line ply read (up to the first error).
fn replay_variations(g: &Game, main_positions: &[Position], diags: &mut Vec<Diagnostic>) {
    let Some(start) = main_positions.first() else {
        return;
    };
    // The ply label (`1.` = 0, `1...` = 1) of the first main-line move: a
    // numbered first move of a variation names the main move it replaces,
    // even when the variation is written before that move.
    let main_moves: Vec<&WrittenMove> = g.main_line().collect();
    let anchor = main_moves
        .first()
        .and_then(|m| m.numbered_ply())
        .unwrap_or(u32::from(start.side() == Color::Black));
    #[derive(Clone, Copy)]
    struct Line {
        before: Option<Position>,
        current: Option<Position>,
        /// A variation of the main line that has not read a move yet.
        fresh_main: bool,
    }
    let mut main_count = 0usize;
    let mut stack: Vec<Line> = Vec::new();
    for n in &g.nodes {
        match n {
            Node::Open(_) => {
                let parent_before = match stack.last() {
                    Some(l) => l.before,
                    None => main_count
                        .checked_sub(1)
                        .and_then(|k| main_positions.get(k).copied()),
                };
                stack.push(Line {
                    before: None,
                    current: parent_before,
                    fresh_main: stack.is_empty(),
                });
            }
            Node::Close(_) => {
                stack.pop();
            }
            Node::Move(wm) => match stack.last_mut() {
                None => main_count += 1,
                Some(line) => {
                    if std::mem::take(&mut line.fresh_main) {
                        if let Some(k) = wm.numbered_ply().and_then(|l| l.checked_sub(anchor)) {
                            if let Some(p) = main_positions.get(k as usize) {
                                line.current = Some(*p);
                            }
                        }
                    }
                    let Some(p) = line.current else { continue };
                    let text = written_text(g, wm);
                    match resolve_in(&p, &legal_moves(&p), g.squares(wm), wm.sep) {
                        Ok(Reading::Move { mv, .. }) => {
                            line.before = Some(p);
                            line.current = Some(play_unchecked(&p, &mv));
                        }
                        Ok(Reading::Ambiguous(c)) => {
                            line.before = Some(p);
                            line.current = Some(play_unchecked(&p, &c[0]));
                        }
                        Err(illegal) => {
                            let mut d = illegal_diag(g, &p, &illegal, wm, 0, &text, false)
                                .with_severity(Severity::Warning);
                            d.message = format!("in a variation: {}", d.message).into();
                            d.ply = None;
                            diags.push(d);
                            line.current = None;
                            line.before = None;
                        }
                    }
                }
            },
            Node::Unknown(_) => {
                if let Some(line) = stack.last_mut() {
                    line.current = None;
                } else {
                    main_count += 1;
                }
            }
            _ => {}
        }
    }
}

/// The declared result alone, without findings (for games that are not checked).
fn declared_only(g: &Game, v: Option<Variant>) -> Option<Outcome> {
    let mut scratch = Vec::new();
    let mut r = GameReport {
        computed: Outcome::Unknown,
        ..empty_report()
    };
    check_result(g, v, true, &mut r, &mut scratch);
    r.declared
}

fn empty_report() -> GameReport {
    GameReport {
        variant: None,
        kind: None,
        checked: false,
        read_only: false,
        inferred: false,
        from_path: false,
        source: VariantSource::Tag,
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

/// The result token ending the movetext, read for the game's variant
/// (English records give the first player's score first).
fn result_token(g: &Game, v: Option<Variant>) -> Option<(Outcome, Span)> {
    let (o, span) = g.result.clone()?;
    match v {
        Some(v) if v.first_player_scores_first() => {
            let text = String::from_utf8_lossy(g.bytes(&span));
            Some((Outcome::parse_for(&text, Some(v)).unwrap_or(o), span))
        }
        _ => Some((o, span)),
    }
}

/// Whether a result as written depends on who scores first (`1-0`, `0-1`).
fn order_dependent(text: &str) -> bool {
    matches!(text.trim(), "1-0" | "0-1")
}

fn check_result(
    g: &Game,
    variant: Option<Variant>,
    order_known: bool,
    report: &mut GameReport,
    diags: &mut Vec<Diagnostic>,
) {
    let tag = g.find_tag("Result");
    let token = result_token(g, variant);
    if !order_known {
        // The text that declares the result: the tag's, else the token's.
        let text = match tag {
            Some(t) => g.tag_text(t).into_owned(),
            None => g
                .result
                .as_ref()
                .map(|(_, span)| String::from_utf8_lossy(g.bytes(span)).into_owned())
                .unwrap_or_default(),
        };
        report.result_as_written = order_dependent(&text);
    }
    let declared = match tag {
        Some(t) => {
            let value = g.tag_text(t);
            match Outcome::parse_for(&value, variant) {
                Some(o) => {
                    if let Some((tok, span)) = &token {
                        if *tok != o {
                            diags.push(Diagnostic::new(
                                Code::ResultConflict,
                                span.clone(),
                                format!(
                                    "the movetext ends with {} but the Result tag says {}",
                                    tok.normalised(),
                                    o.normalised()
                                ),
                            ));
                        }
                    }
                    Some(o)
                }
                None => {
                    let from_token = token.as_ref().map(|t| t.0);
                    diags.push(Diagnostic::new(
                        Code::Nonstandard,
                        t.span.clone(),
                        format!(
                            "Result tag \"{value}\" is not a PDN result (read as {})",
                            from_token.unwrap_or(Outcome::Unknown).normalised()
                        ),
                    ));
                    Some(from_token.unwrap_or(Outcome::Unknown))
                }
            }
        }
        None => token.as_ref().map(|t| t.0),
    };
    if report.result_as_written {
        // Kept as written: no meaning, so nothing to compare it with.
        report.declared = None;
        return;
    }
    if declared.is_none() {
        // At the end of the movetext (where a result would go), or at the tags
        // when there are no moves.
        let end = g
            .nodes
            .iter()
            .map(|n| match n {
                Node::Move(m) => m.span.end.max(m.suffix.range().end),
                Node::Comment(s) => (s.end + 1).min(g.text.len()),
                Node::Nag(_, s)
                | Node::Open(s)
                | Node::Close(s)
                | Node::Setup(s)
                | Node::Escape(s)
                | Node::Unknown(s) => s.end,
            })
            .max();
        let span = match (end, g.tags.last()) {
            (Some(e), _) if e > 0 => e - 1..e,
            (_, Some(t)) => t.span.clone(),
            _ => 0..0,
        };
        diags.push(Diagnostic::new(
            Code::MissingResult,
            span,
            "neither a Result tag nor a result token gives the result",
        ));
    }
    report.declared = declared;
    if report.computed != Outcome::Unknown {
        if let Some(d) = declared {
            if d != report.computed {
                let span = tag
                    .map(|t| t.span.clone())
                    .or(token.map(|t| t.1))
                    .unwrap_or(0..0);
                let sev = if d == Outcome::Unknown {
                    Severity::Warning
                } else {
                    Severity::Error
                };
                let how = match report.termination_ply {
                    Some(p) => format!(
                        "{} after ply {p}",
                        report.clause.map_or("rule", Clause::as_str)
                    ),
                    None => "rule".to_string(),
                };
                diags.push(
                    Diagnostic::new(
                        Code::ResultMismatch,
                        span,
                        format!(
                            "the record says {}, but the game ended {} by {how}",
                            d.normalised(),
                            report.computed.normalised()
                        ),
                    )
                    .with_severity(sev),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every row of every shipped opening table with moves, replayed from
    /// its start, reaches its position (OPENINGS.md 3.1); the opening of
    /// that replay is the row, or a row with its position.
    #[test]
    fn every_ballot_row_replays_to_its_position() {
        let mut replayed = 0;
        for name in crate::openings::shipped_names() {
            let Some(t) = crate::openings::Table::shipped(name) else {
                panic!("{name} is not shipped");
            };
            for r in t.rows.iter().filter(|r| !r.moves.is_empty()) {
                let v = r.variants[0];
                let fen = r
                    .start_fen
                    .map(|f| format!("[FEN \"{f}\"]\n"))
                    .unwrap_or_default();
                let text = format!(
                    "[GameType \"{}\"]\n{fen}\n{} *\n",
                    v.game_type(),
                    r.moves.join(" ")
                );
                let games = crate::pdn::read_all(text.as_bytes());
                let g = &games[0];
                let replay = Replay::new(g, &Options::default());
                let errors: Vec<String> = replay
                    .report()
                    .diagnostics
                    .iter()
                    .filter(|d| d.severity == crate::diag::Severity::Error)
                    .map(|d| d.message.to_string())
                    .collect();
                assert!(errors.is_empty(), "{name} {}: {errors:?}", r.code);
                let last = replay.last().map(|p| p.after);
                let want = Position::from_fen(r.fen, v).ok();
                assert_eq!(
                    last.map(|p| crate::openings::key(&p)),
                    want.map(|p| crate::openings::key(&p)),
                    "{name} {}: {} does not reach {}",
                    r.code,
                    r.moves.join(" "),
                    r.fen
                );
                replayed += 1;
            }
        }
        assert!(replayed >= 3_600, "{replayed} rows replayed");
    }
    use crate::pdn::read_all;

    fn run(text: &str, opts: impl std::borrow::Borrow<Options>) -> GameReport {
        let g = read_all(text.as_bytes())
            .into_iter()
            .next()
            .expect("a game");
        check_game_alone(&g, opts.borrow())
    }

    fn codes(r: &GameReport) -> Vec<&'static str> {
        r.diagnostics.iter().map(|d| d.code.as_str()).collect()
    }

    #[test]
    fn variant_from_game_type_variant_tag_or_squares() {
        let o = Options::default();
        assert_eq!(
            run("[GameType \"26,W,8,8,A0,0\"] 1. c3-d4 *", &o).variant,
            Some(Variant::Brazilian)
        );
        assert_eq!(
            run("[Variant \"Brazilian\"] 1. c3-d4 *", &o).variant,
            Some(Variant::Brazilian)
        );
        assert_eq!(
            run("[Variant \"Standard\"] 1. 32-28 *", &o).variant,
            Some(Variant::International)
        );
        let r = run("[Variant \"Spanish\"] 1. 32-28 *", &o);
        assert_eq!(
            (r.variant, r.kind, r.checked, r.verdict(), codes(&r)),
            (
                None,
                Some(GameKind::Unsupported(Unsupported(24))),
                false,
                None,
                vec![]
            )
        );
        let r = run("[Variant \"Klingon\"] 1. 32-28 *", &o);
        assert_eq!((r.variant, codes(&r)), (None, vec!["unknown-variant"]));
        let r = run("[GameType \"25\"] 1. c3-d4 *", &o);
        assert_eq!((r.variant, codes(&r)), (Some(Variant::Russian), vec![]));
        let r = run("[GameType \"21,B,8,8,N1,0\"] 1. 11-15 *", &o);
        assert_eq!((r.variant, codes(&r)), (Some(Variant::English), vec![]));
        // Italian, bare or in full form (mirrored board: orientation 1).
        let r = run("[GameType \"22\"] 1. 22-18 *", &o);
        assert_eq!(
            (r.variant, r.checked, codes(&r)),
            (Some(Variant::Italian), true, vec![])
        );
        let r = run("[GameType \"22,W,8,8,N2,1\"] 1. 22-18 *", &o);
        assert_eq!((r.variant, codes(&r)), (Some(Variant::Italian), vec![]));
        let r = run("[GameType \"22,W,8,8,N2,0\"] 1. 22-18 *", &o);
        assert_eq!((r.variant, codes(&r)), (None, vec!["unknown-variant"]));
        let r = run("[GameType \"29,W,8,8,A0,0\"] 1. c3-d4 *", &o);
        assert_eq!((r.variant, codes(&r)), (Some(Variant::Czech), vec![]));
        let r = run("[GameType \"40\"] 1. 32-28 *", &o);
        assert_eq!(
            (r.kind, r.checked, codes(&r)),
            (Some(GameKind::Known(Variant::Frisian)), true, vec![])
        );
        let r = run("[GameType \"97\"] 1. 46-41 *", &o);
        assert_eq!((r.variant, codes(&r)), (Some(Variant::Frysk), vec![]));
        let r = run("[GameType \"23\"] 1. 22-18 *", &o);
        assert_eq!(
            (r.kind, r.checked, codes(&r)),
            (Some(GameKind::Unsupported(Unsupported(23))), false, vec![])
        );
        let r = run("[GameType \"99\"] 1. 22-18 *", &o);
        assert_eq!(r.kind, Some(GameKind::Unsupported(Unsupported(99))));
        let r = run("[GameType \"draughts\"] 1. 22-18 *", &o);
        assert_eq!((r.kind, codes(&r)), (None, vec!["unknown-variant"]));
        // Untagged: read as the (one-game) file's evidence says; the
        // variant-inferred warning is a finding about the file.
        let r = run("[FEN \"W:W55:B1\"] 1. 55-49 *", &o);
        assert_eq!(
            (r.variant, r.inferred, codes(&r)),
            (Some(Variant::Canadian), true, vec![])
        );
        let r = run("1. 11-15 23-18 *", &o);
        assert_eq!(r.variant, Some(Variant::English));
        let r = run("1. c3-d4 f6-e5 2. d4:f6 g7:e5 *", &o);
        assert_eq!(r.variant, Some(Variant::Russian));
        let r = run("1. 22-18 *", &o);
        assert_eq!(r.variant, Some(Variant::Brazilian));
        // --force-variant wins over GameType, with a warning.
        let forced = Options {
            force_variant: Some(Variant::International),
            ..o.clone()
        };
        let r = run("[GameType \"26\"] 1. 32-28 *", &forced);
        assert_eq!(
            (r.variant, r.source, codes(&r)),
            (
                Some(Variant::International),
                VariantSource::Forced,
                vec!["variant-inferred"]
            )
        );
        assert!(r.valid());
        // --variant is the variant of untagged games only: a tag keeps its own.
        let named = Options {
            variant: Some(Variant::International),
            ..o.clone()
        };
        let r = run("[GameType \"26\"] 1. c3-d4 *", &named);
        assert_eq!(
            (r.variant, r.source, codes(&r)),
            (Some(Variant::Brazilian), VariantSource::Tag, vec![])
        );
        let g = &read_all(b"1. 32-28 *")[0];
        let r = check_game_with(g, &named, &Inference::named(Variant::International));
        assert_eq!(
            (r.variant, r.source, r.inferred),
            (Some(Variant::International), VariantSource::Named, false)
        );
    }

    #[test]
    fn start_from_fen_tag_or_setup_black_to_move() {
        let o = Options::default();
        let r = run("[GameType \"20\"][FEN \"B:W31-50:B1-20\"] 1... 20-25 *", &o);
        assert_eq!((r.plies, r.valid()), (1, true));
        let r = run("[GameType \"20\"] /B:W31-50:B1-20/ 1... 20-25 *", &o);
        assert_eq!((r.plies, r.valid()), (1, true));
        let r = run("[GameType \"20\"][FEN \"W:W31,31:B1\"] 1. 31-26 *", &o);
        assert_eq!(codes(&r), vec!["bad-fen"]);
    }

    /// A capture written in full is read from its piece and along its path
    /// exactly as the general reading reads it from every legal move: on
    /// random positions of every variant, each legal capture written with its
    /// whole landing path, with its middle landings only in part, and with a
    /// wrong landing.
    #[test]
    fn a_capture_written_in_full_is_read_as_from_the_list() {
        use crate::board::Square;
        let (mut legal, mut scratch) = (MoveList::new(), MoveList::new());
        let (mut read, mut left) = (0usize, 0usize);
        crate::rules::testing::random_positions(120, |pos| {
            crate::rules::generate(pos, &mut legal);
            let capturers = crate::rules::capturers(pos);
            let caps: Vec<Move> = legal.iter().filter(|m| m.is_capture()).copied().collect();
            for m in caps {
                for (_, path) in crate::rules::capture_paths(pos, m.from(), 1) {
                    if path.len() < 3 || path[path.len() - 1] != m.to() {
                        continue;
                    }
                    let full: Vec<Square> = path.to_vec();
                    let part: Vec<Square> = vec![path[0], path[1], path[path.len() - 1]];
                    let mut wrong = full.clone();
                    wrong[1] = path[path.len() - 1];
                    for written in [full, part, wrong] {
                        let texts: Vec<SquareText> = written
                            .iter()
                            .map(|s| SquareText::Num(s.number() as u16))
                            .collect();
                        let general = resolve_in(pos, &legal, &texts, Sep::Capture);
                        match capture_in_full(pos, capturers, &texts, &mut scratch) {
                            Some(mv) => {
                                read += 1;
                                assert!(
                                    matches!(general, Ok(Reading::Move { mv: g, notation: None }) if g == mv),
                                    "{} {written:?}",
                                    pos.to_fen()
                                );
                            }
                            None => {
                                left += 1;
                                assert!(
                                    !matches!(general, Ok(Reading::Move { notation: None, .. })),
                                    "{} {written:?}: the general reading found one move",
                                    pos.to_fen()
                                );
                            }
                        }
                    }
                }
            }
        });
        assert!(read > 1000 && left > 100, "{read} {left}");
    }

    /// The end with no moves left is settled when the next move is read:
    /// a move after it is read as coming after the end.
    #[test]
    fn no_moves_left_before_a_written_move() {
        let o = Options::default();
        // 28x17 takes Black's last piece; a move is written after it.
        let r = run(
            "[GameType \"20\"][FEN \"W:W33:B18\"] 1. 33-28 18-22 2. 28x17 17-11 *",
            &o,
        );
        assert_eq!(
            (r.computed, r.termination, r.termination_ply, r.plies),
            (Outcome::WhiteWins, Termination::NoMoves, Some(3), 3)
        );
        let d = r.first_error().expect("the move after the end is an error");
        assert_eq!(d.ply, Some(4));
        assert!(
            d.notes.iter().any(|n| n.contains("already ended")),
            "{:?}",
            d.notes
        );
        // The side to move has a plain move: no end, and the move is read.
        let r = run(
            "[GameType \"20\"][FEN \"W:W48:B3\"] 1. 48-42 3-9 2. 42-37 *",
            &o,
        );
        assert_eq!(
            (r.termination, r.plies, r.valid()),
            (Termination::Unfinished, 3, true)
        );
    }

    #[test]
    fn results_declared_against_computed() {
        let o = Options::default();
        let r = run(
            "[GameType \"20\"][FEN \"W:W33:B18\"][Result \"2-0\"] 1. 33-28 18-22 2. 28x17 2-0",
            &o,
        );
        assert_eq!(
            (r.computed, r.termination, r.termination_ply),
            (Outcome::WhiteWins, Termination::NoMoves, Some(3))
        );
        assert!(r.valid(), "{:?}", codes(&r));
        let r = run(
            "[GameType \"20\"][FEN \"W:W33:B18\"][Result \"1-1\"] 1. 33-28 18-22 2. 28x17 1-1",
            &o,
        );
        assert_eq!(codes(&r), vec!["result-mismatch"]);
        let r = run(
            "[GameType \"20\"][FEN \"W:W33:B18\"][Result \"*\"] 1. 33-28 18-22 2. 28x17 *",
            &o,
        );
        assert_eq!(codes(&r), vec!["result-mismatch"]);
        assert!(
            r.valid(),
            "declared * with a computed end is only a warning"
        );
        let r = run("[GameType \"20\"][Result \"2-0\"] 1. 32-28 0-2", &o);
        assert_eq!(codes(&r), vec!["result-conflict"]);
        let r = run("[GameType \"20\"] 1. 32-28", &o);
        assert_eq!(codes(&r), vec!["missing-result"]);
        // Moves after a win are checked: the side that lost has no move.
        let r = run(
            "[GameType \"20\"][FEN \"W:W33:B18\"] 1. 33-28 18-22 2. 28x17 17-11 2-0",
            &o,
        );
        assert!(!r.valid());
        assert_eq!(r.computed, Outcome::WhiteWins);
    }

    // Irregularities that stood (docs/rules.md; RULES.md section 9): one
    // hand-made case per clause, under both modes.

    fn stand() -> Options {
        Options::default().irregularities(Irregularities::Stand)
    }

    /// (plies, plies unchecked, moves that stood, computed result).
    fn counts(r: &GameReport) -> (u32, u32, u32, Outcome) {
        (r.plies, r.plies_unchecked, r.irregularities, r.computed)
    }

    fn stood(r: &GameReport) -> Vec<(Option<u32>, &'static str)> {
        r.diagnostics
            .iter()
            .filter(|d| d.message.contains("it stood: the game goes on"))
            .map(|d| (d.ply, d.code.as_str()))
            .collect()
    }

    #[test]
    fn a_non_maximal_capture_stands_and_the_result_of_the_game_as_played_is_compared() {
        // c3xa5 takes 1 where a3xa7 takes 2; then White takes Black's last
        // free man and Black, blocked, has no move: 2-0, not the 1-1 written.
        let text = "[GameType \"26\"][FEN \"W:W22,21:B6,17,9\"][Result \"1-1\"] 1. c3xa5 c7-d6 2. a5xe5 1-1";
        let r = run(text, Options::default());
        assert_eq!(counts(&r), (0, 2, 0, Outcome::Unknown));
        assert_eq!(
            codes(&r),
            vec!["non-maximal-capture"],
            "no mismatch is visible under stop"
        );
        let r = run(text, stand());
        assert_eq!(counts(&r), (3, 0, 1, Outcome::WhiteWins));
        assert_eq!(stood(&r), vec![(Some(1), "non-maximal-capture")]);
        assert_eq!(codes(&r), vec!["non-maximal-capture", "result-mismatch"]);
        assert_eq!(r.termination, Termination::NoMoves);
        assert!(
            !r.valid(),
            "a game with an irregularity that stood is not valid"
        );
    }

    #[test]
    fn a_missed_capture_stands_and_later_moves_are_judged_from_the_position_it_made() {
        // 45-40 while 33x22 is compulsory; Black then must take 33, and
        // takes White's last man after 40-34.
        let text = "[GameType \"20\"][FEN \"W:W33,45:B28\"][Result \"0-2\"] 1. 45-40 28x39 2. 40-34 39x30 0-2";
        assert_eq!(
            counts(&run(text, Options::default())),
            (0, 3, 0, Outcome::Unknown)
        );
        let r = run(text, stand());
        assert_eq!(counts(&r), (4, 0, 1, Outcome::BlackWins));
        assert_eq!(stood(&r), vec![(Some(1), "missed-capture")]);
        assert_eq!(
            codes(&r),
            vec!["missed-capture"],
            "0-2 is the result as played"
        );
    }

    #[test]
    fn a_capture_stopped_early_stands_under_free_capture() {
        // Russian c3:a5 stops where c3:a5:c7 goes on.
        let text = "[GameType \"25\"][FEN \"W:W22:B17,9\"] 1. c3:a5 b6-c5 *";
        let r = run(text, Options::default());
        assert_eq!((codes(&r), r.plies), (vec!["illegal-move"], 0));
        let r = run(text, stand());
        assert_eq!(counts(&r), (2, 0, 1, Outcome::Unknown));
        assert_eq!(stood(&r), vec![(Some(1), "illegal-move")]);
        assert!(r.diagnostics[0].message.contains("the capture can go on"));
        // The man stopped on a5 (13) and b6 (9) is still there.
        let after = r.position_before(2);
        assert!(after.is_none(), "positions are kept only with keep_moves");
        let r = run(text, stand().keep_moves(true));
        let after = r.position_before(2).expect("replayed");
        assert_eq!(after.to_fen(), "B:W13:B9");
    }

    #[test]
    fn a_czech_man_capturing_while_a_king_can_stands() {
        let text = "[GameType \"29\"][FEN \"W:W22,K28:B17,24\"] 1. c3xa5 g3-f2 *";
        assert_eq!(run(text, Options::default()).plies, 0);
        let r = run(text, stand());
        assert_eq!(counts(&r), (2, 0, 1, Outcome::Unknown));
        assert_eq!(stood(&r), vec![(Some(1), "illegal-move")]);
        assert!(r.diagnostics[0].message.contains("a king must capture"));
    }

    #[test]
    fn an_italian_capture_against_the_precedence_stands() {
        // The king on 30 must take 27; the man takes 18 instead.
        let text = "[GameType \"22\"][FEN \"W:W21,K30:B18,27\"] 1. 21x14 27-31 *";
        assert_eq!(run(text, Options::default()).plies, 0);
        let r = run(text, stand());
        assert_eq!(counts(&r), (2, 0, 1, Outcome::Unknown));
        assert_eq!(stood(&r), vec![(Some(1), "illegal-move")]);
    }

    #[test]
    fn a_man_moving_backwards_still_stops_the_replay() {
        let text = "[GameType \"20\"][FEN \"W:W33,45:B28\"] 1. 45-50 28x39 2. 33-28 *";
        for opts in [Options::default(), stand()] {
            let r = run(text, opts);
            assert_eq!(counts(&r), (0, 2, 0, Outcome::Unknown));
            assert_eq!(codes(&r), vec!["illegal-move"]);
            assert!(stood(&r).is_empty());
            assert!(r.diagnostics[0].message.contains("backwards"));
        }
    }

    #[test]
    fn a_move_that_fits_two_relaxed_captures_stops_as_ambiguous() {
        // 42x22 is the start of the round capture 42x42 by either side of
        // the diamond: two captured sets.
        let text = "[GameType \"20\"][FEN \"W:W42:B37,27,38,28,17\"] 1. 42x22 17-21 *";
        let r = run(text, Options::default());
        assert_eq!(codes(&r), vec!["non-maximal-capture"]);
        let r = run(text, stand());
        assert_eq!(counts(&r), (0, 1, 0, Outcome::Unknown));
        assert_eq!(codes(&r), vec!["ambiguous-capture"]);
        assert_eq!(r.diagnostics[0].severity, Severity::Error);
        let m = &r.diagnostics[0].message;
        assert!(
            m.contains("non-maximal-capture") && m.contains("42x31x22, 42x33x22"),
            "{m}"
        );
        // The path that tells them apart stands.
        let r = run(
            "[GameType \"20\"][FEN \"W:W42:B37,27,38,28,17\"] 1. 42x31x22 17-21 *",
            stand(),
        );
        assert_eq!(counts(&r), (2, 0, 1, Outcome::Unknown));
    }

    #[test]
    fn the_king_move_draw_counts_the_irregular_move() {
        // b4-c5 is a king's plain move while it must capture; then 39 more
        // plies of king moves with no capture: the CBJD draw after ply 40.
        let moves = "1. b4-c5 e5-g7 2. b8-h2 a5-d8 3. e1-f2 g7-f6 4. c5-a7 d8-e7 5. a7-e3 f6-h4 \
            6. f2-e1 e7-a3 7. e3-d4 h4-d8 8. e1-c3 a3-e7 9. h2-g3 e7-g5 10. g3-e5 g5-h4 \
            11. c3-d2 d8-e7 12. d4-e3 e7-d8 13. e5-b8 d8-e7 14. e3-f4 e7-a3 15. f4-c7 a3-e7 \
            16. d2-e1 e7-f6 17. c7-h2 h4-g5 18. h2-c7 g5-c1 19. c7-g3 f6-h4 20. g3-h2 c1-e3";
        let text = format!(
            "[GameType \"26\"][FEN \"W:WK1,K31,K17:BK15,K13\"][Result \"1-1\"] {moves} 1-1"
        );
        let r = run(text.as_str(), Options::default());
        assert_eq!((r.plies, r.termination), (0, Termination::Unfinished));
        let r = run(text.as_str(), stand());
        assert_eq!(counts(&r), (40, 0, 1, Outcome::Draw));
        assert_eq!(
            (r.termination, r.termination_ply),
            (Termination::KingMoves, Some(40))
        );
        assert_eq!(codes(&r), vec!["missed-capture"]);
    }

    #[test]
    fn under_stop_nothing_changes() {
        assert_eq!(Options::default().irregularities, Irregularities::Stop);
        assert_eq!("stand".parse(), Ok(Irregularities::Stand));
        assert_eq!(" STOP ".parse(), Ok(Irregularities::Stop));
        assert!("rectify".parse::<Irregularities>().is_err());
        assert_eq!(Irregularities::Stand.name(), "stand");
    }

    #[test]
    fn frisian_draws_count_from_the_material_and_a_win_comes_first() {
        let o = Options::default();
        // Two kings against one: drawn 14 plies after the setup, whatever
        // --draw-rules says.
        let moves = "1. 14-41 3-25 2. 39-48 25-3 3. 48-39 3-20 4. 39-44 20-9 5. 41-36 9-20 \
            6. 44-39 20-15 7. 39-6 15-24";
        let text = format!("[GameType \"40\"][FEN \"W:WK14,K39:BK3\"] {moves} *");
        for rules in [None, Some(DrawRules::Cbjd), Some(DrawRules::Fmjd)] {
            let r = run(text.as_str(), o.clone().draw_rules(rules));
            assert_eq!(r.draw_rules, Some(DrawRules::Frisian));
            assert_eq!(
                (r.computed, r.termination, r.termination_ply, r.clause),
                (
                    Outcome::Draw,
                    Termination::Ending,
                    Some(14),
                    Some(Clause::Kings2v1)
                )
            );
        }
        // One ply short: not yet.
        let short = format!(
            "[GameType \"40\"][FEN \"W:WK14,K39:BK3\"] {} *",
            moves.trim_end_matches(" 15-24")
        );
        assert_eq!(run(short.as_str(), &o).termination, Termination::Unfinished);
        // One king against one: 4 plies.
        let r = run(
            "[GameType \"40\"][FEN \"W:WK34:BK11\"] 1. 34-40 11-16 2. 40-12 16-2 *",
            &o,
        );
        assert_eq!(
            (r.computed, r.termination_ply, r.clause),
            (Outcome::Draw, Some(4), Some(Clause::Kings1v1))
        );
        // The lone king taken on the 14th ply: a win, not a draw.
        let r = run(
            "[GameType \"40\"][FEN \"W:WK9:BK21,K24\"][Result \"0-2\"] 1. 9-18 24-30 2. 18-45 30-8 \
             3. 45-34 21-27 4. 34-1 27-36 5. 1-29 36-9 6. 29-45 8-13 7. 45-12 13x11 0-2",
            &o,
        );
        assert_eq!(
            (r.computed, r.termination, r.termination_ply),
            (Outcome::BlackWins, Termination::NoMoves, Some(14))
        );
        assert!(r.valid(), "{:?}", codes(&r));
    }
}
