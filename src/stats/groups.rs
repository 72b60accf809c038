//! [`Groups`]: `stats --by player|event|year|opening|...`, the games
//! counted per group (copies once, as the tournament counts them).

use crate::diag::{Code, Severity};
use crate::pdn::{Game, Outcome};
use crate::replay::GameReport;
use crate::stats::figures::{opening_lines, GameFigures, Stats};
use crate::tournament::Sym;
use hashbrown::HashMap;
use std::collections::BTreeMap;

/// What `stats --by` groups games by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupBy {
    /// Each player (a game counts for both, from each one's side).
    Player,
    /// The Event tag.
    Event,
    /// The year of the Date tag.
    Year,
    /// The variant.
    Variant,
    /// The opening (`TABLE CODE`, docs/openings.md), `(none)` for a game
    /// with none.
    Opening,
    /// The plain summary's scopes: the variant (`variant:NAME`), and the
    /// file (`file:PATH`) with [`Groups::per_file`]. Each group keeps all
    /// the figures of its games ([`Group::figures`]).
    Scope,
}

impl GroupBy {
    /// `player`, `event`, `year`, `variant` or `opening`.
    pub fn name(self) -> &'static str {
        match self {
            GroupBy::Player => "player",
            GroupBy::Event => "event",
            GroupBy::Year => "year",
            GroupBy::Variant => "variant",
            GroupBy::Opening => "opening",
            GroupBy::Scope => "scope",
        }
    }
}

/// Counts of one group of `stats --by`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Group {
    /// The group's name (the player as first written, the event, the year,
    /// the variant, the opening's table and code).
    pub name: String,
    /// By opening: the name every game of the group shares, the row's own
    /// or the names table's when every game reaches it; `None` else (the
    /// names its games reach deeper are [`Group::names_reached`]).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub opening_name: Option<String>,
    /// By opening, for a row with no name of its own: the names of the
    /// variant's names table its games reach deeper, with how many games
    /// reach each (the others reach no name). `select --opening NAME`
    /// selects those games.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "BTreeMap::is_empty"))]
    pub names_reached: BTreeMap<String, u64>,
    /// Games.
    pub games: u64,
    /// Won, drawn, lost: the player's for a player, White's otherwise.
    pub wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Lost.
    pub losses: u64,
    /// Games with no result that counts.
    pub unscored: u64,
    /// A player's won, drawn, lost games with White.
    pub as_white: [u64; 3],
    /// With Black.
    pub as_black: [u64; 3],
    /// Plies of all its games that were replayed.
    pub plies: u64,
    /// Its games that were replayed (a game of a refused or undecided file,
    /// or of a variant not checked, has no length: issue 55).
    pub replayed: u64,
    /// Findings per code.
    pub findings: BTreeMap<&'static str, u64>,
    /// By scope ([`GroupBy::Scope`]): all the figures of its games.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub figures: Option<Stats>,
    /// [`Explorer`](super::Explorer): the earliest year of its games' Date tags.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub first_year: Option<u32>,
    /// The latest.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub last_year: Option<u32>,
    /// [`Explorer`](super::Explorer): its most recent games by their Date
    /// tags (then the later in the input), newest first, at most four:
    /// White, Black, Event and Date as written (empty when absent).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub recent: Vec<[String; 4]>,
    /// Where each of [`Group::recent`] stands: its Date as `yyyymmdd`
    /// (unknown parts 0) and its place in the input, newest first; what
    /// merges two lists of recent games (an index read back).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub recent_at: Vec<(u32, u64)>,
    /// [`Explorer`](super::Explorer): the row of an opening or ballot table
    /// the position is, `TABLE CODE` (its name in [`Group::opening_name`]).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub row: Option<String>,
}

