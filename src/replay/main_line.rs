//! The main line replayed ply by ply: each written move read against the
//! legal moves, the findings of a move that does not fit, the end of the game.

use crate::board::Bitboard;
use crate::diag::{Code, Diagnostic, Severity};
use crate::draw::{Clause, DrawState, Termination};
use crate::notation::{resolve_in, square_of, write_move, Illegal, Reading, Style};
use crate::pdn::{Game, Outcome, Sep, SquareText, WrittenMove};
use crate::piece::Color;
use crate::position::Position;

use crate::pdn::Node;
use crate::replay::options::{Irregularities, Options};
use crate::replay::report::{GameReport, Played};
use crate::rules::{play_unchecked, Move, MoveList};

pub(super) fn written_text(g: &Game, m: &WrittenMove) -> String {
    String::from_utf8_lossy(g.bytes(&m.span))
        .split_whitespace()
        .collect()
}

/// The ended state: termination, ply, clause, and the winner if decisive.
pub(super) struct End {
    pub(super) termination: Termination,
    pub(super) ply: u32,
    pub(super) clause: Clause,
    pub(super) winner: Option<Color>,
}

impl End {
    /// The side to move has no move after ply `ply`: `winner` wins (its
    /// opponent, or itself in antidraughts: [`Variant::no_moves_winner`](crate::Variant::no_moves_winner)).
    fn no_moves(ply: u32, winner: Color) -> End {
        End {
            termination: Termination::NoMoves,
            ply,
            clause: Clause::NoMoves,
            winner: Some(winner),
        }
    }

    /// How a game stands in its start position `pos`, whose pieces that can
    /// capture are `capturers`: over when the side to move has no move, or
    /// in breakthrough when a king is on the board.
    fn at_start(pos: &Position, capturers: Bitboard) -> Option<End> {
        let variant = pos.variant();
        if capturers.is_empty() && !crate::rules::has_plain_move(pos) {
            Some(End::no_moves(0, variant.no_moves_winner(pos.side())))
        } else if variant.first_king_wins() {
            End::first_king(pos, 0)
        } else {
            None
        }
    }

    /// The end ply `ply` reaches unless the side to move has no move
    /// (which decides first, RULES.md 13.4): breakthrough's first king,
    /// else the draw rules' answer.
    #[inline]
    fn after_ply(
        breakthrough: bool,
        state: &mut DrawState,
        (pos, mv, after): (&Position, &Move, &Position),
        ply: u32,
    ) -> Option<End> {
        if breakthrough {
            if let Some(end) = End::first_king(after, ply) {
                return Some(end);
            }
        }
        state.play(pos, mv, after).map(|d| End {
            termination: d.termination,
            ply,
            clause: d.clause,
            winner: None,
        })
    }

    /// Breakthrough (RULES.md 13): a king on the board after ply `ply`
    /// (0: in the set-up) has won for its owner, White first if both have one.
    fn first_king(pos: &Position, ply: u32) -> Option<End> {
        let winner = [Color::White, Color::Black]
            .into_iter()
            .find(|&c| !(pos.kings() & pos.pieces(c)).is_empty())?;
        Some(End {
            termination: Termination::Breakthrough,
            ply,
            clause: Clause::Breakthrough,
            winner: Some(winner),
        })
    }

    /// The end, and the result it gives, into `report`.
    fn conclude(self, report: &mut GameReport) {
        report.termination = self.termination;
        report.termination_ply = Some(self.ply);
        report.clause = Some(self.clause);
        report.computed = match self.winner {
            Some(Color::White) => Outcome::WhiteWins,
            Some(Color::Black) => Outcome::BlackWins,
            None => Outcome::Draw,
        };
    }
}

