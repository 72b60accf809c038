//! What `pdnkit explore` counts, shared by the explorer and its index: a
//! game's line of positions and moves, what it adds to a count, the counts
//! of a position of the tree.

use super::Group;
use crate::diagram::Arrow;
use crate::position::Position;
use crate::rules::Move;
use crate::tournament::{Strings, Sym};
use crate::variant::Variant;

/// The most recent games kept per position and per move.
pub(super) const RECENT: usize = 4;

/// A position of the tree and what was played from it.
#[derive(Clone, Debug)]
pub(super) struct Node {
    pub(super) pos: Position,
    /// The moves from its root to it.
    pub(super) line: Vec<String>,
    pub(super) totals: Tally,
    pub(super) moves: Vec<(String, Tally)>,
    /// The nodes first reached through its moves.
    pub(super) children: Vec<usize>,
}

/// A game kept for the levels below the first: where its keys and moves are.
#[derive(Clone, Copy, Debug)]
pub(super) struct Kept {
    pub(super) variant: Variant,
    /// Where its keys (one more than its plies) and its moves start.
    pub(super) at: usize,
    pub(super) n_keys: usize,
    pub(super) mv_at: usize,
    pub(super) n_moves: usize,
    pub(super) meta: Meta,
}

/// What one game adds: its positions' keys and the moves played from them
/// (at depth 1 only its root's, when it reaches it). `moves[j]` is played
/// from `keys[j]`; a game that ends (or errs) there has no move.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Line {
    pub(super) variant: Variant,
    pub(super) meta: Meta,
    pub(super) keys: Vec<u64>,
    pub(super) moves: Vec<u32>,
    /// Building an index: each position of `keys`.
    pub(super) positions: Vec<Position>,
}

impl Line {
    /// Appends its record to `out` (a game waiting for its copies).
    pub(super) fn write(&self, out: &mut Vec<u8>) {
        let v = Variant::ALL
            .iter()
            .position(|&w| w == self.variant)
            .unwrap_or(0);
        out.push(v as u8);
        self.meta.write(out);
        out.extend_from_slice(&(self.keys.len() as u32).to_le_bytes());
        out.extend_from_slice(&(self.moves.len() as u32).to_le_bytes());
        for k in &self.keys {
            out.extend_from_slice(&k.to_le_bytes());
        }
        for m in &self.moves {
            out.extend_from_slice(&m.to_le_bytes());
        }
        out.extend_from_slice(&(self.positions.len() as u32).to_le_bytes());
        for p in &self.positions {
            p.write_bytes(out);
        }
    }
    /// The record [`Line::write`] wrote; `None` when `b` is not one.
    pub(super) fn read(b: &[u8]) -> Option<Line> {
        let mut at = 0;
        let mut take = |n: usize| -> Option<&[u8]> {
            let s = b.get(at..at + n)?;
            at += n;
            Some(s)
        };
        let u32_of = |s: &[u8]| u32::from_le_bytes([s[0], s[1], s[2], s[3]]);
        let u64_of = |s: &[u8]| {
            let mut a = [0; 8];
            a.copy_from_slice(s);
            u64::from_le_bytes(a)
        };
        let variant = *Variant::ALL.get(usize::from(take(1)?[0]))?;
        let meta = Meta::read(take(Meta::BYTES)?)?;
        let n_keys = u32_of(take(4)?) as usize;
        let n_moves = u32_of(take(4)?) as usize;
        let keys = (0..n_keys)
            .map(|_| take(8).map(u64_of))
            .collect::<Option<_>>()?;
        let moves = (0..n_moves)
            .map(|_| take(4).map(u32_of))
            .collect::<Option<_>>()?;
        let n_positions = u32_of(take(4)?) as usize;
        let positions = (0..n_positions)
            .map(|_| take(Position::BYTES).and_then(Position::from_bytes))
            .collect::<Option<_>>()?;
        Some(Line {
            variant,
            meta,
            keys,
            moves,
            positions,
        })
    }
}

/// What one game adds to a count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Meta {
    /// 0 White won, 1 drawn, 2 Black won, 3 unfinished (or unknown).
    pub(super) result: u8,
    /// The Date as `yyyymmdd`, unknown parts 0: newest first.
    pub(super) when: u32,
    pub(super) seq: u64,
    pub(super) white: Sym,
    pub(super) black: Sym,
    pub(super) event: Sym,
    pub(super) date: Sym,
}

impl Meta {
    /// Bytes of [`Meta::write`].
    pub(super) const BYTES: usize = 29;
    /// Appends the record [`Meta::read`] reads.
    pub(super) fn write(&self, out: &mut Vec<u8>) {
        out.push(self.result);
        out.extend_from_slice(&self.when.to_le_bytes());
        out.extend_from_slice(&self.seq.to_le_bytes());
        for s in [self.white, self.black, self.event, self.date] {
            out.extend_from_slice(&s.raw().to_le_bytes());
        }
    }
    /// The record at the start of `b`; `None` when it is cut short.
    pub(super) fn read(b: &[u8]) -> Option<Meta> {
        let b = b.get(..Self::BYTES)?;
        let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let sym = |i: usize| Sym::from_raw(u32_at(i));
        Some(Meta {
            result: b[0],
            when: u32_at(1),
            seq: u64::from(u32_at(5)) | (u64::from(u32_at(9)) << 32),
            white: sym(13),
            black: sym(17),
            event: sym(21),
            date: sym(25),
        })
    }
    pub(super) fn newer(&self, o: &Meta) -> bool {
        (self.when, self.seq) > (o.when, o.seq)
    }
    pub(super) fn year(&self) -> Option<u32> {
        (self.when >= 10000).then_some(self.when / 10000)
    }
    /// The same game with its texts in `to`, placed `seq` games later.
    pub(super) fn moved(&self, from: &Strings, to: &mut Strings, seq: u64) -> Meta {
        let mut re = |s: Sym| from.get(s).map_or(Sym::NONE, |t| to.intern(t));
        Meta {
            white: re(self.white),
            black: re(self.black),
            event: re(self.event),
            date: re(self.date),
            seq: self.seq + seq,
            ..*self
        }
    }
}

