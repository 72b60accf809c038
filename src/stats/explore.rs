//! The moves played from a position, counted over an archive: `pdnkit
//! explore` (docs/explore.md). A game counts at a position when its main
//! line reaches it, by any order of moves, without an error before it; it
//! counts once there even when it passes twice, with the move it played the
//! first time.

use super::explore_model::{node_key, resolve, salted, Kept, Line, Meta, Node, Tally};
use super::Group;
use crate::notation::Style;
use crate::pdn::{Game, Outcome, PdnDate};
use crate::position::Position;
use crate::replay::{GameReport, Options};
use crate::tournament::{Strings, Sym};
use crate::variant::Variant;
use hashbrown::HashMap;

/// The moves played from positions of an archive, with their results: the
/// tree of `pdnkit explore`, from each root down `depth` plies.
///
/// ```
/// use pdnkit::pdn::read_all;
/// use pdnkit::stats::Explorer;
/// use pdnkit::{check_game, Options, Variant};
/// let text = b"[GameType \"20\"][Result \"2-0\"] 1. 32-28 19-23 2-0\n\
///              [GameType \"20\"][Result \"1-1\"] 1. 32-28 18-22 1-1\n\
///              [GameType \"20\"][Result \"0-2\"] 1. 33-28 18-22 0-2\n";
/// let mut explorer = Explorer::new(&[], 1);
/// for g in read_all(text) {
///     let mut opts = Options::default();
///     opts.keep_moves = true; // the explorer reads the positions played
///     explorer.add("club.pdn", &g, &check_game(&g, &opts));
/// }
/// let tree = explorer.tree(None);
/// let (start, totals, moves) = &tree[0];
/// assert_eq!(*start, Variant::International.start());
/// assert_eq!((totals.games, totals.wins, totals.draws, totals.losses), (3, 1, 1, 1));
/// assert_eq!(moves[0].name, "32-28");
/// assert_eq!((moves[0].games, moves[0].wins, moves[0].draws), (2, 1, 1));
/// assert_eq!(moves[1].name, "33-28");
/// ```
#[derive(Debug)]
pub struct Explorer {
    /// The roots named (one per variant); none: each variant's start.
    pub(super) roots: Vec<Position>,
    /// The moves [`Explorer::play`] played to each root, as written there.
    pub(super) played: Vec<(Variant, Vec<String>)>,
    pub(super) depth: u32,
    /// Depth 1: the roots' counts, kept as games come.
    pub(super) nodes: Vec<Node>,
    /// Deeper: every game's positions, counted level by level at the end.
    pub(super) kept: Vec<Kept>,
    pub(super) keys: Vec<u64>,
    pub(super) moves: Vec<u32>,
    /// Moves by (salted key before, key after), and their texts.
    pub(super) move_ids: HashMap<(u64, u64), u32>,
    pub(super) move_texts: Vec<String>,
    /// White, Black, Event and Date of the games, each text once.
    pub(super) strings: Strings,
    /// The variants of the games counted.
    pub(super) seen: Vec<Variant>,
    pub(super) seq: u64,
    /// Counting each game once: the games waiting for their copies
    /// (`None`: every copy counts).
    pub(super) once: Option<crate::tournament::Once>,
    /// Extra copies not counted, games left out because their copies
    /// disagree, and why games set aside could not be read back.
    pub(super) copies: (u64, u64),
    pub(super) failed: Option<String>,
    /// Building an index: the plies indexed, and the positions' records by
    /// key, spilled.
    pub(super) index: Option<(u32, crate::store::Buckets)>,
}

impl Explorer {
    /// An explorer of the trees from `roots` (a position per variant; none:
    /// the start position of each variant whose games are added), `depth`
    /// plies deep (at least 1: the roots' moves; each level below is the
    /// table of the positions after the moves above it). Depth 1 keeps only
    /// the roots' counts; a deeper tree keeps 12 bytes a ply of the games
    /// added until [`Explorer::tree`].
    pub fn new(roots: &[Position], depth: u32) -> Explorer {
        let mut e = Explorer {
            roots: Vec::new(),
            played: Vec::new(),
            depth: depth.max(1),
            nodes: Vec::new(),
            kept: Vec::new(),
            keys: Vec::new(),
            moves: Vec::new(),
            move_ids: HashMap::default(),
            move_texts: Vec::new(),
            strings: Strings::default(),
            seen: Vec::new(),
            seq: 0,
            once: Some(crate::tournament::Once::new()),
            copies: (0, 0),
            failed: None,
            index: None,
        };
        for p in roots {
            if !e.roots.iter().any(|r| r.variant() == p.variant()) {
                e.roots.push(*p);
            }
        }
        e
    }

