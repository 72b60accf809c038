//! Writes the example corpus under `corpus/` (Brazilian and Canadian games made
//! by this project): clean games, each kind of fault, each draw rule firing,
//! a wrong Result tag. Deterministic: `cargo run --example make_corpus`.
//!
//! Every game is produced by the rules engine itself (random legal play from a
//! fixed seed); faults are then written into chosen plies, so each file's
//! expected findings are known by construction.

use pdnkit::draw::{DrawRules, DrawState, Termination};
use pdnkit::notation::Style;
use pdnkit::piece::{Color, Kind, Piece};
use pdnkit::position::Position;
use pdnkit::rules::Move;
use pdnkit::variant::Variant;
use std::fmt::Write as _;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A game: start position, written moves, and how it ended.
struct Played {
    start: Position,
    moves: Vec<String>,
    end: Option<(Termination, Color)>,
}

fn style(v: Variant) -> Style {
    Style {
        algebraic: v == Variant::Brazilian,
        colon: false,
    }
}

/// Random legal play until the game ends by rule or `max` plies.
fn random_game(
    v: Variant,
    rules: DrawRules,
    start: Position,
    rng: &mut Rng,
    max: usize,
    pick: &dyn Fn(&Position, &[Move], &mut Rng) -> usize,
) -> Played {
    let mut pos = start;
    let mut state = DrawState::new(v, rules, &pos);
    let mut moves = Vec::new();
    let mut end = None;
    for _ in 0..max {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            end = Some((Termination::NoMoves, pos.side().other()));
            break;
        }
        let m = legal[pick(&pos, &legal, rng)];
        moves.push(style(v).write(&pos, &m));
        let after = pos.play_unchecked(&m);
        let mover = pos.side();
        if let Some(d) = state.play(&pos, &m, &after) {
            end = Some((d.termination, mover));
            break;
        }
        pos = after;
        if pos.legal_moves().is_empty() {
            end = Some((Termination::NoMoves, mover));
            break;
        }
    }
    Played { start, moves, end }
}

fn uniform(_: &Position, l: &[Move], r: &mut Rng) -> usize {
    r.below(l.len())
}

fn result_of(p: &Played) -> &'static str {
    match p.end {
        Some((Termination::NoMoves, Color::White)) => "2-0",
        Some((Termination::NoMoves, Color::Black)) => "0-2",
        Some(_) => "1-1",
        None => "*",
    }
}

fn movetext(start_side: Color, moves: &[String], result: &str) -> String {
    let mut out = String::new();
    let mut col = 0;
    let black_first = start_side == Color::Black;
    for (i, m) in moves.iter().enumerate() {
        let ply = i + usize::from(black_first);
        let mut word = String::new();
        if ply % 2 == 0 {
            let _ = write!(word, "{}. ", ply / 2 + 1);
        } else if i == 0 {
            let _ = write!(word, "{}... ", ply / 2 + 1);
        }
        word.push_str(m);
        if col + word.len() + 1 > 78 {
            out.push('\n');
            col = 0;
        } else if col > 0 {
            out.push(' ');
            col += 1;
        }
        col += word.len();
        out.push_str(&word);
    }
    if col + result.len() + 1 > 78 {
        out.push('\n');
    } else if !out.is_empty() {
        out.push(' ');
    }
    out.push_str(result);
    out
}

fn game(
    v: Variant,
    event: &str,
    fen: Option<&Position>,
    moves: &[String],
    result_tag: Option<&str>,
    token: &str,
    extra: &[(&str, String)],
) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "[Event \"{event}\"]");
    let _ = writeln!(s, "[Site \"pdnkit example corpus\"]");
    let _ = writeln!(s, "[White \"Random, White\"]");
    let _ = writeln!(s, "[Black \"Random, Black\"]");
    if let Some(r) = result_tag {
        let _ = writeln!(s, "[Result \"{r}\"]");
    }
    let _ = writeln!(s, "[GameType \"{}\"]", v.game_type());
    if let Some(p) = fen {
        let _ = writeln!(s, "[FEN \"{}\"]", p.to_fen());
    }
    for (k, val) in extra {
        let _ = writeln!(s, "[{k} \"{val}\"]");
    }
    let side = fen.map_or(Color::White, |p| p.side());
    let _ = writeln!(s, "{}\n", movetext(side, moves, token));
    s
}

