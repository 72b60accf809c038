//! Variations (RAV) replayed from the main line's positions.

use crate::diag::{Diagnostic, Severity};
use crate::notation::{resolve_in, Reading};
use crate::pdn::{Game, Node, WrittenMove};
use crate::piece::Color;
use crate::position::Position;
use crate::replay::main_line::{illegal_diag, written_text};
use crate::rules::{legal_moves, play_unchecked};

/// Variations are replayed from their own position; their findings are warnings.
/// Replays the variations from their own positions; `main_positions` are the
/// start and the position after each main-line ply read (up to the first error).
pub(super) fn replay_variations(
    g: &Game,
    main_positions: &[Position],
    diags: &mut Vec<Diagnostic>,
) {
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