    /// The position of `variant` the tree starts from, `None` when the
    /// roots named have none of it.
    pub(super) fn root_of(&self, v: Variant) -> Option<Position> {
        if self.roots.is_empty() {
            return Some(v.start());
        }
        self.roots.iter().find(|p| p.variant() == v).copied()
    }

    /// `moves` (a line such as `32-28 18-23`, move numbers allowed) played
    /// from every root: roots where one of them is not a legal move are
    /// dropped. Without roots, from each variant's start. The error names
    /// the first move that fits no root.
    pub fn play(&mut self, moves: &str) -> Result<(), String> {
        let mut roots: Vec<(Position, Vec<String>)> = if self.roots.is_empty() {
            Variant::ALL.iter().map(|v| v.start()).collect::<Vec<_>>()
        } else {
            std::mem::take(&mut self.roots)
        }
        .into_iter()
        .map(|p| (p, self.line_to(p.variant())))
        .collect();
        let tokens: Vec<&str> = moves
            .split_whitespace()
            .map(|t| {
                // A move number, `12.` or `12...`, alone or glued to the move.
                let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                match t[digits..].trim_start_matches('.') {
                    rest if rest.len() < t.len() - digits => rest,
                    _ => t,
                }
            })
            .filter(|t| !t.is_empty())
            .collect();
        for t in &tokens {
            let mut why = None;
            let next: Vec<(Position, Vec<String>)> = roots
                .iter()
                .filter_map(|(p, line)| match resolve(p, t) {
                    Ok(m) => {
                        let style = Style {
                            algebraic: p.variant().algebraic(),
                            colon: false,
                        };
                        let mut line = line.clone();
                        line.push(style.write(p, &m));
                        Some((crate::rules::play_unchecked(p, &m), line))
                    }
                    Err(e) => {
                        why.get_or_insert(e);
                        None
                    }
                })
                .collect();
            if next.is_empty() {
                return Err(why.unwrap_or_else(|| format!("'{t}': no position to play it from")));
            }
            roots = next;
        }
        self.played = roots
            .iter()
            .map(|(p, l)| (p.variant(), l.clone()))
            .collect();
        let roots = roots.into_iter().map(|(p, _)| p).collect();
        self.roots = roots;
        Ok(())
    }

    /// Counts one game, replayed with [`Options::keep_moves`]: at each
    /// position of the tree its main line reaches before an error, once,
    /// with the move it played there first. A game not replayed, or of a
    /// variant with no root, counts nowhere.
    pub fn add(&mut self, file: &str, g: &Game, r: &GameReport) {
        let (Some(v), Some(start)) = (r.variant, r.start) else {
            return;
        };
        let Some(root) = self.root_of(v) else { return };
        if !r.checked || start.variant() != v {
            return;
        }
        if !self.seen.contains(&v) {
            self.seen.push(v);
        }
        let meta = self.meta(g, r);
        self.seq += 1;
        // Indexing N plies: the positions up to ply N, the moves from them,
        // and the position after the last of those moves (its identity).
        let limit = self.index.as_ref().map(|(n, _)| *n as usize);
        let positions: Vec<Position> = (1..=r.played.len() as u32 + 1)
            .map_while(|n| r.position_before(n))
            .take(limit.map_or(usize::MAX, |n| n + 2))
            .collect();
        let keys: Vec<u64> = positions.iter().map(Position::key).collect();
        let style = Style {
            algebraic: v.algebraic(),
            colon: false,
        };
        // The moves, each once by its positions before and after.
        let mut id_of = |i: usize| {
            let id = (salted(v, keys[i]), keys[i + 1]);
            let next = self.move_texts.len() as u32;
            let id = *self.move_ids.entry(id).or_insert(next);
            if id == next {
                let p = &r.played[i];
                self.move_texts.push(style.write(&p.before, &p.mv));
            }
            id
        };
        let plies = keys.len().saturating_sub(1).min(r.played.len());
        let line = if let Some(n) = limit {
            let shown = keys.len().min(n + 1);
            Line {
                variant: v,
                meta,
                keys: keys[..shown].to_vec(),
                moves: (0..plies.min(n + 1)).map(&mut id_of).collect(),
                positions: positions[..shown].to_vec(),
            }
        } else if self.depth == 1 {
            // Only the root's first occurrence and the move played there.
            let Some(at) = keys.iter().position(|&k| k == root.key()) else {
                return;
            };
            let moves = if at < plies {
                vec![id_of(at)]
            } else {
                Vec::new()
            };
            Line {
                variant: v,
                meta,
                keys: vec![keys[at]],
                moves,
                positions: Vec::new(),
            }
        } else {
            let moves = (0..plies).map(&mut id_of).collect();
            Line {
                variant: v,
                meta,
                keys,
                moves,
                positions: Vec::new(),
            }
        };
        if let Some(once) = &mut self.once {
            let mut bytes = Vec::new();
            line.write(&mut bytes);
            if once.add(file, g, r, &bytes) {
                return;
            }
        }
        self.count(line);
    }