/// A random game that reaches a position where `want` finds a fault to write; returns
/// the moves before it and the faulty move text.
fn game_with_fault(
    v: Variant,
    rng: &mut Rng,
    want: &dyn Fn(&Position, &[Move]) -> Option<String>,
) -> (Vec<String>, String) {
    loop {
        let mut pos = v.start();
        let mut moves = Vec::new();
        for _ in 0..160 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            if moves.len() > 6 {
                if let Some(bad) = want(&pos, &legal) {
                    return (moves, bad);
                }
            }
            let m = legal[rng.below(legal.len())];
            moves.push(style(v).write(&pos, &m));
            pos = pos.play_unchecked(&m);
        }
    }
}

fn put_king(p: &mut Position, sq: pdnkit::board::Square, color: Color) {
    let mut s = p.to_setup();
    s.remove(sq);
    s.put(
        sq,
        Piece {
            color,
            kind: Kind::King,
        },
    );
    *p = s
        .into_position(p.variant())
        .expect("a king stands anywhere on the board");
}

/// A random move after which the opponent cannot capture (and, unless
/// `captures`, that does not capture either), or any move if there is none.
fn pick_safe(pos: &Position, legal: &[Move], r: &mut Rng, captures: bool) -> usize {
    let safe: Vec<usize> = (0..legal.len())
        .filter(|&i| {
            (captures || !legal[i].is_capture())
                && pos
                    .play_unchecked(&legal[i])
                    .legal_moves()
                    .first()
                    .is_none_or(|m| !m.is_capture())
        })
        .collect();
    if safe.is_empty() {
        r.below(legal.len())
    } else {
        safe[r.below(safe.len())]
    }
}

/// A game of random plies ending with one faulty written move.
fn fault_game(v: Variant, title: &str, mut moves: Vec<String>, bad: String) -> String {
    moves.push(bad);
    game(v, title, None, &moves, Some("*"), "*", &[])
}

fn name(v: Variant, p: &Position, s: pdnkit::board::Square) -> String {
    if v == Variant::Brazilian {
        p.size().algebraic(s)
    } else {
        s.number().to_string()
    }
}

fn faults(v: Variant, rng: &mut Rng) -> String {
    let mut out = String::new();
    // Non-maximal capture: a capture that stops early.
    let (moves, bad) = game_with_fault(v, rng, &|p, legal| {
        let m = legal.first().filter(|m| m.capture_count() >= 2)?;
        let paths = p.partial_capture_paths(m.from());
        let (short, _) = paths.iter().find(|(c, _)| {
            c.capture_count() < m.capture_count()
                && !legal
                    .iter()
                    .any(|l| l.from() == c.from() && l.to() == c.to())
        })?;
        Some(format!(
            "{}x{}",
            name(v, p, short.from()),
            name(v, p, short.to())
        ))
    });
    out += &fault_game(v, "Fault: non-maximal capture", moves, bad);
    // Missed capture: a plain move while a capture is compulsory.
    let (moves, bad) = game_with_fault(v, rng, &|p, legal| {
        legal.first().filter(|m| m.is_capture())?;
        // The same side's plain moves, found by removing every enemy piece that could be taken.
        let mut setup = p.to_setup();
        for sq in p.pieces(p.side().other()).squares() {
            setup.remove(sq);
        }
        let quiet = setup.into_position(p.variant()).ok()?;
        let q = quiet.legal_moves().into_iter().find(|m| {
            !m.is_capture()
                && !p.occupied().has(m.to())
                && p.piece_at(m.from()).is_some_and(|x| x.kind == Kind::Man)
        })?;
        let ((r1, f1), (r2, f2)) = (p.size().coords(q.from()), p.size().coords(q.to()));
        let diagonal_ok = r1.abs_diff(r2) == 1 && f1.abs_diff(f2) == 1;
        diagonal_ok.then(|| format!("{}-{}", name(v, p, q.from()), name(v, p, q.to())))
    });
    out += &fault_game(v, "Fault: missed capture", moves, bad);
    // A man moving backwards.
    let (moves, bad) = game_with_fault(v, rng, &|p, legal| {
        if legal.first().is_some_and(|m| m.is_capture()) {
            return None;
        }
        let back = if p.side() == Color::White {
            [2, 3]
        } else {
            [0, 1]
        };
        for sq in p.pieces(p.side()).squares() {
            if p.kings().has(sq) {
                continue;
            }
            for d in back {
                if let Some(t) = p.size().neighbour(sq, d) {
                    if !p.occupied().has(t) {
                        return Some(format!("{}-{}", name(v, p, sq), name(v, p, t)));
                    }
                }
            }
        }
        None
    });
    out += &fault_game(v, "Fault: a man moves backwards", moves, bad);
    // A move from an empty square.
    let (moves, bad) = game_with_fault(v, rng, &|p, legal| {
        if legal.first().is_some_and(|m| m.is_capture()) {
            return None;
        }
        let m = legal.first()?;
        let empty = (0..p.size().squares())
            .map(pdnkit::board::Square::from_index)
            .find(|s| !p.occupied().has(*s) && *s != m.to())?;
        Some(format!("{}-{}", name(v, p, empty), name(v, p, m.to())))
    });
    out += &fault_game(v, "Fault: no piece on the from square", moves, bad);
    // A square that is not on the board.
    let (moves, _) = game_with_fault(v, rng, &|_, _| Some(String::new()));
    let off = if v == Variant::Brazilian {
        "h9-g10".to_string()
    } else {
        "73-68".to_string()
    };
    out += &fault_game(v, "Fault: a square off the board", moves, off);
    // A wrong Result tag: the game ends by no-moves but the record says otherwise.
    let rules = DrawRules::default_for(v);
    let g = loop {
        let g = random_game(v, rules, v.start(), rng, 400, &uniform);
        if matches!(g.end, Some((Termination::NoMoves, _))) {
            break g;
        }
    };
    let wrong = if result_of(&g) == "2-0" { "0-2" } else { "2-0" };
    out += &game(
        v,
        "Fault: wrong Result tag",
        None,
        &g.moves,
        Some(wrong),
        wrong,
        &[],
    );
    out
}

