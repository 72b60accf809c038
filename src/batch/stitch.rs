//! The stitching thread, between the reading thread and the output: each
//! piece of text is read on the pool as soon as the piece after it is known;
//! the pieces are stitched in file order into the games one reader of the
//! file would read (`crate::pdn::split`); each file's variant is decided for
//! its untagged games (`Decider`); and the games go in batches to be checked
//! on the pool. The output stage gets each batch's result in input order.

use super::feed::{Block, Feed};
use super::model::{batch_bytes, FileErrorKind, InFlight, Item};
use crate::check::Decider;
use crate::infer::{FileName, Inference};
use crate::pdn::split::{self, Piece, PieceRead, Stitcher};
use crate::pdn::{Game, DEFAULT_MAX_GAME_BYTES};
use crate::replay::{GameReport, Options};
use rayon::prelude::*;
use std::collections::VecDeque;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::Arc;

/// Bytes a reader may read past a game's end besides half its buffer (its
/// chunk, twice over).
const READ_AHEAD_MARGIN: usize = 256 << 10;

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
        let next = if block.last {
            Vec::new()
        } else {
            self.following(fi, 1)
        };
        let mut games = Vec::new();
        let mut done = self.stitch(Some(read), &mut games, &block, &next);
        let end = block.start + block.bytes.len() as u64;
        while !done && !block.last {
            // A game runs on past the next piece: read across the pieces as
            // they come, each dropped once read (issue 40: a long game past
            // the size limit was held whole, and read again at each piece).
            let (across, ended) = self.across(fi, &block);
            if across.is_empty() {
                // The run is stopping: the bytes ended in the game.
                break;
            }
            games.extend(across);
            if let Some(error) = ended {
                if error.is_some() {
                    cut_last(&mut games);
                }
                return self.games_of(fi, games) && self.file_end(fi, error);
            }
            let at = self.file.as_ref().map_or(end, |f| f.stitcher.offset());
            if at >= end {
                break;
            }
            // The game ended in this piece (the reading had looked past the
            // next one): the rest of the piece is stitched as before.
            let next = self.following(fi, 1);
            done = self.stitch(None, &mut games, &block, &next);
        }
        if block.last && block.error.is_some() {
            cut_last(&mut games);
        }
        if !self.games_of(fi, games) {
            return false;
        }
        if block.last {
            return self.file_end(fi, block.error.clone());
        }
        true
    }

    /// Reads the game of file `fi` that starts in `block` and runs on past
    /// the piece after it, pulling the pieces from the queue as the reading
    /// needs them; each piece read to its end is passed over (its line
    /// breaks counted) and dropped, and the piece the game ends in goes back
    /// to the front of the queue, to be stitched from where the game ends.
    /// Also the file's end, when the reading met it: `Some(error)`.
    fn across(&mut self, fi: usize, block: &Arc<Block>) -> (Vec<Game>, Option<Option<String>>) {
        let max = self.max_game;
        let Some(mut file) = self.file.take() else {
            return (Vec::new(), None);
        };
        let from = file.stitcher.offset().saturating_sub(block.start) as usize;
        let mut src = Across {
            st: self,
            fi,
            current: Arc::clone(block),
            at: from.min(block.bytes.len()),
            pulled: VecDeque::new(),
            held: 0,
            // The reader reads ahead of a game's end by at most half its
            // buffer (which holds at most the limit and a half) or a chunk:
            // the game ends in one of the pieces held.
            hold: max.saturating_mul(2).saturating_add(READ_AHEAD_MARGIN),
            dropped: 0,
        };
        let game = file.stitcher.read_across(&mut src, max);
        let pulled = std::mem::take(&mut src.pulled);
        let dropped = src.dropped;
        file.stitcher.pass(dropped);
        let Some(game) = game else {
            // The bytes ended in the game: the run is stopping (the reading
            // thread stopped). Nothing more is stitched.
            self.file = Some(file);
            return (Vec::new(), None);
        };
        let end = file.stitcher.offset();
        let mut ended = None;
        // The piece the game ends in, and those the reading pulled after it:
        // back to the front of the queue, in order.
        let mut back: Vec<Queued> = Vec::new();
        for q in pulled {
            let stop = q.block.start + q.block.bytes.len() as u64;
            if stop <= end && back.is_empty() {
                file.stitcher
                    .pass(crate::pdn::count_breaks(&q.block.bytes, q.block.open).0);
                if q.block.last {
                    ended = Some(q.block.error.clone());
                }
            } else {
                back.push(q);
            }
        }
        self.file = Some(file);
        // A piece is read once the piece after it is known: those pulled
        // before their next one came are read now (the last one's reading
        // starts when its next one comes, as any piece's).
        for i in 0..back.len().saturating_sub(1) {
            if back[i].read.is_none() {
                let next = Arc::clone(&back[i + 1].block);
                let read = self.start_reading(fi, &back[i].block, Some(&next));
                back[i].read = Some(read);
            }
        }
        for q in back.into_iter().rev() {
            self.pieces += 1;
            self.queue.push_front(Entry::Piece(q));
        }
        (vec![game], ended)
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
            Some(msg) => done && self.push(Item::Error(fi, FileErrorKind::Broken, msg)),
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

/// The bytes of a file from a point in one piece on, the pieces after it
/// pulled from the stitching queue as they are read (waiting for them), so
/// that only the piece being read is held.
struct Across<'a, 'r, 's> {
    st: &'a mut Stitch<'r, 's>,
    fi: usize,
    current: Arc<Block>,
    /// Bytes of `current` read so far.
    at: usize,
    /// The pieces pulled and still held, in order (the last is `current`
    /// once one is).
    pulled: VecDeque<Queued>,
    /// Their bytes, and the most held: older pieces are dropped past it,
    /// their line breaks counted in `dropped`.
    held: usize,
    hold: usize,
    dropped: u32,
}