impl Group {
    /// The score in [0, 1]: a win 1, a draw ½, over the scored games.
    pub fn score(&self) -> Option<f64> {
        let scored = self.wins + self.draws + self.losses;
        (scored > 0).then(|| (self.wins as f64 + self.draws as f64 / 2.0) / scored as f64)
    }
    /// The points per decided game in [0, 1] of `side`, [`Group::wins`]
    /// being White's and [`Group::losses`] Black's wins (as
    /// [`Explorer`](super::Explorer) counts them).
    pub fn score_of(&self, side: crate::piece::Color) -> Option<f64> {
        let decided = self.wins + self.draws + self.losses;
        let won = match side {
            crate::piece::Color::White => self.wins,
            crate::piece::Color::Black => self.losses,
        };
        (decided > 0).then(|| (won as f64 + self.draws as f64 / 2.0) / decided as f64)
    }
    /// The mean length in plies of its replayed games (`None` when none was
    /// replayed: a length that is not known is not 0).
    pub fn mean_plies(&self) -> Option<f64> {
        (self.replayed > 0).then(|| self.plies as f64 / self.replayed as f64)
    }
}

/// Games grouped by player, event, year, variant or opening, in key order.
///
/// Whatever they are grouped by, a game stored more than once in an event
/// is counted once, as `pdnkit tournament` counts it
/// ([`crate::tournament::Games::events`] counts it): the groups are made
/// when all games are in ([`Groups::sorted`]), and [`Groups::set_aside`]
/// says how many copies were not counted. [`Groups::keep_duplicates`]
/// counts every copy.
#[derive(Debug)]
pub struct Groups {
    by: GroupBy,
    groups: BTreeMap<String, Group>,
    /// Counting each game once: the games waiting for their copies
    /// (`None`: every copy counts).
    once: Option<crate::tournament::Once>,
    /// Games added.
    seq: u64,
    /// Per group: the place of the game counted first in it, which names it.
    first: HashMap<String, u64>,
    /// By opening: each group's row's own name.
    row_names: HashMap<String, String>,
    /// The keys and names of the games waiting, each text once.
    strings: crate::tournament::Strings,
    /// The findings of the games waiting, each list once.
    code_lists: Vec<Vec<(Code, Severity)>>,
    code_ids: HashMap<Vec<(Code, Severity)>, u32>,
    /// By scope: a group per file too.
    per_file: bool,
    /// Extra copies not counted, and games left out because their copies
    /// disagree.
    copies: (u64, u64),
    /// Why games set aside could not be read back ([`Groups::failed`]).
    failed: Option<String>,
}

/// A game to be counted: its place in the input and what it adds to its
/// groups (one or two entries, their texts interned). [`Pending::BYTES`]
/// bytes while it waits for its copies on disk (issue 51).
#[derive(Clone, Copy, Debug)]
struct Pending {
    seq: u64,
    entries: [Waiting; 2],
    n: u8,
    /// Its plies, when it was replayed.
    plies: Option<u32>,
    /// Index of its list of findings.
    codes: u32,
    /// By scope: its figures, and its opening lines of 2 and 4 plies.
    figures: Option<(GameFigures, [Sym; 2])>,
}

/// An [`Entry`] waiting, its key and name interned.
#[derive(Clone, Copy, Debug)]
struct Waiting {
    key: Sym,
    name: Sym,
    /// A name reached deeper ([`Group::names_reached`]).
    deeper: Sym,
    side: Option<u8>,
    white: Option<bool>,
}

impl Waiting {
    const NONE: Waiting = Waiting {
        key: Sym::NONE,
        name: Sym::NONE,
        deeper: Sym::NONE,
        side: None,
        white: None,
    };
}