/// A game with neither a Result tag nor a result token (last in its file).
fn no_result(v: Variant, rng: &mut Rng) -> String {
    let g = random_game(v, DrawRules::default_for(v), v.start(), rng, 20, &uniform);
    game(v, "Warning: no result", None, &g.moves, None, "", &[])
}

/// Ambiguous short captures: a random king-heavy position where two captures share
/// from and to; written short (unresolvable: error) and with a full path (fine).
fn ambiguous(v: Variant, rng: &mut Rng) -> String {
    let size = v.board();
    loop {
        let mut p = Position::empty(v, Color::White);
        for _ in 0..(6 + rng.below(10)) {
            let sq = pdnkit::board::Square::from_index(rng.below(size.squares() as usize) as u8);
            let color = if rng.below(3) == 0 {
                Color::White
            } else {
                Color::Black
            };
            put_king(&mut p, sq, color);
        }
        let legal = p.legal_moves();
        let Some((a, b)) = legal.iter().enumerate().find_map(|(i, a)| {
            legal[i + 1..]
                .iter()
                .find(|b| b.from() == a.from() && b.to() == a.to())
                .map(|b| (*a, *b))
        }) else {
            continue;
        };
        let _ = b;
        let short = format!("{}x{}", name(v, &p, a.from()), name(v, &p, a.to()));
        let full = style(v).write(&p, &a);
        let mut s = game(
            v,
            "Fault: ambiguous capture written short",
            Some(&p),
            &[short],
            Some("*"),
            "*",
            &[],
        );
        s += &game(
            v,
            "Clean: the same capture written with its full path",
            Some(&p),
            &[full],
            Some("*"),
            "*",
            &[],
        );
        return s;
    }
}

/// Kings only: random king moves that avoid captures, for the king-move rule.
fn king_moves_game(v: Variant, rules: DrawRules, rng: &mut Rng) -> Played {
    let size = v.board();
    loop {
        let mut p = Position::empty(v, Color::White);
        // Three kings each plus a man each far from the kings' play.
        let mut placed = 0;
        while placed < 8 {
            let sq = pdnkit::board::Square::from_index(rng.below(size.squares() as usize) as u8);
            if p.occupied().has(sq) {
                continue;
            }
            let color = if placed % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            put_king(&mut p, sq, color);
            placed += 1;
        }
        if p.legal_moves().first().is_none_or(|m| m.is_capture()) {
            continue;
        }
        let g = random_game(v, rules, p, rng, 200, &|pos, legal, r| {
            pick_safe(pos, legal, r, false)
        });
        if matches!(g.end, Some((Termination::KingMoves, _))) {
            return g;
        }
    }
}