impl std::io::Read for Across<'_, '_, '_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            let rest = &self.current.bytes[self.at.min(self.current.bytes.len())..];
            if !rest.is_empty() {
                let n = rest.len().min(buf.len());
                buf[..n].copy_from_slice(&rest[..n]);
                self.at += n;
                return Ok(n);
            }
            if self.current.last {
                // A read error ends the text as the end of the file would:
                // the game is read as far as it goes (the error is reported
                // at the file's end).
                return Ok(0);
            }
            // The next piece of the file, as soon as it comes.
            loop {
                match self.st.queue.front() {
                    Some(Entry::Piece(q)) if q.fi == self.fi => break,
                    Some(_) => {
                        return Err(std::io::Error::other("the file's pieces end here"));
                    }
                    None if self.st.closed => {
                        return Err(std::io::Error::other("the reading stopped"));
                    }
                    None => self.st.receive(),
                }
            }
            let Some(Entry::Piece(q)) = self.st.queue.pop_front() else {
                return Err(std::io::Error::other("the file's pieces end here"));
            };
            self.st.pieces -= 1;
            self.current = Arc::clone(&q.block);
            self.at = 0;
            self.held += q.block.bytes.len();
            self.pulled.push_back(q);
            while self.pulled.len() > 1 {
                let oldest = self.pulled.front().map_or(0, |q| q.block.bytes.len());
                if self.held - oldest < self.hold {
                    break;
                }
                if let Some(old) = self.pulled.pop_front() {
                    self.held -= old.block.bytes.len();
                    self.dropped = self.dropped.saturating_add(
                        crate::pdn::count_breaks(&old.block.bytes, old.block.open).0,
                    );
                }
            }
        }
    }
}

/// Whether the file ends after `block` and the pieces `next` after it.
fn eof_after(block: &Block, next: &[Arc<Block>]) -> bool {
    match next.last() {
        Some(n) => n.last && n.eof,
        None => block.last && block.eof,
    }
}

/// The last game read before a read error ended the file runs into the
/// break: marked incomplete when it has no result ([`Game::cut_by_break`]).
fn cut_last(games: &mut [Game]) {
    if let Some(g) = games.last_mut() {
        g.cut_by_break();
    }
}

/// A file's decider; the games it replays to decide go to the pool.
fn decider<'o>(
    opts: &'o Options,
    pool: &'o rayon::ThreadPool,
    name: Option<FileName>,
) -> Decider<'o> {
    Decider::for_file(opts, name).with_checker(Box::new(
        move |games: &[&Game], inference: &Inference, o: &Options| {
            pool.install(|| {
                games
                    .par_iter()
                    .map(|g| crate::replay::check_game_with(g, o, inference))
                    .collect()
            })
        },
    ))
}