    /// Counts a game now: at depth 1 at its root, deeper kept for the levels.
    pub(super) fn count(&mut self, line: Line) {
        if self.index.is_some() {
            self.count_for_index(&line);
            return;
        }
        if self.depth > 1 {
            self.kept.push(Kept {
                variant: line.variant,
                at: self.keys.len(),
                n_keys: line.keys.len(),
                mv_at: self.moves.len(),
                n_moves: line.moves.len(),
                meta: line.meta,
            });
            self.keys.extend_from_slice(&line.keys);
            self.moves.extend_from_slice(&line.moves);
            return;
        }
        let Some(root) = self.root_of(line.variant) else {
            return;
        };
        let i = match self.nodes.iter().position(|n| n.pos == root) {
            Some(i) => i,
            None => {
                self.nodes.push(Node::new(root, Vec::new()));
                self.nodes.len() - 1
            }
        };
        let mv = line
            .moves
            .first()
            .map(|&id| self.move_texts[id as usize].as_str());
        self.nodes[i].add(&line.meta, mv);
    }

    /// Counts the games that waited for their copies, each once.
    pub(super) fn settle(&mut self) {
        let Some(mut once) = self.once.take() else {
            return;
        };
        let mut lines = Vec::new();
        once.settle(|bytes, keep| {
            if keep {
                lines.extend(Line::read(bytes));
            }
        });
        self.copies.0 += once.merged;
        self.copies.1 += once.conflicting;
        if let Some(why) = once.failed.take() {
            self.failed.get_or_insert(why);
        }
        for line in lines {
            self.count(line);
        }
        self.once = Some(crate::tournament::Once::new());
    }

    /// Every copy of a game counts (`--keep-duplicates`), when `keep`; by
    /// default a game stored more than once in an event counts once, as
    /// `pdnkit tournament` and `pdnkit stats` count it.
    pub fn keep_duplicates(mut self, keep: bool) -> Explorer {
        self.once = (!keep).then(crate::tournament::Once::new);
        self
    }

    /// Extra copies of games not counted, and games left out because their
    /// copies disagree (as [`super::Groups::set_aside`] says them); then why
    /// games set aside could not be read back, if they could not (they are
    /// not counted).
    pub fn set_aside(&mut self) -> ((u64, u64), Option<String>) {
        self.settle();
        (self.copies, self.failed.clone())
    }

    /// What the game adds to a count: its result as its record declares it
    /// (in its variant's convention, as `--result` reads it), its date and
    /// names.
    fn meta(&mut self, g: &Game, r: &GameReport) -> Meta {
        let result = match r.declared {
            Some(Outcome::WhiteWins) => 0,
            Some(Outcome::Draw) => 1,
            Some(Outcome::BlackWins) => 2,
            _ => 3,
        };
        let date = g.tag("Date");
        let when = date.as_deref().map_or(0, |d| {
            let d = PdnDate::parse(d);
            d.year.map_or(0, |y| {
                y.min(9999) * 10000 + d.month.unwrap_or(0) * 100 + d.day.unwrap_or(0)
            })
        });
        let mut tag = |name: &str| {
            g.tag(name)
                .map_or(Sym::NONE, |t| self.strings.intern(t.trim()))
        };
        Meta {
            result,
            when,
            seq: self.seq,
            white: tag("White"),
            black: tag("Black"),
            event: tag("Event"),
            date: tag("Date"),
        }
    }

