//! A game replayed under its variant: the start position, the main line,
//! the variations and the result, and the findings of each.

use crate::board::BoardSize;
use crate::diag::{Code, Diagnostic, Severity};
use crate::draw::{DrawRules, DrawState};
use crate::infer::{Choice, Evidence, Inference, VariantSource};
use crate::pdn::{Game, Node};
use crate::position::Position;
use crate::replay::main_line::MainLine;
use crate::replay::options::Options;
use crate::replay::report::{cap_findings, empty_report};
use crate::replay::report::{move_number, GameReport};
use crate::replay::result::{check_result, declared_only};
use crate::replay::variations::replay_variations;
use crate::variant::{GameKind, Variant};

/// Whether the reader skipped `g` as too large (it holds only its start).
fn skipped_as_too_large(g: &Game) -> bool {
    g.diagnostics.iter().any(|d| d.code == Code::GameTooLarge)
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
    date_warning(g, &mut diags);
    let crate::infer::Chosen {
        choice,
        source,
        inferred,
        order_known,
    } = crate::infer::choose(g, opts.force_variant, file, &mut diags);
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
        undecided_setup(g, &mut diags);
    }
    if let Some(v) = variant {
        match file.turned {
            // A file that names its squares from the other side
            // (PDN-REAL-WORLD.md 8.2): its moves and FEN read turned.
            Some(_) => {
                let geometry = v.start().geometry();
                let turned = g.turned(geometry.n(), geometry.squares());
                report.turned = true;
                replay_under(&turned, v, opts, &mut report, &mut diags);
            }
            None => replay_under(g, v, opts, &mut report, &mut diags),
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

/// A Date tag that does not read as a date.
fn date_warning(g: &Game, diags: &mut Vec<Diagnostic>) {
    if let Some(t) = g.find_tag("Date") {
        let text = g.tag_text(t);
        if !crate::pdn::PdnDate::is_plain(&text) {
            if let Some(why) = crate::pdn::PdnDate::parse(&text).warning(&text) {
                diags.push(Diagnostic::new(Code::BadTag, t.span.clone(), why));
            }
        }
    }
}

/// No variant, but the setup is read for a board: a FEN that no 8x8
/// variant can set up is reported (with the first variant's reason).
fn undecided_setup(g: &Game, diags: &mut Vec<Diagnostic>) {
    let mut first = None;
    for v in Variant::ALL
        .into_iter()
        .filter(|v| v.board() == BoardSize::Eight)
    {
        let mut found = Vec::new();
        if start_position(g, v, &mut found, false).is_some() {
            first = None;
            break;
        }
        first.get_or_insert(found);
    }
    diags.extend(first.into_iter().flatten());
}

/// The game replayed under `v`: its main line, its opening, its variations.
fn replay_under(
    g: &Game,
    v: Variant,
    opts: &Options,
    report: &mut GameReport,
    diags: &mut Vec<Diagnostic>,
) {
    report.kind = Some(GameKind::Known(v));
    report.checked = true;
    let rules = DrawRules::for_variant(v, opts.draw_rules);
    report.draw_rules = Some(rules);
    let Some(start) = start_position(g, v, diags, report.turned) else {
        return;
    };
    report.start = Some(start);
    // Positions along the main line, kept only for variations to start from.
    let has_variations = g.nodes.iter().any(|n| matches!(n, Node::Open(_)));
    let mut line = Vec::new();
    let keep = has_variations.then_some(&mut line);
    let state = DrawState::new(v, rules, &start);
    let mut main = MainLine::new(g, diags);
    main.join = !opts.strict_dialects;
    // The opening: the start's and the first plies' positions.
    let list = opts.opening_tables.as_ref();
    let set_up = !crate::openings::is_initial(&start);
    main.early = crate::openings::plies_needed(v, set_up, list);
    main.replay(start, state, opts, report, keep);
    if main.early > 0 {
        report.opening = crate::openings::classify(v, &main.keys, &main.steps, set_up, list);
    }
    if has_variations {
        replay_variations(g, &line, diags);
    }
}

/// Whether the first move of `g`, a game of a file decided as `file`,
/// fits a legal move of its start position, read upright (`None`: it has
/// no move, or is not replayed). What decides whether a file is read
/// turned (PDN-REAL-WORLD.md 8.2), cheaply: one position, one move.
pub(crate) fn first_move_fits(g: &Game, opts: &Options, file: &Inference) -> Option<bool> {
    let first = g.main_line().next()?;
    let mut scratch = Vec::new();
    let chosen = crate::infer::choose(g, opts.force_variant, file, &mut scratch);
    let Choice::Check(v) = chosen.choice else {
        return None;
    };
    // A FEN that is no position upright stops the game before ply 1.
    let Some(start) = start_position(g, v, &mut scratch, false) else {
        return Some(false);
    };
    let legal = crate::rules::legal_moves(&start);
    Some(crate::notation::resolve_in(&start, &legal, g.squares(first), first.sep).is_ok())
}

/// The FEN `fen` of a game of `v` read turned: each piece on the square
/// opposite the one written (PDN-REAL-WORLD.md 8.2), then validated.
fn turned_fen(fen: &str, v: Variant) -> Result<Position, crate::position::FenError> {
    let mut setup = crate::position::Setup::parse_for(fen, v)?;
    let n = v.start().geometry().squares();
    for (sq, _, _) in &mut setup.pieces {
        *sq = crate::board::Square::from_index((n - 1).saturating_sub(sq.index() as u8));
    }
    setup.into_position(v)
}

/// The start position of `g` under `v`: its FEN (read turned when
/// `turned`), else the variant's.
fn start_position(
    g: &Game,
    v: Variant,
    diags: &mut Vec<Diagnostic>,
    turned: bool,
) -> Option<Position> {
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
    let read = if turned {
        turned_fen(&fen, v)
    } else {
        Position::from_fen(&fen, v)
    };
    match read {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::{Clause, Termination};
    use crate::notation::{resolve_in, Reading};
    use crate::pdn::{Outcome, Sep, SquareText};
    use crate::replay::main_line::capture_in_full;
    use crate::replay::options::{Irregularities, Options};
    use crate::replay::replayer::Replay;
    use crate::replay::report::GameReport;
    use crate::rules::MoveList;
    use crate::variant::Unsupported;
    use crate::Move;

    /// Every row of every shipped opening table with moves, replayed from
    /// its start, reaches its position (OPENINGS.md 3.1); the opening of
    /// that replay is the row, or a row with its position.
    #[test]
    fn every_ballot_row_replays_to_its_position() {
        let mut replayed = 0;
        for name in crate::openings::shipped_names() {
            let Some((_, rows)) = crate::openings::Opening::table_rows(name) else {
                panic!("{name} is not shipped");
            };
            for r in rows.iter().filter(|r| !r[4].is_empty()) {
                let [code, _, variants, start_fen, moves, fen, _] = r;
                let v: Variant = variants
                    .split_whitespace()
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("a variant");
                let fen_tag = if start_fen.is_empty() {
                    String::new()
                } else {
                    format!("[FEN \"{start_fen}\"]\n")
                };
                let text = format!("[GameType \"{}\"]\n{fen_tag}\n{moves} *\n", v.game_type());
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
                assert!(errors.is_empty(), "{name} {code}: {errors:?}");
                let last = replay.last().map(|p| p.after);
                let want = Position::from_fen(fen, v).ok();
                assert_eq!(
                    last.map(|p| p.key()),
                    want.map(|p| p.key()),
                    "{name} {code}: {moves} does not reach {fen}"
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

    /// Antidraughts (RULES.md 13): the side left without a move has won,
    /// by losing every piece or by being blocked, and at the start too; no
    /// draw rule, so a threefold repetition leaves the game unfinished.
    #[test]
    fn antidraughts_is_won_by_the_side_left_without_a_move() {
        let o = Options::default();
        let end = |text: &str| {
            let r = run(text, &o);
            (r.computed, r.termination, r.termination_ply)
        };
        // Black takes White's last piece: White has no move, and wins.
        assert_eq!(
            end("[GameType \"98\"][FEN \"B:W28:B23\"] 1... 23x32 *"),
            (Outcome::WhiteWins, Termination::NoMoves, Some(1))
        );
        // Blocked at the start: White's man on 6 cannot move past 1 (its
        // other step leaves the board): White, to move, has won.
        assert_eq!(
            end("[GameType \"98\"][FEN \"W:W6:B1,K47\"] *").1,
            Termination::NoMoves
        );
        let r = run(
            "[GameType \"98\"][FEN \"W:WK50:BK1\"][Result \"1-1\"] 1. 50-45 1-6 2. 45-50 6-1 3. 50-45 1-6 4. 45-50 6-1 1-1",
            &o,
        );
        assert_eq!((r.termination, r.valid()), (Termination::Unfinished, true));
    }

    /// Breakthrough (RULES.md 13): the first king wins, made by a plain move
    /// or a capture; a man passing the last row mid-capture makes none; a
    /// set-up with kings on both sides is White's at once.
    #[test]
    fn breakthrough_is_won_by_the_first_king() {
        let o = Options::default();
        let end = |text: &str| {
            let r = run(text, &o);
            (r.computed, r.termination, r.termination_ply)
        };
        assert_eq!(
            end("[GameType \"96\"][FEN \"W:W7,30:B44\"] 1. 7-2 *"),
            (Outcome::WhiteWins, Termination::Breakthrough, Some(1))
        );
        assert_eq!(
            end("[GameType \"96\"][FEN \"W:W30,K45:BK44,K5\"] *"),
            (Outcome::WhiteWins, Termination::Breakthrough, Some(0))
        );
        // No move before any king: the side to move has lost.
        assert_eq!(
            end("[GameType \"96\"][FEN \"B:W28:B23\"] 1... 23x32 *"),
            (Outcome::BlackWins, Termination::NoMoves, Some(1))
        );
        let r = run("[GameType \"96\"][FEN \"W:W7,30:B44\"] 1. 7-2 44-49 *", &o);
        assert!(r
            .diagnostics
            .iter()
            .any(|d| d.code == crate::diag::Code::MovesAfterEnd));
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