impl Pending {
    /// Bytes of a record.
    const BYTES: usize = 8 + 2 * 14 + 1 + 5 + 4;
    /// Appends its record to `out`.
    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.seq.to_le_bytes());
        for w in &self.entries {
            out.extend_from_slice(&w.key.raw().to_le_bytes());
            out.extend_from_slice(&w.name.raw().to_le_bytes());
            out.extend_from_slice(&w.deeper.raw().to_le_bytes());
            out.push(w.side.unwrap_or(u8::MAX));
            out.push(match w.white {
                None => 0,
                Some(false) => 1,
                Some(true) => 2,
            });
        }
        out.push(self.n);
        out.push(u8::from(self.plies.is_some()));
        out.extend_from_slice(&self.plies.unwrap_or(0).to_le_bytes());
        out.extend_from_slice(&self.codes.to_le_bytes());
        if let Some((f, lines)) = &self.figures {
            f.write(out);
            for l in lines {
                out.extend_from_slice(&l.raw().to_le_bytes());
            }
        }
    }
    /// The record [`Pending::write`] wrote at the start of `b`, with its
    /// figures when `figures`.
    fn read(b: &[u8], figures: bool) -> Option<Pending> {
        let mut p = Pending::read_counts(b)?;
        if figures {
            let f = GameFigures::read(b.get(Self::BYTES..)?)?;
            let at = Self::BYTES + GameFigures::BYTES;
            let l = b.get(at..at + 8)?;
            let sym =
                |i: usize| Sym::from_raw(u32::from_le_bytes([l[i], l[i + 1], l[i + 2], l[i + 3]]));
            p.figures = Some((f, [sym(0), sym(4)]));
        }
        Some(p)
    }
    /// The record's fixed part.
    fn read_counts(b: &[u8]) -> Option<Pending> {
        let b = b.get(..Self::BYTES)?;
        let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let seq = u64::from(u32_at(0)) | (u64::from(u32_at(4)) << 32);
        let mut at = 8;
        let mut entries = [Waiting::NONE; 2];
        for w in &mut entries {
            *w = Waiting {
                key: Sym::from_raw(u32_at(at)),
                name: Sym::from_raw(u32_at(at + 4)),
                deeper: Sym::from_raw(u32_at(at + 8)),
                side: Some(b[at + 12]).filter(|&s| s != u8::MAX),
                white: match b[at + 13] {
                    0 => None,
                    1 => Some(false),
                    _ => Some(true),
                },
            };
            at += 14;
        }
        Some(Pending {
            seq,
            entries,
            n: b[at].min(2),
            plies: (b[at + 1] != 0).then(|| u32_at(at + 2)),
            codes: u32_at(at + 6),
            figures: None,
        })
    }
}

/// What a game adds to one group.
struct Entry {
    /// The group's key.
    key: String,
    /// The group's name, as this game writes it.
    name: String,
    /// By opening: the name the game reaches deeper than its row.
    deeper: Option<String>,
    /// The result from the group's side (0 won, 1 drawn, 2 lost).
    side: Option<usize>,
    /// The group's colour in the game, for a player.
    white: Option<bool>,
}

impl Entry {
    fn new(key: String, name: String, side: Option<usize>, white: Option<bool>) -> Entry {
        Entry {
            key,
            name,
            deeper: None,
            side,
            white,
        }
    }
}

