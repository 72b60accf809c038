//! A position index (`pdnkit index`, docs/explore.md): every position of the
//! first plies of each game, with the move played from it, counted; and the
//! tree of `pdnkit explore --index` answered from such rows, as the direct
//! run answers.

use super::explore::Explorer;
use super::explore_model::{Line, Meta, Node, Tally};
use super::Group;
use crate::export::{Column, ColumnType};
use crate::position::Position;
use crate::replay::Options;
use crate::variant::Variant;
use hashbrown::HashMap;

/// Buckets the positions' records are spilled to, by key: one is in memory
/// at a time while the rows are made.
const BUCKETS: usize = 64;

/// A move number meaning "no move".
const NO_MOVE: u32 = u32::MAX;

/// One position of one game, as spilled.
struct Seen {
    variant: u8,
    key: u64,
    mv: u32,
    meta: Meta,
    pos: Position,
}

impl Seen {
    fn write(&self, out: &mut Vec<u8>) {
        out.push(self.variant);
        out.extend_from_slice(&self.key.to_le_bytes());
        out.extend_from_slice(&self.mv.to_le_bytes());
        out.push(self.meta.result);
        out.extend_from_slice(&self.meta.when.to_le_bytes());
        out.extend_from_slice(&self.meta.seq.to_le_bytes());
        for s in [
            self.meta.white,
            self.meta.black,
            self.meta.event,
            self.meta.date,
        ] {
            out.extend_from_slice(&s.raw().to_le_bytes());
        }
        self.pos.write_bytes(out);
    }
    /// The record at the start of `b` and its length.
    fn read(b: &[u8]) -> Option<(Seen, usize)> {
        let u32_at = |i: usize| {
            b.get(i..i + 4)
                .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
        };
        let u64_at = |i: usize| {
            let s = b.get(i..i + 8)?;
            let mut a = [0; 8];
            a.copy_from_slice(s);
            Some(u64::from_le_bytes(a))
        };
        let meta = Meta::read(b.get(13..)?)?;
        let pos = Position::from_bytes(b.get(42..)?)?;
        let seen = Seen {
            variant: *b.first()?,
            key: u64_at(1)?,
            mv: u32_at(9)?,
            meta,
            pos,
        };
        Some((seen, 42 + Position::BYTES))
    }
}

/// A column of the index.
const fn col(name: &'static str, ty: ColumnType, nullable: bool) -> Column {
    Column { name, ty, nullable }
}

impl Explorer {
    /// The position index's columns, in order (docs/explore.md): `variant`,
    /// `key` (the position's), `position` (FEN), `move` (none for the games
    /// that end there), `games`, `white_wins`, `draws`, `black_wins`,
    /// `unfinished`, `first_year`, `last_year` and `recent` (a JSON list,
    /// `Group::recent_json` with the feature `serde`). `pdnkit index` writes
    /// them; a Parquet file with these columns and the metadata entry
    /// `pdnkit.index` (`version` 1, `plies`, `variants`) is an index
    /// `pdnkit explore --index` reads.
    pub const INDEX_TABLE: [Column; 12] = [
        col("variant", ColumnType::Text, false),
        col("key", ColumnType::UInt64, false),
        col("position", ColumnType::Text, false),
        col("move", ColumnType::Text, true),
        col("games", ColumnType::UInt64, false),
        col("white_wins", ColumnType::UInt64, false),
        col("draws", ColumnType::UInt64, false),
        col("black_wins", ColumnType::UInt64, false),
        col("unfinished", ColumnType::UInt64, false),
        col("first_year", ColumnType::UInt32, true),
        col("last_year", ColumnType::UInt32, true),
        col("recent", ColumnType::Text, false),
    ];

    /// The games added from now on are placed from `first` on (by default
    /// 0): for one part of an archive indexed on its own, placed after the
    /// parts before it (say `part << 32`), so that of two recent games of
    /// the same date the later in the archive is the newer once the parts'
    /// rows are merged ([`Explorer::merge_index_rows`]), as in one run.
    pub fn numbered_from(mut self, first: u64) -> Explorer {
        self.seq = first;
        self
    }

