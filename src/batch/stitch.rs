//! The stitching thread, between the reading thread and the output: each
//! piece of text is read on the pool as soon as the piece after it is known;
//! the pieces are stitched in file order into the games one reader of the
//! file would read (`crate::pdn::split`); each file's variant is decided for
//! its untagged games (`Decider`); and the games go in batches to be checked
//! on the pool. The output stage gets each batch's result in input order.

use super::feed::{Block, Feed};
use super::{batch_bytes, InFlight, Item};
use crate::check::Decider;
use crate::infer::{FileName, Inference};
use crate::pdn::split::{self, Piece, PieceRead, Stitcher};
use crate::pdn::{Game, DEFAULT_MAX_GAME_BYTES};
use crate::replay::{GameReport, Options};
use rayon::prelude::*;
use std::collections::VecDeque;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::Arc;

/// Games per batch and bytes of game text per batch: one task on the pool.
const BATCH_GAMES: usize = 256;
const BATCH_BYTES: usize = 256 << 10;

/// A batch with the report of each of its games.
pub type Checked = (Vec<Item>, Vec<Option<GameReport>>);

/// A piece waiting in the queue: its reading, once started (it starts when
/// the piece after it is known, or when it is the file's last).
struct Queued {
    fi: usize,
    block: Arc<Block>,
    read: Option<Receiver<PieceRead>>,
}

enum Entry {
    Piece(Queued),
    Feed(Feed),
}

/// The file being stitched.
struct FileState<'o> {
    fi: usize,
    stitcher: Stitcher,
    decider: Decider<'o>,
}

/// The stitching thread's state.
pub struct Stitch<'r, 's> {
    rx: Receiver<Feed>,
    closed: bool,
    queue: VecDeque<Entry>,
    /// Pieces in the queue.
    pieces: usize,
    /// Pieces read ahead of the one being stitched, at most.
    window: usize,
    file: Option<FileState<'s>>,
    batch: Vec<Item>,
    bytes: usize,
    games: usize,
    out: SyncSender<Receiver<Checked>>,
    in_flight: &'s InFlight,
    scope: &'r rayon::Scope<'s>,
    pool: &'s rayon::ThreadPool,
    opts: &'s Options,
    max_game: usize,
    /// Per file: where it comes from (inputs first, then archive members as they come).
    names: Vec<Option<FileName>>,
    /// The inputs' names and the PATHs they were found under, for members.
    roots: std::collections::HashMap<String, String>,
}

/// Stitches everything `rx` brings and sends the batches' results on `out`;
/// returns when the input ends or the output stops.
#[allow(clippy::too_many_arguments)]
pub fn run<'s>(
    names: Vec<FileName>,
    rx: Receiver<Feed>,
    out: SyncSender<Receiver<Checked>>,
    scope: &rayon::Scope<'s>,
    pool: &'s rayon::ThreadPool,
    opts: &'s Options,
    in_flight: &'s InFlight,
) {
    let mut st = Stitch {
        rx,
        closed: false,
        queue: VecDeque::new(),
        pieces: 0,
        window: 2 * pool.current_num_threads() + 2,
        file: None,
        batch: Vec::with_capacity(BATCH_GAMES + 1),
        bytes: 0,
        games: 0,
        out,
        in_flight,
        scope,
        pool,
        opts,
        max_game: opts.max_game_bytes.unwrap_or(DEFAULT_MAX_GAME_BYTES),
        roots: names
            .iter()
            .map(|n| {
                let root = n
                    .path
                    .strip_suffix(n.below.as_str())
                    .unwrap_or("")
                    .to_string();
                (n.path.clone(), root)
            })
            .collect(),
        names: names.into_iter().map(Some).collect(),
    };
    loop {
        st.fill();
        if st.queue.is_empty() {
            if st.closed {
                break;
            }
            st.receive();
            continue;
        }
        if !st.step() {
            return;
        }
    }
    st.submit();
}