impl Groups {
    /// No group yet.
    pub fn new(by: GroupBy) -> Groups {
        Groups {
            by,
            groups: BTreeMap::new(),
            once: Some(crate::tournament::Once::new()),
            seq: 0,
            first: HashMap::new(),
            row_names: HashMap::new(),
            strings: crate::tournament::Strings::default(),
            code_lists: Vec::new(),
            code_ids: HashMap::new(),
            per_file: false,
            copies: (0, 0),
            failed: None,
        }
    }
    /// Every copy of a game counts (`--keep-duplicates`), when `keep`.
    pub fn keep_duplicates(mut self, keep: bool) -> Groups {
        self.once = (!keep).then(crate::tournament::Once::new);
        self
    }
    /// By scope: a group per file too, when `yes`.
    pub fn per_file(mut self, yes: bool) -> Groups {
        self.per_file = yes;
        self
    }
    /// Counts one game of `file`. Its result is the computed one where the
    /// rules decided the game, else the declared one.
    pub fn add(&mut self, file: &str, g: &Game, r: &GameReport) {
        let entries = self.entries(file, g, r);
        let codes: Vec<(Code, Severity)> =
            r.diagnostics.iter().map(|d| (d.code, d.severity)).collect();
        let plies = r.checked.then_some(r.plies);
        let codes = match self.code_ids.get(&codes) {
            Some(&id) => id,
            None => {
                let id = self.code_lists.len() as u32;
                self.code_ids.insert(codes.clone(), id);
                self.code_lists.push(codes);
                id
            }
        };
        let mut p = Pending {
            seq: self.seq,
            entries: [Waiting::NONE; 2],
            n: 0,
            plies,
            codes,
            figures: None,
        };
        if self.by == GroupBy::Scope {
            let lines = opening_lines(r).map(|l| l.map_or(Sym::NONE, |l| self.strings.intern(&l)));
            p.figures = Some((GameFigures::of(r), lines));
        }
        self.seq += 1;
        for e in entries.into_iter().take(2) {
            p.entries[p.n as usize] = Waiting {
                key: self.strings.intern(&e.key),
                name: self.strings.intern(&e.name),
                deeper: e
                    .deeper
                    .as_deref()
                    .map_or(Sym::NONE, |d| self.strings.intern(d)),
                side: e.side.map(|s| s as u8),
                white: e.white,
            };
            p.n += 1;
        }
        if self.once.is_none() {
            self.count_pending(&p);
            return;
        }
        let mut bytes = Vec::with_capacity(Pending::BYTES + GameFigures::BYTES + 8);
        p.write(&mut bytes);
        let waits = self
            .once
            .as_mut()
            .is_some_and(|once| once.add(file, g, r, &bytes));
        if !waits {
            self.count_pending(&p);
        }
    }
    /// The groups a game adds to.
    fn entries(&mut self, file: &str, g: &Game, r: &GameReport) -> Vec<Entry> {
        let result = match r.computed {
            Outcome::Unknown => r.declared.unwrap_or(Outcome::Unknown),
            c => c,
        };
        // 0 won, 1 drawn, 2 lost, from White's side.
        let white_side = match result {
            Outcome::WhiteWins => Some(0),
            Outcome::Draw => Some(1),
            Outcome::BlackWins | Outcome::BothLose => Some(2),
            Outcome::Unknown => None,
        };
        let tag = |names: &[&str]| names.iter().find_map(|n| g.tag(n)).unwrap_or_default();
        let mut entries: Vec<Entry> = Vec::new();
        match self.by {
            GroupBy::Scope => {
                let v = format!("variant:{}", r.kind.map_or("unknown", |k| k.name()));
                entries.push(Entry::new(v.clone(), v, white_side, None));
                if self.per_file {
                    let f = format!("file:{file}");
                    entries.push(Entry::new(f.clone(), f, white_side, None));
                }
            }
            GroupBy::Player => {
                for (name, white) in [
                    (tag(&crate::players::WHITE_TAGS), true),
                    (tag(&crate::players::BLACK_TAGS), false),
                ] {
                    let side = white_side.map(|o| match (white, o, result) {
                        (true, o, _) => o,
                        (false, _, Outcome::BothLose) => 2,
                        (false, o, _) => 2 - o,
                    });
                    // Placeholders (`White`, `?`, `NN`, ...) are no player.
                    let key = crate::players::name_key(&name);
                    let (key, name) = if crate::players::is_placeholder_key(&key) {
                        (String::from("\u{0}unknown"), String::from("unknown player"))
                    } else {
                        (key, name)
                    };
                    entries.push(Entry::new(key, name, side, Some(white)));
                }
            }
            GroupBy::Event => {
                // As the tournament reads it (a producer's own tags too).
                let e = crate::tournament::Tagged::of(g).event;
                entries.push(Entry::new(
                    crate::players::name_key(&e),
                    e,
                    white_side,
                    None,
                ));
            }
            GroupBy::Year => {
                let y = crate::tournament::Tagged::of(g)
                    .date
                    .and_then(|d| crate::select::date_span(&d))
                    .map_or("unknown".to_string(), |(a, _)| (a / 10000).to_string());
                entries.push(Entry::new(y.clone(), y, white_side, None));
            }
            GroupBy::Variant => {
                let v = r.kind.map_or("unknown", |k| k.name()).to_string();
                entries.push(Entry::new(v.clone(), v, white_side, None));
            }
            GroupBy::Opening => {
                let Some(o) = r.opening.as_ref() else {
                    let none = "(none)".to_string();
                    entries.push(Entry::new(none.clone(), none, white_side, None));
                    return entries;
                };
                // A group is named only by what all its games share: its
                // row's own name; a name of the names table is reached
                // deeper, by some of its games (issue 62 item 2).
                let key = format!("{} {}", o.table(), o.code());
                let (own, deeper) = match (o.name(), o.name_table()) {
                    (Some(n), None) => (Some(n), None),
                    (n, _) => (None, n),
                };
                if let Some(own) = own {
                    if !self.row_names.contains_key(&key) {
                        self.row_names.insert(key.clone(), own.to_string());
                    }
                }
                let mut e = Entry::new(key.clone(), key, white_side, None);
                e.deeper = deeper.map(str::to_string);
                entries.push(e);
            }
        }
        entries
    }
    /// Counts the games waiting for their copies, each once (a bucket of
    /// pairings at a time). A group is named as the first game counted in
    /// it names it (in input order).
    fn settle(&mut self) {
        let Some(mut once) = self.once.take() else {
            return;
        };
        let mut waiting: Vec<Pending> = Vec::new();
        let figures = self.by == GroupBy::Scope;
        once.settle(|bytes, keep| {
            if let Some(p) = Pending::read(bytes, figures).filter(|_| keep) {
                waiting.push(p);
                if waiting.len() >= 4096 {
                    for p in waiting.drain(..) {
                        self.count_pending(&p);
                    }
                }
            }
        });
        for p in std::mem::take(&mut waiting) {
            self.count_pending(&p);
        }
        self.copies.0 += once.merged;
        self.copies.1 += once.conflicting;
        if let Some(why) = once.failed.take() {
            self.failed.get_or_insert(why);
        }
        self.once = Some(crate::tournament::Once::new());
        self.strings = crate::tournament::Strings::default();
        self.code_lists = Vec::new();
        self.code_ids = HashMap::new();
    }
    /// Counts a game in its groups.
    fn count_pending(&mut self, p: &Pending) {
        for w in &p.entries[..p.n as usize] {
            let text = |s| self.strings.get(s).unwrap_or("");
            let (key, name) = (text(w.key), text(w.name));
            let e = Entry {
                key: key.to_string(),
                name: name.to_string(),
                deeper: self.strings.get(w.deeper).map(str::to_string),
                side: w.side.map(usize::from),
                white: w.white,
            };
            let grp = count(
                &mut self.groups,
                &e,
                p.plies,
                &self.code_lists[p.codes as usize],
            );
            if let Some(deeper) = e.deeper {
                *grp.names_reached.entry(deeper).or_default() += 1;
            }
            if let Some((f, lines)) = &p.figures {
                grp.figures.get_or_insert_with(Stats::default).add_figures(
                    f,
                    self.code_lists[p.codes as usize].iter().copied(),
                    lines.map(|l| self.strings.get(l)),
                );
            }
            match self.first.get_mut(key) {
                Some(seq) if *seq > p.seq => {
                    *seq = p.seq;
                    if let Some(g) = self.groups.get_mut(key) {
                        g.name = name.to_string();
                    }
                }
                Some(_) => {}
                None => {
                    self.first.insert(key.to_string(), p.seq);
                }
            }
        }
    }
    /// The groups, most games first (then by name).
    pub fn sorted(&mut self) -> Vec<&Group> {
        self.settle();
        for (key, name) in &self.row_names {
            if let Some(g) = self.groups.get_mut(key) {
                g.opening_name = Some(name.clone());
            }
        }
        // A name of the names table that every game of the group reaches
        // is the group's too.
        for g in self.groups.values_mut() {
            let all = match g.names_reached.iter().next() {
                Some((n, &c)) if g.names_reached.len() == 1 && c == g.games => Some(n.clone()),
                _ => None,
            };
            if let (None, Some(n)) = (&g.opening_name, all) {
                g.opening_name = Some(n);
                g.names_reached.clear();
            }
        }
        let mut v: Vec<&Group> = self.groups.values().collect();
        v.sort_by(|a, b| b.games.cmp(&a.games).then(a.name.cmp(&b.name)));
        v
    }
    /// What the games are grouped by.
    pub fn by(&self) -> GroupBy {
        self.by
    }
    /// The record `stats --by --format json` writes: the groups, most
    /// games first.
    #[cfg(feature = "serde")]
    pub fn record(&mut self) -> impl serde::Serialize + '_ {
        let by = self.by.name();
        GroupsRecord {
            by,
            groups: self
                .sorted()
                .into_iter()
                .map(|g| GroupRecord {
                    group: g,
                    score: g.score(),
                    mean_plies: g.mean_plies(),
                })
                .collect(),
        }
    }
    /// Games not counted: extra copies of a game counted once, and games
    /// whose copies disagree (`conflicting-copies`), left out as
    /// `tournament` leaves them out. Known after [`Groups::sorted`].
    pub fn set_aside(&self) -> (u64, u64) {
        self.copies
    }
    /// Why games set aside in the temporary file (`--by player|event`)
    /// could not be read back: they are not counted, and the counts are
    /// not to be trusted (the command line exits 2). Known after
    /// [`Groups::sorted`].
    pub fn failed(&self) -> Option<&str> {
        self.failed.as_deref()
    }
}