fn repetition(v: Variant, rules: DrawRules, rng: &mut Rng) -> String {
    let size = v.board();
    loop {
        let mut p = Position::empty(v, Color::White);
        for color in [Color::White, Color::White, Color::Black, Color::Black] {
            let sq = pdnkit::board::Square::from_index(rng.below(size.squares() as usize) as u8);
            put_king(&mut p, sq, color);
        }
        if p.occupied().count() != 4 {
            continue;
        }
        let quiet = |q: &Position| q.legal_moves().first().is_some_and(|m| !m.is_capture());
        if !quiet(&p) {
            continue;
        }
        let Some(a) = p
            .legal_moves()
            .into_iter()
            .find(|m| quiet(&p.play_unchecked(m)))
        else {
            continue;
        };
        let p1 = p.play_unchecked(&a);
        let Some(b) = p1
            .legal_moves()
            .into_iter()
            .find(|m| quiet(&p1.play_unchecked(m)))
        else {
            continue;
        };
        let p2 = p1.play_unchecked(&b);
        let Some(ba) = p2
            .legal_moves()
            .into_iter()
            .find(|m| m.from() == a.to() && m.to() == a.from())
        else {
            continue;
        };
        let p3 = p2.play_unchecked(&ba);
        let Some(bb) = p3
            .legal_moves()
            .into_iter()
            .find(|m| m.from() == b.to() && m.to() == b.from())
        else {
            continue;
        };
        if p3.play_unchecked(&bb) != p {
            continue;
        }
        let mut moves = Vec::new();
        for _ in 0..2 {
            for (q, m) in [(p, a), (p1, b), (p2, ba), (p3, bb)] {
                moves.push(style(v).write(&q, &m));
            }
        }
        return game(
            v,
            &format!("Draw by threefold repetition ({})", rules.name()),
            Some(&p),
            &moves,
            Some("1-1"),
            "1-1",
            &[],
        );
    }
}

fn draws(v: Variant, rules: DrawRules, rng: &mut Rng) -> String {
    let mut out = String::new();
    // Repetition: two kings each shuttling.
    let kings = king_moves_game(v, rules, rng);
    out += &game(
        v,
        &format!("Draw by the king-move rule ({})", rules.name()),
        Some(&kings.start),
        &kings.moves,
        Some("1-1"),
        "1-1",
        &[],
    );
    // Threefold repetition: kings shuttling back and forth twice.
    out += &repetition(v, rules, rng);
    // A counted ending: two kings against one king.
    loop {
        let size = v.board();
        let mut p = Position::empty(v, Color::White);
        for (i, color) in [Color::White, Color::White, Color::Black]
            .into_iter()
            .enumerate()
        {
            let sq = pdnkit::board::Square::from_index(rng.below(size.squares() as usize) as u8);
            if p.occupied().has(sq) || i > 10 {
                continue;
            }
            put_king(&mut p, sq, color);
        }
        if p.occupied().count() != 3 || p.legal_moves().first().is_none_or(|m| m.is_capture()) {
            continue;
        }
        let g = random_game(v, rules, p, rng, 100, &|pos, legal, r| {
            pick_safe(pos, legal, r, true)
        });
        if matches!(g.end, Some((Termination::Ending, _))) {
            out += &game(
                v,
                &format!("Draw by a counted ending ({})", rules.name()),
                Some(&g.start),
                &g.moves,
                Some("1-1"),
                "1-1",
                &[],
            );
            break;
        }
    }
    out
}

fn clean(v: Variant, rng: &mut Rng, n: usize) -> String {
    let mut out = String::new();
    let rules = DrawRules::default_for(v);
    let mut made = 0;
    while made < n {
        let g = random_game(v, rules, v.start(), rng, 400, &uniform);
        if g.end.is_none() {
            continue;
        }
        let r = result_of(&g);
        out += &game(
            v,
            &format!("Clean random game {}", made + 1),
            None,
            &g.moves,
            Some(r),
            r,
            &[],
        );
        made += 1;
    }
    out
}

fn main() -> std::io::Result<()> {
    let mut rng = Rng(0x5eed_cafe_f00d_1234);
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    for v in [Variant::Brazilian, Variant::Canadian] {
        let dir = root.join(v.name());
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join("clean.pdn"), clean(v, &mut rng, 3))?;
        std::fs::write(
            dir.join("faults.pdn"),
            faults(v, &mut rng) + &ambiguous(v, &mut rng) + &no_result(v, &mut rng),
        )?;
        let rules = DrawRules::default_for(v);
        std::fs::write(
            dir.join(format!("draws-{}.pdn", rules.name())),
            draws(v, rules, &mut rng),
        )?;
    }
    // FMJD-64 on 8x8 as well, for `--draw-rules fmjd`.
    let dir = root.join("brazilian");
    std::fs::write(
        dir.join("draws-fmjd.pdn"),
        draws(Variant::Brazilian, DrawRules::Fmjd, &mut rng),
    )?;
    eprintln!("wrote {}", root.display());
    Ok(())
}
