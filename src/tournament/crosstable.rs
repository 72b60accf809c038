//! Points and tie-breaks: a result's points, the meetings of an event, and
//! each tie-break from a player's own meetings (linear in the meetings).

use crate::pdn::Outcome;
use crate::tournament::model::{Scoring, Tiebreak};
use std::collections::BTreeMap;

/// Half points of White and Black for a result.
pub(super) fn score(result: Outcome, scoring: Scoring) -> Option<(u32, u32)> {
    let win = match scoring {
        Scoring::OneHalfZero => 2,
        _ => 4,
    };
    Some(match result {
        Outcome::WhiteWins => (win, 0),
        Outcome::BlackWins => (0, win),
        Outcome::Draw => (win / 2, win / 2),
        Outcome::BothLose => (0, 0),
        Outcome::Unknown => return None,
    })
}

/// Per (round, player, player): the first game's White, the other, their
/// points, the games, their indices, and the games the first had White.
pub(super) type Meetings =
    BTreeMap<(u32, usize, usize), (usize, usize, u32, u32, u32, Vec<usize>, u32)>;

/// The meetings of a pair: (round, games).
pub(super) type PairGames = Vec<(u32, Vec<usize>)>;

/// Per (round, player): each opponent and the games against them.
pub(super) type Opponents = BTreeMap<(u32, usize), BTreeMap<usize, Vec<usize>>>;

/// Per player, each meeting from their side: the opponent, what they
/// scored, what the opponent scored, the games; in the meetings' order. One
/// pass over the meetings, so that the tie-breaks of all players are linear
/// in the meetings (issue 51), not players times meetings.
pub(super) fn meetings_by_player(
    n: usize,
    meetings: &Meetings,
) -> Vec<Vec<(usize, u32, u32, u32)>> {
    let mut out = vec![Vec::new(); n];
    for m in meetings.values() {
        if let Some(mine) = out.get_mut(m.0) {
            mine.push((m.1, m.2, m.3, m.4));
        }
        if m.1 != m.0 {
            if let Some(theirs) = out.get_mut(m.1) {
                theirs.push((m.0, m.3, m.2, m.4));
            }
        }
    }
    out
}

/// One tie-break (`t`) of player `p`, whose meetings are `mine`
/// ([`meetings_by_player`]).
pub(super) fn tiebreak(
    t: Tiebreak,
    p: usize,
    mine: &[(usize, u32, u32, u32)],
    points: &[u32],
) -> f64 {
    let half = |x: u32| f64::from(x) / 2.0;
    match t {
        Tiebreak::Solkoff => mine.iter().map(|m| half(points[m.0])).sum(),
        Tiebreak::SolkoffCut => {
            let mut v: Vec<u32> = mine.iter().map(|m| points[m.0]).collect();
            v.sort_unstable();
            v.iter().skip(1).map(|&x| half(x)).sum()
        }
        Tiebreak::SonnebornBerger => mine
            .iter()
            .map(|&(o, got, other, _)| {
                let total = got + other;
                if total == 0 {
                    0.0
                } else {
                    half(points[o]) * f64::from(got) / f64::from(total)
                }
            })
            .sum(),
        Tiebreak::Wins => f64::from(mine.iter().filter(|m| m.1 > m.2).count() as u32),
        Tiebreak::Direct => mine
            .iter()
            .filter(|m| points[m.0] == points[p])
            .map(|m| half(m.1))
            .sum(),
    }
}