/// Counts one game in the group of its entry `e` (named as `e` names it
/// when it is new): the result from the group's side, the colour, the
/// game's plies and the codes of its findings. The group.
fn count<'g>(
    groups: &'g mut BTreeMap<String, Group>,
    e: &Entry,
    plies: Option<u32>,
    codes: &[(Code, Severity)],
) -> &'g mut Group {
    let grp = groups.entry(e.key.clone()).or_insert_with(|| Group {
        name: e.name.clone(),
        ..Group::default()
    });
    let (side, white) = (e.side, e.white);
    grp.games += 1;
    if let Some(p) = plies {
        grp.plies += u64::from(p);
        grp.replayed += 1;
    }
    match side {
        Some(0) => grp.wins += 1,
        Some(1) => grp.draws += 1,
        Some(_) => grp.losses += 1,
        None => grp.unscored += 1,
    }
    if let (Some(o), Some(w)) = (side, white) {
        let by_colour = if w {
            &mut grp.as_white
        } else {
            &mut grp.as_black
        };
        by_colour[o] += 1;
    }
    for (c, _) in codes {
        *grp.findings.entry(c.as_str()).or_default() += 1;
    }
    grp
}

/// `stats --by` as JSON: what the games are grouped by, and the groups.
#[cfg(feature = "serde")]
#[derive(Clone, Debug, serde::Serialize)]
struct GroupsRecord<'a> {
    /// `player`, `event`, `year`, `variant` or `opening`.
    pub by: &'static str,
    /// The groups, most games first.
    pub groups: Vec<GroupRecord<'a>>,
}