    /// The rows of an index made in parts merged, as one run over the
    /// parts' games would have made them: the rows of the same position and
    /// move (variant, key and `Group::name`) become one, their counts
    /// summed, their years widened and their recent games the newest four.
    /// The rows come in the order of (variant, key, move). Copies of a game
    /// stored in two parts are counted in each.
    pub fn merge_index_rows(
        rows: impl IntoIterator<Item = (Position, Group)>,
    ) -> Vec<(Position, Group)> {
        let mut strings = crate::tournament::Strings::default();
        let mut merged: HashMap<(usize, u64, String), (Position, Tally)> = HashMap::default();
        for (pos, g) in rows {
            let v = Variant::ALL
                .iter()
                .position(|&v| v == pos.variant())
                .unwrap_or(0);
            let t = Tally::of_group(&g, &mut strings);
            merged
                .entry((v, pos.key(), g.name))
                .or_insert_with(|| (pos, Tally::default()))
                .1
                .absorb(&t);
        }
        let mut out: Vec<_> = merged.into_iter().collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out.into_iter()
            .map(|((_, _, name), (pos, t))| (pos, t.group(name, &strings)))
            .collect()
    }

    /// An explorer that builds a position index (`pdnkit index`): every
    /// position of the first `plies` plies of each game (its start
    /// included, and the position after ply `plies`), once per game, with
    /// the move played from it first; [`Explorer::index_rows`] gives them.
    /// A game stored more than once in an event counts once, unless
    /// [`Explorer::keep_duplicates`]. Memory stays flat: the positions go to
    /// a temporary file, in buckets by key.
    pub fn indexing(plies: u32) -> Explorer {
        let mut e = Explorer::new(&[], 1);
        e.index = Some((plies, crate::store::Buckets::new(BUCKETS)));
        e
    }

    /// The variants of the games counted, in the table's order.
    pub fn variants(&self) -> Vec<Variant> {
        Variant::ALL
            .iter()
            .copied()
            .filter(|v| self.seen.contains(v))
            .collect()
    }

    /// Spills each position of `line` (its first time in the game).
    pub(super) fn count_for_index(&mut self, line: &Line) {
        let Some((_, buckets)) = &mut self.index else {
            return;
        };
        let variant = Variant::ALL
            .iter()
            .position(|&v| v == line.variant)
            .unwrap_or(0) as u8;
        let mut done: Vec<u64> = Vec::with_capacity(line.keys.len());
        let mut record = Vec::new();
        for (j, &key) in line.keys.iter().enumerate() {
            if done.contains(&key) {
                continue;
            }
            done.push(key);
            record.clear();
            Seen {
                variant,
                key,
                mv: line.moves.get(j).copied().unwrap_or(NO_MOVE),
                meta: line.meta,
                pos: line
                    .positions
                    .get(j)
                    .copied()
                    .unwrap_or_else(|| line.variant.start()),
            }
            .write(&mut record);
            buckets.push((key % BUCKETS as u64) as usize, &record);
        }
    }

    /// Moves the positions `other` spilled into this index (`ids`: its move
    /// numbers here; its games placed `seq` later). An error when its
    /// temporary file cannot be read back.
    pub(super) fn absorb_index(
        &mut self,
        other: &mut Explorer,
        ids: &[u32],
        seq: u64,
    ) -> Result<(), String> {
        let Some((_, mut theirs)) = other.index.take() else {
            return Ok(());
        };
        let Some((_, mine)) = &mut self.index else {
            return Err("an index merged into an explorer that builds none".into());
        };
        let mut record = Vec::new();
        for b in 0..theirs.count() {
            let bytes = theirs
                .take(b)
                .map_err(|e| format!("the index's temporary file could not be read back: {e}"))?;
            let mut at = 0;
            while at < bytes.len() {
                let Some((mut seen, n)) = Seen::read(&bytes[at..]) else {
                    return Err("the index's temporary file was cut short".into());
                };
                at += n;
                seen.meta = seen.meta.moved(&other.strings, &mut self.strings, seq);
                if seen.mv != NO_MOVE {
                    seen.mv = ids.get(seen.mv as usize).copied().unwrap_or(NO_MOVE);
                }
                record.clear();
                seen.write(&mut record);
                mine.push((seen.key % BUCKETS as u64) as usize, &record);
            }
        }
        Ok(())
    }