/// A game's main line being replayed: the game, its written moves, where the
/// findings go, and the move lists reused from ply to ply.
pub(super) struct MainLine<'g, 'd> {
    pub(super) game: &'g Game,
    pub(super) moves: Vec<&'g WrittenMove>,
    pub(super) diags: &'d mut Vec<Diagnostic>,
    /// The pieces of the position to move that can capture (none: plain
    /// moves are legal). Plain moves are checked directly, and a capture from
    /// its own piece ([`crate::rules::captures_between`]); the legal moves are
    /// listed only when a written move needs the list to be explained.
    pub(super) capturers: Bitboard,
    /// Room for the captures a written move fits, or for every legal move.
    pub(super) legal: MoveList,
    /// Whether irregularities that could stand are played ([`Irregularities::Stand`]).
    pub(super) stand: bool,
    /// Whether the move [`MainLine::read_move`] last read stood.
    pub(super) stood: bool,
    /// Positions kept for the opening: the start and this many plies after.
    pub(super) early: usize,
    /// Their keys ([`Position::key`](crate::position::Position::key)).
    pub(super) keys: smallvec::SmallVec<[u64; 16]>,
    /// The (from, to) square numbers of those plies' moves.
    pub(super) steps: smallvec::SmallVec<[(u32, u32); 16]>,
    /// Whether a capture written one jump per token is read as one move
    /// (PDN-REAL-WORLD.md 8.1; not under `--strict-dialects`).
    pub(super) join: bool,
    /// Tokens of the main line joined into the moves read so far: the ply
    /// of `moves[i]` is `i + 1 - shift`.
    shift: u32,
    /// Tokens after `moves[i]` that the move [`MainLine::read_move`] last
    /// read took in (a capture written one jump per token).
    took: usize,
}