/// One group of a `GroupsRecord`: its counts, its score and mean length.
#[cfg(feature = "serde")]
#[derive(Clone, Debug, serde::Serialize)]
struct GroupRecord<'a> {
    /// The counts.
    #[serde(flatten)]
    pub group: &'a Group,
    /// [`Group::score`].
    pub score: Option<f64>,
    /// [`Group::mean_plies`].
    pub mean_plies: Option<f64>,
}

#[cfg(test)]
mod histogram_tests {

    use crate::stats::figures::Stats;

    #[test]
    fn lengths_fall_in_their_classes() {
        let mut s = Stats::default();
        for (plies, games) in [
            (0, 2),
            (1, 1),
            (20, 1),
            (21, 3),
            (150, 1),
            (151, 4),
            (900, 1),
        ] {
            s.plies.insert(plies, games);
        }
        let h = s.length_histogram();
        assert_eq!(h[0], ("0", 2));
        assert_eq!(h[1], ("1-20", 2));
        assert_eq!(h[2], ("21-40", 3));
        assert_eq!(h[6], ("101-150", 1));
        assert_eq!(h[7], ("151+", 5));
        assert_eq!(h.iter().map(|(_, n)| n).sum::<u64>(), 13);
    }
}

#[cfg(test)]
mod group_tests {
    use super::*;
    use crate::{check_game, Options};