    /// The index's rows, a position at a time: for each position and each
    /// move played from it (`Group::name`; `""` for the games that end there
    /// or whose next move was not replayed), its counts as
    /// [`Explorer::tree`] gives them. The positions come in an order of
    /// their keys; each position's rows together, its moves in text order.
    /// An error when the temporary file cannot be read back (nothing is
    /// made up).
    pub fn index_rows(&mut self, mut each: impl FnMut(&Position, Group)) -> Result<(), String> {
        self.settle();
        if let Some(why) = &self.failed {
            return Err(why.clone());
        }
        let Some((plies, mut buckets)) = self.index.take() else {
            return Ok(());
        };
        for b in 0..buckets.count() {
            let bytes = buckets
                .take(b)
                .map_err(|e| format!("the index's temporary file could not be read back: {e}"))?;
            let mut rows: HashMap<(u8, u64, u32), (Position, Tally)> = HashMap::default();
            let mut at = 0;
            while at < bytes.len() {
                let Some((seen, n)) = Seen::read(&bytes[at..]) else {
                    return Err("the index's temporary file was cut short".into());
                };
                at += n;
                let row = rows
                    .entry((seen.variant, seen.key, seen.mv))
                    .or_insert_with(|| (seen.pos, Tally::default()));
                row.1.add(&seen.meta);
            }
            let text = |mv: u32| {
                self.move_texts
                    .get(mv as usize)
                    .map_or(String::new(), |t| t.clone())
            };
            let mut rows: Vec<_> = rows
                .into_iter()
                .map(|((v, key, mv), row)| ((v, key, text(mv)), row))
                .collect();
            rows.sort_by(|a, b| a.0.cmp(&b.0));
            for ((_, _, mv), (pos, tally)) in rows {
                each(&pos, tally.group(mv, &self.strings));
            }
        }
        self.index = Some((plies, crate::store::Buckets::new(BUCKETS)));
        Ok(())
    }

    /// The tree of this explorer's roots answered from an index: `variants`
    /// are those of its games (a root of another variant is not shown), and
    /// `rows` gives the index's rows of the positions asked, as
    /// [`Explorer::index_rows`] made them (each with its position). The
    /// answer is the direct run's on the same games for every position
    /// their games reach within the plies indexed.
    pub fn tree_from_index(
        &mut self,
        opts: Option<&Options>,
        variants: &[Variant],
        mut rows: impl FnMut(&[Position]) -> Vec<(Position, Group)>,
    ) -> Vec<(Position, Group, Vec<Group>)> {
        let roots: Vec<Node> = Variant::ALL
            .iter()
            .filter(|v| variants.contains(v))
            .filter_map(|&v| self.root_of(v))
            .map(|p| Node::new(p, self.line_to(p.variant())))
            .collect();
        let n = roots.len();
        let mut strings = std::mem::take(&mut self.strings);
        let nodes = self.grow(roots, |here, nodes| {
            let mut asked: Vec<usize> = here.values().copied().collect();
            asked.sort_unstable();
            let positions: Vec<Position> = asked.iter().map(|&i| nodes[i].pos).collect();
            for (p, g) in rows(&positions) {
                let Some(&i) = here.get(&(p.variant(), p.key())) else {
                    continue;
                };
                let t = Tally::of_group(&g, &mut strings);
                nodes[i].totals.absorb(&t);
                if !g.name.is_empty() {
                    nodes[i].moves.push((g.name, t));
                }
            }
        });
        self.strings = strings;
        self.output(&nodes, n, opts)
    }
}

/// A recent game as the index's `recent` column keeps it.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct Recent {
    white: String,
    black: String,
    event: String,
    date: String,
    when: u32,
    seq: u64,
}

#[cfg(feature = "serde")]
impl Group {
    /// [`Group::recent`] and [`Group::recent_at`] as the position index's
    /// `recent` column writes them: a JSON list, newest first, of objects
    /// with `white`, `black`, `event`, `date` (as written), `when` (the
    /// Date as `yyyymmdd`, unknown parts 0) and `seq` (the game's place).
    pub fn recent_json(&self) -> String {
        let list: Vec<Recent> = self
            .recent
            .iter()
            .zip(&self.recent_at)
            .map(|(r, &(when, seq))| Recent {
                white: r[0].clone(),
                black: r[1].clone(),
                event: r[2].clone(),
                date: r[3].clone(),
                when,
                seq,
            })
            .collect();
        serde_json::to_string(&list).unwrap_or_else(|_| "[]".into())
    }

    /// Sets [`Group::recent`] and [`Group::recent_at`] from the text
    /// [`Group::recent_json`] wrote; an error (and nothing set) when it is
    /// not such a list.
    pub fn set_recent_json(&mut self, text: &str) -> Result<(), String> {
        let list: Vec<Recent> =
            serde_json::from_str(text).map_err(|e| format!("not a list of recent games ({e})"))?;
        self.recent_at = list.iter().map(|x| (x.when, x.seq)).collect();
        self.recent = list
            .into_iter()
            .map(|x| [x.white, x.black, x.event, x.date])
            .collect();
        Ok(())
    }
}