/// Games through a position or a move.
#[derive(Clone, Debug, Default)]
pub(super) struct Tally {
    pub(super) counts: [u64; 4],
    pub(super) first: Option<u32>,
    pub(super) last: Option<u32>,
    pub(super) recent: Vec<Meta>,
}

impl Tally {
    pub(super) fn add(&mut self, m: &Meta) {
        self.counts[usize::from(m.result.min(3))] += 1;
        if let Some(y) = m.year() {
            self.first = Some(self.first.map_or(y, |f| f.min(y)));
            self.last = Some(self.last.map_or(y, |l| l.max(y)));
        }
        let at = self.recent.iter().position(|r| m.newer(r));
        match at {
            Some(i) => self.recent.insert(i, *m),
            None => self.recent.push(*m),
        }
        self.recent.truncate(RECENT);
    }
    /// Adds `o`'s counts, its texts in the same strings.
    pub(super) fn absorb(&mut self, o: &Tally) {
        for (a, b) in self.counts.iter_mut().zip(o.counts) {
            *a += b;
        }
        self.first = self.first.into_iter().chain(o.first).min();
        self.last = self.last.into_iter().chain(o.last).max();
        self.recent.extend_from_slice(&o.recent);
        self.recent
            .sort_by_key(|m| std::cmp::Reverse((m.when, m.seq)));
        self.recent.truncate(RECENT);
    }
    /// Adds `o`'s counts, its texts in `from` and its games placed `seq`
    /// later.
    pub(super) fn merge(&mut self, o: &Tally, from: &Strings, to: &mut Strings, seq: u64) {
        let moved = Tally {
            recent: o.recent.iter().map(|m| m.moved(from, to, seq)).collect(),
            ..o.clone()
        };
        self.absorb(&moved);
    }
    pub(super) fn group(&self, name: String, strings: &Strings) -> Group {
        let text = |s: Sym| strings.get(s).unwrap_or("").to_string();
        Group {
            name,
            games: self.counts.iter().sum(),
            wins: self.counts[0],
            draws: self.counts[1],
            losses: self.counts[2],
            unscored: self.counts[3],
            first_year: self.first,
            last_year: self.last,
            recent: self
                .recent
                .iter()
                .map(|m| [text(m.white), text(m.black), text(m.event), text(m.date)])
                .collect(),
            recent_at: self.recent.iter().map(|m| (m.when, m.seq)).collect(),
            ..Group::default()
        }
    }
    /// The counts of `g` (as [`Tally::group`] made them), its texts in
    /// `strings`.
    pub(super) fn of_group(g: &Group, strings: &mut Strings) -> Tally {
        let mut sym = |t: &str| {
            if t.is_empty() {
                Sym::NONE
            } else {
                strings.intern(t)
            }
        };
        let recent = g
            .recent
            .iter()
            .zip(&g.recent_at)
            .map(|(r, &(when, seq))| Meta {
                result: 3,
                when,
                seq,
                white: sym(&r[0]),
                black: sym(&r[1]),
                event: sym(&r[2]),
                date: sym(&r[3]),
            })
            .collect();
        Tally {
            counts: [g.wins, g.draws, g.losses, g.unscored],
            first: g.first_year,
            last: g.last_year,
            recent,
        }
    }
}

impl Node {
    pub(super) fn new(pos: Position, line: Vec<String>) -> Node {
        Node {
            pos,
            line,
            totals: Tally::default(),
            moves: Vec::new(),
            children: Vec::new(),
        }
    }
    /// Counts a game here, with the move it played, if any.
    pub(super) fn add(&mut self, meta: &Meta, mv: Option<&str>) {
        self.totals.add(meta);
        let Some(mv) = mv else { return };
        match self.moves.iter_mut().find(|(m, _)| m == mv) {
            Some((_, t)) => t.add(meta),
            None => {
                let mut t = Tally::default();
                t.add(meta);
                self.moves.push((mv.to_string(), t));
            }
        }
    }
}

/// The map key of a position of `v`.
pub(super) fn node_key(v: Variant, key: u64) -> (Variant, u64) {
    (v, key)
}

/// `key` salted by its variant: a move's identity is its variant's.
pub(super) fn salted(v: Variant, key: u64) -> u64 {
    key ^ (v as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The legal move of `pos` written `text` (numbers or algebraic squares,
/// `-`, `x` or `:`); else why it is not one, as `pdnkit diagram` says it.
pub(super) fn resolve(pos: &Position, text: &str) -> Result<Move, String> {
    let arrow = Arrow::legal(pos, text).map_err(|e| e.to_string())?;
    let (Some(&from), Some(&to)) = (arrow.path.first(), arrow.path.last()) else {
        return Err(format!("'{text}' is not a move"));
    };
    pos.legal_moves()
        .into_iter()
        .find(|m| m.from() == from && m.to() == to && m.captured() == arrow.captured)
        .ok_or_else(|| format!("'{text}' is not a legal move here"))
}