    #[test]
    fn players_count_from_their_own_side_and_names_merge() {
        let text = "[White \"Sijbrands, Ton\"]\n[Black \"Baba\"]\n[Date \"1998.05.17\"]\n[Result \"2-0\"]\n[GameType \"20\"]\n1. 32-28 *\n\n\
                    [White \"Baba\"]\n[Black \"Sijbrands  Ton\"]\n[Date \"1999.01.02\"]\n[Result \"1-1\"]\n[GameType \"20\"]\n1. 32-28 *\n\n\
                    [White \"Baba\"]\n[Black \"Sijbrands Ton\"]\n[Date \"1999\"]\n[Result \"2-0\"]\n[GameType \"20\"]\n1. 32-28 *\n";
        let games = crate::pdn::read_all(text.as_bytes());
        let mut players = Groups::new(GroupBy::Player);
        let mut years = Groups::new(GroupBy::Year);
        for g in &games {
            let r = check_game(g, &Options::default());
            players.add("f", g, &r);
            years.add("f", g, &r);
        }
        let ton = players
            .sorted()
            .into_iter()
            .find(|g| g.name.starts_with("Sijbrands"))
            .cloned()
            .unwrap();
        assert_eq!((ton.games, ton.wins, ton.draws, ton.losses), (3, 1, 1, 1));
        assert_eq!((ton.as_white, ton.as_black), ([1, 0, 0], [0, 1, 1]));
        assert_eq!(ton.score(), Some(0.5));
        let y: Vec<(String, u64)> = years
            .sorted()
            .iter()
            .map(|g| (g.name.clone(), g.games))
            .collect();
        assert_eq!(y, [("1999".to_string(), 2), ("1998".to_string(), 1)]);
    }
}

#[cfg(test)]
mod pending_tests {
    use super::*;

    #[test]
    fn a_waiting_game_reads_back() {
        let p = Pending {
            seq: 1 << 33,
            entries: [
                Waiting {
                    key: Sym::from_raw(3),
                    name: Sym::from_raw(4),
                    deeper: Sym::from_raw(7),
                    side: Some(2),
                    white: Some(false),
                },
                Waiting::NONE,
            ],
            n: 1,
            plies: Some(0),
            codes: 9,
            figures: None,
        };
        let mut b = Vec::new();
        p.write(&mut b);
        assert_eq!(b.len(), Pending::BYTES);
        let q = Pending::read(&b, false).expect("read back");
        assert_eq!(format!("{p:?}"), format!("{q:?}"));
        assert!(Pending::read(&b[1..], false).is_none());
        assert!(Pending::read(&b, true).is_none(), "no figures written");
        // With the figures of the plain summary (issue 62 item 7).
        let raw: Vec<u8> = (1..=GameFigures::BYTES as u8).collect();
        let f = GameFigures::read(&raw).expect("figures");
        let p = Pending {
            figures: Some((f, [Sym::from_raw(5), Sym::NONE])),
            ..p
        };
        let mut b = Vec::new();
        p.write(&mut b);
        assert_eq!(b.len(), Pending::BYTES + GameFigures::BYTES + 8);
        let q = Pending::read(&b, true).expect("read back");
        assert_eq!(format!("{p:?}"), format!("{q:?}"));
        assert!(Pending::read(&b[..b.len() - 1], true).is_none());
    }