    /// Adds `other`'s games, counted after this explorer's (for one
    /// archive explored in parts; `other` explores the same roots as deep).
    /// Copies of a game are counted once within each part, not across
    /// parts. Explorers building an index ([`Explorer::indexing`]) merge
    /// their positions.
    pub fn merge(&mut self, mut other: Explorer) {
        other.settle();
        self.copies.0 += other.copies.0;
        self.copies.1 += other.copies.1;
        if let Some(why) = other.failed.take() {
            self.failed.get_or_insert(why);
        }
        let seq = self.seq;
        for v in &other.seen {
            if !self.seen.contains(v) {
                self.seen.push(*v);
            }
        }
        for n in std::mem::take(&mut other.nodes) {
            let i = match self.nodes.iter().position(|m| m.pos == n.pos) {
                Some(i) => i,
                None => {
                    self.nodes.push(Node::new(n.pos, n.line.clone()));
                    self.nodes.len() - 1
                }
            };
            let (from, to) = (&other.strings, &mut self.strings);
            let mine = &mut self.nodes[i];
            mine.totals.merge(&n.totals, from, to, seq);
            for (mv, t) in &n.moves {
                match mine.moves.iter_mut().find(|(m, _)| m == mv) {
                    Some((_, mt)) => mt.merge(t, from, to, seq),
                    None => {
                        let mut mt = Tally::default();
                        mt.merge(t, from, to, seq);
                        mine.moves.push((mv.clone(), mt));
                    }
                }
            }
        }
        let mut ids = vec![0; other.move_texts.len()];
        for (k, &id) in &other.move_ids {
            let next = self.move_texts.len() as u32;
            let mine = *self.move_ids.entry(*k).or_insert(next);
            if mine == next {
                self.move_texts.push(other.move_texts[id as usize].clone());
            }
            ids[id as usize] = mine;
        }
        if let Err(why) = self.absorb_index(&mut other, &ids, seq) {
            self.failed.get_or_insert(why);
        }
        for k in std::mem::take(&mut other.kept) {
            self.kept.push(Kept {
                at: k.at + self.keys.len(),
                mv_at: k.mv_at + self.moves.len(),
                meta: k.meta.moved(&other.strings, &mut self.strings, seq),
                ..k
            });
        }
        self.keys.extend_from_slice(&other.keys);
        self.moves
            .extend(other.moves.iter().map(|&id| ids[id as usize]));
        self.seq += other.seq;
    }

    /// The tree: each root of a variant whose games were added, then below
    /// each move (most played first) the position after it, down `depth`
    /// plies; a position reached by two lines is listed under the first.
    /// Per position: the position; its totals, named by the line of moves
    /// to it (from the position named, or the start: those of
    /// [`Explorer::play`], then the tree's), with the opening or ballot it is
    /// a row of (`Group::row`, `Group::opening_name`: `opts`' tables, else
    /// the shipped ones); the moves played from it, most played first.
    /// In each count `wins` are White's, `losses` Black's wins, and
    /// `unscored` the games with no result, `*`, or one whose meaning is
    /// not known.
    pub fn tree(&mut self, opts: Option<&Options>) -> Vec<(Position, Group, Vec<Group>)> {
        self.settle();
        let nodes = self.levels();
        let roots = self.empty_roots().len();
        self.output(&nodes, roots, opts)
    }