impl<'s> Stitch<'_, 's> {
    /// Takes what has arrived, without waiting, up to the window.
    fn fill(&mut self) {
        while !self.closed && self.pieces < self.window {
            match self.rx.try_recv() {
                Ok(f) => self.enqueue(f),
                Err(std::sync::mpsc::TryRecvError::Empty) => return,
                Err(std::sync::mpsc::TryRecvError::Disconnected) => self.closed = true,
            }
        }
    }

    /// Waits for the next feed.
    fn receive(&mut self) {
        match self.rx.recv() {
            Ok(f) => self.enqueue(f),
            Err(_) => self.closed = true,
        }
    }

    fn enqueue(&mut self, f: Feed) {
        if let Feed::Item(Item::Member(mi, name)) = &f {
            // A member is named in its archive's words: `a.zip!games.pdn`.
            let root = name
                .split_once('!')
                .and_then(|(archive, _)| self.roots.get(archive))
                .cloned()
                .unwrap_or_default();
            if self.names.len() <= *mi {
                self.names.resize(*mi + 1, None);
            }
            self.names[*mi] = Some(FileName::new(name, &root));
        }
        let Feed::Piece(fi, block) = f else {
            self.queue.push_back(Entry::Feed(f));
            return;
        };
        // The piece before it in the same file can be read now.
        let prev = match self.queue.back() {
            Some(Entry::Piece(p)) if p.fi == fi && p.read.is_none() => Some(Arc::clone(&p.block)),
            _ => None,
        };
        if let Some(prev) = prev {
            let read = self.start_reading(fi, &prev, Some(&block));
            if let Some(Entry::Piece(p)) = self.queue.back_mut() {
                p.read = Some(read);
            }
        }
        let read = block.last.then(|| self.start_reading(fi, &block, None));
        self.pieces += 1;
        self.queue
            .push_back(Entry::Piece(Queued { fi, block, read }));
    }

    /// Reads `block` of file `fi` on the pool (with the piece after it, if
    /// any), as though what the file's stitching has decided about its
    /// encoding so far held at its start.
    fn start_reading(
        &self,
        fi: usize,
        block: &Arc<Block>,
        next: Option<&Arc<Block>>,
    ) -> Receiver<PieceRead> {
        let (tx, rx) = sync_channel(1);
        // The stitcher's own decision once it has one; before, the reading
        // thread's guess.
        let decided = match &self.file {
            Some(f) if f.fi == fi && f.stitcher.decided().is_made() => Some(f.stitcher.decided()),
            _ => block.guess,
        };
        let block = Arc::clone(block);
        let next = next.map(Arc::clone);
        let max = self.max_game;
        self.scope.spawn(move |_| {
            let after: Vec<&[u8]> = next.iter().map(|n| n.bytes.as_slice()).collect();
            let eof = next.as_ref().map_or(block.eof, |n| n.last && n.eof);
            let mut piece = Piece::new(&block.bytes, &after, eof, block.start).open(block.open);
            if let Some(d) = decided {
                piece = piece.decided(d);
            }
            let _ = tx.send(split::read_piece(&piece, max));
        });
        rx
    }

    /// Handles the entry at the front of the queue. False: the output stopped.
    fn step(&mut self) -> bool {
        // A piece is read once the one after it is known.
        while matches!(self.queue.front(), Some(Entry::Piece(q)) if q.read.is_none()) {
            if self.closed {
                // The reading thread stopped before the file's end: the run is stopping.
                return false;
            }
            self.receive();
        }
        match self.queue.pop_front() {
            Some(Entry::Piece(q)) => {
                self.pieces -= 1;
                self.piece(q)
            }
            Some(Entry::Feed(Feed::Game(fi, g))) => self.games_of(fi, vec![g]),
            Some(Entry::Feed(Feed::End(fi, error))) => self.file_end(fi, error),
            Some(Entry::Feed(Feed::Item(it))) => self.push(it),
            Some(Entry::Feed(Feed::Piece(..))) | None => true,
        }
    }

    /// The pieces after the front one in its file that are in the queue
    /// (at most `m`), waiting for more when fewer are there and more come.
    fn following(&mut self, fi: usize, m: usize) -> Vec<Arc<Block>> {
        loop {
            let found: Vec<Arc<Block>> = self
                .queue
                .iter()
                .map_while(|e| match e {
                    Entry::Piece(q) if q.fi == fi => Some(Arc::clone(&q.block)),
                    _ => None,
                })
                .take(m)
                .collect();
            if found.len() == m || found.last().is_some_and(|b| b.last) || self.closed {
                return found;
            }
            self.receive();
        }
    }

    /// Stitches a piece read on the pool, reading on where it is out of step.
    fn piece(&mut self, q: Queued) -> bool {
        let Some(read) = q.read.and_then(|rx| rx.recv().ok()) else {
            return false;
        };
        let (fi, block) = (q.fi, q.block);
        self.file_state(fi);
        let mut m = 1;
        let next = if block.last {
            Vec::new()
        } else {
            self.following(fi, m)
        };
        let mut games = Vec::new();
        let mut done = self.stitch(Some(read), &mut games, &block, &next);
        while !done {
            let more = self.following(fi, m + 1);
            if more.len() <= m {
                // No more text: the file ended with a read error in a game.
                break;
            }
            m = more.len();
            done = self.stitch(None, &mut games, &block, &more);
        }
        if !self.games_of(fi, games) {
            return false;
        }
        if block.last {
            return self.file_end(fi, block.error.clone());
        }
        true
    }

    /// Stitches the piece `block` (its reading `read` the first time, then
    /// `None` to go on with more pieces after it in `next`) into `games`.
    /// True when its games are all there.
    fn stitch(
        &mut self,
        read: Option<PieceRead>,
        games: &mut Vec<Game>,
        block: &Block,
        next: &[Arc<Block>],
    ) -> bool {
        let after: Vec<&[u8]> = next.iter().map(|b| b.bytes.as_slice()).collect();
        let eof = eof_after(block, next);
        let max = self.max_game;
        let Some(f) = &mut self.file else { return true };
        let st = &mut f.stitcher;
        match read {
            Some(read) => {
                let (taken, done) = st.take(read, &block.bytes, block.start, &after, eof, max);
                games.extend(taken);
                done
            }
            None => st.resume(games, &block.bytes, block.start, &after, eof, max),
        }
    }

    /// The state of file `fi`, new at its first piece or game.
    fn file_state(&mut self, fi: usize) -> &mut FileState<'s> {
        if self.file.as_ref().is_none_or(|f| f.fi != fi) {
            self.file = Some(FileState {
                fi,
                stitcher: Stitcher::new(),
                decider: decider(self.opts, self.pool, self.names.get(fi).cloned().flatten()),
            });
        }
        match &mut self.file {
            Some(f) => f,
            None => unreachable!("set just above"),
        }
    }

    /// Games of file `fi`, in order, through its decider.
    fn games_of(&mut self, fi: usize, games: Vec<Game>) -> bool {
        let mut ready = Vec::new();
        let file = self.file_state(fi);
        for g in games {
            ready.extend(file.decider.push(g));
        }
        ready.into_iter().all(|p| self.push(Item::Game(fi, p)))
    }

    /// The end of file `fi`: the games its decider still holds, then its
    /// findings (or the read error that ended it).
    fn file_end(&mut self, fi: usize, error: Option<String>) -> bool {
        let state = match self.file.take() {
            Some(f) if f.fi == fi => Some(f),
            other => {
                self.file = other;
                None
            }
        };
        let (rest, inference) = match state {
            Some(f) => f.decider.finish(),
            None => decider(self.opts, self.pool, self.names.get(fi).cloned().flatten()).finish(),
        };
        if !rest.into_iter().all(|p| self.push(Item::Game(fi, p))) {
            return false;
        }
        // A file that ended with a read error was read as far as it goes:
        // its games and its findings are kept, then the error is reported.
        let done = self.push(Item::Done(fi, inference));
        match error {
            None => done,
            Some(msg) => done && self.push(Item::Error(fi, msg)),
        }
    }

    /// Adds an item to the batch, sending the batch when full.
    fn push(&mut self, it: Item) -> bool {
        if let Item::Game(_, p) = &it {
            self.bytes += p.game().text().len();
            self.games += 1;
        }
        self.batch.push(it);
        if self.games >= BATCH_GAMES || self.bytes >= BATCH_BYTES {
            return self.submit();
        }
        true
    }

    /// Checks the batch on the pool; its result goes to the output in turn.
    fn submit(&mut self) -> bool {
        if self.batch.is_empty() {
            return true;
        }
        self.bytes = 0;
        self.games = 0;
        let mut batch = std::mem::replace(&mut self.batch, Vec::with_capacity(BATCH_GAMES + 1));
        self.in_flight.take(batch_bytes(&batch));
        let (tx, rx) = sync_channel(1);
        let opts = self.opts;
        self.scope.spawn(move |_| {
            let reports = batch
                .iter_mut()
                .map(|it| match it {
                    Item::Game(_, p) => Some(p.check(opts)),
                    _ => None,
                })
                .collect();
            let _ = tx.send((batch, reports));
        });
        self.out.send(rx).is_ok()
    }
}

/// Whether the file ends after `block` and the pieces `next` after it.
fn eof_after(block: &Block, next: &[Arc<Block>]) -> bool {
    match next.last() {
        Some(n) => n.last && n.eof,
        None => block.last && block.eof,
    }
}

/// A file's decider; the games it replays to decide go to the pool.
fn decider<'o>(
    opts: &'o Options,
    pool: &'o rayon::ThreadPool,
    name: Option<FileName>,
) -> Decider<'o> {
    Decider::for_file(opts, name).with_checker(Box::new(
        move |games: &[&Game], inference: &Inference| {
            pool.install(|| {
                games
                    .par_iter()
                    .map(|g| crate::replay::check_game_with(g, opts, inference))
                    .collect()
            })
        },
    ))
}