    /// Games counted once as the tournament counts them, whatever bucket
    /// their copies fall in: a match of two players in three towns (one
    /// event, so the copy of round 2 stored under another town is one game),
    /// an event of many players in two towns (two events: its copies across
    /// towns both count), copies that disagree (none counts), games with no
    /// Round and with a placeholder (each counts), and the group named by
    /// the first game counted.
    #[test]
    fn each_game_counted_once_as_the_tournament_counts_it() {
        let game = |event: &str, site: &str, round: &str, w: &str, b: &str, res: &str| {
            let round = if round.is_empty() {
                String::new()
            } else {
                format!("[Round \"{round}\"]")
            };
            format!(
                "[Event \"{event}\"][Site \"{site}\"][Date \"1983.05.01\"]{round}[White \"{w}\"][Black \"{b}\"][Result \"{res}\"]\n{res}\n\n"
            )
        };
        // Named "ANN" (its first game), though the game of "Ann" with no
        // Round counts before the games that wait for their copies.
        let mut pdn = game("Open", "Ede", "2", "ANN", "Dan", "2-0");
        for (site, round) in [("Ede", "1"), ("Baarn", "2"), ("Zeist", "3"), ("Ede", "2")] {
            pdn += &game("Match", site, round, "Van der Wal, Anton", "Wiersma", "1-1");
        }
        for (site, round, w, b) in [
            ("Ede", "1", "Ann", "Bob"),
            ("Baarn", "1", "Cid", "Dan"),
            ("Ede", "1", "Ann", "Bob"),
            ("Baarn", "1", "Ann", "Bob"),
        ] {
            pdn += &game("Open", site, round, w, b, "2-0");
        }
        pdn += &game("Cup", "", "4", "Eve", "Fay", "2-0");
        pdn += &game("Cup", "", "4", "Eve", "Fay", "0-2");
        pdn += &game("Cup", "", "", "Eve", "Fay", "2-0");
        pdn += &game("Cup", "", "", "Eve", "Fay", "2-0");
        pdn += &game("Cup", "", "5", "?", "Fay", "1-1");
        pdn += &game("Cup", "", "5", "?", "Fay", "1-1");
        pdn += &game("Cup", "", "6", "Wal, Anton van der", "Fay", "1-1");
        pdn += &game("Open", "Ede", "", "Ann", "Cid", "1-1");
        let mut groups = Groups::new(GroupBy::Player);
        let opts = crate::Options::default().keep_moves(true);
        for g in crate::pdn::read_all(pdn.as_bytes()) {
            groups.add("f.pdn", &g, &crate::check_game(&g, &opts));
        }
        let got: Vec<(String, u64)> = groups
            .sorted()
            .into_iter()
            .map(|g| (g.name.clone(), g.games))
            .collect();
        // As pdnkit 4afa858 counted them, holding every game in memory.
        let want: Vec<(String, u64)> = [
            ("Fay", 5),
            ("ANN", 4),
            ("Van der Wal, Anton", 3),
            ("Wiersma", 3),
            ("Bob", 2),
            ("Cid", 2),
            ("Dan", 2),
            ("Eve", 2),
            ("unknown player", 2),
            ("Wal, Anton van der", 1),
        ]
        .iter()
        .map(|(n, c)| (n.to_string(), *c))
        .collect();
        assert_eq!(got, want);
        // One copy of the match (one event in three towns), one of the Open
        // at Ede (the Open at Baarn is another event); the Cup's pair
        // disagrees.
        assert_eq!(groups.set_aside(), (2, 2));
    }
}