    /// The nodes in the order of the tree (the first `roots` are the roots),
    /// as [`Explorer::tree`] gives them.
    pub(super) fn output(
        &self,
        nodes: &[Node],
        roots: usize,
        opts: Option<&Options>,
    ) -> Vec<(Position, Group, Vec<Group>)> {
        let mut order = Vec::with_capacity(nodes.len());
        let mut stack: Vec<usize> = (0..roots).rev().collect();
        while let Some(i) = stack.pop() {
            order.push(i);
            let mut children = nodes[i].children.clone();
            children.sort_by_key(|&c| {
                let mv = nodes[c].line.last().map_or("", |m| m.as_str());
                let games = nodes[i]
                    .moves
                    .iter()
                    .find(|(m, _)| m == mv)
                    .map_or(0, |(_, t)| t.counts.iter().sum::<u64>());
                (std::cmp::Reverse(games), mv.to_string())
            });
            stack.extend(children.into_iter().rev());
        }
        let tables = opts.and_then(|o| o.opening_tables.as_ref());
        order
            .into_iter()
            .map(|i| {
                let n = &nodes[i];
                let mut totals = n.totals.group(n.line.join(" "), &self.strings);
                let v = n.pos.variant();
                let set_up = !crate::openings::is_initial(&n.pos);
                if let Some(o) = crate::openings::classify(v, &[n.pos.key()], &[], set_up, tables)
                    .filter(|_| set_up)
                {
                    totals.row = Some(format!("{} {}", o.table(), o.code()));
                    totals.opening_name = o.name().map(str::to_string);
                }
                let mut moves: Vec<Group> = n
                    .moves
                    .iter()
                    .map(|(m, t)| t.group(m.clone(), &self.strings))
                    .collect();
                moves.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.name.cmp(&b.name)));
                (n.pos, totals, moves)
            })
            .collect()
    }

    /// The moves played to the root of `v`.
    pub(super) fn line_to(&self, v: Variant) -> Vec<String> {
        self.played
            .iter()
            .find(|(w, _)| *w == v)
            .map_or_else(Vec::new, |(_, l)| l.clone())
    }

    /// The roots of the variants seen, in the table's order, empty.
    pub(super) fn empty_roots(&self) -> Vec<Node> {
        Variant::ALL
            .iter()
            .filter(|v| self.seen.contains(v))
            .filter_map(|&v| self.root_of(v))
            .map(|p| Node::new(p, self.line_to(p.variant())))
            .collect()
    }

    /// Every node of the tree, counted: the roots' own counts at depth 1;
    /// deeper, level by level over the games kept.
    fn levels(&self) -> Vec<Node> {
        let mut nodes = self.empty_roots();
        if self.depth == 1 {
            for n in &mut nodes {
                if let Some(counted) = self.nodes.iter().find(|c| c.pos == n.pos) {
                    let line = std::mem::take(&mut n.line);
                    *n = Node {
                        line,
                        ..counted.clone()
                    };
                }
            }
            return nodes;
        }
        self.grow(nodes, |here, nodes| self.count_level(here, nodes))
    }

    /// The tree from its roots `nodes`, down `depth` levels: `count` counts
    /// the nodes of a level (given by key); the positions after their moves
    /// make the next.
    pub(super) fn grow(
        &self,
        mut nodes: Vec<Node>,
        mut count: impl FnMut(&HashMap<(Variant, u64), usize>, &mut [Node]),
    ) -> Vec<Node> {
        let mut index: HashMap<(Variant, u64), usize> = nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (node_key(n.pos.variant(), n.pos.key()), i))
            .collect();
        let mut level: Vec<usize> = (0..nodes.len()).collect();
        for d in 0..self.depth {
            let here: HashMap<(Variant, u64), usize> = level
                .iter()
                .map(|&i| (node_key(nodes[i].pos.variant(), nodes[i].pos.key()), i))
                .collect();
            count(&here, &mut nodes);
            if d + 1 == self.depth {
                break;
            }
            let mut next = Vec::new();
            for &i in &level {
                // In the tree's order (most played first), so that a position
                // reached by two lines goes under the same one whatever order
                // the games came in.
                let mut moves: Vec<(u64, String)> = nodes[i]
                    .moves
                    .iter()
                    .map(|(m, t)| (t.counts.iter().sum::<u64>(), m.clone()))
                    .collect();
                moves.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
                for (_, m) in moves {
                    let Ok(mv) = resolve(&nodes[i].pos, &m) else {
                        continue;
                    };
                    let child = crate::rules::play_unchecked(&nodes[i].pos, &mv);
                    let key = node_key(child.variant(), child.key());
                    if index.contains_key(&key) {
                        continue;
                    }
                    let mut line = nodes[i].line.clone();
                    line.push(m);
                    let c = nodes.len();
                    index.insert(key, c);
                    next.push(c);
                    nodes[i].children.push(c);
                    nodes.push(Node::new(child, line));
                }
            }
            level = next;
        }
        nodes
    }

    /// Counts every game kept at the nodes of one level it reaches.
    fn count_level(&self, here: &HashMap<(Variant, u64), usize>, nodes: &mut [Node]) {
        let mut done: Vec<usize> = Vec::new();
        for k in &self.kept {
            done.clear();
            let keys = &self.keys[k.at..k.at + k.n_keys];
            let moves = &self.moves[k.mv_at..k.mv_at + k.n_moves];
            for (j, &key) in keys.iter().enumerate() {
                let Some(&i) = here.get(&node_key(k.variant, key)) else {
                    continue;
                };
                if done.contains(&i) {
                    continue;
                }
                done.push(i);
                let mv = moves
                    .get(j)
                    .map(|&id| self.move_texts[id as usize].as_str());
                nodes[i].add(&k.meta, mv);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdn::read_all;

    const GAMES: &str =
        "[GameType \"20\"][Date \"2001\"][Result \"2-0\"] 1. 32-28 17-21 2. 33-29 20-25 2-0\n\
        [GameType \"20\"][Date \"2003\"][Result \"0-2\"] 1. 33-29 17-21 2. 32-28 19-24 0-2\n\
        [GameType \"20\"][Date \"2002\"][Result \"1-1\"] 1. 32-28 17-21 2. 33-29 19-24 1-1\n\
        [GameType \"20\"][Result \"*\"] 1. 32-28 17-21 2. 33-29 *\n\
        [GameType \"21\"][Result \"1-0\"] 1. 11-15 23-19 2. 8-11 1-0\n\
        [GameType \"21\"][Result \"0-1\"] 1. 11-15 22-18 0-1\n";

    fn explored(games: &[Game], roots: &[Position], depth: u32) -> Explorer {
        let opts = Options {
            keep_moves: true,
            ..Options::default()
        };
        let mut e = Explorer::new(roots, depth);
        for g in games {
            e.add("t.pdn", g, &crate::check::check_game(g, &opts));
        }
        e
    }

    /// The tree as comparable text: each position's line, counts and moves.
    fn text(mut e: Explorer) -> Vec<String> {
        e.tree(None)
            .into_iter()
            .map(|(p, t, moves)| {
                let m: Vec<String> = moves
                    .iter()
                    .map(|g| {
                        format!(
                            "{} {} {} {} {} {}",
                            g.name, g.games, g.wins, g.draws, g.losses, g.unscored
                        )
                    })
                    .collect();
                format!(
                    "{} [{}] {} {:?} {:?} | {}",
                    p.to_fen(),
                    t.name,
                    t.games,
                    t.first_year,
                    t.recent,
                    m.join(", ")
                )
            })
            .collect()
    }

    #[test]
    fn two_halves_merged_are_the_whole() {
        let games = read_all(GAMES.as_bytes());
        for depth in [1, 3] {
            let whole = explored(&games, &[], depth);
            let mut first = explored(&games[..3], &[], depth);
            first.merge(explored(&games[3..], &[], depth));
            assert_eq!(text(first), text(whole), "depth {depth}");
        }
    }

    #[test]
    fn the_first_level_of_a_deep_tree_is_the_shallow_tree() {
        let games = read_all(GAMES.as_bytes());
        let shallow = text(explored(&games, &[], 1));
        let deep = text(explored(&games, &[], 4));
        for root in &shallow {
            assert!(deep.contains(root), "{root} not in {deep:#?}");
        }
        // International and English: one tree each, in the table's order.
        assert_eq!(shallow.len(), 2);
        assert!(shallow[0].starts_with("W:W31"), "{shallow:?}");
    }

    #[test]
    fn moves_are_played_from_every_root_they_fit() {
        let games = read_all(GAMES.as_bytes());
        let mut e = Explorer::new(&[], 1);
        e.play("1. 11-15 23-19").unwrap();
        // Only English and the 8x8 variants numbered as it is: Black first.
        assert!(e
            .roots
            .iter()
            .all(|p| p.variant().board() == crate::board::BoardSize::Eight));
        let opts = Options {
            keep_moves: true,
            ..Options::default()
        };
        for g in &games {
            e.add("t.pdn", g, &crate::check::check_game(g, &opts));
        }
        let tree = e.tree(None);
        assert_eq!(tree.len(), 1);
        assert_eq!(tree[0].1.games, 1);
        assert_eq!(tree[0].2[0].name, "8-11");
        assert!(Explorer::new(&[], 1)
            .play("32-28 99-1")
            .unwrap_err()
            .contains("99-1"));
        assert!(Explorer::new(&[], 1).play("32-28 32-28").is_err());
    }

    #[test]
    fn two_halves_of_an_index_merged_are_the_whole() {
        let games = read_all(GAMES.as_bytes());
        let opts = Options {
            keep_moves: true,
            ..Options::default()
        };
        let build = |gs: &[Game]| {
            let mut e = Explorer::indexing(10);
            for g in gs {
                e.add("t.pdn", g, &crate::check::check_game(g, &opts));
            }
            e
        };
        let rows = |mut e: Explorer| {
            let mut out = Vec::new();
            e.index_rows(|p, g| {
                out.push(format!(
                    "{} [{}] {} {} {:?}",
                    p.to_fen(),
                    g.name,
                    g.games,
                    g.wins,
                    g.recent
                ))
            })
            .unwrap();
            out
        };
        let whole = rows(build(&games));
        let mut first = build(&games[..3]);
        first.merge(build(&games[3..]));
        assert_eq!(rows(first), whole);
        // Six games of 4, 4, 4, 3, 3 and 2 plies: their positions, with the
        // starts and the positions the first moves share counted once.
        assert!(whole.len() > 10, "{whole:#?}");
    }

    #[test]
    fn index_rows_made_in_parts_and_merged_are_the_whole() {
        let games = read_all(GAMES.as_bytes());
        let opts = Options {
            keep_moves: true,
            ..Options::default()
        };
        let rows = |gs: &[Game], first: u64| {
            let mut e = Explorer::indexing(10).numbered_from(first);
            for g in gs {
                e.add("t.pdn", g, &crate::check::check_game(g, &opts));
            }
            let mut out = Vec::new();
            e.index_rows(|p, g| out.push((*p, g))).unwrap();
            out
        };
        // What a row says, the games' places apart (parts place them apart).
        let text = |rows: Vec<(Position, Group)>| {
            let mut t: Vec<String> = rows
                .iter()
                .map(|(p, g)| {
                    let at: Vec<u32> = g.recent_at.iter().map(|a| a.0).collect();
                    format!(
                        "{} [{}] {} {} {} {} {} {:?} {:?} {:?} {at:?}",
                        p.to_fen(),
                        g.name,
                        g.games,
                        g.wins,
                        g.draws,
                        g.losses,
                        g.unscored,
                        g.first_year,
                        g.last_year,
                        g.recent
                    )
                })
                .collect();
            t.sort();
            t
        };
        let whole = rows(&games, 0);
        for cut in 1..games.len() {
            let parts = rows(&games[..cut], 0)
                .into_iter()
                .chain(rows(&games[cut..], 1 << 32));
            let merged = Explorer::merge_index_rows(parts);
            assert_eq!(text(merged.clone()), text(whole.clone()), "cut at {cut}");
            // Merging again changes nothing: the rows are one per move.
            assert_eq!(
                Explorer::merge_index_rows(merged.clone()).len(),
                merged.len()
            );
        }
    }

    #[cfg(feature = "serde")]
    #[test]
    fn recent_games_read_back_from_their_json() {
        let games = read_all(GAMES.as_bytes());
        let tree = explored(&games, &[], 1).tree(None);
        let totals = &tree[0].1;
        assert!(totals.recent.len() >= 3);
        let mut back = Group::default();
        back.set_recent_json(&totals.recent_json()).unwrap();
        assert_eq!(
            (back.recent, back.recent_at),
            (totals.recent.clone(), totals.recent_at.clone())
        );
        assert!(back_fails("[{\"white\": 1}]") && back_fails("nothing"));
    }

    #[cfg(feature = "serde")]
    fn back_fails(text: &str) -> bool {
        Group::default().set_recent_json(text).is_err()
    }
}