impl<'g, 'd> MainLine<'g, 'd> {
    pub(super) fn new(game: &'g Game, diags: &'d mut Vec<Diagnostic>) -> Self {
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
            join: true,
            shift: 0,
            took: 0,
        }
    }

    /// The ply of the written move `moves[i]`.
    #[inline(always)]
    fn ply(&self, i: usize) -> u32 {
        (i as u32 + 1).saturating_sub(self.shift)
    }

    /// Replays the main line from `start` with the draw counters `state`,
    /// into `report`; `positions` keeps the position before every ply (for
    /// the variations to start from).
    pub(super) fn replay(
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
            self.keys.push(start.key());
        }
        self.capturers = crate::rules::capturers(&pos);
        // The side to move has no move at the start: the game ended there.
        let variant = pos.variant();
        let breakthrough = variant.first_king_wins();
        if opts.keep_moves {
            // One allocation of the right size, not a doubling per power of
            // two (issue 65: the growth was 5.8% of `stats`).
            report.played.reserve_exact(self.moves.len());
        }
        let mut end = End::at_start(&pos, self.capturers);
        let mut after_end_warned = false;
        let mut plies = 0u32;
        // The last ply left the side to move without a capture: whether it has
        // no move at all is settled when the next move is read.
        let mut unsettled: Option<Unsettled> = None;
        let mut next = 0;
        while next < self.moves.len() {
            let i = next;
            let ply = plies + 1;
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
            // A capture written one jump per token: its other tokens are
            // part of this ply.
            let took = self.took;
            next = i + 1;
            if took > 0 {
                self.took = 0;
                next += took;
            }
            report.irregularities += u32::from(self.stood);
            if let (Some(e), false) = (&end, after_end_warned) {
                after_end_warned = true;
                self.moves_after_end(e, wm, ply);
            }
            let after = play_unchecked(&pos, &mv);
            self.record(
                i,
                took,
                ply,
                (&pos, &mv, &after),
                opts.keep_moves,
                report,
                &mut positions,
            );
            self.capturers = crate::rules::capturers(&after);
            if end.is_none() {
                let draw = End::after_ply(breakthrough, &mut state, (&pos, &mv, &after), ply);
                if self.capturers.is_empty() {
                    unsettled = Some(Unsettled {
                        ply,
                        winner: variant.no_moves_winner(after.side()),
                        draw,
                    });
                } else {
                    end = draw;
                }
            }
            pos = after;
            plies = ply;
            if took > 0 {
                report.joined += 1;
                self.shift += took as u32;
            }
        }
        if let Some(u) = unsettled {
            end = u.settle(crate::rules::has_plain_move(&pos));
        }
        report.plies = plies;
        if let Some(e) = end {
            e.conclude(report);
        }
    }

    /// What ply `ply` (the move `mv` from `pos` to `after`, written as
    /// `moves[i]` and the `took` tokens after it) leaves for later: the
    /// positions for the variations (one per token, so that a variation
    /// finds its position by the main-line token it follows), the opening's
    /// keys and steps, and the move as played (`keep_moves`).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn record(
        &mut self,
        i: usize,
        took: usize,
        ply: u32,
        (pos, mv, after): (&Position, &Move, &Position),
        keep_moves: bool,
        report: &mut GameReport,
        positions: &mut Option<&mut Vec<Position>>,
    ) {
        if let Some(p) = positions.as_mut() {
            for _ in 0..=took {
                p.push(*after);
            }
        }
        if (ply as usize) <= self.early {
            self.keys.push(after.key());
            self.steps
                .push((mv.from().index() as u32 + 1, mv.to().index() as u32 + 1));
        }
        if keep_moves {
            let span = &self.moves[i].span;
            let end = self.moves[i + took].span.end;
            report.played.push(Played {
                mv: *mv,
                before: *pos,
                span: span.start..end.max(span.start),
                stood: self.stood,
            });
        }
    }

    /// The game ended (`e`) before the move `wm` of ply `ply`.
    #[cold]
    fn moves_after_end(&mut self, e: &End, wm: &WrittenMove, ply: u32) {
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

    /// The reading stopped at `moves[i]`: the plies after it are counted as
    /// unchecked, in the report and in a note on the move's finding.
    #[cold]
    pub(super) fn unchecked_after(&mut self, i: usize, report: &mut GameReport) {
        let ply = self.ply(i);
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
    pub(super) fn read_move(&mut self, pos: &Position, i: usize, ended: bool) -> Option<Move> {
        let g = self.game;
        let wm = self.moves[i];
        let ply = self.ply(i);
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
                if self.join {
                    if let Some(mv) = self.joined_capture(pos, i) {
                        return Some(mv);
                    }
                }
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

    /// PDN-REAL-WORLD.md 8.1: `moves[i]`, not a legal move as written, and
    /// the tokens after it, each starting where the one before landed with
    /// only move numbers, comments and NAGs between, written one jump per
    /// token: the one legal move (complete, maximal where the variant says)
    /// whose landing path they are together, with a `notation` warning for
    /// legs written with `-`. [`MainLine::took`] says how many tokens after
    /// `moves[i]` it took in. `None` when they make no move, or several.
    #[cold]
    fn joined_capture(&mut self, pos: &Position, i: usize) -> Option<Move> {
        let g = self.game;
        let geometry = pos.geometry();
        let square = |s: SquareText| square_of(geometry, s).ok();
        let mut path: smallvec::SmallVec<[SquareText; 16]> =
            g.squares(self.moves[i]).iter().copied().collect();
        let mut dash = !matches!(self.moves[i].sep, Sep::Capture | Sep::Colon);
        // A capture takes at most every piece of the board: so many tokens.
        let most = (i + 1 + usize::from(pos.geometry().squares())).min(self.moves.len());
        for k in i + 1..most {
            let wm = self.moves[k];
            let squares = g.squares(wm);
            let (Some(&last), Some(&first)) = (path.last(), squares.first()) else {
                return None;
            };
            if squares.len() < 2
                || square(last).is_none()
                || square(last) != square(first)
                || !only_numbers_between(g, self.moves[k - 1], wm)
            {
                return None;
            }
            dash |= !matches!(wm.sep, Sep::Capture | Sep::Colon);
            path.extend_from_slice(&squares[1..]);
            match resolve_in(pos, &self.legal, &path, Sep::Capture) {
                Ok(Reading::Move { mv, .. }) => {
                    self.took = k - i;
                    if dash {
                        self.notation(i, "a capture written with `-`");
                    }
                    return Some(mv);
                }
                Ok(Reading::Ambiguous(_)) => return None,
                Err(_) => {}
            }
        }
        None
    }

    /// The `notation` warning for the written move `moves[i]`, accepted
    /// in a tolerated form (`why`).
    pub(super) fn notation(&mut self, i: usize, why: &str) {
        let (wm, ply) = (self.moves[i], self.ply(i));
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
    pub(super) fn stand_or_stop(
        &mut self,
        pos: &Position,
        mut d: Diagnostic,
        i: usize,
    ) -> Option<Move> {
        let (g, wm, ply) = (self.game, self.moves[i], self.ply(i));
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
    pub(super) fn disambiguate(
        &mut self,
        pos: &Position,
        cands: &[Move],
        i: usize,
    ) -> Option<Move> {
        let (g, wm, ply) = (self.game, self.moves[i], self.ply(i));
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
pub(super) fn fast_reading(
    pos: &Position,
    capturers: Bitboard,
    squares: &[SquareText],
    sep: Sep,
    scratch: &mut MoveList,
) -> Option<Move> {
    #[inline(always)]
    pub(super) fn square(
        g: &crate::board::Geometry,
        t: SquareText,
    ) -> Option<crate::board::Square> {
        match t {
            SquareText::Num(n) => g.size().numbered(u32::from(n)),
            _ => square_of(g, t).ok(),
        }
    }
    /// The squares written `a` and `b`, if both are on the board.
    #[inline(always)]
    pub(super) fn ends(
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
pub(super) fn capture_in_full(
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
pub(super) struct Unsettled {
    pub(super) ply: u32,
    pub(super) winner: Color,
    pub(super) draw: Option<End>,
}

impl Unsettled {
    /// How the game ends at this ply, `has_plain`: whether the side to move
    /// has a plain move.
    pub(super) fn settle(self, has_plain: bool) -> Option<End> {
        if has_plain {
            return self.draw;
        }
        Some(End::no_moves(self.ply, self.winner))
    }
}

/// Plies the ambiguity lookahead may read beyond what the game needs
/// (docs/rules.md section 3, "Move identity"); the budget grows with the rest of the game, so a long legal
/// game is always read to its end.
pub(crate) const LOOKAHEAD_STEPS: u64 = 200_000;

/// What reading the rest of a game after a candidate gave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Lookahead {
    Readable,
    Unreadable,
    /// The budget ran out first: not a verdict.
    CutShort,
}

/// Whether every move of `rest` can be read as legal from `pos` (docs/rules.md section 3, "Move identity",
/// applied again to later ambiguous short forms). `budget` bounds the work.
pub(super) fn readable(
    g: &Game,
    pos: Position,
    rest: &[&WrittenMove],
    budget: &mut u64,
) -> Lookahead {
    readable_at(g, pos, rest, budget, 0)
}

/// Later ambiguities nested this deep end the lookahead (as a cut, never a verdict):
/// each one is a level of recursion.
pub(super) const LOOKAHEAD_DEPTH: u32 = 256;

pub(super) fn readable_at(
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

pub(super) fn illegal_diag(
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
        Illegal::Other(why) if pos.size() == crate::board::BoardSize::Full => {
            let why = why.text(|q| pos.geometry().algebraic(q));
            (Code::IllegalMove, format!("{text} is not legal: {why}"))
        }
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

pub(super) fn display_square(pos: &Position, sq: crate::board::Square, style: Style) -> String {
    if style.algebraic {
        pos.geometry().algebraic(sq)
    } else {
        sq.number().to_string()
    }
}

/// The moves of the main line up to the first unknown-move placeholder.
/// Whether only move numbers, comments and NAGs come between the main-line
/// moves `a` and `b` (no variation, no placeholder). The nodes are in text
/// order: `a` is found by its offset, so a game of many joined captures is
/// not scanned from its start for each (linear, not quadratic).
fn only_numbers_between(g: &Game, a: &WrittenMove, b: &WrittenMove) -> bool {
    let start = |n: &Node| match n {
        Node::Move(m) => m.span.start,
        Node::Comment(s)
        | Node::Nag(_, s)
        | Node::Open(s)
        | Node::Close(s)
        | Node::Setup(s)
        | Node::Unknown(s)
        | Node::Escape(s) => s.start,
    };
    let from = g.nodes.partition_point(|n| start(n) < a.span.start);
    let mut between = false;
    for n in g.nodes.get(from..).unwrap_or(&[]) {
        match n {
            Node::Move(m) if std::ptr::eq(m, a) => between = true,
            Node::Move(m) if std::ptr::eq(m, b) => return between,
            Node::Open(_) | Node::Close(_) | Node::Unknown(_) | Node::Move(_) if between => {
                return false
            }
            // Past `a`'s offset without meeting it: not in text order, no join.
            _ if !between && start(n) > a.span.start => return false,
            _ => {}
        }
    }
    false
}

pub(super) fn known_main_moves(g: &Game) -> Vec<&WrittenMove> {
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
